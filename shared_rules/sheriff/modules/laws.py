"""The Laws module's rules, called by ``cards`` only when a header names ``laws``
(imported then): functions of the game, no state of their own.

Each round opens with the ``laws`` phase: the Sheriff (with deputies: either deputy, for both)
keeps laws from the deck (``law``). The two face-up laws bind everyone for the round; their
effects are the deck profile's primitives (``effects``), run through the referee's hook
points: what is contraband, penalties, taxes at declaration, rewards as goods reach a stand,
forbidden bribes, the bag's size and gold moved when the laws come into force. The referee checks
that kept and bottomed laws are in the deck and can be among the top cards drawn: a law put under
the deck comes up only when the cards above it are used up (``deck_order``). Rules and
decisions: ``docs/rules-merry-men.md`` ("Laws").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.sheriff import rules as sh
from shared_rules.sheriff.modules import deck_order as deck
from shared_rules.sheriff.modules import effects as fx

# The engine's, the referee's (penalty per good, catalogue order), restated as in sheriff/rules.py.
_OK = const(0)
_PENALTY = const(b"\x02\x02\x02\x02\x04\x04\x04\x04\x03\x04\x04\x05\x04\x05\x04")
_KINDS = const(15)
_BAG_N = const(4)            # a seat's bag: count, then codes
_BAG = const(5)
_DECL_GOOD = const(10)

_SIZE = const(4)             # bytes per primitive (a literal: ``range`` steps must be constants)
# effects' opcodes and parties read here (private there; tests/test_rules_literals.py).
_OP_BAG_MAX = const(6)
_BANK = const(0)
_OP_CONTRABAND = const(1)
_OP_GOLD = const(7)
_OP_NO_BRIBE = const(5)
_OP_PENALTY = const(4)
_OP_TAX = const(2)

_LAWS = const(24)
_LAW = const(598)            # per card: where it is (below)
_LAW_ROUND = const(622)      # 1 + the round whose laws are chosen (0: none yet)
_OUT = const(0)              # removed for the player count, or discarded
_DECK = const(1)             # somewhere in the deck's shuffled part
_POS1 = const(2)             # in force, next to the deck
_POS2 = const(3)             # in force
_LAW_UNDER = const(4)            # + k: put under the deck, k-th from the top of the laws put there
_ROW = const(17)             # law table row: mark, 4 primitives
_MARK_4 = const(1)
_MARK_5 = const(2)
_F_KEEP = const(2)           # law `keep`: count, 2 numbers
_F_BOTTOM = const(5)
_NOBODY = const(255)

_NOT_THE_SHERIFF = const(21)
_BAG_SIZE = const(27)
_NO_SUCH_LAW = const(57)
_LAW_NOT_IN_DECK = const(58)
_KEEP_COUNT = const(59)
_BRIBE_FORBIDDEN = const(60)
_NOT_ON_TOP = const(61)


def start(g):
    """Setup: the deck without the cards marked 4+ (3 players) or 5 (5 players)."""
    n = g.seats()
    for i in range(_LAWS):
        mark = g.laws[_ROW * i]
        out = mark == _MARK_4 and n == 3 or mark == _MARK_5 and n == 5
        g.s[_LAW + i] = _OUT if out else _DECK


def where(g, i):
    """``i``'s place: OUT, DECK, POS1, POS2, or UNDER + k (put under the deck)."""
    return g.s[_LAW + i]


def in_force(g, i):
    return _POS1 <= g.s[_LAW + i] <= _POS2


def due(g, round_):
    """Whether the laws of ``round_`` are still to be chosen: not yet, and the deck still holds
    the 3 cards of a first choice or the 2 of a later one (else the laws in force stay)."""
    s = g.s
    if s[_LAW_ROUND] == round_ + 1:
        return False
    first = 1
    for i in range(_LAWS):
        if s[_LAW + i] == _POS1:
            first = 0
    return deck.size(s, _LAW, _LAWS, _DECK, _LAW_UNDER) >= 2 + first


def check_law(g, rec, sheriff, deputy2):
    """``keep`` 2 laws in the first round, 1 later; ``bottom`` the one put back; all from the top of
    the deck (3 cards the first time, 2 later)."""
    s = g.s
    if rec[1] != sheriff and rec[1] != deputy2:
        return _NOT_THE_SHERIFF
    n = rec[_F_KEEP]
    first = True
    for i in range(_LAWS):
        if s[_LAW + i] == _POS1:
            first = False
    if n != (2 if first else 1):
        return _KEEP_COUNT
    b = rec[_F_BOTTOM]
    for j in range(n + 1):
        c = rec[_F_KEEP + 1 + j] if j < n else b
        if c >= _LAWS:
            return _NO_SUCH_LAW
        if not deck.in_deck(s, _LAW, c, _DECK, _LAW_UNDER) or j and rec[_F_KEEP + 1] == c or j == 2 and rec[_F_KEEP + 2] == c:
            return _LAW_NOT_IN_DECK
    for j in range(n + 1):
        if not deck.can_draw(s, _LAW, _LAWS, _DECK, _LAW_UNDER, rec[_F_KEEP + 1 + j] if j < n else b, n + 1):
            return _NOT_ON_TOP
    return _OK


