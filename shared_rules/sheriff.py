"""Sheriff of Nottingham (1st edition, 3-5 players, royal goods optional): the referee.

Rules and every decision taken: ``docs/rules-sheriff.md``; vocabulary: ``spec/action-log.md``
(Sheriff section). The referee never sees hands: it knows each hand as a size plus the cards it
saw enter it from a face-up pile, and it counts, per good, the copies not yet identified anywhere
(``_POOL``: draw pile plus unknown hand cards). A card leaving a hand must be a known hand card or
one of those unidentified copies: that is the conservation check (no sixth crossbow).

State (``STATE_SIZE`` bytes): registers, the pool, per seat (gold, hand size, flags, bag,
declaration, known hand cards and stand counts per good), then both discard piles in one region
(pile 1 grows up from its start, pile 2 down from its end: together they never exceed the deck).
Scoring lives in ``sheriff_score`` (only ``summary`` needs it). A header with ``modules`` (or a
``profile``) hands over to ``sheriff_mm`` (Merry Men expansion), imported only then; it overrides
the hook points ``_contraband``, ``_penalty``, ``_is_merchant``, ``_rounds_total``,
``_first_merchant``, ``_next_merchant``, ``_share``, ``_at`` and the per-seat accessors, and reuses
``_let_through``/``_open_bag``/``_pay`` with the loot chest as receiver.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules import engine
from shared_rules.actions import Vocabulary, field, U8, U16, NAME, LIST, OBJ, MALFORMED, UNKNOWN_CODE, _offsets
from shared_rules.catalogue import (
    SHERIFF_CODES as CODES, SHERIFF_LEGAL_KINDS, SHERIFF_KIND, SHERIFF_VALUE, SHERIFF_PENALTY, LEGAL,
    sheriff_count, sheriff_deck_size,
)
from shared_rules.engine import OK, NO_SEAT, WRONG_PHASE, NOT_YOUR_TURN, FIRST_GAME_REASON

KINDS = const(15)
MAX_SEATS = const(5)
HAND = const(6)
PILE_START = const(5)   # cards per discard pile at setup, and what a refill leaves on each pile
BAG_MAX = const(5)
MARKET_MAX = const(5)
PILE_CAP = const(216)   # the largest deck: both discard piles together never hold more
_MIN_SEATS = const(3)
_START_GOLD = const(50)
_LIST_CAP = const(8)    # longer card lists than the rules allow get a precise reason, not `malformed`
_TALLY_MAX = const(254)  # a bribe's copies of one good, as counted in the record
_PAY_CAP = const(16)    # a debt is at most 5 x 5 = 25 gold: at most 13 goods ever settle it
assert KINDS == len(CODES) and PILE_CAP == sheriff_deck_size(4, True)

# Action kinds, in VOCAB order (inspect is the last one, 5).
_A_SETUP = const(0)
_A_MARKET = const(1)
_A_LOAD = const(2)
_A_DECLARE = const(3)
_A_PASS = const(4)

# Debts settled in goods, by default: legal goods by ascending value, then contraband the same
# way; ties by card code (``spec/action-log.md``, Sheriff details).
# (tests/dual/dual_sheriff_rules.py derives it from the catalogue)
_PAY_ORDER = const(b"\x00\x02\x01\x03\x08\x09\x0a\x04\x0c\x05\x0e\x06\x0b\x07\x0d")


def _tally(names):
    """A bribe's list of goods -> counts per good (any length fits the record: no valid bribe is
    refused for its size); an int code on error (``MALFORMED``/``UNKNOWN_CODE``)."""
    if not isinstance(names, list):
        return MALFORMED
    counts = [0] * KINDS
    for v in names:
        if not isinstance(v, str):
            return MALFORMED
        c = -1
        for i in range(KINDS):
            if CODES[i] == v:
                c = i
        if c < 0:
            return UNKNOWN_CODE
        if counts[c] < _TALLY_MAX:   # more copies than any deck holds mean the same to the rules
            counts[c] += 1
    return counts


class SheriffVocabulary(Vocabulary):
    """The log writes ``setup`` piles as a list of two lists, and a bribe's goods as lists of any
    length; records hold two plain lists, and the bribe's goods as counts per good."""

    def encode(self, obj, rec):
        if isinstance(obj, dict) and obj.get("a") == "pass" and isinstance(obj.get("bribe"), dict):
            bribe = dict(obj["bribe"])
            for key in ("stand", "bag"):
                if key in bribe:
                    counts = _tally(bribe[key])
                    if isinstance(counts, int):
                        return counts
                    bribe[key] = counts
            obj = dict(obj)
            obj["bribe"] = bribe
        if isinstance(obj, dict) and obj.get("a") == "setup":
            piles = obj.get("piles")
            if "pile1" in obj or "pile2" in obj or not isinstance(piles, list) or len(piles) != 2:
                return MALFORMED
            flat = {}
            for key in obj:
                if key != "piles":
                    flat[key] = obj[key]
            flat["pile1"] = piles[0]
            flat["pile2"] = piles[1]
            obj = flat
        return Vocabulary.encode(self, obj, rec)

    def decode(self, rec, public=False):
        obj = Vocabulary.decode(self, rec, public)
        if rec[0] == _A_SETUP:
            obj["piles"] = [obj.pop("pile1"), obj.pop("pile2")]
        bribe = obj.get("bribe") if rec[0] == _A_PASS else None
        if bribe:
            for key in ("stand", "bag"):
                if key in bribe:
                    counts = bribe[key]
                    bribe[key] = [CODES[g] for g in range(KINDS) for _ in range(counts[g])]
        return obj


