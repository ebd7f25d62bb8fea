"""Sheriff of Nottingham (1st edition, 3-5 players, royal goods optional): the referee.

Rules and every decision taken: ``docs/rules-sheriff.md``; vocabulary: ``spec/action-log.md``
(Sheriff section). The referee never sees hands: it knows each hand as a size plus the cards it
saw enter it from a face-up pile, and it counts, per good, the copies not yet identified anywhere
(``POOL``: draw pile plus unknown hand cards). A card leaving a hand must be a known hand card or
one of those unidentified copies: that is the conservation check (no sixth crossbow).

State (``STATE_SIZE`` bytes): registers, the pool, per seat (gold, hand size, flags, bag,
declaration, known hand cards and stand counts per good), then both discard piles in one region
(pile 1 grows up from its start, pile 2 down from its end: together they never exceed the deck).
Scoring lives in ``sheriff_score`` (only ``summary`` needs it). Module hook points (Merry Men):
``_contraband``, ``_penalty``, ``_is_merchant``, ``_rounds_total``; see the rules document.
"""
from shared_rules import engine, sheriff_score
from shared_rules.actions import Vocabulary, field, U8, U16, NAME, LIST, OBJ, MALFORMED, _offsets
from shared_rules.catalogue import (
    SHERIFF_CODES as CODES, SHERIFF_GOODS, SHERIFF_KIND, SHERIFF_VALUE, SHERIFF_PENALTY, LEGAL,
    sheriff_count, sheriff_deck_size,
)
from shared_rules.engine import OK, NO_SEAT, WRONG_PHASE, NOT_YOUR_TURN, FIRST_GAME_REASON

KINDS = len(CODES)
MIN_SEATS = 3
MAX_SEATS = 5
START_GOLD = 50
HAND = 6
PILE_START = 5      # cards per discard pile at setup, and what a refill leaves on each pile
BAG_MAX = 5
MARKET_MAX = 5
LIST_CAP = 8        # longer card lists than the rules allow get a precise reason, not `malformed`
STAND_CAP = 16      # stand goods in one bribe
PAY_CAP = 16        # a debt is at most 5 x 5 = 25 gold: at most 13 goods ever settle it
PILE_CAP = sheriff_deck_size(4, True)
# Modules of the Merry Men expansion (``rules/merry-men.md``): named so the header error is clear.
FUTURE_MODULES = ("deputies", "black_market", "laws", "special_orders", "merry_men")

# Debts settled in goods, by default: legal goods by ascending value, then contraband the same
# way; ties by card code (``spec/action-log.md``, Sheriff details).
PAY_ORDER = bytes(sorted(range(KINDS), key=lambda g: (
    SHERIFF_KIND[g] != LEGAL, SHERIFF_VALUE[g], CODES[g])))


class SheriffVocabulary(Vocabulary):
    """The log writes ``setup`` piles as a list of two lists; records hold two plain lists."""

    def encode(self, obj, rec):
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
        if rec[0] == A_SETUP:
            obj["piles"] = [obj.pop("pile1"), obj.pop("pile2")]
        return obj


BRIBE = (field("gold", U16, optional=True), field("stand", LIST, CODES, optional=True, cap=STAND_CAP),
         field("bag", LIST, CODES, optional=True, cap=BAG_MAX))
