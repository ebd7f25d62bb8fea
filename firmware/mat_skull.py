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
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from array import array

from shared_rules import deck, tokens
from shared_rules import skull as k
from shared_rules.engine import NO_SEAT, NOT_NOW
from firmware.mat import BaseGestures, NOTHING, READY, NO_ZONE

ZONES = ("seat", "box", "command")
SEAT = const(0)
_BOX = const(1)
COMMAND = const(2)
PROMPTS = ("over", "place", "place_or_bid", "bid_or_pass", "flip", "lose", "first")
P_OVER = const(0)
_P_PLACE = const(1)
_P_PLACE_OR_BID = const(2)
_P_BID_OR_PASS = const(3)
_P_FLIP = const(4)
_P_LOSE = const(5)
_P_FIRST = const(6)

F_LOSE_DISC = k.VOCAB.offset("lose", "disc")
F_FIRST_TARGET = k.VOCAB.offset("first", "target")
DISCS = const(4)  # discs per seat
_ON_STACK = const(0)  # the three tag lists
FLIPPED = const(1)
_LOST = const(2)
_LIST = k.MAX_SEATS * DISCS
NO_TAG = const(0xFFFF)


class Gestures(BaseGestures):
    ZONES = ZONES
    PROMPTS = PROMPTS

    def __init__(self, mat):
        super().__init__(mat)
        self.tags = array("H", [NO_TAG] * (3 * _LIST))

    # -- the tag lists ------------------------------------------------------------------
    def _count(self, which, seat):
        g = self.game
        if which == _ON_STACK:
            return g._get(seat, k.STACK)
        if which == FLIPPED:
            return g._get(seat, k.FLIPPED)
        return DISCS - g._owned(seat, k.FLOWER) - g._owned(seat, k.SKULL)

    def _holds(self, which, seat, tag):
        base = which * _LIST + seat * DISCS
        for i in range(self._count(which, seat)):
            if self.tags[base + i] == tag:
                return True
        return False

    def _note(self, which, seat, tag):
        n = self._count(which, seat)
        if n < DISCS:
            self.tags[which * _LIST + seat * DISCS + n] = tag

    # -- gestures -----------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        owner = tag.seat
        if tag.kind != deck.DISC or owner >= self.game.seats() or self._holds(_LOST, owner, tag.index):
            return NOT_NOW
        if zone == SEAT:
            if owner != seat:
                return NOT_NOW
            if self._holds(_ON_STACK, seat, tag.index):
                return NOTHING  # back on its own stack after a peek or a refused lift
            self._note(_ON_STACK, seat, tag.index)
            rec = self.mat.start(k.A_PLACE, seat)
            rec[k.F_DISC] = tag.code
            return READY
        if zone == _BOX:
            self._note(_LOST, owner, tag.index)
            rec = self.mat.start(k.A_LOSE, owner)
            rec[F_LOSE_DISC] = tag.code
            return READY
        return NOT_NOW

    def present(self, zone, seat, tag):
        """After a power cut the discs still lie on their stacks: remember them as stacked, so
        they are not taken for new places (the rules restored from the journal know the count)."""
        if zone != SEAT or tag.kind != deck.DISC or tag.seat != seat:
            return
        base = _ON_STACK * _LIST + seat * DISCS
        for i in range(self._count(_ON_STACK, seat)):
            if self.tags[base + i] == NO_TAG or self.tags[base + i] == tag.index:
                self.tags[base + i] = tag.index
                return

    def leave(self, zone, seat, tag):
        """Only a flip: every other lift (taking discs back, a peek) means nothing."""
        g = self.game
        if zone != SEAT or tag.kind != deck.DISC or tag.seat != seat or g.phase() != k.FLIP:
            return NOTHING
        if not self._holds(_ON_STACK, seat, tag.index) or self._holds(FLIPPED, seat, tag.index):
            return NOTHING
        self._note(FLIPPED, seat, tag.index)
        rec = self.mat.start(k.A_FLIP, g.s[k.R_CHALLENGER])
        rec[k.F_TARGET] = seat
        rec[k.F_FLIP_HAS_DISC] = 1
        rec[k.F_FLIP_DISC] = tag.code
        return READY

    def number_max(self):
        g = self.game
        phase = g.phase()
        return g._on_mats() if phase == k.ADD or phase == k.BIDDING else 0

    def number(self, n):
        rec = self.mat.start(k.A_BID, self.game.s[k.R_TURN])
        rec[k.F_N] = n
        return READY

    def token(self, t):
        s = self.game.s
        if t == tokens.PASS:
            self.mat.start(k.A_PASS, s[k.R_TURN])
            return READY
        target = tokens.seat(t)
        if target < 0 or s[k.R_CHALLENGER] == NO_SEAT:
            return NOT_NOW
        rec = self.mat.start(k.A_FIRST, s[k.R_CHALLENGER])
        rec[F_FIRST_TARGET] = target
        return READY

    def prompt(self):
        g = self.game
        s = g.s
        phase = s[k.R_PHASE]
        mat = self.mat
        mat.wait_zone = SEAT
        if phase == k.PREP:
            mask = 0
            for seat in range(g.seats()):
                if g._active(seat) and not g._get(seat, k.STACK):
                    mask |= 1 << seat
            mat.wait_seats = mask
            return _P_PLACE
        if phase == k.ADD or phase == k.BIDDING:
            mat.wait_seats = 1 << s[k.R_TURN]
            if phase == k.ADD:
                return _P_PLACE_OR_BID
            mat.wait_zone = COMMAND
            return _P_BID_OR_PASS
        if phase == k.OVER:
            mask = 0
            for seat in range(g.seats()):
                if g.player(seat) == g.player(s[k.R_WINNER]):
                    mask |= 1 << seat
            mat.wait_seats = mask
            mat.wait_zone = NO_ZONE
            return P_OVER
        mat.wait_seats = 1 << s[k.R_CHALLENGER]
        if phase == k.FLIP:
            return _P_FLIP
        if phase == k.LOSE:
            mat.wait_zone = _BOX
            return _P_LOSE
        mat.wait_zone = COMMAND
        return _P_FIRST
