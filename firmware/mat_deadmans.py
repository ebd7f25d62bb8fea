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

The rules' registers, action kinds, field offsets and reasons, and the mat's, deck's and tokens'
numbers, are this module's own private ``const()`` literals (no names, no dictionary slots on a
board); ``tests/test_rules_literals.py`` checks each against its source.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from array import array

from shared_rules.deadmans import rules as d
from firmware.mat import BaseGestures

# The pads (ZONES) and what the mat waits for (PROMPTS).
_Z_BANK = const(0)
_Z_DRAW = const(1)
_Z_PLAY = const(2)
_Z_DISCARD = const(3)
_Z_COMMAND = const(4)
_P_OVER = const(0)
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
_NO_TAG = const(0xFFFF)
_NO_TAGS = const(b"\xff\xff")  # one _NO_TAG as array("H") bytes: arrays are made from bytes, not lists
_AMBIGUOUS = const(254)  # two seats could be the target: a seat token must say which
_PILE = const(50)        # cards a deck puts in the draw pile (NCODES - SUITS)
_LIST_CAP = const(30)    # the longest multi-card choice: a Treasure Hunter's bonus (MAX_BONUS)

# firmware.mat, shared_rules.core.engine, deck and tokens.
_NOTHING = const(0)
_READY = const(1)
_NO_ZONE = const(255)
_NO_SEAT = const(255)
_NOT_NOW = const(11)
_KIND_CARD = const(0)
_KIND_TRAIT = const(3)
_COLLECT_TOKEN = const(25)
_SEAT0 = const(10)
_SEAT_TOKENS = const(12)

# shared_rules.deadmans.
_NCODES = const(60)
_SUITS = const(10)
_VALUES = const(6)
_NTRAITS = const(17)
_DAVY_JONES = const(3)
_NAVIGATOR = const(7)
_PLUNDERER = const(12)
_NONE = const(255)
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
_F_CARD = const(2)
_F_TARGET = const(2)
_F_TARGET_CARD = const(3)
_F_REVEAL = const(3)
_F_PICK = const(7)
_F_PEEK = const(2)
_F_CARDS = const(2)
_F_BONUS_TARGET = const(34)
_OK = const(0)
_NOT_IN_DRAW_PILE = const(21)
_NOT_IN_BANK = const(23)
_BAD_TARGET = const(25)
_REVEAL_NOT_WANTED = const(30)
_WRONG_REVEAL_COUNT = const(31)
_NOT_IN_DISCARD = const(32)
_PICK_NOT_REVEALED = const(33)
_TARGET_REQUIRED = const(38)
_SETUP = const(0)
_OVER = const(2)
_NO_CHOICE = const(0)
_DISCARD = const(1)
_BANK = const(8)
_R_SEATS = const(0)
_R_DECKS = const(1)
_R_PHASE = const(3)
_R_TURN = const(4)
_R_DRAW_N = const(5)
_R_DISCARD_N = const(6)
_R_PENDING = const(11)
_R_STARTED = const(12)
_R_KRAKEN = const(13)
_R_PLAY_N = const(19)
_R_TRAIT = const(30)

def _find(tags, n, tag):
    for i in range(n):
        if tags[i] == tag:
            return i
    return -1


def _stamp(s):
    """Identifies one pending choice: one Map, Oracle, Cannon, Sword or bonus per turn, and
    every turn starts with a draw. A function, not a method: the class table stays at 17
    entries (one hash table size step down)."""
    return s[_R_DRAW_N] | (s[_R_TURN] << 8) | (s[_R_PENDING] << 12)


