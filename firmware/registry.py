"""Tag lookup on the board: UID -> piece, by binary search in the deck registry file.

The file (format: ``shared_rules/deck.py``) stays on flash; only one 12-byte record buffer
lives in RAM. Opening checks the whole file once (header, size, record fields, UID order,
CRC-32), reading it in small chunks, so a damaged or foreign file is refused with a clear
``DeckError`` at boot instead of giving wrong answers during a game. ``lookup`` then only does
``seek`` + ``readinto`` into the preallocated buffer: no allocation (``dual_registry.py``
checks it under ``micropython.heap_lock``; both calls allocate nothing on the unix port).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
import binascii

from shared_rules import deck
from shared_rules.deck import DeckError, HEADER_SIZE, RECORD_SIZE, CRC_SIZE, UID_LEN

_CHUNK = const(16)  # records per read while verifying at open


class Registry:
    """An open deck registry. After a successful ``lookup`` the fields describe the tag:
    ``index`` (record number: a compact tag id), ``game``, ``kind``, ``code``, ``seat``, ``deck``.
    """

    def __init__(self, source):
        """``source``: a path (opened and kept open) or an open binary file. DeckError if unusable."""
        if isinstance(source, str):
            self.name = source
            try:
                f = open(source, "rb")
            except OSError as e:
                raise DeckError("deck registry %s: cannot open (%s)" % (source, e))
        else:
            self.name = "<stream>"
            f = source
        try:
            self.count = _verify(f)
        except (DeckError, OSError) as e:
            if f is not source:
                f.close()
            raise DeckError("deck registry %s: %s" % (self.name, e))
        self._f = f
        self._buf = bytearray(RECORD_SIZE)
        self.index = -1
        self.game = self.kind = self.code = self.deck = 0
        self.seat = deck.NO_SEAT
        self.read_errors = 0

    def lookup(self, uid):
        """Find a 7-byte UID (any buffer); True and the fields set, or False. Allocates nothing."""
        if len(uid) < UID_LEN:
            return False
        f = self._f
        buf = self._buf
        lo = 0
        hi = self.count - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            try:
                f.seek(HEADER_SIZE + mid * RECORD_SIZE)
                got = f.readinto(buf)
            except (OSError, ValueError):  # flash trouble, a closed file: a miss, counted, no crash
                got = -1
            if got != RECORD_SIZE:
                self.read_errors += 1
                return False
            d = deck.compare_uid(buf, 0, uid, 0)
            if d < 0:
                lo = mid + 1
            elif d > 0:
                hi = mid - 1
            else:
                self.index = mid
                self.game = buf[deck.R_GAME]
                self.kind = buf[deck.R_KIND]
                self.code = buf[deck.R_CODE]
                self.seat = buf[deck.R_SEAT]
                self.deck = buf[deck.R_DECK]
                return True
        return False

    def close(self):
        self._f.close()


def _verify(f):
    """Check a whole registry file; return its record count (DeckError saying what is wrong)."""
    size = f.seek(0, 2)
    f.seek(0)
    head = bytearray(HEADER_SIZE)
    got = f.readinto(head)
    n = deck.header_count(head, size)  # a too short file is named as such first
    if got != HEADER_SIZE:
        raise DeckError("cannot read the header")
    crc = binascii.crc32(head)
    buf = bytearray(_CHUNK * RECORD_SIZE)
    view = memoryview(buf)
    prev = bytearray(UID_LEN)
    first_problem = None  # reported after the CRC: damage is the likelier cause
    done = 0
    while done < n:
        k = min(_CHUNK, n - done)
        part = view[0:k * RECORD_SIZE]
        if f.readinto(part) != k * RECORD_SIZE:
            raise DeckError("the file ended early")
        crc = binascii.crc32(part, crc)
        for i in range(k):
            off = i * RECORD_SIZE
            problem = deck.record_problem(buf, off)
            if problem is None and done + i and deck.compare_uid(prev, 0, buf, off) >= 0:
                problem = "UIDs not in ascending order"
            if problem and first_problem is None:
                first_problem = "record %d: %s" % (done + i, problem)
            prev[:] = buf[off:off + UID_LEN]
        done += k
    tail = bytearray(CRC_SIZE)
    if f.readinto(tail) != CRC_SIZE or crc & 0xFFFFFFFF != int.from_bytes(tail, "little"):
        raise DeckError("CRC mismatch: the file is damaged")
    if first_problem:
        raise DeckError(first_problem)
    return n
