"""Skull: the referee for 3-12 seats, and the two-tribes-per-player variant.

Rules and decisions: ``docs/rules-skull.md``. The whole state is ``STATE_SIZE`` bytes: a few
registers and seven bytes per seat (discs in hand, the stack as a size plus the position of the
skull in it, how many of its discs are flipped, score, flags).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules import engine
from shared_rules.actions import Vocabulary, field, U8, NAME
from shared_rules.catalogue import SKULL_CODES
from shared_rules.engine import OK, NO_SEAT, WRONG_PHASE, NOT_YOUR_TURN, FIRST_GAME_REASON

DISCS = SKULL_CODES
FLOWER = const(0)
SKULL = const(1)

VOCAB = Vocabulary((
    ("place", (field("disc", NAME, DISCS, hidden=True),)),
    ("bid", (field("n", U8),)),
    ("pass", ()),
    ("flip", (field("target", U8), field("disc", NAME, DISCS, optional=True))),
    ("lose", (field("disc", NAME, DISCS, hidden=True),)),
    ("first", (field("target", U8),)),
))
A_PLACE = const(0)
A_BID = const(1)
A_PASS = const(2)
A_FLIP = const(3)
A_LOSE = const(4)
A_FIRST = const(5)
F_DISC = VOCAB.offset("place", "disc")
F_N = VOCAB.offset("bid", "n")
F_TARGET = VOCAB.offset("flip", "target")
F_FLIP_DISC = VOCAB.offset("flip", "disc")
F_FLIP_HAS_DISC = F_FLIP_DISC - 1

REASONS = (
    "eliminated_seat",   # 16 an eliminated seat may only name the next first player
    "no_such_disc",      # 17 the seat holds no such disc
    "already_placed",    # 18 preparation: one disc each
    "bid_out_of_range",  # 19 a bid must be 1..discs on the mats
    "bid_too_low",       # 20 a raise must be higher than the current bid
    "own_stack_first",   # 21 the challenger flips their own stack first
    "nothing_to_flip",   # 22 the target stack has no face-down disc left
    "disc_mismatch",     # 23 the disc named is not the one the referee recorded
    "bad_target",        # 24 the target seat is not in play
)
(ELIMINATED_SEAT, NO_SUCH_DISC, ALREADY_PLACED, BID_OUT_OF_RANGE, BID_TOO_LOW, OWN_STACK_FIRST,
 NOTHING_TO_FLIP, DISC_MISMATCH, BAD_TARGET) = range(FIRST_GAME_REASON, FIRST_GAME_REASON + 9)

# Phases: what the table is doing.
PREP = const(0)
ADD = const(1)
BIDDING = const(2)
FLIP = const(3)
LOSE = const(4)
CHOOSE = const(5)
OVER = const(6)
PHASES = ("prep", "add", "bidding", "flip", "lose", "choose_first", "over")

# Registers.
R_SEATS = const(0)
_R_PLAYERS = const(1)
R_FIRST = const(2)
R_PHASE = const(3)
R_TURN = const(4)
R_LEAD = const(5)
R_BID = const(6)
R_CHALLENGER = const(7)
R_FLOWERS = const(8)
R_SKULL_OWNER = const(9)
R_ROUND = const(10)
R_WINNER = const(11)
_SEAT_BASE = const(16)
SEAT_BYTES = const(7)
MAX_SEATS = const(12)
# Per-seat bytes.
H_FLOWERS = const(0)
H_SKULL = const(1)
STACK = const(2)
_SKULL_AT = const(3)
FLIPPED = const(4)
SCORE = const(5)
_FLAGS = const(6)
_ELIMINATED = const(1)
_PASSED = const(2)

# Public view: registers, then per seat stack size, flipped, discs in hand, score, flags.
PUB_REGS = const(9)
PUB_SEAT = const(5)


class Skull(engine.Game):
    NAME = "skull"
    GAME_ID = 1
    STATE_SIZE = _SEAT_BASE + SEAT_BYTES * MAX_SEATS
    PUBLIC_SIZE = PUB_REGS + PUB_SEAT * MAX_SEATS
    VOCAB = VOCAB
    REASONS = REASONS

    def __init__(self, seats=3, first=0, players=0):
        """``players`` > 0 selects the two-tribes variant (seat s belongs to s % players)."""
        engine.Game.__init__(self)
        s = self.s
        s[R_SEATS] = seats
        s[_R_PLAYERS] = players
        s[R_FIRST] = first
        s[R_WINNER] = NO_SEAT
        s[R_LEAD] = first
        for seat in range(seats):
            self._set(seat, H_FLOWERS, 3)
            self._set(seat, H_SKULL, 1)
            self._set(seat, _SKULL_AT, NO_SEAT)
        self._new_round(first)
        s[R_ROUND] = 0

    @classmethod
    def from_header(cls, header):
        engine.check_options(header, ("game", "players", "first", "tribes_per_player"))
        tribes = engine.int_option(header, "tribes_per_player", 1, 1, 2)
        if tribes == 2:
            players = engine.int_option(header, "players", 0, 2, 6)
            seats = 2 * players
        else:
            players = 0
            seats = engine.int_option(header, "players", 0, 3, MAX_SEATS)
        first = engine.int_option(header, "first", 0, 0, seats - 1)
        return cls(seats, first, players)

    # -- small accessors --------------------------------------------------------------
    def _get(self, seat, what):
        return self.s[_SEAT_BASE + SEAT_BYTES * seat + what]

    def _set(self, seat, what, v):
        self.s[_SEAT_BASE + SEAT_BYTES * seat + what] = v

    def _active(self, seat):
        return not self._get(seat, _FLAGS) & _ELIMINATED

    def _next(self, seat, skip_passed):
        """The next seat clockwise still in play (and still bidding, if asked)."""
        n = self.s[R_SEATS]
        for _ in range(n):
            seat = (seat + 1) % n
            f = self._get(seat, _FLAGS)
            if not f & _ELIMINATED and not (skip_passed and f & _PASSED):
                return seat
        return seat

    def _on_mats(self):
        t = 0
        for seat in range(self.s[R_SEATS]):
            t += self._get(seat, STACK)
        return t

    def _owned(self, seat, disc):
        """Discs of a kind the seat owns (hand plus stack)."""
        if disc == SKULL:
            return self._get(seat, H_SKULL) + (1 if self._get(seat, _SKULL_AT) != NO_SEAT else 0)
        return self._get(seat, H_FLOWERS) + self._get(seat, STACK) - (
            1 if self._get(seat, _SKULL_AT) != NO_SEAT else 0)

    def player(self, seat):
        p = self.s[_R_PLAYERS]
        return seat % p if p else seat

    def phase(self):
        return self.s[R_PHASE]

    def over(self):
        return self.s[R_PHASE] == OVER

    # -- checking ---------------------------------------------------------------------
    def check(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        phase = s[R_PHASE]
        if not self._active(p) and kind != A_FIRST:
            return ELIMINATED_SEAT
        if kind == A_PLACE:
            if phase == PREP:
                if self._get(p, STACK):
                    return ALREADY_PLACED
            elif phase != ADD:
                return WRONG_PHASE
            elif p != s[R_TURN]:
                return NOT_YOUR_TURN
            return OK if self._get(p, H_SKULL if rec[F_DISC] == SKULL else H_FLOWERS) else NO_SUCH_DISC
        if kind == A_BID:
            if phase != ADD and phase != BIDDING:
                return WRONG_PHASE
            if p != s[R_TURN]:
                return NOT_YOUR_TURN
            n = rec[F_N]
            if n < 1 or n > self._on_mats():
                return BID_OUT_OF_RANGE
            return BID_TOO_LOW if phase == BIDDING and n <= s[R_BID] else OK
        if kind == A_PASS:
            if phase != BIDDING:
                return WRONG_PHASE
            return OK if p == s[R_TURN] else NOT_YOUR_TURN
        if kind == A_FLIP:
            if phase != FLIP:
                return WRONG_PHASE
            if p != s[R_CHALLENGER]:
                return NOT_YOUR_TURN
            t = rec[F_TARGET]
            if t >= s[R_SEATS] or not self._active(t):
                return BAD_TARGET
            if t != p and self._get(p, FLIPPED) < self._get(p, STACK):
                return OWN_STACK_FIRST
            top = self._get(t, STACK) - 1 - self._get(t, FLIPPED)
            if top < 0:
                return NOTHING_TO_FLIP
            if rec[F_FLIP_HAS_DISC] and rec[F_FLIP_DISC] != (SKULL if top == self._get(t, _SKULL_AT) else FLOWER):
                return DISC_MISMATCH
            return OK
        if kind == A_LOSE:
            if phase != LOSE:
                return WRONG_PHASE
            if p != s[R_CHALLENGER]:
                return NOT_YOUR_TURN
            return OK if self._get(p, H_SKULL if rec[F_DISC] == SKULL else H_FLOWERS) else NO_SUCH_DISC
        # A_FIRST
        if phase != CHOOSE:
            return WRONG_PHASE
        if p != s[R_CHALLENGER]:
            return NOT_YOUR_TURN
        t = rec[F_TARGET]
        return OK if t < s[R_SEATS] and self._active(t) else BAD_TARGET

    # -- applying ---------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        if kind == A_PLACE:
            self._push(p, rec[F_DISC])
            if s[R_PHASE] == PREP:
                if self._all_placed():
                    s[R_PHASE] = ADD
                    s[R_TURN] = s[R_LEAD]
            else:
                s[R_TURN] = self._next(p, False)
        elif kind == A_BID:
            s[R_BID] = rec[F_N]
            s[R_CHALLENGER] = p
            if s[R_PHASE] == ADD:
                s[R_PHASE] = BIDDING
            if rec[F_N] == self._on_mats():
                s[R_PHASE] = FLIP
                s[R_TURN] = p
            else:
                s[R_TURN] = self._next(p, True)
        elif kind == A_PASS:
            self._set(p, _FLAGS, self._get(p, _FLAGS) | _PASSED)
            nxt = self._next(p, True)
            if nxt == s[R_CHALLENGER] and self._next(nxt, True) == nxt:
                s[R_PHASE] = FLIP
            s[R_TURN] = nxt
        elif kind == A_FLIP:
            self._flip(p, rec[F_TARGET])
        elif kind == A_LOSE:
            self._lose(p, rec[F_DISC])
        else:
            self._new_round(rec[F_TARGET])

    def _push(self, seat, disc):
        if disc == SKULL:
            self._set(seat, H_SKULL, 0)
            self._set(seat, _SKULL_AT, self._get(seat, STACK))
        else:
            self._set(seat, H_FLOWERS, self._get(seat, H_FLOWERS) - 1)
        self._set(seat, STACK, self._get(seat, STACK) + 1)

    def _all_placed(self):
        for seat in range(self.s[R_SEATS]):
            if self._active(seat) and not self._get(seat, STACK):
                return False
        return True

    def _flip(self, c, t):
        s = self.s
        top = self._get(t, STACK) - 1 - self._get(t, FLIPPED)
        self._set(t, FLIPPED, self._get(t, FLIPPED) + 1)
        if top == self._get(t, _SKULL_AT):
            s[R_SKULL_OWNER] = t
            s[R_PHASE] = LOSE
            self._return_discs()
            return
        s[R_FLOWERS] += 1
        if s[R_FLOWERS] < s[R_BID]:
            return
        score = self._get(c, SCORE) + 1
        self._set(c, SCORE, score)
        if score == 2:
            self._end(c)
        else:
            self._new_round(c)

    def _lose(self, c, disc):
        s = self.s
        if disc == SKULL:
            self._set(c, H_SKULL, 0)
        else:
            self._set(c, H_FLOWERS, self._get(c, H_FLOWERS) - 1)
        if not self._get(c, H_SKULL) and not self._get(c, H_FLOWERS):
            self._set(c, _FLAGS, self._get(c, _FLAGS) | _ELIMINATED)
            last = self._last_standing()
            if last != NO_SEAT:
                self._end(last)
            elif s[R_SKULL_OWNER] != c:
                self._new_round(s[R_SKULL_OWNER])
            else:
                s[R_PHASE] = CHOOSE
        else:
            self._new_round(c)

    def _last_standing(self):
        """The one seat still in play when all others' players are out, else NO_SEAT."""
        found = NO_SEAT
        for seat in range(self.s[R_SEATS]):
            if self._active(seat):
                if found != NO_SEAT and self.player(found) != self.player(seat):
                    return NO_SEAT
                found = seat
        return found

    def _end(self, seat):
        self.s[R_WINNER] = seat
        self.s[R_PHASE] = OVER

    def _return_discs(self):
        for seat in range(self.s[R_SEATS]):
            self._set(seat, H_SKULL, self._owned(seat, SKULL))
            self._set(seat, H_FLOWERS, self._owned(seat, FLOWER))
            self._set(seat, STACK, 0)
            self._set(seat, _SKULL_AT, NO_SEAT)
            self._set(seat, FLIPPED, 0)
            self._set(seat, _FLAGS, self._get(seat, _FLAGS) & _ELIMINATED)

    def _new_round(self, lead):
        s = self.s
        self._return_discs()
        s[R_PHASE] = PREP
        s[R_LEAD] = lead
        s[R_TURN] = lead
        s[R_BID] = 0
        s[R_CHALLENGER] = NO_SEAT
        s[R_FLOWERS] = 0
        s[R_SKULL_OWNER] = NO_SEAT
        s[R_ROUND] = (s[R_ROUND] + 1) & 255

    # -- what may be seen ---------------------------------------------------------------
    def valid_state(self, state):
        seats = state[R_SEATS]
        return 3 <= seats <= MAX_SEATS and state[R_PHASE] <= OVER and state[R_TURN] < seats

    def public(self, out):
        """Fill ``out`` (PUBLIC_SIZE bytes) with what every player may see."""
        s = self.s
        out[0] = s[R_SEATS]
        out[1] = s[_R_PLAYERS]
        out[2] = s[R_PHASE]
        out[3] = s[R_TURN]
        out[4] = s[R_LEAD]
        out[5] = s[R_BID]
        out[6] = s[R_CHALLENGER]
        out[7] = s[R_SKULL_OWNER]
        out[8] = s[R_WINNER]
        for seat in range(MAX_SEATS):
            at = PUB_REGS + PUB_SEAT * seat
            if seat < s[R_SEATS]:
                out[at] = self._get(seat, STACK)
                out[at + 1] = self._get(seat, FLIPPED)
                out[at + 2] = self._get(seat, H_FLOWERS) + self._get(seat, H_SKULL)
                out[at + 3] = self._get(seat, SCORE)
                out[at + 4] = self._get(seat, _FLAGS)
            else:
                for i in range(PUB_SEAT):
                    out[at + i] = 0

    @staticmethod
    def describe(view):
        """Public view bytes -> dict for the scoreboard (no hidden disc anywhere)."""
        seats = []
        for seat in range(view[0]):
            at = PUB_REGS + PUB_SEAT * seat
            seats.append({
                "stack": view[at], "flipped": view[at + 1], "hand": view[at + 2],
                "score": view[at + 3], "eliminated": bool(view[at + 4] & _ELIMINATED),
                "passed": bool(view[at + 4] & _PASSED),
            })
        return {
            "game": "skull", "seats": seats, "players": view[1], "phase": PHASES[view[2]],
            "turn": view[3], "lead": view[4], "bid": view[5], "challenger": _seat(view[6]),
            "skull_owner": _seat(view[7]), "winner": _seat(view[8]),
        }

    def summary(self):
        s = self.s
        n = s[R_SEATS]
        players = s[_R_PLAYERS]
        winners = []
        if s[R_PHASE] == OVER:
            winners.append(self.player(s[R_WINNER]))
        return {
            "game": "skull", "players": players if players else n, "over": s[R_PHASE] == OVER,
            "winners": winners, "scores": [self._get(i, SCORE) for i in range(n)],
            "eliminated": [i for i in range(n) if not self._active(i)],
        }

    def referee(self):
        """Everything, hidden discs included (debug view, never mirrored by default)."""
        d = self.describe(self._public_bytes())
        for seat in range(self.s[R_SEATS]):
            d["seats"][seat]["hand_flowers"] = self._get(seat, H_FLOWERS)
            d["seats"][seat]["hand_skull"] = self._get(seat, H_SKULL)
            d["seats"][seat]["skull_at"] = _seat(self._get(seat, _SKULL_AT))
        return d

    def _public_bytes(self):
        view = bytearray(self.PUBLIC_SIZE)
        self.public(view)
        return view


def _seat(v):
    return None if v == NO_SEAT else v


GAME = Skull