class Gestures(BaseGestures):
    # Made from lists: their words load as interned names (most are the rules' action names
    # already); a constant tuple's strings that no name matches load as 32-byte string objects.
    ZONES = tuple(["bank", "draw", "play", "discard", "command"])
    PROMPTS = tuple(["over", "trait", "target", "draw", "draw_or_collect", "collect", "hook", "cannon",
                     "sword", "reveal", "pick", "oracle", "bonus"])

    def __init__(self, mat):
        super().__init__(mat)
        self.drawn = array("H", _NO_TAGS * (2 * _PILE))  # tags drawn, in drawing order
        self.play = array("H", _NO_TAGS * _SUITS)        # tags of the play area, placing order
        self.swept = array("H", _NO_TAGS * _SUITS)       # tags the last collect banked
        self.part = array("H", _NO_TAGS * _LIST_CAP)     # a half-tapped multi-card choice
        self.part_code = bytearray(_LIST_CAP)
        # The bank the last collect filled (whose, at which draw count) and how many tags it banked.
        self.swept_n = 0
        self.swept_seat = _NO_SEAT
        self.swept_at = -1
        # The half-tapped multi-card choice: its count, stamp and (Plunderer) paying bank.
        self.part_n = 0
        self.part_stamp = -1
        self.part_target = _NO_SEAT
        # A seat token's target for the next card, and its stamp.
        self.named = _NO_SEAT
        self.named_stamp = -1
        self.davy_jones = _NO_SEAT   # the seat whose Davy Jones's Locker awaits its target

    # -- what the mat knows about tags ------------------------------------------------------
    def _in_draw_pile(self, tag):
        """Physically still in the draw pile: a card that starts there and that no draw took."""
        s = self.game.s
        return tag.code % _VALUES != 0 and _find(self.drawn, _PILE * s[_R_DECKS] - s[_R_DRAW_N], tag.index) < 0

    def _fresh_part(self, tag):
        """The multi-card choice being tapped (started afresh for a new pending choice): the
        position of ``tag`` in it, or -1."""
        st = _stamp(self.game.s)
        if st != self.part_stamp:
            self.part_stamp = st
            self.part_n = 0
            self.part_target = _NO_SEAT
        return _find(self.part, self.part_n, tag.index)

    def _short(self, tag, loc):
        """The place ``loc`` holds no more copies of the tag's code than the choice lists
        already, or the tag is physically in the draw pile."""
        listed = 0
        for i in range(self.part_n):
            if self.part_code[i] == tag.code:
                listed += 1
        return self._in_draw_pile(tag) or d.count(self.game.s, tag.code, loc) <= listed

    def _add_part(self, tag):
        n = self.part_n
        if n < _LIST_CAP:
            self.part[n] = tag.index
            self.part_code[n] = tag.code
            self.part_n = n + 1
        return self.part_n

    def _checked(self, physical):
        """READY for the action in ``mat.rec``, unless the mat knows the tapped card cannot be
        where the action says although the rules, which know codes only, would accept it (two
        decks: the other copy is there). The rules' own reasons always come first."""
        if physical and self.game.check(self.mat.rec) == _OK:
            return physical
        return _READY

    # -- gestures ---------------------------------------------------------------------------
    def arrive(self, zone, seat, tag):
        s = self.game.s
        p = s[_R_TURN]
        pending = s[_R_PENDING]
        index = tag.index
        code = tag.code
        kind = tag.kind
        if kind == _KIND_TRAIT:
            if zone != _Z_BANK or code >= _NTRAITS:
                return _NOT_NOW
            # A trait, unless the rules only miss its target (Davy Jones, 3+ players): then the
            # next seat token names it.
            rec = self.mat.start(_A_TRAIT, seat)
            rec[_F_TRAIT] = code
            if self.game.check(rec) == _TARGET_REQUIRED:
                self.davy_jones = seat
                return _NOTHING
            return _READY
        if kind != _KIND_CARD or code >= _NCODES:
            return _NOT_NOW
        in_play = _find(self.play, s[_R_PLAY_N], index) >= 0
        if zone == _Z_PLAY:
            if in_play:
                return _NOTHING  # a card of the play area put down again
            if pending == _A_MAP:  # the Map's pick
                rec = self.mat.start(_A_MAP, p)
                rec[_F_PICK] = code
                if s[_R_TRAIT + p] == _NAVIGATOR:
                    err = self._checked(_NOT_IN_DISCARD if self._in_draw_pile(tag) else 0)
                else:
                    at = self._fresh_part(tag)
                    n = self.part_n
                    if n:
                        rec[_F_REVEAL - 1] = 1
                        rec[_F_REVEAL] = n
                        for i in range(n):
                            rec[_F_REVEAL + 1 + i] = self.part_code[i]
                    err = self._checked(_PICK_NOT_REVEALED if at < 0 else 0)
            elif pending == _A_SWORD:
                err = self._aimed(_A_SWORD, tag)
            elif pending == _A_HOOK:
                rec = self.mat.start(_A_HOOK, p)
                rec[_F_CARD] = code
                err = self._checked(_NOT_IN_BANK if self._in_draw_pile(tag) else 0)
            else:
                rec = self.mat.start(_A_DRAW, p)
                rec[_F_CARD] = code
                n = _PILE * s[_R_DECKS] - s[_R_DRAW_N]
                err = self._checked(_NOT_IN_DRAW_PILE if _find(self.drawn, n, index) >= 0 else 0)
                if err == _READY and n < len(self.drawn):
                    self.drawn[n] = index
            at = s[_R_PLAY_N]
            if err == _READY and at < _SUITS:
                self.play[at] = index  # where the card lands if the rules place it
            return err
        if zone == _Z_DISCARD:
            if pending != _A_MAP:
                return self._aimed(_A_CANNON, tag)
            # A card the Map turned up from the discard pile: kept until the pick.
            if s[_R_TRAIT + p] == _NAVIGATOR:
                return _REVEAL_NOT_WANTED
            if self._fresh_part(tag) >= 0:
                return _NOTHING
            if self.part_n >= (s[_R_DISCARD_N] if s[_R_DISCARD_N] < 3 else 3):
                return _WRONG_REVEAL_COUNT
            if self._short(tag, _DISCARD):
                return _NOT_IN_DISCARD
            self._add_part(tag)
            return _NOTHING
        if zone == _Z_DRAW:
            # The Oracle's card(s), tapped top first; the action when all are tapped.
            if pending != _A_ORACLE:
                rec = self.mat.start(_A_ORACLE, p)
                rec[_F_PEEK] = 1
                rec[_F_PEEK + 1] = code
                return _READY  # refused by the rules (no Oracle asks)
            if self._fresh_part(tag) >= 0:
                return _NOTHING
            if not self._in_draw_pile(tag):
                return _NOT_IN_DRAW_PILE
            if self._add_part(tag) < d.peek_size(s, p):
                return _NOTHING
            return self._complete(_A_ORACLE, _F_PEEK)
        if zone != _Z_BANK:
            return _NOT_NOW
        if in_play:
            return self._collect(seat)
        if (seat == self.swept_seat and self.swept_at == s[_R_DRAW_N]
                and _find(self.swept, self.swept_n, index) >= 0):
            return _NOTHING  # the collected cards tapped one by one: only the first one counted
        if seat != p or pending != _A_BONUS:
            if d.count(s, code, _BANK + seat):
                return _NOTHING  # a card this bank holds (banked by protection, Scavenger, ...)
            rec = self.mat.start(_A_BONUS, seat)
            rec[_F_CARDS] = 1
            rec[_F_CARDS + 1] = code
            return _READY  # refused by the rules: no bonus is due to this seat now
        # A bonus card (Plunderer: from an opponent's bank).
        if self._fresh_part(tag) >= 0:
            return _NOTHING
        plunder = s[_R_TRAIT + p] == _PLUNDERER
        if plunder:
            if not self.part_n:  # the first card tells (or a seat token told) whose bank pays
                t = self.named if self.named_stamp == _stamp(s) else _NO_SEAT
                self.named = _NO_SEAT
                if t == _NO_SEAT:  # the opponent whose stack shows this card on top
                    for o in range(s[_R_SEATS]):
                        if o != p and d.top(s, o, code // _VALUES) == code:
                            t = o if t == _NO_SEAT else _AMBIGUOUS
                if t == _AMBIGUOUS:
                    return _TARGET_REQUIRED
                if t == _NO_SEAT:
                    return _NOT_IN_BANK
                self.part_target = t
            t = self.part_target
            if self._short(tag, _BANK + t):
                return _NOT_IN_BANK
            due = d.bonus_due(s, t)
        else:
            if self._short(tag, _DISCARD):
                return _NOT_IN_DISCARD
            due = d.bonus_due(s, _NONE)
        if self._add_part(tag) < due:
            return _NOTHING
        ready = self._complete(_A_BONUS, _F_CARDS)
        if plunder:
            rec = self.mat.rec
            rec[_F_BONUS_TARGET - 1] = 1
            rec[_F_BONUS_TARGET] = self.part_target
        return ready

    def cancel(self):
        """Drop a Davy Jones's Locker trait waiting for its ``seatK`` target."""
        self.davy_jones = _NO_SEAT
        return _NOTHING

    def token(self, t):
        s = self.game.s
        if s[_R_PHASE] != _SETUP:
            self.davy_jones = _NO_SEAT
        if t == _COLLECT_TOKEN:
            return self._collect(s[_R_TURN])
        if not _SEAT0 <= t < _SEAT0 + _SEAT_TOKENS:
            return _NOT_NOW
        target = t - _SEAT0
        if self.davy_jones != _NO_SEAT:
            rec = self.mat.start(_A_TRAIT, self.davy_jones)
            rec[_F_TRAIT] = _DAVY_JONES
            rec[_F_TRAIT_TARGET - 1] = 1
            rec[_F_TRAIT_TARGET] = target
            self.davy_jones = _NO_SEAT
            return _READY
        pending = s[_R_PENDING]
        if pending != _A_CANNON and pending != _A_SWORD and pending != _A_BONUS:
            return _NOT_NOW
        if target >= s[_R_SEATS]:
            return _BAD_TARGET
        self.named = target
        self.named_stamp = _stamp(s)
        self.part_stamp = -1  # a bonus list restarts for the named bank
        return _NOTHING

    def _aimed(self, kind, tag):
        """Cannon or Sword: the top card of the target's stack. The target is the seat named by
        a seat token, else the only seat the rules accept the card from (two: a seat token must
        say which); failing that a seat whose bank holds the card, or the next seat, so that
        the rules give their reason."""
        s = self.game.s
        p = s[_R_TURN]
        code = tag.code
        t = self.named
        self.named = _NO_SEAT
        if t == _NO_SEAT or self.named_stamp != _stamp(s):
            n = s[_R_SEATS]
            rec = self.mat.start(kind, p)
            rec[_F_TARGET_CARD] = code
            t = _NO_SEAT
            holder = _NO_SEAT
            for i in range(1, n + 1):
                o = (p + i) % n
                rec[_F_TARGET] = o
                if self.game.check(rec) == _OK:
                    if t != _NO_SEAT:
                        return _TARGET_REQUIRED
                    t = o
                elif holder == _NO_SEAT and d.count(s, code, _BANK + o):
                    holder = o
            if t == _NO_SEAT:
                t = holder if holder != _NO_SEAT else (p + 1) % n
        rec = self.mat.start(kind, p)
        rec[_F_TARGET] = t
        rec[_F_TARGET_CARD] = code
        return self._checked(_NOT_IN_BANK if self._in_draw_pile(tag) else 0)

    def _collect(self, seat):
        s = self.game.s
        n = s[_R_PLAY_N]
        for i in range(n):
            self.swept[i] = self.play[i]
        self.swept_n = n
        self.swept_seat = seat
        self.swept_at = s[_R_DRAW_N]
        self.mat.start(_A_COLLECT, seat)
        return _READY

    def _complete(self, kind, at):
        """The action of a fully tapped list; the list starts afresh (a refused one is tapped
        again in full)."""
        n = self.part_n
        rec = self.mat.start(kind, self.game.s[_R_TURN])
        rec[at] = n
        for i in range(n):
            rec[at + 1 + i] = self.part_code[i]
        self.part_n = 0
        return _READY

    # -- what the mat waits for -------------------------------------------------------------
    def prompt(self):
        s = self.game.s
        mat = self.mat
        phase = s[_R_PHASE]
        p = s[_R_TURN]
        mat.wait_seats = 1 << p
        if phase == _OVER:
            # Every winner (best score, then most bank cards), without building a list.
            best = -1
            cards = -1
            mask = 0
            for seat in range(s[_R_SEATS]):
                sc = d.score(s, seat)
                n = d.bank_size(s, seat)
                if sc > best or (sc == best and n > cards):
                    best = sc
                    cards = n
                    mask = 1 << seat
                elif sc == best and n == cards:
                    mask |= 1 << seat
            mat.wait_seats = mask
            mat.wait_zone = _NO_ZONE
            return _P_OVER
        if phase == _SETUP:
            if self.davy_jones != _NO_SEAT:
                mat.wait_seats = 1 << self.davy_jones
                mat.wait_zone = _Z_COMMAND
                return _P_TARGET
            mask = 0  # seats without a trait may tap one; the first seat may draw at once
            for seat in range(s[_R_SEATS]):
                if s[_R_TRAIT + seat] == _NONE:
                    mask |= 1 << seat
            if not mask:
                mat.wait_zone = _Z_PLAY
                return _P_DRAW
            mat.wait_seats = mask | (1 << p)
            mat.wait_zone = _Z_BANK
            return _P_TRAIT
        pending = s[_R_PENDING]
        mat.wait_zone = _Z_PLAY
        if pending == _NO_CHOICE:
            if not s[_R_STARTED] or s[_R_KRAKEN]:
                return _P_DRAW
            if s[_R_DRAW_N]:
                return _P_DRAW_OR_COLLECT
            mat.wait_zone = _Z_COMMAND
            return _P_COLLECT
        if pending == _A_HOOK:
            return _P_HOOK
        if pending == _A_SWORD:
            return _P_SWORD
        if pending == _A_MAP:
            need = s[_R_DISCARD_N] if s[_R_DISCARD_N] < 3 else 3
            if s[_R_TRAIT + p] == _NAVIGATOR or (self.part_stamp == _stamp(s) and self.part_n >= need):
                return _P_PICK
            mat.wait_zone = _Z_DISCARD
            return _P_REVEAL
        if pending == _A_CANNON:
            mat.wait_zone = _Z_DISCARD
            return _P_CANNON
        if pending == _A_ORACLE:
            mat.wait_zone = _Z_DRAW
            return _P_ORACLE
        mat.wait_zone = _Z_BANK
        return _P_BONUS