VOCAB = SheriffVocabulary((
    ("setup", (field("pile1", LIST, CODES, cap=LIST_CAP), field("pile2", LIST, CODES, cap=LIST_CAP))),
    ("market", (field("discard", LIST, CODES, cap=LIST_CAP), field("take", LIST, None, cap=LIST_CAP),
                field("to", U8, optional=True))),
    ("load", (field("cards", LIST, CODES, cap=LIST_CAP, hidden=True),)),
    ("declare", (field("good", NAME, CODES), field("count", U8))),
    ("pass", (field("target", U8), field("bribe", OBJ, BRIBE, optional=True))),
    ("inspect", (field("target", U8), field("to", U8, optional=True),
                 field("order", LIST, CODES, optional=True, cap=LIST_CAP),
                 field("pay_with", LIST, CODES, optional=True, cap=PAY_CAP))),
))
A_SETUP, A_MARKET, A_LOAD, A_DECLARE, A_PASS, A_INSPECT = range(6)
F_PILE1 = VOCAB.offset("setup", "pile1")
F_PILE2 = VOCAB.offset("setup", "pile2")
F_DISCARD = VOCAB.offset("market", "discard")
F_TAKE = VOCAB.offset("market", "take")
F_TO = VOCAB.offset("market", "to")
F_CARDS = VOCAB.offset("load", "cards")
F_GOOD = VOCAB.offset("declare", "good")
F_COUNT = VOCAB.offset("declare", "count")
F_TARGET = VOCAB.offset("pass", "target")
F_BRIBE = VOCAB.offset("pass", "bribe")
F_BRIBE_GOLD, F_BRIBE_STAND, F_BRIBE_BAG = _offsets(BRIBE, F_BRIBE)[0]   # presence bytes
F_ITO = VOCAB.offset("inspect", "to")
F_ORDER = VOCAB.offset("inspect", "order")
F_PAY = VOCAB.offset("inspect", "pay_with")

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
(NOT_IN_DECK, NO_SUCH_CARD, NOT_IN_HAND, BAD_SETUP, NOT_A_MERCHANT, NOT_THE_SHERIFF, TOO_MANY_CARDS,
 TAKE_TOO_MANY, BAD_PILE, PILE_NEEDED, EMPTY_PILE, BAG_SIZE, ALREADY_LOADED, NOT_LEGAL_GOOD,
 COUNT_MISMATCH, BAD_TARGET, ALREADY_RESOLVED, NOT_ENOUGH_GOLD, NOT_ON_STAND, BAD_ORDER,
 BAD_PAYMENT) = range(FIRST_GAME_REASON, FIRST_GAME_REASON + 21)

SETUP, MARKET, LOAD, DECLARE, INSPECT, OVER = range(6)
PHASES = ("setup", "market", "load", "declare", "inspect", "over")

# Registers.
(R_SEATS, R_PHASE, R_SHERIFF, R_FIRST, R_ROUND, R_ROUNDS, R_TURN, R_ROYAL, R_DRAW, R_PILE1, R_PILE2,
 R_REFILLS) = range(12)
POOL = 16
SEAT_BASE = POOL + KINDS
# Per-seat bytes: gold (u16), hand size, flags, bag size, bag cards, declared good and count,
# known hand cards per good, stand counts per good (legal face up, the rest face down).
GOLD, HAND_N, FLAGS, BAG_N, BAG, DECL_GOOD, DECL_N = 0, 2, 3, 4, 5, 5 + BAG_MAX, 6 + BAG_MAX
KNOWN = 7 + BAG_MAX
STAND = KNOWN + KINDS
SEAT_BYTES = STAND + KINDS
PILES = SEAT_BASE + SEAT_BYTES * MAX_SEATS
PILES_END = PILES + PILE_CAP
# Seat flags.
LOADED = 1
DECLARED = 2
DONE = 4
SKIPPED = 8     # a merchant with an empty hand (only once the deck ran dry) sits the round out

