"""Sheriff with the Merry Men expansion's modules (``SheriffMM``): imported only when a header names
``modules``. The game of every module, its state and its public view; each module's rules are
functions of the game in their own file, imported only when the header names that module:

* ``deputies`` (exactly 6 players): two deputies per round instead of a Sheriff (``deputies.py``);
* ``black_market``: three pairs of cards claimed during the inspection (``black_market.py``);
* the card modules (laws, special orders, Merry Men): ``cards.SheriffCards``, built on this class.

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
_NO_SEAT = const(255)
_U8 = const(0)
_NAME = const(2)
_LIST = const(3)

# Module bits (register _R_MODULES), in header order of the package's ``MODULES``.
_DEPUTIES = const(1)
_BLACK_MARKET = const(2)

_SEATS6 = const(6)
_CHEST = const(6)             # the loot chest, addressed like a seat

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
_KINDS = const(15)
_PUB_SEAT = const(11)
_R_PHASE = const(1)
_R_SHERIFF = const(2)
_R_ROUND = const(4)
_R_ROUNDS = const(5)
_R_SEATS = const(0)
_R_PILE1 = const(9)
_R_PILE2 = const(10)
_PILE_CAP = const(216)
_SEAT6 = const(457)          # the base state's end: the 6th seat, then the chest (Sheriff._at)
_STATE_END = const(559)

SPLITS = ("agreed", "discard")
_A_SETUP = const(0)
_A_INSPECT = const(5)
_A_DEPUTY = const(6)
_A_LOOT = const(7)
_A_CLAIM = const(8)

# Reasons (``SheriffMM.REASONS``: the base ones, then these).
_MODULE_OFF = const(37)

# The phases the deputies add after the base's (``deputies``): the deputies revealed, the loot split.
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
        self.s[_R_MODULES] = mods
        self._deputies = None   # type: Any  # the deputies module when it is on
        if mods & _DEPUTIES:
            from shared_rules.sheriff.modules import deputies
            self._deputies = deputies
            deputies.start(self)
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

    def stances(self, p, t):
        """Deputies: p's stance on merchant ``t`` times 4, plus the other deputy's (0 none, 1
        pass, 2 open; no tuple: no allocation)."""
        return self._deputies.stances(self, p, t)

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

    # -- hook points: the modules' rules ---------------------------------------------------
    def _is_merchant(self, seat):
        s = self.s
        return seat != s[_R_SHERIFF] and (not s[_R_MODULES] & _DEPUTIES or seat != s[_R_DEPUTY2])

    def _next_merchant(self, seat):
        if self._deputies:
            return self._deputies.next_merchant(self, seat)
        return sh.Sheriff._next_merchant(self, seat)

    def _share(self, rec, owed):
        return self._deputies.share(self, rec, owed) if self._deputies else owed

    def check(self, rec):
        kind = rec[0]
        if kind == _A_CLAIM:
            return self._black_market.check_claim(self, rec) if self._black_market else _MODULE_OFF
        if self._deputies:
            return self._deputies.check(self, rec)
        return _MODULE_OFF if kind >= _A_DEPUTY else sh.Sheriff.check(self, rec)

    def apply(self, rec):
        if rec[0] == _A_CLAIM:
            self._black_market.apply_claim(self, rec)
        elif self._deputies:
            self._deputies.apply(self, rec)
        else:
            sh.Sheriff.apply(self, rec)

    def _end_round(self):
        if self._deputies:
            self._deputies.end_round(self)
        else:
            sh.Sheriff._end_round(self)

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
