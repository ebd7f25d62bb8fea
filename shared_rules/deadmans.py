"""Dead Man's Draw: the referee for 2-4 players (one deck) and 5-8 players (two decks).

Rules and every decision the rules leave open: ``docs/rules-deadmans.md``. The whole state is
``STATE_SIZE`` bytes: registers, the play area in placing order, a trait and a Davy Jones target
per seat, and one location byte per physical card (draw pile, discard pile, play area, or the
bank of a seat). Copies of a code are interchangeable, so with two decks the two location bytes
of a code are kept sorted: equal situations give equal bytes (and digests). The referee does not
know the order of the draw pile, only the cards an Oracle saw on top of it (the peek queue).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules import engine
from shared_rules.actions import Vocabulary, field, U8, NAME, LIST
from shared_rules.catalogue import DMD_CODES, DMD_TRAITS, DMD_VALUES, dmd_value
from shared_rules.engine import OK, WRONG_PHASE, NOT_YOUR_TURN, FIRST_GAME_REASON

CODES = DMD_CODES
TRAITS = DMD_TRAITS
NCODES = const(60)
SUITS = const(10)
_ANCHOR = const(0)
_CANNON = const(1)
_CHEST = const(2)
_HOOK = const(3)
KEY = const(4)
KRAKEN = const(5)
_MAP = const(6)
MERMAID = const(7)
_ORACLE = const(8)
_SWORD = const(9)
_BEASTMASTER = const(0)
_CAPTAINS_HOOK = const(1)
_CASANOVA = const(2)
DAVY_JONES = const(3)
_FISHERMAN = const(4)
GOLDEN_SCALES = const(5)
MISER = const(6)
NAVIGATOR = const(7)
_MASTER_GUNNER = const(8)
_MISFIRE = const(9)
MYSTIC = const(10)
PARRY = const(11)
PLUNDERER = const(12)
_SAFE_HARBOR = const(13)
_SCAVENGER = const(14)
_SWORDSMAN = const(15)
_TREASURE_HUNTER = const(16)
NONE = const(255)
MAX_SEATS = const(8)
MAX_BONUS = const(30)  # ten cards collected, tripled by Treasure Hunter


class _Vocabulary(Vocabulary):
    """The contract writes a one-card Oracle ``peek`` as a card code, Mystic's as a list."""

    def encode(self, obj, rec):
        if isinstance(obj, dict) and obj.get("a") == "oracle" and isinstance(obj.get("peek"), str):
            obj = dict(obj)
            obj["peek"] = [obj["peek"]]
        return Vocabulary.encode(self, obj, rec)

    def decode(self, rec, public=False):
        obj = Vocabulary.decode(self, rec, public)
        peek = obj.get("peek")
        if isinstance(peek, list) and len(peek) == 1:
            obj["peek"] = peek[0]
        return obj


VOCAB = _Vocabulary((
    ("trait", (field("trait", NAME, TRAITS), field("target", U8, optional=True))),
    ("draw", (field("card", NAME, CODES),)),
    ("collect", ()),
    ("hook", (field("card", NAME, CODES),)),
    ("cannon", (field("target", U8), field("card", NAME, CODES))),
    ("sword", (field("target", U8), field("card", NAME, CODES))),
    ("map", (field("reveal", LIST, CODES, optional=True, cap=3), field("pick", NAME, CODES))),
    ("oracle", (field("peek", LIST, CODES, cap=3, hidden=True),)),
    ("bonus", (field("cards", LIST, CODES, cap=MAX_BONUS), field("target", U8, optional=True))),
))
A_TRAIT = const(0)
A_DRAW = const(1)
A_COLLECT = const(2)
A_HOOK = const(3)
A_CANNON = const(4)
A_SWORD = const(5)
A_MAP = const(6)
A_ORACLE = const(7)
A_BONUS = const(8)
F_TRAIT = VOCAB.offset("trait", "trait")
F_TRAIT_TARGET = VOCAB.offset("trait", "target")
F_CARD = VOCAB.offset("draw", "card")  # the same offset for hook
F_TARGET = VOCAB.offset("cannon", "target")  # the same offsets for sword
F_TARGET_CARD = VOCAB.offset("cannon", "card")
F_REVEAL = VOCAB.offset("map", "reveal")
F_PICK = VOCAB.offset("map", "pick")
F_PEEK = VOCAB.offset("oracle", "peek")
F_CARDS = VOCAB.offset("bonus", "cards")
F_BONUS_TARGET = VOCAB.offset("bonus", "target")

