"""Dead Man's Draw: the referee for 2-4 players (one deck) and 5-8 players (two decks).

Rules and every decision the rules leave open: ``docs/rules-deadmans.md``. The whole state is
``_STATE_SIZE`` bytes: registers, the play area in placing order, a trait and a Davy Jones target
per seat, and one location byte per physical card (draw pile, discard pile, play area, or the
bank of a seat). Copies of a code are interchangeable, so with two decks the two location bytes
of a code are kept sorted: equal situations give equal bytes (and digests). The referee does not
know the order of the draw pile, only the cards an Oracle saw on top of it (the peek queue).

Registers, suits, traits, action kinds, field offsets and reasons are private ``const()``s, so a
board keeps neither names nor dictionary slots for them (docs/performance.md); tests and host
tools read them by name from the generated ``deadmans_layout.py``, and
``tests/test_rules_literals.py`` checks the literals against what they stand for.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules.core import actions
from shared_rules.core import engine
from shared_rules.deadmans.cards import DMD_CODES, DMD_TRAITS  # the catalogue's section, without the package

# Suits (code // _VALUES, in DMD_CODES order) and traits (index in DMD_TRAITS).
_NCODES = const(60)
_SUITS = const(10)
_VALUES = const(6)
_ANCHOR = const(0)
_CANNON = const(1)
_CHEST = const(2)
_HOOK = const(3)
_KEY = const(4)
_KRAKEN = const(5)
_MAP = const(6)
_MERMAID = const(7)
_ORACLE = const(8)
_SWORD = const(9)
_BEASTMASTER = const(0)
_CAPTAINS_HOOK = const(1)
_CASANOVA = const(2)
_DAVY_JONES = const(3)
_FISHERMAN = const(4)
_GOLDEN_SCALES = const(5)
_MISER = const(6)
_NAVIGATOR = const(7)
_MASTER_GUNNER = const(8)
_MISFIRE = const(9)
_MYSTIC = const(10)
_PARRY = const(11)
_PLUNDERER = const(12)
_SAFE_HARBOR = const(13)
_SCAVENGER = const(14)
_SWORDSMAN = const(15)
_TREASURE_HUNTER = const(16)
_NTRAITS = const(17)
_NONE = const(255)
_MAX_SEATS = const(8)
_MAX_BONUS = const(30)  # ten cards collected, tripled by Treasure Hunter

# Action kinds (VOCAB order) and field offsets in a record (actions.Vocabulary.offset).
_A_TRAIT = const(0)
_A_DRAW = const(1)
_A_COLLECT = const(2)
_A_HOOK = const(3)
_A_CANNON = const(4)
_A_SWORD = const(5)
_A_MAP = const(6)
_A_ORACLE = const(7)
_A_BONUS = const(8)
_F_TRAIT = const(2)
_F_TRAIT_TARGET = const(4)
_F_CARD = const(2)  # draw and hook
_F_TARGET = const(2)  # cannon and sword
_F_TARGET_CARD = const(3)
_F_REVEAL = const(3)
_F_PICK = const(7)
_F_PEEK = const(2)
_F_CARDS = const(2)
_F_BONUS_TARGET = const(34)
_FIELD_U8 = const(0)  # actions.U8, NAME, LIST
_FIELD_NAME = const(2)
_FIELD_LIST = const(3)

# Reasons: the engine's, then this game's (REASONS, from engine.FIRST_GAME_REASON).
_OK = const(0)
_WRONG_PHASE = const(5)
_NOT_YOUR_TURN = const(6)
_CHOICE_PENDING = const(16)
_WRONG_CHOICE = const(17)
_MUST_DRAW = const(18)
_KRAKEN_DEMANDS = const(19)
_DRAW_PILE_EMPTY = const(20)
_NOT_IN_DRAW_PILE = const(21)
_NOT_PEEKED_CARD = const(22)
_NOT_IN_BANK = const(23)
_NOT_TOP_CARD = const(24)
_BAD_TARGET = const(25)
_MISFIRE_OWN_BANK = const(26)
_SUIT_IN_OWN_BANK = const(27)
_PARRY_FORCES_KRAKEN = const(28)
_REVEAL_MISSING = const(29)
_REVEAL_NOT_WANTED = const(30)
_WRONG_REVEAL_COUNT = const(31)
_NOT_IN_DISCARD = const(32)
_PICK_NOT_REVEALED = const(33)
_WRONG_PEEK_COUNT = const(34)
_WRONG_BONUS_COUNT = const(35)
_TRAIT_CHOSEN = const(36)
_TRAIT_TAKEN = const(37)
_TARGET_REQUIRED = const(38)
_EMPTY_BANK = const(39)

_SETUP = const(0)
_PLAYING = const(1)
_OVER = const(2)
_NO_CHOICE = const(0)  # R_PENDING: the action kind that must come next (NO_CHOICE: draw or collect)

# Card locations.
_DRAW = const(0)
_DISCARD = const(1)
_PLAY = const(2)
_BANK = const(8)  # + seat

# Registers. R_PENDING..R_PLAY_N describe the running turn and are cleared when it ends.
_R_SEATS = const(0)
_R_DECKS = const(1)
_R_FIRST = const(2)
_R_PHASE = const(3)
_R_TURN = const(4)
_R_DRAW_N = const(5)
_R_DISCARD_N = const(6)
_R_PEEK_N = const(7)
_R_PEEK = const(8)  # 3 card codes: the known top of the draw pile, top first
_R_PENDING = const(11)
_R_STARTED = const(12)
_R_KRAKEN = const(13)
_R_HOOKS = const(14)
_R_SAFE_NEXT = const(15)
_R_BONUS = const(16)
_R_SAFE = const(17)  # 2 bytes: bit i = play position i goes to the bank on a bust
_R_PLAY_N = const(19)
_R_PLAY = const(20)  # 10 card codes in placing order
_R_TRAIT = const(30)  # per seat: trait or NONE
_R_DJ = const(38)  # per seat: whose busts Davy Jones's Locker collects, or NONE
_LOC = const(46)  # per physical card: copy k of code c at LOC + c + 60 * k
_STATE_SIZE = const(166)  # LOC + 2 * NCODES


# -- reading a state (or a public view, which has the same layout) --------------------------
def count(s, code, at):
    """Copies of a card code at location ``at``."""
    n = 0
    for k in range(s[_R_DECKS]):
        if s[_LOC + code + _NCODES * k] == at:
            n += 1
    return n


def top(s, p, kind):
    """The top (highest) card of seat ``p``'s stack of suit ``kind``, or NONE."""
    for v in range(_VALUES - 1, -1, -1):
        if count(s, kind * _VALUES + v, _BANK + p):
            return kind * _VALUES + v
    return _NONE


