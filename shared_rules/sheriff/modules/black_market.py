"""The Black Market module's rules, called by the Merry Men game (``expansion.SheriffMM``) only when
a header names ``black_market`` (imported then): functions of the game, no state of their own.

Three pairs of cards (pepper, mead, silk) whose values come from the deck profile in the header
(``shared_rules.sheriff.modules.profile``); any player claims one during the inspection with 3
contraband of its type from their stand, which leave the game. Rules and decisions:
``docs/rules-merry-men.md`` ("Black Market").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# The engine's codes and the base referee's layout (tests/test_rules_literals.py).
_OK = const(0)
_WRONG_PHASE = const(5)
_R_PHASE = const(1)
_INSPECT = const(4)
_STAND = const(27)

# The Black Market region, after the 6th seat and the loot chest (``deputies``' state).
_BM_VALUES = const(541)      # 6 values: pepper top, lower, mead top, lower, silk top, lower
_BM_LEFT = const(547)        # cards left per type (2, 1, 0)
_BM_REMOVED = const(550)     # contraband removed from the game per type
_BM_HELD = const(553)        # per seat: bit 2i top card of type i, bit 2i+1 the lower one
_BM_GOODS = const(b"\x04\x05\x06")   # pepper, mead, silk: profile.BLACK_MARKET_GOODS

_F_CLAIM_GOOD = const(2)     # ``claim`` ``good``
_PUB_BM = const(309)         # its public view: the six values, cards left per type, cards held per seat
_SEATS6 = const(6)

# Reasons (``SheriffMM.REASONS``).
_NOT_BLACK_MARKET = const(43)
_MARKET_EXHAUSTED = const(44)
_NEED_THREE = const(45)


def start(g, values):
    """Setup: the six card values (the profile's), two cards of each type."""
    s = g.s
    for i in range(6):
        s[_BM_VALUES + i] = values[i]
    for i in range(3):
        s[_BM_LEFT + i] = 2


def check_claim(g, rec):
    s = g.s
    if s[_R_PHASE] != _INSPECT:
        return _WRONG_PHASE
    p = rec[1]   # any player: the Sheriff and deputies too (docs/rules-merry-men.md, Black Market 1)
    good = rec[_F_CLAIM_GOOD]
    for i in range(3):
        if _BM_GOODS[i] == good:
            if not s[_BM_LEFT + i]:
                return _MARKET_EXHAUSTED
            return _OK if g.stand(p, good) >= 3 else _NEED_THREE
    return _NOT_BLACK_MARKET


def apply_claim(g, rec):
    """The claimant's 3 contraband leave the game; they take the type's top card left."""
    s = g.s
    p = rec[1]
    good = rec[_F_CLAIM_GOOD]
    for i in range(3):
        if _BM_GOODS[i] == good:
            s[g._at(p) + _STAND + good] -= 3
            s[_BM_REMOVED + i] += 3
            s[_BM_HELD + p] |= 1 << (2 * i + (2 - s[_BM_LEFT + i]))
            s[_BM_LEFT + i] -= 1


def held(g, seat):
    """(good code, value) of every Black Market card a seat holds."""
    cards = g.s[_BM_HELD + seat]
    out = []   # a loop, not a comprehension: that would be code held from import
    for i in range(6):
        if cards & (1 << i):
            out.append((_BM_GOODS[i >> 1], g.s[_BM_VALUES + i]))
    return out


def left(g, i):
    """Black Market cards left of type ``i`` (0 pepper, 1 mead, 2 silk)."""
    return g.s[_BM_LEFT + i]


def removed(g, good):
    """Contraband of ``good`` removed from the game by claims."""
    for i in range(3):
        if _BM_GOODS[i] == good:
            return g.s[_BM_REMOVED + i]
    return 0


def value(g, seat):
    """What a seat's Black Market cards score."""
    v = 0
    cards = g.s[_BM_HELD + seat]
    for i in range(6):
        if cards & (1 << i):
            v += g.s[_BM_VALUES + i]
    return v


def count(g, seat):
    """How many Black Market cards a seat holds (they count as contraband cards for tie-breaks)."""
    n = 0
    cards = g.s[_BM_HELD + seat]
    for i in range(6):
        if cards & (1 << i):
            n += 1
    return n


def public(g, out):
    """The Black Market's part of the public view (``expansion.SheriffMM.public``)."""
    s = g.s
    for i in range(9):
        out[_PUB_BM + i] = s[_BM_VALUES + i]
    for i in range(_SEATS6):
        out[_PUB_BM + 9 + i] = s[_BM_HELD + i]
