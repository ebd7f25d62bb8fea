"""The Special Orders module's rules, called by the card modules' game (``cards.SheriffCards``) only
when a header names ``special_orders`` (imported then): functions of the game, no state of their
own.

15 cards from the deck profile (``g.orders``: a legal good, a contraband good, a reward per card):
four face up (``order_up`` reveals one; the market waits until four are up while the deck has
cards); a bag that gets through fills face-up orders with its cards (``pass`` ``orders``); the
order and both cards go under the owner's stand and score at the end (the legal good never counts
for King/Queen). Rules and decisions: ``docs/rules-merry-men.md`` ("Special orders").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.sheriff import rules as sh

# The goods' values (the catalogue's ``SHERIFF_VALUE``, restated: importing the catalogue here put
# its Sheriff section on the heap beside the rules at a restore's peak, the failure point of
# special orders restored on a mat from .mpy; tests/test_rules_literals.py ties them).
_VALUE = const(b"\x02\x03\x03\x04\x06\x07\x08\x09\x04\x06\x06\x09\x06\x09\x08")

# The engine's codes and the base referee's layout (tests/test_rules_literals.py).
_OK = const(0)
_KINDS = const(15)
_BAG_N = const(4)
_BAG = const(5)

_ORDER_CARDS = const(15)
_FACE_UP = const(4)
# State after the Merry Men state (``cards``' layout): per order card 0 in the deck, 1 face up,
# 2 + seat under that seat's stand.
_ORD = const(559)
_O_DECK = const(0)
_O_UP = const(1)
_O_SEAT = const(2)

# Record offsets (``cards.VOCAB``).
_F_ORDER_UP = const(2)
_F_TARGET = const(2)
_F_PASS_ORDERS = const(42)
_F_BRIBE = const(4)
_F_BRIBE_BAG = const(24)

# Reasons (``cards.REASONS``).
_NO_SUCH_ORDER = const(46)
_ORDER_NOT_IN_DECK = const(47)
_ORDERS_FULL = const(48)
_REVEAL_ORDERS = const(49)
_ORDER_NOT_UP = const(50)
_GOODS_MISSING = const(51)


def held(g, seat):
    """The order cards under a seat's stand (allocates: scoring and views only)."""
    return [i for i in range(_ORDER_CARDS) if g.s[_ORD + i] == _O_SEAT + seat]


def face_up(g):
    return [i for i in range(_ORDER_CARDS) if g.s[_ORD + i] == _O_UP]


def _count(g, where):
    n = 0
    for i in range(_ORDER_CARDS):
        if g.s[_ORD + i] == where:
            n += 1
    return n


def value(g, seat):
    """What a seat's filled orders score: each one's reward and both goods' values."""
    v = 0
    o = g.orders
    for i in range(_ORDER_CARDS):
        if g.s[_ORD + i] == _O_SEAT + seat:
            v += o[3 * i + 2] + _VALUE[o[3 * i]] + _VALUE[o[3 * i + 1]]
    return v


def check_market(g):
    """The market waits until four orders are face up, while the deck has any."""
    if _count(g, _O_UP) < _FACE_UP and _count(g, _O_DECK):
        return _REVEAL_ORDERS
    return _OK


def check_order_up(g, rec):
    o = rec[_F_ORDER_UP]
    if o >= _ORDER_CARDS:
        return _NO_SUCH_ORDER
    if g.s[_ORD + o] != _O_DECK:
        return _ORDER_NOT_IN_DECK
    return _ORDERS_FULL if _count(g, _O_UP) >= _FACE_UP else _OK


def order_up(g, rec):
    g.s[_ORD + rec[_F_ORDER_UP]] = _O_UP


def check_fill(g, rec):
    """A ``pass`` filling orders: each is face up and named once, and the bag less its bribe
    holds every order's two cards."""
    s = g.s
    t = rec[_F_TARGET]
    n = rec[_F_PASS_ORDERS]
    at = _F_PASS_ORDERS + 1
    for i in range(n):
        o = rec[at + i]
        if o >= _ORDER_CARDS:
            return _NO_SUCH_ORDER
        if s[_ORD + o] != _O_UP or i and rec[at] == o:
            return _ORDER_NOT_UP
    bag = g._at(t) + _BAG
    nb = s[g._at(t) + _BAG_N]
    bribe = rec[_F_BRIBE - 1] and rec[_F_BRIBE_BAG]
    for good in range(_KINDS):
        need = 0
        for i in range(n):
            o = rec[at + i]
            if g.orders[3 * o] == good or g.orders[3 * o + 1] == good:
                need += 1
        if need:
            left = sh._count(s, bag, nb, good) - (rec[_F_BRIBE_BAG + 2 + good] if bribe else 0)
            if need > left:
                return _GOODS_MISSING
    return _OK


def fill(g, rec, t):
    """The orders of a ``pass`` take their cards out of ``t``'s bag, under the stand with them."""
    for i in range(rec[_F_PASS_ORDERS]):
        o = rec[_F_PASS_ORDERS + 1 + i]
        sh._take_from_bag(g, t, g.orders[3 * o])
        sh._take_from_bag(g, t, g.orders[3 * o + 1])
        g.s[_ORD + o] = _O_SEAT + t

