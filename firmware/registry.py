"""Tag lookup on the board: UID -> piece, by binary search in the deck registry file.

The file (format: ``shared_rules/core/deck.py``) stays on flash; only one 12-byte record buffer
lives in RAM. Opening checks the whole file once (header, size, record fields, UID order,
CRC-32: ``shared_rules/core/deck_check.py``, loaded for it), reading it in small chunks, so a
damaged or foreign file is refused with a clear ``DeckError`` at boot instead of giving wrong
answers during a game. ``lookup`` then only does
``seek`` + ``readinto`` into the preallocated buffer: no allocation (``dual_registry.py``
checks it under ``micropython.heap_lock``; both calls allocate nothing on the unix port).
The same pass notes the CL1s (UID0..2) that two or more tags share (``twinned``: the roll call
of a pad skips the CL2 walk of a lone tag whose CL1 is not among them; docs/nfc.md).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules.core import deck
from shared_rules.core.deck import DeckError

# The file's layout (shared_rules.core.deck_records' names, restated: tests/test_rules_literals.py).
_HEADER_SIZE = const(8)
_RECORD_SIZE = const(12)
_UID_LEN = const(7)
_R_GAME = const(7)
_R_KIND = const(8)
_R_CODE = const(9)
_R_SEAT = const(10)
_R_DECK = const(11)
_NO_SEAT = const(255)
_CL1 = const(3)  # UID0..2: what UID CL1 carries of a 7-byte UID, after the cascade tag


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
        from shared_rules.core import deck_check   # let go with the setup code (App.set_up)
        try:
            self.count, self._twins = deck_check.check(f)
        except (DeckError, OSError) as e:
            if f is not source:
                f.close()
            raise DeckError("deck registry %s: %s" % (self.name, e))
        self._f = f
        self._buf = bytearray(_RECORD_SIZE)
        self.index = -1
        self.game = self.kind = self.code = self.deck = 0
        self.seat = _NO_SEAT
        self.read_errors = 0

    def lookup(self, uid):
        """Find a 7-byte UID (any buffer); True and the fields set, or False. Allocates nothing."""
        if len(uid) < _UID_LEN:
            return False
        f = self._f
        buf = self._buf
        lo = 0
        hi = self.count - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            try:
                f.seek(_HEADER_SIZE + mid * _RECORD_SIZE)
                got = f.readinto(buf)
            except (OSError, ValueError):  # flash trouble, a closed file: a miss, counted, no crash
                got = -1
            if got != _RECORD_SIZE:
                self.read_errors += 1
                return False
            d = deck.compare_uid(buf, 0, uid, 0)
            if d < 0:
                lo = mid + 1
            elif d > 0:
                hi = mid - 1
            else:
                self.index = mid
                self.game = buf[_R_GAME]
                self.kind = buf[_R_KIND]
                self.code = buf[_R_CODE]
                self.seat = buf[_R_SEAT]
                self.deck = buf[_R_DECK]
                return True
        return False

    def twinned(self, uid, off):
        """Whether two registered tags share the CL1 (UID0..2) of the UID at uid[off:];
        binary search in RAM, allocates nothing."""
        t = self._twins
        lo = 0
        hi = len(t) // _CL1 - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            d = 0
            for i in range(_CL1):
                d = t[mid * _CL1 + i] - uid[off + i]
                if d:
                    break
            if d < 0:
                lo = mid + 1
            elif d > 0:
                hi = mid - 1
            else:
                return True
        return False

    def close(self):
        self._f.close()
