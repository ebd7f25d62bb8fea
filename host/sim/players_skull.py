"""Skull played with the virtual deck's discs and tokens, gesture by gesture (docs/mat.md §6).

The player keeps the physical truth the mat cannot see: which disc tag is in which seat's hand,
in which order the discs lie on each pad (the top one is flipped first), which were flipped and
laid beside the pad, which were lost for good. Every move is one of the gesture table's:
a disc **put** on its owner's pad is ``place``; digits, ``confirm``, ``pass`` and ``seat<K>``
are **tapped** on the command pad; a flip **lifts** the top disc of a stack; a lost disc is
**tapped** on the box pad. When a challenge ends, everybody takes their discs back.

Mistakes it makes on purpose: a disc on another seat's pad (``not_now``), an unregistered tag
(``unknown_tag``), a second disc in preparation or a disc out of turn (the rules' reason), an
out-of-turn host action.
"""
from __future__ import annotations

from typing import Any

from host.hub.mirror import Event
from host.sim.players_common import UNKNOWN_UID, PhysicalPlayer
from host.sim.runner import Attempt, Sim, SimError

DISCS = ("flower", "flower", "flower", "skull")
MAX_NUMBER = 254


class Player(PhysicalPlayer):
    def __init__(self, sim: Sim) -> None:
        super().__init__(sim)
        n = sim.game.seats()
        self.pad = self.zones["seat"][:n]
        self.box = self.zones["box"]
        deck = sim.deck
        self.hand = [[deck.disc(s, "flower", c) for c in range(3)] + [deck.disc(s, "skull")] for s in range(n)]
        self.stack: list[list[str]] = [[] for _ in range(n)]   # on the pad, bottom first
        self.aside: list[list[str]] = [[] for _ in range(n)]   # flipped, face up beside the pad
        self.lost: list[list[str]] = [[] for _ in range(n)]

    def disc(self, seat: int, kind: str) -> str:
        """A disc of that kind in the seat's hand (one the board has seen gone, if any)."""
        mine = [u for u in self.hand[seat] if self.sim.deck.by_uid[u]["code"] == kind]
        if not mine:
            raise SimError("seat %d has no %s in hand" % (seat, kind))
        return self.rested(mine)

    # -- actions --------------------------------------------------------------------------
    def perform(self, a: dict[str, Any]) -> Event:
        name = a["a"]
        p = a["p"]
        if name == "place":
            u = self.disc(p, a["disc"])
            self.hand[p].remove(u)
            self.hands.put(self.pad[p], u)
            self.stack[p].append(u)
            return self.sim.answer()
        if name == "bid":
            return self.number(a["n"])
        if name == "pass":
            return self.word("pass")
        if name == "flip":
            t = a["target"]
            u = self.stack[t].pop()
            self.hands.lift(u)
            self.aside[t].append(u)
            return self.sim.answer()
        if name == "lose":
            u = self.disc(p, a["disc"])
            self.hand[p].remove(u)
            self.lost[p].append(u)
            return self.answered(self.tap(self.box, u, True))
        if name == "first":
            return self.word("seat%d" % a["target"])
        raise SimError("Skull has no action %r" % name)

    def number(self, n: int) -> Event:
        """Digits in order; ``confirm`` when one more digit could still make sense."""
        top = min(sum(s["stack"] - s["flipped"] for s in self.sim.view()["seats"]), MAX_NUMBER)
        digits = ["digit" + d for d in str(n)]
        for d in digits[:-1]:
            self.part(d)
        if n * 10 > top:
            return self.word(digits[-1])
        self.part(digits[-1])
        return self.word("confirm")

    def settle(self) -> None:
        """After a challenge the rules have every stack empty: everybody lifts their discs off
        their pad and takes back the flipped ones."""
        seats = self.sim.view()["seats"]
        for s, seat in enumerate(seats):
            if seat["stack"] == 0 and (self.stack[s] or self.aside[s]):
                for u in self.stack[s]:
                    self.hands.lift(u)
                self.hand[s] += self.stack[s] + self.aside[s]
                self.stack[s] = []
                self.aside[s] = []

    # -- mistakes -------------------------------------------------------------------------
    def attempts(self) -> list[Attempt]:
        sim = self.sim
        d = sim.view()
        n = len(d["seats"])
        out = sim.out_of_turn()
        out.append(self.misplaced("an unregistered tag on the command pad", "unknown_tag", self.command, UNKNOWN_UID))
        holders = [s for s in range(n) if self.hand[s] and not d["seats"][s]["eliminated"]]
        if not holders:
            return out
        s = holders[0]
        u = self.disc(s, self.sim.deck.by_uid[self.hand[s][0]]["code"])
        other = (s + 1) % n
        out.append(self.misplaced("seat %d's disc on seat %d's pad" % (s, other), "not_now", self.pad[other], u))
        phase = d["phase"]
        for q in holders:
            kind = sim.deck.by_uid[self.hand[q][0]]["code"]
            reason = sim.probe({"a": "place", "p": q, "disc": kind})
            if phase in ("prep", "add") and reason not in ("ok", "malformed"):
                w = self.disc(q, kind)
                out.append(self.misplaced("seat %d puts a disc on its pad (%s)" % (q, phase), reason,
                                          self.pad[q], w))
                break
        return out
