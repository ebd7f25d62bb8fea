"""Skull gestures: discs on the seat pads and the box pad, tokens on the command pad -> actions.

The gesture table (what to do physically for every action) is in ``docs/mat.md``. In short:
a disc arriving on its owner's pad is ``place``; during the flip phase a disc lifted off a seat
pad is ``flip``; a disc tapped on the box pad is ``lose``; digits are ``bid``, the ``pass``
token ``pass``, a ``seatK`` token ``first``.

The mat reads which discs lie on a pad, not their order, and a player may lift their own disc
to look at it and put it back. So the module remembers, per seat, the tags of the discs on the
stack, of the discs flipped and of the discs lost for good, and ignores a disc that comes back
to its own stack or is lifted a second time. Those lists stay true without being told whether
the rules accepted an action: a tag is written at the position the rules' own counter gives
(stack size, discs flipped, discs lost) and only the first "counter" entries are read, so a
refused action's entry is simply overwritten by the next one.

The rules' registers, phases, action kinds and field offsets, the mat's answers and the token
numbers are private literal ``const()``s here (no name kept on the board, no layout imported):
``tests/test_rules_literals.py`` checks them against ``skull_layout.py``, ``firmware.mat``,
``shared_rules.core.deck`` and ``shared_rules.core.tokens``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from array import array

from firmware.mat import BaseGestures
from shared_rules.skull.rules import on_mats

# The mat's answers (firmware.mat), the engine's codes, a disc's kind (deck) and tokens.
_NOTHING = const(0)
_READY = const(1)
_NO_ZONE = const(255)
_NO_SEAT = const(255)
_NOT_NOW = const(11)
_KIND_DISC = const(1)
_T_PASS = const(24)
_T_SEAT0 = const(10)
_T_SEATS = const(12)
# The rules (shared_rules.skull.rules, by name in skull_layout.py).
_A_PLACE = const(0)
_A_BID = const(1)
_A_PASS = const(2)
_A_FLIP = const(3)
_A_LOSE = const(4)
_A_FIRST = const(5)
_F_DISC = const(2)           # place, lose
_F_N = const(2)              # bid
_F_TARGET = const(2)         # flip, first
_F_FLIP_HAS_DISC = const(3)
_F_FLIP_DISC = const(4)
_PREP = const(0)
_ADD = const(1)
_BIDDING = const(2)
_FLIP = const(3)
_LOSE = const(4)
_OVER = const(6)
_R_PLAYERS = const(1)
_R_PHASE = const(3)
_R_TURN = const(4)
_R_CHALLENGER = const(7)
_R_WINNER = const(11)
_SEAT_BASE = const(16)
_SEAT_BYTES = const(7)
_MAX_SEATS = const(12)
_H_FLOWERS = const(0)
_H_SKULL = const(1)
_STACK = const(2)
_FLIPPED = const(4)
_FLAGS = const(6)
_ELIMINATED = const(1)

# Zones and prompts: indexes in Gestures.ZONES and Gestures.PROMPTS.
_SEAT = const(0)
_BOX = const(1)
_COMMAND = const(2)
_P_OVER = const(0)
_P_PLACE = const(1)
_P_PLACE_OR_BID = const(2)
_P_BID_OR_PASS = const(3)
_P_FLIP = const(4)
_P_LOSE = const(5)
_P_FIRST = const(6)

_DISCS = const(4)  # discs per seat
_ON_STACK = const(0)  # the three tag lists
_FLIPPED_LIST = const(1)
_LOST = const(2)
_LIST = const(_MAX_SEATS * _DISCS)
_NO_TAG = const(0xFFFF)
_NO_TAGS = const(b"\xff\xff")  # one _NO_TAG as array("H") bytes: the array is made from bytes, not a list


class Gestures(BaseGestures):
    ZONES = ("seat", "box", "command")
    PROMPTS = ("over", "place", "place_or_bid", "bid_or_pass", "flip", "lose", "first")

    def __init__(self, mat):
        super().__init__(mat)
        self.tags = array("H", _NO_TAGS * (3 * _LIST))

    def _holds(self, which, seat, tag, note=False):
        """Whether the tag list ``which`` of a seat holds ``tag``; if not and ``note``, add it.
        A list's length is the rules' own counter: stack size, discs flipped, discs lost."""
        s = self.game.s
        o = _SEAT_BASE + _SEAT_BYTES * seat
        if which == _ON_STACK:
            n = s[o + _STACK]
        elif which == _FLIPPED_LIST:
            n = s[o + _FLIPPED]
        else:
            n = _DISCS - s[o + _H_FLOWERS] - s[o + _H_SKULL] - s[o + _STACK]
        base = which * _LIST + seat * _DISCS
        for i in range(n):
            if self.tags[base + i] == tag:
                return True
        if note and n < _DISCS:
            self.tags[base + n] = tag
        return False

    # -- gestures -----------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        owner = tag.seat
        if tag.kind != _KIND_DISC or owner >= self.game.seats() or self._holds(_LOST, owner, tag.index):
            return _NOT_NOW
        if zone == _SEAT:
            if owner != seat:
                return _NOT_NOW
            if self._holds(_ON_STACK, seat, tag.index, True):
                return _NOTHING  # back on its own stack after a peek or a refused lift
            rec = self.mat.start(_A_PLACE, seat)
            rec[_F_DISC] = tag.code
            return _READY
        if zone == _BOX:
            self._holds(_LOST, owner, tag.index, True)
            rec = self.mat.start(_A_LOSE, owner)
            rec[_F_DISC] = tag.code
            return _READY
        return _NOT_NOW

    def present(self, zone, seat, tag):
        """After a power cut the discs still lie on their stacks: remember them as stacked, so
        they are not taken for new places (the rules restored from the journal know the count)."""
        if zone != _SEAT or tag.kind != _KIND_DISC or tag.seat != seat:
            return
        base = _ON_STACK * _LIST + seat * _DISCS
        for i in range(self.game.s[_SEAT_BASE + _SEAT_BYTES * seat + _STACK]):
            if self.tags[base + i] == _NO_TAG or self.tags[base + i] == tag.index:
                self.tags[base + i] = tag.index
                return

    def leave(self, zone, seat, tag):
        """Only a flip: every other lift (taking discs back, a peek) means nothing."""
        s = self.game.s
        if zone != _SEAT or tag.kind != _KIND_DISC or tag.seat != seat or s[_R_PHASE] != _FLIP:
            return _NOTHING
        if not self._holds(_ON_STACK, seat, tag.index) or self._holds(_FLIPPED_LIST, seat, tag.index, True):
            return _NOTHING
        rec = self.mat.start(_A_FLIP, s[_R_CHALLENGER])
        rec[_F_TARGET] = seat
        rec[_F_FLIP_HAS_DISC] = 1
        rec[_F_FLIP_DISC] = tag.code
        return _READY

    def number_max(self):
        g = self.game
        phase = g.s[_R_PHASE]
        return on_mats(g.s) if phase == _ADD or phase == _BIDDING else 0

    def number(self, n):
        rec = self.mat.start(_A_BID, self.game.s[_R_TURN])
        rec[_F_N] = n
        return _READY

    def token(self, t):
        s = self.game.s
        if t == _T_PASS:
            self.mat.start(_A_PASS, s[_R_TURN])
            return _READY
        if not _T_SEAT0 <= t < _T_SEAT0 + _T_SEATS or s[_R_CHALLENGER] == _NO_SEAT:
            return _NOT_NOW
        rec = self.mat.start(_A_FIRST, s[_R_CHALLENGER])
        rec[_F_TARGET] = t - _T_SEAT0
        return _READY

    def prompt(self):
        g = self.game
        s = g.s
        phase = s[_R_PHASE]
        mat = self.mat
        mat.wait_zone = _SEAT
        if phase == _PREP:
            mask = 0
            for seat in range(g.seats()):
                o = _SEAT_BASE + _SEAT_BYTES * seat
                if not s[o + _FLAGS] & _ELIMINATED and not s[o + _STACK]:
                    mask |= 1 << seat
            mat.wait_seats = mask
            return _P_PLACE
        if phase == _ADD or phase == _BIDDING:
            mat.wait_seats = 1 << s[_R_TURN]
            if phase == _ADD:
                return _P_PLACE_OR_BID
            mat.wait_zone = _COMMAND
            return _P_BID_OR_PASS
        if phase == _OVER:
            # The winner's seats light up: one, or all of the winning player's tribes.
            players = s[_R_PLAYERS]
            winner = s[_R_WINNER]
            mask = 0
            for seat in range(g.seats()):
                if (seat % players == winner % players) if players else seat == winner:
                    mask |= 1 << seat
            mat.wait_seats = mask
            mat.wait_zone = _NO_ZONE
            return _P_OVER
        mat.wait_seats = 1 << s[_R_CHALLENGER]
        if phase == _FLIP:
            return _P_FLIP
        if phase == _LOSE:
            mat.wait_zone = _BOX
            return _P_LOSE
        mat.wait_zone = _COMMAND
        return _P_FIRST
