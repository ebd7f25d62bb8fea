"""Frames of the host <-> board link: the one codec both ends import (see docs/protocol.md).

Raw frame: type:u8 | seq:u16 LE | body (0..MAX_BODY bytes) | crc16:u16 LE, the CRC-16/CCITT-FALSE
of type..body (crc.py); stuffed by cobs.py (COBS + Ctrl-C escape) and ended by one 0x00. Encoding
into a caller's buffer and decoding a valid frame allocate nothing, so the board's serial loop
stays off the MicroPython heap. Also here because both ends need them: message types, error
kinds, u16 sequence arithmetic and the run encoding of DELTA bodies.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.wire.cobs import (  # noqa: F401  (error kinds re-exported for users of the codec)
    ERR_COBS, ERR_ESCAPE, ERR_OVERSIZE, Unstuffer, max_stuffed_len, stuff_into,
)
from shared_rules.wire.crc import crc16

PROTOCOL_VERSION = const(1)
MAX_BODY = const(640)         # a referee snapshot fits: Sheriff with the card modules, 623-byte state
_BODY_OFFSET = const(3)        # type, seq
FRAME_OVERHEAD = const(5)     # type, seq, crc
MAX_RAW = const(645)          # MAX_BODY + FRAME_OVERHEAD
MAX_FRAME = const(1297)       # max_stuffed_len(MAX_RAW): worst case on the wire, delimiter included

# Message types: the high bit tells the direction; no type is 0x03 or 0x10, which would cost an
# escape byte in every frame. Body layouts: docs/protocol.md.
HELLO = const(0x41)  # board -> host
SNAPSHOT = const(0x42)
DELTA = const(0x43)
REJECT = const(0x44)
PROMPT = const(0x45)
DIAG = const(0x46)
PONG = const(0x47)
ERROR = const(0x48)
STORED = const(0x49)     # a pushed deck profile is the board's profile.bin now: crc32:u32, size:u16
SEEN = const(0x4A)       # the answer to PEEK: view kind (referee), game id, the rules' state bytes
UNDONE = const(0x4B)     # the answer to UNDO: why not (0: undone), then the entry's record (alen + bytes)
DIAG_MESSAGE = const(1)  # DIAG body: this kind, then a UTF-8 line for the people at the table
DIAG_READER = const(2)   # DIAG body: this kind, reader:u8, state:u8 (0 ok, 1 down, 2 stuck), VersionReg:u8
SUBSCRIBE = const(0x81)  # host -> board
RESYNC = const(0x82)
ACTION = const(0x83)
NEWGAME = const(0x84)
PING = const(0x85)
CONSOLE = const(0x86)   # hand the console over: Ctrl-C stops the firmware for a while
PROFILE = const(0x87)   # a chunk of a deck profile's binary form: offset:u16, total:u16, data
PEEK = const(0x88)      # the referee view once (SEEN), the subscription unchanged: each phone's own side
UNDO = const(0x89)      # take back the last host entry (its record, trimmed): answered by UNDONE

# UNDONE's first byte: why an UNDO was refused (0: it was not).
UNDO_NONE = const(1)    # no host entry to take back (none since the game or the board started, or undone)
UNDO_MAT = const(2)     # a move on the mat was accepted after it
UNDO_OTHER = const(3)   # the last host entry is not the one named

# Error kinds (the ERROR body's first byte): 1-3 from cobs.py, then the frame layer's own;
# ERR_TYPE and ERR_BODY are found by the application, not by FrameReader.
ERR_SHORT = const(4)  # fewer than 5 bytes between delimiters
ERR_CRC = const(5)
ERR_TYPE = const(6)  # unknown message type, or one the receiver never accepts
ERR_BODY = const(7)  # body does not match the type's layout
ERROR_KINDS = const(8)
ERROR_NAMES = ("", "cobs", "escape", "oversize", "short", "crc", "type", "body")

_RUN_HEADER = const(3)  # offset:u16 LE, len:u8
_MAX_RUN = const(255)


def encode_into(out, ftype, seq, body, body_len=-1):
    """Encode one frame into out[0:] (delimiter included) and return its length. Allocates nothing.

    Uses body[0:body_len] (all of body when body_len < 0); seq is taken modulo 2**16. `out` needs
    max_stuffed_len(body_len + FRAME_OVERHEAD) bytes (MAX_FRAME always suffices): the raw frame
    is staged at its tail and stuffed forward in place.
    """
    if body_len < 0:
        body_len = len(body)
    n = body_len + FRAME_OVERHEAD
    if body_len > MAX_BODY or not 0 <= ftype <= 0xFF or len(out) < max_stuffed_len(n):
        raise ValueError("encode_into: body too long, bad type or output buffer too small")
    k = len(out) - n
    out[k] = ftype
    out[k + 1] = seq & 0xFF
    out[k + 2] = (seq >> 8) & 0xFF
    p = k + _BODY_OFFSET
    for i in range(body_len):
        out[p + i] = body[i]
    p += body_len
    crc = crc16(out, k, p)
    out[p] = crc & 0xFF
    out[p + 1] = crc >> 8
    return stuff_into(out, out, k, k + n)


def encode(ftype, seq, body=b""):
    """Host convenience: one encoded frame as bytes."""
    out = bytearray(max_stuffed_len(len(body) + FRAME_OVERHEAD))
    return bytes(out[:encode_into(out, ftype, seq, body)])


class FrameReader(Unstuffer):
    """Streaming frame decoder with a preallocated buffer; garbage is counted, never raised.

    After feed() returns with `ready` true: `type`, `seq` and the body in body[0:body_len]
    (a memoryview into buf, valid until the next feed). Errors per kind are in `errors`.
    """

    def __init__(self):
        Unstuffer.__init__(self, MAX_RAW, ERROR_KINDS)
        self.body = memoryview(self.buf)[_BODY_OFFSET:]
        self.type = 0
        self.seq = 0
        self.body_len = 0

    def _accept(self, n):
        buf = self.buf
        if n < FRAME_OVERHEAD:
            return ERR_SHORT
        if crc16(buf, 0, n - 2) != buf[n - 2] | (buf[n - 1] << 8):
            return ERR_CRC
        self.type = buf[0]
        self.seq = buf[1] | (buf[2] << 8)
        self.body_len = n - FRAME_OVERHEAD
        return 0

    def frames(self, data):
        """Host convenience: yield (type, seq, body bytes) for each frame that data completes."""
        pos = 0
        end = len(data)
        while pos < end:
            pos = self.feed(data, pos, end)
            if self.ready:
                yield self.type, self.seq, bytes(self.body[:self.body_len])


def seq_next(seq):
    """The sequence number after seq (u16, wrapping)."""
    return (seq + 1) & 0xFFFF


def seq_gap(last, seq):
    """Frames missing between `last` and `seq`: 0 when seq is the expected next one.

    A repeated frame (seq == last) gives 0xFFFF; any non-zero answer makes the host ask for RESYNC.
    """
    return (seq - last - 1) & 0xFFFF


def diff_runs(old, new, out, n=-1, at=0):
    """Write the runs that turn old[0:n] into new[0:n] into out[at:]; return their length, -1 if they
    don't fit.

    A run is offset:u16 LE, len:u8 (1..255), then len bytes of `new`. Gaps of up to two equal bytes
    are sent inside a run, since a new run header costs three. Allocates nothing; when the runs
    don't fit, the sender sends a SNAPSHOT instead.
    """
    if n < 0:
        n = len(new)
    if n > 0x10000:
        raise ValueError("diff_runs: offsets are u16")
    cap = len(out)
    w = at
    i = 0
    while i < n:
        if old[i] == new[i]:
            i += 1
            continue
        start = i
        stop = i + 1  # end of the changed bytes found so far
        limit = start + _MAX_RUN
        if limit > n:
            limit = n
        j = stop
        while j < limit:
            if old[j] != new[j]:
                j += 1
                stop = j
            elif j - stop >= 2:  # a third equal byte: a new run is no dearer
                break
            else:
                j += 1
        size = stop - start
        if w + _RUN_HEADER + size > cap:
            return -1
        out[w] = start & 0xFF
        out[w + 1] = start >> 8
        out[w + 2] = size
        w += _RUN_HEADER
        for k in range(start, stop):
            out[w] = new[k]
            w += 1
        i = stop
    return w - at


def apply_runs(buf, runs, start=0, end=-1):
    """Apply the runs in runs[start:end] to buf; return how many, or -1 (buf untouched) if malformed."""
    if end < 0:
        end = len(runs)
    size = len(buf)
    for write in range(2):  # check every run first (0), then apply them (1)
        count = 0
        at = start
        while at < end:
            if at + _RUN_HEADER > end:
                return -1
            offset = runs[at] | (runs[at + 1] << 8)
            length = runs[at + 2]
            at += _RUN_HEADER
            if length == 0 or offset + length > size or at + length > end:
                return -1
            if write:
                for k in range(length):
                    buf[offset + k] = runs[at + k]
            at += length
            count += 1
    return count
