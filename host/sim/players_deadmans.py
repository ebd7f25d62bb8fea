"""Dead Man's Draw played with the virtual deck's cards, traits and tokens, gesture by gesture
(docs/mat-deadmans.md).

The player keeps the physical truth the mat cannot see: where each card tag lies (draw pile,
discard pile, play row, a seat's bank, or in a hand on its way), and which tags an Oracle saw on
top of the draw pile. Every move is one of the gesture table's: a card is **tapped** where it
goes (the play pad for a draw, hook, sword or map pick; the discard pad for a cannon or a map's
reveals; the draw pad for an oracle's peek; the player's bank pad for bonus cards, a trait, or
one card of the play row to collect), tokens (``collect``, ``seat<K>``) on the command pad.
After every accepted action the cards go where the rules put them (a bust, a collect, a
cannon ...), touching no pad: the tags follow the local game's card locations.

Mistakes it makes on purpose: an unregistered tag (``unknown_tag``), a trait card on the play
pad and a ``pass`` token (``not_now``), a card already drawn tapped on the play pad again
(``not_in_draw_pile``, or the rules' reason), a card of the play row on another seat's bank pad
(``not_your_turn``), an out-of-turn host action.
"""
from __future__ import annotations

from typing import Any

from host.hub.mirror import Event
from host.sim.players_common import UNKNOWN_UID, PhysicalPlayer
from host.sim.runner import Attempt, Sim, SimError
from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.catalogue import DMD_CODES as CODES, DMD_TRAITS as TRAITS

HAND = -1                       # a tag on its way to where the rules send it


