"""A table without a board, for the hall's tests and bench: the firmware's own referee runs in
this process and feeds a real public mirror, shaped like a ``Hub`` for the web page's view.

Fifty of these cost one process, where fifty virtual boards would need fifty; every byte still
goes through the link codec, the public view and the mirror the hub uses, so what reaches a
topic is what a real table would publish.
"""
from __future__ import annotations

import json
import threading
from typing import Any, Callable

from host.hub.mirror import PUBLIC, Mirror
from host.hub.store import Store
from host.hub.table import Table
from host.screen.scoreboard import firmware_module
from host.sim.playout import pick, table_for
from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.core.rng import Rng

FROM_HOST = 255


class _Wire:
    """The board end of the link: every frame the referee sends goes straight to the mirror."""

    def __init__(self, deliver: Callable[[bytes], None]) -> None:
        self.deliver = deliver

    def write(self, buf: bytearray, n: int) -> None:
        self.deliver(bytes(buf[:n]))

    def readinto(self, _buf: bytearray) -> int:
        return 0


class _Connected:
    conn = True   # the web page asks ``hub.link.conn``: a simulated board is always there


class SimTable:
    """Random legal play of ``header`` (``step``) or chosen actions (``play``), mirrored."""

    def __init__(self, header: dict[str, Any], seed: int = 1, name: str = "simulated board") -> None:
        self.port = name
        self.lock = threading.RLock()
        self.mirror = Mirror(PUBLIC, 200)
        self.link = _Connected()
        self.version = 0
        self.listeners: list[Callable[[int], None]] = []
        self.board = firmware_module("firmware.link").BoardLink(_Wire(self._from_board))
        self.referee = firmware_module("firmware.referee").Referee(self.board, None)
        self.rec = bytearray(ACTION_SIZE)
        self.store = Store(":memory:")   # what a hub keeps around the game: names, pairings
        self.table = Table(self.store)
        self.new_game(header, seed)

    def new_game(self, header: dict[str, Any], seed: int) -> None:
        with self.lock:
            self.header = header
            self.game = games.from_header(header)
            self.moves = table_for(self.game, Rng(seed))   # the legal moves the simulated players pick from
            self.rng = Rng(seed ^ 0x5A5A)
            self.referee.start(self.game, json.dumps(header).encode())

    def _from_board(self, frame: bytes) -> None:
        self.mirror.feed(frame)
        self.version += 1
        for listener in self.listeners:
            listener(self.version)

    def play(self, action: dict[str, Any]) -> bool:
        """Submit ``action`` as a host action; whether the referee accepted it."""
        with self.lock:
            if self.game.VOCAB.encode(action, self.rec):
                raise ValueError("malformed action %r" % (action,))
            ok = self.referee.submit(self.rec, FROM_HOST) == 0
            if ok:
                self.moves.accepted(action)
            return ok

    def step(self) -> dict[str, Any] | None:
        """One random legal action, played; None once the game is over."""
        with self.lock:
            if self.game.over():
                return None
            action = pick(self.moves.legal(), self.rng)
            self.play(action)
            return action

    def last_entry(self) -> None:
        """Nothing to undo (the web page asks the hub): a simulated table's moves are typed by
        nobody at the table."""
        return None

    def final(self) -> dict[str, Any] | None:
        """The final standings (the simulated board is the referee: it knows hidden goods too)."""
        with self.lock:
            if not self.game.over():
                return None
            out = self.game.summary()
            out.setdefault("rejected", [])
            return dict(out)
