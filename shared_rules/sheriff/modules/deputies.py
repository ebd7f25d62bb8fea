"""The Deputies module's rules, called by the Merry Men game (``expansion.SheriffMM``) only when a
header names ``deputies`` (imported then): functions of the game, no state of their own.

Exactly 6 players: two deputies per round from a 6-card deck cycled three times (9 rounds), no
setup piles, a draw-pile-only market opened by a merchant the deputies name, a pass/open stance
per deputy and merchant with the seed's three outcomes, the loot chest split at the end of the
inspection (an agreed split of the odd remainder, or it is discarded). Rules and decisions:
``docs/rules-merry-men.md`` ("Deputies").
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.sheriff import rules as sh

# The engine's codes, the base referee's layout and the expansion's (``expansion``: registers,
# phases, the chest, actions, reasons), restated: tests/test_rules_literals.py ties them.
_OK = const(0)
_WRONG_PHASE = const(5)
_NOT_YOUR_TURN = const(6)
_NO_SEAT = const(255)
_SEATS6 = const(6)
_CHEST = const(6)            # the loot chest, addressed like a seat
_CYCLE = const(3)            # rounds per pass through the deputy deck
_CYCLES = const(3)
_R_PHASE = const(1)
_R_SHERIFF = const(2)        # the first revealed deputy
_R_ROUND = const(4)
_R_ROUNDS = const(5)
_R_TURN = const(6)
_R_DEPUTY2 = const(12)
_R_CYCLE = const(13)         # seats already deputy in this cycle (bit per seat)
_R_FIRST_MERCHANT = const(15)  # the merchant the deputies named (_NO_SEAT until the market opens)
_FLAGS = const(3)
_STAND = const(27)
_KINDS = const(15)
_SKIPPED = const(8)
_DONE = const(4)
_MARKET = const(1)
_INSPECT = const(4)
_OVER = const(5)
_REVEAL = const(6)
_LOOT = const(7)

# Record offsets (base vocabulary) and action kinds.
_F_DISCARD = const(2)
_F_TAKE = const(11)
_F_TO = const(21)
_F_TARGET = const(2)
_F_BRIBE = const(4)
_F_ITO = const(4)
_F_ORDER = const(6)
_F_PAY = const(16)
_F_LOOT_GOLD = const(3)      # presence byte at 2
_F_LOOT_GOODS = const(5)     # presence byte at 4
_F_LOOT_SPLIT = const(21)
_A_MARKET = const(1)
_A_PASS = const(4)
_A_DEPUTY = const(6)
_A_LOOT = const(7)

# Stances in a merchant's flags byte: first deputy bits 4-5, second deputy bits 6-7.
_PASS = const(1)
_OPEN = const(2)

# Reasons (``SheriffMM.REASONS``).
_NOT_A_MERCHANT = const(20)
_NOT_THE_SHERIFF = const(21)
_TOO_MANY_CARDS = const(22)
_BAD_PILE = const(24)
_BAD_TARGET = const(31)
_ALREADY_RESOLVED = const(32)
_DEPUTY_TWICE = const(38)
_NO_DISCARD_PILES = const(39)
_ALREADY_DECIDED = const(40)
_DECIDE_FIRST = const(41)
_BAD_SPLIT = const(42)


def start(g):
    """Setup: 9 rounds; the first two deputies are revealed before any market."""
    s = g.s
    s[_R_ROUNDS] = _CYCLE * _CYCLES
    s[_R_PHASE] = _REVEAL
    s[_R_SHERIFF] = _NO_SEAT
    s[_R_DEPUTY2] = _NO_SEAT
    s[_R_FIRST_MERCHANT] = _NO_SEAT


def next_merchant(g, seat):
    """Clockwise from the named first merchant, deputies and sitters-out skipped; ``seat``
    NO_SEAT: that first merchant (or the next one, if they sit the round out)."""
    first = g.s[_R_FIRST_MERCHANT]
    if seat == _NO_SEAT:
        if first == _NO_SEAT or not g.s[g._at(first) + _FLAGS] & _SKIPPED:
            return first
        seat = first
    return g._merchant_after(seat, first)


def stances(g, p, t):
    """p's stance on merchant ``t`` times 4, plus the other deputy's (no tuple: no allocation)."""
    f = g.s[g._at(t) + _FLAGS]
    mine = 4 if p == g.s[_R_SHERIFF] else 6
    return ((f >> mine) & 3) << 2 | (f >> (10 - mine)) & 3


def share(g, rec, owed):
    """Both deputies open a truthful bag: each pays half; the deputy whose decision opens it
    (the second to say open) pays the odd coin."""
    both = stances(g, rec[1], rec[_F_TARGET])
    return owed - owed // 2 if not both >> 2 and both & 3 == _OPEN else owed


# -- checking ------------------------------------------------------------------------------
def check(g, rec):
    """The deputies' actions and their market and inspection; the base's checks for the rest."""
    kind = rec[0]
    phase = g.s[_R_PHASE]
    if kind == _A_DEPUTY:
        return (_DEPUTY_TWICE if g.s[_R_CYCLE] & (1 << rec[1]) else _OK) if phase == _REVEAL else _WRONG_PHASE
    if kind == _A_LOOT:
        return _check_loot(g, rec) if phase == _LOOT else _WRONG_PHASE
    if kind == _A_MARKET and phase == _MARKET:
        return _check_open_market(g, rec)
    if kind >= _A_PASS:
        return _check_stance(g, rec) if phase == _INSPECT else _WRONG_PHASE
    return sh.Sheriff.check(g, rec)


def _check_open_market(g, rec):
    """Up to 5 cards face up, as many drawn from the draw pile (no discard piles to take)."""
    s = g.s
    if not g._is_merchant(rec[1]):
        return _NOT_A_MERCHANT
    if s[_R_FIRST_MERCHANT] != _NO_SEAT and rec[1] != s[_R_TURN]:   # the named merchant opens
        return _NOT_YOUR_TURN
    if rec[_F_DISCARD] > 5:
        return _TOO_MANY_CARDS
    if rec[_F_TAKE]:
        return _NO_DISCARD_PILES
    if rec[_F_TO - 1] and rec[_F_TO] != 1:
        return _BAD_PILE
    return g._check_hand(rec[1], rec, _F_DISCARD + 1, rec[_F_DISCARD])


def _check_stance(g, rec):
    """A deputy's pass/open on a merchant: a stance, or the action that settles the bag (both
    agree, or the lone deputy who wanted to open acts)."""
    s = g.s
    p = rec[1]
    t = rec[_F_TARGET]
    if p != s[_R_SHERIFF] and p != s[_R_DEPUTY2]:
        return _NOT_THE_SHERIFF
    if t >= _SEATS6 or not g._is_merchant(t) or s[g._at(t) + _FLAGS] & _SKIPPED:
        return _BAD_TARGET
    if s[g._at(t) + _FLAGS] & _DONE:
        return _ALREADY_RESOLVED
    both = stances(g, p, t)
    mine = both >> 2
    other = both & 3
    want = _PASS if rec[0] == _A_PASS else _OPEN
    if mine and not (mine == _OPEN and other == _PASS):
        return _ALREADY_DECIDED
    if not mine and other != want:   # only a stance: nothing moves yet
        if rec[0] == _A_PASS:
            return _DECIDE_FIRST if rec[_F_BRIBE - 1] else _OK
        return _DECIDE_FIRST if rec[_F_ITO - 1] or rec[_F_ORDER - 1] or rec[_F_PAY - 1] else _OK
    if rec[0] == _A_PASS:
        return g._check_bribe(rec) if rec[_F_BRIBE - 1] else _OK
    return g._check_inspect(rec)


def _check_loot(g, rec):
    """An agreed split takes part of the chest's remainder for ``p`` (the rest goes to the other
    deputy); ``discard`` lists nothing."""
    s = g.s
    p = rec[1]
    if p != s[_R_SHERIFF] and p != s[_R_DEPUTY2]:
        return _NOT_THE_SHERIFF
    chest = g._at(_CHEST)
    if rec[_F_LOOT_SPLIT] == 1:
        return _BAD_SPLIT if rec[_F_LOOT_GOLD - 1] or rec[_F_LOOT_GOODS - 1] else _OK
    if rec[_F_LOOT_GOLD - 1] and rec[_F_LOOT_GOLD] > g.gold(_CHEST):
        return _BAD_SPLIT
    if rec[_F_LOOT_GOODS - 1]:
        n = rec[_F_LOOT_GOODS]
        for good in range(_KINDS):
            if sh._count(rec, _F_LOOT_GOODS + 1, n, good) > s[chest + _STAND + good]:
                return _BAD_SPLIT
    return _OK


# -- applying ------------------------------------------------------------------------------
def apply(g, rec):
    """The deputies' actions and their market and inspection; the base's for the rest."""
    kind = rec[0]
    if kind == _A_DEPUTY:
        _apply_deputy(g, rec)
    elif kind == _A_LOOT:
        _apply_loot(g, rec)
    elif kind >= _A_PASS:
        _apply_stance(g, rec)
    elif kind == _A_MARKET:
        _apply_open_market(g, rec)
    else:
        sh.Sheriff.apply(g, rec)


def _apply_deputy(g, rec):
    s = g.s
    p = rec[1]
    s[_R_CYCLE] |= 1 << p
    if s[_R_SHERIFF] == _NO_SEAT:
        s[_R_SHERIFF] = p
        return
    s[_R_DEPUTY2] = p
    s[_R_PHASE] = _MARKET
    s[_R_TURN] = _NO_SEAT


def _apply_open_market(g, rec):
    s = g.s
    p = rec[1]
    if s[_R_FIRST_MERCHANT] == _NO_SEAT:
        s[_R_FIRST_MERCHANT] = p
    nd = rec[_F_DISCARD]
    g._leave_hand(p, rec, _F_DISCARD + 1, nd)
    g._draw(p, nd)
    for i in range(nd):   # face up now, gathered into one pile (pile 1) after the market
        g._push(1, rec[_F_DISCARD + 1 + i])
    nxt = next_merchant(g, p)
    if nxt == _NO_SEAT:
        g._start_load(False)
    else:
        s[_R_TURN] = nxt


def _apply_stance(g, rec):
    s = g.s
    p = rec[1]
    t = rec[_F_TARGET]
    both = stances(g, p, t)
    mine = both >> 2
    other = both & 3
    want = _PASS if rec[0] == _A_PASS else _OPEN
    if mine:                      # the lone deputy who wanted to open acts for themself
        if want == _PASS:
            g._let_through(rec, p)
        else:
            g._open_bag(rec, p, _NO_SEAT)
    elif other == want:           # both agree: the loot chest gains, or both share the penalty
        if want == _PASS:
            g._let_through(rec, _CHEST)
        else:
            partner = s[_R_DEPUTY2] if p == s[_R_SHERIFF] else s[_R_SHERIFF]
            g._open_bag(rec, _CHEST, partner)
    else:
        shift = 4 if p == s[_R_SHERIFF] else 6
        s[g._at(t) + _FLAGS] |= want << shift


def _apply_loot(g, rec):
    s = g.s
    p = rec[1]
    other = s[_R_DEPUTY2] if p == s[_R_SHERIFF] else s[_R_SHERIFF]
    chest = g._at(_CHEST)
    if rec[_F_LOOT_SPLIT] == 0:
        mine = rec[_F_LOOT_GOLD] if rec[_F_LOOT_GOLD - 1] else 0
        g._set_gold(p, g.gold(p) + mine)
        g._set_gold(other, g.gold(other) + g.gold(_CHEST) - mine)
        if rec[_F_LOOT_GOODS - 1]:
            mine = g._at(p) + _STAND
            for i in range(rec[_F_LOOT_GOODS]):
                good = rec[_F_LOOT_GOODS + 1 + i]
                s[chest + _STAND + good] -= 1
                s[mine + good] += 1
        theirs = g._at(other) + _STAND
        for good in range(_KINDS):   # the rest to the other deputy
            s[theirs + good] += s[chest + _STAND + good]
            s[chest + _STAND + good] = 0
    else:
        for good in range(_KINDS):   # discarded face up onto pile 1, by card code
            while s[chest + _STAND + good]:
                s[chest + _STAND + good] -= 1
                g._push(1, good)
    g._set_gold(_CHEST, 0)
    _next_round(g)


# -- end of the inspection and of the round ------------------------------------------------
def end_round(g):
    """The chest split between the deputies; the loot phase if an odd coin or card is left."""
    s = g.s
    if _split_loot(g):
        s[_R_PHASE] = _LOOT
        s[_R_TURN] = _NO_SEAT
    else:
        _next_round(g)


def _split_loot(g):
    """Each deputy takes half the chest's gold and half of each good; True if an odd coin or
    card is left for the deputies to agree on."""
    s = g.s
    d1 = s[_R_SHERIFF]
    d2 = s[_R_DEPUTY2]
    chest = g._at(_CHEST)
    gold = g.gold(_CHEST)
    g._set_gold(d1, g.gold(d1) + gold // 2)
    g._set_gold(d2, g.gold(d2) + gold // 2)
    g._set_gold(_CHEST, gold & 1)
    left = gold & 1
    for good in range(_KINDS):
        half = s[chest + _STAND + good] // 2
        s[chest + _STAND + good] -= 2 * half
        s[g._at(d1) + _STAND + good] += half
        s[g._at(d2) + _STAND + good] += half
        left |= s[chest + _STAND + good]
    return left


def _next_round(g):
    """Merchants draw back to 6 clockwise from the first merchant; the next two deputies
    are revealed (a new cycle every three rounds), or the game is over after nine."""
    s = g.s
    s[_R_ROUND] += 1
    if s[_R_ROUND] >= s[_R_ROUNDS]:
        s[_R_PHASE] = _OVER
        s[_R_TURN] = _NO_SEAT
        return
    g._draw_back_and_clear(s[_R_FIRST_MERCHANT])
    s[_R_SHERIFF] = _NO_SEAT
    s[_R_DEPUTY2] = _NO_SEAT
    s[_R_FIRST_MERCHANT] = _NO_SEAT
    if s[_R_ROUND] % _CYCLE == 0:
        s[_R_CYCLE] = 0
    s[_R_PHASE] = _REVEAL
    s[_R_TURN] = _NO_SEAT