def apply_law(g, rec, sheriff):
    """Position 2 is discarded, 1 moves to 2, the new law takes 1 (first round: both kept laws
    in order); the bottomed one goes under the deck. Then the laws' ``gold`` primitives run."""
    s = g.s
    n = rec[_F_KEEP]
    b = rec[_F_BOTTOM]
    deck.take(s, _LAW, _LAWS, _LAW_UNDER, b, _OUT)
    if n == 2:
        deck.take(s, _LAW, _LAWS, _LAW_UNDER, rec[_F_KEEP + 1], _POS1)
        deck.take(s, _LAW, _LAWS, _LAW_UNDER, rec[_F_KEEP + 2], _POS2)
    else:
        for i in range(_LAWS):
            if s[_LAW + i] == _POS2:
                s[_LAW + i] = _OUT
            elif s[_LAW + i] == _POS1:
                s[_LAW + i] = _POS2
        deck.take(s, _LAW, _LAWS, _LAW_UNDER, rec[_F_KEEP + 1], _POS1)
    deck.put_under(s, _LAW, _LAWS, _LAW_UNDER, b)
    s[_LAW_ROUND] = s[4] + 1   # sheriff.R_ROUND
    run_gold(g, sheriff)


def valid(state):
    """Every law in a place, at most one in each position, the laws under the deck in order."""
    pos = 0
    for i in range(_LAWS):
        place = state[_LAW + i]
        if place >= _LAW_UNDER + _LAWS:
            return False
        if _POS1 <= place <= _POS2:
            if pos >> place & 1:
                return False
            pos |= 1 << place
    return deck.valid(state, _LAW, _LAWS, _LAW_UNDER)


def _next(g, op, at):
    """The table offset of the next in-force primitive ``op`` after offset ``at`` (-1: from the
    start), or -1: the loops below walk the laws in force without allocating."""
    i = at // _ROW if at >= 0 else 0
    at = at + _SIZE if at >= 0 else 1
    while i < _LAWS:
        if _POS1 <= g.s[_LAW + i] <= _POS2:
            while at < _ROW * i + _ROW:
                if g.laws[at] == op:
                    return at
                at += _SIZE
        i += 1
        at = _ROW * i + 1
    return -1


def contraband(g, good):
    """A law makes this legal good contraband this round."""
    at = _next(g, _OP_CONTRABAND, -1)
    while at >= 0:
        if g.laws[at + 1] == good:
            return True
        at = _next(g, _OP_CONTRABAND, at)
    return False


def times(g, side):
    """The product of the in-force penalty multipliers for ``side`` (1 truthful, 2 lying)."""
    t = 1
    at = _next(g, _OP_PENALTY, -1)
    while at >= 0:
        if g.laws[at + 1] == 0 or g.laws[at + 1] == side:
            t *= g.laws[at + 2]
        at = _next(g, _OP_PENALTY, at)
    return t


def lying_penalty(g, bag, n, decl):
    """The lie's penalty: confiscated cards' penalties times the lying multipliers."""
    v = 0
    for i in range(n):
        c = g.s[bag + i]
        if c != decl:
            v += _PENALTY[c]
    return v * times(g, 2)


def bag_max(g):
    m = 5
    at = _next(g, _OP_BAG_MAX, -1)
    while at >= 0:
        if g.laws[at + 1] < m:
            m = g.laws[at + 1]
        at = _next(g, _OP_BAG_MAX, at)
    return m


def check_bribe(g, gold, goods):
    """A bribe of gold or goods a law forbids this round."""
    at = _next(g, _OP_NO_BRIBE, -1)
    while at >= 0:
        kind = g.laws[at + 1]
        if (gold or goods) and kind == 0 or gold and kind == 1 or goods and kind == 2:
            return _BRIBE_FORBIDDEN
        at = _next(g, _OP_NO_BRIBE, at)
    return _OK


def per_card(g, op, t, good, n, sheriff):
    """Taxes (``op`` TAX: the merchant pays) or rewards (REWARD: the merchant receives) for
    ``n`` cards of ``good``, with the bank or ``sheriff`` (the Sheriff, or the loot chest)."""
    at = _next(g, op, -1) if n else -1
    while at >= 0:
        if g.laws[at + 1] == good:
            other = _NOBODY if g.laws[at + 3] == _BANK else sheriff
            if op == _OP_TAX:
                fx.transfer(g, t, other, n * g.laws[at + 2])
            else:
                fx.transfer(g, other, t, n * g.laws[at + 2])
        at = _next(g, op, at)


def run_gold(g, sheriff):
    """The laws in force come into force: their ``gold`` primitives run."""
    at = _next(g, _OP_GOLD, -1)
    while at >= 0:
        fx.move_gold(g, g.laws[at + 1], g.laws[at + 2], g.laws[at + 3], _NOBODY, sheriff)
        at = _next(g, _OP_GOLD, at)


def rewards(g, t, through, sheriff):
    """Rewards for the goods of ``t``'s bag that reach the stand (``through``: all of a bag that
    passes; else the declared ones of an opened bag), paid by ``sheriff`` (the law's sheriff)."""
    s = g.s
    at = g._at(t)
    decl = s[at + _DECL_GOOD]
    for good in range(_KINDS):
        if through or good == decl:
            per_card(g, 3, t, good, sh._count(s, at + _BAG, s[at + _BAG_N], good), sheriff)
