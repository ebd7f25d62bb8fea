"""The Merry Men module's rules, called by ``cards`` only when a header names
``merry_men`` (imported then): functions of the game, no state of their own.

A player holds at most one Merry Man, hidden: the state keeps where each of the 18 cards is (the
deck's shuffled part, under the deck in the order put there, or the seat holding it) and per seat
whether a draw is owed (setup and after smuggling a Merry Man through: two cards, keep one; after
regaining the Merry Men's trust: one card), whether they wait for a contraband smuggle (after one
was found), and whether their Merry Man is in this round's bag. A drawn card must be in the deck
and able to be on top (``deck_order``). Rules and decisions: ``docs/rules-merry-men.md``
("Merry Men").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.sheriff import rules as sh
from shared_rules.sheriff.modules import deck_order as deck
from shared_rules.sheriff.modules import effects as fx
from shared_rules.core.engine import OK

_SIZE = const(4)             # bytes per primitive (a literal: ``range`` steps must be constants)
# effects' opcodes and parties read here (private there; tests/test_rules_literals.py).
_OP_GOLD = const(7)
_OP_STEAL = const(8)

_MEN_CARDS = const(18)
_MEN = const(574)            # per card: its place, below
_MEN_IN_DECK = const(0)          # somewhere in the deck's shuffled part
_MEN_UNDER = const(8)            # + k: put under the deck, k-th from the top of the cards put there
_MSEAT = const(592)          # per seat: status bits below
OWED = const(1)              # may draw now: 2 and keep 1, or with ONE 1 card
WAIT = const(2)              # holds none until they next smuggle contraband through
IN_BAG = const(4)            # their Merry Man travels in this round's bag
ONE = const(8)               # the draw owed is one card (the Merry Men's trust regained)
_ROW = const(18)             # merry table row: value, penalty, 4 primitives
_F_KEEP = const(2)
_F_BOTTOM = const(4)         # optional: its presence byte before it
_F_GIVE = const(46)          # pass `give`: count, then one amount per seat

# The base referee's layout, record offsets and codes (``rules``, ``cards``: restated,
# tests/test_rules_literals.py).
_FLAGS = const(3)
_LOADED = const(1)
_BAG_N = const(4)
_BAG = const(5)
_DECL_GOOD = const(10)
_STAND = const(27)
_KINDS = const(15)
_BAG_MAX = const(5)
_A_PASS = const(4)
_F_CARDS = const(2)          # load `cards`: count, then the codes
_F_LOAD_MERRY = const(12)    # load `merry`: its presence byte before it
_F_TARGET = const(2)
_F_BRIBE = const(4)          # pass `bribe`: its presence byte, then the bribe
_F_BRIBE_BAG = const(24)
_F_ORDER_LIST = const(6)     # inspect `order` (confiscated cards)
_F_PAY = const(16)
_NOT_A_MERCHANT = const(20)
_BAG_SIZE = const(27)
_ALREADY_LOADED = const(28)
_COUNT_MISMATCH = const(30)
_BAD_ORDER = const(35)

# Reason codes (``cards.REASONS``).
_NO_MERRY_MAN = const(53)
_NO_DRAW_OWED = const(54)
_MERRY_NOT_IN_DECK = const(55)
_BAD_GIVE = const(56)
_NOT_ON_TOP = const(61)
_DRAW_COUNT = const(62)


def held(g, seat):
    """The Merry Man a seat holds (index in the profile), or -1. Hidden: never on the public view."""
    for i in range(_MEN_CARDS):
        if g.s[_MEN + i] == 1 + seat:
            return i
    return -1


def holder(g, card):
    """The seat holding Merry Man ``card``, or -1 (in the deck)."""
    place = g.s[_MEN + card]
    return place - 1 if 0 < place < _MEN_UNDER else -1


def status(g, seat):
    return g.s[_MSEAT + seat]


def start(g):
    """Setup: every player is owed a draw (deal 2, keep 1)."""
    for seat in range(g.seats()):
        g.s[_MSEAT + seat] = OWED


def check_draw(g, rec):
    """Two cards from the top, one kept and one put back (``bottom``), or after regaining the
    Merry Men's trust one card (no ``bottom``)."""
    s = g.s
    status = s[_MSEAT + rec[1]]
    if not status & OWED:
        return _NO_DRAW_OWED
    two = rec[_F_BOTTOM - 1]
    if (two != 0) == (status & ONE != 0):
        return _DRAW_COUNT   # two cards named for a one-card draw, or one for a two-card draw
    k = rec[_F_KEEP]
    b = rec[_F_BOTTOM] if two else k
    if k >= _MEN_CARDS or b >= _MEN_CARDS or two and k == b:
        return _MERRY_NOT_IN_DECK
    if not deck.in_deck(s, _MEN, k, _MEN_IN_DECK, _MEN_UNDER) or not deck.in_deck(s, _MEN, b, _MEN_IN_DECK, _MEN_UNDER):
        return _MERRY_NOT_IN_DECK
    drawn = 2 if two else 1
    if not deck.can_draw(s, _MEN, _MEN_CARDS, _MEN_IN_DECK, _MEN_UNDER, k, drawn) or \
            not deck.can_draw(s, _MEN, _MEN_CARDS, _MEN_IN_DECK, _MEN_UNDER, b, drawn):
        return _NOT_ON_TOP
    return OK