# Public view: registers, per seat (gold u16, hand size, flags, declared good, declared count,
# legal counts per legal good, face-down count), then pile 1 and pile 2 bottom to top.
PUB_REGS = 12
PUB_SEAT = 11
PUB_PILES = PUB_REGS + PUB_SEAT * MAX_SEATS


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
    STATE_SIZE = PILES_END
    PUBLIC_SIZE = PUB_PILES + PILE_CAP
    VOCAB = VOCAB
    REASONS = REASONS

    def __init__(self, seats=4, first=0, royal=True):
        engine.Game.__init__(self)
        s = self.s
        s[R_SEATS] = seats
        s[R_FIRST] = first
        s[R_SHERIFF] = first
        s[R_ROYAL] = 1 if royal else 0
        s[R_ROUNDS] = self._rounds_total()
        s[R_TURN] = NO_SEAT
        s[R_DRAW] = sheriff_deck_size(seats, royal) - HAND * seats
        for g in range(KINDS):
            s[POOL + g] = sheriff_count(g, seats, royal)
        for seat in range(seats):
            self._set_gold(seat, START_GOLD)
            s[self._at(seat) + HAND_N] = HAND
            s[self._at(seat) + DECL_GOOD] = NO_SEAT

    @classmethod
    def from_header(cls, header):
        engine.check_options(header, ("game", "players", "first_sheriff", "royal", "modules"))
        seats = engine.int_option(header, "players", 0, MIN_SEATS, MAX_SEATS)
        first = engine.int_option(header, "first_sheriff", 0, 0, seats - 1)
        royal = header.get("royal", True)
        if not isinstance(royal, bool):
            raise ValueError("royal must be true or false")
        modules = header.get("modules", [])
        if not isinstance(modules, list):
            raise ValueError("modules must be a list")
        for m in modules:
            if m in FUTURE_MODULES:
                raise ValueError("module %r is not supported yet: modules must be []" % (m,))
            raise ValueError("unknown module %r: modules must be []" % (m,))
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
        return SEAT_BASE + SEAT_BYTES * seat

    def gold(self, seat):
        at = SEAT_BASE + SEAT_BYTES * seat
        return self.s[at] | (self.s[at + 1] << 8)

    def _set_gold(self, seat, v):
        at = SEAT_BASE + SEAT_BYTES * seat
        self.s[at] = v & 255
        self.s[at + 1] = v >> 8

    def stand(self, seat, g):
        return self.s[SEAT_BASE + SEAT_BYTES * seat + STAND + g]

    def known(self, seat, g):
        return self.s[SEAT_BASE + SEAT_BYTES * seat + KNOWN + g]

    def hand(self, seat):
        return self.s[SEAT_BASE + SEAT_BYTES * seat + HAND_N]

    def pool(self, g):
        return self.s[POOL + g]

    def bag(self, seat):
        """The bag's cards in loading order (allocates: not for the accept path)."""
        at = self._at(seat)
        return [self.s[at + BAG + i] for i in range(self.s[at + BAG_N])]

    def pile(self, which):
        """A discard pile, bottom to top (allocates: not for the accept path)."""
        return [self._pile_card(which, i) for i in range(self.s[R_PILE1 if which == 1 else R_PILE2])]

    def _deck(self, g):
        return sheriff_count(g, self.s[R_SEATS], self.s[R_ROYAL])

    def _pile_card(self, which, i):
        return self.s[PILES + i] if which == 1 else self.s[PILES_END - 1 - i]

    def _push(self, which, g):
        s = self.s
        if which == 1:
            s[PILES + s[R_PILE1]] = g
            s[R_PILE1] += 1
        else:
            s[PILES_END - 1 - s[R_PILE2]] = g
            s[R_PILE2] += 1

    def _pop(self, which):
        s = self.s
        if which == 1:
            s[R_PILE1] -= 1
            return s[PILES + s[R_PILE1]]
        s[R_PILE2] -= 1
        return s[PILES_END - 1 - s[R_PILE2]]

    def _give(self, src, dst, g):
        """Move one good from a stand to another."""
        s = self.s
        s[self._at(src) + STAND + g] -= 1
        s[self._at(dst) + STAND + g] += 1

    def phase(self):
        return self.s[R_PHASE]

    def over(self):
        return self.s[R_PHASE] == OVER

    # -- checking --------------------------------------------------------------------
    def check(self, rec):
        kind = rec[0]
        phase = self.s[R_PHASE]
        if kind == A_SETUP:
            return self._check_setup(rec) if phase == SETUP else WRONG_PHASE
        if kind == A_MARKET:
            return self._check_market(rec) if phase == MARKET else WRONG_PHASE
        if kind == A_LOAD:
            return self._check_load(rec) if phase == LOAD else WRONG_PHASE
        if kind == A_DECLARE:
            return self._check_declare(rec) if phase == DECLARE else WRONG_PHASE
        if phase != INSPECT:
            return WRONG_PHASE
        err = self._check_target(rec)
        if err:
            return err
        if kind == A_PASS:
            return self._check_bribe(rec) if rec[F_BRIBE - 1] else OK
        return self._check_inspect(rec)

    def _check_setup(self, rec):
        if rec[F_PILE1] != PILE_START or rec[F_PILE2] != PILE_START:
            return BAD_SETUP
        for g in range(KINDS):
            n = _count(rec, F_PILE1 + 1, PILE_START, g) + _count(rec, F_PILE2 + 1, PILE_START, g)
            if n and not self._deck(g):
                return NOT_IN_DECK
            if n > self.s[POOL + g]:
                return NO_SUCH_CARD
        return OK

    def _check_hand(self, p, rec, at, n):
        """Can these ``n`` cards leave ``p``'s hand (known cards first, then unidentified ones)?"""
        s = self.s
        base = self._at(p) + KNOWN
        unknown = s[self._at(p) + HAND_N]
        for g in range(KINDS):
            unknown -= s[base + g]
        for g in range(KINDS):
            need = _count(rec, at, n, g)
            if need:
                if not self._deck(g):
                    return NOT_IN_DECK
                need -= s[base + g]
                if need > 0:
                    if need > s[POOL + g]:
                        return NO_SUCH_CARD
                    unknown -= need
        return NOT_IN_HAND if unknown < 0 else OK

    def _check_merchant_turn(self, p):
        if not self._is_merchant(p):
            return NOT_A_MERCHANT
        return OK if p == self.s[R_TURN] else NOT_YOUR_TURN

    def _check_market(self, rec):
        s = self.s
        err = self._check_merchant_turn(rec[1])
        if err:
            return err
        nd = rec[F_DISCARD]
        nt = rec[F_TAKE]
        if nd > MARKET_MAX:
            return TOO_MANY_CARDS
        if nt > nd:
            return TAKE_TOO_MANY
        if rec[F_TO - 1]:
            if rec[F_TO] != 1 and rec[F_TO] != 2:
                return BAD_PILE
        elif nd:
            return PILE_NEEDED
        n1 = s[R_PILE1]
        n2 = s[R_PILE2]
        for i in range(nt):
            which = rec[F_TAKE + 1 + i]
            if which == 1:
                n1 -= 1
            elif which == 2:
                n2 -= 1
            else:
                return BAD_PILE
            if n1 < 0 or n2 < 0:
                return EMPTY_PILE
        return self._check_hand(rec[1], rec, F_DISCARD + 1, nd)

    def _check_load(self, rec):
        p = rec[1]
        if not self._is_merchant(p):
            return NOT_A_MERCHANT
        if self.s[self._at(p) + FLAGS] & LOADED:
            return ALREADY_LOADED
        n = rec[F_CARDS]
        if n < 1 or n > BAG_MAX:
            return BAG_SIZE
        return self._check_hand(p, rec, F_CARDS + 1, n)

    def _check_declare(self, rec):
        err = self._check_merchant_turn(rec[1])
        if err:
            return err
        g = rec[F_GOOD]
        if self._contraband(g):
            return NOT_LEGAL_GOOD
        if not self._deck(g):
            return NOT_IN_DECK
        return OK if rec[F_COUNT] == self.s[self._at(rec[1]) + BAG_N] else COUNT_MISMATCH

    def _check_target(self, rec):
        """Common to pass and inspect: the Sheriff, and a declared bag not yet resolved."""
        if rec[1] != self.s[R_SHERIFF]:
            return NOT_THE_SHERIFF
        t = rec[F_TARGET]
        if t >= self.s[R_SEATS] or not self._is_merchant(t):
            return BAD_TARGET
        flags = self.s[self._at(t) + FLAGS]
        if flags & SKIPPED:
            return BAD_TARGET
        return ALREADY_RESOLVED if flags & DONE else OK

    def _check_bribe(self, rec):
        t = rec[F_TARGET]
        if rec[F_BRIBE_GOLD] and (rec[F_BRIBE_GOLD + 1] | (rec[F_BRIBE_GOLD + 2] << 8)) > self.gold(t):
            return NOT_ENOUGH_GOLD
        for g in range(KINDS):
            on_stand = _count(rec, F_BRIBE_STAND + 2, rec[F_BRIBE_STAND + 1], g) if rec[F_BRIBE_STAND] else 0
            in_bag = _count(rec, F_BRIBE_BAG + 2, rec[F_BRIBE_BAG + 1], g) if rec[F_BRIBE_BAG] else 0
            if (on_stand or in_bag) and not self._deck(g):
                return NOT_IN_DECK
            if on_stand > self.stand(t, g):
                return NOT_ON_STAND
        return OK

    def _check_inspect(self, rec):
        s = self.s
        t = rec[F_TARGET]
        at = self._at(t)
        if rec[F_ITO - 1] and rec[F_ITO] != 1 and rec[F_ITO] != 2:
            return BAD_PILE
        decl = s[at + DECL_GOOD]
        n = s[at + BAG_N]
        kept = _count(s, at + BAG, n, decl)
        if rec[F_ORDER - 1]:
            for g in range(KINDS):
                want = 0 if g == decl else _count(s, at + BAG, n, g)
                if _count(rec, F_ORDER + 1, rec[F_ORDER], g) != want:
                    return BAD_ORDER
        if not rec[F_PAY - 1]:
            return OK
        if kept == n:   # truthful: the Sheriff owes the merchant
            return self._check_payment(rec, s[R_SHERIFF], n * self._penalty(decl), decl, 0)
        return self._check_payment(rec, t, self._confiscated_penalty(t), decl, kept)

    def _confiscated_penalty(self, t):
        s = self.s
        at = self._at(t)
        decl = s[at + DECL_GOOD]
        owed = 0
        for i in range(s[at + BAG_N]):
            g = s[at + BAG + i]
            if g != decl:
                owed += self._penalty(g)
        return owed

    def _check_payment(self, rec, debtor, owed, plus_good, plus_n):
        """``pay_with`` settles the part of a debt the debtor's gold cannot: goods handed over
        while the debt is open, all legal goods before any contraband, the whole stand if it
        does not cover the rest. ``plus_n`` goods ``plus_good`` reach the stand just before."""
        rest = owed - self.gold(debtor)
        if rest <= 0:
            return BAD_PAYMENT
        n = rec[F_PAY]
        at = F_PAY + 1
        paid = 0
        contraband = False
        for i in range(n):
            g = rec[at + i]
            if paid >= rest:
                return BAD_PAYMENT
            if self._contraband(g):
                contraband = True
            elif contraband:
                return BAD_PAYMENT
            paid += SHERIFF_VALUE[g]
        for g in range(KINDS):
            have = self.stand(debtor, g) + (plus_n if g == plus_good else 0)
            give = _count(rec, at, n, g)
            if give > have:
                return BAD_PAYMENT
            if give < have and (paid < rest or (contraband and not self._contraband(g))):
                return BAD_PAYMENT
        return OK

    # -- applying --------------------------------------------------------------------
    def apply(self, rec):
        kind = rec[0]
        if kind == A_SETUP:
            self._apply_setup(rec)
        elif kind == A_MARKET:
            self._apply_market(rec)
        elif kind == A_LOAD:
            self._apply_load(rec)
        elif kind == A_DECLARE:
            self._apply_declare(rec)
        elif kind == A_PASS:
            self._apply_pass(rec)
        else:
            self._apply_inspect(rec)

    def _apply_setup(self, rec):
        s = self.s
        for i in range(PILE_START):
            self._push(1, rec[F_PILE1 + 1 + i])
            self._push(2, rec[F_PILE2 + 1 + i])
            s[POOL + rec[F_PILE1 + 1 + i]] -= 1
            s[POOL + rec[F_PILE2 + 1 + i]] -= 1
        s[R_DRAW] -= 2 * PILE_START
        s[R_PHASE] = MARKET
        s[R_TURN] = self._next_merchant(s[R_SHERIFF])

    def _leave_hand(self, p, rec, at, n):
        """Cards leave a hand: known ones first, the rest become identified copies."""
        s = self.s
        base = self._at(p)
        for i in range(n):
            g = rec[at + i]
            if s[base + KNOWN + g]:
                s[base + KNOWN + g] -= 1
            else:
                s[POOL + g] -= 1
        s[base + HAND_N] -= n

    def _apply_market(self, rec):
        s = self.s
        p = rec[1]
        base = self._at(p)
        nd = rec[F_DISCARD]
        nt = rec[F_TAKE]
        self._leave_hand(p, rec, F_DISCARD + 1, nd)     # set aside face down
        for i in range(nt):                               # all pile draws come first
            g = self._pop(rec[F_TAKE + 1 + i])
            s[base + KNOWN + g] += 1
            s[base + HAND_N] += 1
        self._draw(p, nd - nt)
        for i in range(nd):                               # then onto one pile, in order
            self._push(rec[F_TO], rec[F_DISCARD + 1 + i])
        nxt = self._next_merchant(p)
        if nxt == NO_SEAT:
            self._start_load()
        else:
            s[R_TURN] = nxt

    def _draw(self, p, n):
        """``p`` draws ``n`` unseen cards; an empty draw pile is refilled first, once per need."""
        s = self.s
        at = self._at(p) + HAND_N
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
                    s[POOL + self._pile_card(which, i)] += 1
                for i in range(PILE_START):
                    g = self._pile_card(which, n - PILE_START + i)
                    if which == 1:
                        s[PILES + i] = g
                    else:
                        s[PILES_END - 1 - i] = g
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
            if self._is_merchant(seat) and not s[self._at(seat) + FLAGS] & SKIPPED:
                return seat

    def _start_load(self):
        s = self.s
        s[R_PHASE] = LOAD
        s[R_TURN] = NO_SEAT
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + HAND_N]:
                s[self._at(seat) + FLAGS] |= SKIPPED | DONE
        self._after_load()

    def _after_load(self):
        s = self.s
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + FLAGS] & (LOADED | SKIPPED):
                return
        first = self._next_merchant(s[R_SHERIFF])
        if first == NO_SEAT:
            self._end_round()
        else:
            s[R_PHASE] = DECLARE
            s[R_TURN] = first

    def _apply_load(self, rec):
        s = self.s
        p = rec[1]
        at = self._at(p)
        n = rec[F_CARDS]
        self._leave_hand(p, rec, F_CARDS + 1, n)
        for i in range(n):
            s[at + BAG + i] = rec[F_CARDS + 1 + i]
        s[at + BAG_N] = n
        s[at + FLAGS] |= LOADED
        self._after_load()

    def _apply_declare(self, rec):
        s = self.s
        p = rec[1]
        at = self._at(p)
        s[at + DECL_GOOD] = rec[F_GOOD]
        s[at + DECL_N] = rec[F_COUNT]
        s[at + FLAGS] |= DECLARED
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
        n = s[at + BAG_N]
        for i in range(n):
            if s[at + BAG + i] == g:
                for j in range(i, n - 1):
                    s[at + BAG + j] = s[at + BAG + j + 1]
                s[at + BAG_N] = n - 1
                return True
        return False

    def _apply_pass(self, rec):
        s = self.s
        t = rec[F_TARGET]
        sheriff = rec[1]
        at = self._at(t)
        if rec[F_BRIBE - 1]:
            if rec[F_BRIBE_GOLD]:
                v = rec[F_BRIBE_GOLD + 1] | (rec[F_BRIBE_GOLD + 2] << 8)
                self._set_gold(t, self.gold(t) - v)
                self._set_gold(sheriff, self.gold(sheriff) + v)
            if rec[F_BRIBE_STAND]:
                for i in range(rec[F_BRIBE_STAND + 1]):
                    self._give(t, sheriff, rec[F_BRIBE_STAND + 2 + i])
            if rec[F_BRIBE_BAG]:
                for i in range(rec[F_BRIBE_BAG + 1]):
                    g = rec[F_BRIBE_BAG + 2 + i]
                    if self._take_from_bag(t, g):
                        s[self._at(sheriff) + STAND + g] += 1
        for i in range(s[at + BAG_N]):
            s[at + STAND + s[at + BAG + i]] += 1
        self._resolved(t)

    def _apply_inspect(self, rec):
        s = self.s
        t = rec[F_TARGET]
        sheriff = rec[1]
        at = self._at(t)
        decl = s[at + DECL_GOOD]
        n = s[at + BAG_N]
        kept = _count(s, at + BAG, n, decl)
        s[at + STAND + decl] += kept
        to = rec[F_ITO] if rec[F_ITO - 1] else 1
        if rec[F_ORDER - 1]:
            for i in range(rec[F_ORDER]):
                self._push(to, rec[F_ORDER + 1 + i])
        else:
            for i in range(n):
                if s[at + BAG + i] != decl:
                    self._push(to, s[at + BAG + i])
        if kept == n:
            self._pay(sheriff, t, n * self._penalty(decl), rec)
        else:
            self._pay(t, sheriff, self._confiscated_penalty(t), rec)
        self._resolved(t)

    def _pay(self, debtor, creditor, owed, rec):
        """Gold first; the rest in goods from the debtor's stand (``pay_with`` or the default
        order) until covered, no change given; what the stand cannot cover is forgiven."""
        s = self.s
        have = self.gold(debtor)
        paid = owed if have >= owed else have
        self._set_gold(debtor, have - paid)
        self._set_gold(creditor, self.gold(creditor) + paid)
        rest = owed - paid
        if rest <= 0:
            return
        if rec[F_PAY - 1]:
            for i in range(rec[F_PAY]):
                self._give(debtor, creditor, rec[F_PAY + 1 + i])
            return
        stand = self._at(debtor) + STAND
        for j in range(KINDS):
            g = PAY_ORDER[j]
            while rest > 0 and s[stand + g]:
                self._give(debtor, creditor, g)
                rest -= SHERIFF_VALUE[g]

    def _resolved(self, t):
        s = self.s
        at = self._at(t)
        s[at + BAG_N] = 0
        s[at + FLAGS] |= DONE
        for seat in range(s[R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + FLAGS] & DONE:
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
        for i in range(1, n):
            seat = (sheriff + i) % n
            if self._is_merchant(seat) and s[self._at(seat) + HAND_N] < HAND:
                self._draw(seat, HAND - s[self._at(seat) + HAND_N])
        for seat in range(n):
            at = self._at(seat)
            s[at + FLAGS] = 0
            s[at + BAG_N] = 0
            s[at + DECL_GOOD] = NO_SEAT
            s[at + DECL_N] = 0
        s[R_SHERIFF] = (sheriff + 1) % n
        s[R_PHASE] = MARKET
        s[R_TURN] = self._next_merchant(s[R_SHERIFF])

    # -- what may be seen ------------------------------------------------------------
    def valid_state(self, state):
        seats = state[R_SEATS]
        return (MIN_SEATS <= seats <= MAX_SEATS and state[R_PHASE] <= OVER and state[R_SHERIFF] < seats
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
            if seat >= s[R_SEATS]:
                continue
            at = self._at(seat)
            out[o] = s[at + GOLD]
            out[o + 1] = s[at + GOLD + 1]
            out[o + 2] = s[at + HAND_N]
            out[o + 3] = s[at + FLAGS]
            out[o + 4] = s[at + DECL_GOOD]
            out[o + 5] = s[at + DECL_N]
            for g in range(KINDS):
                if self._contraband(g):
                    out[o + 10] += s[at + STAND + g]
                else:
                    out[o + 6 + SHERIFF_GOODS[g][8]] += s[at + STAND + g]
        n1 = s[R_PILE1]
        for i in range(PILE_CAP):
            if i < n1:
                out[PUB_PILES + i] = s[PILES + i]
            elif i < n1 + s[R_PILE2]:
                out[PUB_PILES + i] = s[PILES_END - 1 - (i - n1)]
            else:
                out[PUB_PILES + i] = 0

    @staticmethod
    def describe(view):
        """Public view bytes -> dict for the scoreboard."""
        seats = []
        for seat in range(view[R_SEATS]):
            o = PUB_REGS + PUB_SEAT * seat
            legal = {}
            for g in range(KINDS):
                if SHERIFF_KIND[g] == LEGAL:
                    legal[CODES[g]] = view[o + 6 + SHERIFF_GOODS[g][8]]
            flags = view[o + 3]
            seats.append({
                "gold": view[o] | (view[o + 1] << 8), "hand": view[o + 2],
                "loaded": bool(flags & LOADED), "resolved": bool(flags & DONE),
                "declared": [CODES[view[o + 4]], view[o + 5]] if flags & DECLARED else None,
                "stand": legal, "contraband": view[o + 10],
            })
        n1 = view[R_PILE1]
        n2 = view[R_PILE2]
        return {
            "game": "sheriff", "seats": seats, "phase": PHASES[view[R_PHASE]],
            "sheriff": view[R_SHERIFF], "turn": _seat(view[R_TURN]), "round": view[R_ROUND],
            "rounds": view[R_ROUNDS], "royal": bool(view[R_ROYAL]), "draw": view[R_DRAW],
            "piles": [[CODES[view[PUB_PILES + i]] for i in range(n1)],
                      [CODES[view[PUB_PILES + n1 + i]] for i in range(n2)]],
        }

    def summary(self):
        n = self.s[R_SEATS]
        over = self.over()
        return {
            "game": "sheriff", "players": n, "over": over,
            "winners": sheriff_score.winners(self) if over else [],
            "scores": sheriff_score.scores(self), "gold": [self.gold(i) for i in range(n)],
        }

    def referee(self):
        """Everything the referee knows, hidden cards included (debug view)."""
        view = bytearray(self.PUBLIC_SIZE)
        self.public(view)
        d = self.describe(view)
        d["pool"] = _goods(lambda g: self.pool(g))
        for seat in range(self.s[R_SEATS]):
            d["seats"][seat]["known_hand"] = _goods(lambda g: self.known(seat, g))
            d["seats"][seat]["stand_all"] = _goods(lambda g: self.stand(seat, g))
            d["seats"][seat]["bag"] = [CODES[g] for g in self.bag(seat)]
        return d


def _goods(count):
    """{code: n} for the goods with a non-zero count."""
    d = {}
    for g in range(KINDS):
        if count(g):
            d[CODES[g]] = count(g)
    return d


def _seat(v):
    return None if v == NO_SEAT else v


GAME = Sheriff
