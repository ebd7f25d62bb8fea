"""Sheriff of Nottingham gestures: cards tapped on the discard pads, bags closed on their docks,
tokens on the command pad -> actions. The gesture table is ``docs/mat-sheriff.md``.

What the mat can know decides the table. Hands are hidden and the discard piles are public, so
the discard pads (12, 14) are tap targets where cards become public: the setup's ten cards, the
set-aside cards a merchant puts on a pile, the cards taken from a pile's top, the cards the
Sheriff confiscates. Piles lie *beside* their pads: a pad under a pile would see dozens of tags
and track five of them at random. A card tapped on a discard pad during a market turn is a
set-aside card if it lay on the merchant's stand pad during the turn ("set aside face down"),
otherwise a take, checked against the pile's top as the rules know it. Draw-pile draws need no
gesture (their number follows from the rules). A bag is inventoried by its dock's reader when its
clasp closes in the load phase. Declarations, pass and inspect are tokens. Lifting a card means
nothing (``firmware.mat.BaseGestures``' answer): for taps and emptied bags a card's arrival counts.

Privacy: a card on a stand pad, a dock, the draw pad or the command pad may be a hidden card, so
such a card is never refused (a refusal frame carries its UID, which the host can name); those
gestures answer NOTHING. Only discard pads, where cards are shown anyway, refuse cards.

The module keeps partial actions (setup cards, one market turn, a declaration, the Sheriff's
decision, the cards being confiscated) in preallocated buffers, stamped with the rules' round,
phase and turn: when the rules move on, the partial state is dropped, so an accepted action
clears it without the module being told. Bag UIDs are stored at clasp time and trusted only while
their codes equal the bag the rules hold (after a reboot, confiscated cards are checked by code).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from array import array

from shared_rules import deck, tokens
from shared_rules import sheriff as k
from shared_rules.engine import OK, NO_SEAT, NOT_NOW, WRONG_PHASE, GAME_OVER, FIRST_GAME_REASON
from firmware.mat import BaseGestures, NOTHING, READY, NO_ZONE

# The base referee's registers, phases and flags (private there: restated, checked by
# tests/test_rules_literals.py).
_PILE_START = const(5)
_MARKET_MAX = const(5)
_BAG_MAX = const(5)
_R_PHASE = const(1)
_OVER = const(5)
_R_ROUND = const(4)
_R_TURN = const(6)
_MARKET = const(1)
_R_SHERIFF = const(2)
_SETUP = const(0)
_INSPECT = const(4)
_R_PILE1 = const(9)
_R_PILE2 = const(10)
_LOAD = const(2)
_LOADED = const(1)
_SKIPPED = const(8)
_KINDS = const(15)
_DECLARE = const(3)
_DONE = const(4)
_PILES = const(241)       # pile 1 grows up from here, pile 2 down from _PILES_END
_PILES_END = const(457)

ZONES = ("stand", "dock", "discard1", "draw", "discard2", "command", "loot")
STAND, DOCK, DISCARD1, DRAW, DISCARD2, COMMAND, LOOT = range(7)
PROMPTS = ("over", "setup", "market", "load", "declare", "decide", "confiscate", "reveal", "loot", "laws")
P_OVER, P_SETUP, P_MARKET, P_LOAD, P_DECLARE, P_DECIDE, P_CONFISCATE, P_REVEAL, P_LOOT, P_LAWS = range(10)
SEATS = 6                    # 3-5 players, 6 with the Merry Men deputies
REVEAL = 6                   # the deputies module's phases (shared_rules.sheriff_mm)
LOOT_PHASE = 7
LAWS_PHASE = 8               # the laws module's phase (shared_rules.sheriff_cards)


def reason(name, reasons=k.Sheriff.REASONS):
    """The reason code of a Sheriff reason name (the rules keep their codes private)."""
    for i in range(len(reasons)):
        if reasons[i] == name:
            return FIRST_GAME_REASON + i
    raise ValueError(name)


BAD_SETUP = reason("bad_setup")
TOO_MANY_CARDS = reason("too_many_cards")
TAKE_TOO_MANY = reason("take_too_many")
BAD_PILE = reason("bad_pile")
EMPTY_PILE = reason("empty_pile")
BAD_ORDER = reason("bad_order")
NOT_A_MERCHANT = reason("not_a_merchant")
NOT_THE_SHERIFF = reason("not_the_sheriff")

V = k.Sheriff.VOCAB
A_SETUP = V.kind("setup")
A_MARKET = V.kind("market")
A_LOAD = V.kind("load")
A_DECLARE = V.kind("declare")
A_PASS = V.kind("pass")
A_INSPECT = V.kind("inspect")
F_PILE1 = V.offset("setup", "pile1")      # lists: count byte, then the codes
F_PILE2 = V.offset("setup", "pile2")
F_DISCARD = V.offset("market", "discard")
F_TAKE = V.offset("market", "take")
F_MARKET_TO = V.offset("market", "to")    # optional fields: presence byte just before
F_CARDS = V.offset("load", "cards")
F_GOOD = V.offset("declare", "good")
F_COUNT = V.offset("declare", "count")
F_PASS_TARGET = V.offset("pass", "target")
F_TARGET = V.offset("inspect", "target")
F_TO = V.offset("inspect", "to")
F_ORDER = V.offset("inspect", "order")
LIST_CAP = 8   # card lists in a record (shared_rules.sheriff _LIST_CAP)

# The rules' per-seat bytes read here (offsets from ``game._at(seat)``; the rules name them
# with private const()s, which MicroPython does not export). dual_mat_sheriff.py checks them.
SEAT_BAG_N = 4
SEAT_BAG = 5
SEAT_DECL = 10

NO_TAG = 0xFFFF
ASIDE = 8                    # set-aside candidates remembered per market turn
PLACED = 2 * _PILE_START    # cards on discard pads: setup 5 + 5, market or confiscation <= 5


def game_modules(game):
    """The Merry Men module bits of a Sheriff game (0 for the base game)."""
    f = getattr(game, "modules", None)
    return f() if f else 0


class Gestures(BaseGestures):
    ZONES = ZONES
    PROMPTS = PROMPTS

    def __init__(self, mat):
        super().__init__(mat)
        self.presence = mat.presence
        self.registry = mat.registry
        seats = SEATS
        # Deputies (Merry Men, 6 players): two deputies share the command pad, so a deputy names
        # themself with their seat token; the merchant who opens the market names themself too.
        mods = game_modules(mat.game)
        self.deputies = mods & 1
        vocab = mat.game.VOCAB
        self.a_deputy = vocab.kind("deputy")
        self.a_loot = vocab.kind("loot")
        self.f_split = vocab.offset("loot", "split") if self.deputies else 0
        self.actor = NO_SEAT
        self.dock_of = bytearray([NO_ZONE] * seats)   # seat -> its dock's reader
        self.stand_of = bytearray([NO_ZONE] * seats)  # seat -> its stand pad
        for sw in range(len(mat.dock_seat)):
            if mat.dock_seat[sw] < seats:
                self.dock_of[mat.dock_seat[sw]] = mat.dock_reader[sw]
        for r in range(len(mat.zone_of)):
            if mat.zone_of[r] == STAND and mat.seat_of[r] < seats:
                self.stand_of[mat.seat_of[r]] = r
        self.uid = bytearray(deck.UID_LEN)
        self.stamp = bytearray(b"\xff\xff\xff")   # round, phase, turn the partial state is for
        # Cards tapped on discard pads: setup, one market turn's set-aside cards, confiscations.
        self.placed_tag = array("H", [NO_TAG] * PLACED)
        self.placed_code = bytearray(PLACED)
        self.placed_pile = bytearray(PLACED)
        self.placed_n = 0
        # One market turn: set-aside candidates (cards on the merchant's stand pad) and takes.
        self.aside = array("H", [NO_TAG] * ASIDE)
        self.aside_n = 0
        self.take_tag = array("H", [NO_TAG] * _MARKET_MAX)
        self.take_pile = bytearray(_MARKET_MAX)
        self.take_n = 0
        # A declaration tapped in either order, and the Sheriff's decision.
        self.good = NO_SEAT
        self.count = 0
        self.target = NO_SEAT
        self.verdict = 0          # tokens.PASS or tokens.INSPECT
        self.need = 0             # cards still to confiscate > 0: waiting for them
        # Bags as read at clasp time (tag ids and codes per seat).
        self.bag_tag = array("H", [NO_TAG] * (seats * _BAG_MAX))
        self.bag_code = bytearray(seats * _BAG_MAX)
        self.bag_n = bytearray(seats)
        self.winners = -1         # seat mask, computed once when the game is over
        self.cards = None         # the module cards' gestures (firmware.mat_sheriff_cards)
        if mods:
            from firmware.mat_sheriff_cards import ModuleCards
            self.cards = ModuleCards(self)

    # -- the rules' state, read without allocating -------------------------------------
    def _rules_bag_n(self, seat):
        return self.game.s[self.game._at(seat) + SEAT_BAG_N]

    def _rules_bag(self, seat, i):
        return self.game.s[self.game._at(seat) + SEAT_BAG + i]

    def _declared(self, seat):
        return self.game.s[self.game._at(seat) + SEAT_DECL]

    def _rules_bag_count(self, seat, code):
        n = 0
        for i in range(self._rules_bag_n(seat)):
            if self._rules_bag(seat, i) == code:
                n += 1
        return n

    def _in_phase(self, phase):
        p = self.game.s[_R_PHASE]
        if p == phase:
            return OK
        return GAME_OVER if p == _OVER else WRONG_PHASE

    # -- partial state -----------------------------------------------------------------
    def _sync(self):
        """Drop partial actions once the rules moved on (round, phase or turn changed); a new
        market turn starts with the cards already lying on the merchant's stand pad."""
        s = self.game.s
        st = self.stamp
        if st[0] == s[_R_ROUND] and st[1] == s[_R_PHASE] and st[2] == s[_R_TURN]:
            return
        st[0] = s[_R_ROUND]
        st[1] = s[_R_PHASE]
        st[2] = s[_R_TURN]
        self.placed_n = 0
        self.aside_n = 0
        self.take_n = 0
        self._clear_decisions()
        if self.cards is not None:
            self.cards.clear()
        turn = s[_R_TURN]
        if s[_R_PHASE] == _MARKET and turn < SEATS and self.presence is not None:
            r = self.stand_of[turn]
            for slot in range(self.presence.slots):
                if self._card_at(r, slot):
                    self._note_aside(self.registry.index)

    def _clear_decisions(self):
        self.good = NO_SEAT
        self.count = 0
        self.target = NO_SEAT
        self.verdict = 0
        self.need = 0
        self.actor = NO_SEAT

    def _merchant(self):
        """Whose market turn it is: the rules' turn, or (deputies, before the market opens) the
        merchant who named themself."""
        t = self.game.s[_R_TURN]
        return self.actor if t == NO_SEAT else t

    def _inspector(self):
        return self.actor if self.deputies else self.game.s[_R_SHERIFF]

    def _settles(self, t, want=2):
        """Whether the inspector's inspect (``want`` 2; a pass: 1) settles the bag now (deputies:
        both agree, or the lone deputy who wanted to open acts); a first stance settles nothing."""
        if not self.deputies:
            return True
        both = self.game._stances(self.actor, t)
        return bool(both >> 2) or both & 3 == want

    def _card_at(self, reader, slot, kind=deck.CARD):
        """Whether a card of this game (a goods card, or ``kind``) lies in a presence slot of a
        reader (the registry then describes it)."""
        reg = self.registry
        return (reader != NO_ZONE and self.presence.copy_uid(reader, slot, self.uid) and reg.lookup(self.uid)
                and reg.game == self.mat.game_id and reg.kind == kind)

    def _note_aside(self, tag):
        for i in range(self.aside_n):
            if self.aside[i] == tag:
                return
        for i in range(self.take_n):
            if self.take_tag[i] == tag:
                return   # a card taken from a pile this turn cannot be set aside any more
        if self.aside_n < ASIDE:
            self.aside[self.aside_n] = tag
            self.aside_n += 1

    def _placed(self, tag):
        for i in range(self.placed_n):
            if self.placed_tag[i] == tag:
                return True
        return False

    def _place(self, tag, code, pile):
        n = self.placed_n
        self.placed_tag[n] = tag
        self.placed_code[n] = code
        self.placed_pile[n] = pile
        self.placed_n = n + 1

    # -- gestures -----------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        kind = tag.kind
        code = tag.code
        index = tag.index
        self._sync()
        if kind == deck.MODULE and self.cards is not None:
            return self.cards.arrive(zone, seat, code)
        if kind != deck.CARD:
            return NOT_NOW   # a token on a card pad; a module card in a base game
        if zone == DISCARD1 or zone == DISCARD2:
            return self._on_pile(1 if zone == DISCARD1 else 2, index, code)
        s = self.game.s
        if zone == STAND and s[_R_PHASE] == _MARKET and seat == self._merchant():
            self._note_aside(index)
        return NOTHING   # possibly a hidden card: never signalled

    def _on_pile(self, pile, tag, code):
        phase = self.game.s[_R_PHASE]
        if phase == _SETUP:
            return self._setup_card(pile, tag, code)
        if phase == _MARKET:
            return self._market_card(pile, tag, code)
        if phase == _INSPECT and self._confiscating():
            return self._confiscate(pile, tag, code)
        return NOT_NOW

    def _setup_card(self, pile, tag, code):
        if self._placed(tag):
            return NOTHING   # tapped twice
        n = 0
        for i in range(self.placed_n):
            if self.placed_pile[i] == pile:
                n += 1
        if n >= _PILE_START:
            return BAD_SETUP
        self._place(tag, code, pile)
        if self.placed_n < 2 * _PILE_START:
            return NOTHING
        rec = self.mat.start(A_SETUP, self.game.s[_R_SHERIFF])
        rec[F_PILE1] = _PILE_START
        rec[F_PILE2] = _PILE_START
        n1 = 0
        n2 = 0
        for i in range(self.placed_n):
            if self.placed_pile[i] == 1:
                n1 += 1
                rec[F_PILE1 + n1] = self.placed_code[i]
            else:
                n2 += 1
                rec[F_PILE2 + n2] = self.placed_code[i]
        self.placed_n = 0   # refused: the ten cards are tapped again
        return READY

    def _market_card(self, pile, tag, code):
        if self._placed(tag):
            return NOTHING
        for i in range(self.take_n):
            if self.take_tag[i] == tag:
                return NOTHING   # a taken card tapped again
        for i in range(self.aside_n):
            if self.aside[i] == tag:
                if self.placed_n and self.placed_pile[0] != pile:
                    return BAD_PILE   # the set-aside cards go onto one pile
                if self.placed_n >= _MARKET_MAX:
                    return TOO_MANY_CARDS
                self._place(tag, code, pile)
                return NOTHING
        # Not set aside: a card taken from the top of this pile.
        n = self.take_n
        if n >= self.aside_n or n >= _MARKET_MAX:
            return TAKE_TOO_MANY   # set cards aside first: draws never outnumber them
        state = self.game.s
        left = state[_R_PILE1 if pile == 1 else _R_PILE2]
        for i in range(n):
            if self.take_pile[i] == pile:
                left -= 1
        if left <= 0:
            return EMPTY_PILE
        if state[_PILES + left - 1 if pile == 1 else _PILES_END - left] != code:
            return NOT_NOW   # not the card on top of that pile
        self.take_tag[n] = tag
        self.take_pile[n] = pile
        self.take_n = n + 1
        return NOTHING

    def _market(self):
        """``confirm``: the market turn as tapped so far (kept if the rules refuse it)."""
        if self._merchant() == NO_SEAT:
            return NOT_NOW   # deputies: the opening merchant taps their seat token first
        rec = self.mat.start(A_MARKET, self._merchant())
        n = self.placed_n
        rec[F_DISCARD] = n
        for i in range(n):
            rec[F_DISCARD + 1 + i] = self.placed_code[i]
        rec[F_TAKE] = self.take_n
        for i in range(self.take_n):
            rec[F_TAKE + 1 + i] = self.take_pile[i]
        if n:
            rec[F_MARKET_TO - 1] = 1
            rec[F_MARKET_TO] = self.placed_pile[0]
        return READY

    def switch(self, seat, closed):
        """A clasp closing in the load phase is that merchant's ``load``; a bag re-docked
        unchanged, an empty bag, any clasp opening mean nothing."""
        self._sync()
        g = self.game
        phase = g.s[_R_PHASE]
        if not closed or self.presence is None or (phase != _LOAD and phase != _MARKET):
            return NOTHING
        rec = self.mat.start(A_LOAD, seat)
        reader = self.dock_of[seat]
        done = g.flags(seat) & (_LOADED | _SKIPPED) or not g._is_merchant(seat)
        at = seat * _BAG_MAX
        n = 0
        same = True   # the dock holds what the rules hold in the bag
        for slot in range(self.presence.slots):
            if self._card_at(reader, slot):
                code = self.registry.code
                if n < LIST_CAP:
                    rec[F_CARDS + 1 + n] = code
                if n < _BAG_MAX and not done:
                    self.bag_tag[at + n] = self.registry.index
                    self.bag_code[at + n] = code
                n += 1
        rec[F_CARDS] = n if n < LIST_CAP else LIST_CAP
        if self.cards is not None:
            self.cards.fill_load(rec, reader)   # a Merry Man in the bag: the hidden flag
        if not done:
            self.bag_n[seat] = n if n <= _BAG_MAX else 0
        if not n:
            return READY if phase == _LOAD and not done else NOTHING
        if phase == _LOAD and done and n == self._rules_bag_n(seat):
            for code in range(_KINDS):
                if self._rules_bag_count(seat, code) != self._list_count(rec, F_CARDS, code):
                    same = False
            if same:
                return NOTHING
        return READY   # the rules decide: wrong_phase, already_loaded, bag_size, not_in_hand ...

    @staticmethod
    def _list_count(rec, at, code):
        n = 0
        for i in range(rec[at]):
            if rec[at + 1 + i] == code:
                n += 1
        return n

    def number_max(self):
        return _BAG_MAX if self.game.s[_R_PHASE] == _DECLARE else 0

    def number(self, n):
        self._sync()
        self.count = n
        return self._declare()

    def _declare(self):
        if self.good == NO_SEAT or not self.count:
            return NOTHING   # the other half of the declaration is still to come
        rec = self.mat.start(A_DECLARE, self.game.s[_R_TURN])
        rec[F_GOOD] = self.good
        rec[F_COUNT] = self.count
        self.good = NO_SEAT
        self.count = 0
        return READY

    def cancel(self):
        """Drop a half-tapped declaration or verdict; an inspection waiting for its confiscated
        cards is binding (the wait shows the bag lies), so it cannot be cancelled."""
        self._sync()
        if self._confiscating():
            return NOT_NOW
        self._clear_decisions()
        return NOTHING

    def token(self, t):
        self._sync()
        s = self.game.s
        if self.deputies:
            err = self._deputy_token(t)
            if err != NOT_NOW:
                return err
        good = tokens.declared(t)
        if good >= 0:
            err = self._in_phase(_DECLARE)
            if err:
                return err
            self.good = good
            return self._declare()
        if t == tokens.CONFIRM:
            return self._market() if s[_R_PHASE] == _MARKET else NOT_NOW
        target = tokens.seat(t)
        if target < 0 and t != tokens.PASS and t != tokens.INSPECT:
            return NOT_NOW
        err = self._in_phase(_INSPECT)
        if err:
            return err
        if self._confiscating():
            return NOT_NOW   # an inspection is binding: the bag is open
        if target >= 0 and self.deputies and not self.game._is_merchant(target):
            self.actor = target   # a deputy names themself
        elif target >= 0:
            self.target = target
        else:
            self.verdict = t
        return self._decide()

    def _deputy_token(self, t):
        """Deputies: a seat token in the reveal phase reveals that seat's deputy card; before the
        market opens it names the opening merchant; in the laws phase the deputy who logs the
        laws; ``confirm`` in the loot phase discards the chest's odd remainder (an agreed split
        is a host action). NOT_NOW: not one of these."""
        s = self.game.s
        phase = s[_R_PHASE]
        seat = tokens.seat(t)
        if phase == REVEAL and seat >= 0:
            self.mat.start(self.a_deputy, seat)
            return READY
        if phase == _MARKET and seat >= 0 and s[_R_TURN] == NO_SEAT:
            if seat >= self.game.seats():
                return NOT_NOW
            if not self.game._is_merchant(seat):
                return NOT_A_MERCHANT
            self.actor = seat
            return NOTHING
        if phase == LAWS_PHASE and seat >= 0:
            if not self.game._is_merchant(seat) and seat < self.game.seats():
                self.actor = seat   # the deputy who logs the laws both chose
                return NOTHING
            return NOT_THE_SHERIFF
        if phase == LOOT_PHASE and t == tokens.CONFIRM:
            rec = self.mat.start(self.a_loot, s[_R_SHERIFF])
            rec[self.f_split] = 1   # discard
            return READY
        return NOT_NOW

    def _decide(self):
        """A merchant named and a verdict tapped: ``pass`` at once; ``inspect`` at once for an
        honest bag or a target the rules refuse, else once the confiscated cards are tapped. An
        inspection waiting for its cards is binding: the wait shows that the bag lies, so letting
        the Sheriff take it back would let them probe bags before a bribe."""
        if self.target == NO_SEAT or not self.verdict or self._inspector() == NO_SEAT:
            return NOTHING
        g = self.game
        t = self.target
        if self.verdict == tokens.PASS:
            rec = self.mat.start(A_PASS, self._inspector())
            rec[F_PASS_TARGET] = t
            if self.cards is not None:   # special orders tapped for this bag
                self.cards.fill_pass(rec, t, self._settles(t, 1))
            self._clear_decisions()
            return READY
        rec = self.mat.start(A_INSPECT, self._inspector())
        rec[F_TARGET] = t
        if g.check(rec) != OK or not self._settles(t):
            self._clear_decisions()
            return READY   # the rules say why (bad_target, ...), or a deputy's stance only
        if self.cards is not None:
            self.cards.opening(t)   # the bag is opened: its order claims lapse
        need = self._rules_bag_n(t) - self._rules_bag_count(t, self._declared(t))
        if not need:
            self._clear_decisions()
            return READY
        self.need = need
        self.placed_n = 0
        return NOTHING

    def _deputy_mask(self):
        s = self.game.s
        return (1 << s[_R_SHERIFF]) | (1 << s[12])   # sheriff_mm.R_DEPUTY2

    def _confiscating(self):
        """Whether the Sheriff's inspection waits for confiscated cards (not once the host
        resolved that bag some other way)."""
        if self.need and self.game.flags(self.target) & _DONE:
            self._clear_decisions()
        return self.need > 0

    def _bag_known(self, seat):
        """Whether the UIDs read at clasp time are the bag the rules hold."""
        n = self.bag_n[seat]
        if n != self._rules_bag_n(seat):
            return False
        for i in range(n):
            if self.bag_code[seat * _BAG_MAX + i] != self._rules_bag(seat, i):
                return False
        return True

    def _confiscate(self, pile, tag, code):
        if self._placed(tag):
            return NOTHING
        if self.placed_n and self.placed_pile[0] != pile:
            return BAD_PILE   # confiscated cards go onto one pile
        t = self.target
        if code == self._declared(t):
            return BAD_ORDER  # a truthfully declared card goes to the stand
        if self._bag_known(t):
            found = False
            for i in range(self.bag_n[t]):
                if self.bag_tag[t * _BAG_MAX + i] == tag:
                    found = True
            if not found:
                return BAD_ORDER   # not a card of that bag
        else:
            placed = 0
            for i in range(self.placed_n):
                if self.placed_code[i] == code:
                    placed += 1
            if placed >= self._rules_bag_count(t, code):
                return BAD_ORDER
        self._place(tag, code, pile)
        if self.placed_n < self.need:
            return NOTHING
        rec = self.mat.start(A_INSPECT, self._inspector())
        rec[F_TARGET] = t
        rec[F_TO - 1] = 1
        rec[F_TO] = pile
        rec[F_ORDER - 1] = 1
        rec[F_ORDER] = self.placed_n
        for i in range(self.placed_n):
            rec[F_ORDER + 1 + i] = self.placed_code[i]
        self._clear_decisions()
        self.placed_n = 0
        return READY

    # -- what the mat waits for ----------------------------------------------------------
    def prompt(self):
        self._sync()
        g = self.game
        s = g.s
        mat = self.mat
        phase = s[_R_PHASE]
        if phase == _OVER:
            if self.winners < 0:
                from shared_rules import sheriff_score   # once, at the end: allocates
                mask = 0
                for seat in sheriff_score.winners(g):
                    mask |= 1 << seat
                self.winners = mask
            mat.wait_seats = self.winners
            mat.wait_zone = NO_ZONE
            return P_OVER
        self.winners = -1
        if phase == _SETUP:
            n1 = 0
            for i in range(self.placed_n):
                if self.placed_pile[i] == 1:
                    n1 += 1
            mat.wait_seats = (1 << g.seats()) - 1
            mat.wait_zone = DISCARD1 if n1 < _PILE_START else DISCARD2
            return P_SETUP
        if phase == LAWS_PHASE:
            mat.wait_seats = self._deputy_mask() if self.deputies else 1 << s[_R_SHERIFF]
            mat.wait_zone = COMMAND
            return P_LAWS
        if phase == REVEAL or phase == LOOT_PHASE:
            mat.wait_seats = (1 << g.seats()) - 1 if phase == REVEAL else self._deputy_mask()
            mat.wait_zone = COMMAND
            return P_REVEAL if phase == REVEAL else P_LOOT
        if phase == _MARKET:
            turn = self._merchant()
            if turn == NO_SEAT:
                mask = 0
                for seat in range(g.seats()):
                    if g._is_merchant(seat):
                        mask |= 1 << seat
                mat.wait_seats = mask
            else:
                mat.wait_seats = 1 << turn
            mat.wait_zone = STAND
            return P_MARKET
        if phase == _LOAD:
            mask = 0
            for seat in range(g.seats()):
                if g._is_merchant(seat) and not g.flags(seat) & (_LOADED | _SKIPPED):
                    mask |= 1 << seat
            mat.wait_seats = mask
            mat.wait_zone = DOCK
            return P_LOAD
        if phase == _DECLARE:
            mat.wait_seats = 1 << s[_R_TURN]
            mat.wait_zone = COMMAND
            return P_DECLARE
        mat.wait_seats = self._deputy_mask() if self.deputies else 1 << s[_R_SHERIFF]
        if self._confiscating():
            mat.wait_zone = DISCARD2 if self.placed_n and self.placed_pile[0] == 2 else DISCARD1
            return P_CONFISCATE
        mat.wait_zone = COMMAND
        return P_DECIDE