def apply_draw(g, rec):
    """Keep one card; the other, if two were drawn, goes under the deck."""
    s = g.s
    deck.take(s, _MEN, _MEN_CARDS, _MEN_UNDER, rec[_F_KEEP], 1 + rec[1])
    if rec[_F_BOTTOM - 1]:
        deck.take(s, _MEN, _MEN_CARDS, _MEN_UNDER, rec[_F_BOTTOM], _MEN_IN_DECK)
        deck.put_under(s, _MEN, _MEN_CARDS, _MEN_UNDER, rec[_F_BOTTOM])
    s[_MSEAT + rec[1]] &= ~(OWED | ONE) & 255


def valid(state, seats):
    """Every card in the deck or held by a seat of the game, the cards under the deck in order."""
    for i in range(_MEN_CARDS):
        place = state[_MEN + i]
        if seats < place < _MEN_UNDER or place >= _MEN_UNDER + _MEN_CARDS:
            return False
    for i in range(seats):
        if state[_MSEAT + i] > (OWED | WAIT | IN_BAG | ONE):
            return False
    return deck.valid(state, _MEN, _MEN_CARDS, _MEN_UNDER)


def check_load(g, p):
    """A Merry Man goes into ``p``'s bag: they must hold one."""
    return OK if held(g, p) >= 0 else _NO_MERRY_MAN


def in_bag(g, seat):
    return g.s[_MSEAT + seat] & IN_BAG


def penalty(g, seat):
    """The penalty of the Merry Man in ``seat``'s bag (0 if none)."""
    if not g.s[_MSEAT + seat] & IN_BAG:
        return 0
    return g.merry[_ROW * held(g, seat) + 1]


def check_give(g, rec, t):
    """``give`` shares a ``steal``'s rest: one amount per seat, none to the owner, summing to
    the gold taken less the gold kept (the nominal amounts on the card)."""
    n = rec[_F_GIVE]
    if n != g.seats() or not g.s[_MSEAT + t] & IN_BAG or rec[_F_GIVE + 1 + t]:
        return _BAD_GIVE
    row = _ROW * held(g, t)
    rest = -1
    for i in range(2, _ROW, _SIZE):
        if g.merry[row + i] == _OP_STEAL:
            rest = g.merry[row + i + 2] - g.merry[row + i + 3]
    total = 0
    for i in range(n):
        total += rec[_F_GIVE + 1 + i]
    return OK if total == rest else _BAD_GIVE


def smuggled(g, rec, t, sheriff):
    """The bag got through: a Merry Man in it is revealed, its value paid by the bank, its
    primitives run (the steal from ``sheriff``, the seat that let it through), it goes to the
    bottom and a draw is owed; otherwise contraband through ends a wait."""
    s = g.s
    if not s[_MSEAT + t] & IN_BAG:
        return
    i = held(g, t)
    row = _ROW * i
    fx.transfer(g, 255, t, g.merry[row])
    for at in range(row + 2, row + _ROW, _SIZE):
        op = g.merry[at]
        if op == _OP_GOLD:
            fx.move_gold(g, g.merry[at + 1], g.merry[at + 2], g.merry[at + 3], t, sheriff)
        elif op == _OP_STEAL:
            _steal(g, rec, t, sheriff, g.merry[at + 2], g.merry[at + 3])
    deck.put_under(s, _MEN, _MEN_CARDS, _MEN_UNDER, i)
    s[_MSEAT + t] = OWED


