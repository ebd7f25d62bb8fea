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

from shared_rules.core import deck
from shared_rules.sheriff.rules import _count   # copies of a code in a bag the rules hold
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
_REVEAL = const(6)            # the deputies module's phases (shared_rules.sheriff.modules.deputies)
_LOOT_PHASE = const(7)
_LAWS_PHASE = const(8)        # the laws module's phase (shared_rules.sheriff.modules.cards)

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
_A_DEPUTY = const(6)          # deputies' actions and the loot split's offset
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
_R_DEPUTY2 = const(12)        # deputies' second deputy's register
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

# Command tokens' numbers (shared_rules.core.tokens, restated: the board then loads no ``tokens``;
# tests/test_rules_literals.py).
_T_SEAT0 = const(10)
_T_SEATS = const(12)
_T_CONFIRM = const(22)
_T_PASS = const(24)
_T_INSPECT = const(26)
_T_DECLARE0 = const(27)
_T_DECLARABLE = const(4)



class Gestures(BaseGestures):
    ZONES = ("stand", "dock", "discard1", "draw", "discard2", "command", "loot")
    PROMPTS = ("over", "setup", "market", "load", "declare", "decide", "confiscate", "reveal", "loot", "laws")

    def __init__(self, mat):
        super().__init__(mat)
        self.presence = mat.presence
        self.registry = mat.registry
        # Deputies (Merry Men, 6 players): two deputies share the command pad, so a deputy names
        # themself with their seat token; the merchant who opens the market names themself too.
        modules = getattr(mat.game, "modules", None)   # Merry Men module bits (0: the base game)
        mods = modules() if modules else 0
        self.deputies = mods & 1
        # The gestures' partial state: what is half-made this turn (cleared when the rules move on).
        self.actor = _NO_SEAT      # deputies: the seat who named themself
        self.placed_n = 0          # cards tapped on discard pads (placed_tags, _code, _pile)
        self.aside_n = 0           # set-aside candidates seen on the merchant's stand (aside_tags)
        self.take_n = 0            # cards taken from a pile this turn (take_tags, take_pile)
        self.verdict = 0           # _T_PASS or _T_INSPECT; 0: none yet
        self.need = 0              # cards still to confiscate > 0: waiting for them
        self.stamp = bytearray(b"\xff\xff\xff")   # round, phase, turn the partial state is for
        self.placed_tags = array("H", _NO_TAGS * _PLACED)   # registry tag ids
        self.placed_code = bytearray(_PLACED)
        self.placed_pile = bytearray(_PLACED)
        self.aside_tags = array("H", _NO_TAGS * _ASIDE)
        self.take_tags = array("H", _NO_TAGS * _MARKET_MAX)
        self.take_pile = bytearray(_MARKET_MAX)
        # Per seat: the cards read in its bag at clasp time (how many, their codes and tag ids),
        # its dock's reader and its stand pad (_NO_ZONE: none).
        self.bag_n = bytearray(_SEATS)
        self.bag_code = bytearray(_SEATS * _BAG_MAX)
        self.bag_tags = array("H", _NO_TAGS * (_SEATS * _BAG_MAX))
        self.dock = bytearray(_NO_ZONES)
        self.stand = bytearray(_NO_ZONES)
        for sw in range(len(mat.dock_seat)):
            if mat.dock_seat[sw] < _SEATS:
                self.dock[mat.dock_seat[sw]] = mat.dock_reader[sw]
        for i in range(len(mat.zone_of)):
            if mat.zone_of[i] == _Z_STAND and mat.seat_of[i] < _SEATS:
                self.stand[mat.seat_of[i]] = i
        self.uid = bytearray(deck.UID_LEN)
        # A declaration tapped in either order, and the Sheriff's decision.
        self.good = _NO_SEAT
        self.count = 0
        self.target = _NO_SEAT
        self.winners = -1         # seat mask, computed once when the game is over
        self.cards = None         # the module cards' gestures (firmware.mat_sheriff_cards)
        if mods:
            from firmware import mat_sheriff_cards
            self.cards = mat_sheriff_cards.Gestures(self)

    # -- the rules' state, read without allocating -------------------------------------
    def check(self, phase):
        """The refusal of a gesture made outside ``phase``: _OK in it, else game_over or wrong_phase."""
        p = self.game.s[_R_PHASE]
        if p == phase:
            return _OK
        return _GAME_OVER if p == _OVER else _WRONG_PHASE

    # -- partial state -----------------------------------------------------------------
    def follow_rules(self):
        """Called first by every gesture: drop partial actions once the rules moved on (round, phase
        or turn changed); a new market turn starts with the cards already lying on the merchant's
        stand pad."""
        s = self.game.s
        if self.need and s[self.game._at(self.target) + _FLAGS] & _DONE:
            self.drop_partial()   # the host resolved the bag waiting for confiscated cards some other way
        if self.stamp[0] == s[_R_ROUND] and self.stamp[1] == s[_R_PHASE] and self.stamp[2] == s[_R_TURN]:
            return
        self.stamp[0] = s[_R_ROUND]
        self.stamp[1] = s[_R_PHASE]
        self.stamp[2] = s[_R_TURN]
        self.placed_n = 0
        self.aside_n = 0
        self.take_n = 0
        self.drop_partial()
        if self.cards is not None:
            self.cards.drop_choices()
        turn = s[_R_TURN]
        if s[_R_PHASE] == _MARKET and turn < _SEATS and self.presence is not None:
            reader = self.stand[turn]
            for slot in range(self.presence.slots):
                if self.lookup(reader, slot):
                    self.insert(self.registry.index)

    def drop_partial(self):
        """Drop a half-made declaration, verdict and the deputy who named themself."""
        self.good = _NO_SEAT
        self.count = 0
        self.target = _NO_SEAT
        self.verdict = 0
        self.need = 0
        self.actor = _NO_SEAT

    def lookup(self, reader, slot, kind=deck.CARD):
        """Look up what lies in a presence slot of a reader: whether it is a card of this game (a
        goods card, or ``kind``); the registry then describes it."""
        reg = self.registry
        return (reader != _NO_ZONE and self.presence.copy_uid(reader, slot, self.uid) and reg.lookup(self.uid)
                and reg.game == deck.game_id(self.game.NAME) and reg.kind == kind)

    def insert(self, tag):
        """A set-aside candidate: a card seen on the merchant's stand pad this market turn."""
        for i in range(self.aside_n):
            if self.aside_tags[i] == tag:
                return
        for i in range(self.take_n):
            if self.take_tags[i] == tag:
                return   # a card taken from a pile this turn cannot be set aside any more
        if self.aside_n < _ASIDE:
            self.aside_tags[self.aside_n] = tag
            self.aside_n += 1

    def place(self, tag, code, to):
        """A card tapped on a discard pad: placed (setup, set aside, confiscated) onto pile ``to``."""
        n = self.placed_n
        self.placed_tags[n] = tag
        self.placed_code[n] = code
        self.placed_pile[n] = to
        self.placed_n = n + 1

    # -- gestures -----------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        kind = tag.kind
        code = tag.code
        index = tag.index
        self.follow_rules()
        if kind == deck.MODULE and self.cards is not None:
            return self.cards.arrive(zone, seat, code)
        if kind != deck.CARD:
            return _NOT_NOW   # a token on a card pad; a module card in a base game
        g = self.game
        s = g.s
        # Whose market turn it is: the rules' turn, or (deputies, before the market opens) the
        # merchant who named themself.
        merchant = self.actor if s[_R_TURN] == _NO_SEAT else s[_R_TURN]
        if zone != _Z_DISCARD1 and zone != _Z_DISCARD2:
            if zone == _Z_STAND and s[_R_PHASE] == _MARKET and seat == merchant:
                self.insert(index)
            return _NOTHING   # possibly a hidden card: never signalled
        pile = 1 if zone == _Z_DISCARD1 else 2
        phase = s[_R_PHASE]
        if phase != _SETUP and phase != _MARKET and (phase != _INSPECT or not self.need):
            return _NOT_NOW
        placed = self.placed_n
        for i in range(placed):
            if self.placed_tags[i] == index:
                return _NOTHING   # tapped twice
        if phase == _SETUP:   # the ten cards of the two discard piles, five each
            n = 0
            for i in range(placed):
                if self.placed_pile[i] == pile:
                    n += 1
            if n >= _PILE_START:
                return _BAD_SETUP
            self.place(index, code, pile)
            if self.placed_n < 2 * _PILE_START:
                return _NOTHING
            rec = self.mat.start(_A_SETUP, s[_R_SHERIFF])
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
            for i in range(self.take_n):
                if self.take_tags[i] == index:
                    return _NOTHING   # a taken card tapped again
            for i in range(self.aside_n):
                if self.aside_tags[i] == index:
                    if placed and self.placed_pile[0] != pile:
                        return _BAD_PILE   # the set-aside cards go onto one pile
                    if placed >= _MARKET_MAX:
                        return _TOO_MANY_CARDS
                    self.place(index, code, pile)
                    return _NOTHING
            # Not set aside: a card taken from the top of this pile.
            n = self.take_n
            if n >= self.aside_n or n >= _MARKET_MAX:
                return _TAKE_TOO_MANY   # set cards aside first: draws never outnumber them
            left = s[_R_PILE1 if pile == 1 else _R_PILE2]
            for i in range(n):
                if self.take_pile[i] == pile:
                    left -= 1
            if left <= 0:
                return _EMPTY_PILE
            if s[_PILES + left - 1 if pile == 1 else _PILES_END - left] != code:
                return _NOT_NOW   # not the card on top of that pile
            self.take_tags[n] = index
            self.take_pile[n] = pile
            self.take_n = n + 1
            return _NOTHING
        # A card the Sheriff confiscates.
        if placed and self.placed_pile[0] != pile:
            return _BAD_PILE   # confiscated cards go onto one pile
        t = self.target
        at = g._at(t)
        if code == s[at + _DECL_GOOD]:
            return _BAD_ORDER  # a truthfully declared card goes to the stand
        # Whether the UIDs read at clasp time are the bag the rules hold.
        bag_n = self.bag_n[t]
        known = bag_n == s[at + _BAG_N]
        for i in range(bag_n if known else 0):
            if self.bag_code[t * _BAG_MAX + i] != s[at + _BAG + i]:
                known = False
        if known:
            found = False
            for i in range(bag_n):
                if self.bag_tags[t * _BAG_MAX + i] == index:
                    found = True
            if not found:
                return _BAD_ORDER   # not a card of that bag
        else:
            n = 0
            for i in range(placed):
                if self.placed_code[i] == code:
                    n += 1
            if n >= _count(s, at + _BAG, s[at + _BAG_N], code):
                return _BAD_ORDER
        self.place(index, code, pile)
        n = self.placed_n
        if n < self.need:
            return _NOTHING
        rec = self.mat.start(_A_INSPECT, self.actor if self.deputies else s[_R_SHERIFF])
        rec[_F_TARGET] = t
        rec[_F_ITO - 1] = 1
        rec[_F_ITO] = pile
        rec[_F_ORDER - 1] = 1
        rec[_F_ORDER] = n
        for i in range(n):
            rec[_F_ORDER + 1 + i] = self.placed_code[i]
        self.drop_partial()
        self.placed_n = 0
        return _READY

    def switch(self, seat, closed):
        """A clasp closing in the load phase is that merchant's ``load``; a bag re-docked
        unchanged, an empty bag, any clasp opening mean nothing."""
        self.follow_rules()
        g = self.game
        phase = g.s[_R_PHASE]
        if not closed or self.presence is None or (phase != _LOAD and phase != _MARKET) or seat >= _SEATS:
            return _NOTHING
        rec = self.mat.start(_A_LOAD, seat)
        reader = self.dock[seat]
        done = g.s[g._at(seat) + _FLAGS] & (_LOADED | _SKIPPED) or not g._is_merchant(seat)
        at = seat * _BAG_MAX
        n = 0
        same = True   # the dock holds what the rules hold in the bag
        for slot in range(self.presence.slots):
            if self.lookup(reader, slot):
                code = self.registry.code
                if n < _LIST_CAP:
                    rec[_F_CARDS + 1 + n] = code
                if n < _BAG_MAX and not done:
                    self.bag_tags[at + n] = self.registry.index
                    self.bag_code[at + n] = code
                n += 1
        rec[_F_CARDS] = n if n < _LIST_CAP else _LIST_CAP
        if self.cards is not None:
            self.cards.merry_in_bag(rec, reader)   # a Merry Man in the bag: the hidden flag
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
                if _count(g.s, g._at(seat) + _BAG, g.s[g._at(seat) + _BAG_N], code) != tapped:
                    same = False
            if same:
                return _NOTHING
        return _READY   # the rules decide: wrong_phase, already_loaded, bag_size, not_in_hand ...

    def number_max(self):
        return _BAG_MAX if self.game.s[_R_PHASE] == _DECLARE else 0

    def number(self, n):
        """The declared count; the declaration is made once its good is tapped too (either order)."""
        self.follow_rules()
        self.count = n
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
        self.follow_rules()
        if self.need:
            return _NOT_NOW
        self.drop_partial()
        return _NOTHING

    def token(self, t):
        self.follow_rules()
        g = self.game
        s = g.s
        seat = t - _T_SEAT0 if _T_SEAT0 <= t < _T_SEAT0 + _T_SEATS else -1   # a seat token's seat
        if self.deputies:
            # Deputies: a seat token in the reveal phase reveals that seat's deputy card; before
            # the market opens it names the opening merchant; in the laws phase the deputy who
            # logs the laws; ``confirm`` in the loot phase discards the chest's odd remainder (an
            # agreed split is a host action). Anything else goes on as in the base game.
            phase = s[_R_PHASE]
            if phase == _REVEAL and seat >= 0:
                self.mat.start(_A_DEPUTY, seat)
                return _READY
            if phase == _MARKET and seat >= 0 and s[_R_TURN] == _NO_SEAT and seat < g.seats():
                if not g._is_merchant(seat):
                    return _NOT_A_MERCHANT
                self.actor = seat
                return _NOTHING
            if phase == _LAWS_PHASE and seat >= 0:
                if not g._is_merchant(seat) and seat < g.seats():
                    self.actor = seat   # the deputy who logs the laws both chose
                    return _NOTHING
                return _NOT_THE_SHERIFF
            if phase == _LOOT_PHASE and t == _T_CONFIRM:
                rec = self.mat.start(_A_LOOT, s[_R_SHERIFF])
                rec[_F_LOOT_SPLIT] = 1   # discard
                return _READY
        if _T_DECLARE0 <= t < _T_DECLARE0 + _T_DECLARABLE:   # a declaration's good
            err = self.check(_DECLARE)
            if err:
                return err
            self.good = t - _T_DECLARE0
            return self.number(self.count)
        if t == _T_CONFIRM:
            # The market turn as tapped so far (kept if the rules refuse it); deputies: the
            # opening merchant taps their seat token first.
            merchant = self.actor if s[_R_TURN] == _NO_SEAT else s[_R_TURN]   # as in ``arrive``
            if s[_R_PHASE] != _MARKET or merchant == _NO_SEAT:
                return _NOT_NOW
            rec = self.mat.start(_A_MARKET, merchant)
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
        if seat < 0 and t != _T_PASS and t != _T_INSPECT:
            return _NOT_NOW
        err = self.check(_INSPECT)
        if err:
            return err
        if self.need:
            return _NOT_NOW   # an inspection is binding: the bag is open
        if seat >= 0 and self.deputies and not g._is_merchant(seat):
            self.actor = seat   # a deputy names themself
        elif seat >= 0:
            self.target = seat
        else:
            self.verdict = t
        # A merchant named and a verdict tapped: ``pass`` at once; ``inspect`` at once for an
        # honest bag or a target the rules refuse, else once the confiscated cards are tapped. An
        # inspection waiting for its cards is binding: the wait shows that the bag lies, so letting
        # the Sheriff take it back would let them probe bags before a bribe. Deputies: a decision
        # settles the bag once both agree, or the lone deputy who wanted to open acts; a first
        # stance settles nothing.
        inspector = self.actor if self.deputies else s[_R_SHERIFF]
        t = self.target
        if t == _NO_SEAT or not self.verdict or inspector == _NO_SEAT:
            return _NOTHING
        if self.verdict == _T_PASS:
            rec = self.mat.start(_A_PASS, inspector)
            rec[_F_TARGET] = t
            if self.cards is not None:   # special orders tapped for this bag
                self.cards.pass_orders(rec, t)
            self.drop_partial()
            return _READY
        rec = self.mat.start(_A_INSPECT, inspector)
        rec[_F_TARGET] = t
        # (the module cards' ``inspect``: whether it settles the bag (deputies), which opens it)
        if g.check(rec) != _OK or self.cards is not None and not self.cards.inspect(rec, t):
            self.drop_partial()
            return _READY   # the rules say why (bad_target, ...), or a deputy's stance only
        at = g._at(t)
        need = s[at + _BAG_N] - _count(s, at + _BAG, s[at + _BAG_N], s[at + _DECL_GOOD])
        if not need:
            self.drop_partial()
            return _READY
        self.need = need
        self.placed_n = 0
        return _NOTHING

    # -- what the mat waits for ----------------------------------------------------------
    def prompt(self):
        self.follow_rules()
        g = self.game
        s = g.s
        mat = self.mat
        phase = s[_R_PHASE]
        if phase == _OVER:
            if self.winners < 0:
                from shared_rules.sheriff import score   # once, at the end: allocates
                mask = 0
                for seat in score.winners(g):
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
        if phase == _REVEAL:
            mat.wait_seats = (1 << g.seats()) - 1
            mat.wait_zone = _Z_COMMAND
            return _P_REVEAL
        if phase == _MARKET:
            turn = self.actor if s[_R_TURN] == _NO_SEAT else s[_R_TURN]   # as in ``arrive``
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
        # The laws, the loot split, the inspection: the Sheriff's, or both deputies' (the second's
        # register is deputies').
        if self.deputies or phase == _LOOT_PHASE:
            mat.wait_seats = (1 << s[_R_SHERIFF]) | (1 << s[_R_DEPUTY2])
        else:
            mat.wait_seats = 1 << s[_R_SHERIFF]
        mat.wait_zone = _Z_COMMAND
        if phase == _LAWS_PHASE:
            return _P_LAWS
        if phase == _LOOT_PHASE:
            return _P_LOOT
        if self.need:   # the Sheriff's inspection waits for confiscated cards
            mat.wait_zone = _Z_DISCARD2 if self.placed_n and self.placed_pile[0] == 2 else _Z_DISCARD1
            return _P_CONFISCATE
        return _P_DECIDE
