"""The board's end of the serial link: frame in, frame out, with preallocated buffers.

Framing and CRC are ``shared_rules/wire/codec.py`` (the host imports the same file); this module
owns the board's sequence counter, its receive and send buffers and the body layouts of the
board's messages (docs/protocol.md, section 6). Nothing here allocates once constructed.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.wire import codec

_RX_CHUNK = const(64)
_MAX_CHUNKS = const(8)   # at most 512 bytes read per poll(): a frame may take several loop steps
_SERVE_BYTES = const(16)  # at most this many bytes read and decoded per serve()


class BoardLink:
    def __init__(self, port):
        """``port``: the board profile's link (``readinto(buf) -> n``, ``write(buf, n)``)."""
        self.port = port
        self.reader = codec.FrameReader()
        self.rx = bytearray(_RX_CHUNK)
        self.end = 0     # rx[start:end]: read from the line, not fed to the reader yet
        self.start = 0
        self.head = memoryview(self.rx)[:_SERVE_BYTES]   # rx's head: serve()'s small reads
        self.held = False  # serve() completed a frame that poll() has not handed over yet
        self.out = bytearray(codec.MAX_FRAME)
        self.body = bytearray(codec.MAX_BODY)
        self.seq = 0

    def poll(self):
        """Read from the line until a frame is complete (True, in ``self.reader``), the line is
        empty, or ``_MAX_CHUNKS`` reads were spent. The caller bounds the polls per loop step
        (``App.service_link``), so a flood cannot stall the loop."""
        reader = self.reader
        if self.held:
            self.held = False
            return True
        reader.ready = False  # the frame before (if any) is handled: serve() may decode again
        for _ in range(_MAX_CHUNKS):
            if self.start >= self.end:
                self.end = self.port.readinto(self.rx)
                self.start = 0
                if not self.end:
                    return False
            self.start = reader.feed(self.rx, self.start, self.end)
            if reader.ready:
                return True
        return False

    def serve(self):
        """Read and decode at most ``_SERVE_BYTES`` bytes: the MFRC522 driver calls this while a
        reader waits out its field guard, so a host frame is complete when ``poll()`` runs. Not a
        byte once the reader holds a complete frame (waiting for ``poll()``, or being handled:
        frames are handled between loop steps only, never in the middle of a scan)."""
        reader = self.reader
        if reader.ready:
            return
        pos = self.start
        if pos >= self.end:
            pos = self.start = 0
            self.end = self.port.readinto(self.head)
        end = self.end
        if end > pos + _SERVE_BYTES:
            end = pos + _SERVE_BYTES
        if pos < end:
            self.start = reader.feed(self.rx, pos, end)
            self.held = reader.ready

    def send(self, ftype, n):
        """Send ``self.body[0:n]`` as a frame of ``ftype``."""
        k = codec.encode_into(self.out, ftype, self.seq, self.body, n)
        self.seq = codec.seq_next(self.seq)
        self.port.write(self.out, k)

    # -- bodies ------------------------------------------------------------------------
    def put_record(self, at, rec, hidden):
        """Copy an action record into the body at ``at``, length first, masked *then* trimmed of
        its zero tail.

        ``hidden`` is a vocabulary whose hidden fields are zeroed in the copy (None: none are, the
        referee's view).
        Masking before trimming keeps hidden values out of the length too: two records that
        differ only in hidden fields give the same bytes (docs/protocol.md, section 6).
        Returns the offset after it.
        """
        body = self.body
        start = at + 1
        end = len(rec)
        for i in range(end):
            body[start + i] = rec[i]
        if hidden is not None:
            hidden.mask_into(body, start, end)
        while end > 2 and body[start + end - 1] == 0:
            end -= 1
        body[at] = end
        return start + end