def bank_size(s, p):
    n = 0
    for i in range(_NCODES * s[_R_DECKS]):
        if s[_LOC + i] == _BANK + p:
            n += 1
    return n


def score(s, p):
    """Sum of the top card of every suit stack (Mermaids 4-9, the others 2-7; Golden Scales: a
    scoring Mermaid is worth 5 more)."""
    total = 0
    for suit in range(_SUITS):
        t = top(s, p, suit)
        if t != _NONE:
            total += t % _VALUES + 2
            if suit == _MERMAID:
                total += 7 if s[_R_TRAIT + p] == _GOLDEN_SCALES else 2
    return total


def opponent_has(s, p, trait):
    """Some seat other than ``p`` holds the trait (Misfire, Parry and Beastmaster act on their
    opponents)."""
    for o in range(s[_R_SEATS]):
        if o != p and s[_R_TRAIT + o] == trait:
            return True
    return False


def peek_size(s, p):
    """Cards an Oracle placed by seat ``p`` shows (Mystic 3), limited by the draw pile."""
    n = 3 if s[_R_TRAIT + p] == _MYSTIC else 1
    return n if n < s[_R_DRAW_N] else s[_R_DRAW_N]


def bonus_due(s, src):
    """Bonus cards a pending Key & Chest gives from the discard pile (``src`` NONE) or the bank
    of seat ``src``."""
    have = s[_R_DISCARD_N] if src == _NONE else bank_size(s, src)
    return s[_R_BONUS] if s[_R_BONUS] < have else have


