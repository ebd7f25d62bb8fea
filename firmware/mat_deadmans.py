"""Dead Man's Draw gestures: cards tapped on the bank, draw, play and discard pads, tokens on the
command pad -> actions.

The gesture table (what to do physically for every action) is ``docs/mat-deadmans.md``. In short,
a card is tapped where it goes: on the play pad it is the ``draw`` (or, while the rules wait for
one, the ``hook``, ``sword`` or ``map`` pick), on the discard pad a ``cannon`` (or a Map's
revealed card), on the draw pad an ``oracle`` peek, on a bank pad a ``bonus`` card or, for a card
of the play area, ``collect``; a trait card on a bank pad is ``trait``; the ``collect`` token is
``collect`` and a ``seatK`` token names a target. Every gesture is an arrival: lifting a card,
clasps and numbers mean nothing (``firmware.mat.BaseGestures``' answers).

The rules know codes, the mat knows tags: with two decks two tags share a code. Three lists of
tags keep what the rules cannot tell, written at the position a rules counter gives and read
only up to it (as ``mat_skull.py`` does), so a refused action's entry is overwritten by the next:
the tags drawn so far (draws so far = the draw pile's start size minus ``R_DRAW_N``; a card
leaves the draw pile only by a draw and never returns), the tags of the play area (``R_PLAY_N``)
and the tags of a half-tapped multi-card choice (Map reveals, Mystic peeks, bonus cards), valid
while the turn, the draw pile count and the pending choice stay what they were.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from array import array

from shared_rules import deck, tokens
from shared_rules import deadmans as d
from shared_rules.engine import NO_SEAT, NOT_NOW, OK
from firmware.mat import BaseGestures, NOTHING, READY, NO_ZONE

ZONES = ("bank", "draw", "play", "discard", "command")
BANK = const(0)
DRAW = const(1)
PLAY = const(2)
DISCARD = const(3)
COMMAND = const(4)
PROMPTS = ("over", "trait", "target", "draw", "draw_or_collect", "collect", "hook", "cannon",
           "sword", "reveal", "pick", "oracle", "bonus")
P_OVER = const(0)
_P_TRAIT = const(1)
_P_TARGET = const(2)
_P_DRAW = const(3)
_P_DRAW_OR_COLLECT = const(4)
_P_COLLECT = const(5)
_P_HOOK = const(6)
_P_CANNON = const(7)
_P_SWORD = const(8)
_P_REVEAL = const(9)
_P_PICK = const(10)
_P_ORACLE = const(11)
_P_BONUS = const(12)

NO_TAG = const(0xFFFF)
_AMBIGUOUS = const(254)  # two seats could be the target: a seat token must say which
PILE = d.NCODES - d.SUITS         # cards a deck puts in the draw pile
LIST_CAP = d.MAX_BONUS            # the longest multi-card choice: a Treasure Hunter's bonus


def _find(tags, n, tag):
    for i in range(n):
        if tags[i] == tag:
            return i
    return -1


class Gestures(BaseGestures):
    ZONES = ZONES
    PROMPTS = PROMPTS

    def __init__(self, mat):
        super().__init__(mat)
        self.drawn = array("H", [NO_TAG] * (2 * PILE))  # tags drawn, in drawing order
        self.play = array("H", [NO_TAG] * d.SUITS)       # tags of the play area, placing order
        self.swept = array("H", [NO_TAG] * d.SUITS)      # tags the last collect banked ...
        self.swept_n = 0
        self.swept_seat = NO_SEAT                        # ... into this bank ...
        self.swept_at = -1                               # ... with this many cards left to draw
        self.part = array("H", [NO_TAG] * LIST_CAP)      # a half-tapped multi-card choice
        self.part_code = bytearray(LIST_CAP)
        self.part_n = 0
        self.part_stamp = -1
        self.part_target = NO_SEAT                       # Plunderer: the bank the bonus comes from
        self.named = NO_SEAT                             # a seat token's target for the next card
        self.named_stamp = -1
        self.dj = NO_SEAT                                # a Davy Jones's Locker awaiting its target

    # -- what the mat knows about tags ------------------------------------------------------
    def _stamp(self):
        """Identifies one pending choice: one Map, Oracle, Cannon, Sword or bonus per turn, and
        every turn starts with a draw."""
        s = self.game.s
        return s[d.R_DRAW_N] | (s[d.R_TURN] << 8) | (s[d.R_PENDING] << 12)

    def _drawn_n(self):
        s = self.game.s
        return PILE * s[d.R_DECKS] - s[d.R_DRAW_N]

    def _in_draw_pile(self, tag):
        """Physically still in the draw pile: a card that starts there and that no draw took."""
        return tag.code % d.DMD_VALUES != 0 and _find(self.drawn, self._drawn_n(), tag.index) < 0

    def _in_play(self, index):
        return _find(self.play, self.game.s[d.R_PLAY_N], index) >= 0

    def _fresh_part(self):
        st = self._stamp()
        if st != self.part_stamp:
            self.part_stamp = st
            self.part_n = 0
            self.part_target = NO_SEAT

    def _listed(self, code):
        n = 0
        for i in range(self.part_n):
            if self.part_code[i] == code:
                n += 1
        return n

    def _add_part(self, tag):
        n = self.part_n
        if n < LIST_CAP:
            self.part[n] = tag.index
            self.part_code[n] = tag.code
            self.part_n = n + 1
        return self.part_n

    def _checked(self, physical):
        """READY for the action in ``mat.rec``, unless the mat knows the tapped card cannot be
        where the action says although the rules, which know codes only, would accept it (two
        decks: the other copy is there). The rules' own reasons always come first."""
        if physical and self.game.check(self.mat.rec) == OK:
            return physical
        return READY

    # -- gestures ---------------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        kind = tag.kind
        if kind == deck.TRAIT:
            return self._trait(seat, tag.code) if zone == BANK and tag.code < len(d.TRAITS) else NOT_NOW
        if kind != deck.CARD or tag.code >= d.NCODES:
            return NOT_NOW
        if zone == PLAY:
            return self._play(tag)
        if zone == DISCARD:
            if self.game.s[d.R_PENDING] == d.A_MAP:
                return self._reveal(tag)
            return self._aimed(d.A_CANNON, tag)
        if zone == DRAW:
            return self._peek(tag)
        if zone == BANK:
            return self._bank(seat, tag)
        return NOT_NOW

    def cancel(self):
        """Drop a Davy Jones's Locker trait waiting for its ``seatK`` target."""
        self.dj = NO_SEAT
        return NOTHING

    def token(self, t):
        s = self.game.s
        if s[d.R_PHASE] != d.SETUP:
            self.dj = NO_SEAT
        if t == tokens.COLLECT:
            return self._collect(s[d.R_TURN])
        target = tokens.seat(t)
        if target < 0:
            return NOT_NOW
        if self.dj != NO_SEAT:
            rec = self.mat.start(d.A_TRAIT, self.dj)
            rec[d.F_TRAIT] = d.DAVY_JONES
            rec[d.F_TRAIT_TARGET - 1] = 1
            rec[d.F_TRAIT_TARGET] = target
            self.dj = NO_SEAT
            return READY
        pending = s[d.R_PENDING]
        if pending != d.A_CANNON and pending != d.A_SWORD and pending != d.A_BONUS:
            return NOT_NOW
        if target >= s[d.R_SEATS]:
            return d.BAD_TARGET
        self.named = target
        self.named_stamp = self._stamp()
        self.part_stamp = -1  # a bonus list restarts for the named bank
        return NOTHING

    # -- the pads ---------------------------------------------------------------------------
    def _trait(self, seat, code):
        """A trait, unless the rules only miss its target (Davy Jones, 3+ players): then the
        next seat token names it."""
        rec = self.mat.start(d.A_TRAIT, seat)
        rec[d.F_TRAIT] = code
        if self.game.check(rec) == d.TARGET_REQUIRED:
            self.dj = seat
            return NOTHING
        return READY

    def _play(self, tag):
        s = self.game.s
        index = tag.index
        if self._in_play(index):
            return NOTHING  # a card of the play area put down again
        pending = s[d.R_PENDING]
        if pending == d.A_MAP:
            err = self._pick(tag)
        elif pending == d.A_SWORD:
            err = self._aimed(d.A_SWORD, tag)
        elif pending == d.A_HOOK:
            rec = self.mat.start(d.A_HOOK, s[d.R_TURN])
            rec[d.F_CARD] = tag.code
            err = self._checked(d.NOT_IN_BANK if self._in_draw_pile(tag) else 0)
        else:
            rec = self.mat.start(d.A_DRAW, s[d.R_TURN])
            rec[d.F_CARD] = tag.code
            n = self._drawn_n()
            err = self._checked(d.NOT_IN_DRAW_PILE if _find(self.drawn, n, index) >= 0 else 0)
            if err == READY and n < len(self.drawn):
                self.drawn[n] = index
        at = s[d.R_PLAY_N]
        if err == READY and at < d.SUITS:
            self.play[at] = index  # where the card lands if the rules place it
        return err

    def _aimed(self, kind, tag):
        """Cannon or Sword: the top card of the target's stack."""
        code = tag.code
        t = self._target(kind, code)
        if t == _AMBIGUOUS:
            return d.TARGET_REQUIRED
        rec = self.mat.start(kind, self.game.s[d.R_TURN])
        rec[d.F_TARGET] = t
        rec[d.F_TARGET_CARD] = code
        return self._checked(d.NOT_IN_BANK if self._in_draw_pile(tag) else 0)

    def _target(self, kind, code):
        """The seat a Cannon or Sword card comes from: the one named by a seat token, else the
        only seat the rules accept it from (_AMBIGUOUS if two); failing that a seat whose bank
        holds the card, or the next seat, so that the rules give their reason."""
        s = self.game.s
        p = s[d.R_TURN]
        named = self.named
        self.named = NO_SEAT
        if named != NO_SEAT and self.named_stamp == self._stamp():
            return named
        n = s[d.R_SEATS]
        rec = self.mat.start(kind, p)
        rec[d.F_TARGET_CARD] = code
        found = NO_SEAT
        holder = NO_SEAT
        for i in range(1, n + 1):
            t = (p + i) % n
            rec[d.F_TARGET] = t
            if self.game.check(rec) == OK:
                if found != NO_SEAT:
                    return _AMBIGUOUS
                found = t
            elif holder == NO_SEAT and d.count(s, code, d.BANK + t):
                holder = t
        if found != NO_SEAT:
            return found
        return holder if holder != NO_SEAT else (p + 1) % n

    def _reveal(self, tag):
        """A card the Map turned up from the discard pile: kept until the pick."""
        s = self.game.s
        if s[d.R_TRAIT + s[d.R_TURN]] == d.NAVIGATOR:
            return d.REVEAL_NOT_WANTED
        self._fresh_part()
        if _find(self.part, self.part_n, tag.index) >= 0:
            return NOTHING
        need = s[d.R_DISCARD_N] if s[d.R_DISCARD_N] < 3 else 3
        if self.part_n >= need:
            return d.WRONG_REVEAL_COUNT
        if self._in_draw_pile(tag) or d.count(s, tag.code, d.DISCARD) <= self._listed(tag.code):
            return d.NOT_IN_DISCARD
        self._add_part(tag)
        return NOTHING

    def _pick(self, tag):
        s = self.game.s
        p = s[d.R_TURN]
        rec = self.mat.start(d.A_MAP, p)
        rec[d.F_PICK] = tag.code
        if s[d.R_TRAIT + p] == d.NAVIGATOR:
            return self._checked(d.NOT_IN_DISCARD if self._in_draw_pile(tag) else 0)
        self._fresh_part()
        n = self.part_n
        if n:
            rec[d.F_REVEAL - 1] = 1
            rec[d.F_REVEAL] = n
            for i in range(n):
                rec[d.F_REVEAL + 1 + i] = self.part_code[i]
        return self._checked(d.PICK_NOT_REVEALED if _find(self.part, n, tag.index) < 0 else 0)

    def _peek(self, tag):
        """The Oracle's card(s), tapped top first; the action when all are tapped."""
        s = self.game.s
        p = s[d.R_TURN]
        if s[d.R_PENDING] != d.A_ORACLE:
            rec = self.mat.start(d.A_ORACLE, p)
            rec[d.F_PEEK] = 1
            rec[d.F_PEEK + 1] = tag.code
            return READY  # refused by the rules (no Oracle asks)
        self._fresh_part()
        if _find(self.part, self.part_n, tag.index) >= 0:
            return NOTHING
        if not self._in_draw_pile(tag):
            return d.NOT_IN_DRAW_PILE
        if self._add_part(tag) < d.peek_size(s, p):
            return NOTHING
        return self._complete(d.A_ORACLE, d.F_PEEK)

    def _bank(self, seat, tag):
        s = self.game.s
        index = tag.index
        if self._in_play(index):
            return self._collect(seat)
        if self._swept(seat, index):
            return NOTHING  # the collected cards tapped one by one: only the first one counted
        if seat == s[d.R_TURN] and s[d.R_PENDING] == d.A_BONUS:
            return self._bonus(tag)
        if d.count(s, tag.code, d.BANK + seat):
            return NOTHING  # a card this bank holds (banked by protection, Scavenger, ...)
        rec = self.mat.start(d.A_BONUS, seat)
        rec[d.F_CARDS] = 1
        rec[d.F_CARDS + 1] = tag.code
        return READY  # refused by the rules: no bonus is due to this seat now

    def _swept(self, seat, index):
        """A card the last collect moved into this seat's bank (until the next draw)."""
        return (seat == self.swept_seat and self.swept_at == self.game.s[d.R_DRAW_N]
                and _find(self.swept, self.swept_n, index) >= 0)

    def _collect(self, seat):
        s = self.game.s
        n = s[d.R_PLAY_N]
        for i in range(n):
            self.swept[i] = self.play[i]
        self.swept_n = n
        self.swept_seat = seat
        self.swept_at = s[d.R_DRAW_N]
        self.mat.start(d.A_COLLECT, seat)
        return READY

    def _bonus(self, tag):
        s = self.game.s
        p = s[d.R_TURN]
        code = tag.code
        self._fresh_part()
        n = self.part_n
        if _find(self.part, n, tag.index) >= 0:
            return NOTHING
        if s[d.R_TRAIT + p] == d.PLUNDERER:
            if not n:  # the first card tells (or a seat token told) whose bank pays
                t = self.named if self.named_stamp == self._stamp() else NO_SEAT
                self.named = NO_SEAT
                if t == NO_SEAT:
                    t = self._plundered(p, code)
                if t == _AMBIGUOUS:
                    return d.TARGET_REQUIRED
                if t == NO_SEAT:
                    return d.NOT_IN_BANK
                self.part_target = t
            t = self.part_target
            if self._in_draw_pile(tag) or d.count(s, code, d.BANK + t) <= self._listed(code):
                return d.NOT_IN_BANK
            due = d.bonus_due(s, t)
        else:
            if self._in_draw_pile(tag) or d.count(s, code, d.DISCARD) <= self._listed(code):
                return d.NOT_IN_DISCARD
            due = d.bonus_due(s, d.NONE)
        if self._add_part(tag) < due:
            return NOTHING
        ready = self._complete(d.A_BONUS, d.F_CARDS)
        if s[d.R_TRAIT + p] == d.PLUNDERER:
            rec = self.mat.rec
            rec[d.F_BONUS_TARGET - 1] = 1
            rec[d.F_BONUS_TARGET] = self.part_target
        return ready

    def _plundered(self, p, code):
        """The opponent whose stack shows this card on top (_AMBIGUOUS: two do; NO_SEAT: none)."""
        s = self.game.s
        found = NO_SEAT
        for t in range(s[d.R_SEATS]):
            if t != p and d.top(s, t, code // d.DMD_VALUES) == code:
                if found != NO_SEAT:
                    return _AMBIGUOUS
                found = t
        return found

    def _complete(self, kind, at):
        """The action of a fully tapped list; the list starts afresh (a refused one is tapped
        again in full)."""
        n = self.part_n
        rec = self.mat.start(kind, self.game.s[d.R_TURN])
        rec[at] = n
        for i in range(n):
            rec[at + 1 + i] = self.part_code[i]
        self.part_n = 0
        return READY

    # -- what the mat waits for -------------------------------------------------------------
    def prompt(self):
        s = self.game.s
        mat = self.mat
        phase = s[d.R_PHASE]
        p = s[d.R_TURN]
        mat.wait_seats = 1 << p
        if phase == d.OVER:
            mat.wait_seats = self._winners()
            mat.wait_zone = NO_ZONE
            return P_OVER
        if phase == d.SETUP:
            if self.dj != NO_SEAT:
                mat.wait_seats = 1 << self.dj
                mat.wait_zone = COMMAND
                return _P_TARGET
            mask = 0  # seats without a trait may tap one; the first seat may draw at once
            for seat in range(s[d.R_SEATS]):
                if s[d.R_TRAIT + seat] == d.NONE:
                    mask |= 1 << seat
            if not mask:
                mat.wait_zone = PLAY
                return _P_DRAW
            mat.wait_seats = mask | (1 << p)
            mat.wait_zone = BANK
            return _P_TRAIT
        pending = s[d.R_PENDING]
        mat.wait_zone = PLAY
        if pending == d.NO_CHOICE:
            if not s[d.R_STARTED] or s[d.R_KRAKEN]:
                return _P_DRAW
            if s[d.R_DRAW_N]:
                return _P_DRAW_OR_COLLECT
            mat.wait_zone = COMMAND
            return _P_COLLECT
        if pending == d.A_HOOK:
            return _P_HOOK
        if pending == d.A_SWORD:
            return _P_SWORD
        if pending == d.A_MAP:
            if s[d.R_TRAIT + p] == d.NAVIGATOR or self._revealed():
                return _P_PICK
            mat.wait_zone = DISCARD
            return _P_REVEAL
        if pending == d.A_CANNON:
            mat.wait_zone = DISCARD
            return _P_CANNON
        if pending == d.A_ORACLE:
            mat.wait_zone = DRAW
            return _P_ORACLE
        mat.wait_zone = BANK
        return _P_BONUS

    def _revealed(self):
        s = self.game.s
        need = s[d.R_DISCARD_N] if s[d.R_DISCARD_N] < 3 else 3
        return self.part_stamp == self._stamp() and self.part_n >= need

    def _winners(self):
        """Bit per winning seat (best score, then most bank cards), without building a list."""
        s = self.game.s
        best = -1
        cards = -1
        mask = 0
        for seat in range(s[d.R_SEATS]):
            sc = d.score(s, seat)
            n = d.bank_size(s, seat)
            if sc > best or (sc == best and n > cards):
                best = sc
                cards = n
                mask = 1 << seat
            elif sc == best and n == cards:
                mask |= 1 << seat
        return mask