REASONS = (
    "choice_pending",       # 16 an ability choice must be logged first
    "wrong_choice",         # 17 no such ability choice is pending
    "must_draw",            # 18 a turn starts with a draw
    "kraken_demands",       # 19 the Kraken still demands cards
    "draw_pile_empty",      # 20 nothing left to draw
    "not_in_draw_pile",     # 21 that card is not (any longer) in the draw pile
    "not_peeked_card",      # 22 an Oracle saw another card on top of the draw pile
    "not_in_bank",          # 23 the bank holds no such card
    "not_top_card",         # 24 the card is not on top of its suit stack
    "bad_target",           # 25 not a seat this action may name
    "misfire_own_bank",     # 26 Misfire: the Cannon must hit the placer's own bank
    "suit_in_own_bank",     # 27 the Sword may not steal a suit the player banks
    "parry_forces_kraken",  # 28 Parry: the Sword must steal a Kraken from the Parry bank
    "reveal_missing",       # 29 a Map shows its revealed cards
    "reveal_not_wanted",    # 30 Navigator picks from the whole discard pile, nothing revealed
    "wrong_reveal_count",   # 31 a Map reveals min(3, discard pile) cards
    "not_in_discard",       # 32 the discard pile holds no such card
    "pick_not_revealed",    # 33 the Map pick must be one of the revealed cards
    "wrong_peek_count",     # 34 an Oracle sees min(1 or 3, draw pile) cards
    "wrong_bonus_count",    # 35 the bonus is not the number of cards due
    "trait_chosen",         # 36 one trait per seat
    "trait_taken",          # 37 the trait is already held (once per deck)
    "target_required",      # 38 this choice names a seat
    "empty_bank",           # 39 Plunderer: the named bank holds nothing
)
(CHOICE_PENDING, WRONG_CHOICE, MUST_DRAW, KRAKEN_DEMANDS, DRAW_PILE_EMPTY, NOT_IN_DRAW_PILE,
 NOT_PEEKED_CARD, NOT_IN_BANK, NOT_TOP_CARD, BAD_TARGET, MISFIRE_OWN_BANK, SUIT_IN_OWN_BANK,
 PARRY_FORCES_KRAKEN, REVEAL_MISSING, REVEAL_NOT_WANTED, WRONG_REVEAL_COUNT, NOT_IN_DISCARD,
 PICK_NOT_REVEALED, WRONG_PEEK_COUNT, WRONG_BONUS_COUNT, TRAIT_CHOSEN, TRAIT_TAKEN, TARGET_REQUIRED,
 EMPTY_BANK) = range(FIRST_GAME_REASON, FIRST_GAME_REASON + 24)

SETUP = const(0)
PLAYING = const(1)
OVER = const(2)
PHASES = ("setup", "play", "over")
# The pending choice: the action kind that must come next (NO_CHOICE: draw or collect).
NO_CHOICE = const(0)
CHOICES = ("", "", "", "hook", "cannon", "sword", "map", "oracle", "bonus")

# Card locations.
DRAW = const(0)
DISCARD = const(1)
PLAY = const(2)
BANK = const(8)  # + seat

# Registers. R_PENDING..R_PLAY_N describe the running turn and are cleared when it ends.
R_SEATS = const(0)
R_DECKS = const(1)
R_FIRST = const(2)
R_PHASE = const(3)
R_TURN = const(4)
R_DRAW_N = const(5)
R_DISCARD_N = const(6)
R_PEEK_N = const(7)
R_PEEK = const(8)  # 3 card codes: the known top of the draw pile, top first
R_PENDING = const(11)
R_STARTED = const(12)
R_KRAKEN = const(13)
_R_HOOKS = const(14)
_R_SAFE_NEXT = const(15)
R_BONUS = const(16)
_R_SAFE = const(17)  # 2 bytes: bit i = play position i goes to the bank on a bust
R_PLAY_N = const(19)
R_PLAY = const(20)  # 10 card codes in placing order
R_TRAIT = const(30)  # per seat: trait or NONE
R_DJ = const(38)  # per seat: whose busts Davy Jones's Locker collects, or NONE
LOC = const(46)  # per physical card: copy k of code c at LOC + c + 60 * k
STATE_SIZE = LOC + 2 * NCODES


