"""The hub: one process owns the board's serial port; every view attaches to it.

``Hub(port)`` claims the port (``host/hub/portlock.py``), mirrors the game (its own public
``Mirror``, which the web page and the final standings read) and listens on a Unix socket beside
the port's lock. A client's first line says what it wants:

- ``{"role": "link"}``: the link protocol, as if the client had the serial port itself
  (``attach()`` gives such a client as a transport for ``Session``: monitor, sim, tags). The hub
  forwards the client's frames whole, one at a time, so clients never interleave on the wire,
  and sends the board's frames on, renumbered per client (a client sees no gap for frames meant
  for others): snapshots, deltas and refusals only to clients of the view the board sends now,
  a PONG only to the client whose PING it answers, everything else to all;
- ``{"role": "handover"}``: the board for itself (``tapmat flash``, tag provisioning). The hub
  closes the port, drops its claim and answers ``{"released": true}``; when that client hangs
  up (shuts its sending side), the hub claims the port again, answers ``{"taken": true}`` and
  resynchronises every client; ``Claim.release`` returns only then.

A client asking for the referee view (``monitor --referee``; the sim's final Sheriff scores)
switches the board's subscription while it holds it: public clients and the hub's own mirror
then miss deltas until the board is back on the public view (a fresh snapshot). The hub puts it
back when no referee client is left.
"""
from __future__ import annotations

import collections
import json
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Deque

from host.hub import contract
from host.hub.corrections import Entry, UndoRefused
from host.hub import portlock
from host.hub.standings import sheriff_breakdown
from host.hub.store import Store
from host.hub.table import Archived, Table
from host.hub.mirror import (PUBLIC, REFEREE, Event, Mirror, SerialLink, Tapped, Transport, check_port, open_port,
                             profile_of_push, readable_within)
from shared_rules.wire import codec

READ_S = 0.05        # a client transport's read timeout (as the serial port's)
TAKE_BACK_S = 30.0
SEND_S = 2.0         # a client whose socket stays full this long is dropped   # after a hand-over, how long the hub waits for the port to be free again


NEWGAME_REFUSED = "board: new game refused: "
IN_PROGRESS = "a game is in progress"   # the board's words for a game under way (firmware/game_start.py)


class HubError(OSError):
    """The hub did not answer as a hub does."""


class GameRefused(ValueError):
    """The board refused a new game; the message is its reason."""

    @property
    def in_progress(self) -> bool:
        """A game is under way: the host may confirm (``replace``) to end it."""
        return str(self).startswith(IN_PROGRESS)


@dataclass
class Client:
    sock: socket.socket
    role: str = ""
    view: int = PUBLIC
    seq: int = 0
    line: bytearray = field(default_factory=bytearray)
    reader: codec.FrameReader = field(default_factory=codec.FrameReader)
    pushed: bytearray = field(default_factory=bytearray)   # a PROFILE push passing by

    def send(self, ftype: int, body: bytes) -> None:
        data = codec.encode(ftype, self.seq, body)
        self.seq = codec.seq_next(self.seq)
        self.sock.sendall(data)


