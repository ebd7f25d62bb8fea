"""What the physical players (``host/sim/players_<game>.py``) share: the hands on the virtual board,
the command pad and its tokens, taps paced by the board's answers, mistakes made by putting a
tag where it does not belong. A game's ``Player`` subclasses ``PhysicalPlayer`` and adds the
``Player`` interface of ``host/sim/runner.py``: ``perform``, ``settle``, ``attempts``."""
from __future__ import annotations

import functools
from typing import Any

from host.hub.mirror import Event
from host.sim.runner import Attempt, Hands, Sim, SimError

UNKNOWN_UID = "04eeeeeeeeee5a"  # no virtual-deck UID has game byte 0xee
TOKEN_COPIES = 2                # host/vboard/virtual_deck.py


class PhysicalPlayer:
    MODE = "physical"

    def __init__(self, sim: Sim) -> None:
        assert sim.hands is not None and sim.layout is not None
        self.sim = sim
        self.hands: Hands = sim.hands
        self.zones: dict[str, Any] = sim.layout["zones"]
        self.command: int = self.zones["command"]

    # -- pieces ---------------------------------------------------------------------------
    def rested(self, uids: list[str]) -> str:
        """The first of these tags the board has long seen gone (else the first): putting a
        tag back where it was just lifted would wait until the board noticed the lift."""
        ready = [u for u in uids if not self.hands.cooling(u)]
        return (ready or uids)[0]

    def token(self, name: str) -> str:
        """A copy of the token that is not on the mat, rested if possible."""
        copies = [self.sim.deck.token(name, c) for c in range(TOKEN_COPIES)]
        return self.rested([u for u in copies if u not in self.hands.on] or copies)

    # -- gestures -------------------------------------------------------------------------
    def tap(self, reader: int, uid: str, answered: bool) -> Event | None:
        """Put, wait until the board has seen it (its answer, or a scan of its pad), lift."""
        self.hands.put(reader, uid)
        ev = self.sim.answer() if answered else None
        if not answered:
            self.hands.seen(uid)
        self.hands.lift(uid)
        return ev

    def taps(self, moves: list[tuple[int, str]]) -> Event:
        """Tap each (pad, tag) in order; only the last one makes the action and is answered."""
        ev: Event | None = None
        for i, (reader, uid) in enumerate(moves):
            ev = self.tap(reader, uid, i == len(moves) - 1)
        return self.answered(ev)

    def word(self, name: str) -> Event:
        """A token tapped on the command pad that completes an action."""
        return self.answered(self.tap(self.command, self.token(name), True))

    def part(self, name: str) -> None:
        """A token tapped on the command pad that only begins an action (no answer yet)."""
        self.tap(self.command, self.token(name), False)

    @staticmethod
    def answered(ev: Event | None) -> Event:
        if ev is None:
            raise SimError("a gesture that must be answered was not")
        return ev

    # -- mistakes -------------------------------------------------------------------------
    def misplaced(self, what: str, expect: str, reader: int, uid: str) -> Attempt:
        """A mistake: the tag put on a pad, refused, lifted again."""
        return Attempt(what, expect, functools.partial(self.hands.put, reader, uid),
                       functools.partial(self.hands.lift, uid))
