"""Sheriff with the Merry Men expansion's card modules: imported only when a header names one.

* ``special_orders`` (15 cards from the deck profile: a legal good, a contraband good, a reward):
  four face up (``order_up`` reveals one; the market waits until four are up while the deck has
  cards); a bag that gets through fills face-up orders with its cards (``pass`` ``orders``); the
  order and both cards go under the owner's stand and score at the end (the legal good never
  counts for King/Queen).

Laws and Merry Men are refused for now (``make``): their profile data and effect primitives exist
(``profile_cards``, ``sheriff_effects``), their rules core does not yet.

Rules and decisions: ``docs/rules-merry-men.md``. Built on ``sheriff_mm`` (deputies and the Black
Market combine with these modules); state: that state, then one byte per order card.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules import profile_cards
from shared_rules import sheriff as sh
from shared_rules import sheriff_mm as mm
from shared_rules.actions import field, U8, LIST
from shared_rules.catalogue import SHERIFF_VALUE
from shared_rules.engine import OK, NO_SEAT, WRONG_PHASE

LAWS = const(4)
ORDERS = const(8)
MERRY_MEN = const(16)
_READY = const(8)            # the modules whose rules core exists (laws, Merry Men: next)

_ORDER_CARDS = const(15)
_FACE_UP = const(4)
_ORDERS_PER_BAG = const(2)   # a bag of 5 cards fills at most two orders (2 cards each)

# State after the Merry Men state: per order card 0 in the deck, 1 face up, 2 + seat under that
# seat's stand.
_ORD = const(559)
STATE_END = const(574)
assert _ORD == mm.STATE_END and STATE_END == _ORD + _ORDER_CARDS
_O_DECK = const(0)
_O_UP = const(1)
_O_SEAT = const(2)

_names = mm.VOCAB.names
_fields = list(mm.VOCAB.fields)
_A_MARKET = const(1)
_A_PASS = const(4)
_A_INSPECT = const(5)
_A_ORDER_UP = const(9)
_ORDERS_FIELD = field("orders", LIST, None, optional=True, cap=_ORDERS_PER_BAG)
_fields[_A_PASS] = _fields[_A_PASS] + (_ORDERS_FIELD,)
_fields[_A_INSPECT] = _fields[_A_INSPECT] + (_ORDERS_FIELD,)
VOCAB = sh.SheriffVocabulary(tuple(zip(_names, _fields)) + (
    ("order_up", (field("order", U8),)),
))
_F_TARGET = const(2)
_F_PASS_ORDERS = const(42)
_F_INSPECT_ORDERS = const(34)
_F_ORDER = const(2)
_F_BRIBE = const(4)
_F_BRIBE_BAG = const(24)
assert VOCAB.names[_A_ORDER_UP] == "order_up" and VOCAB.names[_A_INSPECT] == "inspect"
assert [_F_PASS_ORDERS, _F_INSPECT_ORDERS, _F_ORDER] == [
    VOCAB.offset("pass", "orders"), VOCAB.offset("inspect", "orders"), VOCAB.offset("order_up", "order")]
del _names, _fields

REASONS = mm.REASONS + (
    "no_such_order",      # 46 an order number outside the profile's 15 cards
    "order_not_in_deck",  # 47 that order is already face up or filled
    "orders_full",        # 48 four orders are already face up
    "reveal_orders",      # 49 the market waits until four orders are face up (deck permitting)
    "order_not_up",       # 50 that order is not face up
    "goods_missing",      # 51 the bag (less its bribe) lacks the order's cards
    "bag_opened",         # 52 only a bag that gets through fills orders
)
_MODULE_OFF = const(37)
_DECIDE_FIRST = const(41)
_NO_SUCH_ORDER = const(46)
_ORDER_NOT_IN_DECK = const(47)
_ORDERS_FULL = const(48)
_REVEAL_ORDERS = const(49)
_ORDER_NOT_UP = const(50)
_GOODS_MISSING = const(51)
_BAG_OPENED = const(52)
assert [REASONS.index(r) + 16 for r in ("module_off", "decide_first", "no_such_order", "bag_opened")] == [
    _MODULE_OFF, _DECIDE_FIRST, _NO_SUCH_ORDER, _BAG_OPENED]

_SEAT_BASE = const(31)
_SEAT_BYTES = const(42)
_BAG_N = const(4)
_BAG = const(5)

# Public view: the Merry Men view, then one byte per order card (as in the state: all public).
PUB_ORD = const(324)
PUB_SIZE = const(339)
assert PUB_ORD == mm.PUB_SIZE and PUB_SIZE == PUB_ORD + _ORDER_CARDS


def make(seats, first, royal, mods, values, prof):
    """The game for a header naming a card module; ``ValueError`` saying why a module cannot be
    played (its cards missing from the profile, a card the primitives cannot express, or a
    module whose rules core is not built yet)."""
    for i in range(3):
        if mods & (LAWS << i):
            name = mm.MODULES[2 + i]
            why = profile_cards.refusal(prof or {}, name)
            if why:
                raise ValueError(why)
            if not (LAWS << i) & _READY:
                raise ValueError("module %r is not supported yet (deputies, black_market, special_orders are)" % name)
    return SheriffCards(seats, first, royal, mods, values, profile_cards.order_table(prof))


class SheriffCards(mm.SheriffMM):
    GAME_ID = 5
    STATE_SIZE = STATE_END
    PUBLIC_SIZE = PUB_SIZE
    VOCAB = VOCAB
    REASONS = REASONS

    def __init__(self, seats=4, first=0, royal=True, mods=ORDERS, values=None, orders=b""):
        mm.SheriffMM.__init__(self, seats, first, royal, mods, values)
        self.orders = orders   # 15 rows: legal good, contraband good, reward (not state: header data)

    # -- special orders ----------------------------------------------------------------------
    def order_held(self, seat):
        """The order cards under a seat's stand (allocates: scoring and views only)."""
        return [i for i in range(_ORDER_CARDS) if self.s[_ORD + i] == _O_SEAT + seat]

    def orders_up(self):
        return [i for i in range(_ORDER_CARDS) if self.s[_ORD + i] == _O_UP]

    def _count_orders(self, where):
        n = 0
        for i in range(_ORDER_CARDS):
            if self.s[_ORD + i] == where:
                n += 1
        return n

    def extra_value(self, seat):
        """Black Market cards, then each filled order: its reward and both goods' values."""
        v = mm.SheriffMM.extra_value(self, seat)
        o = self.orders
        for i in range(_ORDER_CARDS):
            if self.s[_ORD + i] == _O_SEAT + seat:
                v += o[3 * i + 2] + SHERIFF_VALUE[o[3 * i]] + SHERIFF_VALUE[o[3 * i + 1]]
        return v

    # -- checking ----------------------------------------------------------------------------
    def check(self, rec):
        kind = rec[0]
        s = self.s
        if kind == _A_ORDER_UP:
            return self._check_order_up(rec)
        if kind == _A_PASS and rec[_F_PASS_ORDERS - 1] or kind == _A_INSPECT and rec[_F_INSPECT_ORDERS - 1]:
            if not s[mm.R_MODULES] & ORDERS:
                return _MODULE_OFF
            if s[sh.R_PHASE] != sh.INSPECT:
                return WRONG_PHASE
            err = mm.SheriffMM.check(self, rec)
            if err:
                return err
            if kind == _A_INSPECT:
                return _BAG_OPENED
            return self._check_orders(rec)
        if kind == _A_MARKET and s[mm.R_MODULES] & ORDERS and s[sh.R_PHASE] == sh.MARKET:
            n = self._count_orders(_O_UP)
            if n < _FACE_UP and self._count_orders(_O_DECK):
                return _REVEAL_ORDERS
        return mm.SheriffMM.check(self, rec)

    def _check_order_up(self, rec):
        s = self.s
        if not s[mm.R_MODULES] & ORDERS:
            return _MODULE_OFF
        o = rec[_F_ORDER]
        if o >= _ORDER_CARDS:
            return _NO_SUCH_ORDER
        if s[_ORD + o] != _O_DECK:
            return _ORDER_NOT_IN_DECK
        return _ORDERS_FULL if self._count_orders(_O_UP) >= _FACE_UP else OK

    def _check_orders(self, rec):
        """The pass lets the bag through now (with deputies: it settles the bag), each order is
        face up and named once, and the bag less its bribe holds every order's two cards."""
        s = self.s
        t = rec[_F_TARGET]
        if s[mm.R_MODULES] & mm.DEPUTIES:
            both = self._stances(rec[1], t)
            if not both >> 2 and both & 3 != 1:
                return _DECIDE_FIRST
        n = rec[_F_PASS_ORDERS]
        at = _F_PASS_ORDERS + 1
        for i in range(n):
            o = rec[at + i]
            if o >= _ORDER_CARDS:
                return _NO_SUCH_ORDER
            if s[_ORD + o] != _O_UP or i and rec[at] == o:
                return _ORDER_NOT_UP
        bag = self._at(t) + _BAG
        nb = s[self._at(t) + _BAG_N]
        bribe = rec[_F_BRIBE - 1] and rec[_F_BRIBE_BAG]
        for g in range(sh.KINDS):
            need = 0
            for i in range(n):
                o = rec[at + i]
                if self.orders[3 * o] == g or self.orders[3 * o + 1] == g:
                    need += 1
            if need:
                left = sh._count(s, bag, nb, g) - (rec[_F_BRIBE_BAG + 2 + g] if bribe else 0)
                if need > left:
                    return _GOODS_MISSING
        return OK

    # -- applying ----------------------------------------------------------------------------
    def apply(self, rec):
        if rec[0] == _A_ORDER_UP:
            self.s[_ORD + rec[_F_ORDER]] = _O_UP
        else:
            mm.SheriffMM.apply(self, rec)

    def _let_through(self, rec, sheriff):
        """Orders take their cards out of the bag first (under the stand), then the bag passes."""
        if rec[0] == _A_PASS and rec[_F_PASS_ORDERS - 1]:
            t = rec[_F_TARGET]
            for i in range(rec[_F_PASS_ORDERS]):
                o = rec[_F_PASS_ORDERS + 1 + i]
                self._take_from_bag(t, self.orders[3 * o])
                self._take_from_bag(t, self.orders[3 * o + 1])
                self.s[_ORD + o] = _O_SEAT + t
        mm.SheriffMM._let_through(self, rec, sheriff)

    # -- what may be seen --------------------------------------------------------------------
    def valid_state(self, state):
        if not state[mm.R_MODULES] & mm.CARD_MODULES:
            return False
        for i in range(_ORDER_CARDS):
            if state[_ORD + i] >= _O_SEAT + state[sh.R_SEATS]:
                return False
        return mm.SheriffMM.valid_state(self, state)

    def public(self, out):
        """The Merry Men view, then where each order card is (all public)."""
        mm.SheriffMM.public(self, out)
        for i in range(_ORDER_CARDS):
            out[PUB_ORD + i] = self.s[_ORD + i]


GAME = SheriffCards
