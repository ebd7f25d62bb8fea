"""The machinery every game shares: check-then-apply, reason codes, snapshots and digests.

A game keeps its whole state in one preallocated ``bytearray`` (``self.s``), so accepting an
action allocates nothing, a snapshot is that array plus a small header, and a digest is its CRC.
A game subclass provides:

* ``NAME`` (log header ``game``), ``GAME_ID`` (one byte in snapshots), ``STATE_SIZE``,
  ``VOCAB`` (``actions.Vocabulary``) and ``REASONS`` (its own reason names in one string,
  separated by single spaces, codes from ``FIRST_GAME_REASON``);
* ``check(rec)`` -> reason code (``OK`` = legal) and ``apply(rec)``, which may assume ``check``
  passed; ``apply`` must not fail;
* ``valid_state(state)``: a cheap sanity check of a state about to be restored;
* ``over()``, ``summary()`` (the replay contract's JSON fields) and ``public(out)`` (fills the
  public view bytes; ``shared_rules/<NAME>_view.py`` turns them into a dict for the host:
  ``describe(view)``, and the debug view ``referee(game)``, not methods: a board never holds them);
* the class method ``from_header(header)`` (a parsed log header -> game; raises ``ValueError``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from binascii import crc32  # unsigned on both interpreters

_TYPING = const(0)
if _TYPING:  # for mypy only: a const false test, so MicroPython compiles no trace of it
    from typing import Any  # noqa: F401  (type comments only; MicroPython has no typing)

# Reason codes: a code is the index of its name in _REASON_NAMES; importers get them by their
# upper-case names (``from shared_rules.core.engine import OK, WRONG_PHASE``) from ``__getattr__``:
# this module keeps neither a name nor a tuple of names for them on the board.
_OK = const(0)
_MALFORMED = const(1)
_BAD_SEAT = const(3)
_GAME_OVER = const(4)
_CORRUPT = const(7)
# 8-12: reasons the mat layer gives before the rules see anything (a tag, not a move, is wrong).
_REASON_NAMES = const("ok malformed unknown_code bad_seat game_over wrong_phase not_your_turn corrupt "
                      "unknown_tag foreign_tag duplicate_tag not_now no_game")
_FIRST_GAME_REASON = const(16)
_NO_SEAT = const(255)
_SNAPSHOT_VERSION = const(1)
_T = const(0x54)   # snapshot magic "TM"
_M = const(0x4D)


def __getattr__(name):
    """The public names of the constants above: ``OK`` ... ``NO_GAME``, ``COMMON_REASONS`` (the
    common reasons' names by code), ``FIRST_GAME_REASON`` (a game's own reasons start there),
    ``NO_SEAT``. Looked up when a module imports them, never on an accept path."""
    if name == "FIRST_GAME_REASON":
        return _FIRST_GAME_REASON
    if name == "NO_SEAT":
        return _NO_SEAT
    names = _REASON_NAMES.split()
    if name == "COMMON_REASONS":
        return tuple(names)
    low = name.lower()
    if name.isupper() and low in names:
        return names.index(low)
    raise AttributeError(name)


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
    if _TYPING:  # every game sets them (see the module docstring); no slots here on the board
        NAME = ""
        GAME_ID = 0
        STATE_SIZE = 0
        PUBLIC_SIZE = 0
        VOCAB = None  # type: Any
        REASONS = ""

        def valid_state(self, state):  # type: (Any, bytes) -> bool
            return True

    def __init__(self):
        self.s = bytearray(self.STATE_SIZE)

    # -- accepting actions -------------------------------------------------------------
    def accept(self, rec):
        """Check an action record and apply it if legal; return the reason code (OK=0)."""
        err = self.verdict(rec)
        if err == _OK:
            self.apply(rec)
        return err

    def verdict(self, rec):
        """The reason code ``accept`` would give, changing nothing: the board's referee keeps the
        state from before a host entry only once it is known to be legal (an undo restores it)."""
        if not self.VOCAB.valid(rec):
            return _MALFORMED
        if self.over():
            return _GAME_OVER
        if rec[1] >= self.seats():
            return _BAD_SEAT
        return self.check(rec)

    def seats(self):
        return self.s[0]

    def reason(self, code):
        """The snake_case name of a reason code: the engine's names below ``FIRST_GAME_REASON``,
        the game's from there. Both are one string of names (one object on a board, not a tuple
        of strings), walked here rather than split."""
        names = _REASON_NAMES
        if code >= _FIRST_GAME_REASON:
            names = self.REASONS
            code -= _FIRST_GAME_REASON
        i = 0
        for _ in range(code):
            i = names.index(" ", i) + 1
        j = names.find(" ", i)
        return names[i:j if j > 0 else len(names)]

    # -- snapshots -----------------------------------------------------------------------
    def snapshot(self):
        """State as bytes: magic, version, game id, state, CRC-32 of all before it."""
        body = bytes((_T, _M, _SNAPSHOT_VERSION, self.GAME_ID)) + bytes(self.s)
        c = crc32(body)
        return body + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24))

    def restore(self, blob):
        """Load a snapshot of this game; return OK or CORRUPT (state unchanged on CORRUPT)."""
        n = len(blob)
        if n != 4 + self.STATE_SIZE + 4 or blob[0] != _T or blob[1] != _M:
            return _CORRUPT
        if blob[2] != _SNAPSHOT_VERSION or blob[3] != self.GAME_ID:
            return _CORRUPT
        c = blob[n - 4] | (blob[n - 3] << 8) | (blob[n - 2] << 16) | (blob[n - 1] << 24)
        if crc32(blob[0:n - 4]) != c or not self.valid_state(blob[4:n - 4]):
            return _CORRUPT
        self.s[:] = blob[4:n - 4]
        return _OK

    def digest(self):
        """Eight hex digits that identify the state (compared across interpreters)."""
        return "%08x" % crc32(self.s)