class Hub:
    """Owns ``port`` from construction until ``close()``; ``step()`` moves bytes once (call it
    in a loop, or ``start()`` a thread that does)."""

    def __init__(self, port: str, who: str = "tapmat serve", history: int = 200, store: Store | None = None) -> None:
        check_port(port)  # NotAPort at once: waiting for /dev/null helps nobody
        self.port = port
        self.who = who
        self.claim: portlock.PortLock | None = portlock.claim(port, who)
        self.mirror = Mirror(PUBLIC, history)
        self.events: list[Event] = []
        self.mirror.listeners.append(self.events.append)
        self.link = SerialLink(port, self.mirror, opener=self._open, retry_s=0.3)
        self.lock = threading.RLock()
        self.board_view = PUBLIC
        self.clients: list[Client] = []
        self.pingers: Deque[Client | None] = collections.deque()
        self.handover: Client | None = None
        # what outlives the hub process (names, pairings, events, archive): ``tapmat serve``
        # keeps it in a file beside the port, other hubs in memory
        self.store = store if store is not None else Store(":memory:")
        self.table = Table(self.store)   # the players' names, this game's events, the games before
        restored = self.store.events_since(self.table.since)
        self.mirror.events.extend(restored)
        self.events.extend(restored)
        self.mirror.listeners.append(self.store.add_event)
        # the newest entry typed at the hub, while an undo may take it back (host/hub/corrections.py)
        self.entry: Entry | None = None
        self._sent: dict[str, Any] | None = None   # the host action waiting for its verdict
        self.mirror.listeners.append(self._followed)
        self.version = 0  # bumped on every frame from the board (the web page redraws on it)
        # called with the new version after each change (the fan-out bench stamps changes)
        self.listeners: list[Callable[[int], None]] = []
        self._reader = codec.FrameReader()
        self._hello: bytes | None = None   # the board's last HELLO and PROMPT bodies, for
        self._prompt: bytes | None = None  # answering a client's public SUBSCRIBE
        self._final: dict[str, Any] | None = None  # Sheriff's standings, for the final view
        self._final_key = b""
        # each paired phone's own side (Sheriff: its bag, the hand cards the mat saw, its stand
        # face down), from a PEEK of the board's state; asked only while a phone wants it
        self.own_wanted = 0            # seat sockets open (the web page counts them)
        self._own: tuple[bytes, dict[str, Any]] | None = None   # (public view asked at, the state)
        self._own_asks: Deque[bytes] = collections.deque(maxlen=8)   # PEEKs unanswered: their views
        self._asking = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.path = portlock.socket_path(port)
        try:
            self.path.unlink()  # a stale socket: whoever made it no longer holds the port
        except FileNotFoundError:
            pass
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(self.path))
        self.server.listen(8)
        self.server.setblocking(False)

    def _open(self, port: str) -> Transport:
        if self.claim is None:
            raise OSError("%s: handed over" % port)
        self._reader = codec.FrameReader()
        self.board_view = PUBLIC
        self._asking = False
        return Tapped(open_port(port), self._from_board)  # every byte read is routed to clients

    # -- the loop --------------------------------------------------------------------------
    def step(self) -> None:
        with self.lock:
            if self.handover is None:
                try:
                    up = self.link.poll()
                    self._ask_final()
                    self._ask_own()
                except OSError as e:  # the port went away, or turned into no port
                    self.mirror._note("link", "%s: %s" % (self.port, e))
                    up = False
            else:
                up = False
        if not up:
            time.sleep(READ_S)
        self._sockets()

    def serve(self) -> None:
        while not self._stop.is_set():
            self.step()

    def start(self) -> "Hub":
        self._thread = threading.Thread(target=self.serve, name="hub", daemon=True)
        self._thread.start()
        return self

    def wait(self) -> None:
        """Until ``close()`` (or Ctrl-C)."""
        while not self._stop.wait(0.5):
            pass

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        with self.lock:
            for c in list(self.clients):
                self._drop(c)
            self.server.close()
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            self.link.close()
            if self.claim is not None:
                self.claim.release()
                self.claim = None

    # -- what the web page asks --------------------------------------------------------------
    def final(self) -> dict[str, Any] | None:
        """The final standings once the game is over. Skull's and Dead Man's Draw's come from
        the public view; Sheriff's need the face-down contraband: the hub asks the board for one
        referee snapshot (``_ask_final``), keeps only the standings, and is back on the public
        view at once."""
        m = self.mirror
        with self.lock:
            state = m.state()
            if state is None or state.get("phase") != "over":
                return None
            if not contract.needs_referee(m.game_cls.NAME):
                return contract.summary(m.game_cls, m.header or {"game": m.game_cls.NAME}, PUBLIC,
                                        bytes(m.view or b""))
            return self._final if self._final_key == bytes(m.view or b"") else None

    def _ask_final(self) -> None:
        """In the loop: a Sheriff game just ended and nobody else holds the referee view."""
        m = self.mirror
        if self._asking or self.board_view != PUBLIC or not m.in_sync or self.link.conn is None:
            return
        state = m.state()
        if state is None or state.get("phase") != "over" or not contract.needs_referee(m.game_cls.NAME):
            return
        if self._final_key == bytes(m.view or b""):
            return
        self._asking = True
        self.board_view = REFEREE
        self._forward(codec.SUBSCRIBE, bytes([REFEREE]))

    def _ask_own(self) -> None:
        """In the loop: a Sheriff view changed while a phone is open: PEEK for the seats' own sides."""
        m = self.mirror
        if not self.own_wanted or not m.in_sync or self.link.conn is None or m.game_cls is None:
            return
        at = bytes(m.view or b"")
        if m.game_cls.NAME != "sheriff" or (self._own_asks and self._own_asks[-1] == at) or (
                self._own is not None and self._own[0] == at):
            return
        self._own_asks.append(at)
        self._forward(codec.PEEK, b"")

    def _got_own(self, body: bytes) -> None:
        """SEEN: what the referee knows of each seat, kept for that seat's phone only."""
        from shared_rules.sheriff import view as sheriff_view
        m = self.mirror
        at = self._own_asks.popleft() if self._own_asks else b""
        try:
            game = contract.load_state(m.game_cls, m.header or {"game": m.game_cls.NAME}, body[2:])
            self._own = (at, sheriff_view.referee(game))
        except (ValueError, AttributeError, IndexError, KeyError):
            self._own = None

    def own_side(self, seat: int) -> dict[str, Any] | None:
        """Seat ``seat``'s own hidden part, for its paired phone only (None: not known now)."""
        with self.lock:
            if self._own is None or self._own[0] != bytes(self.mirror.view or b""):
                return None
            seats = self._own[1].get("seats") or []
            if not 0 <= seat < len(seats):
                return None
            s = seats[seat]
            return {"bag": list(s.get("bag") or []), "known_hand": dict(s.get("known_hand") or {}),
                    "stand_all": dict(s.get("stand_all") or {}), "merry_man": s.get("merry_man_held")}

    def _got_final(self, body: bytes) -> None:
        """The referee snapshot ``_ask_final`` asked for: the standings, then the public view."""
        m = self.mirror
        self._asking = False
        try:
            header = m.header or {"game": m.game_cls.NAME}
            self._final = contract.summary(m.game_cls, header, REFEREE, body[2:])
            if m.game_cls.NAME == "sheriff":
                self._final["breakdown"] = sheriff_breakdown(contract.load_state(m.game_cls, header, body[2:]))
            self._final_key = bytes(m.view or b"")
        except (ValueError, AttributeError):
            self._final = None
        if not any(c.view == REFEREE for c in self.clients):
            self.board_view = PUBLIC
            self._forward(codec.SUBSCRIBE, bytes([PUBLIC]))

    def send_action(self, action: dict[str, Any], timeout: float = 5.0) -> Event:
        """Send ``action`` as a host ACTION frame and wait for the referee's verdict: the
        accepted event, or the refusal with its reason (``TimeoutError`` if none came)."""
        with self.lock:
            data = self.mirror.action_bytes(action)  # ValueError if malformed
            mark = len(self.events)
            self._sent = action
            self.link.send(data)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for ev in self.events[mark:]:
                    if ev.kind == "accepted" and ev.action and ev.action.get("a") == action["a"] \
                            and ev.action.get("p") == action["p"]:
                        return ev
                    if ev.kind == "rejected" and ev.reader is None:
                        return ev
            time.sleep(0.02)
        raise TimeoutError("the board gave no verdict in %.0f s" % timeout)

    def _followed(self, ev: Event) -> None:
        """Keep ``entry`` (the mirror's listener, under the lock): a move this hub sent becomes
        the entry when accepted; any other accepted move (the mat's) ends what came before."""
        if ev.kind == "accepted":
            sent = self._sent
            if sent is not None and ev.action and (ev.action.get("a"), ev.action.get("p")) == (sent.get("a"), sent.get("p")):
                self._sent = None
                self.entry = Entry("action", int(ev.action["p"]), self.mirror.hellos, action=ev.action, sent=sent)
            else:
                self.entry = None
        elif ev.kind == "rejected" and ev.reader is None:
            self._sent = None
        elif ev.kind == "undone":
            self.entry = None

    def entered(self, entry: Entry) -> None:
        """A name or pairing the hub keeps was typed: the newest entry now (the caller redraws)."""
        with self.lock:
            self.entry = entry

    def last_entry(self) -> Entry | None:
        """What an undo would take back now (None: nothing; a new game ends every entry)."""
        with self.lock:
            entry = self.entry
            return entry if entry is not None and entry.hellos == self.mirror.hellos else None

    def undo(self, timeout: float = 5.0) -> Entry:
        """Take back the newest entry: the hub's own at once; a move by UNDO, the board ruling
        (``UndoRefused`` with its reason, ``TimeoutError`` if it does not answer)."""
        with self.lock:
            entry = self.last_entry()
            if entry is None:
                raise UndoRefused("nothing_to_undo")
            if entry.restore is not None:
                entry.restore()
                self.entry = None
            else:
                data = self.mirror.action_bytes(entry.sent or {}, codec.UNDO)
                mark = len(self.events)
                self.link.send(data)
        if entry.restore is not None:
            self.changed()
            return entry
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for ev in self.events[mark:]:
                    if ev.kind == "undone":
                        return entry
                    if ev.kind == "undo_refused":
                        if self.entry is entry:
                            self.entry = None   # the board will not take it back: nor will the button
                        raise UndoRefused(ev.reason or "nothing_to_undo")
            time.sleep(0.02)
        raise TimeoutError("the board gave no answer to the undo in %.0f s" % timeout)

    def changed(self) -> None:
        """Something the views show changed outside the board (a name, a new game): redraw."""
        self.version += 1
        for listener in self.listeners:
            listener(self.version)

    def new_game(self, header: dict[str, Any], replace: bool = False, timeout: float = 10.0) -> Archived | None:
        """Start ``header``'s game on the board (NEWGAME; ``replace``: end a game under way) and
        wait for it; the game that ends is archived (returned, None if it had no move) and the
        events shown from now on are the new game's. ``ValueError`` for a header the rules
        refuse, ``GameRefused`` with the board's reason, ``TimeoutError`` without an answer."""
        with self.lock:
            data = self.mirror.newgame_bytes(header, replace)   # ValueError: not a game
            if self.link.conn is None:
                raise ConnectionError("no board on %s" % self.port)
            hellos, mark, sent = self.mirror.hellos, len(self.events), time.time()
            old_header = self.mirror.header   # the game that ends, for the archive
            old_seats = len((self.mirror.state() or {}).get("seats") or [])
            self.link.send(data)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for ev in self.events[mark:]:
                    if ev.kind == "error" and ev.text.startswith(NEWGAME_REFUSED):
                        raise GameRefused(ev.text[len(NEWGAME_REFUSED):])
                m = self.mirror
                if m.hellos > hellos and m.in_sync and m.view is not None:
                    before = [ev for ev in self.events[:mark] if ev.at < sent]
                    done = self.table.close_game(old_header, before, old_seats)
                    self.changed()
                    return done
            time.sleep(0.02)
        raise TimeoutError("the board did not start the game in %.0f s" % timeout)

    # -- board -> clients ------------------------------------------------------------------
    def _from_board(self, data: bytes) -> None:
        self.version += 1
        for ftype, _seq, body in self._reader.frames(data):
            if ftype == codec.SEEN:   # for the hub alone: never forwarded to any client
                self._got_own(body)
                continue
            if ftype == codec.SNAPSHOT and self._asking and body[:1] == bytes([REFEREE]):
                self._got_final(body)
            if ftype == codec.HELLO:
                self._hello, self._prompt = body, None
            elif ftype == codec.PROMPT:
                self._prompt = body
            if ftype == codec.PONG:
                owner = self.pingers.popleft() if self.pingers else None
                targets = [owner] if owner in self.clients else []
            elif ftype == codec.SNAPSHOT:
                targets = [c for c in self.clients if c.role == "link" and body[:1] == bytes([c.view])]
            elif ftype in (codec.DELTA, codec.REJECT):
                targets = [c for c in self.clients if c.role == "link" and c.view == self.board_view]
            else:
                targets = [c for c in self.clients if c.role == "link"]
            for c in targets:
                if c is not None:
                    self._send(c, ftype, body)
        for listener in self.listeners:
            listener(self.version)

    def _send(self, c: Client, ftype: int, body: bytes) -> None:
        try:
            c.send(ftype, body)
        except OSError:
            self._drop(c)

    # -- clients -> board ------------------------------------------------------------------
    def _sockets(self) -> None:
        socks = [self.server] + [c.sock for c in self.clients]
        try:
            ready, _, _ = select.select(socks, [], [], 0)
        except (OSError, ValueError):
            return
        for s in ready:
            if s is self.server:
                try:
                    conn, _ = self.server.accept()
                except OSError:
                    continue
                conn.settimeout(SEND_S)  # a client that does not read is dropped, not waited for
                self.clients.append(Client(conn))
                continue
            c = next((c for c in self.clients if c.sock is s), None)
            if c is None:
                continue
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                self._drop(c)
            else:
                self._from_client(c, data)

    def _from_client(self, c: Client, data: bytes) -> None:
        if not c.role:
            c.line += data
            if b"\n" not in c.line:
                if len(c.line) > 200:
                    self._drop(c)
                return
            first, _, rest = bytes(c.line).partition(b"\n")
            try:
                role = json.loads(first).get("role")
            except (ValueError, AttributeError):
                role = None
            if role not in ("link", "handover"):
                self._drop(c)
                return
            c.role = role
            if role == "handover":
                self._hand_over(c)
                return
            data = rest
        if c.role != "link":
            return
        with self.lock:
            for ftype, _seq, body in c.reader.frames(data):
                if ftype == codec.SUBSCRIBE:
                    c.view = REFEREE if body[:1] == bytes([REFEREE]) else PUBLIC
                    if self._answer(c):
                        continue
                    self.board_view = c.view
                elif ftype == codec.PING:
                    self.pingers.append(c)
                elif ftype == codec.PROFILE:   # the hub's mirror names the game's profile too
                    pushed = profile_of_push(c.pushed, body)
                    if pushed is not None:
                        self.mirror.know_profile(pushed)
                self._forward(ftype, body)

    def _answer(self, c: Client) -> bool:
        """Answer a public SUBSCRIBE from the hub's own exact mirror (HELLO, SNAPSHOT, PROMPT),
        so the other clients get no HELLO they did not ask for (it would look like a new game)."""
        m = self.mirror
        if c.view != PUBLIC or self.board_view != PUBLIC or not m.in_sync or self._hello is None:
            return False
        self._send(c, codec.HELLO, self._hello)
        game_id = m.game_cls.GAME_ID if m.game_cls is not None and m.view is not None else 0
        self._send(c, codec.SNAPSHOT, bytes([PUBLIC, game_id]) + (bytes(m.view or b"") if game_id else b""))
        if self._prompt is not None:
            self._send(c, codec.PROMPT, self._prompt)
        return True

    def _forward(self, ftype: int, body: bytes) -> None:
        if self.link.conn is None:
            return  # no board: the client's own timeouts say so
        try:
            self.link.send(self.mirror.frame(ftype, body))
        except ConnectionError:
            pass

    def _drop(self, c: Client) -> None:
        if c in self.clients:
            self.clients.remove(c)
        if c is self.handover:
            self._take_back()
            try:   # the client waits for this, so the board is the hub's again when it returns
                c.sock.sendall(b'{"taken": true}\n')
            except OSError:
                pass
        try:
            c.sock.close()
        except OSError:
            pass
        if self.board_view != PUBLIC and not self._asking and not any(x.view != PUBLIC for x in self.clients):
            with self.lock:
                self.board_view = PUBLIC
                if self.link.conn is not None:
                    try:
                        self.link.send(self.mirror.hello_bytes())
                    except ConnectionError:
                        pass

    # -- hand-over -------------------------------------------------------------------------
    def _hand_over(self, c: Client) -> None:
        with self.lock:
            self.handover = c
            self.link.close()
            self.mirror.connected = False
            self.mirror.in_sync = False
            self.pingers.clear()
            if self.claim is not None:
                self.claim.release()
                self.claim = None
        self.mirror._note("link", "board handed over (flashing)")
        try:
            c.sock.sendall(b'{"released": true}\n')
        except OSError:
            self._drop(c)

    def _take_back(self) -> None:
        self.handover = None
        end = time.monotonic() + TAKE_BACK_S
        while self.claim is None:
            try:
                self.claim = portlock.claim(self.port, self.who)
            except portlock.PortBusy:
                if time.monotonic() > end:
                    self.mirror._note("link", "the port is still busy: not taken back")
                    return
                time.sleep(0.1)
        self.mirror._note("link", "board taken back")