def _move(s, card, src, dest):
    """Move one copy of ``card`` from location ``src`` to ``dest``; keep the pile counters and
    the copies' order canonical."""
    at = _LOC + card
    if s[at] != src:
        at += _NCODES
    s[at] = dest
    other = s[_LOC + card + _NCODES]
    if s[_R_DECKS] == 2 and s[_LOC + card] > other:
        s[_LOC + card + _NCODES] = s[_LOC + card]
        s[_LOC + card] = other
    if src == _DRAW:
        s[_R_DRAW_N] -= 1
    elif src == _DISCARD:
        s[_R_DISCARD_N] -= 1
    if dest == _DISCARD:
        s[_R_DISCARD_N] += 1


# Fields some actions share, one tuple each instead of one per action.
_CARD = (actions.field("card", _FIELD_NAME, DMD_CODES),)                  # draw, hook
_TARGET_AND_CARD = (actions.field("target", _FIELD_U8), _CARD[0])         # cannon, sword
_MAYBE_TARGET = actions.field("target", _FIELD_U8, optional=True)         # trait, bonus


class DeadMans(engine.Game):
    NAME = "deadmans"
    GAME_ID = 2
    STATE_SIZE = _STATE_SIZE
    PUBLIC_SIZE = _STATE_SIZE
    # The action names and their field tuples as two tuples, kept as given (no (name, fields)
    # pairs to split and copy at the replay's peak). The names from a list display: they load as
    # names interned anyway, where a constant tuple's would be nine 32-byte string objects.
    VOCAB = actions.Vocabulary(tuple(["trait", "draw", "collect", "hook", "cannon", "sword", "map", "oracle", "bonus"]), (
        (actions.field("trait", _FIELD_NAME, DMD_TRAITS), _MAYBE_TARGET),
        _CARD,
        (),
        _CARD,
        _TARGET_AND_CARD,
        _TARGET_AND_CARD,
        (actions.field("reveal", _FIELD_LIST, DMD_CODES, optional=True, cap=3),
         actions.field("pick", _FIELD_NAME, DMD_CODES)),
        (actions.field("peek", _FIELD_LIST, DMD_CODES, cap=3, hidden=2),),  # 2: one card as a name alone
        (actions.field("cards", _FIELD_LIST, DMD_CODES, cap=_MAX_BONUS), _MAYBE_TARGET),
    ))
    # The reason names in one string (one object, not a tuple of strings; ``engine.Game.reason``
    # names a code from it).
    REASONS = (
        "choice_pending "       # 16 an ability choice must be logged first
        "wrong_choice "         # 17 no such ability choice is pending
        "must_draw "            # 18 a turn starts with a draw
        "kraken_demands "       # 19 the Kraken still demands cards
        "draw_pile_empty "      # 20 nothing left to draw
        "not_in_draw_pile "     # 21 that card is not (any longer) in the draw pile
        "not_peeked_card "      # 22 an Oracle saw another card on top of the draw pile
        "not_in_bank "          # 23 the bank holds no such card
        "not_top_card "         # 24 the card is not on top of its suit stack
        "bad_target "           # 25 not a seat this action may name
        "misfire_own_bank "     # 26 Misfire: the Cannon must hit the placer's own bank
        "suit_in_own_bank "     # 27 the Sword may not steal a suit the player banks
        "parry_forces_kraken "  # 28 Parry: the Sword must steal a Kraken from the Parry bank
        "reveal_missing "       # 29 a Map shows its revealed cards
        "reveal_not_wanted "    # 30 Navigator picks from the whole discard pile, nothing revealed
        "wrong_reveal_count "   # 31 a Map reveals min(3, discard pile) cards
        "not_in_discard "       # 32 the discard pile holds no such card
        "pick_not_revealed "    # 33 the Map pick must be one of the revealed cards
        "wrong_peek_count "     # 34 an Oracle sees min(1 or 3, draw pile) cards
        "wrong_bonus_count "    # 35 the bonus is not the number of cards due
        "trait_chosen "         # 36 one trait per seat
        "trait_taken "          # 37 the trait is already held (once per deck)
        "target_required "      # 38 this choice names a seat
        "empty_bank"            # 39 Plunderer: the named bank holds nothing
    )

    @staticmethod
    def from_header(header):
        """A new game: 2-4 players with one deck, 5-8 with two (the header must say so)."""
        engine.check_options(header, ["game", "players", "first", "decks"])  # a list: no constant tuple held
        seats = engine.int_option(header, "players", 0, 2, _MAX_SEATS)
        decks = 2 if seats > 4 else 1
        if seats > 4 and "decks" not in header:
            raise ValueError("5-8 players play with two decks: the header needs \"decks\": 2")
        engine.int_option(header, "decks", decks, decks, decks)
        first = engine.int_option(header, "first", 0, 0, seats - 1)
        g = DeadMans()
        s = g.s
        s[_R_SEATS] = seats
        s[_R_DECKS] = decks
        s[_R_FIRST] = first
        s[_R_TURN] = first
        for i in range(_R_TRAIT, _LOC):
            s[i] = _NONE
        for k in range(decks):
            for c in range(_NCODES):
                s[_LOC + c + _NCODES * k] = _DISCARD if c % _VALUES == 0 else _DRAW
        s[_R_DISCARD_N] = _SUITS * decks
        s[_R_DRAW_N] = (_NCODES - _SUITS) * decks
        return g

    def over(self):
        return self.s[_R_PHASE] == _OVER

    # -- checking ---------------------------------------------------------------------
    def check(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        seats = s[_R_SEATS]
        if kind == _A_TRAIT:
            if s[_R_PHASE] != _SETUP:
                return _WRONG_PHASE
            if s[_R_TRAIT + p] != _NONE:
                return _TRAIT_CHOSEN
            trait = rec[_F_TRAIT]
            held = 0
            for seat in range(seats):
                if s[_R_TRAIT + seat] == trait:
                    held += 1
            if held >= s[_R_DECKS]:
                return _TRAIT_TAKEN
            if rec[_F_TRAIT_TARGET - 1]:
                t = rec[_F_TRAIT_TARGET]
                return _BAD_TARGET if trait != _DAVY_JONES or t == p or t >= seats else _OK
            return _TARGET_REQUIRED if trait == _DAVY_JONES and seats > 2 else _OK
        if s[_R_PHASE] == _SETUP and kind != _A_DRAW:
            return _WRONG_PHASE
        if p != s[_R_TURN]:
            return _NOT_YOUR_TURN
        pending = s[_R_PENDING]
        if kind == _A_DRAW or kind == _A_COLLECT:
            if pending:
                return _CHOICE_PENDING
            if kind == _A_COLLECT:
                if not s[_R_STARTED]:
                    return _MUST_DRAW
                return _KRAKEN_DEMANDS if s[_R_KRAKEN] else _OK
            card = rec[_F_CARD]
            if not s[_R_DRAW_N]:
                return _DRAW_PILE_EMPTY
            if not count(s, card, _DRAW):
                return _NOT_IN_DRAW_PILE
            return _NOT_PEEKED_CARD if s[_R_PEEK_N] and card != s[_R_PEEK] else _OK
        if kind != pending:
            return _WRONG_CHOICE
        trait = s[_R_TRAIT + p]
        if kind <= _A_SWORD:  # hook, cannon, sword: the top card of a suit stack
            if kind == _A_HOOK:
                t = p
                card = rec[_F_CARD]
            else:
                t = rec[_F_TARGET]
                card = rec[_F_TARGET_CARD]
                if t >= seats:
                    return _BAD_TARGET
                if kind == _A_CANNON and opponent_has(s, p, _MISFIRE):
                    if t != p:
                        return _MISFIRE_OWN_BANK
                elif t == p:
                    return _BAD_TARGET
            suit = card // _VALUES
            if not count(s, card, _BANK + t):
                return _NOT_IN_BANK
            if top(s, t, suit) != card:
                return _NOT_TOP_CARD
            if kind != _A_SWORD:
                return _OK
            if opponent_has(s, p, _PARRY) and top(s, p, _KRAKEN) == _NONE:
                # Parry binds the Sword unless its placer already banks a Kraken.
                return _OK if s[_R_TRAIT + t] == _PARRY and suit == _KRAKEN else _PARRY_FORCES_KRAKEN
            return _OK if trait == _SWORDSMAN or top(s, p, suit) == _NONE else _SUIT_IN_OWN_BANK
        # Map, Oracle, bonus: a list of cards that must all lie at one place.
        if kind == _A_MAP:
            if trait == _NAVIGATOR:
                if rec[_F_REVEAL - 1]:
                    return _REVEAL_NOT_WANTED
                return _OK if count(s, rec[_F_PICK], _DISCARD) else _NOT_IN_DISCARD
            if not rec[_F_REVEAL - 1]:
                return _REVEAL_MISSING
            if rec[_F_REVEAL] != (3 if s[_R_DISCARD_N] > 3 else s[_R_DISCARD_N]):
                return _WRONG_REVEAL_COUNT
            at = _F_REVEAL
            loc = _DISCARD
            err = _NOT_IN_DISCARD
        elif kind == _A_ORACLE:
            if rec[_F_PEEK] != peek_size(s, p):
                return _WRONG_PEEK_COUNT
            at = _F_PEEK
            loc = _DRAW
            err = _NOT_IN_DRAW_PILE
        else:
            at = _F_CARDS
            loc = _DISCARD
            err = _NOT_IN_DISCARD
            t = _NONE
            if trait == _PLUNDERER:
                if not rec[_F_BONUS_TARGET - 1]:
                    return _TARGET_REQUIRED
                t = rec[_F_BONUS_TARGET]
                if t == p or t >= seats:
                    return _BAD_TARGET
                if not bank_size(s, t):
                    return _EMPTY_BANK
                loc = _BANK + t
                err = _NOT_IN_BANK
            elif rec[_F_BONUS_TARGET - 1]:
                return _BAD_TARGET
            if rec[_F_CARDS] != bonus_due(s, t):
                return _WRONG_BONUS_COUNT
        n = rec[at]
        for i in range(n):
            card = rec[at + 1 + i]
            k = 0  # copies listed up to here (a code listed twice: two copies)
            for j in range(at + 1, at + 2 + i):
                if rec[j] == card:
                    k += 1
            if k > count(s, card, loc):
                return err
            if loc >= _BANK:  # Plunderer takes top cards one by one, each on top once the earlier left
                for higher in range(card + 1, card - card % _VALUES + _VALUES):
                    k = count(s, higher, loc)  # copies of it not listed before this card
                    for j in range(at + 1, at + 1 + i):
                        if rec[j] == higher:
                            k -= 1
                    if k > 0:
                        return _NOT_TOP_CARD
        if kind == _A_MAP:
            for i in range(n):
                if rec[_F_REVEAL + 1 + i] == rec[_F_PICK]:
                    return _OK
            return _PICK_NOT_REVEALED
        if kind == _A_ORACLE:
            for i in range(n if n < s[_R_PEEK_N] else s[_R_PEEK_N]):
                if rec[_F_PEEK + 1 + i] != s[_R_PEEK + i]:
                    return _NOT_PEEKED_CARD
        return _OK

    # -- applying ---------------------------------------------------------------------
    def apply(self, rec):
        s = self.s
        kind = rec[0]
        p = rec[1]
        trait = s[_R_TRAIT + p]
        if kind == _A_TRAIT:
            s[_R_TRAIT + p] = rec[_F_TRAIT]
            if rec[_F_TRAIT] == _DAVY_JONES:
                s[_R_DJ + p] = rec[_F_TRAIT_TARGET] if rec[_F_TRAIT_TARGET - 1] else 1 - p
            return
        if kind == _A_COLLECT:
            n = s[_R_PLAY_N]
            key = 0
            for i in range(n):
                suit = s[_R_PLAY + i] // _VALUES
                if suit == _KEY or suit == _CHEST:
                    key += 1
                _move(s, s[_R_PLAY + i], _PLAY, _BANK + p)
            for r in range(_R_SAFE, _R_PLAY + _SUITS):  # the play area is empty (a bonus may follow)
                s[r] = 0
            if key == 2:
                s[_R_BONUS] = n * 3 if trait == _TREASURE_HUNTER else n
                # Plunderer: some opponent banks a card (the cards outside the piles and the
                # play area, now empty, are banked: more than p's own bank).
                if (_NCODES * s[_R_DECKS] - s[_R_DRAW_N] - s[_R_DISCARD_N] > bank_size(s, p)
                        if trait == _PLUNDERER else s[_R_DISCARD_N]):
                    s[_R_PENDING] = _A_BONUS
                    return
        elif kind == _A_BONUS:
            src = _BANK + rec[_F_BONUS_TARGET] if rec[_F_BONUS_TARGET - 1] else _DISCARD
            for i in range(rec[_F_CARDS]):
                _move(s, rec[_F_CARDS + 1 + i], src, _BANK + p)
        else:
            # Draw, hook, cannon, sword, map or oracle: a card may enter the play area. Casanova
            # and Fisherman bank it, a suit already in play busts (the card does not trigger, the
            # turn ends), otherwise it is placed and its ability triggers.
            s[_R_PENDING] = _NO_CHOICE
            card = _NONE
            src = _DRAW
            safe = False
            if kind == _A_DRAW:
                s[_R_PHASE] = _PLAYING
                s[_R_STARTED] = 1
                if s[_R_PEEK_N]:
                    s[_R_PEEK] = s[_R_PEEK + 1]
                    s[_R_PEEK + 1] = s[_R_PEEK + 2]
                    s[_R_PEEK + 2] = 0
                    s[_R_PEEK_N] -= 1
                card = rec[_F_CARD]
            elif kind == _A_HOOK:
                s[_R_HOOKS] -= 1
                card = rec[_F_CARD]
                src = _BANK + p
                safe = trait == _MISER
            elif kind == _A_CANNON:
                # Discard a top card (Master Gunner: the whole stack; Scavenger: into the placer's
                # bank). Misfire turns it on the placer's own bank, where only the plain top card goes.
                t = rec[_F_TARGET]
                c = rec[_F_TARGET_CARD]
                dest = _BANK + p if trait == _SCAVENGER and t != p else _DISCARD
                if trait == _MASTER_GUNNER and t != p:
                    first = c - c % _VALUES
                    for c in range(first, first + _VALUES):
                        while count(s, c, _BANK + t):
                            _move(s, c, _BANK + t, dest)
                else:
                    _move(s, c, _BANK + t, dest)
            elif kind == _A_SWORD:
                card = rec[_F_TARGET_CARD]
                src = _BANK + rec[_F_TARGET]
            elif kind == _A_MAP:
                card = rec[_F_PICK]
                src = _DISCARD
            else:
                for i in range(s[_R_PEEK_N], rec[_F_PEEK]):
                    s[_R_PEEK + i] = rec[_F_PEEK + 1 + i]
                if rec[_F_PEEK] > s[_R_PEEK_N]:
                    s[_R_PEEK_N] = rec[_F_PEEK]
            suit = card // _VALUES
            at = s[_R_PLAY_N]
            bust = False
            if (suit == _MERMAID and trait == _CASANOVA) or (suit == _KRAKEN and trait == _FISHERMAN):
                _move(s, card, src, _BANK + p)
                card = _NONE
            elif card != _NONE:
                for i in range(at):
                    if s[_R_PLAY + i] // _VALUES == suit:
                        bust = True
            if bust:
                # Protected cards go to the bank, the rest to the discard pile or to the bank of
                # the first Davy Jones's Locker (clockwise) that watches this seat.
                n = s[_R_SEATS]
                sink = _DISCARD
                for j in range(1, n):
                    d = (p + j) % n
                    if s[_R_TRAIT + d] == _DAVY_JONES and s[_R_DJ + d] == p:
                        sink = _BANK + d
                        break
                _move(s, card, src, sink)
                for j in range(at):
                    kept = s[_R_SAFE + (j >> 3)] & (1 << (j & 7))
                    _move(s, s[_R_PLAY + j], _PLAY, _BANK + p if kept else sink)
            elif card != _NONE:
                _move(s, card, src, _PLAY)
                s[_R_PLAY + at] = card
                s[_R_PLAY_N] = at + 1
                if s[_R_SAFE_NEXT]:
                    s[_R_SAFE_NEXT] -= 1
                    safe = True
                if s[_R_KRAKEN]:
                    s[_R_KRAKEN] -= 1
                # The placed card's ability (Key and Chest act only when collected).
                if suit == _ANCHOR:
                    for i in range(at):
                        s[_R_SAFE + (i >> 3)] |= 1 << (i & 7)
                    if trait == _SAFE_HARBOR:
                        safe = True
                        s[_R_SAFE_NEXT] = 2
                elif suit == _HOOK:
                    safe = safe or trait == _MISER
                    s[_R_HOOKS] = 2 if trait == _CAPTAINS_HOOK else 1
                elif suit == _CANNON:
                    # Misfire: only the placer's own bank; else some opponent's bank (the banked
                    # cards are those outside the piles and the play area: more than p's own).
                    if (bank_size(s, p) if opponent_has(s, p, _MISFIRE) else
                            _NCODES * s[_R_DECKS] - s[_R_DRAW_N] - s[_R_DISCARD_N] - at - 1 > bank_size(s, p)):
                        s[_R_PENDING] = _A_CANNON
                elif suit == _SWORD:
                    # A Sword asks for a target; under Parry with no Kraken to take it is discarded.
                    forced = opponent_has(s, p, _PARRY) and top(s, p, _KRAKEN) == _NONE
                    for t in range(s[_R_SEATS]):
                        if t == p or (forced and s[_R_TRAIT + t] != _PARRY) or s[_R_PENDING]:
                            continue
                        for u in range(_SUITS):
                            if forced:
                                wanted = u == _KRAKEN
                            else:
                                wanted = trait == _SWORDSMAN or top(s, p, u) == _NONE
                            if wanted and top(s, t, u) != _NONE:
                                s[_R_PENDING] = _A_SWORD
                                break
                    if forced and not s[_R_PENDING]:
                        s[_R_PLAY_N] = at
                        _move(s, card, _PLAY, _DISCARD)
                        s[_R_PLAY + at] = 0
                        safe = False  # nothing left in play to protect
                elif suit == _MAP:
                    if s[_R_DISCARD_N]:
                        s[_R_PENDING] = _A_MAP
                elif suit == _ORACLE:
                    if s[_R_DRAW_N]:
                        s[_R_PENDING] = _A_ORACLE
                elif suit == _KRAKEN:
                    if s[_R_DRAW_N]:
                        s[_R_KRAKEN] = 4 if opponent_has(s, p, _BEASTMASTER) else 2
                if safe:  # Safe Harbor's Anchor and next two cards, a Miser's Hook and hooked card
                    s[_R_SAFE + (at >> 3)] |= 1 << (at & 7)
            if not bust:
                if not s[_R_DRAW_N]:
                    s[_R_KRAKEN] = 0  # the draw pile ran out: the Kraken's demand ends
                if s[_R_PHASE] == _PLAYING and s[_R_PENDING] == _NO_CHOICE and s[_R_HOOKS]:
                    # Captain's Hook: the second card comes once the first one's abilities resolved.
                    if bank_size(s, p):
                        s[_R_PENDING] = _A_HOOK
                    else:
                        s[_R_HOOKS] = 0
                return
        # The turn ends.
        for r in range(_R_PENDING, _R_PLAY + _SUITS):
            s[r] = 0
        if not s[_R_DRAW_N]:
            s[_R_PHASE] = _OVER
        else:
            s[_R_TURN] = (s[_R_TURN] + 1) % s[_R_SEATS]

    # -- what may be seen ---------------------------------------------------------------
    def valid_state(self, s):
        """Everything ``apply`` relies on: ranges, counters and the play list agree with the
        card locations, and the two copies of a code are in canonical order."""
        seats = s[_R_SEATS]
        decks = s[_R_DECKS]
        if not 2 <= seats <= _MAX_SEATS or decks != (2 if seats > 4 else 1):
            return False
        if s[_R_FIRST] >= seats or s[_R_TURN] >= seats or s[_R_PHASE] > _OVER:
            return False
        if s[_R_PENDING] > _A_BONUS or s[_R_PENDING] == _A_DRAW or s[_R_PENDING] == _A_COLLECT:
            return False
        if s[_R_PENDING] == _A_HOOK and not s[_R_HOOKS]:
            return False  # a pending Hook has a hook left (apply counts it down)
        if s[_R_PEEK_N] > 3 or s[_R_PLAY_N] > _SUITS or s[_R_HOOKS] > 2 or s[_R_BONUS] > _MAX_BONUS:
            return False
        if (s[_R_SAFE] | (s[_R_SAFE + 1] << 8)) >> s[_R_PLAY_N]:
            return False  # protection marks only on cards in play
        for seat in range(_MAX_SEATS):
            trait = s[_R_TRAIT + seat]
            dj = s[_R_DJ + seat]
            if trait != _NONE and (seat >= seats or trait >= _NTRAITS):
                return False
            if dj != _NONE and (trait != _DAVY_JONES or dj >= seats or dj == seat):
                return False
        piles = [0, 0, 0]
        for i in range(2 * _NCODES):
            loc = s[_LOC + i]
            if i >= _NCODES * decks:
                if loc:
                    return False
            elif loc <= _PLAY:
                piles[loc] += 1
            elif not _BANK <= loc < _BANK + seats:
                return False
            if decks == 2 and i < _NCODES and loc > s[_LOC + i + _NCODES]:
                return False
        if piles[_DRAW] != s[_R_DRAW_N] or piles[_DISCARD] != s[_R_DISCARD_N] or piles[_PLAY] != s[_R_PLAY_N]:
            return False
        for i in range(_SUITS):
            card = s[_R_PLAY + i]
            if i >= s[_R_PLAY_N]:
                if card:
                    return False
                continue
            if card >= _NCODES or not count(s, card, _PLAY):
                return False
            for j in range(i):
                if s[_R_PLAY + j] // _VALUES == card // _VALUES:
                    return False
        for i in range(3):
            card = s[_R_PEEK + i]
            if i >= s[_R_PEEK_N]:
                if card:
                    return False
                continue
            k = 0  # copies seen up to here
            for j in range(_R_PEEK, _R_PEEK + i + 1):
                if s[j] == card:
                    k += 1
            if card >= _NCODES or k > count(s, card, _DRAW):
                return False
        return True

    def public(self, buf):
        """Fill ``buf`` with the state minus what nobody may see: the Oracle's peek queue, and
        which face-down pile (draw or discard) a card is in (the counts stay public)."""
        s = self.s
        for i in range(_STATE_SIZE):
            buf[i] = s[i]
        for i in range(_R_PEEK_N, _R_PEEK + 3):
            buf[i] = 0
        for i in range(_LOC, _STATE_SIZE):
            if buf[i] == _DISCARD:
                buf[i] = _DRAW

    def summary(self):
        """Best score, then most bank cards, wins; still tied: a shared win."""
        s = self.s
        n = s[_R_SEATS]
        over = s[_R_PHASE] == _OVER
        scores = []
        cards = []
        for seat in range(n):  # loops, not comprehensions: each of those is a function held from import
            scores.append(score(s, seat))
            cards.append(bank_size(s, seat))
        best = max(zip(scores, cards)) if over else None
        won = []
        for seat in range(n):
            if (scores[seat], cards[seat]) == best:
                won.append(seat)
        return {
            "game": "deadmans", "players": n, "over": over,
            "winners": won,
            "scores": scores,
            "bank_cards": cards,
        }


GAME = DeadMans
