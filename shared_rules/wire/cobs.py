"""Byte stuffing of the host <-> board link: COBS plus a Ctrl-C escape, 0x00 as packet delimiter.

COBS (S. Cheshire, M. Baker, "Consistent Overhead Byte Stuffing", IEEE/ACM Trans. Networking
7(2), 1999) rewrites a packet without 0x00, so a single 0x00 ends it and a receiver resynchronises
at the next 0x00 whatever came before. A second step removes 0x03 (Ctrl-C): MicroPython's
kbd_intr turns it into KeyboardInterrupt on the board's stdin, and keeping it out of the data
lets `mpremote` interrupt the firmware while it reads the link. DLE (0x10) escapes 0x03 and
itself as DLE, byte ^ 0x20 (0x03 -> 10 23, 0x10 -> 10 30), never producing 0x00 or 0x03.
Both ends (MicroPython board, CPython host) import this file unchanged; see docs/protocol.md.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

DLE = const(0x10)
_CTRL_C = const(0x03)
_ESC_XOR = const(0x20)
_BLOCK = const(254)  # longest run of non-zero bytes one COBS code byte (0xFF) covers

# Error kinds of the stuffing layer; the frame layer (codec.py) numbers its own kinds after these.
ERR_COBS = const(1)  # 0x00 arrived inside a COBS block: truncated packet or line noise
ERR_ESCAPE = const(2)  # DLE not followed by 0x23/0x30, or a raw 0x03 inside a packet
ERR_OVERSIZE = const(3)  # packet longer than the receive buffer: dropped up to the next 0x00
ERROR_KINDS = const(4)  # size of an `errors` list indexed by these kinds (index 0 unused)

_DATA = const(0)  # receiving a packet (or idle between packets)
_ESC = const(1)  # the previous byte was DLE
_SKIP = const(2)  # after an error: dropping bytes up to the next 0x00


def max_stuffed_len(n):
    """Worst-case stuffed size of n packet bytes, delimiter included: every byte escaped."""
    return 2 * (n + n // _BLOCK + 1) + 1


def stuff_into(out, src, start=0, end=-1):
    """Stuff src[start:end] into out[0:], delimiter included; return the length. Allocates nothing.

    `out` must hold max_stuffed_len(end - start) bytes. `src` may be `out` itself when the packet
    sits at its tail (start = len(out) - n): the writer never overtakes the unread bytes, because
    after reading c bytes it has written at most 2c + 2 * (c // 254) + 2.
    """
    if end < 0:
        end = len(src)
    n = end - start
    if n < 0 or len(out) < max_stuffed_len(n):
        raise ValueError("stuff_into: output buffer too small")
    w = 0
    r = start
    while True:
        j = r
        stop = r + _BLOCK
        if stop > end:
            stop = end
        while j < stop and src[j] != 0:
            j += 1
        for i in range(r - 1, j):  # the block's code byte, then its data; 0x03 and DLE escaped
            b = src[i] if i >= r else j - r + 1
            if b == _CTRL_C or b == DLE:
                out[w] = DLE
                out[w + 1] = b ^ _ESC_XOR
                w += 2
            else:
                out[w] = b
                w += 1
        if j == end:
            break
        r = j if j - r == _BLOCK else j + 1  # a full block implies no zero; else skip the zero
    out[w] = 0
    return w + 1


class Unstuffer:
    """Streaming decoder into a preallocated buffer; never raises on any input, allocates nothing.

    feed() consumes bytes until a packet completes; then `ready` is true and the packet is
    buf[0:length] until the next feed. Errors are counted per kind in `errors` (and `last_error`);
    after one the decoder drops bytes up to the next 0x00. A 0x00 with nothing before it (a
    leading or repeated delimiter) is idle, not an error. Subclasses check complete packets in
    _accept().
    """

    def __init__(self, capacity, error_kinds=ERROR_KINDS):
        self.buf = bytearray(capacity)
        self.errors = [0] * error_kinds
        self.last_error = 0
        self.packets = 0
        self.ready = False
        self.length = 0
        self._n = 0      # bytes decoded so far
        self._left = 0   # bytes still due in the current COBS block
        self._code = 0   # current COBS code byte; 0: no packet started
        self._state = _DATA

    def _accept(self, n):
        """Error kind for the complete packet buf[0:n], or 0 to deliver it."""
        return 0

    def _error(self, kind):
        self.errors[kind] += 1
        self.last_error = kind

    def feed(self, data, start=0, end=-1):
        """Decode data[start:end] up to the end of the next complete packet; return where it stopped.

        Loop `pos = r.feed(buf, pos, n)` while pos < n and handle the packet when `r.ready`.
        """
        if end < 0:
            end = len(data)
        self.ready = False
        buf = self.buf
        cap = len(buf)
        n = self._n
        left = self._left
        code = self._code
        state = self._state
        i = start
        while i < end:
            b = data[i]
            i += 1
            if b == 0:
                kind = 0
                if state == _ESC:
                    kind = ERR_ESCAPE
                elif state == _DATA and code:
                    kind = ERR_COBS if left else self._accept(n)
                    if not kind:
                        self.ready = True
                        self.length = n
                        self.packets += 1
                if kind:
                    self._error(kind)
                n = left = code = 0
                state = _DATA
                if self.ready:
                    break
                continue
            if state == _SKIP:
                continue
            if state == _ESC:
                state = _DATA
                if b == _CTRL_C ^ _ESC_XOR or b == DLE ^ _ESC_XOR:
                    b ^= _ESC_XOR
                else:
                    self._error(ERR_ESCAPE)
                    state = _SKIP
                    continue
            elif b == DLE:
                state = _ESC
                continue
            elif b == _CTRL_C:
                self._error(ERR_ESCAPE)
                state = _SKIP
                continue
            if left:  # a data byte of the current block
                left -= 1
            else:  # a code byte; the block before it stood for a zero unless it was full (0xFF)
                stood_for_zero = code and code != 0xFF
                code = b
                left = b - 1
                if not stood_for_zero:
                    continue
                b = 0
            if n == cap:
                self._error(ERR_OVERSIZE)
                state = _SKIP
                continue
            buf[n] = b
            n += 1
        self._n = n
        self._left = left
        self._code = code
        self._state = state
        return i
