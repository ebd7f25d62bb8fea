"""Skull: the referee for 3-12 seats, and the two-tribes-per-player variant.

Rules and decisions: ``docs/rules-skull.md``. The whole state is ``STATE_SIZE`` bytes: a few
registers and seven bytes per seat (discs in hand, the stack as a size plus the position of the
skull in it, how many of its discs are flipped, score, flags).

Every register, phase, action kind, field offset and reason is a private literal ``const()``:
MicroPython inlines them and keeps no name for them (docs/performance.md). Tests and host tools
read them by name from the generated ``skull_layout.py``; ``tests/test_rules_literals.py`` checks
the literals against what they stand for (the vocabulary's offsets, the engine's codes). The
scoreboard's views (``describe``, ``referee``) live in ``skull_view.py``, never loaded on a board
(the host finds them by the game's name: ``host/screen/views.py``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules.core import actions
from shared_rules.core import engine

# The engine's codes this module uses.
_OK = const(0)
_WRONG_PHASE = const(5)
_NOT_YOUR_TURN = const(6)
_NO_SEAT = const(255)

# Discs (index in SKULL_CODES), action kinds (index in the vocabulary) and field offsets.
_FLOWER = const(0)
_SKULL = const(1)
_A_PLACE = const(0)
_A_BID = const(1)
_A_PASS = const(2)
_A_FLIP = const(3)
_A_LOSE = const(4)
_A_FIRST = const(5)
_F_DISC = const(2)           # place, lose
_F_N = const(2)              # bid
_F_TARGET = const(2)         # flip, first
_F_FLIP_HAS_DISC = const(3)  # flip: whether the optional disc is named
_F_FLIP_DISC = const(4)

# Reasons (codes from the engine's FIRST_GAME_REASON, in the order of REASONS).
_ELIMINATED_SEAT = const(16)
_NO_SUCH_DISC = const(17)
_ALREADY_PLACED = const(18)
_BID_OUT_OF_RANGE = const(19)
_BID_TOO_LOW = const(20)
_OWN_STACK_FIRST = const(21)
_NOTHING_TO_FLIP = const(22)
_DISC_MISMATCH = const(23)
_BAD_TARGET = const(24)

# Phases: what the table is doing (names in skull_view.PHASES).
_PREP = const(0)
_ADD = const(1)
_BIDDING = const(2)
_FLIP = const(3)
_LOSE = const(4)
_CHOOSE = const(5)
_OVER = const(6)

# Registers.
_R_SEATS = const(0)
_R_PLAYERS = const(1)
_R_FIRST = const(2)
_R_PHASE = const(3)
_R_TURN = const(4)
_R_LEAD = const(5)
_R_BID = const(6)
_R_CHALLENGER = const(7)
_R_FLOWERS = const(8)
_R_SKULL_OWNER = const(9)
_R_ROUND = const(10)
_R_WINNER = const(11)
_SEAT_BASE = const(16)
_SEAT_BYTES = const(7)
_MAX_SEATS = const(12)
# Per-seat bytes, at _SEAT_BASE + _SEAT_BYTES * seat.
_H_FLOWERS = const(0)
_H_SKULL = const(1)
_STACK = const(2)
_SKULL_AT = const(3)
_FLIPPED = const(4)
_SCORE = const(5)
_FLAGS = const(6)
_ELIMINATED = const(1)
_PASSED = const(2)

# Public view: registers, then per seat stack size, flipped, discs in hand, score, flags.
_PUB_REGS = const(9)
_PUB_SEAT = const(5)

# The disc names: the catalogue's SKULL_CODES as a literal (a Skull replay then never loads the
# catalogue package; tests/test_rules_literals.py checks they are equal).
_CODES = const(("flower", "skull"))
# Fields two actions share, one tuple each.
_DISC = (actions.field("disc", actions.NAME, _CODES, hidden=True),)   # place, lose
_TARGET = (actions.field("target", actions.U8),)                     # flip, first


def on_mats(s):
    """Discs on all the mats of the state ``s`` (the highest bid; ``firmware.mat_skull`` asks
    it for the largest number a player may tap)."""
    t = 0
    for seat in range(s[_R_SEATS]):
        t += s[_SEAT_BASE + _SEAT_BYTES * seat + _STACK]
    return t


def _next(s, seat, skip):
    """The next seat clockwise whose flags have none of the ``skip`` bits (eliminated, and
    passed too while bidding)."""
    n = s[_R_SEATS]
    for _ in range(n):
        seat = (seat + 1) % n
        if not s[_SEAT_BASE + _SEAT_BYTES * seat + _FLAGS] & skip:
            return seat
    return seat


def _new_round(s, lead):
    """Every disc on the mats back to its owner's hand, passes forgotten; then, unless ``lead``
    is ``_NO_SEAT`` (a skull was flipped: the challenger loses a disc first), a new round that
    ``lead`` starts."""
    for seat in range(s[_R_SEATS]):
        o = _SEAT_BASE + _SEAT_BYTES * seat
        if s[o + _SKULL_AT] != _NO_SEAT:
            s[o + _H_SKULL] += 1
            s[o + _STACK] -= 1
        s[o + _H_FLOWERS] += s[o + _STACK]
        s[o + _STACK] = 0
        s[o + _SKULL_AT] = _NO_SEAT
        s[o + _FLIPPED] = 0
        s[o + _FLAGS] &= _ELIMINATED
    if lead == _NO_SEAT:
        return
    s[_R_PHASE] = _PREP
    s[_R_LEAD] = lead
    s[_R_TURN] = lead
    s[_R_BID] = 0
    s[_R_CHALLENGER] = _NO_SEAT
    s[_R_FLOWERS] = 0
    s[_R_SKULL_OWNER] = _NO_SEAT
    s[_R_ROUND] = (s[_R_ROUND] + 1) & 255


# The class keeps what the engine and the host look up (15 entries: one hash table size step
# below 23); the helpers above are functions of the state bytes.
class Skull(engine.Game):
    NAME = "skull"
    GAME_ID = 1
    STATE_SIZE = _SEAT_BASE + _SEAT_BYTES * _MAX_SEATS
    PUBLIC_SIZE = _PUB_REGS + _PUB_SEAT * _MAX_SEATS

    @classmethod
    def from_header(cls, header):
        """A new game: 3-12 seats, or ``tribes_per_player`` 2 for the two-tribes variant (seat s
        belongs to player s % players)."""
        engine.check_options(header, ["game", "players", "first", "tribes_per_player"])  # a list: no tuple held
        tribes = engine.int_option(header, "tribes_per_player", 1, 1, 2)
        if tribes == 2:
            players = engine.int_option(header, "players", 0, 2, 6)
            seats = 2 * players
        else:
            players = 0
            seats = engine.int_option(header, "players", 0, 3, _MAX_SEATS)
        first = engine.int_option(header, "first", 0, 0, seats - 1)
        g = cls()
        s = g.s
        s[_R_SEATS] = seats
        s[_R_PLAYERS] = players
        s[_R_FIRST] = first
        s[_R_WINNER] = _NO_SEAT
        for seat in range(seats):
            o = _SEAT_BASE + _SEAT_BYTES * seat
            s[o + _H_FLOWERS] = 3
            s[o + _H_SKULL] = 1
            s[o + _SKULL_AT] = _NO_SEAT
        _new_round(s, first)
        s[_R_ROUND] = 0
        return g

    def over(self):
        return self.s[_R_PHASE] == _OVER

    # -- checking ---------------------------------------------------------------------
    def check(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        o = _SEAT_BASE + _SEAT_BYTES * p
        phase = s[_R_PHASE]
        if s[o + _FLAGS] & _ELIMINATED and kind != _A_FIRST:
            return _ELIMINATED_SEAT
        if kind == _A_BID:
            if phase != _ADD and phase != _BIDDING:
                return _WRONG_PHASE
            if p != s[_R_TURN]:
                return _NOT_YOUR_TURN
            n = rec[_F_N]
            if n < 1 or n > on_mats(s):
                return _BID_OUT_OF_RANGE
            return _BID_TOO_LOW if phase == _BIDDING and n <= s[_R_BID] else _OK
        if kind == _A_PASS:
            if phase != _BIDDING:
                return _WRONG_PHASE
            return _OK if p == s[_R_TURN] else _NOT_YOUR_TURN
        if kind == _A_FLIP or kind == _A_FIRST:   # the challenger names a seat in play
            if phase != (_FLIP if kind == _A_FLIP else _CHOOSE):
                return _WRONG_PHASE
            if p != s[_R_CHALLENGER]:
                return _NOT_YOUR_TURN
            t = rec[_F_TARGET]
            if t >= s[_R_SEATS] or s[_SEAT_BASE + _SEAT_BYTES * t + _FLAGS] & _ELIMINATED:
                return _BAD_TARGET
            if kind == _A_FIRST:
                return _OK
            if t != p and s[o + _FLIPPED] < s[o + _STACK]:
                return _OWN_STACK_FIRST
            q = _SEAT_BASE + _SEAT_BYTES * t
            top = s[q + _STACK] - 1 - s[q + _FLIPPED]
            if top < 0:
                return _NOTHING_TO_FLIP
            if rec[_F_FLIP_HAS_DISC] and rec[_F_FLIP_DISC] != (_SKULL if top == s[q + _SKULL_AT] else _FLOWER):
                return _DISC_MISMATCH
            return _OK
        if kind == _A_LOSE:
            if phase != _LOSE:
                return _WRONG_PHASE
            if p != s[_R_CHALLENGER]:
                return _NOT_YOUR_TURN
        elif phase == _PREP:   # place
            if s[o + _STACK]:
                return _ALREADY_PLACED
        elif phase != _ADD:
            return _WRONG_PHASE
        elif p != s[_R_TURN]:
            return _NOT_YOUR_TURN
        # place or lose: the seat must hold the disc it names
        return _OK if s[o + (_H_SKULL if rec[_F_DISC] == _SKULL else _H_FLOWERS)] else _NO_SUCH_DISC

    # -- applying ---------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        o = _SEAT_BASE + _SEAT_BYTES * p
        if kind == _A_PLACE:
            if rec[_F_DISC] == _SKULL:
                s[o + _H_SKULL] = 0
                s[o + _SKULL_AT] = s[o + _STACK]
            else:
                s[o + _H_FLOWERS] -= 1
            s[o + _STACK] += 1
            if s[_R_PHASE] != _PREP:
                s[_R_TURN] = _next(s, p, _ELIMINATED)
                return
            for seat in range(s[_R_SEATS]):   # preparation ends when every seat in play placed
                q = _SEAT_BASE + _SEAT_BYTES * seat
                if not s[q + _FLAGS] & _ELIMINATED and not s[q + _STACK]:
                    return
            s[_R_PHASE] = _ADD
            s[_R_TURN] = s[_R_LEAD]
        elif kind == _A_BID:
            s[_R_BID] = rec[_F_N]
            s[_R_CHALLENGER] = p
            if s[_R_PHASE] == _ADD:
                s[_R_PHASE] = _BIDDING
            if rec[_F_N] == on_mats(s):
                s[_R_PHASE] = _FLIP
                s[_R_TURN] = p
            else:
                s[_R_TURN] = _next(s, p, _ELIMINATED | _PASSED)
        elif kind == _A_PASS:
            s[o + _FLAGS] |= _PASSED
            nxt = _next(s, p, _ELIMINATED | _PASSED)
            if nxt == s[_R_CHALLENGER] and _next(s, nxt, _ELIMINATED | _PASSED) == nxt:
                s[_R_PHASE] = _FLIP
            s[_R_TURN] = nxt
        elif kind == _A_FLIP:
            t = rec[_F_TARGET]
            q = _SEAT_BASE + _SEAT_BYTES * t
            top = s[q + _STACK] - 1 - s[q + _FLIPPED]
            s[q + _FLIPPED] += 1
            if top == s[q + _SKULL_AT]:
                s[_R_SKULL_OWNER] = t
                s[_R_PHASE] = _LOSE
                _new_round(s, _NO_SEAT)
                return
            s[_R_FLOWERS] += 1
            if s[_R_FLOWERS] < s[_R_BID]:
                return
            s[o + _SCORE] += 1
            if s[o + _SCORE] == 2:
                s[_R_WINNER] = p
                s[_R_PHASE] = _OVER
            else:
                _new_round(s, p)
        elif kind == _A_LOSE:
            if rec[_F_DISC] == _SKULL:
                s[o + _H_SKULL] = 0
            else:
                s[o + _H_FLOWERS] -= 1
            if s[o + _H_SKULL] or s[o + _H_FLOWERS]:
                _new_round(s, p)
                return
            s[o + _FLAGS] |= _ELIMINATED
            # The last seat in play wins, or the last player's seats in the two-tribes variant.
            players = s[_R_PLAYERS]
            last = _NO_SEAT
            for seat in range(s[_R_SEATS]):
                if not s[_SEAT_BASE + _SEAT_BYTES * seat + _FLAGS] & _ELIMINATED:
                    if last != _NO_SEAT and (not players or last % players != seat % players):
                        last = _NO_SEAT
                        break
                    last = seat
            if last != _NO_SEAT:
                s[_R_WINNER] = last
                s[_R_PHASE] = _OVER
            elif s[_R_SKULL_OWNER] != p:
                _new_round(s, s[_R_SKULL_OWNER])
            else:
                s[_R_PHASE] = _CHOOSE
        else:
            _new_round(s, rec[_F_TARGET])

    # -- what may be seen ---------------------------------------------------------------
    def valid_state(self, state):
        seats = state[_R_SEATS]
        return 3 <= seats <= _MAX_SEATS and state[_R_PHASE] <= _OVER and state[_R_TURN] < seats

    def public(self, out):
        """Fill ``out`` (PUBLIC_SIZE bytes) with what every player may see."""
        s = self.s
        out[0] = s[_R_SEATS]
        out[1] = s[_R_PLAYERS]
        out[2] = s[_R_PHASE]
        out[3] = s[_R_TURN]
        out[4] = s[_R_LEAD]
        out[5] = s[_R_BID]
        out[6] = s[_R_CHALLENGER]
        out[7] = s[_R_SKULL_OWNER]
        out[8] = s[_R_WINNER]
        for seat in range(_MAX_SEATS):
            at = _PUB_REGS + _PUB_SEAT * seat
            o = _SEAT_BASE + _SEAT_BYTES * seat
            if seat < s[_R_SEATS]:
                out[at] = s[o + _STACK]
                out[at + 1] = s[o + _FLIPPED]
                out[at + 2] = s[o + _H_FLOWERS] + s[o + _H_SKULL]
                out[at + 3] = s[o + _SCORE]
                out[at + 4] = s[o + _FLAGS]
            else:
                for i in range(_PUB_SEAT):
                    out[at + i] = 0

    def summary(self):
        s = self.s
        n = s[_R_SEATS]
        players = s[_R_PLAYERS]
        over = s[_R_PHASE] == _OVER
        winner = s[_R_WINNER]
        scores = []
        eliminated = []
        for i in range(n):  # a loop, not comprehensions: each of those is a function held from import
            o = _SEAT_BASE + _SEAT_BYTES * i
            scores.append(s[o + _SCORE])
            if s[o + _FLAGS] & _ELIMINATED:
                eliminated.append(i)
        return {
            "game": "skull", "players": players if players else n, "over": over,
            "winners": [winner % players if players else winner] if over else [],
            "scores": scores,
            "eliminated": eliminated,
        }

    # The vocabulary and reason names last: their many small blocks fill the holes that the
    # class table's growth (12 -> 17 slots, one block) leaves, instead of the growth finding none.
    # The action names as one constant tuple and the fields as a tuple of field tuples (not
    # (name, fields) pairs: the vocabulary keeps these two as they are, nothing to split and copy).
    VOCAB = actions.Vocabulary(("place", "bid", "pass", "flip", "lose", "first"), (
        _DISC,
        (actions.field("n", actions.U8),),
        (),
        (_TARGET[0], actions.field("disc", actions.NAME, _CODES, optional=True)),
        _DISC,
        _TARGET,
    ))
    # The reason names in one string (one object, not a tuple of strings; ``engine.Game.reason``
    # names a code from it).
    REASONS = (
        "eliminated_seat "   # 16 an eliminated seat may only name the next first player
        "no_such_disc "      # 17 the seat holds no such disc
        "already_placed "    # 18 preparation: one disc each
        "bid_out_of_range "  # 19 a bid must be 1..discs on the mats
        "bid_too_low "       # 20 a raise must be higher than the current bid
        "own_stack_first "   # 21 the challenger flips their own stack first
        "nothing_to_flip "   # 22 the target stack has no face-down disc left
        "disc_mismatch "     # 23 the disc named is not the one the referee recorded
        "bad_target"         # 24 the target seat is not in play
    )

GAME = Skull
