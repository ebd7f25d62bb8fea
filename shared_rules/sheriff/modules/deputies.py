"""Sheriff with the Merry Men expansion's modules (``SheriffMM``), and the ``deputies`` module's
rules: imported only when a header names ``modules``.

* ``deputies`` (exactly 6 players): two deputies per round from a 6-card deck cycled three times
  (9 rounds), no setup piles, a draw-pile-only market opened by a merchant the deputies name, a
  pass/open stance per deputy and merchant with the seed's three outcomes, the loot chest split at
  the end of the inspection (an agreed split of the odd remainder, or it is discarded);
* ``black_market``: its rules in ``black_market`` (imported only for such a header).

Rules and every decision: ``docs/rules-merry-men.md``. The base referee (``sheriff.rules``) does the
rest through its hook points. State: the base state, then the 6th seat, the loot chest (shaped
like a seat, so bribes and debts reach it through the base code), then the Black Market region.
The card modules (``cards``: laws, special orders, Merry Men) add their module bits, actions after
``claim`` and regions after the Black Market's, and their sections to the profile.
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
from shared_rules.core.actions import field

# The engine's and actions' codes (tests/test_rules_literals.py).
_OK = const(0)
_WRONG_PHASE = const(5)
_NOT_YOUR_TURN = const(6)
_NO_SEAT = const(255)
_U8 = const(0)
_NAME = const(2)
_LIST = const(3)

# Module bits (register _R_MODULES), in header order of the package's ``MODULES``.
_DEPUTIES = const(1)
_BLACK_MARKET = const(2)

_SEATS6 = const(6)
_CHEST = const(6)             # the loot chest, addressed like a seat
_CYCLE = const(3)            # rounds per pass through the deputy deck
_CYCLES = const(3)

# Registers the base leaves free (12..15); R_SHERIFF holds the first revealed deputy.
_R_DEPUTY2 = const(12)
_R_CYCLE = const(13)          # seats already deputy in this cycle (bit per seat)
_R_MODULES = const(14)
_R_FIRST_MERCHANT = const(15)  # the merchant the deputies named (_NO_SEAT until the market opens)

# The base layout (its underscore constants are compiled away on MicroPython: restated here,
# checked against the base at import below).
_SEAT_BASE = const(31)
_SEAT_BYTES = const(42)
_GOLD = const(0)
_HAND_N = const(2)
_FLAGS = const(3)
_STAND = const(27)
_KINDS = const(15)
_PUB_SEAT = const(11)
_R_PHASE = const(1)
_R_SHERIFF = const(2)
_SKIPPED = const(8)
_MARKET = const(1)
_INSPECT = const(4)
_DONE = const(4)
_R_TURN = const(6)
_R_ROUND = const(4)
_R_ROUNDS = const(5)
_OVER = const(5)
_R_SEATS = const(0)
_R_PILE1 = const(9)
_R_PILE2 = const(10)
_PILE_CAP = const(216)
_SEAT6 = const(457)          # the base state's end: the 6th seat, then the chest (Sheriff._at)
_STATE_END = const(559)

# Record offsets (base vocabulary).
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

# Stances in a merchant's flags byte: first deputy bits 4-5, second deputy bits 6-7.
_PASS = const(1)
_OPEN = const(2)

SPLITS = ("agreed", "discard")
_A_SETUP = const(0)
_A_MARKET = const(1)
_A_PASS = const(4)
_A_INSPECT = const(5)
_A_DEPUTY = const(6)
_A_LOOT = const(7)
_A_CLAIM = const(8)

# Reasons (``SheriffMM.REASONS``: the base ones, then these).
_NOT_A_MERCHANT = const(20)
_NOT_THE_SHERIFF = const(21)
_TOO_MANY_CARDS = const(22)
_BAD_PILE = const(24)
_BAD_TARGET = const(31)
_ALREADY_RESOLVED = const(32)
_MODULE_OFF = const(37)
_DEPUTY_TWICE = const(38)
_NO_DISCARD_PILES = const(39)
_ALREADY_DECIDED = const(40)
_DECIDE_FIRST = const(41)
_BAD_SPLIT = const(42)

_REVEAL = const(6)
_LOOT = const(7)

# Public view: the base view, then the 6th seat and the chest (seat layout), then
# modules, deputy 2, cycle mask, first merchant, the six Black Market values, cards left per type,
# Black Market cards held per seat.
_PUB_SEAT6 = const(283)       # base PUBLIC_SIZE
_PUB_CHEST = const(294)
_PUB_MM = const(305)
_PUB_SIZE = const(324)


class SheriffMM(sh.Sheriff):
    GAME_ID = 4
    TABLE = "sheriff_modules"   # its simulations' physical model: host/sim/tables/sheriff_modules.py
    STATE_SIZE = _STATE_END
    PUBLIC_SIZE = _PUB_SIZE
    VOCAB = sh.Vocabulary(tuple(zip(sh.Sheriff.VOCAB.names, sh.Sheriff.VOCAB.fields)) + (
        ("deputy", ()),
        ("loot", (field("gold", _U8, optional=True), field("goods", _LIST, sh.CODES, optional=True, cap=_KINDS),
                  field("split", _NAME, SPLITS))),
        ("claim", (field("good", _NAME, sh.CODES),)),
    ))
    REASONS = sh.Sheriff.REASONS + (   # type: ignore[operator]  # one string, as the base's
        " "
        "module_off "         # 37 an action of a module this game does not use
        "deputy_twice "       # 38 that seat was already deputy in this cycle of three rounds
        "no_discard_piles "   # 39 the 6-player market draws from the draw pile only
        "already_decided "    # 40 this deputy already said pass or open for that merchant
        "decide_first "       # 41 a bribe or inspection details before the deputies' stances allow it
        "bad_split "          # 42 the agreed split takes what the chest's remainder does not hold
        "not_black_market "   # 43 no Black Market card for that good (pepper, mead, silk)
        "market_exhausted "   # 44 both Black Market cards of that type are taken
        "need_three"          # 45 fewer than 3 of that contraband on the claimant's stand
    )

    def __init__(self, seats=6, first=0, royal=True, mods=_DEPUTIES, values=None):
        sh.Sheriff.__init__(self, seats, first, royal)
        s = self.s
        s[_R_MODULES] = mods
        if mods & _DEPUTIES:
            s[_R_ROUNDS] = _CYCLE * _CYCLES
            s[_R_PHASE] = _REVEAL
            s[_R_SHERIFF] = _NO_SEAT
            s[_R_DEPUTY2] = _NO_SEAT
            s[_R_FIRST_MERCHANT] = _NO_SEAT
        self._black_market = None   # type: Any  # the black_market module when it is on
        if mods & _BLACK_MARKET:
            from shared_rules.sheriff.modules import black_market
            self._black_market = black_market
            black_market.start(self, values)

    def modules(self):
        return self.s[_R_MODULES]

    def deputies(self):
        """The two deputies of the round (NO_SEAT before they are revealed)."""
        return self.s[_R_SHERIFF], self.s[_R_DEPUTY2]

    def black_market(self, seat):
        """(good code, value) of every Black Market card a seat holds."""
        return self._black_market.held(self, seat) if self._black_market else []

    def black_market_left(self, i):
        """Black Market cards left of type ``i`` (0 pepper, 1 mead, 2 silk)."""
        return self._black_market.left(self, i) if self._black_market else 0

    def removed(self, good):
        """Contraband of ``good`` removed from the game by Black Market claims."""
        return self._black_market.removed(self, good) if self._black_market else 0

    def extra_value(self, seat):
        """Score beyond gold and stand goods: Black Market card values."""
        return self._black_market.value(self, seat) if self._black_market else 0

    def extra_contraband(self, seat):
        """Black Market cards count as contraband cards for tie-breaks."""
        return self._black_market.count(self, seat) if self._black_market else 0

    # -- hook points -----------------------------------------------------------------------
    def _is_merchant(self, seat):
        s = self.s
        return seat != s[_R_SHERIFF] and (not s[_R_MODULES] & _DEPUTIES or seat != s[_R_DEPUTY2])

    def _next_merchant(self, seat):
        """Deputies: clockwise from the named first merchant, deputies and sitters-out skipped;
        ``seat`` NO_SEAT: that first merchant (or the next one, if they sit the round out)."""
        s = self.s
        if not s[_R_MODULES] & _DEPUTIES:
            return sh.Sheriff._next_merchant(self, seat)
        first = s[_R_FIRST_MERCHANT]
        if seat == _NO_SEAT:
            if first == _NO_SEAT or not s[self._at(first) + _FLAGS] & _SKIPPED:
                return first
            seat = first
        while True:
            seat = (seat + 1) % _SEATS6
            if seat == first:
                return _NO_SEAT
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & _SKIPPED:
                return seat

    def _stances(self, p, t):
        """p's stance on merchant ``t`` times 4, plus the other deputy's (no tuple: no allocation)."""
        f = self.s[self._at(t) + _FLAGS]
        mine = 4 if p == self.s[_R_SHERIFF] else 6
        return ((f >> mine) & 3) << 2 | (f >> (10 - mine)) & 3

    def _share(self, rec, owed):
        """Both deputies open a truthful bag: each pays half; the deputy whose decision opens it
        (the second to say open) pays the odd coin."""
        if not self.s[_R_MODULES] & _DEPUTIES:
            return owed
        both = self._stances(rec[1], rec[_F_TARGET])
        mine = both >> 2
        other = both & 3
        return owed - owed // 2 if not mine and other == _OPEN else owed

    # -- checking --------------------------------------------------------------------------
    def check(self, rec):
        kind = rec[0]
        s = self.s
        phase = s[_R_PHASE]
        if kind == _A_CLAIM:
            return self._black_market.check_claim(self, rec) if self._black_market else _MODULE_OFF
        deputies = s[_R_MODULES] & _DEPUTIES
        if kind >= _A_DEPUTY and not deputies:
            return _MODULE_OFF
        if kind == _A_DEPUTY:
            return self._check_deputy(rec) if phase == _REVEAL else _WRONG_PHASE
        if kind == _A_LOOT:
            return self._check_loot(rec) if phase == _LOOT else _WRONG_PHASE
        if deputies and kind == _A_MARKET and phase == _MARKET:
            return self._check_open_market(rec)
        if deputies and kind >= _A_PASS:
            return self._check_stance(rec) if phase == _INSPECT else _WRONG_PHASE
        return sh.Sheriff.check(self, rec)

    def _check_deputy(self, rec):
        return _DEPUTY_TWICE if self.s[_R_CYCLE] & (1 << rec[1]) else _OK

    def _check_open_market(self, rec):
        """Up to 5 cards face up, as many drawn from the draw pile (no discard piles to take)."""
        s = self.s
        if not self._is_merchant(rec[1]):
            return _NOT_A_MERCHANT
        if s[_R_FIRST_MERCHANT] != _NO_SEAT and rec[1] != s[_R_TURN]:   # the named merchant opens
            return _NOT_YOUR_TURN
        if rec[_F_DISCARD] > 5:
            return _TOO_MANY_CARDS
        if rec[_F_TAKE]:
            return _NO_DISCARD_PILES
        if rec[_F_TO - 1] and rec[_F_TO] != 1:
            return _BAD_PILE
        return self._check_hand(rec[1], rec, _F_DISCARD + 1, rec[_F_DISCARD])

    def _check_stance(self, rec):
        """A deputy's pass/open on a merchant: a stance, or the action that settles the bag (both
        agree, or the lone deputy who wanted to open acts)."""
        s = self.s
        p = rec[1]
        t = rec[_F_TARGET]
        if p != s[_R_SHERIFF] and p != s[_R_DEPUTY2]:
            return _NOT_THE_SHERIFF
        if t >= _SEATS6 or not self._is_merchant(t) or s[self._at(t) + _FLAGS] & _SKIPPED:
            return _BAD_TARGET
        if s[self._at(t) + _FLAGS] & _DONE:
            return _ALREADY_RESOLVED
        both = self._stances(p, t)
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
            return self._check_bribe(rec) if rec[_F_BRIBE - 1] else _OK
        return self._check_inspect(rec)

    def _check_loot(self, rec):
        """An agreed split takes part of the chest's remainder for ``p`` (the rest goes to the other
        deputy); ``discard`` lists nothing."""
        s = self.s
        p = rec[1]
        if p != s[_R_SHERIFF] and p != s[_R_DEPUTY2]:
            return _NOT_THE_SHERIFF
        chest = self._at(_CHEST)
        if rec[_F_LOOT_SPLIT] == 1:
            return _BAD_SPLIT if rec[_F_LOOT_GOLD - 1] or rec[_F_LOOT_GOODS - 1] else _OK
        if rec[_F_LOOT_GOLD - 1] and rec[_F_LOOT_GOLD] > self.gold(_CHEST):
            return _BAD_SPLIT
        if rec[_F_LOOT_GOODS - 1]:
            n = rec[_F_LOOT_GOODS]
            for g in range(_KINDS):
                if sh._count(rec, _F_LOOT_GOODS + 1, n, g) > s[chest + _STAND + g]:
                    return _BAD_SPLIT
        return _OK

    # -- applying --------------------------------------------------------------------------
    def apply(self, rec):
        kind = rec[0]
        s = self.s
        if kind == _A_DEPUTY:
            self._apply_deputy(rec)
        elif kind == _A_LOOT:
            self._apply_loot(rec)
        elif kind == _A_CLAIM:
            self._black_market.apply_claim(self, rec)
        elif s[_R_MODULES] & _DEPUTIES and kind >= _A_PASS:
            self._apply_stance(rec)
        elif s[_R_MODULES] & _DEPUTIES and kind == _A_MARKET:
            self._apply_open_market(rec)
        else:
            sh.Sheriff.apply(self, rec)

    def _apply_deputy(self, rec):
        s = self.s
        p = rec[1]
        s[_R_CYCLE] |= 1 << p
        if s[_R_SHERIFF] == _NO_SEAT:
            s[_R_SHERIFF] = p
            return
        s[_R_DEPUTY2] = p
        s[_R_PHASE] = _MARKET
        s[_R_TURN] = _NO_SEAT

    def _apply_open_market(self, rec):
        s = self.s
        p = rec[1]
        if s[_R_FIRST_MERCHANT] == _NO_SEAT:
            s[_R_FIRST_MERCHANT] = p
        nd = rec[_F_DISCARD]
        self._leave_hand(p, rec, _F_DISCARD + 1, nd)
        self._draw(p, nd)
        for i in range(nd):   # face up now, gathered into one pile (pile 1) after the market
            self._push(1, rec[_F_DISCARD + 1 + i])
        nxt = self._next_merchant(p)
        if nxt == _NO_SEAT:
            self._start_load(False)
        else:
            s[_R_TURN] = nxt

    def _apply_stance(self, rec):
        p = rec[1]
        t = rec[_F_TARGET]
        both = self._stances(p, t)
        mine = both >> 2
        other = both & 3
        want = _PASS if rec[0] == _A_PASS else _OPEN
        if mine:                      # the lone deputy who wanted to open acts for themself
            if want == _PASS:
                self._let_through(rec, p)
            else:
                self._open_bag(rec, p, _NO_SEAT)
        elif other == want:           # both agree: the loot chest gains, or both share the penalty
            if want == _PASS:
                self._let_through(rec, _CHEST)
            else:
                partner = self.s[_R_DEPUTY2] if p == self.s[_R_SHERIFF] else self.s[_R_SHERIFF]
                self._open_bag(rec, _CHEST, partner)
        else:
            shift = 4 if p == self.s[_R_SHERIFF] else 6
            self.s[self._at(t) + _FLAGS] |= want << shift

    def _apply_loot(self, rec):
        s = self.s
        p = rec[1]
        other = s[_R_DEPUTY2] if p == s[_R_SHERIFF] else s[_R_SHERIFF]
        chest = self._at(_CHEST)
        if rec[_F_LOOT_SPLIT] == 0:
            mine = rec[_F_LOOT_GOLD] if rec[_F_LOOT_GOLD - 1] else 0
            self._set_gold(p, self.gold(p) + mine)
            self._set_gold(other, self.gold(other) + self.gold(_CHEST) - mine)
            if rec[_F_LOOT_GOODS - 1]:
                mine = self._at(p) + _STAND
                for i in range(rec[_F_LOOT_GOODS]):
                    g = rec[_F_LOOT_GOODS + 1 + i]
                    s[chest + _STAND + g] -= 1
                    s[mine + g] += 1
            theirs = self._at(other) + _STAND
            for g in range(_KINDS):   # the rest to the other deputy
                s[theirs + g] += s[chest + _STAND + g]
                s[chest + _STAND + g] = 0
        else:
            for g in range(_KINDS):   # discarded face up onto pile 1, by card code
                while s[chest + _STAND + g]:
                    s[chest + _STAND + g] -= 1
                    self._push(1, g)
        self._set_gold(_CHEST, 0)
        self._next_round()

    # -- end of the inspection and of the round --------------------------------------------
    def _end_round(self):
        s = self.s
        if not s[_R_MODULES] & _DEPUTIES:
            sh.Sheriff._end_round(self)
        elif self._split_loot():
            s[_R_PHASE] = _LOOT
            s[_R_TURN] = _NO_SEAT
        else:
            self._next_round()

    def _split_loot(self):
        """Each deputy takes half the chest's gold and half of each good; True if an odd coin or
        card is left for the deputies to agree on."""
        s = self.s
        d1 = s[_R_SHERIFF]
        d2 = s[_R_DEPUTY2]
        chest = self._at(_CHEST)
        g = self.gold(_CHEST)
        self._set_gold(d1, self.gold(d1) + g // 2)
        self._set_gold(d2, self.gold(d2) + g // 2)
        self._set_gold(_CHEST, g & 1)
        left = g & 1
        for good in range(_KINDS):
            half = s[chest + _STAND + good] // 2
            s[chest + _STAND + good] -= 2 * half
            s[self._at(d1) + _STAND + good] += half
            s[self._at(d2) + _STAND + good] += half
            left |= s[chest + _STAND + good]
        return left

    def _next_round(self):
        """Merchants draw back to 6 clockwise from the first merchant; the next two deputies
        are revealed (a new cycle every three rounds), or the game is over after nine."""
        s = self.s
        s[_R_ROUND] += 1
        if s[_R_ROUND] >= s[_R_ROUNDS]:
            s[_R_PHASE] = _OVER
            s[_R_TURN] = _NO_SEAT
            return
        self._draw_back_and_clear(s[_R_FIRST_MERCHANT])
        s[_R_SHERIFF] = _NO_SEAT
        s[_R_DEPUTY2] = _NO_SEAT
        s[_R_FIRST_MERCHANT] = _NO_SEAT
        if s[_R_ROUND] % _CYCLE == 0:
            s[_R_CYCLE] = 0
        s[_R_PHASE] = _REVEAL
        s[_R_TURN] = _NO_SEAT

    # -- what may be seen ------------------------------------------------------------------
    def valid_state(self, state):
        seats = state[_R_SEATS]
        d = state[_R_SHERIFF]
        return (3 <= seats <= _SEATS6 and state[_R_PHASE] <= _LOOT and (d < seats or d == _NO_SEAT)
                and state[_R_ROUND] <= state[_R_ROUNDS] and state[_R_MODULES] and state[_R_MODULES] < 32
                and state[_R_PILE1] + state[_R_PILE2] <= _PILE_CAP)

    def public(self, out):
        """The base view, then seat 6, the chest, the module registers and the Black Market."""
        s = self.s
        sh.Sheriff.public(self, out)
        for i in range(_PUB_SEAT6, _PUB_SIZE):
            out[i] = 0
        if s[_R_SEATS] == _SEATS6:
            sh._public_seat(self, out, _PUB_SEAT6, self._at(5))
        sh._public_seat(self, out, _PUB_CHEST, self._at(_CHEST))
        out[_PUB_MM] = s[_R_MODULES]
        out[_PUB_MM + 1] = s[_R_DEPUTY2]
        out[_PUB_MM + 2] = s[_R_CYCLE]
        out[_PUB_MM + 3] = s[_R_FIRST_MERCHANT]
        if self._black_market:
            self._black_market.public(self, out)


GAME = SheriffMM
