"""The Merry Men module's rules, called by ``sheriff_cards`` only when a header names
``merry_men`` (imported then): functions of the game, no state of their own.

A player holds at most one Merry Man, hidden: the state keeps where each of the 18 cards is (the
deck, or the seat holding it) and per seat whether a draw is owed (setup, or after smuggling a
Merry Man through), whether they wait for a contraband smuggle (after one was found), and
whether their Merry Man is in this round's bag. The referee checks that the two cards a draw
names are in the deck; it cannot check their order in it. Rules and decisions:
``docs/rules-merry-men.md`` ("Merry Men").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules import sheriff_effects as fx
from shared_rules.engine import OK

_SIZE = const(4)             # bytes per primitive (a literal: ``range`` steps must be constants)
# sheriff_effects' opcodes and parties read here (private there; tests/test_rules_literals.py).
_OP_GOLD = const(7)
_OP_STEAL = const(8)

_MEN_CARDS = const(18)
_MEN = const(574)            # per card: 0 in the deck, 1 + seat held by that seat
_MSEAT = const(592)          # per seat: status bits below
OWED = const(1)              # may draw 2 and keep 1 now
WAIT = const(2)              # holds none until they next smuggle contraband through
IN_BAG = const(4)            # their Merry Man travels in this round's bag
_ROW = const(18)             # merry table row: value, penalty, 4 primitives
_F_KEEP = const(2)
_F_BOTTOM = const(3)
_F_GIVE = const(46)          # pass `give`: count, then one amount per seat

# Reason codes (``sheriff_cards.REASONS``).
_NO_MERRY_MAN = const(53)
_NO_DRAW_OWED = const(54)
_MERRY_NOT_IN_DECK = const(55)
_BAD_GIVE = const(56)


def held(g, seat):
    """The Merry Man a seat holds (index in the profile), or -1. Hidden: never on the public view."""
    for i in range(_MEN_CARDS):
        if g.s[_MEN + i] == 1 + seat:
            return i
    return -1


def status(g, seat):
    return g.s[_MSEAT + seat]


def start(g):
    """Setup: every player is owed a draw (deal 2, keep 1)."""
    for seat in range(g.seats()):
        g.s[_MSEAT + seat] = OWED


def check_draw(g, rec):
    s = g.s
    if not s[_MSEAT + rec[1]] & OWED:
        return _NO_DRAW_OWED
    k = rec[_F_KEEP]
    b = rec[_F_BOTTOM]
    if k >= _MEN_CARDS or b >= _MEN_CARDS or k == b or s[_MEN + k] or s[_MEN + b]:
        return _MERRY_NOT_IN_DECK
    return OK


def apply_draw(g, rec):
    """Keep one card; the other stays in the deck (at its bottom)."""
    g.s[_MEN + rec[_F_KEEP]] = 1 + rec[1]
    g.s[_MSEAT + rec[1]] &= ~OWED & 255


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
    s[_MEN + i] = 0
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
    g.s[_MEN + held(g, t)] = 0
    g.s[_MSEAT + t] = WAIT


def contraband_through(g, t):
    """A wait ends when contraband gets through: a draw is owed at once."""
    if g.s[_MSEAT + t] & WAIT:
        g.s[_MSEAT + t] = OWED
