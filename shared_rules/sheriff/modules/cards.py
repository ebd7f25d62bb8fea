"""Sheriff with the Merry Men expansion's card modules (``SheriffCards``): imported only when a
header names one. Each module's rules are functions of the game in their own file, imported only
for a header that names that module:

* ``special_orders`` (15 cards from the deck profile): ``special_orders``;
* ``merry_men`` (18 cards: value, penalty, primitives): ``merry_men``; the bag's Merry Man is a
  hidden ``load`` field, its draws a ``merry`` action with hidden fields, a smuggled ``steal``
  shares its rest by ``pass`` ``give``;
* ``laws`` (24 cards: a player-count mark and primitives): ``laws``; each round opens with the
  ``laws`` phase and a ``law`` action, and the laws in force act through the hook points below.

Rules and decisions: ``docs/rules-merry-men.md``. Built on ``expansion.SheriffMM`` (deputies and the
Black Market combine with these modules); state: that state, then one byte per order card, then
the Merry Men region (``merry_men``), then the laws' (``laws``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

try:
    from typing import Any  # noqa: F401  (type comments only; MicroPython has no typing)
except ImportError:
    pass

from shared_rules.sheriff import rules as sh
from shared_rules.sheriff.modules import expansion as mm
from shared_rules.core.actions import field, U8, LIST
from shared_rules.core.engine import OK, NO_SEAT, WRONG_PHASE

# The base referee's registers, phases and flags (private there: restated, checked by
# tests/test_rules_literals.py).
_R_PHASE = const(1)
_R_SHERIFF = const(2)
_INSPECT = const(4)
_MARKET = const(1)
_LOAD = const(2)
_DECLARE = const(3)
_R_ROUND = const(4)
_R_SEATS = const(0)

# The Merry Men layout (``expansion``: private consts there, restated; tests/test_rules_literals.py).
_MM_STATE_END = const(559)
_MM_PUB_SIZE = const(324)
_SEATS6 = const(6)
_CHEST = const(6)
_R_DEPUTY2 = const(12)
_R_MODULES = const(14)
_DEPUTIES = const(1)
_CARD_MODULES = const(28)

_LAWS = const(4)
_ORDERS = const(8)
_MERRY_MEN = const(16)

_ORDER_CARDS = const(15)
_ORDERS_PER_BAG = const(2)   # a bag of 5 cards fills at most two orders (2 cards each)

# State after the Merry Men state: per order card 0 in the deck, 1 face up, 2 + seat under that
# seat's stand.
_ORD = const(559)
_MEN = const(574)            # merry_men's region: 18 card places, 6 seat statuses
_LAW = const(598)            # laws' region: 24 card places, the round whose laws are chosen
_STATE_END = const(623)
_LAWS_PHASE = const(8)
_O_SEAT = const(2)

_A_MARKET = const(1)
_A_LOAD = const(2)
_A_DECLARE = const(3)
_A_PASS = const(4)
_A_INSPECT = const(5)
_A_ORDER_UP = const(9)
_A_MERRY = const(10)
_A_LAW = const(11)


def _vocabulary(base):
    """``base`` (the Merry Men game's vocabulary) with the card modules' fields and actions."""
    fields = list(base.fields)
    orders = field("orders", LIST, None, optional=True, cap=_ORDERS_PER_BAG)
    fields[_A_LOAD] += (field("merry", U8, optional=True, hidden=True),)
    fields[_A_PASS] += (orders, field("give", LIST, None, optional=True, cap=_SEATS6))
    fields[_A_INSPECT] += (orders,)
    return sh.Vocabulary(tuple(zip(base.names, fields)) + (
        ("order_up", (field("order", U8),)),
        ("merry", (field("keep", U8, hidden=True), field("bottom", U8, optional=True, hidden=True))),
        ("law", (field("keep", LIST, None, cap=2), field("bottom", U8))),
    ))


VOCAB = _vocabulary(mm.SheriffMM.VOCAB)
_F_TARGET = const(2)
_F_PASS_ORDERS = const(42)
_F_INSPECT_ORDERS = const(34)
_F_BRIBE_BAG = const(24)
_F_CARDS = const(2)
_F_LOAD_MERRY = const(12)
_F_GIVE = const(46)
_F_BRIBE_GOLD = const(4)     # presence bytes of the bribe's parts
_F_BRIBE_STAND = const(7)

REASONS = mm.SheriffMM.REASONS + (   # one string, as the base's
    " "
    "no_such_order "      # 46 an order number outside the profile's 15 cards
    "order_not_in_deck "  # 47 that order is already face up or filled
    "orders_full "        # 48 four orders are already face up
    "reveal_orders "      # 49 the market waits until four orders are face up (deck permitting)
    "order_not_up "       # 50 that order is not face up
    "goods_missing "      # 51 the bag (less its bribe) lacks the order's cards
    "bag_opened "         # 52 only a bag that gets through fills orders
    "no_merry_man "       # 53 a Merry Man loaded by a player who holds none
    "no_draw_owed "       # 54 a Merry Man draw by a player who is not owed one
    "merry_not_in_deck "  # 55 a drawn Merry Man that is not in the deck (or the same card twice)
    "bad_give "           # 56 `give` does not share a smuggled steal's rest among the other players
    "no_such_law "        # 57 a law number outside the profile's 24 cards
    "law_not_in_deck "    # 58 a kept or bottomed law that is not in the deck (or named twice)
    "keep_count "         # 59 the first Sheriff keeps 2 laws, each later one 1
    "bribe_forbidden "    # 60 a law in force forbids bribes of that kind
    "not_on_top "         # 61 a drawn law or Merry Man lies under the deck, below the cards drawn
    "draw_count"          # 62 a Merry Man draw of two cards when one is owed, or of one when two are
)
_BAG_SIZE = const(27)
_MODULE_OFF = const(37)
_DECIDE_FIRST = const(41)
_BAG_OPENED = const(52)

_SEAT_BASE = const(31)
_SEAT_BYTES = const(42)
_BAG_N = const(4)
_BAG = const(5)

_DECL_GOOD = const(10)

# Public view: the Merry Men view, one byte per order card (as in the state: all public), one
# byte per seat for Merry Men (bit 0 holds one, bit 1 owed a draw, bit 2 waiting): never which.
_PUB_ORD = const(324)
_PUB_MEN = const(339)
_PUB_LAWS = const(345)        # the laws in force: position 1, position 2 (255: none)
_PUB_SIZE = const(347)


class SheriffCards(mm.SheriffMM):
    GAME_ID = 5
    TABLE = "sheriff_cards"   # its simulations' physical model: host/sim/tables/sheriff_cards.py
    STATE_SIZE = _STATE_END
    PUBLIC_SIZE = _PUB_SIZE
    VOCAB = VOCAB
    REASONS = REASONS  # type: ignore[assignment]  # longer than the Merry Men's

    def __init__(self, seats=4, first=0, royal=True, mods=_ORDERS, values=None, orders=b"", merry=b"", laws=b""):
        mm.SheriffMM.__init__(self, seats, first, royal, mods, values)
        self.orders = orders   # 15 rows: legal good, contraband good, reward (not state: header data)
        self.merry = merry     # 18 rows: value, penalty, 4 primitives
        self.laws = laws       # 24 rows: mark, 4 primitives
        self._special_orders = None   # type: Any  # the special_orders module when it is on
        self._laws = None             # type: Any  # the laws module when it is on
        self._merry_men = None        # type: Any  # the merry_men module when it is on
        self._through = False  # set while a bag passes: Merry Men resolve with it
        self._rec = None       # type: Any  # the pass being applied (Merry Men resolve with it)
        self._smuggled = 0
        if mods & _ORDERS:
            from shared_rules.sheriff.modules import special_orders
            self._special_orders = special_orders
        if mods & _MERRY_MEN:
            from shared_rules.sheriff.modules import merry_men
            self._merry_men = merry_men
            merry_men.start(self)
        if mods & _LAWS:
            from shared_rules.sheriff.modules import laws
            self._laws = laws
            laws.start(self)

    # -- special orders ----------------------------------------------------------------------
    def order_held(self, seat):
        """The order cards under a seat's stand (allocates: scoring and views only)."""
        return self._special_orders.held(self, seat) if self._special_orders else []

    def orders_up(self):
        return self._special_orders.face_up(self) if self._special_orders else []

    def extra_value(self, seat):
        """Black Market cards, then each filled order."""
        v = mm.SheriffMM.extra_value(self, seat)
        return v + self._special_orders.value(self, seat) if self._special_orders else v

    # -- checking ----------------------------------------------------------------------------
    def check(self, rec):
        kind = rec[0]
        s = self.s
        if kind == _A_ORDER_UP:
            return self._special_orders.check_order_up(self, rec) if self._special_orders else _MODULE_OFF
        if kind == _A_MERRY:
            return self._merry_men.check_draw(self, rec) if self._merry_men else _MODULE_OFF
        if kind == _A_LAW:
            if not self._laws:
                return _MODULE_OFF
            if s[_R_PHASE] != _LAWS_PHASE:
                return WRONG_PHASE
            deputy2 = s[_R_DEPUTY2] if s[_R_MODULES] & _DEPUTIES else NO_SEAT
            return self._laws.check_law(self, rec, s[_R_SHERIFF], deputy2)
        orders = kind == _A_PASS and rec[_F_PASS_ORDERS - 1] or kind == _A_INSPECT and rec[_F_INSPECT_ORDERS - 1]
        give = kind == _A_PASS and rec[_F_GIVE - 1]
        if orders or give:
            if orders and not self._special_orders or give and not self._merry_men:
                return _MODULE_OFF
            if s[_R_PHASE] != _INSPECT:
                return WRONG_PHASE
            err = mm.SheriffMM.check(self, rec)
            if err:
                return err
            if kind == _A_INSPECT:
                return _BAG_OPENED
            if s[_R_MODULES] & _DEPUTIES:
                both = self.stances(rec[1], rec[_F_TARGET])
                if not both >> 2 and both & 3 != 1:
                    return _DECIDE_FIRST   # a bare stance: the bag does not pass yet
            err = self._special_orders.check_fill(self, rec) if orders else OK
            return self._merry_men.check_give(self, rec, rec[_F_TARGET]) if give and not err else err
        if kind == _A_MARKET and self._special_orders and s[_R_PHASE] == _MARKET:
            err = self._special_orders.check_market(self)
            if err:
                return err
        if kind == _A_LOAD and rec[_F_LOAD_MERRY - 1] and s[_R_PHASE] == _LOAD:
            err = self._merry_men.check_load_merry(self, rec) if self._merry_men else _MODULE_OFF
        else:
            err = mm.SheriffMM.check(self, rec)
        if kind == _A_LOAD and self._laws and not err:
            n = rec[_F_CARDS] + (1 if rec[_F_LOAD_MERRY - 1] else 0)
            return _BAG_SIZE if n > self._laws.bag_max(self) else OK
        if kind == _A_DECLARE and s[_R_PHASE] == _DECLARE and self._merry_men:
            return self._merry_men.check_declare(self, rec, err)
        return err

    def _confiscated_penalty(self, t):
        if self._laws:
            at = self._at(t)
            v = self._laws.lying_penalty(self, at + _BAG, self.s[at + _BAG_N], self.s[at + _DECL_GOOD])
        else:
            v = mm.SheriffMM._confiscated_penalty(self, t)
        return v + self._merry_men.penalty(self, t) if self._merry_men else v

    # -- laws in force ---------------------------------------------------------------------
    def _contraband(self, g):
        return mm.SheriffMM._contraband(self, g) or self._laws is not None and self._laws.contraband(self, g)

    def _penalty(self, g):
        """A truthful bag's penalty per card (the lying side: ``_confiscated_penalty``)."""
        p = mm.SheriffMM._penalty(self, g)
        return p * self._laws.times(self, 1) if self._laws else p

    def _law_sheriff(self):
        """Who a law's ``sheriff`` is: the Sheriff, or with deputies the loot chest."""
        return _CHEST if self.s[_R_MODULES] & _DEPUTIES else self.s[_R_SHERIFF]

    def _check_bribe(self, rec):
        err = mm.SheriffMM._check_bribe(self, rec)
        if err or not self._laws:
            return err
        gold = rec[_F_BRIBE_GOLD] and (rec[_F_BRIBE_GOLD + 1] or rec[_F_BRIBE_GOLD + 2])
        goods = rec[_F_BRIBE_STAND] or rec[_F_BRIBE_BAG]
        return self._laws.check_bribe(self, gold, goods)

    def _check_inspect(self, rec):
        if self._merry_men and self._merry_men.truthful_with(self, rec[_F_TARGET]):
            return self._merry_men.check_inspect(self, rec)
        return mm.SheriffMM._check_inspect(self, rec)

    def _open_bag(self, rec, sheriff, partner):
        """A Merry Man found among truthful goods: ``merry_men.open_bag``. Otherwise as usual, its
        penalty added to the lie's (``_confiscated_penalty``)."""
        self._through = False
        if self._merry_men and self._merry_men.truthful_with(self, rec[_F_TARGET]):
            self._merry_men.open_bag(self, rec, sheriff)
        else:
            mm.SheriffMM._open_bag(self, rec, sheriff, partner)

    # -- applying ----------------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        if rec[0] == _A_ORDER_UP:
            self._special_orders.order_up(self, rec)
        elif rec[0] == _A_MERRY:
            self._merry_men.apply_draw(self, rec)
        elif rec[0] == _A_LAW:
            self._laws.apply_law(self, rec, self._law_sheriff())
            s[_R_PHASE] = _MARKET
        else:
            if rec[0] == _A_LOAD and rec[_F_LOAD_MERRY - 1]:
                s[_MEN + 18 + rec[1]] |= 4   # merry_men.IN_BAG, before the phase may move on
            mm.SheriffMM.apply(self, rec)
            if rec[0] == _A_DECLARE and self._laws:
                self._laws.per_card(self, 2, rec[1], rec[2], rec[3], self._law_sheriff())   # TAX
        if self._laws and s[_R_PHASE] == _MARKET and self._laws.due(self, s[_R_ROUND]):
            s[_R_PHASE] = _LAWS_PHASE   # a round opens with its laws

    def _let_through(self, rec, sheriff):
        """Orders take their cards out of the bag first (under the stand), then the bag passes
        (a Merry Man in it resolves in ``_resolved``, before the round can end)."""
        t = rec[_F_TARGET]
        self._through = True
        if self._merry_men:
            self._merry_men.let_through(self, rec, t)
        if rec[0] == _A_PASS and rec[_F_PASS_ORDERS - 1]:
            self._special_orders.fill(self, rec, t)
        mm.SheriffMM._let_through(self, rec, sheriff)

    def _resolved(self, t):
        if self._laws:
            self._laws.rewards(self, t, self._through, self._law_sheriff())
        if self._merry_men:
            self._merry_men.resolved(self, t)
        self._through = False
        mm.SheriffMM._resolved(self, t)

    # -- what may be seen --------------------------------------------------------------------
    def valid_state(self, state):
        if not state[_R_MODULES] & _CARD_MODULES:
            return False
        for i in range(_ORDER_CARDS):
            if state[_ORD + i] >= _O_SEAT + state[_R_SEATS]:
                return False
        if state[_R_MODULES] & _MERRY_MEN:
            from shared_rules.sheriff.modules import merry_men
            if not merry_men.valid(state, state[_R_SEATS]):
                return False
        if state[_R_MODULES] & _LAWS:
            from shared_rules.sheriff.modules import laws
            if not laws.valid(state):
                return False
        if state[_R_PHASE] == _LAWS_PHASE:   # the base check knows phases up to the loot
            return mm.SheriffMM.valid_state(self, state[:_R_PHASE] + bytes((_MARKET,)) + state[_R_PHASE + 1:])
        return mm.SheriffMM.valid_state(self, state)

    def public(self, out):
        """The Merry Men view, where each order card is (all public), and per seat whether they
        hold a Merry Man, are owed a draw (bit 3: of one card) or wait (never which card, nor
        whether it is in a bag, nor which cards lie under a deck)."""
        mm.SheriffMM.public(self, out)
        s = self.s
        for i in range(_ORDER_CARDS):
            out[_PUB_ORD + i] = s[_ORD + i]
        for seat in range(_SEATS6):
            status = s[_MEN + 18 + seat]
            out[_PUB_MEN + seat] = (status & 3) << 1 | status & 8   # merry_men OWED, WAIT; ONE
        for i in range(18):
            if 0 < s[_MEN + i] <= _SEATS6:   # held by a seat (merry_men's places)
                out[_PUB_MEN + s[_MEN + i] - 1] |= 1
        out[_PUB_LAWS] = out[_PUB_LAWS + 1] = 255
        for i in range(24):
            if 2 <= s[_LAW + i] <= 3:   # laws POS1, POS2
                out[_PUB_LAWS + s[_LAW + i] - 2] = i


GAME = SheriffCards