# -- reading a state (or a public view, which has the same layout) --------------------------
def count(b, code, loc):
    """Copies of a card code at a location."""
    n = 0
    for k in range(b[R_DECKS]):
        if b[LOC + code + NCODES * k] == loc:
            n += 1
    return n


def top(b, seat, suit):
    """The top (highest) card of a seat's suit stack, or NONE."""
    for v in range(DMD_VALUES - 1, -1, -1):
        if count(b, suit * DMD_VALUES + v, BANK + seat):
            return suit * DMD_VALUES + v
    return NONE


def bank_size(b, seat):
    n = 0
    for i in range(NCODES * b[R_DECKS]):
        if b[LOC + i] == BANK + seat:
            n += 1
    return n


def score(b, seat):
    """Sum of the top card of every suit stack (Golden Scales: a scoring Mermaid is worth 5 more)."""
    total = 0
    for suit in range(SUITS):
        t = top(b, seat, suit)
        if t != NONE:
            total += dmd_value(t)
            if suit == MERMAID and b[R_TRAIT + seat] == GOLDEN_SCALES:
                total += 5
    return total


def holders(b, trait):
    n = 0
    for seat in range(b[R_SEATS]):
        if b[R_TRAIT + seat] == trait:
            n += 1
    return n


def opponent_has(b, seat, trait):
    for o in range(b[R_SEATS]):
        if o != seat and b[R_TRAIT + o] == trait:
            return True
    return False


def misfired(b, seat):
    """Misfire: an opponent's trait turns this seat's Cannon on its own bank."""
    return opponent_has(b, seat, _MISFIRE)


def parried(b, seat):
    """Parry binds this seat's Sword unless the seat already banks a Kraken."""
    return opponent_has(b, seat, PARRY) and top(b, seat, KRAKEN) == NONE


def may_steal(b, seat, suit):
    """A Sword may take a suit the seat does not bank (any suit with Swordsman)."""
    return b[R_TRAIT + seat] == _SWORDSMAN or top(b, seat, suit) == NONE


def peek_size(b, seat):
    """Cards an Oracle placed by ``seat`` shows (Mystic 3), limited by the draw pile."""
    n = 3 if b[R_TRAIT + seat] == MYSTIC else 1
    return n if n < b[R_DRAW_N] else b[R_DRAW_N]


def bonus_due(b, source):
    """Bonus cards a pending Key & Chest gives from the discard pile (NONE) or a bank."""
    have = b[R_DISCARD_N] if source == NONE else bank_size(b, source)
    return b[R_BONUS] if b[R_BONUS] < have else have


def winners(b):
    """Best score, then most bank cards; still tied: a shared win."""
    out = []
    best = -1
    cards = -1
    for seat in range(b[R_SEATS]):
        sc = score(b, seat)
        n = bank_size(b, seat)
        if sc > best or (sc == best and n > cards):
            out = [seat]
            best = sc
            cards = n
        elif sc == best and n == cards:
            out.append(seat)
    return out


