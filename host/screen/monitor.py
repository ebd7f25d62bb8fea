"""Watching a board: a mirrored session over its serial port, and the live scoreboard loop.

``Session`` wraps ``host.hub.mirror``'s ``SerialLink`` and ``Mirror`` with what both the monitor and
the simulator need: waiting for the mirror to reach a condition, PING round trips, a new game,
bytes counted on the wire, every event kept, and the final standings (``host.hub.contract``). It
re-subscribes when a fresh connection gets no snapshot. One lock guards the mirror, so a
scoreboard thread may take pictures while another thread drives the board.

``watch()`` is ``tapmat monitor``: a full-screen rich ``Live`` scoreboard, redrawn as frames
arrive, until Ctrl-C (or the end of the game with ``exit_at_end``).
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable

from host.hub import contract
from host.hub.hub import open_serial
from host.hub.store import names_beside
from host.hub.mirror import PUBLIC, REFEREE, Event, Mirror, SerialLink, Tapped, Transport
from host.screen.scoreboard import Picture, event_line, link_line, pad_names, picture_of, render
from host.screen.wording import Voice
from host.vboard.readiness import SILENT_S, silent_port
from shared_rules.wire import codec
from shared_rules.sheriff.modules import profile as deck_profile

RESUBSCRIBE_S = 1.5   # a connection out of sync this long (without a break) subscribes again
PING_WAIT_S = 0.3     # a PING without its PONG this long is sent again (lost in a reboot)
NAMES_S = 1.0        # how often the monitor reads the players' names the hub keeps


class SessionTimeout(TimeoutError):
    """The board did not do what was waited for in time."""


class BoardRefused(RuntimeError):
    """The board refused what was asked (a new game, a deck profile), saying why."""


NEWGAME_REFUSED = "board: new game refused: "
PROFILE_REFUSED = "board: deck profile refused: "


class WireCount:
    """Bytes on the wire of one direction, in total and per frame type (a frame counts with its
    delimiter; bytes that make no frame count under type -1)."""

    def __init__(self) -> None:
        self.total = 0
        self.by_type: dict[int, int] = {}
        self._frame = bytearray()

    def add(self, data: bytes) -> None:
        self.total += len(data)
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._frame += data[start:]
                return
            self._frame += data[start:end + 1]
            frame = bytes(self._frame)
            self._frame.clear()
            kinds = [f[0] for f in codec.FrameReader().frames(frame)]
            kind = kinds[0] if kinds else -1
            self.by_type[kind] = self.by_type.get(kind, 0) + len(frame)
            start = end + 1

    def without(self, *kinds: int) -> int:
        return self.total - sum(self.by_type.get(k, 0) for k in kinds)


class Session:
    """A mirrored connection to one board on ``port`` (a serial device, or a virtual board's
    ``BOARD_DIR/tty``)."""

    def __init__(self, port: str, view: int = PUBLIC,
                 opener: Callable[[str], Transport] | None = None, history: int = 200) -> None:
        self.port = port
        self.mirror = Mirror(view, history)
        self.opener = opener or open_serial
        self.link = SerialLink(port, self.mirror, opener=self._open, retry_s=0.2)
        self.lock = threading.RLock()
        self.events: list[Event] = []          # every event since the session started
        self.mirror.listeners.append(self.events.append)
        self.rx = WireCount()  # board -> host
        self.tx = WireCount()  # host -> board
        self.final: dict[str, Any] | None = None
        self._final_key: tuple[str, bytes] | None = None
        self.names: tuple[str, ...] = ()   # the players' names, as the port's hub keeps them
        self._subscribed_at = 0.0

    @property
    def name(self) -> str:
        """How the scoreboard and the link's messages name the board (default: its port)."""
        return self.link.name

    @name.setter
    def name(self, value: str) -> None:
        self.link.name = value

    def _open(self, port: str) -> Transport:
        conn = Tapped(self.opener(port), self.rx.add, self.tx.add)  # bytes on the wire
        self._subscribed_at = time.monotonic()
        return conn

    # -- moving bytes ----------------------------------------------------------------------
    def pump(self, wait: float | None = None) -> bool:
        """Move bytes once (waits up to ``wait`` seconds for them, None: the port's read
        timeout); True while connected."""
        with self.lock:
            up = self.link.poll(wait=wait)
            m = self.mirror
            now = time.monotonic()
            if not up or m.in_sync:
                self._subscribed_at = now  # out of sync is measured from here
            elif now - self._subscribed_at > RESUBSCRIBE_S:
                self._subscribed_at = now
                self.link.send(m.hello_bytes())  # our SUBSCRIBE (or its answer) got lost
            return up

    def send(self, data: bytes) -> None:
        with self.lock:
            self.link.send(data)

    def wait(self, done: Callable[[], bool], timeout: float, what: str,
             slow: tuple[float, Callable[[], None]] | None = None) -> None:
        """Pump until ``done()`` holds; ``SessionTimeout`` naming ``what`` otherwise. ``slow``:
        (seconds, call) — ``call()`` once if it has not held after that long."""
        start = time.monotonic()
        end = start + timeout
        while not done():
            if slow is not None and time.monotonic() - start > slow[0]:
                slow[1]()
                slow = None
            try:
                self.pump()
            except ConnectionError:
                pass  # the link notes it; SerialLink reconnects on the next pump
            if done():
                return
            if time.monotonic() > end:
                raise SessionTimeout("timed out after %.1f s waiting for %s" % (timeout, what))

    def connect(self, timeout: float = 10.0, say: Callable[[str], None] | None = None) -> None:
        """Wait for the board's HELLO and the first snapshot; ``say`` is told if none came in
        ``SILENT_S`` (a port with no tapmat firmware: the wait goes on to ``timeout``)."""
        slow = None
        if say is not None:
            slow = (SILENT_S, lambda: say("%s; waiting up to %.0f s" % (silent_port(self.port), timeout)))
        self.wait(lambda: self.mirror.in_sync, timeout, "the board's snapshot on %s" % self.port, slow)

    def close(self) -> None:
        with self.lock:
            self.link.close()

    # -- asking the board ------------------------------------------------------------------
    def ping(self, rounds: int = 1, timeout: float = 10.0) -> None:
        """``rounds`` PING/PONG round trips, one after the other. The board answers a PING in its
        loop before scanning the next reader, so each round trip lets the board loop at least
        once more (a lost PING is sent again)."""
        end = time.monotonic() + timeout
        for _ in range(rounds):
            want = self.mirror.pongs + 1
            while self.mirror.pongs < want:
                self.send(self.mirror.frame(codec.PING, b"tm"))
                sent = time.monotonic()
                while self.mirror.pongs < want and time.monotonic() - sent < PING_WAIT_S:
                    if time.monotonic() > end:
                        raise SessionTimeout("the board stopped answering PING on %s" % self.port)
                    self.pump()

    def new_game(self, header: dict[str, Any], timeout: float = 10.0, push_profile: bool = False,
                 replace: bool = False) -> bool:
        """Start a game (NEWGAME) and wait until its first snapshot is mirrored; ``BoardRefused``
        with the board's reason (a game under way is ended only with ``replace``). A board lacking
        the header's deck profile (or holding another) gets it pushed first when ``push_profile``;
        returns whether that happened."""
        hellos = self.mirror.hellos
        since = len(self.events)
        self.send(self.mirror.newgame_bytes(header, replace))
        try:
            self.wait(lambda: not self._refused(since, NEWGAME_REFUSED) and self.mirror.hellos > hellos
                      and self.mirror.header == header and self.mirror.in_sync and self.mirror.view is not None,
                      timeout, "the board to start %s" % header.get("game"))
            return False
        except BoardRefused as e:
            prof = header.get("profile")
            if not (push_profile and "deck profile:" in str(e) and isinstance(prof, dict)):
                raise
        self.push_profile(deck_profile.encode(prof), timeout)
        self.new_game(header, timeout, replace=replace)
        return True

    def push_profile(self, blob: bytes, timeout: float = 10.0) -> None:
        """Write a deck profile's binary form to the board's profile.bin (PROFILE frames) and wait
        for the board's STORED; ``BoardRefused`` with its reason."""
        since = len(self.events)
        with self.lock:
            self.mirror.stored = None
            for frame in self.mirror.profile_frames(blob):
                self.link.send(frame)
        want = (int.from_bytes(blob[-4:], "little"), len(blob))
        self.wait(lambda: not self._refused(since, PROFILE_REFUSED) and self.mirror.stored == want,
                  timeout, "the board to store the deck profile")

    def _refused(self, since: int, prefix: str) -> bool:
        """False, or ``BoardRefused`` raised when the board said ``prefix``... since event ``since``."""
        for ev in self.events[since:]:
            if ev.kind == "error" and ev.text.startswith(prefix):
                raise BoardRefused(ev.text[len("board: "):])
        return False

    def subscribe(self, view: int, timeout: float = 10.0) -> None:
        """Mirror another view (PUBLIC or REFEREE) from now on."""
        with self.lock:
            self.mirror.view_kind = view
            self.mirror.in_sync = False
            self._subscribed_at = time.monotonic()
            self.link.send(self.mirror.hello_bytes())
        self.wait(lambda: self.mirror.in_sync, timeout, "the board's snapshot")

    # -- what is shown ---------------------------------------------------------------------
    def over(self) -> bool:
        state = self.mirror.state()
        return state is not None and state.get("phase") == "over"

    def summary(self, rejected: list[dict[str, Any]] | None = None,
                timeout: float = 10.0) -> dict[str, Any]:
        """The replay contract's fields of the mirrored game (``host/hub/contract.py``); ``rejected``
        defaults to the refusals seen. A public mirror of a game whose public view hides scored
        facts (Sheriff contraband) takes one referee snapshot for them and goes back to the
        public view; nothing else of it is kept."""
        m = self.mirror
        if m.game_cls is None or m.view is None:
            raise ValueError("no game mirrored from %s" % self.port)
        if rejected is None:
            rejected = [{"error": e.reason, "reader": e.reader} for e in self.events if e.kind == "rejected"]
        name = m.game_cls.NAME
        header = m.header or {"game": name}
        if m.view_kind == PUBLIC and contract.needs_referee(name):
            self.subscribe(REFEREE, timeout)
            try:
                return contract.summary(m.game_cls, header, REFEREE, bytes(m.view), rejected)
            finally:
                self.subscribe(PUBLIC, timeout)
        return contract.summary(m.game_cls, header, m.view_kind, bytes(m.view), rejected)

    def standings(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """``summary()`` once the game is over (None before), asked of the board once per final
        table: a HELLO another client caused (through a hub) changes nothing."""
        if not self.over():
            return None
        if self.final is None or self._final_key != self._game_key():
            final = self.summary(timeout=timeout)
            self.final = final
            self._final_key = self._game_key()
        return self.final

    def _game_key(self) -> tuple[str, bytes]:
        m = self.mirror
        return json.dumps(m.header, sort_keys=True), bytes(m.view or b"")

    def picture(self, note: str = "", lang: str = "en") -> Picture:
        """What the scoreboard shows now (taken under the lock), in ``lang``."""
        with self.lock:
            m = self.mirror
            final = self.final if self._final_key == self._game_key() else None
            return picture_of(m, port=self.name, connected=self.link.conn is not None and m.connected,
                              final=final, rx_bytes=self.rx.total, tx_bytes=self.tx.total, note=note,
                              voice=Voice(lang, self.names))


def watch(port: str, referee: bool = False, exit_at_end: bool = False, screen: bool = True,
          console: Any = None, fps: float = 10.0, profiles: list[dict[str, Any]] | None = None,
          lang: str = "en") -> dict[str, Any] | None:
    """``tapmat monitor``: the live scoreboard of the board on ``port`` until Ctrl-C, or until the
    game is over with ``exit_at_end``; returns the final standings if the game ended; ``profiles``:
    deck profiles a card-module game may name (the shipped sample is always known). It attaches
    to the hub that owns the port, or becomes that hub itself (others may then attach to it);
    ``PortBusy`` if another program holds the port. The last picture stays on the terminal."""
    from rich.console import Console
    from rich.live import Live

    from host.hub import hub as hubs

    console = console or Console()
    own = None if hubs.running(port) else hubs.Hub(port, who="tapmat monitor").start()
    session = Session(port, REFEREE if referee else PUBLIC)
    for prof in profiles or ():   # the deck profiles the board's game may name by digest
        session.mirror.know_profile(prof)
        if own is not None:
            own.mirror.know_profile(prof)
    final = None
    try:
        with Live(console=console, screen=screen, auto_refresh=False, transient=True) as live:
            next_draw = 0.0
            lines = None if console.is_terminal else EventLines(console, lang)
            next_names = 0.0
            while True:
                if time.monotonic() >= next_names:   # names given on the TV or a phone meanwhile
                    session.names = names_beside(port)
                    next_names = time.monotonic() + NAMES_S
                try:
                    session.pump()
                    if session.over():
                        final = session.standings()
                except (ConnectionError, SessionTimeout):
                    pass  # shown as the link status; the link reconnects
                now = time.monotonic()
                if lines is not None:  # no terminal to redraw (a pipe, a log file): line by line
                    lines.show(session)
                elif now >= next_draw:
                    size = console.size
                    live.update(render(session.picture(lang=lang), size.width, size.height - 1), refresh=True)
                    next_draw = now + 1.0 / fps
                if exit_at_end and final is not None:
                    break
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
        if own is not None:
            own.close()
    size = console.size
    console.print(render(session.picture(lang=lang), size.width, size.height - 1))
    return final


class EventLines:
    """The monitor off a terminal: each event as one line, and the link whenever it changes,
    as they happen (a live view would show nothing there until the end)."""

    def __init__(self, console: Any, lang: str = "en") -> None:
        self.console = console
        self.lang = lang
        self.shown = 0      # session events printed so far
        self.link = ""      # the link's state last printed

    def show(self, session: "Session") -> None:
        p = session.picture(lang=self.lang)
        link = link_line(p)
        state = link.plain.split(" · ")[0]
        if state != self.link:
            self.link = state
            self.console.print(link, soft_wrap=True)
        game = (p.header or {}).get("game", "")
        voice = Voice(self.lang, session.names)
        pads = pad_names(game, int((p.header or {}).get("players", 0)), voice) if game else {}
        for ev in session.events[self.shown:]:
            self.console.print(event_line(ev, pads, game, voice), soft_wrap=True)
        self.shown = len(session.events)
