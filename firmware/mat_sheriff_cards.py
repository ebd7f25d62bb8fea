"""Sheriff's module cards on the mat (the Merry Men expansion's tagged cards, deck registry kind
``module``): gestures of ``docs/mat-sheriff.md`` §8c. ``firmware.mat_sheriff`` imports this only
when a header enables a module, so a base game carries none of it.

Black Market: a merchant puts the three contraband cards of one type on their stand pad and taps
the Black Market card of that type there: the claim. The mat reads the three cards on the pad (so
a claim shows the cards it removes), and the card tapped must be the one the rules hand out next
(the top card of the pair, then the lower one): the player keeps the card they tapped. Module
cards are public, so refusing them reveals nothing; the contraband cards on the pad are never
signalled (as every card on a stand pad).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules import sheriff as k
from shared_rules import sheriff_mm as mm
from shared_rules.engine import NOT_NOW
from firmware.mat import READY
from firmware.mat_sheriff import STAND, NOT_A_MERCHANT, reason

_BM_CARDS = const(6)   # catalogue.SHERIFF_MODULE_CARDS: per type the top card, then the lower one
_CLAIM_CARDS = const(3)

NEED_THREE = reason("need_three", mm.REASONS)
MARKET_EXHAUSTED = reason("market_exhausted", mm.REASONS)
MODULE_OFF = reason("module_off", mm.REASONS)


class ModuleCards:
    """The module-card half of the Sheriff gestures (``g``: the ``Gestures`` object)."""

    def __init__(self, g):
        self.g = g
        vocab = g.game.VOCAB
        self.a_claim = vocab.kind("claim")
        self.f_claim = vocab.offset("claim", "good")

    def arrive(self, zone, seat, code):
        """A module card arrived on a pad (``code``: its number in SHERIFF_MODULE_CARDS)."""
        if code < _BM_CARDS:
            return self._claim(zone, seat, code)
        return NOT_NOW

    def _claim(self, zone, seat, code):
        g = self.g
        game = g.game
        if zone != STAND:
            return NOT_NOW
        if not game.modules() & mm.BLACK_MARKET:
            return MODULE_OFF
        err = g._in_phase(k.INSPECT)
        if err:
            return err
        if not game._is_merchant(seat):
            return NOT_A_MERCHANT
        i = code >> 1
        left = game.black_market_left(i)
        if not left:
            return MARKET_EXHAUSTED
        if code & 1 != 2 - left:
            return NOT_NOW   # the top card of the pair goes first, then the lower one
        good = mm.BM_GOODS[i]
        if g.on_pad(g.stand_of[seat], good) < _CLAIM_CARDS:
            return NEED_THREE
        rec = g.mat.start(self.a_claim, seat)
        rec[self.f_claim] = good
        return READY