# -- the client side -------------------------------------------------------------------------
class HubTransport:
    """A link client's end of the hub socket, shaped like a serial port for ``SerialLink``."""

    via = "the hub of "  # "connected to the hub of PORT": not yet to a board

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.settimeout(READ_S)

    def read(self, size: int, wait: float | None = None) -> bytes:
        if not readable_within(self.sock, wait):
            return b""
        try:
            data = self.sock.recv(size)
        except socket.timeout:
            return b""
        if not data:
            raise ConnectionError("the hub closed the connection")
        return data

    def write(self, data: bytes) -> int | None:
        self.sock.sendall(data)
        return len(data)

    def close(self) -> None:
        self.sock.close()


def _connect(port: str, role: str) -> socket.socket | None:
    """A connection to the hub owning ``port`` (None if no hub listens)."""
    path = portlock.socket_path(port)
    if not path.exists():
        return None
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(str(path))
        s.sendall(json.dumps({"role": role}).encode() + b"\n")
    except OSError:
        s.close()
        return None
    return s


def attach(port: str) -> HubTransport | None:
    """A link transport through the hub owning ``port``, or None if there is none."""
    s = _connect(port, "link")
    return HubTransport(s) if s is not None else None


def running(port: str) -> bool:
    """Whether a hub owns ``port`` now."""
    s = _connect(port, "link")
    if s is None:
        return False
    s.close()
    return True


