"""What the hall knows of every table, from the messages on the tables' topics (no I/O here).

A message that is not what a hub publishes (not JSON, wrong shapes, a topic of no table) is
counted in ``bad`` and ignored: the hall page shows what it can and never falls over. Events
carry their hub run and number: a repeat (a republish after a lost acknowledgement) is dropped,
a jump counts the events missed in ``lost``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from host.hall import topics
from host.hall.standings import standings

KEEP_EVENTS = 8     # the last events shown per table
MAX_TEXT = 200      # a longer string from a topic is cut: a page is no place for a novel
MAX_ROWS = 16


@dataclass
class Table:
    name: str
    online: bool | None = None   # None: no word yet
    run: str = ""
    n: int = 0                   # the last event number the picture includes
    url: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    events_run: str = ""
    events_n: int | None = None  # the last event number received on the events topic
    events: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """What the hall page shows of this table."""
        return {"table": self.name, "online": self.online, "run": self.run, "n": self.n,
                "url": self.url, "events": self.events, **self.view}


def _text(value: Any) -> str:
    return str(value if value is not None else "")[:MAX_TEXT]


def _rows(value: Any) -> list[list[str]]:
    if not isinstance(value, list):
        raise ValueError("rows are no list")
    return [[_text(c) for c in row[:MAX_ROWS]] for row in value[:MAX_ROWS] if isinstance(row, list)]


def _final(value: Any) -> list[dict[str, Any]] | None:
    """The final standings' rows: rank and seat as small ints, else ``ValueError``."""
    if value is None:
        return None
    rows = value.get("rows") if isinstance(value, dict) else None
    if not isinstance(rows, list):
        raise ValueError("final standings without rows")
    out = []
    for row in rows[:MAX_ROWS]:
        rank, seat = (row.get("rank"), row.get("seat")) if isinstance(row, dict) else (None, None)
        if not (isinstance(rank, int) and isinstance(seat, int) and 0 < rank <= MAX_ROWS and 0 <= seat < MAX_ROWS):
            raise ValueError("a final row without rank and seat")
        out.append({"rank": rank, "seat": seat, "score": _text(row.get("score")), "won": bool(row.get("won"))})
    return out


def _names(view: dict[str, Any], seats: int) -> list[str]:
    """The names the players gave (the table's ``players`` list; "" for a seat without one): an
    unnamed seat is "tN seat k" in the standings, never a "seat k" shared by every table."""
    names = view.get("players")
    if not isinstance(names, list):
        return []
    return [_text(n.strip()) if isinstance(n, str) else "" for n in names[:seats]]


def picture(view: Any) -> dict[str, Any]:
    """The hall's part of a table's public view (the TV's frame); ``ValueError`` if it is none."""
    if not isinstance(view, dict):
        raise ValueError("no view")
    seats = view.get("seats")
    if not isinstance(seats, int) or not 0 <= seats <= MAX_ROWS:
        raise ValueError("seats is no small number")
    columns = view.get("columns")
    state = view.get("state")
    state = state if isinstance(state, dict) else {}
    turn = state.get("turn")
    return {"phase": _text(state.get("phase")),
            "turn": turn if isinstance(turn, int) and 0 <= turn < MAX_ROWS and not isinstance(turn, bool) else None,
            "game": _text(view.get("game")), "title": _text(view.get("title")), "seats": seats,
            "columns": [_text(c) for c in columns[:MAX_ROWS]] if isinstance(columns, list) else [],
            "rows": _rows(view.get("rows") or []), "waits": _text(view.get("waits")),
            "info": [_text(i) for i in view.get("info") or []][:4] if isinstance(view.get("info"), list) else [],
            "final": _final(view.get("final")), "names": _names(view, seats),
            "board": bool(view.get("connected"))}


class Tables:
    """Every table heard of; ``apply`` one MQTT message, get what changed for the page."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.bad = 0
        self.lost = 0
        self.duplicates = 0
        self.results: dict[tuple[str, str, str], list[tuple[str, int]]] = {}   # finished games

    def apply(self, topic_name: str, payload: Any) -> dict[str, Any] | None:
        """A page message for this MQTT message (None: nothing to show, or a bad message)."""
        where = topics.parse(topic_name)
        if where is None:
            self.bad += 1
            return None
        name, kind = where
        try:
            data = payload.encode() if isinstance(payload, str) else bytes(payload or b"")
            if kind == "online":
                return self._online(name, data)
            message = json.loads(data)
            if not isinstance(message, dict):
                raise ValueError("no JSON object")
            return self._state(name, message) if kind == "state" else self._event(name, message)
        except (ValueError, TypeError, AttributeError, RecursionError):
            self.bad += 1
            return None

    def table(self, name: str) -> Table:
        if name not in self.tables:
            self.tables[name] = Table(name)
        return self.tables[name]

    def _online(self, name: str, data: bytes) -> dict[str, Any] | None:
        if data not in (b"0", b"1"):
            raise ValueError("online is 0 or 1")
        t = self.table(name)
        t.online = data == b"1"
        return {"type": "table", "table": t.summary()}

    def _state(self, name: str, message: dict[str, Any]) -> dict[str, Any]:
        view = picture(message.get("view"))
        n = message.get("n")
        if not isinstance(n, int) or n < 0:
            raise ValueError("n is no event number")
        t = self.table(name)
        t.view, t.n, t.run, t.url = view, n, _text(message.get("run")), _url(message.get("url"))
        if view["final"] is not None:
            self._finished(t)
        return {"type": "table", "table": t.summary(), "standings": self.standings()}

    def _event(self, name: str, message: dict[str, Any]) -> dict[str, Any] | None:
        n, run = message.get("n"), _text(message.get("run"))
        if not isinstance(n, int) or n < 1:
            raise ValueError("an event without its number")
        t = self.table(name)
        if run != t.events_run:
            t.events_run, t.events_n = run, None   # a restarted hub numbers from 1 again
        if t.events_n is not None and n <= t.events_n:
            self.duplicates += 1
            return None
        if t.events_n is not None:
            self.lost += n - t.events_n - 1
        t.events_n = n
        event = {"n": n, "run": run, "kind": _text(message.get("kind")), "text": _text(message.get("text"))}
        t.events = (t.events + [event])[-KEEP_EVENTS:]
        return {"type": "event", "table": name, "event": event}

    def _finished(self, t: Table) -> None:
        """Count a finished game once: the same final picture seen again (a republish, a
        restarted hall reading the retained state) is the same game."""
        final = t.view["final"] or []
        key = (t.name, t.run, json.dumps(final, sort_keys=True))
        names = t.view["names"]
        self.results[key] = [((names[r["seat"]] if r["seat"] < len(names) else "") or "%s seat %d" % (t.name, r["seat"]),
                              r["rank"]) for r in final]

    def standings(self) -> list[dict[str, Any]]:
        return standings(self.results.values())

    def snapshot(self) -> dict[str, Any]:
        return {"type": "snapshot", "tables": [t.summary() for _, t in sorted(self.tables.items())],
                "standings": self.standings()}


def _url(value: Any) -> str:
    """A table's TV address, only if it is a plain http(s) URL (the page links to it)."""
    text = _text(value)
    return text if text.startswith(("http://", "https://")) and '"' not in text and "<" not in text else ""
