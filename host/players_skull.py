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

from host.mirror import Event
from host.sim import Attempt, Sim, SimError
from shared_rules import tokens

DISCS = ("flower", "flower", "flower", "skull")
UNKNOWN_UID = "04eeeeeeeeee5a"  # no virtual-deck UID has game byte 0xee
MAX_NUMBER = 254


class Player:
    MODE = "physical"

    def __init__(self, sim: Sim) -> None:
        assert sim.hands is not None and sim.layout is not None
        self.sim = sim
        self.hands = sim.hands
        n = sim.game.seats()
        zones = sim.layout["zones"]
        self.pad = zones["seat"][:n]
        self.box = zones["box"]
        self.command = zones["command"]
        deck = sim.deck
        self.hand = [[deck.disc(s, "flower", c) for c in range(3)] + [deck.disc(s, "skull")] for s in range(n)]
        self.stack: list[list[str]] = [[] for _ in range(n)]   # on the pad, bottom first
        self.aside: list[list[str]] = [[] for _ in range(n)]   # flipped, face up beside the pad
        self.lost: list[list[str]] = [[] for _ in range(n)]

    # -- pieces ---------------------------------------------------------------------------
    def disc(self, seat: int, kind: str) -> str:
        """A disc of that kind in the seat's hand (one the board has seen gone, if any)."""
        mine = [u for u in self.hand[seat] if self.sim.deck.by_uid[u]["code"] == kind]
        if not mine:
            raise SimError("seat %d has no %s in hand" % (seat, kind))
        ready = [u for u in mine if not self.hands.cooling(u)]
        return (ready or mine)[0]

    def token(self, name: str) -> str:
        copies = [self.sim.deck.token(name, c) for c in range(2)]
        ready = [u for u in copies if not self.hands.cooling(u)]
        return (ready or copies)[0]

    def tap(self, reader: int, uid: str, answered: bool) -> Event | None:
        """Put, wait until it is read (its answer, or a poll of every reader), lift."""
        self.hands.put(reader, uid)
        ev = self.sim.answer() if answered else None
        if not answered:
            self.hands.seen(uid)
        self.hands.lift(uid)
        return ev

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
            ev = self.tap(self.box, u, True)
            assert ev is not None
            return ev
        if name == "first":
            return self.word("seat%d" % a["target"])
        raise SimError("Skull has no action %r" % name)

    def word(self, name: str) -> Event:
        ev = self.tap(self.command, self.token(name), True)
        assert ev is not None
        return ev

    def number(self, n: int) -> Event:
        """Digits in order; ``confirm`` when one more digit could still make sense."""
        top = min(sum(s["stack"] - s["flipped"] for s in self.sim.view()["seats"]), MAX_NUMBER)
        digits = str(n)
        for d in digits[:-1]:
            self.tap(self.command, self.token("digit" + d), False)
        last = self.token("digit" + digits[-1])
        if n * 10 > top:
            ev = self.tap(self.command, last, True)
            assert ev is not None
            return ev
        self.tap(self.command, last, False)
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
        out.append(Attempt("an unregistered tag on the command pad", "unknown_tag",
                           lambda: self.hands.put(self.command, UNKNOWN_UID),
                           lambda: self.hands.lift(UNKNOWN_UID)))
        holders = [s for s in range(n) if self.hand[s] and not d["seats"][s]["eliminated"]]
        if not holders:
            return out
        s = holders[0]
        u = self.disc(s, self.sim.deck.by_uid[self.hand[s][0]]["code"])
        other = (s + 1) % n
        out.append(Attempt("seat %d's disc on seat %d's pad" % (s, other), "not_now",
                           lambda: self.hands.put(self.pad[other], u), lambda: self.hands.lift(u)))
        phase = d["phase"]
        for q in holders:
            kind = sim.deck.by_uid[self.hand[q][0]]["code"]
            reason = sim.probe({"a": "place", "p": q, "disc": kind})
            if phase in ("prep", "add") and reason not in ("ok", "malformed"):
                w = self.disc(q, kind)
                out.append(Attempt("seat %d puts a disc on its pad (%s)" % (q, phase), reason,
                                   lambda: self.hands.put(self.pad[q], w), lambda: self.hands.lift(w)))
                break
        return out