class DeadMans(engine.Game):
    NAME = "deadmans"
    GAME_ID = 2
    STATE_SIZE = STATE_SIZE
    PUBLIC_SIZE = STATE_SIZE
    VOCAB = VOCAB
    REASONS = REASONS

    def __init__(self, seats=2, first=0):
        engine.Game.__init__(self)
        s = self.s
        decks = 2 if seats > 4 else 1
        s[R_SEATS] = seats
        s[R_DECKS] = decks
        s[R_FIRST] = first
        s[R_TURN] = first
        for i in range(R_TRAIT, LOC):
            s[i] = NONE
        for k in range(decks):
            for c in range(NCODES):
                s[LOC + c + NCODES * k] = DISCARD if c % DMD_VALUES == 0 else DRAW
        s[R_DISCARD_N] = SUITS * decks
        s[R_DRAW_N] = (NCODES - SUITS) * decks

    @classmethod
    def from_header(cls, header):
        engine.check_options(header, ("game", "players", "first", "decks"))
        seats = engine.int_option(header, "players", 0, 2, MAX_SEATS)
        decks = 2 if seats > 4 else 1
        if seats > 4 and "decks" not in header:
            raise ValueError("5-8 players play with two decks: the header needs \"decks\": 2")
        engine.int_option(header, "decks", decks, decks, decks)
        return cls(seats, engine.int_option(header, "first", 0, 0, seats - 1))

    def over(self):
        return self.s[R_PHASE] == OVER

    def phase(self):
        return self.s[R_PHASE]

    # -- checking ---------------------------------------------------------------------
    def check(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        if kind == A_TRAIT:
            return self._check_trait(rec, p)
        if s[R_PHASE] == SETUP and kind != A_DRAW:
            return WRONG_PHASE
        if p != s[R_TURN]:
            return NOT_YOUR_TURN
        pending = s[R_PENDING]
        if kind == A_DRAW or kind == A_COLLECT:
            if pending:
                return CHOICE_PENDING
            if kind == A_COLLECT:
                if not s[R_STARTED]:
                    return MUST_DRAW
                return KRAKEN_DEMANDS if s[R_KRAKEN] else OK
            card = rec[F_CARD]
            if not s[R_DRAW_N]:
                return DRAW_PILE_EMPTY
            if not count(s, card, DRAW):
                return NOT_IN_DRAW_PILE
            return NOT_PEEKED_CARD if s[R_PEEK_N] and card != s[R_PEEK] else OK
        if kind != pending:
            return WRONG_CHOICE
        if kind == A_HOOK:
            return self._check_top(p, rec[F_CARD])
        if kind == A_CANNON or kind == A_SWORD:
            return self._check_target(rec, p, kind)
        if kind == A_MAP:
            return self._check_map(rec, p)
        if kind == A_ORACLE:
            return self._check_oracle(rec, p)
        return self._check_bonus(rec, p)

    def _check_trait(self, rec, p):
        s = self.s
        if s[R_PHASE] != SETUP:
            return WRONG_PHASE
        if s[R_TRAIT + p] != NONE:
            return TRAIT_CHOSEN
        trait = rec[F_TRAIT]
        if holders(s, trait) >= s[R_DECKS]:
            return TRAIT_TAKEN
        if rec[F_TRAIT_TARGET - 1]:
            t = rec[F_TRAIT_TARGET]
            return BAD_TARGET if trait != DAVY_JONES or t == p or t >= s[R_SEATS] else OK
        return TARGET_REQUIRED if trait == DAVY_JONES and s[R_SEATS] > 2 else OK

    def _check_top(self, seat, card):
        if not count(self.s, card, BANK + seat):
            return NOT_IN_BANK
        return OK if top(self.s, seat, card // DMD_VALUES) == card else NOT_TOP_CARD

    def _check_target(self, rec, p, kind):
        s = self.s
        t = rec[F_TARGET]
        card = rec[F_TARGET_CARD]
        if t >= s[R_SEATS]:
            return BAD_TARGET
        if kind == A_CANNON and misfired(s, p):
            return self._check_top(t, card) if t == p else MISFIRE_OWN_BANK
        if t == p:
            return BAD_TARGET
        err = self._check_top(t, card)
        if err or kind == A_CANNON:
            return err
        if parried(s, p):
            return OK if s[R_TRAIT + t] == PARRY and card // DMD_VALUES == KRAKEN else PARRY_FORCES_KRAKEN
        return OK if may_steal(s, p, card // DMD_VALUES) else SUIT_IN_OWN_BANK

    def _check_map(self, rec, p):
        s = self.s
        shown = rec[F_REVEAL - 1]
        pick = rec[F_PICK]
        if s[R_TRAIT + p] == NAVIGATOR:
            if shown:
                return REVEAL_NOT_WANTED
            return OK if count(s, pick, DISCARD) else NOT_IN_DISCARD
        if not shown:
            return REVEAL_MISSING
        n = rec[F_REVEAL]
        if n != (3 if s[R_DISCARD_N] > 3 else s[R_DISCARD_N]):
            return WRONG_REVEAL_COUNT
        if not self._all_at(rec, F_REVEAL, DISCARD):
            return NOT_IN_DISCARD
        for i in range(n):
            if rec[F_REVEAL + 1 + i] == pick:
                return OK
        return PICK_NOT_REVEALED

    def _check_oracle(self, rec, p):
        s = self.s
        n = rec[F_PEEK]
        if n != peek_size(s, p):
            return WRONG_PEEK_COUNT
        if not self._all_at(rec, F_PEEK, DRAW):
            return NOT_IN_DRAW_PILE
        for i in range(n if n < s[R_PEEK_N] else s[R_PEEK_N]):
            if rec[F_PEEK + 1 + i] != s[R_PEEK + i]:
                return NOT_PEEKED_CARD
        return OK

    def _check_bonus(self, rec, p):
        s = self.s
        named = rec[F_BONUS_TARGET - 1]
        t = rec[F_BONUS_TARGET]
        if s[R_TRAIT + p] != PLUNDERER:
            if named:
                return BAD_TARGET
            if rec[F_CARDS] != bonus_due(s, NONE):
                return WRONG_BONUS_COUNT
            return OK if self._all_at(rec, F_CARDS, DISCARD) else NOT_IN_DISCARD
        if not named:
            return TARGET_REQUIRED
        if t == p or t >= s[R_SEATS]:
            return BAD_TARGET
        if not bank_size(s, t):
            return EMPTY_BANK
        if rec[F_CARDS] != bonus_due(s, t):
            return WRONG_BONUS_COUNT
        return self._check_plunder(rec, t)

    def _check_plunder(self, rec, t):
        """Plunderer takes top cards one by one: each must be on top once the earlier ones left."""
        s = self.s
        for i in range(rec[F_CARDS]):
            card = rec[F_CARDS + 1 + i]
            if _listed(rec, F_CARDS, i + 1, card) > count(s, card, BANK + t):
                return NOT_IN_BANK
            for higher in range(card + 1, card - card % DMD_VALUES + DMD_VALUES):
                if count(s, higher, BANK + t) > _listed(rec, F_CARDS, i, higher):
                    return NOT_TOP_CARD
        return OK

    def _all_at(self, rec, at, loc):
        """Every card of a record list is at ``loc`` (a code listed twice needs two copies)."""
        for i in range(rec[at]):
            card = rec[at + 1 + i]
            if _listed(rec, at, i + 1, card) > count(self.s, card, loc):
                return False
        return True

    # -- applying ---------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        if kind == A_TRAIT:
            s[R_TRAIT + p] = rec[F_TRAIT]
            if rec[F_TRAIT] == DAVY_JONES:
                s[R_DJ + p] = rec[F_TRAIT_TARGET] if rec[F_TRAIT_TARGET - 1] else 1 - p
            return
        if kind == A_COLLECT:
            self._collect(p)
            return
        if kind == A_BONUS:
            src = BANK + rec[F_BONUS_TARGET] if rec[F_BONUS_TARGET - 1] else DISCARD
            for i in range(rec[F_CARDS]):
                self._move(rec[F_CARDS + 1 + i], src, BANK + p)
            self._end_turn()
            return
        s[R_PENDING] = NO_CHOICE
        if kind == A_DRAW:
            s[R_PHASE] = PLAYING
            s[R_STARTED] = 1
            if s[R_PEEK_N]:
                s[R_PEEK] = s[R_PEEK + 1]
                s[R_PEEK + 1] = s[R_PEEK + 2]
                s[R_PEEK + 2] = 0
                s[R_PEEK_N] -= 1
            self._place(rec[F_CARD], DRAW, False)
        elif kind == A_HOOK:
            s[_R_HOOKS] -= 1
            self._place(rec[F_CARD], BANK + p, s[R_TRAIT + p] == MISER)
        elif kind == A_CANNON:
            self._cannon(p, rec[F_TARGET], rec[F_TARGET_CARD])
        elif kind == A_SWORD:
            self._place(rec[F_TARGET_CARD], BANK + rec[F_TARGET], False)
        elif kind == A_MAP:
            self._place(rec[F_PICK], DISCARD, False)
        else:
            for i in range(s[R_PEEK_N], rec[F_PEEK]):
                s[R_PEEK + i] = rec[F_PEEK + 1 + i]
            if rec[F_PEEK] > s[R_PEEK_N]:
                s[R_PEEK_N] = rec[F_PEEK]
        if not s[R_DRAW_N]:
            s[R_KRAKEN] = 0  # the draw pile ran out: the Kraken's demand ends
        if s[R_PHASE] == PLAYING and s[R_PENDING] == NO_CHOICE and s[_R_HOOKS]:
            # Captain's Hook: the second card comes once the first one's abilities resolved.
            if bank_size(s, p):
                s[R_PENDING] = A_HOOK
            else:
                s[_R_HOOKS] = 0

    def _move(self, card, src, dst):
        """Move one copy of ``card``; keep the pile counters and the copies' order canonical."""
        s = self.s
        at = LOC + card
        if s[at] != src:
            at += NCODES
        s[at] = dst
        other = s[LOC + card + NCODES]
        if s[R_DECKS] == 2 and s[LOC + card] > other:
            s[LOC + card + NCODES] = s[LOC + card]
            s[LOC + card] = other
        if src == DRAW:
            s[R_DRAW_N] -= 1
        elif src == DISCARD:
            s[R_DISCARD_N] -= 1
        if dst == DISCARD:
            s[R_DISCARD_N] += 1

    def _place(self, card, src, safe):
        """A card enters the play area: Casanova and Fisherman bank it, a suit already in play
        busts (the card does not trigger), otherwise it is placed and its ability triggers."""
        s = self.s
        p = s[R_TURN]
        suit = card // DMD_VALUES
        trait = s[R_TRAIT + p]
        if (suit == MERMAID and trait == _CASANOVA) or (suit == KRAKEN and trait == _FISHERMAN):
            self._move(card, src, BANK + p)
            return
        for i in range(s[R_PLAY_N]):
            if s[R_PLAY + i] // DMD_VALUES == suit:
                self._move(card, src, self._bust_sink(p))
                self._bust(p)
                return
        self._move(card, src, PLAY)
        at = s[R_PLAY_N]
        s[R_PLAY + at] = card
        s[R_PLAY_N] = at + 1
        if s[_R_SAFE_NEXT]:
            s[_R_SAFE_NEXT] -= 1
            safe = True
        if safe:
            self._protect(at)
        if s[R_KRAKEN]:
            s[R_KRAKEN] -= 1
        self._trigger(p, suit, at)

    def _trigger(self, p, suit, at):
        """A placed card's suit ability (Key and Chest act only when collected)."""
        s = self.s
        trait = s[R_TRAIT + p]
        if suit == _ANCHOR:
            for i in range(at):
                self._protect(i)
            if trait == _SAFE_HARBOR:
                self._protect(at)
                s[_R_SAFE_NEXT] = 2
        elif suit == _HOOK:
            if trait == MISER:
                self._protect(at)
            s[_R_HOOKS] = 2 if trait == _CAPTAINS_HOOK else 1
        elif suit == _CANNON:
            if misfired(s, p):
                if bank_size(s, p):
                    s[R_PENDING] = A_CANNON
            elif self._opponents_bank(p):
                s[R_PENDING] = A_CANNON
        elif suit == _SWORD:
            self._sword(p, at)
        elif suit == _MAP:
            if s[R_DISCARD_N]:
                s[R_PENDING] = A_MAP
        elif suit == _ORACLE:
            if s[R_DRAW_N]:
                s[R_PENDING] = A_ORACLE
        elif suit == KRAKEN:
            if s[R_DRAW_N]:
                s[R_KRAKEN] = 4 if opponent_has(s, p, _BEASTMASTER) else 2

    def _sword(self, p, at):
        """A Sword asks for a target; under Parry with no Kraken to take it is discarded."""
        s = self.s
        forced = parried(s, p)
        for t in range(s[R_SEATS]):
            if t == p or (forced and s[R_TRAIT + t] != PARRY):
                continue
            for suit in range(SUITS):
                if (suit == KRAKEN if forced else may_steal(s, p, suit)) and top(s, t, suit) != NONE:
                    s[R_PENDING] = A_SWORD
                    return
        if forced:
            s[R_PLAY_N] = at
            s[_R_SAFE + (at >> 3)] &= 255 ^ (1 << (at & 7))
            self._move(s[R_PLAY + at], PLAY, DISCARD)
            s[R_PLAY + at] = 0

    def _cannon(self, p, t, card):
        """Discard a top card (Master Gunner: the whole stack; Scavenger: into the placer's bank).
        Misfire turns it on the placer's own bank, where only the plain top card goes."""
        s = self.s
        if t == p:
            self._move(card, BANK + t, DISCARD)
            return
        dst = BANK + p if s[R_TRAIT + p] == _SCAVENGER else DISCARD
        if s[R_TRAIT + p] != _MASTER_GUNNER:
            self._move(card, BANK + t, dst)
            return
        first = card - card % DMD_VALUES
        for c in range(first, first + DMD_VALUES):
            while count(s, c, BANK + t):
                self._move(c, BANK + t, dst)

    def _collect(self, p):
        s = self.s
        n = s[R_PLAY_N]
        key = 0
        for i in range(n):
            suit = s[R_PLAY + i] // DMD_VALUES
            if suit == KEY or suit == _CHEST:
                key += 1
            self._move(s[R_PLAY + i], PLAY, BANK + p)
        for r in range(_R_SAFE, R_PLAY + SUITS):  # the play area is empty (a bonus may follow)
            s[r] = 0
        if key == 2:
            s[R_BONUS] = n * 3 if s[R_TRAIT + p] == _TREASURE_HUNTER else n
            if s[R_TRAIT + p] == PLUNDERER:
                due = self._opponents_bank(p)
            else:
                due = s[R_DISCARD_N]
            if due:
                s[R_PENDING] = A_BONUS
                return
        self._end_turn()

    def _opponents_bank(self, p):
        """True when some opponent banks a card."""
        for t in range(self.s[R_SEATS]):
            if t != p and bank_size(self.s, t):
                return True
        return False

    def _protect(self, at):
        self.s[_R_SAFE + (at >> 3)] |= 1 << (at & 7)

    def _bust_sink(self, p):
        """Where busted cards go: the discard pile, or the bank of the first Davy Jones's Locker
        (clockwise from the busting seat) that watches this seat."""
        s = self.s
        n = s[R_SEATS]
        for i in range(1, n):
            d = (p + i) % n
            if s[R_TRAIT + d] == DAVY_JONES and s[R_DJ + d] == p:
                return BANK + d
        return DISCARD

    def _bust(self, p):
        s = self.s
        sink = self._bust_sink(p)
        for i in range(s[R_PLAY_N]):
            safe = s[_R_SAFE + (i >> 3)] & (1 << (i & 7))
            self._move(s[R_PLAY + i], PLAY, BANK + p if safe else sink)
        self._end_turn()

    def _end_turn(self):
        s = self.s
        for r in range(R_PENDING, R_PLAY + SUITS):
            s[r] = 0
        if not s[R_DRAW_N]:
            s[R_PHASE] = OVER
        else:
            s[R_TURN] = (s[R_TURN] + 1) % s[R_SEATS]

    # -- what may be seen ---------------------------------------------------------------
    def valid_state(self, b):
        """Everything ``apply`` relies on: ranges, counters and the play list agree with the
        card locations, and the two copies of a code are in canonical order."""
        seats = b[R_SEATS]
        decks = b[R_DECKS]
        if not 2 <= seats <= MAX_SEATS or decks != (2 if seats > 4 else 1):
            return False
        if b[R_FIRST] >= seats or b[R_TURN] >= seats or b[R_PHASE] > OVER:
            return False
        if b[R_PENDING] > A_BONUS or b[R_PENDING] in (A_DRAW, A_COLLECT):
            return False
        if b[R_PEEK_N] > 3 or b[R_PLAY_N] > SUITS or b[_R_HOOKS] > 2 or b[R_BONUS] > MAX_BONUS:
            return False
        if (b[_R_SAFE] | (b[_R_SAFE + 1] << 8)) >> b[R_PLAY_N]:
            return False  # protection marks only on cards in play
        for seat in range(MAX_SEATS):
            trait = b[R_TRAIT + seat]
            dj = b[R_DJ + seat]
            if trait != NONE and (seat >= seats or trait >= len(TRAITS)):
                return False
            if dj != NONE and (trait != DAVY_JONES or dj >= seats or dj == seat):
                return False
        piles = [0, 0, 0]
        for i in range(2 * NCODES):
            loc = b[LOC + i]
            if i >= NCODES * decks:
                if loc:
                    return False
            elif loc <= PLAY:
                piles[loc] += 1
            elif not BANK <= loc < BANK + seats:
                return False
            if decks == 2 and i < NCODES and loc > b[LOC + i + NCODES]:
                return False
        if piles[DRAW] != b[R_DRAW_N] or piles[DISCARD] != b[R_DISCARD_N] or piles[PLAY] != b[R_PLAY_N]:
            return False
        for i in range(SUITS):
            card = b[R_PLAY + i]
            if i >= b[R_PLAY_N]:
                if card:
                    return False
                continue
            if card >= NCODES or not count(b, card, PLAY):
                return False
            for j in range(i):
                if b[R_PLAY + j] // DMD_VALUES == card // DMD_VALUES:
                    return False
        for i in range(3):
            card = b[R_PEEK + i]
            if i >= b[R_PEEK_N]:
                if card:
                    return False
                continue
            if card >= NCODES or _listed(b, R_PEEK - 1, i + 1, card) > count(b, card, DRAW):
                return False
        return True

    def public(self, out):
        """Fill ``out`` with the state minus what nobody may see: the Oracle's peek queue, and
        which face-down pile (draw or discard) a card is in (the counts stay public)."""
        s = self.s
        for i in range(STATE_SIZE):
            out[i] = s[i]
        for i in range(R_PEEK_N, R_PEEK + 3):
            out[i] = 0
        for i in range(LOC, STATE_SIZE):
            if out[i] == DISCARD:
                out[i] = DRAW

    @staticmethod
    def describe(view):
        """Public view bytes -> dict for the scoreboard."""
        seats = []
        for seat in range(view[R_SEATS]):
            bank = []
            for i in range(NCODES * view[R_DECKS]):
                if view[LOC + i] == BANK + seat:
                    bank.append(CODES[i % NCODES])
            bank.sort()
            trait = view[R_TRAIT + seat]
            seats.append({
                "trait": None if trait == NONE else TRAITS[trait], "davy_jones": _seat(view[R_DJ + seat]),
                "bank": bank, "score": score(view, seat),
            })
        return {
            "game": "deadmans", "players": view[R_SEATS], "decks": view[R_DECKS],
            "phase": PHASES[view[R_PHASE]], "turn": view[R_TURN], "pending": CHOICES[view[R_PENDING]] or None,
            "kraken": view[R_KRAKEN], "draw_pile": view[R_DRAW_N], "discard_pile": view[R_DISCARD_N],
            "play": [CODES[view[R_PLAY + i]] for i in range(view[R_PLAY_N])],
            "protected": [i for i in range(view[R_PLAY_N]) if view[_R_SAFE + (i >> 3)] & (1 << (i & 7))],
            "seats": seats,
        }

    def summary(self):
        s = self.s
        n = s[R_SEATS]
        return {
            "game": "deadmans", "players": n, "over": s[R_PHASE] == OVER,
            "winners": winners(s) if s[R_PHASE] == OVER else [],
            "scores": [score(s, seat) for seat in range(n)],
            "bank_cards": [bank_size(s, seat) for seat in range(n)],
        }

    def referee(self):
        """Everything the referee knows, the peek queue and the discard pile included (debug)."""
        s = self.s
        view = bytearray(STATE_SIZE)
        self.public(view)
        d = self.describe(view)
        d["peek"] = [CODES[s[R_PEEK + i]] for i in range(s[R_PEEK_N])]
        d["discard"] = [CODES[i % NCODES] for i in range(NCODES * s[R_DECKS]) if s[LOC + i] == DISCARD]
        return d


def _listed(rec, at, n, card):
    """How often ``card`` occurs among the first ``n`` entries of the list at ``rec[at]``."""
    k = 0
    for i in range(n):
        if rec[at + 1 + i] == card:
            k += 1
    return k


def _seat(v):
    return None if v == NONE else v


GAME = DeadMans
