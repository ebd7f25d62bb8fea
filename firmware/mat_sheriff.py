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
from firmware.mat import BaseGestures

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
_FLAGS = const(3)         # a seat's flags byte
_PILES = const(241)       # pile 1 grows up from here, pile 2 down from _PILES_END
_PILES_END = const(457)

# Zones (``Gestures.ZONES``) and prompts (``Gestures.PROMPTS``) by index.
_Z_STAND = const(0)
_Z_DOCK = const(1)
_Z_DISCARD1 = const(2)
_Z_DRAW = const(3)
_Z_DISCARD2 = const(4)
_Z_COMMAND = const(5)
_Z_LOOT = const(6)
_P_OVER = const(0)
_P_SETUP = const(1)
_P_MARKET = const(2)
_P_LOAD = const(3)
_P_DECLARE = const(4)
_P_DECIDE = const(5)
_P_CONFISCATE = const(6)
_P_REVEAL = const(7)
_P_LOOT = const(8)
_P_LAWS = const(9)
_SEATS = const(6)             # 3-5 players, 6 with the Merry Men deputies
_REVEAL = const(6)            # the deputies module's phases (shared_rules.sheriff_mm)
_LOOT_PHASE = const(7)
_LAWS_PHASE = const(8)        # the laws module's phase (shared_rules.sheriff_cards)

# The rules' reasons, action kinds, record offsets and per-seat bytes this module reads or
# writes, and the engine's and mat's codes: the same names as there (tests/test_rules_literals.py).
_BAD_SETUP = const(19)
_TOO_MANY_CARDS = const(22)
_TAKE_TOO_MANY = const(23)
_BAD_PILE = const(24)
_EMPTY_PILE = const(26)
_BAD_ORDER = const(35)
_NOT_A_MERCHANT = const(20)
_NOT_THE_SHERIFF = const(21)
_A_SETUP = const(0)
_A_MARKET = const(1)
_A_LOAD = const(2)
_A_DECLARE = const(3)
_A_PASS = const(4)
_A_INSPECT = const(5)
_A_DEPUTY = const(6)          # sheriff_mm's actions and the loot split's offset
_A_LOOT = const(7)
_F_LOOT_SPLIT = const(21)
_F_PILE1 = const(2)
_F_PILE2 = const(11)
_F_DISCARD = const(2)
_F_TAKE = const(11)
_F_ITO = const(4)
_F_TO = const(21)
_F_CARDS = const(2)
_F_GOOD = const(2)
_F_COUNT = const(3)
_F_TARGET = const(2)
_F_ORDER = const(6)
_LIST_CAP = const(8)
_BAG_N = const(4)
_BAG = const(5)
_DECL_GOOD = const(10)

_NO_TAG = const(0xFFFF)
_NO_TAGS = const(b"\xff\xff")  # one _NO_TAG as array("H") bytes: the arrays are made from bytes, not lists
_NO_ZONES = const(b"\xff\xff\xff\xff\xff\xff")  # _SEATS times _NO_ZONE
_ASIDE = const(8)             # set-aside candidates remembered per market turn
_PLACED = const(10)           # cards on discard pads: setup 5 + 5, market or confiscation <= 5

_OK = const(0)
_NO_SEAT = const(255)
_NOT_NOW = const(11)
_WRONG_PHASE = const(5)
_GAME_OVER = const(4)
_NOTHING = const(0)
_READY = const(1)
_NO_ZONE = const(255)