VOCAB = SheriffVocabulary((
    ("setup", (field("pile1", LIST, CODES, cap=_LIST_CAP), field("pile2", LIST, CODES, cap=_LIST_CAP))),
    ("market", (field("discard", LIST, CODES, cap=_LIST_CAP), field("take", LIST, None, cap=_LIST_CAP),
                field("to", U8, optional=True))),
    ("load", (field("cards", LIST, CODES, cap=_LIST_CAP, hidden=True),)),
    ("declare", (field("good", NAME, CODES), field("count", U8))),
    ("pass", (field("target", U8), field("bribe", OBJ, (
        field("gold", U16, optional=True), field("stand", LIST, None, optional=True, cap=KINDS),
        field("bag", LIST, None, optional=True, cap=KINDS)), optional=True))),
    ("inspect", (field("target", U8), field("to", U8, optional=True),
                 field("order", LIST, CODES, optional=True, cap=_LIST_CAP),
                 field("pay_with", LIST, CODES, optional=True, cap=_PAY_CAP))),
))
# Field offsets in a record (optional fields: the presence byte is just before), written as
# constants so the accept path reads them inline; checked against the vocabulary at import.
_F_PILE1 = const(2)
_F_PILE2 = const(11)
_F_DISCARD = const(2)
_F_TAKE = const(11)
_F_TO = const(21)
_F_CARDS = const(2)
_F_GOOD = const(2)
_F_COUNT = const(3)
_F_TARGET = const(2)
_F_BRIBE = const(4)
_F_ITO = const(4)
_F_ORDER = const(6)
_F_PAY = const(16)
_F_BRIBE_GOLD = const(4)   # presence bytes of the bribe's sub-fields
_F_BRIBE_STAND = const(7)
_F_BRIBE_BAG = const(24)
assert [_F_PILE1, _F_PILE2, _F_DISCARD, _F_TAKE, _F_TO, _F_CARDS, _F_GOOD, _F_COUNT, _F_TARGET, _F_BRIBE,
        _F_ITO, _F_ORDER, _F_PAY] == [
    VOCAB.offset("setup", "pile1"), VOCAB.offset("setup", "pile2"), VOCAB.offset("market", "discard"),
    VOCAB.offset("market", "take"), VOCAB.offset("market", "to"), VOCAB.offset("load", "cards"),
    VOCAB.offset("declare", "good"), VOCAB.offset("declare", "count"), VOCAB.offset("pass", "target"),
    VOCAB.offset("pass", "bribe"), VOCAB.offset("inspect", "to"), VOCAB.offset("inspect", "order"),
    VOCAB.offset("inspect", "pay_with")]
assert _offsets(VOCAB.fields[_A_PASS][1][2], _F_BRIBE)[0] == [_F_BRIBE_GOLD, _F_BRIBE_STAND, _F_BRIBE_BAG]

REASONS = (
    "not_in_deck",        # 16 this game's deck has no such good (bread at 3 players, royal: false)
    "no_such_card",       # 17 every copy of that good is already identified elsewhere
    "not_in_hand",        # 18 the hand is too small for those cards beside its known ones
    "bad_setup",          # 19 setup piles must hold exactly 5 cards each
    "not_a_merchant",     # 20 the Sheriff takes no part in market, load and declare
    "not_the_sheriff",    # 21 only the Sheriff passes or inspects
    "too_many_cards",     # 22 more than 5 cards set aside at the market
    "take_too_many",      # 23 more pile draws than cards set aside
    "bad_pile",           # 24 a pile number other than 1 or 2
    "pile_needed",        # 25 set-aside cards need a `to` pile
    "empty_pile",         # 26 taking from an empty discard pile
    "bag_size",           # 27 a bag holds 1 to 5 cards
    "already_loaded",     # 28 a closed bag cannot change
    "not_legal_good",     # 29 only a legal good may be declared
    "count_mismatch",     # 30 the declared count must be the bag's
    "bad_target",         # 31 the target is not a merchant with a bag this round
    "already_resolved",   # 32 that bag was already passed or opened
    "not_enough_gold",    # 33 a bribe of gold the merchant does not have
    "not_on_stand",       # 34 a bribe of stand goods the merchant does not have
    "bad_order",          # 35 `order` is not exactly the confiscated cards
    "bad_payment",        # 36 `pay_with` breaks the running-out-of-gold rule
)
_NOT_IN_DECK = const(16)
_NO_SUCH_CARD = const(17)
_NOT_IN_HAND = const(18)
_BAD_SETUP = const(19)
_NOT_A_MERCHANT = const(20)
_NOT_THE_SHERIFF = const(21)
_TOO_MANY_CARDS = const(22)
_TAKE_TOO_MANY = const(23)
_BAD_PILE = const(24)
_PILE_NEEDED = const(25)
_EMPTY_PILE = const(26)
_BAG_SIZE = const(27)
_ALREADY_LOADED = const(28)
_NOT_LEGAL_GOOD = const(29)
_COUNT_MISMATCH = const(30)
_BAD_TARGET = const(31)
_ALREADY_RESOLVED = const(32)
_NOT_ENOUGH_GOLD = const(33)
_NOT_ON_STAND = const(34)
_BAD_ORDER = const(35)
_BAD_PAYMENT = const(36)
assert len(REASONS) == 21 and FIRST_GAME_REASON == 16