class Claim:
    """The port for one process alone: handed over by its hub, or claimed directly."""

    def __init__(self, port: str, who: str | None = None, timeout: float = 10.0) -> None:
        self.lock: portlock.PortLock | None = None
        self.sock = _connect(port, "handover")
        if self.sock is not None:
            self.sock.settimeout(timeout)
            try:
                answer = self.sock.recv(200)
            except OSError:
                answer = b""
            if b"released" not in answer:
                self.sock.close()
                raise HubError("%s: the hub did not hand the board over (%s)"
                               % (port, portlock.holder(port) or "no answer"))
        self.lock = portlock.claim(port, who)

    def release(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None
        if self.sock is not None:
            try:   # hang up, then wait until the hub has the board back (or the timeout)
                self.sock.shutdown(socket.SHUT_WR)
                while self.sock.recv(200):
                    pass
            except OSError:
                pass
            self.sock.close()
            self.sock = None


def open_serial(port: str) -> Transport:
    """The board on ``port``: through the hub that owns it (``tapmat serve``, a monitor), or
    the port itself, claimed for this process (``PortBusy`` naming the owner otherwise)."""
    attached = attach(port)
    if attached is not None:
        return attached
    claim = portlock.claim(port)
    try:
        return open_port(port, claim)
    except BaseException:
        claim.release()
        raise
