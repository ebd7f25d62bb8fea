"""What the hub keeps across its own restart: the host credential, the seat pairings, the
players' names, the current game's events and the games archived before it (SQLite, one file
beside the board's port, ``hub.sqlite``).

Killing ``tapmat serve`` and starting it again must not cost the table anything it typed or
paired: the phones keep their links (the tokens are the same), the TV keeps its cookie, the
event list and the archive are where they were. The board keeps the game itself (its journal);
this file keeps only what the hub adds around it. Every write is its own transaction (SQLite's
journal makes a write all or nothing, a power cut included).
"""
from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterable

from host.hub.mirror import Event
from host.screen.wording import Outcome, Said

SCHEMA = """
CREATE TABLE IF NOT EXISTS setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seat (
    seat INTEGER PRIMARY KEY, claim TEXT NOT NULL, token TEXT, name TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS event (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS archive (number INTEGER PRIMARY KEY, body TEXT NOT NULL);
"""
KEEP_EVENTS = 2000   # events kept beyond the current game's (the oldest go first)


def default_path(port: str) -> Path:
    """``hub.sqlite`` beside the board's port (a virtual board's folder), or under
    ``~/.local/state/tapmat/`` for a device node such as ``/dev/ttyACM0``."""
    where = Path(port).resolve().parent
    if str(where).startswith("/dev"):
        where = Path.home() / ".local" / "state" / "tapmat" / Path(port).name
    return where / "hub.sqlite"


def names_beside(port: str) -> tuple[str, ...]:
    """The players' names the hub of ``port`` keeps (read only: a monitor shows them too); none
    when no hub has kept any there."""
    path = default_path(port)
    if not path.exists():
        return ()
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=0.2)
        try:
            rows = db.execute("SELECT seat, name FROM seat").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return ()
    names = [""] * (max((int(s) for s, _ in rows), default=-1) + 1)
    for seat, name in rows:
        names[int(seat)] = str(name)
    return tuple(names)


class Store:
    """One SQLite file; safe to call from the hub's thread and the web page's at once."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self.db.executescript(SCHEMA)
        except sqlite3.Error as e:   # not a database, a damaged one, a folder we may not write
            raise ValueError("%s: not a tapmat hub store (%s); move it away to start afresh" % (path, e)) from None

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- settings ----------------------------------------------------------------------------
    def setting(self, key: str, make: Any = None) -> str | None:
        """A stored setting; with ``make`` (a callable), one made and stored the first time."""
        with self.lock:
            row = self.db.execute("SELECT value FROM setting WHERE key = ?", (key,)).fetchone()
            if row is None and make is not None:
                value = str(make())
                self.db.execute("INSERT INTO setting (key, value) VALUES (?, ?)", (key, value))
                return value
        return None if row is None else str(row[0])

    def set(self, key: str, value: str) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", (key, value))

    # -- seats -------------------------------------------------------------------------------
    def seats(self) -> dict[int, tuple[str, str | None, str]]:
        """seat -> (claim, token or None, name)."""
        with self.lock:
            rows = self.db.execute("SELECT seat, claim, token, name FROM seat").fetchall()
        return {int(s): (str(c), t, str(n)) for s, c, t, n in rows}

    def save_pairing(self, seat: int, claim: str, token: str | None) -> None:
        with self.lock:
            self.db.execute("INSERT INTO seat (seat, claim, token) VALUES (?, ?, ?) ON CONFLICT(seat) "
                            "DO UPDATE SET claim = excluded.claim, token = excluded.token", (seat, claim, token))

    def save_name(self, seat: int, name: str) -> None:
        with self.lock:
            self.db.execute("INSERT INTO seat (seat, claim, name) VALUES (?, '', ?) ON CONFLICT(seat) "
                            "DO UPDATE SET name = excluded.name", (seat, name))

    # -- events ------------------------------------------------------------------------------
    def add_event(self, ev: Event) -> None:
        with self.lock:
            cur = self.db.execute("INSERT INTO event (at, body) VALUES (?, ?)", (ev.at, json.dumps(event_record(ev))))
            if cur.lastrowid and cur.lastrowid % 100 == 0:
                self.db.execute("DELETE FROM event WHERE id <= ?", (cur.lastrowid - KEEP_EVENTS,))

    def events_since(self, since: float) -> list[Event]:
        with self.lock:
            rows = self.db.execute("SELECT body FROM event WHERE at >= ? ORDER BY id", (since,)).fetchall()
        out = []
        for (body,) in rows:
            try:
                out.append(event_of(json.loads(body)))
            except (ValueError, TypeError, KeyError):
                continue   # a line this version cannot read: the board still has the game
        return out

    # -- the archive -------------------------------------------------------------------------
    def archive(self, number: int, record: dict[str, Any]) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO archive (number, body) VALUES (?, ?)",
                            (number, json.dumps(record)))

    def archived(self) -> list[dict[str, Any]]:
        with self.lock:
            rows = self.db.execute("SELECT body FROM archive ORDER BY number").fetchall()
        return [json.loads(body) for (body,) in rows]

    def forget_archived(self, numbers: Iterable[int]) -> None:
        with self.lock:
            self.db.executemany("DELETE FROM archive WHERE number = ?", [(n,) for n in numbers])


def event_record(ev: Event) -> dict[str, Any]:
    out = {"kind": ev.kind, "text": ev.text, "seat": ev.seat, "action": ev.action, "at": ev.at,
           "reason": ev.reason, "reader": ev.reader}
    if ev.outcome is not None:
        out["outcome"] = {"lead": ev.outcome.lead, "parts": [asdict(p) for p in ev.outcome.parts]}
    return out


def event_of(record: dict[str, Any]) -> Event:
    said = record.get("outcome")
    outcome = None
    if said:
        outcome = Outcome(tuple(Said(**p) for p in said["parts"]), said.get("lead", ""))
    return Event(str(record["kind"]), str(record["text"]), record.get("seat"), record.get("action"),
                 float(record["at"]), record.get("reason"), record.get("reader"), outcome)