SETUP = const(0)
MARKET = const(1)
LOAD = const(2)
DECLARE = const(3)
INSPECT = const(4)
OVER = const(5)
PHASES = ("setup", "market", "load", "declare", "inspect", "over")

# Registers.
R_SEATS = const(0)
R_PHASE = const(1)
R_SHERIFF = const(2)
_R_FIRST = const(3)
R_ROUND = const(4)
R_ROUNDS = const(5)
R_TURN = const(6)
R_ROYAL = const(7)
R_DRAW = const(8)
R_PILE1 = const(9)
R_PILE2 = const(10)
R_REFILLS = const(11)
_POOL = const(16)                      # unidentified copies per good
_SEAT_BASE = const(31)                 # _POOL + KINDS
# Per-seat bytes: gold (u16), hand size, flags, bag size, bag cards, declared good and count,
# known hand cards per good, stand counts per good (legal face up, the rest face down).
_GOLD = const(0)
_HAND_N = const(2)
_FLAGS = const(3)
_BAG_N = const(4)
_BAG = const(5)
_DECL_GOOD = const(10)                 # _BAG + BAG_MAX
_DECL_N = const(11)
_KNOWN = const(12)
_STAND = const(27)                     # _KNOWN + KINDS
_SEAT_BYTES = const(42)                # _STAND + KINDS
_PILES = const(241)                    # _SEAT_BASE + _SEAT_BYTES * MAX_SEATS
_PILES_END = const(457)                # _PILES + PILE_CAP
assert _SEAT_BASE == _POOL + KINDS and _STAND == _KNOWN + KINDS and _SEAT_BYTES == _STAND + KINDS
assert _DECL_GOOD == _BAG + BAG_MAX and _PILES == _SEAT_BASE + _SEAT_BYTES * MAX_SEATS
# Seat flags.
LOADED = const(1)
DECLARED = const(2)
DONE = const(4)
SKIPPED = const(8)   # a merchant with an empty hand (only once the deck ran dry) sits the round out

# Public view: registers, per seat (gold u16, hand size, flags, declared good, declared count,
# legal counts per legal good, face-down count), then pile 1 and pile 2 bottom to top.
PUB_REGS = const(12)
PUB_SEAT = const(11)
PUB_PILES = const(67)                  # PUB_REGS + PUB_SEAT * MAX_SEATS
assert PUB_PILES == PUB_REGS + PUB_SEAT * MAX_SEATS


def _count(rec, at, n, g):
    """How many times good ``g`` is in the list of ``n`` codes at ``rec[at]``."""
    c = 0
    for i in range(n):
        if rec[at + i] == g:
            c += 1
    return c


