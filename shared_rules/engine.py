"""The machinery every game shares: check-then-apply, reason codes, snapshots and digests.

A game keeps its whole state in one preallocated ``bytearray`` (``self.s``), so accepting an
action allocates nothing, a snapshot is that array plus a small header, and a digest is its CRC.
A game subclass provides:

* ``NAME`` (log header ``game``), ``GAME_ID`` (one byte in snapshots), ``STATE_SIZE``,
  ``VOCAB`` (``actions.Vocabulary``) and ``REASONS`` (its own reason names, codes from
  ``FIRST_GAME_REASON``);
* ``check(rec)`` -> reason code (``OK`` = legal) and ``apply(rec)``, which may assume ``check``
  passed; ``apply`` must not fail;
* ``over()``, ``summary()`` (the replay contract's JSON fields), ``public(out)`` (fills the public
  view bytes) and ``describe(view)`` (public view bytes -> dict, used by the host);
* the class method ``from_header(header)`` (a parsed log header -> game; raises ``ValueError``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
import binascii

_TYPING = const(0)
if _TYPING:  # for mypy only: a const false test, so MicroPython compiles no trace of it
    from typing import Any  # noqa: F401  (type comments only; MicroPython has no typing)

OK = const(0)
MALFORMED = const(1)
UNKNOWN_CODE = const(2)
BAD_SEAT = const(3)
GAME_OVER = const(4)
WRONG_PHASE = const(5)
NOT_YOUR_TURN = const(6)
CORRUPT = const(7)
# Reasons the mat layer gives before the rules see anything (a tag, not a move, is wrong).
UNKNOWN_TAG = const(8)
FOREIGN_TAG = const(9)
DUPLICATE_TAG = const(10)
NOT_NOW = const(11)
NO_GAME = const(12)

COMMON_REASONS = (
    "ok", "malformed", "unknown_code", "bad_seat", "game_over", "wrong_phase", "not_your_turn",
    "corrupt", "unknown_tag", "foreign_tag", "duplicate_tag", "not_now", "no_game",
)
FIRST_GAME_REASON = const(16)

_SNAPSHOT_MAGIC = const(b"TM")
_SNAPSHOT_VERSION = const(1)
NO_SEAT = const(255)


def crc32(data):
    return binascii.crc32(data) & 0xFFFFFFFF


def check_options(header, known):
    """Reject log-header keys the game does not know (the contract makes them an error)."""
    for key in header:
        if key not in known:
            raise ValueError("unknown option " + repr(key))


def int_option(header, key, default, lo, hi):
    """A whole-number header option within ``lo..hi`` (``ValueError`` otherwise)."""
    v = header.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        raise ValueError("%s must be a whole number from %d to %d" % (key, lo, hi))
    return v


class Game:
    NAME = ""
    GAME_ID = 0
    STATE_SIZE = 0
    PUBLIC_SIZE = 0
    VOCAB = None  # type: Any
    REASONS = ()  # type: tuple

    def __init__(self):
        self.s = bytearray(self.STATE_SIZE)

    # -- accepting actions -------------------------------------------------------------
    def accept(self, rec):
        """Check an action record and apply it if legal; return the reason code (OK=0)."""
        if not self.VOCAB.valid(rec):
            return MALFORMED
        if self.over():
            return GAME_OVER
        if rec[1] >= self.seats():
            return BAD_SEAT
        err = self.check(rec)
        if err == OK:
            self.apply(rec)
        return err

    def seats(self):
        return self.s[0]

    def reason(self, code):
        """The snake_case name of a reason code."""
        if code < FIRST_GAME_REASON:
            return COMMON_REASONS[code]
        return self.REASONS[code - FIRST_GAME_REASON]

    # -- snapshots -----------------------------------------------------------------------
    def snapshot(self):
        """State as bytes: magic, version, game id, state, CRC-32 of all before it."""
        body = _SNAPSHOT_MAGIC + bytes((_SNAPSHOT_VERSION, self.GAME_ID)) + bytes(self.s)
        c = crc32(body)
        return body + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24))

    def restore(self, blob):
        """Load a snapshot of this game; return OK or CORRUPT (state unchanged on CORRUPT)."""
        n = len(blob)
        if n != 4 + self.STATE_SIZE + 4 or blob[0:2] != _SNAPSHOT_MAGIC:
            return CORRUPT
        if blob[2] != _SNAPSHOT_VERSION or blob[3] != self.GAME_ID:
            return CORRUPT
        c = blob[n - 4] | (blob[n - 3] << 8) | (blob[n - 2] << 16) | (blob[n - 1] << 24)
        if crc32(blob[0:n - 4]) != c or not self.valid_state(blob[4:n - 4]):
            return CORRUPT
        self.s[:] = blob[4:n - 4]
        return OK

    def valid_state(self, state):
        """Cheap sanity check of a state about to be restored (games may tighten it)."""
        return 0 < state[0] <= NO_SEAT

    def digest(self):
        """Eight hex digits that identify the state (compared across interpreters)."""
        return "%08x" % crc32(self.s)
