"""Sheriff of Nottingham (1st edition, 3-5 players, royal goods optional): the referee.

Rules and every decision taken: ``docs/rules-sheriff.md``; vocabulary: ``spec/action-log.md``
(Sheriff section). The referee never sees hands: it knows each hand as a size plus the cards it
saw enter it from a face-up pile, and it counts, per good, the copies not yet identified anywhere
(``_POOL``: draw pile plus unknown hand cards). A card leaving a hand must be a known hand card or
one of those unidentified copies: that is the conservation check (no sixth crossbow).

State (``STATE_SIZE`` bytes): registers, the pool, per seat (gold, hand size, flags, bag,
declaration, known hand cards and stand counts per good), then both discard piles in one region
(pile 1 grows up from its start, pile 2 down from its end: together they never exceed the deck).
Scoring lives in ``score`` (only ``summary`` needs it). A header with ``modules`` (or a
``profile``) hands over to ``deputies`` (Merry Men expansion), imported only then; the modules
override the hook points ``_contraband``, ``_penalty``, ``_is_merchant``,
``_next_merchant``, ``_share``, ``check``/``apply`` and the bag hooks, and reuse
``_let_through``/``_open_bag``/``_pay`` with the loot chest as receiver (``_at`` addresses their
sixth seat and the chest too). Reason names are one string (``REASONS``, named by ``engine.Game.reason``).

Memory (docs/performance.md): every number below is a private ``const()`` literal, inlined by
MicroPython and kept by no dictionary; the catalogue's columns this module needs are restated as
``bytes`` constants, so a replay never loads the catalogue. ``tests/test_rules_literals.py``
checks each against where it comes from (engine, actions, catalogue, the vocabulary's offsets);
tests and host tools read them by name from the generated ``sheriff_layout``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core import actions
from shared_rules.core import engine

# From the engine and actions (restated: a name imported from a module is a dictionary slot).
_OK = const(0)
_MALFORMED = const(1)
_WRONG_PHASE = const(5)
_NOT_YOUR_TURN = const(6)
_NO_SEAT = const(255)
_FIRST_GAME_REASON = const(16)
_U8 = const(0)
_U16 = const(1)
_NAME = const(2)
_LIST = const(3)
_OBJ = const(4)

_LEGAL_KINDS = const(4)     # goods 0..3 are legal, 4..7 contraband, 8..14 royal
_ROYAL_FIRST = const(8)
# The goods' columns from the catalogue, 15 bytes each, in one bytes constant (one object, not
# five): ``_GOODS[_G_VALUE + g]``. Copies in the deck, of them marked 4+ (out at 3 players), value,
# penalty; then ``_G_PAY_ORDER``, the goods by which debts are settled by default: legal goods by
# ascending value, then contraband the same way; ties by card code (``spec/action-log.md``).
_G_COUNT = const(0)
_G_MARKED = const(15)
_G_VALUE = const(30)
_G_PENALTY = const(45)
_G_PAY_ORDER = const(60)
_GOODS = const(b"\x30\x24\x24\x18\x16\x15\x0c\x05\x02\x02\x02\x01\x02\x01\x02"
               b"\x00\x00\x24\x00\x04\x05\x03\x00\x00\x01\x00\x01\x02\x01\x01"
               b"\x02\x03\x03\x04\x06\x07\x08\x09\x04\x06\x06\x09\x06\x09\x08"
               b"\x02\x02\x02\x02\x04\x04\x04\x04\x03\x04\x04\x05\x04\x05\x04"
               b"\x00\x02\x01\x03\x08\x09\x0a\x04\x0c\x05\x0e\x06\x0b\x07\x0d")

_KINDS = const(15)
_MAX_SEATS = const(5)
_HAND = const(6)
_PILE_START = const(5)  # cards per discard pile at setup, and what a refill leaves on each pile
_BAG_MAX = const(5)
_MARKET_MAX = const(5)
_PILE_CAP = const(216)  # the largest deck: both discard piles together never hold more
_MIN_SEATS = const(3)
_START_GOLD = const(50)
_LIST_CAP = const(8)    # longer card lists than the rules allow get a precise reason, not `malformed`
_PAY_CAP = const(16)    # a debt is at most 5 x 5 = 25 gold: at most 13 goods ever settle it

# Action kinds, in VOCAB order (inspect is the last one, 5).
_A_SETUP = const(0)
_A_MARKET = const(1)
_A_LOAD = const(2)
_A_DECLARE = const(3)
_A_PASS = const(4)

# Field offsets in a record (optional fields: the presence byte is just before), so the accept
# path reads them inline.
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


# Reasons (``Sheriff.REASONS``, codes from the engine's FIRST_GAME_REASON 16).
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

# Phases (names: ``sheriff.view``).
_SETUP = const(0)
_MARKET = const(1)
_LOAD = const(2)
_DECLARE = const(3)
_INSPECT = const(4)
_OVER = const(5)

# Registers.
_R_SEATS = const(0)
_R_PHASE = const(1)
_R_SHERIFF = const(2)
_R_FIRST = const(3)
_R_ROUND = const(4)
_R_ROUNDS = const(5)
_R_TURN = const(6)
_R_ROYAL = const(7)
_R_DRAW = const(8)
_R_PILE1 = const(9)
_R_PILE2 = const(10)
_R_REFILLS = const(11)
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
# Seat flags.
_LOADED = const(1)
_DECLARED = const(2)
_DONE = const(4)
_SKIPPED = const(8)   # a merchant with an empty hand (only once the deck ran dry) sits the round out

# Public view: registers, per seat (gold u16, hand size, flags, declared good, declared count,
# legal counts per legal good, face-down count), then pile 1 and pile 2 bottom to top.
_PUB_REGS = const(12)
_PUB_SEAT = const(11)
_PUB_PILES = const(67)                 # PUB_REGS + PUB_SEAT * MAX_SEATS


class Sheriff(engine.Game):
    NAME = "sheriff"
    GAME_ID = 3
    STATE_SIZE = _PILES_END
    PUBLIC_SIZE = _PUB_PILES + _PILE_CAP   # VOCAB and REASONS: set after the class (below)

    def __init__(self, seats=4, first=0, royal=True):
        engine.Game.__init__(self)
        Sheriff.VOCAB.names   # the vocabulary is made with the first game, never on an accept path
        s = self.s
        s[_R_SEATS] = seats
        s[_R_FIRST] = first
        s[_R_SHERIFF] = first
        s[_R_ROYAL] = 1 if royal else 0
        s[_R_ROUNDS] = seats * (3 if seats == 3 else 2)   # each is Sheriff twice, three times at 3
        s[_R_TURN] = _NO_SEAT
        deck = 0
        for g in range(_KINDS):
            s[_POOL + g] = self._deck(g)
            deck += s[_POOL + g]
        s[_R_DRAW] = deck - _HAND * seats
        for seat in range(seats):
            self._set_gold(seat, _START_GOLD)
            s[self._at(seat) + _HAND_N] = _HAND
            s[self._at(seat) + _DECL_GOOD] = _NO_SEAT

    @classmethod
    def from_header(cls, header):
        royal = header.get("royal", True)
        if not isinstance(royal, bool):
            raise ValueError("royal must be true or false")
        engine.check_options(header, ["game", "players", "first_sheriff", "royal", "modules"])   # built per call
        seats = engine.int_option(header, "players", 0, _MIN_SEATS, _MAX_SEATS)
        first = engine.int_option(header, "first_sheriff", 0, 0, seats - 1)
        return cls(seats, first, royal)

    # -- hook points for modules -----------------------------------------------------
    def _contraband(self, g):
        """Whether a good is contraband (a law module may change this per round)."""
        return g >= _LEGAL_KINDS

    def _penalty(self, g):
        return _GOODS[_G_PENALTY + g]

    def _is_merchant(self, seat):
        """Whether a seat trades this round (deputies would replace the single Sheriff)."""
        return seat != self.s[_R_SHERIFF]

    # -- small accessors -------------------------------------------------------------
    def _at(self, seat):
        """Where a seat's bytes start. Seats past the fifth (the Merry Men's sixth seat, then
        their loot chest) live after the base state, in ``modules.deputies``' longer one."""
        return _SEAT_BASE + _SEAT_BYTES * seat if seat < _MAX_SEATS else _PILES_END + _SEAT_BYTES * (seat - _MAX_SEATS)

    def gold(self, seat):
        at = self._at(seat)
        return self.s[at] | (self.s[at + 1] << 8)

    def _set_gold(self, seat, v):
        at = self._at(seat)
        self.s[at] = v & 255
        self.s[at + 1] = v >> 8

    def stand(self, seat, g):
        return self.s[self._at(seat) + _STAND + g]

    def _deck(self, g):
        """Copies of good ``g`` in this game's deck (3 players: no 4+ cards; royal goods only
        with ``royal``)."""
        if g >= _ROYAL_FIRST and not self.s[_R_ROYAL]:
            return 0
        return _GOODS[_G_COUNT + g] - (_GOODS[_G_MARKED + g] if self.s[_R_SEATS] == 3 else 0)

    def _push(self, which, g):
        s = self.s
        if which == 1:
            s[_PILES + s[_R_PILE1]] = g
            s[_R_PILE1] += 1
        else:
            s[_PILES_END - 1 - s[_R_PILE2]] = g
            s[_R_PILE2] += 1

    def over(self):
        return self.s[_R_PHASE] == _OVER

    # -- checking --------------------------------------------------------------------
    def check(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        if s[_R_PHASE] != (kind if kind < _A_PASS else _INSPECT):   # setup..declare: phase = kind
            return _WRONG_PHASE
        if kind == _A_SETUP:
            if rec[_F_PILE1] != _PILE_START or rec[_F_PILE2] != _PILE_START:
                return _BAD_SETUP
            for g in range(_KINDS):
                n = _count(rec, _F_PILE1 + 1, _PILE_START, g) + _count(rec, _F_PILE2 + 1, _PILE_START, g)
                if n and not self._deck(g):
                    return _NOT_IN_DECK
                if n > s[_POOL + g]:
                    return _NO_SUCH_CARD
            return _OK
        if kind < _A_PASS:   # market, load, declare: a merchant (market, declare: in turn)
            if not self._is_merchant(p):
                return _NOT_A_MERCHANT
            at = self._at(p)
            if kind == _A_LOAD:
                if s[at + _FLAGS] & _LOADED:
                    return _ALREADY_LOADED
                n = rec[_F_CARDS]
                if n < 1 or n > _BAG_MAX:
                    return _BAG_SIZE
                return self._check_hand(p, rec, _F_CARDS + 1, n)
            if p != s[_R_TURN]:
                return _NOT_YOUR_TURN
            if kind == _A_DECLARE:
                g = rec[_F_GOOD]
                if self._contraband(g):
                    return _NOT_LEGAL_GOOD
                if not self._deck(g):
                    return _NOT_IN_DECK
                return _OK if rec[_F_COUNT] == s[at + _BAG_N] else _COUNT_MISMATCH
            nd = rec[_F_DISCARD]
            nt = rec[_F_TAKE]
            if nd > _MARKET_MAX:
                return _TOO_MANY_CARDS
            if nt > nd:
                return _TAKE_TOO_MANY
            if rec[_F_TO - 1]:
                if rec[_F_TO] != 1 and rec[_F_TO] != 2:
                    return _BAD_PILE
            elif nd:
                return _PILE_NEEDED
            n1 = s[_R_PILE1]
            n2 = s[_R_PILE2]
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
            return self._check_hand(p, rec, _F_DISCARD + 1, nd)
        # pass and inspect: the Sheriff, and a declared bag not yet resolved
        if p != s[_R_SHERIFF]:
            return _NOT_THE_SHERIFF
        t = rec[_F_TARGET]
        if t >= s[_R_SEATS] or not self._is_merchant(t):
            return _BAD_TARGET
        flags = s[self._at(t) + _FLAGS]
        if flags & _SKIPPED:
            return _BAD_TARGET
        if flags & _DONE:
            return _ALREADY_RESOLVED
        if kind == _A_PASS:
            return self._check_bribe(rec) if rec[_F_BRIBE - 1] else _OK
        return self._check_inspect(rec)

    def _check_hand(self, p, rec, at, n):
        """Can these ``n`` cards leave ``p``'s hand (known cards first, then unidentified ones)?"""
        s = self.s
        base = self._at(p) + _KNOWN
        unknown = s[self._at(p) + _HAND_N]
        for g in range(_KINDS):
            unknown -= s[base + g]
        for g in range(_KINDS):
            need = _count(rec, at, n, g)
            if need:
                if not self._deck(g):
                    return _NOT_IN_DECK
                need -= s[base + g]
                if need > 0:
                    if need > s[_POOL + g]:
                        return _NO_SUCH_CARD
                    unknown -= need
        return _NOT_IN_HAND if unknown < 0 else _OK

    def _check_bribe(self, rec):
        t = rec[_F_TARGET]
        if rec[_F_BRIBE_STAND] and rec[_F_BRIBE_STAND + 1] != _KINDS or rec[_F_BRIBE_BAG] and rec[_F_BRIBE_BAG + 1] != _KINDS:
            return _MALFORMED   # a wire record whose bribe is not one count per good
        if rec[_F_BRIBE_GOLD] and (rec[_F_BRIBE_GOLD + 1] | (rec[_F_BRIBE_GOLD + 2] << 8)) > self.gold(t):
            return _NOT_ENOUGH_GOLD
        for g in range(_KINDS):
            on_stand = rec[_F_BRIBE_STAND + 2 + g] if rec[_F_BRIBE_STAND] else 0
            in_bag = rec[_F_BRIBE_BAG + 2 + g] if rec[_F_BRIBE_BAG] else 0
            if (on_stand or in_bag) and not self._deck(g):
                return _NOT_IN_DECK
            if on_stand > self.stand(t, g):
                return _NOT_ON_STAND
        return _OK

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
            for g in range(_KINDS):
                want = 0 if g == decl else _count(s, at + _BAG, n, g)
                if _count(rec, _F_ORDER + 1, rec[_F_ORDER], g) != want:
                    return _BAD_ORDER
        if not rec[_F_PAY - 1]:
            return _OK
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
            paid += _GOODS[_G_VALUE + g]
        for g in range(_KINDS):
            have = self.stand(debtor, g) + (plus_n if g == plus_good else 0)
            give = _count(rec, at, n, g)
            if give > have:
                return _BAD_PAYMENT
            if give < have and (paid < rest or (contraband and not self._contraband(g))):
                return _BAD_PAYMENT
        return _OK

    # -- applying --------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        if kind == _A_SETUP:
            for i in range(_PILE_START):
                self._push(1, rec[_F_PILE1 + 1 + i])
                self._push(2, rec[_F_PILE2 + 1 + i])
                s[_POOL + rec[_F_PILE1 + 1 + i]] -= 1
                s[_POOL + rec[_F_PILE2 + 1 + i]] -= 1
            s[_R_DRAW] -= 2 * _PILE_START
            s[_R_PHASE] = _MARKET
            s[_R_TURN] = self._next_merchant(_NO_SEAT)
        elif kind == _A_MARKET:
            base = self._at(p)
            nd = rec[_F_DISCARD]
            nt = rec[_F_TAKE]
            self._leave_hand(p, rec, _F_DISCARD + 1, nd)     # set aside face down
            for i in range(nt):                               # all pile draws come first
                if rec[_F_TAKE + 1 + i] == 1:
                    s[_R_PILE1] -= 1
                    g = s[_PILES + s[_R_PILE1]]
                else:
                    s[_R_PILE2] -= 1
                    g = s[_PILES_END - 1 - s[_R_PILE2]]
                s[base + _KNOWN + g] += 1
                s[base + _HAND_N] += 1
            self._draw(p, nd - nt)
            for i in range(nd):                               # then onto one pile, in order
                self._push(rec[_F_TO], rec[_F_DISCARD + 1 + i])
            nxt = self._next_merchant(p)
            if nxt == _NO_SEAT:
                self._start_load(False)
            else:
                s[_R_TURN] = nxt
        elif kind == _A_LOAD:
            at = self._at(p)
            n = rec[_F_CARDS]
            self._leave_hand(p, rec, _F_CARDS + 1, n)
            for i in range(n):
                s[at + _BAG + i] = rec[_F_CARDS + 1 + i]
            s[at + _BAG_N] = n
            s[at + _FLAGS] |= _LOADED
            self._start_load(True)
        elif kind == _A_DECLARE:
            at = self._at(p)
            s[at + _DECL_GOOD] = rec[_F_GOOD]
            s[at + _DECL_N] = rec[_F_COUNT]
            s[at + _FLAGS] |= _DECLARED
            nxt = self._next_merchant(p)
            if nxt == _NO_SEAT:
                s[_R_PHASE] = _INSPECT
                s[_R_TURN] = _NO_SEAT
            else:
                s[_R_TURN] = nxt
        elif kind == _A_PASS:
            self._let_through(rec, p)
        else:
            self._open_bag(rec, p, _NO_SEAT)

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

    def _draw(self, p, n):
        """``p`` draws ``n`` unseen cards. An empty draw pile is refilled first, once per need
        (1st edition: all but the top 5 cards of each discard pile become the draw pile)."""
        s = self.s
        at = self._at(p) + _HAND_N
        for _ in range(n):
            if not s[_R_DRAW]:
                n1 = s[_R_PILE1]
                if n1 > _PILE_START:
                    for i in range(n1 - _PILE_START):
                        s[_POOL + s[_PILES + i]] += 1
                    for i in range(_PILE_START):
                        s[_PILES + i] = s[_PILES + n1 - _PILE_START + i]
                    s[_R_PILE1] = _PILE_START
                    s[_R_DRAW] += n1 - _PILE_START
                n2 = s[_R_PILE2]
                if n2 > _PILE_START:
                    for i in range(n2 - _PILE_START):
                        s[_POOL + s[_PILES_END - 1 - i]] += 1
                    for i in range(_PILE_START):
                        s[_PILES_END - 1 - i] = s[_PILES_END - 1 - (n2 - _PILE_START + i)]
                    s[_R_PILE2] = _PILE_START
                    s[_R_DRAW] += n2 - _PILE_START
                s[_R_REFILLS] = (s[_R_REFILLS] + 1) & 255
                if not s[_R_DRAW]:
                    return
            s[_R_DRAW] -= 1
            s[at] += 1

    def _next_merchant(self, seat):
        """The next merchant clockwise after ``seat`` who is in this round (NO_SEAT past the
        Sheriff's right). ``seat`` NO_SEAT: the first one, who opens the market and the
        declarations: the Sheriff's left (deputies: the merchant they named)."""
        sheriff = self.s[_R_SHERIFF]
        return self._merchant_after(sheriff if seat == _NO_SEAT else seat, sheriff)

    def _merchant_after(self, seat, stop):
        """The first merchant in this round clockwise after ``seat``, ``stop`` excluded (NO_SEAT:
        none before it)."""
        s = self.s
        n = s[_R_SEATS]
        while True:
            seat = (seat + 1) % n
            if seat == stop:
                return _NO_SEAT
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & _SKIPPED:
                return seat

    def _start_load(self, loaded):
        """The load phase starts (merchants with an empty hand sit the round out) or, once a bag
        is ``loaded``, goes on; it ends when every merchant's bag is closed."""
        s = self.s
        if not loaded:
            s[_R_PHASE] = _LOAD
            s[_R_TURN] = _NO_SEAT
            for seat in range(s[_R_SEATS]):
                if self._is_merchant(seat) and not s[self._at(seat) + _HAND_N]:
                    s[self._at(seat) + _FLAGS] |= _SKIPPED | _DONE
        for seat in range(s[_R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & (_LOADED | _SKIPPED):
                return
        first = self._next_merchant(_NO_SEAT)
        if first == _NO_SEAT:
            self._end_round()
        else:
            s[_R_PHASE] = _DECLARE
            s[_R_TURN] = first

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
            to = self._at(sheriff) + _STAND
            for g in range(_KINDS):
                if rec[_F_BRIBE_STAND]:   # stand goods change hands
                    n = rec[_F_BRIBE_STAND + 2 + g]
                    s[at + _STAND + g] -= n
                    s[to + g] += n
                if rec[_F_BRIBE_BAG]:
                    for _ in range(rec[_F_BRIBE_BAG + 2 + g]):
                        if _take_from_bag(self, t, g):
                            s[to + g] += 1
        for i in range(s[at + _BAG_N]):
            s[at + _STAND + s[at + _BAG + i]] += 1
        self._resolved(t)

    def _open_bag(self, rec, sheriff, partner):
        """Open the bag: a lying merchant pays ``sheriff`` (a seat or the loot chest); a truthful
        one is paid by the inspector ``rec[1]`` (half, the odd coin included, when the deputy
        ``partner`` pays the other half)."""
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
            if partner != _NO_SEAT:
                self._pay(partner, t, owed // 2, None)
                owed -= owed // 2
            self._pay(rec[1], t, owed, rec)
        else:
            self._pay(t, sheriff, self._confiscated_penalty(t), rec)
        self._resolved(t)

    def _pay(self, debtor, creditor, owed, rec):
        """Gold first; the rest in goods from the debtor's stand (``pay_with`` of ``rec``, or the
        default order when ``rec`` is None or has none) until covered, no change given; what the
        stand cannot cover is forgiven."""
        s = self.s
        have = self.gold(debtor)
        paid = owed if have >= owed else have
        self._set_gold(debtor, have - paid)
        self._set_gold(creditor, self.gold(creditor) + paid)
        rest = owed - paid
        if rest <= 0:
            return
        stand = self._at(debtor) + _STAND   # goods go from stand to stand, one at a time
        to = self._at(creditor) + _STAND
        if rec is not None and rec[_F_PAY - 1]:
            for i in range(rec[_F_PAY]):
                g = rec[_F_PAY + 1 + i]
                s[stand + g] -= 1
                s[to + g] += 1
            return
        for j in range(_KINDS):
            g = _GOODS[_G_PAY_ORDER + j]
            while rest > 0 and s[stand + g]:
                s[stand + g] -= 1
                s[to + g] += 1
                rest -= _GOODS[_G_VALUE + g]

    def _resolved(self, t):
        s = self.s
        at = self._at(t)
        s[at + _BAG_N] = 0
        s[at + _FLAGS] |= _DONE
        for seat in range(s[_R_SEATS]):
            if self._is_merchant(seat) and not s[self._at(seat) + _FLAGS] & _DONE:
                return
        self._end_round()

    def _end_round(self):
        """Automatic end of round: game end, or merchants draw back to 6 and the Sheriff
        role passes left."""
        s = self.s
        n = s[_R_SEATS]
        s[_R_ROUND] += 1
        if s[_R_ROUND] >= s[_R_ROUNDS]:
            s[_R_PHASE] = _OVER
            s[_R_TURN] = _NO_SEAT
            return
        sheriff = s[_R_SHERIFF]
        self._draw_back_and_clear((sheriff + 1) % n)
        s[_R_SHERIFF] = (sheriff + 1) % n
        s[_R_PHASE] = _MARKET
        s[_R_TURN] = self._next_merchant(_NO_SEAT)

    def _draw_back_and_clear(self, first):
        """The round's merchants draw back to 6, clockwise from ``first``; then every seat's bag,
        declaration and flags are cleared for the next round."""
        s = self.s
        n = s[_R_SEATS]
        for i in range(n):
            seat = (first + i) % n
            if self._is_merchant(seat) and s[self._at(seat) + _HAND_N] < _HAND:
                self._draw(seat, _HAND - s[self._at(seat) + _HAND_N])
        for seat in range(n):
            at = self._at(seat)
            s[at + _FLAGS] = 0
            s[at + _BAG_N] = 0
            s[at + _DECL_GOOD] = _NO_SEAT
            s[at + _DECL_N] = 0

    # -- what may be seen ------------------------------------------------------------
    def valid_state(self, state):
        seats = state[_R_SEATS]
        return (_MIN_SEATS <= seats <= _MAX_SEATS and state[_R_PHASE] <= _OVER and state[_R_SHERIFF] < seats
                and state[_R_ROUND] <= state[_R_ROUNDS] and state[_R_PILE1] + state[_R_PILE2] <= _PILE_CAP)

    def public(self, out):
        """Fill ``out`` (PUBLIC_SIZE bytes): never a hand card, a closed bag or a face-down good."""
        s = self.s
        for i in range(_PUB_REGS):
            out[i] = s[i]
        for seat in range(_MAX_SEATS):
            o = _PUB_REGS + _PUB_SEAT * seat
            for i in range(_PUB_SEAT):
                out[o + i] = 0
            if seat < s[_R_SEATS]:
                _public_seat(self, out, o, self._at(seat))
        n1 = s[_R_PILE1]
        for i in range(_PILE_CAP):
            if i < n1:
                out[_PUB_PILES + i] = s[_PILES + i]
            elif i < n1 + s[_R_PILE2]:
                out[_PUB_PILES + i] = s[_PILES_END - 1 - (i - n1)]
            else:
                out[_PUB_PILES + i] = 0

    def summary(self):
        """The replay contract's fields; scoring is imported on demand, off the accept path."""
        from shared_rules.sheriff import score
        n = self.s[_R_SEATS]
        over = self.over()
        gold = [0] * n
        for i in range(n):
            gold[i] = self.gold(i)
        scores = score.scores(self)   # once: the winners are ranked on the same list
        return {
            "game": "sheriff", "players": n, "over": over,
            "winners": score.winners(self, scores) if over else [],
            "scores": scores, "gold": gold,
        }


def _count(rec, at, n, g):
    """How many times good ``g`` is in the list of ``n`` codes at ``rec[at]``."""
    c = 0
    for i in range(n):
        if rec[at + i] == g:
            c += 1
    return c


def _take_from_bag(game, t, g):
    """Remove one ``g`` from the bag if it is there (bag order kept); True if removed."""
    s = game.s
    at = game._at(t)
    n = s[at + _BAG_N]
    for i in range(n):
        if s[at + _BAG + i] == g:
            for j in range(i, n - 1):
                s[at + _BAG + j] = s[at + _BAG + j + 1]
            s[at + _BAG_N] = n - 1
            return True
    return False


def _public_seat(game, out, o, at):
    """One seat's public bytes at ``out[o]`` (``out`` zeroed there): gold, hand size, flags,
    declaration, legal goods per kind, how many face down."""
    s = game.s
    out[o] = s[at + _GOLD]
    out[o + 1] = s[at + _GOLD + 1]
    out[o + 2] = s[at + _HAND_N]
    out[o + 3] = s[at + _FLAGS]
    out[o + 4] = s[at + _DECL_GOOD]
    out[o + 5] = s[at + _DECL_N]
    for g in range(_KINDS):
        if g < _LEGAL_KINDS and not game._contraband(g):
            out[o + 6 + g] = s[at + _STAND + g]
        else:
            out[o + 10] += s[at + _STAND + g]


# Card codes in catalogue order (a tuple made from a list display: its codes of up to 10
# characters load as interned names, not as 32-byte string objects the way a constant tuple's
# strings do). Made after the class, like the vocabulary's class: the class's method table
# grows to its one 752-byte block before their objects split the heap.
CODES = tuple(["apple", "cheese", "bread", "chicken", "pepper", "mead", "silk", "crossbow", "green_apples",
               "golden_apples", "gouda", "bleu", "rye", "pumpernickel", "royal_rooster"])


class Vocabulary(actions.Vocabulary):
    """The log writes ``setup`` piles as a list of two lists, and a bribe's goods as lists of any
    length: ``encode`` and ``decode`` are ``actions_json``'s (the host, tests and the replay; a
    board accepting records never loads it).

    The base game's vocabulary (made without ``__init__``, below) makes its ``names`` and
    ``fields`` when first asked, by the first game's ``__init__``: its ~2 KB of small tuples
    then fill the holes the import leaves (the loader's code records, garbage once the module
    has run) instead of adding to the import's peak. The Merry Men's pass theirs."""

    def __getattr__(self, name):
        """``names`` and ``fields`` of the base game's vocabulary, made once; other names are the
        base's lookups. ``target`` and ``to`` are one field tuple each, shared by two actions."""
        if name != "names" and name != "fields":
            return actions.Vocabulary.__getattr__(self, name)
        target = actions.field("target", _U8)
        to = actions.field("to", _U8, optional=True)
        self.names = tuple(["setup", "market", "load", "declare", "pass", "inspect"])
        self.fields = (
            (actions.field("pile1", _LIST, CODES, cap=_LIST_CAP), actions.field("pile2", _LIST, CODES, cap=_LIST_CAP)),
            (actions.field("discard", _LIST, CODES, cap=_LIST_CAP), actions.field("take", _LIST, None, cap=_LIST_CAP), to),
            (actions.field("cards", _LIST, CODES, cap=_LIST_CAP, hidden=True),),
            (actions.field("good", _NAME, CODES), actions.field("count", _U8)),
            (target, actions.field("bribe", _OBJ, (
                actions.field("gold", _U16, optional=True), actions.field("stand", _LIST, None, optional=True, cap=_KINDS),
                actions.field("bag", _LIST, None, optional=True, cap=_KINDS)), optional=True)),
            (target, to, actions.field("order", _LIST, CODES, optional=True, cap=_LIST_CAP),
             actions.field("pay_with", _LIST, CODES, optional=True, cap=_PAY_CAP)),
        )
        return getattr(self, name)

    def encode(self, obj, rec):
        """The log's shapes (``actions_json``, loaded now), then the base's encoding."""
        from shared_rules.sheriff import actions_json
        return actions_json.encode(self, obj, rec)

    def decode(self, rec, public=False):
        """The base's decoding, then the log's shapes (``actions_json``, loaded now)."""
        from shared_rules.sheriff import actions_json
        return actions_json.decode(self, rec, public)


Sheriff.VOCAB = object.__new__(Vocabulary)   # names and fields: on first use (no __init__)
# The game's reason names (codes from the engine's FIRST_GAME_REASON 16) in one string, named
# only when printed (``engine.Game.reason``): one object instead of a tuple of 21 strings.
_REASONS = const(
    "not_in_deck "        # 16 this game's deck has no such good (bread at 3 players, royal: false)
    "no_such_card "       # 17 every copy of that good is already identified elsewhere
    "not_in_hand "        # 18 the hand is too small for those cards beside its known ones
    "bad_setup "          # 19 setup piles must hold exactly 5 cards each
    "not_a_merchant "     # 20 the Sheriff takes no part in market, load and declare
    "not_the_sheriff "    # 21 only the Sheriff passes or inspects
    "too_many_cards "     # 22 more than 5 cards set aside at the market
    "take_too_many "      # 23 more pile draws than cards set aside
    "bad_pile "           # 24 a pile number other than 1 or 2
    "pile_needed "        # 25 set-aside cards need a `to` pile
    "empty_pile "         # 26 taking from an empty discard pile
    "bag_size "           # 27 a bag holds 1 to 5 cards
    "already_loaded "     # 28 a closed bag cannot change
    "not_legal_good "     # 29 only a legal good may be declared
    "count_mismatch "     # 30 the declared count must be the bag's
    "bad_target "         # 31 the target is not a merchant with a bag this round
    "already_resolved "   # 32 that bag was already passed or opened
    "not_enough_gold "    # 33 a bribe of gold the merchant does not have
    "not_on_stand "       # 34 a bribe of stand goods the merchant does not have
    "bad_order "          # 35 `order` is not exactly the confiscated cards
    "bad_payment"         # 36 `pay_with` breaks the running-out-of-gold rule
)
Sheriff.REASONS = _REASONS  # type: ignore[assignment]  # one string, not the engine's tuple

GAME = Sheriff