class Sheriff(engine.Game):
    NAME = "sheriff"
    GAME_ID = 3
    STATE_SIZE = _PILES_END
    PUBLIC_SIZE = PUB_PILES + PILE_CAP
    VOCAB = VOCAB
    REASONS = REASONS  # type: tuple

    def __init__(self, seats=4, first=0, royal=True):
        engine.Game.__init__(self)
        s = self.s
        s[R_SEATS] = seats
        s[_R_FIRST] = first
        s[R_SHERIFF] = first
        s[R_ROYAL] = 1 if royal else 0
        s[R_ROUNDS] = self._rounds_total()
        s[R_TURN] = NO_SEAT
        s[R_DRAW] = sheriff_deck_size(seats, royal) - HAND * seats
        for g in range(KINDS):
            s[_POOL + g] = sheriff_count(g, seats, royal)
        for seat in range(seats):
            self._set_gold(seat, _START_GOLD)
            s[self._at(seat) + _HAND_N] = HAND
            s[self._at(seat) + _DECL_GOOD] = NO_SEAT

    @classmethod
    def from_header(cls, header):
        royal = header.get("royal", True)
        if not isinstance(royal, bool):
            raise ValueError("royal must be true or false")
        modules = header.get("modules", [])
        if not isinstance(modules, list):
            raise ValueError("modules must be a list")
        if modules or "profile" in header:
            # Merry Men modules are code loaded only now: base Sheriff's heap does not grow.
            from shared_rules import sheriff_mm
            return sheriff_mm.from_header(header)
        engine.check_options(header, ("game", "players", "first_sheriff", "royal", "modules"))
        seats = engine.int_option(header, "players", 0, _MIN_SEATS, MAX_SEATS)
        first = engine.int_option(header, "first_sheriff", 0, 0, seats - 1)
        return cls(seats, first, royal)

    # -- hook points for modules -----------------------------------------------------
    def _contraband(self, g):
        """Whether a good is contraband (a law module may change this per round)."""
        return SHERIFF_KIND[g] != LEGAL

    def _penalty(self, g):
        return SHERIFF_PENALTY[g]

    def _is_merchant(self, seat):
        """Whether a seat trades this round (deputies would replace the single Sheriff)."""
        return seat != self.s[R_SHERIFF]

    def _rounds_total(self):
        """Each player is Sheriff twice, three times at 3 players."""
        n = self.s[R_SEATS]
        return n * (3 if n == 3 else 2)

    # -- small accessors -------------------------------------------------------------
    def _at(self, seat):
        return _SEAT_BASE + _SEAT_BYTES * seat

    def gold(self, seat):
        at = _SEAT_BASE + _SEAT_BYTES * seat
        return self.s[at] | (self.s[at + 1] << 8)

    def _set_gold(self, seat, v):
        at = _SEAT_BASE + _SEAT_BYTES * seat
        self.s[at] = v & 255
        self.s[at + 1] = v >> 8

    def stand(self, seat, g):
        return self.s[_SEAT_BASE + _SEAT_BYTES * seat + _STAND + g]

    def known(self, seat, g):
        return self.s[_SEAT_BASE + _SEAT_BYTES * seat + _KNOWN + g]

    def hand(self, seat):
        return self.s[_SEAT_BASE + _SEAT_BYTES * seat + _HAND_N]

    def flags(self, seat):
        return self.s[_SEAT_BASE + _SEAT_BYTES * seat + _FLAGS]

    def pool(self, g):
        return self.s[_POOL + g]

    def bag(self, seat):
        """The bag's cards in loading order (allocates: not for the accept path)."""
        at = self._at(seat)
        return [self.s[at + _BAG + i] for i in range(self.s[at + _BAG_N])]

    def pile(self, which):
        """A discard pile, bottom to top (allocates: not for the accept path)."""
        return [self._pile_card(which, i) for i in range(self.s[R_PILE1 if which == 1 else R_PILE2])]

    def _deck(self, g):
        return sheriff_count(g, self.s[R_SEATS], self.s[R_ROYAL])

    def _pile_card(self, which, i):
        return self.s[_PILES + i] if which == 1 else self.s[_PILES_END - 1 - i]

    def _push(self, which, g):
        s = self.s
        if which == 1:
            s[_PILES + s[R_PILE1]] = g
            s[R_PILE1] += 1
        else:
            s[_PILES_END - 1 - s[R_PILE2]] = g
            s[R_PILE2] += 1

    def _pop(self, which):
        s = self.s
        if which == 1:
            s[R_PILE1] -= 1
            return s[_PILES + s[R_PILE1]]
        s[R_PILE2] -= 1
        return s[_PILES_END - 1 - s[R_PILE2]]

    def _give(self, src, dst, g):
        """Move one good from a stand to another."""
        s = self.s
        s[self._at(src) + _STAND + g] -= 1
        s[self._at(dst) + _STAND + g] += 1

    def phase(self):
        return self.s[R_PHASE]

    def over(self):
        return self.s[R_PHASE] == OVER

    # -- checking --------------------------------------------------------------------
    def check(self, rec):
        kind = rec[0]
        phase = self.s[R_PHASE]
        if kind == _A_SETUP:
            return self._check_setup(rec) if phase == SETUP else WRONG_PHASE
        if kind == _A_MARKET:
            return self._check_market(rec) if phase == MARKET else WRONG_PHASE
        if kind == _A_LOAD:
            return self._check_load(rec) if phase == LOAD else WRONG_PHASE
        if kind == _A_DECLARE:
            return self._check_declare(rec) if phase == DECLARE else WRONG_PHASE
        if phase != INSPECT:
            return WRONG_PHASE
        err = self._check_target(rec)
        if err:
            return err
        if kind == _A_PASS:
            return self._check_bribe(rec) if rec[_F_BRIBE - 1] else OK
        return self._check_inspect(rec)

    def _check_setup(self, rec):
        if rec[_F_PILE1] != PILE_START or rec[_F_PILE2] != PILE_START:
            return _BAD_SETUP
        for g in range(KINDS):
            n = _count(rec, _F_PILE1 + 1, PILE_START, g) + _count(rec, _F_PILE2 + 1, PILE_START, g)
            if n and not self._deck(g):
                return _NOT_IN_DECK
            if n > self.s[_POOL + g]:
                return _NO_SUCH_CARD
        return OK

    def _check_hand(self, p, rec, at, n):
        """Can these ``n`` cards leave ``p``'s hand (known cards first, then unidentified ones)?"""
        s = self.s
        base = self._at(p) + _KNOWN
        unknown = s[self._at(p) + _HAND_N]
        for g in range(KINDS):
            unknown -= s[base + g]
        for g in range(KINDS):
            need = _count(rec, at, n, g)
            if need:
                if not self._deck(g):
                    return _NOT_IN_DECK
                need -= s[base + g]
                if need > 0:
                    if need > s[_POOL + g]:
                        return _NO_SUCH_CARD
                    unknown -= need
        return _NOT_IN_HAND if unknown < 0 else OK

    def _check_merchant_turn(self, p):
        if not self._is_merchant(p):
            return _NOT_A_MERCHANT
        return OK if p == self.s[R_TURN] else NOT_YOUR_TURN

    def _check_market(self, rec):
        s = self.s
        err = self._check_merchant_turn(rec[1])
        if err:
            return err
        nd = rec[_F_DISCARD]
        nt = rec[_F_TAKE]
        if nd > MARKET_MAX:
            return _TOO_MANY_CARDS
        if nt > nd:
            return _TAKE_TOO_MANY
        if rec[_F_TO - 1]:
            if rec[_F_TO] != 1 and rec[_F_TO] != 2:
                return _BAD_PILE
        elif nd:
            return _PILE_NEEDED
        n1 = s[R_PILE1]
        n2 = s[R_PILE2]
        for i in range(nt):
            which = rec[_F_TAKE + 1 + i]
            if which == 1:
                n1 -= 1
            elif which == 2:
                n2 -= 1
            else:
                return _BAD_PILE
            if n1 < 0 or n2 < 0:
                return _EMPTY_PILE
        return self._check_hand(rec[1], rec, _F_DISCARD + 1, nd)

    def _check_load(self, rec):
        p = rec[1]
        if not self._is_merchant(p):
            return _NOT_A_MERCHANT
        if self.s[self._at(p) + _FLAGS] & LOADED:
            return _ALREADY_LOADED
        n = rec[_F_CARDS]
        if n < 1 or n > BAG_MAX:
            return _BAG_SIZE
        return self._check_hand(p, rec, _F_CARDS + 1, n)

    def _check_declare(self, rec):
        err = self._check_merchant_turn(rec[1])
        if err:
            return err
        g = rec[_F_GOOD]
        if self._contraband(g):
            return _NOT_LEGAL_GOOD
        if not self._deck(g):
            return _NOT_IN_DECK
        return OK if rec[_F_COUNT] == self.s[self._at(rec[1]) + _BAG_N] else _COUNT_MISMATCH

    def _check_target(self, rec):
        """Common to pass and inspect: the Sheriff, and a declared bag not yet resolved."""
        if rec[1] != self.s[R_SHERIFF]:
            return _NOT_THE_SHERIFF
        t = rec[_F_TARGET]
        if t >= self.s[R_SEATS] or not self._is_merchant(t):
            return _BAD_TARGET
        flags = self.s[self._at(t) + _FLAGS]
        if flags & SKIPPED:
            return _BAD_TARGET
        return _ALREADY_RESOLVED if flags & DONE else OK

    def _check_bribe(self, rec):
        t = rec[_F_TARGET]
        if rec[_F_BRIBE_STAND] and rec[_F_BRIBE_STAND + 1] != KINDS or rec[_F_BRIBE_BAG] and rec[_F_BRIBE_BAG + 1] != KINDS:
            return MALFORMED   # a wire record whose bribe is not one count per good
        if rec[_F_BRIBE_GOLD] and (rec[_F_BRIBE_GOLD + 1] | (rec[_F_BRIBE_GOLD + 2] << 8)) > self.gold(t):
            return _NOT_ENOUGH_GOLD
        for g in range(KINDS):
            on_stand = rec[_F_BRIBE_STAND + 2 + g] if rec[_F_BRIBE_STAND] else 0
            in_bag = rec[_F_BRIBE_BAG + 2 + g] if rec[_F_BRIBE_BAG] else 0
            if (on_stand or in_bag) and not self._deck(g):
                return _NOT_IN_DECK
            if on_stand > self.stand(t, g):
                return _NOT_ON_STAND
        return OK

    def _check_inspect(self, rec):
        s = self.s
        t = rec[_F_TARGET]
        at = self._at(t)
        if rec[_F_ITO - 1] and rec[_F_ITO] != 1 and rec[_F_ITO] != 2:
            return _BAD_PILE
        decl = s[at + _DECL_GOOD]
        n = s[at + _BAG_N]
        kept = _count(s, at + _BAG, n, decl)
        if rec[_F_ORDER - 1]:
            for g in range(KINDS):
                want = 0 if g == decl else _count(s, at + _BAG, n, g)
                if _count(rec, _F_ORDER + 1, rec[_F_ORDER], g) != want:
                    return _BAD_ORDER
        if not rec[_F_PAY - 1]:
            return OK
        if kept == n:   # truthful: the inspector owes the merchant (with a partner: their share)
            return self._check_payment(rec, rec[1], self._share(rec, n * self._penalty(decl)), decl, 0)
        return self._check_payment(rec, t, self._confiscated_penalty(t), decl, kept)

    def _share(self, rec, owed):
        """The part of a truthful merchant's penalty the inspecting seat pays itself."""
        return owed

    def _confiscated_penalty(self, t):
        s = self.s
        at = self._at(t)
        decl = s[at + _DECL_GOOD]
        owed = 0
        for i in range(s[at + _BAG_N]):
            g = s[at + _BAG + i]
            if g != decl:
                owed += self._penalty(g)
        return owed

    def _check_payment(self, rec, debtor, owed, plus_good, plus_n):
        """``pay_with`` settles the part of a debt the debtor's gold cannot: goods handed over
        while the debt is open, all legal goods before any contraband, the whole stand if it
        does not cover the rest. ``plus_n`` goods ``plus_good`` reach the stand just before."""
        rest = owed - self.gold(debtor)
        if rest <= 0:
            return _BAD_PAYMENT
        n = rec[_F_PAY]
        at = _F_PAY + 1
        paid = 0
        contraband = False
        for i in range(n):
            g = rec[at + i]
            if paid >= rest:
                return _BAD_PAYMENT
            if self._contraband(g):
                contraband = True
            elif contraband:
                return _BAD_PAYMENT
            paid += SHERIFF_VALUE[g]
        for g in range(KINDS):
            have = self.stand(debtor, g) + (plus_n if g == plus_good else 0)
            give = _count(rec, at, n, g)
            if give > have:
                return _BAD_PAYMENT
            if give < have and (paid < rest or (contraband and not self._contraband(g))):
                return _BAD_PAYMENT
        return OK

    # -- applying --------------------------------------------------------------------
    def apply(self, rec):
        kind = rec[0]
        if kind == _A_SETUP:
            self._apply_setup(rec)
        elif kind == _A_MARKET:
            self._apply_market(rec)
        elif kind == _A_LOAD:
            self._apply_load(rec)
        elif kind == _A_DECLARE:
            self._apply_declare(rec)
        elif kind == _A_PASS:
            self._apply_pass(rec)
        else:
            self._apply_inspect(rec)

    def _apply_setup(self, rec):
        s = self.s
        for i in range(PILE_START):
            self._push(1, rec[_F_PILE1 + 1 + i])
            self._push(2, rec[_F_PILE2 + 1 + i])
            s[_POOL + rec[_F_PILE1 + 1 + i]] -= 1
            s[_POOL + rec[_F_PILE2 + 1 + i]] -= 1
        s[R_DRAW] -= 2 * PILE_START
        s[R_PHASE] = MARKET
        s[R_TURN] = self._first_merchant()

    def _first_merchant(self):
        """Who opens the market and the declarations: the Sheriff's left (deputies: the merchant
        they named)."""
        return self._next_merchant(self.s[R_SHERIFF])

    def _leave_hand(self, p, rec, at, n):
        """Cards leave a hand: known ones first, the rest become identified copies."""
        s = self.s
        base = self._at(p)
        for i in range(n):
            g = rec[at + i]
            if s[base + _KNOWN + g]:
                s[base + _KNOWN + g] -= 1
            else:
                s[_POOL + g] -= 1
        s[base + _HAND_N] -= n

    def _apply_market(self, rec):
        s = self.s
        p = rec[1]
        base = self._at(p)
        nd = rec[_F_DISCARD]
        nt = rec[_F_TAKE]
        self._leave_hand(p, rec, _F_DISCARD + 1, nd)     # set aside face down
        for i in range(nt):                               # all pile draws come first
            g = self._pop(rec[_F_TAKE + 1 + i])
            s[base + _KNOWN + g] += 1
            s[base + _HAND_N] += 1
        self._draw(p, nd - nt)
        for i in range(nd):                               # then onto one pile, in order
            self._push(rec[_F_TO], rec[_F_DISCARD + 1 + i])
        nxt = self._next_merchant(p)
        if nxt == NO_SEAT:
            self._start_load()
        else:
            s[R_TURN] = nxt

    def _draw(self, p, n):
        """``p`` draws ``n`` unseen cards; an empty draw pile is refilled first, once per need."""
        s = self.s
        at = self._at(p) + _HAND_N
        for _ in range(n):
            if not s[R_DRAW]:
                self._refill()
                if not s[R_DRAW]:
                    return
            s[R_DRAW] -= 1
            s[at] += 1

    def _refill(self):
        """1st edition: all but the top 5 cards of each discard pile become the draw pile."""
        s = self.s
        for which in range(1, 3):
            reg = R_PILE1 if which == 1 else R_PILE2
            n = s[reg]
            if n > PILE_START:
                for i in range(n - PILE_START):
                    s[_POOL + self._pile_card(which, i)] += 1
                for i in range(PILE_START):
                    g = self._pile_card(which, n - PILE_START + i)
                    if which == 1:
                        s[_PILES + i] = g
                    else:
                        s[_PILES_END - 1 - i] = g
                s[reg] = PILE_START
                s[R_DRAW] += n - PILE_START
        s[R_REFILLS] = (s[R_REFILLS] + 1) & 255

    def _next_merchant(self, seat):
        """The next merchant clockwise after ``seat`` who is in this round (NO_SEAT past the
        Sheriff's right)."""
        s = self.s
        n = s[R_SEATS]
        sheriff = s[R_SHERIFF]
        while True:
            seat = (seat + 1) % n
            if seat == sheriff:
                return NO_SEAT
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & SKIPPED:
                return seat

    def _start_load(self):
        s = self.s
        s[R_PHASE] = LOAD
        s[R_TURN] = NO_SEAT
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + _HAND_N]:
                s[self._at(seat) + _FLAGS] |= SKIPPED | DONE
        self._after_load()

    def _after_load(self):
        s = self.s
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & (LOADED | SKIPPED):
                return
        first = self._first_merchant()
        if first == NO_SEAT:
            self._end_round()
        else:
            s[R_PHASE] = DECLARE
            s[R_TURN] = first

    def _apply_load(self, rec):
        s = self.s
        p = rec[1]
        at = self._at(p)
        n = rec[_F_CARDS]
        self._leave_hand(p, rec, _F_CARDS + 1, n)
        for i in range(n):
            s[at + _BAG + i] = rec[_F_CARDS + 1 + i]
        s[at + _BAG_N] = n
        s[at + _FLAGS] |= LOADED
        self._after_load()

    def _apply_declare(self, rec):
        s = self.s
        p = rec[1]
        at = self._at(p)
        s[at + _DECL_GOOD] = rec[_F_GOOD]
        s[at + _DECL_N] = rec[_F_COUNT]
        s[at + _FLAGS] |= DECLARED
        nxt = self._next_merchant(p)
        if nxt == NO_SEAT:
            s[R_PHASE] = INSPECT
            s[R_TURN] = NO_SEAT
        else:
            s[R_TURN] = nxt

    def _take_from_bag(self, t, g):
        """Remove one ``g`` from the bag if it is there (bag order kept); True if removed."""
        s = self.s
        at = self._at(t)
        n = s[at + _BAG_N]
        for i in range(n):
            if s[at + _BAG + i] == g:
                for j in range(i, n - 1):
                    s[at + _BAG + j] = s[at + _BAG + j + 1]
                s[at + _BAG_N] = n - 1
                return True
        return False

    def _apply_pass(self, rec):
        self._let_through(rec, rec[1])

    def _let_through(self, rec, sheriff):
        """The bag goes to its owner's stand; the bribe (if any) to ``sheriff`` (a seat, or the
        deputies' loot chest)."""
        s = self.s
        t = rec[_F_TARGET]
        at = self._at(t)
        if rec[_F_BRIBE - 1]:
            if rec[_F_BRIBE_GOLD]:
                v = rec[_F_BRIBE_GOLD + 1] | (rec[_F_BRIBE_GOLD + 2] << 8)
                self._set_gold(t, self.gold(t) - v)
                self._set_gold(sheriff, self.gold(sheriff) + v)
            for g in range(KINDS):
                if rec[_F_BRIBE_STAND]:
                    for _ in range(rec[_F_BRIBE_STAND + 2 + g]):
                        self._give(t, sheriff, g)
                if rec[_F_BRIBE_BAG]:
                    for _ in range(rec[_F_BRIBE_BAG + 2 + g]):
                        if self._take_from_bag(t, g):
                            s[self._at(sheriff) + _STAND + g] += 1
        for i in range(s[at + _BAG_N]):
            s[at + _STAND + s[at + _BAG + i]] += 1
        self._resolved(t)

    def _apply_inspect(self, rec):
        self._open_bag(rec, rec[1], NO_SEAT)

    def _open_bag(self, rec, sheriff, partner):
        """Open the bag: a lying merchant pays ``sheriff`` (a seat or the loot chest); a truthful
        one is paid by the inspector ``rec[1]`` (half, the odd coin included, when ``partner``
        pays the other half)."""
        s = self.s
        t = rec[_F_TARGET]
        at = self._at(t)
        decl = s[at + _DECL_GOOD]
        n = s[at + _BAG_N]
        kept = _count(s, at + _BAG, n, decl)
        s[at + _STAND + decl] += kept
        to = rec[_F_ITO] if rec[_F_ITO - 1] else 1
        if rec[_F_ORDER - 1]:
            for i in range(rec[_F_ORDER]):
                self._push(to, rec[_F_ORDER + 1 + i])
        else:
            for i in range(n):
                if s[at + _BAG + i] != decl:
                    self._push(to, s[at + _BAG + i])
        if kept == n:
            owed = n * self._penalty(decl)
            if partner != NO_SEAT:
                self._pay(partner, t, owed // 2, None)
                owed -= owed // 2
            self._pay(rec[1], t, owed, rec)
        else:
            self._pay(t, sheriff, self._confiscated_penalty(t), rec)
        self._resolved(t)

    def _pay(self, debtor, creditor, owed, rec):
        """Gold first; the rest in goods from the debtor's stand (``pay_with`` of ``rec``, or the
        default order when ``rec`` is None or has none) until covered, no change given; what the stand cannot cover is forgiven."""
        s = self.s
        have = self.gold(debtor)
        paid = owed if have >= owed else have
        self._set_gold(debtor, have - paid)
        self._set_gold(creditor, self.gold(creditor) + paid)
        rest = owed - paid
        if rest <= 0:
            return
        if rec is not None and rec[_F_PAY - 1]:
            for i in range(rec[_F_PAY]):
                self._give(debtor, creditor, rec[_F_PAY + 1 + i])
            return
        stand = self._at(debtor) + _STAND
        for j in range(KINDS):
            g = _PAY_ORDER[j]
            while rest > 0 and s[stand + g]:
                self._give(debtor, creditor, g)
                rest -= SHERIFF_VALUE[g]

    def _resolved(self, t):
        s = self.s
        at = self._at(t)
        s[at + _BAG_N] = 0
        s[at + _FLAGS] |= DONE
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & DONE:
                return
        self._end_round()

    def _end_round(self):
        """Automatic end of round: game end, or merchants draw back to 6 and the Sheriff
        role passes left."""
        s = self.s
        n = s[R_SEATS]
        s[R_ROUND] += 1
        if s[R_ROUND] >= s[R_ROUNDS]:
            s[R_PHASE] = OVER
            s[R_TURN] = NO_SEAT
            return
        sheriff = s[R_SHERIFF]
        self._draw_back_and_clear((sheriff + 1) % n)
        s[R_SHERIFF] = (sheriff + 1) % n
        s[R_PHASE] = MARKET
        s[R_TURN] = self._first_merchant()

    def _draw_back_and_clear(self, first):
        """The round's merchants draw back to 6, clockwise from ``first``; then every seat's bag,
        declaration and flags are cleared for the next round."""
        s = self.s
        n = s[R_SEATS]
        for i in range(n):
            seat = (first + i) % n
            if self._is_merchant(seat) and s[self._at(seat) + _HAND_N] < HAND:
                self._draw(seat, HAND - s[self._at(seat) + _HAND_N])
        for seat in range(n):
            at = self._at(seat)
            s[at + _FLAGS] = 0
            s[at + _BAG_N] = 0
            s[at + _DECL_GOOD] = NO_SEAT
            s[at + _DECL_N] = 0

    # -- what may be seen ------------------------------------------------------------
    def valid_state(self, state):
        seats = state[R_SEATS]
        return (_MIN_SEATS <= seats <= MAX_SEATS and state[R_PHASE] <= OVER and state[R_SHERIFF] < seats
                and state[R_ROUND] <= state[R_ROUNDS] and state[R_PILE1] + state[R_PILE2] <= PILE_CAP)

    def public(self, out):
        """Fill ``out`` (PUBLIC_SIZE bytes): never a hand card, a closed bag or a face-down good."""
        s = self.s
        for i in range(PUB_REGS):
            out[i] = s[i]
        for seat in range(MAX_SEATS):
            o = PUB_REGS + PUB_SEAT * seat
            for i in range(PUB_SEAT):
                out[o + i] = 0
            if seat < s[R_SEATS]:
                self._public_seat(out, o, self._at(seat))
        n1 = s[R_PILE1]
        for i in range(PILE_CAP):
            if i < n1:
                out[PUB_PILES + i] = s[_PILES + i]
            elif i < n1 + s[R_PILE2]:
                out[PUB_PILES + i] = s[_PILES_END - 1 - (i - n1)]
            else:
                out[PUB_PILES + i] = 0

    def _public_seat(self, out, o, at):
        """One seat's public bytes at ``out[o]`` (``out`` zeroed there): gold, hand size, flags,
        declaration, legal goods per kind, how many face down."""
        s = self.s
        out[o] = s[at + _GOLD]
        out[o + 1] = s[at + _GOLD + 1]
        out[o + 2] = s[at + _HAND_N]
        out[o + 3] = s[at + _FLAGS]
        out[o + 4] = s[at + _DECL_GOOD]
        out[o + 5] = s[at + _DECL_N]
        for g in range(KINDS):
            if g < SHERIFF_LEGAL_KINDS and not self._contraband(g):
                out[o + 6 + g] = s[at + _STAND + g]
            else:
                out[o + 10] += s[at + _STAND + g]

    @staticmethod
    def describe(view):
        """Public view bytes -> dict for the scoreboard (host side: imported on demand)."""
        from shared_rules import sheriff_view
        return sheriff_view.describe(view)

    def summary(self):
        """The replay contract's fields; scoring is imported on demand, off the accept path."""
        from shared_rules import sheriff_score
        n = self.s[R_SEATS]
        over = self.over()
        return {
            "game": "sheriff", "players": n, "over": over,
            "winners": sheriff_score.winners(self) if over else [],
            "scores": sheriff_score.scores(self), "gold": [self.gold(i) for i in range(n)],
        }

    def referee(self):
        """Everything the referee knows, hidden cards included (debug view)."""
        from shared_rules import sheriff_view
        return sheriff_view.referee(self)


GAME = Sheriff
