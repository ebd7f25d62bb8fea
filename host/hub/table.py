"""The table around the board: the players' names, which events belong to the game on the mat,
and the games played before it (archived as action logs).

A name is the hub's, not the board's: the action log's header takes no unknown option
(/work/shared/spec/action-log.md), so an archived log carries the names as ``#`` comment lines
after its header (``# seat 2: Bob``), which every replay skips. The hub's mirror is public, so an
archived log holds each move as the table saw it: a hidden field (a Skull disc placed face down,
the cards in a Sheriff bag, an Oracle's peek) is absent from its line, and a replay refuses such
a line as ``malformed``; the log says so in its first comment. docs/host.md, "New game".
"""
from __future__ import annotations

import json
import threading
import time
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from host.hub.store import Store
from host.i18n import N_

MAX_NAME = 20
MAX_SEATS = 16
KEEP_GAMES = 20   # archived games kept (the oldest go first)


class NameRefused(ValueError):
    """A name the table cannot show (the message says why, as a msgid with ``{max}``)."""


def clean_name(text: Any) -> str:
    """A player's name as shown everywhere: trimmed, at most ``MAX_NAME`` characters, no control
    or formatting characters (they would break a line or hide text)."""
    if not isinstance(text, str):
        raise NameRefused(N_("a name is text"))
    name = " ".join(text.split())
    if len(name) > MAX_NAME:
        raise NameRefused(N_("a name has at most {max} letters"))
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise NameRefused(N_("a name has letters, digits and spaces only"))
    return name


@dataclass
class Archived:
    """One game played on this hub: its header, the names, its moves as the table saw them."""

    number: int
    header: dict[str, Any]
    names: list[str]
    actions: list[dict[str, Any]]
    started: float
    ended: float

    def log(self) -> str:
        """The game as an action log (JSON Lines): header, names as comments, one move a line."""
        lines = [json.dumps(self.header),
                 "# tapmat hub archive, game %d, %s to %s" % (
                     self.number, time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started)),
                     time.strftime("%H:%M", time.localtime(self.ended))),
                 "# public record: hidden fields (discs placed face down, bag contents, peeks) are "
                 "not known to the hub, and lines that need them do not replay"]
        lines += ["# seat %d: %s" % (i, n) for i, n in enumerate(self.names) if n]
        lines += [json.dumps(a) for a in self.actions]
        return "\n".join(lines) + "\n"

    def summary(self) -> dict[str, Any]:
        return {"number": self.number, "game": self.header.get("game"), "players": self.header.get("players"),
                "names": self.names, "moves": len(self.actions), "started": self.started, "ended": self.ended}


def kept_actions(events: list[Any]) -> list[dict[str, Any]]:
    """The moves that stand, in order: each accepted one, less those an undo took back (the
    board's state is exactly the one before an undone entry, so the log replays to it)."""
    actions: list[dict[str, Any]] = []
    for ev in events:
        if ev.kind == "accepted" and ev.action:
            actions.append(dict(ev.action))
        elif ev.kind == "undone" and actions:
            actions.pop()
    return actions


class Table:
    """Names per seat, the current game's start, and the archive (thread-safe: the hub's loop
    and the web page both use it), kept in the hub's store across a restart."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = threading.Lock()
        saved = store.seats()
        self.names = [saved[s][2] if s in saved else "" for s in range(MAX_SEATS)]
        self.since = float(store.setting("since") or 0.0)
        self.archive = [Archived(**record) for record in store.archived()]

    def name(self, seat: int, text: Any) -> str:
        if not 0 <= seat < MAX_SEATS:
            raise NameRefused(N_("no such seat"))
        name = clean_name(text)
        with self.lock:
            self.names[seat] = name
            self.store.save_name(seat, name)
        return name

    def names_for(self, seats: int) -> tuple[str, ...]:
        with self.lock:
            return tuple(self.names[:seats])

    def close_game(self, header: dict[str, Any] | None, events: list[Any], seats: int) -> Archived | None:
        """Archive the moves of the game that is ending (those since ``since``) and start
        counting the next game's from now. None if the game had no move."""
        now = time.time()
        actions = kept_actions([ev for ev in events if ev.at >= self.since])
        with self.lock:
            done = None
            if header is not None and actions:
                number = (self.archive[-1].number + 1) if self.archive else 1
                done = Archived(number, dict(header), list(self.names[:seats]), actions, self.since or now, now)
                self.archive.append(done)
                self.store.archive(done.number, asdict(done))
                self.store.forget_archived(a.number for a in self.archive[:-KEEP_GAMES])
                del self.archive[:-KEEP_GAMES]
            self.since = now
            self.store.set("since", repr(now))
        return done

    def archived(self, number: int) -> Archived | None:
        with self.lock:
            return next((a for a in self.archive if a.number == number), None)