class Player(PhysicalPlayer):
    def __init__(self, sim: Sim) -> None:
        super().__init__(sim)
        n = sim.game.seats()
        zones = self.zones
        self.bank: list[int] = zones["bank"][:n]
        self.draw_pad: int = zones["draw"]
        self.play: int = zones["play"]
        self.discard: int = zones["discard"]
        self.traits_taken: list[str] = []
        s = sim.game.s
        self.decks = s[K.R_DECKS]
        self.where: dict[str, int] = {}
        for c in range(K.NCODES):
            for k in range(self.decks):
                self.where[self.uid(c, k)] = s[K.LOC + c + K.NCODES * k]
        self.top: list[str] = []  # the tags an Oracle saw, top first
        self.collects = 0

    # -- pieces ---------------------------------------------------------------------------
    def uid(self, code: int, number: int) -> str:
        return self.sim.deck.card("deadmans", CODES[code], number)

    def at(self, card: str, loc: int, avoid: list[str] | None = None) -> str:
        """A tag of that card lying at ``loc`` (not one of ``avoid``)."""
        code = CODES.index(card)
        for k in range(self.decks):
            u = self.uid(code, k)
            if self.where[u] == loc and u not in (avoid or []):
                return u
        raise SimError("no %s where the rules have one (location %d)" % (card, loc))

    def several(self, cards: list[str], loc: int, avoid: list[str] | None = None) -> list[str]:
        """Different tags for the cards (a card listed twice: both copies)."""
        out: list[str] = []
        for card in cards:
            out.append(self.at(card, loc, out + (avoid or [])))
        return out

    def seat_token(self, seat: int) -> tuple[int, str]:
        return self.command, self.token("seat%d" % seat)

    def taps(self, moves: list[tuple[int, str]]) -> Event:
        """The cards tapped leave where they lay (the rules say where they go)."""
        for _, u in moves:
            if u in self.where:
                self.where[u] = HAND
        return super().taps(moves)

    # -- actions --------------------------------------------------------------------------
    def perform(self, a: dict[str, Any]) -> Event:
        name = a["a"]
        p = a["p"]
        if name == "trait":
            # Two decks, two copies of each trait: a second seat choosing it taps deck 1's card.
            copy = self.traits_taken.count(a["trait"])
            self.traits_taken.append(a["trait"])
            moves = [(self.bank[p], self.sim.deck.trait(a["trait"], copy))]
            if "target" in a:
                moves.append(self.seat_token(a["target"]))
            return self.taps(moves)
        if name == "draw":
            if self.top and self.sim.deck.by_uid[self.top[0]]["code"] == a["card"]:
                u = self.top.pop(0)
            else:
                u = self.at(a["card"], K.DRAW, self.top)
            return self.taps([(self.play, u)])
        if name == "collect":
            return self.collect(p)
        if name == "hook":
            return self.taps([(self.play, self.at(a["card"], K.BANK + p))])
        if name in ("sword", "cannon"):
            moves = [self.seat_token(a["target"])] if self.ambiguous(a) else []
            pad = self.play if name == "sword" else self.discard
            moves.append((pad, self.at(a["card"], K.BANK + a["target"])))
            return self.taps(moves)
        if name == "map":
            if "reveal" in a:
                shown = self.several(a["reveal"], K.DISCARD)
                pick = shown[a["reveal"].index(a["pick"])]
                return self.taps([(self.discard, u) for u in shown] + [(self.play, pick)])
            return self.taps([(self.play, self.at(a["pick"], K.DISCARD))])
        if name == "oracle":
            peek = a["peek"] if isinstance(a["peek"], list) else [a["peek"]]
            tags = self.top[:len(peek)]
            tags += self.several(peek[len(tags):], K.DRAW, self.top)
            ev = self.taps([(self.draw_pad, u) for u in tags])
            for u in tags:
                self.where[u] = K.DRAW  # back on top of the draw pile, in order
            self.top = tags
            return ev
        if name == "bonus":
            return self.bonus(a)
        raise SimError("Dead Man's Draw has no action %r" % name)

    def collect(self, p: int) -> Event:
        """Every other collect by tapping one card of the play row on the bank pad, else with
        the ``collect`` token."""
        row = sorted(u for u, loc in self.where.items() if loc == K.PLAY)
        self.collects += 1
        if row and self.collects % 2:
            return self.taps([(self.bank[p], row[0])])
        return self.word("collect")

    def bonus(self, a: dict[str, Any]) -> Event:
        p = a["p"]
        moves: list[tuple[int, str]] = []
        if "target" in a:  # Plunderer: top cards from one opponent's bank
            tags = self.several(a["cards"], K.BANK + a["target"])
            s = self.sim.game.s
            first = CODES.index(a["cards"][0])
            if any(d.top(s, o, first // K.VALUES) == first
                   for o in range(s[K.R_SEATS]) if o not in (p, a["target"])):
                moves.append(self.seat_token(a["target"]))
        else:
            tags = self.several(a["cards"], K.DISCARD)
        return self.taps(moves + [(self.bank[p], u) for u in tags])

    def ambiguous(self, a: dict[str, Any]) -> bool:
        """Another seat the rules would accept the same Cannon or Sword card from: the mat
        needs the seat token (two decks: the same card on top of two stacks)."""
        return any(self.sim.probe(dict(a, target=o)) == "ok"
                   for o in range(self.sim.game.seats()) if o != a["target"])

    def settle(self) -> None:
        """The cards go where the rules put them; a tag stays put if the rules have a copy of
        its card there (two decks: the other copy is the one that moved)."""
        s = self.sim.game.s
        for c in range(K.NCODES):
            locs = [s[K.LOC + c + K.NCODES * k] for k in range(self.decks)]
            loose = []
            for k in range(self.decks):
                u = self.uid(c, k)
                if self.where[u] in locs:
                    locs.remove(self.where[u])
                else:
                    loose.append(u)
            for u in loose:
                self.where[u] = locs.pop(0)
        self.top = [u for u in self.top if self.where[u] == K.DRAW]

    # -- mistakes -------------------------------------------------------------------------
    def attempts(self) -> list[Attempt]:
        sim = self.sim
        s = sim.game.s
        out = sim.out_of_turn()
        out.append(self.misplaced("an unregistered tag on the play pad", "unknown_tag", self.play, UNKNOWN_UID))
        trait = sim.deck.trait(TRAITS[0])
        out.append(self.misplaced("a trait card on the play pad", "not_now", self.play, trait))
        out.append(self.misplaced("a pass token", "not_now", self.command, self.token("pass")))
        turn = s[K.R_TURN]
        if s[K.R_PENDING] == K.NO_CHOICE and s[K.R_DRAW_N]:
            gone = sorted(u for u, loc in self.where.items() if loc == K.DISCARD or loc >= K.BANK)
            # the telling one first: a drawn card whose other copy still lies in the draw pile
            gone.sort(key=lambda u: not d.count(s, CODES.index(sim.deck.by_uid[u]["code"]), K.DRAW))
            if gone:
                u = gone[0]
                card = sim.deck.by_uid[u]["code"]
                reason = sim.probe({"a": "draw", "p": turn, "card": card})
                out.append(self.misplaced("%s, no longer in the draw pile, on the play pad" % card,
                                          "not_in_draw_pile" if reason == "ok" else reason, self.play, u))
        row = sorted(u for u, loc in self.where.items() if loc == K.PLAY)
        if row:
            other = (turn + 1) % len(self.bank)
            reason = sim.probe({"a": "collect", "p": other})
            out.append(self.misplaced("seat %d collects out of turn" % other, reason, self.bank[other], row[0]))
        return out