def _steal(g, rec, t, sheriff, gold, keep):
    """Take ``gold`` from the Sheriff (what they have), keep ``keep`` first, then pay the gifts:
    ``give`` in seat order, or one coin at a time clockwise from the owner's left."""
    taken = fx.transfer(g, sheriff, t, gold)
    rest = taken - keep if taken > keep else 0
    n = g.seats()
    if rec[_F_GIVE - 1]:
        for seat in range(n):
            fx.transfer(g, t, seat, min(rec[_F_GIVE + 1 + seat], rest))
            rest -= min(rec[_F_GIVE + 1 + seat], rest)
        return
    seat = t
    while rest > 0:
        seat = (seat + 1) % n
        if seat != t:
            fx.transfer(g, t, seat, 1)
            rest -= 1


def found(g, t):
    """An inspection found it: (its penalty is paid by the caller) it goes to the bottom and the
    owner holds none until they next smuggle contraband through."""
    deck.put_under(g.s, _MEN, _MEN_CARDS, _MEN_UNDER, held(g, t))
    g.s[_MSEAT + t] = WAIT


def contraband_through(g, t):
    """A wait ends when contraband gets through: the Merry Men's trust is regained, and a draw of
    one card ("rút một thẻ") is owed at once."""
    if g.s[_MSEAT + t] & WAIT:
        g.s[_MSEAT + t] = OWED | ONE


# -- a Merry Man in a bag: loading, declaring, inspecting, getting through ---------------------
def check_load_merry(g, rec):
    """A load that names a Merry Man (in the load phase)."""
    p = rec[1]
    if not g._is_merchant(p):
        return _NOT_A_MERCHANT
    if g.s[g._at(p) + _FLAGS] & _LOADED:
        return _ALREADY_LOADED
    n = rec[_F_CARDS]
    if rec[_F_LOAD_MERRY] != 1 or n > _BAG_MAX - 1:
        return _BAG_SIZE   # one Merry Man, and the bag holds 5 cards in all
    err = g._check_hand(p, rec, _F_CARDS + 1, n)
    return err if err else check_load(g, p)


def check_declare(g, rec, err):
    """A declaration, ``err`` the base's verdict: a Merry Man in the bag is one of its cards, so
    the declared count includes it."""
    if not in_bag(g, rec[1]):
        return err
    if err == _COUNT_MISMATCH:
        return OK if rec[3] == g.s[g._at(rec[1]) + _BAG_N] + 1 else err
    return _COUNT_MISMATCH if err == OK else err


def truthful_with(g, t):
    """Every good in ``t``'s bag is the declared one, but a Merry Man travels with them."""
    at = g._at(t)
    n = g.s[at + _BAG_N]
    return in_bag(g, t) and sh._count(g.s, at + _BAG, n, g.s[at + _DECL_GOOD]) == n


def check_inspect(g, rec):
    """Inspecting a truthful bag with a Merry Man (``truthful_with``): no good is confiscated,
    and its penalty is what is paid."""
    t = rec[_F_TARGET]
    if rec[_F_ORDER_LIST - 1] and rec[_F_ORDER_LIST]:
        return _BAD_ORDER   # no good is confiscated: only the Merry Man is found
    if rec[_F_PAY - 1]:
        at = g._at(t)
        return g._check_payment(rec, t, penalty(g, t), g.s[at + _DECL_GOOD], g.s[at + _BAG_N])
    return OK


def open_bag(g, rec, sheriff):
    """A Merry Man found among truthful goods: the goods reach the stand and its owner pays its
    penalty (nobody pays the merchant)."""
    t = rec[_F_TARGET]
    at = g._at(t)
    g.s[at + _STAND + g.s[at + _DECL_GOOD]] += g.s[at + _BAG_N]
    g._pay(t, sheriff, penalty(g, t), rec)
    g._resolved(t)


def let_through(g, rec, t):
    """``t``'s bag passes (``rec``): the pass and the contraband cards that get through (less
    those given as a bribe) are kept for ``resolved``."""
    s = g.s
    at = g._at(t)
    n = 0
    bribe = rec[0] == _A_PASS and rec[_F_BRIBE - 1] and rec[_F_BRIBE_BAG]
    for good in range(_KINDS):
        if g._contraband(good):
            c = sh._count(s, at + _BAG, s[at + _BAG_N], good) - (rec[_F_BRIBE_BAG + 2 + good] if bribe else 0)
            if c > 0:
                n += c
    g._rec = rec
    g._smuggled = n


def resolved(g, t):
    """``t``'s bag is settled: a Merry Man in it was smuggled through or found; contraband that
    got through ends a wait."""
    if in_bag(g, t):
        if g._through:
            smuggled(g, g._rec, t, g._rec[1])
        else:
            found(g, t)
    elif g._through and g._smuggled:
        contraband_through(g, t)
    g._rec = None