class Gestures(BaseGestures):
    ZONES = ("stand", "dock", "discard1", "draw", "discard2", "command", "loot")
    PROMPTS = ("over", "setup", "market", "load", "declare", "decide", "confiscate", "reveal", "loot", "laws")

    def __init__(self, mat):
        super().__init__(mat)
        self.presence = mat.presence
        self.registry = mat.registry
        seats = _SEATS
        # Deputies (Merry Men, 6 players): two deputies share the command pad, so a deputy names
        # themself with their seat token; the merchant who opens the market names themself too.
        modules = getattr(mat.game, "modules", None)   # Merry Men module bits (0: the base game)
        mods = modules() if modules else 0
        self.deputies = mods & 1
        self.actor = _NO_SEAT
        self.dock_of = bytearray(_NO_ZONES)   # seat -> its dock's reader
        self.stand_of = bytearray(_NO_ZONES)  # seat -> its stand pad
        for sw in range(len(mat.dock_seat)):
            if mat.dock_seat[sw] < seats:
                self.dock_of[mat.dock_seat[sw]] = mat.dock_reader[sw]
        for r in range(len(mat.zone_of)):
            if mat.zone_of[r] == _Z_STAND and mat.seat_of[r] < seats:
                self.stand_of[mat.seat_of[r]] = r
        self.uid = bytearray(deck.UID_LEN)
        self.stamp = bytearray(b"\xff\xff\xff")   # round, phase, turn the partial state is for
        # Cards tapped on discard pads: setup, one market turn's set-aside cards, confiscations.
        self.placed_tag = array("H", _NO_TAGS * _PLACED)
        self.placed_code = bytearray(_PLACED)
        self.placed_pile = bytearray(_PLACED)
        self.placed_n = 0
        # One market turn: set-aside candidates (cards on the merchant's stand pad) and takes.
        self.aside = array("H", _NO_TAGS * _ASIDE)
        self.aside_n = 0
        self.take_tag = array("H", _NO_TAGS * _MARKET_MAX)
        self.take_pile = bytearray(_MARKET_MAX)
        self.take_n = 0
        # A declaration tapped in either order, and the Sheriff's decision.
        self.good = _NO_SEAT
        self.count = 0
        self.target = _NO_SEAT
        self.verdict = 0          # tokens.PASS or tokens.INSPECT
        self.need = 0             # cards still to confiscate > 0: waiting for them
        # Bags as read at clasp time (tag ids and codes per seat).
        self.bag_tag = array("H", _NO_TAGS * (seats * _BAG_MAX))
        self.bag_code = bytearray(seats * _BAG_MAX)
        self.bag_n = bytearray(seats)
        self.winners = -1         # seat mask, computed once when the game is over
        self.cards = None         # the module cards' gestures (firmware.mat_sheriff_cards)
        if mods:
            from firmware.mat_sheriff_cards import ModuleCards
            self.cards = ModuleCards(self)

    # -- the rules' state, read without allocating -------------------------------------
    def _rules_bag_count(self, seat, code):
        """Copies of ``code`` in the bag the rules hold for ``seat``."""
        s = self.game.s
        at = self.game._at(seat)
        n = 0
        for i in range(s[at + _BAG_N]):
            if s[at + _BAG + i] == code:
                n += 1
        return n

    def _in_phase(self, phase):
        p = self.game.s[_R_PHASE]
        if p == phase:
            return _OK
        return _GAME_OVER if p == _OVER else _WRONG_PHASE

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
        if s[_R_PHASE] == _MARKET and turn < _SEATS and self.presence is not None:
            r = self.stand_of[turn]
            for slot in range(self.presence.slots):
                if self._card_at(r, slot):
                    self._note_aside(self.registry.index)

    def _clear_decisions(self):
        self.good = _NO_SEAT
        self.count = 0
        self.target = _NO_SEAT
        self.verdict = 0
        self.need = 0
        self.actor = _NO_SEAT

    def _merchant(self):
        """Whose market turn it is: the rules' turn, or (deputies, before the market opens) the
        merchant who named themself."""
        t = self.game.s[_R_TURN]
        return self.actor if t == _NO_SEAT else t

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
        return (reader != _NO_ZONE and self.presence.copy_uid(reader, slot, self.uid) and reg.lookup(self.uid)
                and reg.game == deck.game_id(self.game.NAME) and reg.kind == kind)

    def _note_aside(self, tag):
        for i in range(self.aside_n):
            if self.aside[i] == tag:
                return
        for i in range(self.take_n):
            if self.take_tag[i] == tag:
                return   # a card taken from a pile this turn cannot be set aside any more
        if self.aside_n < _ASIDE:
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
            return _NOT_NOW   # a token on a card pad; a module card in a base game
        if zone == _Z_DISCARD1 or zone == _Z_DISCARD2:
            pile = 1 if zone == _Z_DISCARD1 else 2
            phase = self.game.s[_R_PHASE]
            if phase == _SETUP:   # the ten cards of the two discard piles, five each
                if self._placed(index):
                    return _NOTHING   # tapped twice
                n = 0
                for i in range(self.placed_n):
                    if self.placed_pile[i] == pile:
                        n += 1
                if n >= _PILE_START:
                    return _BAD_SETUP
                self._place(index, code, pile)
                if self.placed_n < 2 * _PILE_START:
                    return _NOTHING
                rec = self.mat.start(_A_SETUP, self.game.s[_R_SHERIFF])
                rec[_F_PILE1] = _PILE_START
                rec[_F_PILE2] = _PILE_START
                n1 = 0
                n2 = 0
                for i in range(self.placed_n):
                    if self.placed_pile[i] == 1:
                        n1 += 1
                        rec[_F_PILE1 + n1] = self.placed_code[i]
                    else:
                        n2 += 1
                        rec[_F_PILE2 + n2] = self.placed_code[i]
                self.placed_n = 0   # refused: the ten cards are tapped again
                return _READY
            if phase == _MARKET:
                return self._market_card(pile, index, code)
            if phase == _INSPECT and self._confiscating():
                return self._confiscate(pile, index, code)
            return _NOT_NOW
        s = self.game.s
        if zone == _Z_STAND and s[_R_PHASE] == _MARKET and seat == self._merchant():
            self._note_aside(index)
        return _NOTHING   # possibly a hidden card: never signalled

    def _market_card(self, pile, tag, code):
        if self._placed(tag):
            return _NOTHING
        for i in range(self.take_n):
            if self.take_tag[i] == tag:
                return _NOTHING   # a taken card tapped again
        for i in range(self.aside_n):
            if self.aside[i] == tag:
                if self.placed_n and self.placed_pile[0] != pile:
                    return _BAD_PILE   # the set-aside cards go onto one pile
                if self.placed_n >= _MARKET_MAX:
                    return _TOO_MANY_CARDS
                self._place(tag, code, pile)
                return _NOTHING
        # Not set aside: a card taken from the top of this pile.
        n = self.take_n
        if n >= self.aside_n or n >= _MARKET_MAX:
            return _TAKE_TOO_MANY   # set cards aside first: draws never outnumber them
        state = self.game.s
        left = state[_R_PILE1 if pile == 1 else _R_PILE2]
        for i in range(n):
            if self.take_pile[i] == pile:
                left -= 1
        if left <= 0:
            return _EMPTY_PILE
        if state[_PILES + left - 1 if pile == 1 else _PILES_END - left] != code:
            return _NOT_NOW   # not the card on top of that pile
        self.take_tag[n] = tag
        self.take_pile[n] = pile
        self.take_n = n + 1
        return _NOTHING

    def switch(self, seat, closed):
        """A clasp closing in the load phase is that merchant's ``load``; a bag re-docked
        unchanged, an empty bag, any clasp opening mean nothing."""
        self._sync()
        g = self.game
        phase = g.s[_R_PHASE]
        if not closed or self.presence is None or (phase != _LOAD and phase != _MARKET):
            return _NOTHING
        rec = self.mat.start(_A_LOAD, seat)
        reader = self.dock_of[seat]
        done = g.s[g._at(seat) + _FLAGS] & (_LOADED | _SKIPPED) or not g._is_merchant(seat)
        at = seat * _BAG_MAX
        n = 0
        same = True   # the dock holds what the rules hold in the bag
        for slot in range(self.presence.slots):
            if self._card_at(reader, slot):
                code = self.registry.code
                if n < _LIST_CAP:
                    rec[_F_CARDS + 1 + n] = code
                if n < _BAG_MAX and not done:
                    self.bag_tag[at + n] = self.registry.index
                    self.bag_code[at + n] = code
                n += 1
        rec[_F_CARDS] = n if n < _LIST_CAP else _LIST_CAP
        if self.cards is not None:
            self.cards.fill_load(rec, reader)   # a Merry Man in the bag: the hidden flag
        if not done:
            self.bag_n[seat] = n if n <= _BAG_MAX else 0
        if not n:
            return _READY if phase == _LOAD and not done else _NOTHING
        if phase == _LOAD and done and n == g.s[g._at(seat) + _BAG_N]:
            for code in range(_KINDS):
                tapped = 0
                for i in range(rec[_F_CARDS]):
                    if rec[_F_CARDS + 1 + i] == code:
                        tapped += 1
                if self._rules_bag_count(seat, code) != tapped:
                    same = False
            if same:
                return _NOTHING
        return _READY   # the rules decide: wrong_phase, already_loaded, bag_size, not_in_hand ...

    def number_max(self):
        return _BAG_MAX if self.game.s[_R_PHASE] == _DECLARE else 0

    def number(self, n):
        self._sync()
        self.count = n
        return self._declare()

    def _declare(self):
        if self.good == _NO_SEAT or not self.count:
            return _NOTHING   # the other half of the declaration is still to come
        rec = self.mat.start(_A_DECLARE, self.game.s[_R_TURN])
        rec[_F_GOOD] = self.good
        rec[_F_COUNT] = self.count
        self.good = _NO_SEAT
        self.count = 0
        return _READY

    def cancel(self):
        """Drop a half-tapped declaration or verdict; an inspection waiting for its confiscated
        cards is binding (the wait shows the bag lies), so it cannot be cancelled."""
        self._sync()
        if self._confiscating():
            return _NOT_NOW
        self._clear_decisions()
        return _NOTHING

    def token(self, t):
        self._sync()
        s = self.game.s
        if self.deputies:
            # Deputies: a seat token in the reveal phase reveals that seat's deputy card; before
            # the market opens it names the opening merchant; in the laws phase the deputy who
            # logs the laws; ``confirm`` in the loot phase discards the chest's odd remainder (an
            # agreed split is a host action). Anything else goes on as in the base game.
            phase = s[_R_PHASE]
            seat = tokens.seat(t)
            if phase == _REVEAL and seat >= 0:
                self.mat.start(_A_DEPUTY, seat)
                return _READY
            if phase == _MARKET and seat >= 0 and s[_R_TURN] == _NO_SEAT and seat < self.game.seats():
                if not self.game._is_merchant(seat):
                    return _NOT_A_MERCHANT
                self.actor = seat
                return _NOTHING
            if phase == _LAWS_PHASE and seat >= 0:
                if not self.game._is_merchant(seat) and seat < self.game.seats():
                    self.actor = seat   # the deputy who logs the laws both chose
                    return _NOTHING
                return _NOT_THE_SHERIFF
            if phase == _LOOT_PHASE and t == tokens.CONFIRM:
                rec = self.mat.start(_A_LOOT, s[_R_SHERIFF])
                rec[_F_LOOT_SPLIT] = 1   # discard
                return _READY
        good = tokens.declared(t)
        if good >= 0:
            err = self._in_phase(_DECLARE)
            if err:
                return err
            self.good = good
            return self._declare()
        if t == tokens.CONFIRM:
            # The market turn as tapped so far (kept if the rules refuse it); deputies: the
            # opening merchant taps their seat token first.
            if s[_R_PHASE] != _MARKET or self._merchant() == _NO_SEAT:
                return _NOT_NOW
            rec = self.mat.start(_A_MARKET, self._merchant())
            n = self.placed_n
            rec[_F_DISCARD] = n
            for i in range(n):
                rec[_F_DISCARD + 1 + i] = self.placed_code[i]
            rec[_F_TAKE] = self.take_n
            for i in range(self.take_n):
                rec[_F_TAKE + 1 + i] = self.take_pile[i]
            if n:
                rec[_F_TO - 1] = 1
                rec[_F_TO] = self.placed_pile[0]
            return _READY
        target = tokens.seat(t)
        if target < 0 and t != tokens.PASS and t != tokens.INSPECT:
            return _NOT_NOW
        err = self._in_phase(_INSPECT)
        if err:
            return err
        if self._confiscating():
            return _NOT_NOW   # an inspection is binding: the bag is open
        if target >= 0 and self.deputies and not self.game._is_merchant(target):
            self.actor = target   # a deputy names themself
        elif target >= 0:
            self.target = target
        else:
            self.verdict = t
        return self._decide()

    def _decide(self):
        """A merchant named and a verdict tapped: ``pass`` at once; ``inspect`` at once for an
        honest bag or a target the rules refuse, else once the confiscated cards are tapped. An
        inspection waiting for its cards is binding: the wait shows that the bag lies, so letting
        the Sheriff take it back would let them probe bags before a bribe."""
        if self.target == _NO_SEAT or not self.verdict or self._inspector() == _NO_SEAT:
            return _NOTHING
        g = self.game
        t = self.target
        if self.verdict == tokens.PASS:
            rec = self.mat.start(_A_PASS, self._inspector())
            rec[_F_TARGET] = t
            if self.cards is not None:   # special orders tapped for this bag
                self.cards.fill_pass(rec, t, self._settles(t, 1))
            self._clear_decisions()
            return _READY
        rec = self.mat.start(_A_INSPECT, self._inspector())
        rec[_F_TARGET] = t
        if g.check(rec) != _OK or not self._settles(t):
            self._clear_decisions()
            return _READY   # the rules say why (bad_target, ...), or a deputy's stance only
        if self.cards is not None:
            self.cards.opening(t)   # the bag is opened: its order claims lapse
        need = g.s[g._at(t) + _BAG_N] - self._rules_bag_count(t, g.s[g._at(t) + _DECL_GOOD])
        if not need:
            self._clear_decisions()
            return _READY
        self.need = need
        self.placed_n = 0
        return _NOTHING

    def _deputy_mask(self):
        s = self.game.s
        return (1 << s[_R_SHERIFF]) | (1 << s[12])   # sheriff_mm.R_DEPUTY2

    def _confiscating(self):
        """Whether the Sheriff's inspection waits for confiscated cards (not once the host
        resolved that bag some other way)."""
        if self.need and self.game.s[self.game._at(self.target) + _FLAGS] & _DONE:
            self._clear_decisions()
        return self.need > 0

    def _confiscate(self, pile, tag, code):
        if self._placed(tag):
            return _NOTHING
        if self.placed_n and self.placed_pile[0] != pile:
            return _BAD_PILE   # confiscated cards go onto one pile
        t = self.target
        s = self.game.s
        at = self.game._at(t)
        if code == s[at + _DECL_GOOD]:
            return _BAD_ORDER  # a truthfully declared card goes to the stand
        # Whether the UIDs read at clasp time are the bag the rules hold.
        known = self.bag_n[t] == s[at + _BAG_N]
        for i in range(self.bag_n[t] if known else 0):
            if self.bag_code[t * _BAG_MAX + i] != s[at + _BAG + i]:
                known = False
        if known:
            found = False
            for i in range(self.bag_n[t]):
                if self.bag_tag[t * _BAG_MAX + i] == tag:
                    found = True
            if not found:
                return _BAD_ORDER   # not a card of that bag
        else:
            placed = 0
            for i in range(self.placed_n):
                if self.placed_code[i] == code:
                    placed += 1
            if placed >= self._rules_bag_count(t, code):
                return _BAD_ORDER
        self._place(tag, code, pile)
        if self.placed_n < self.need:
            return _NOTHING
        rec = self.mat.start(_A_INSPECT, self._inspector())
        rec[_F_TARGET] = t
        rec[_F_ITO - 1] = 1
        rec[_F_ITO] = pile
        rec[_F_ORDER - 1] = 1
        rec[_F_ORDER] = self.placed_n
        for i in range(self.placed_n):
            rec[_F_ORDER + 1 + i] = self.placed_code[i]
        self._clear_decisions()
        self.placed_n = 0
        return _READY

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
            mat.wait_zone = _NO_ZONE
            return _P_OVER
        self.winners = -1
        if phase == _SETUP:
            n1 = 0
            for i in range(self.placed_n):
                if self.placed_pile[i] == 1:
                    n1 += 1
            mat.wait_seats = (1 << g.seats()) - 1
            mat.wait_zone = _Z_DISCARD1 if n1 < _PILE_START else _Z_DISCARD2
            return _P_SETUP
        if phase == _LAWS_PHASE:
            mat.wait_seats = self._deputy_mask() if self.deputies else 1 << s[_R_SHERIFF]
            mat.wait_zone = _Z_COMMAND
            return _P_LAWS
        if phase == _REVEAL or phase == _LOOT_PHASE:
            mat.wait_seats = (1 << g.seats()) - 1 if phase == _REVEAL else self._deputy_mask()
            mat.wait_zone = _Z_COMMAND
            return _P_REVEAL if phase == _REVEAL else _P_LOOT
        if phase == _MARKET:
            turn = self._merchant()
            if turn == _NO_SEAT:
                mask = 0
                for seat in range(g.seats()):
                    if g._is_merchant(seat):
                        mask |= 1 << seat
                mat.wait_seats = mask
            else:
                mat.wait_seats = 1 << turn
            mat.wait_zone = _Z_STAND
            return _P_MARKET
        if phase == _LOAD:
            mask = 0
            for seat in range(g.seats()):
                if g._is_merchant(seat) and not g.s[g._at(seat) + _FLAGS] & (_LOADED | _SKIPPED):
                    mask |= 1 << seat
            mat.wait_seats = mask
            mat.wait_zone = _Z_DOCK
            return _P_LOAD
        if phase == _DECLARE:
            mat.wait_seats = 1 << s[_R_TURN]
            mat.wait_zone = _Z_COMMAND
            return _P_DECLARE
        mat.wait_seats = self._deputy_mask() if self.deputies else 1 << s[_R_SHERIFF]
        if self._confiscating():
            mat.wait_zone = _Z_DISCARD2 if self.placed_n and self.placed_pile[0] == 2 else _Z_DISCARD1
            return _P_CONFISCATE
        mat.wait_zone = _Z_COMMAND
        return _P_DECIDE
