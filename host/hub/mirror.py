"""The host's end of the link: a mirrored copy of the board's game view, kept exact.

The board sends HELLO and a SNAPSHOT, then a DELTA per accepted action (the changed bytes of the
view) and a REJECT per refused one. The mirror applies deltas to its copy; a gap in sequence
numbers, a bad frame or a delta that does not fit makes it ask for a RESYNC and ignore deltas
until the fresh SNAPSHOT arrives, so the picture is never wrong, only briefly stale. Frames are
decoded by ``shared_rules/wire/codec.py``, the same module the board uses.
"""
from __future__ import annotations

import errno
import functools
import json
import os
import select
import stat
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Protocol

from host.screen import views
from host.screen import wording
from host.hub.portlock import PortBusy
from shared_rules import games
from shared_rules.wire import codec
from shared_rules.sheriff.modules import cards
from shared_rules.sheriff.modules import expansion
from shared_rules.sheriff.modules import profile as deck_profile
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.core.engine import COMMON_REASONS, FIRST_GAME_REASON

PUBLIC = 0
REFEREE = 1
FROM_HOST = 255
# Why the board refused an UNDO (UNDONE's first byte), as reason names (host/screen/table_words.py).
UNDO_REASONS = {codec.UNDO_NONE: "nothing_to_undo", codec.UNDO_MAT: "moved_on_mat", codec.UNDO_OTHER: "not_last_entry"}
GAME_CLASSES = {}
for _name in games.names():
    try:
        _cls = games.game_class(_name)
        GAME_CLASSES[_cls.GAME_ID] = _cls
    except ValueError:
        pass
for _cls in (expansion.SheriffMM, cards.SheriffCards):   # Sheriff with modules
    GAME_CLASSES[_cls.GAME_ID] = _cls


def newgame_body(header: dict[str, Any], replace: bool = False) -> bytes:
    """A NEWGAME body: the header in its link form (an inline deck profile replaced by its digest:
    the board reads the card data from its own profile.bin, docs/protocol.md); ``replace``: the
    host confirms that a game under way may end (the board refuses otherwise). ``ValueError`` if
    even that does not fit one frame."""
    link = deck_profile.link_header(header)
    body = json.dumps(dict(link, replace=True) if replace else link).encode()
    if len(body) > codec.MAX_BODY:
        raise ValueError("the header is %d bytes, a frame to the board carries at most %d" % (len(body), codec.MAX_BODY))
    return body


def header_text(header: Any) -> str:
    """A header as JSON for messages, an inline deck profile shown by its name (it is kilobytes)."""
    prof = header.get("profile") if isinstance(header, dict) else None
    if isinstance(prof, dict):
        header = dict(header, profile="<deck profile %r>" % prof.get("name"))
    return json.dumps(header)


def class_for(header: Any, default: Any) -> Any:
    """The class the board's header makes (a game with modules has its own: Sheriff with Merry
    Men), else the class of the HELLO's game id (also for a header whose profile this host does
    not know)."""
    if isinstance(header, dict) and header.get("modules"):
        try:
            return type(games.from_header(header))
        except ValueError:
            pass
    return default


@functools.lru_cache(maxsize=1)
def sample_profile() -> dict[str, Any]:
    """The shipped sample deck profile (placeholder values): every host knows it."""
    from host.board.deck_profile import SAMPLE, load
    return load(SAMPLE)


def profile_of_push(chunks: bytearray, body: bytes) -> dict[str, Any] | None:
    """Follow a PROFILE push passing by (the hub forwards a client's): collect its chunks in
    ``chunks``; the profile once the last one is in (None before, or when it is not one)."""
    if len(body) < 5:
        return None
    at, total = int.from_bytes(body[0:2], "little"), int.from_bytes(body[2:4], "little")
    if at == 0:
        chunks.clear()
    if at != len(chunks):
        chunks.clear()
        return None
    chunks.extend(body[4:])
    if len(chunks) != total:
        return None
    blob = bytes(chunks)
    chunks.clear()
    try:
        return deck_profile.decode(blob, "the pushed profile")
    except ValueError:
        return None


class Transport(Protocol):
    """What the mirror needs of a serial port. ``read`` returns what came, waiting up to the
    port's own timeout, or up to ``wait`` seconds when given (a caller that polls something
    else between reads: the sim's hands asking the virtual board what it has scanned)."""

    def read(self, size: int, wait: float | None = None) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


@dataclass
class Event:
    """Something that happened on the mat, for the scoreboard's event list."""

    kind: str                  # "accepted", "rejected", "undone", "undo_refused", "error", "link"
    text: str
    seat: int | None = None
    action: dict[str, Any] | None = None
    at: float = field(default_factory=time.time)
    reason: str | None = None  # a refusal's reason code name
    reader: int | None = None  # the pad a refusal happened at (None: a host action)
    outcome: wording.Outcome | None = None  # what an accepted move did beyond itself (host/screen/wording.py)


@dataclass(frozen=True)
class Prompt:
    """What the mat waits for (a PROMPT frame): ``what`` indexes the game's gesture module's
    ``PROMPTS``; ``seats`` is a bit mask; ``zone`` a zone index; ``reader`` the pad (255: each
    awaited seat's own pad)."""

    what: int
    seats: int
    zone: int
    reader: int


class Mirror:
    def __init__(self, view: int = PUBLIC, history: int = 50) -> None:
        self.view_kind = view
        self.reader = codec.FrameReader()
        self.game_cls: Any = None
        self.header: dict[str, Any] | None = None
        self.view: bytearray | None = None
        self.view_of = view     # the kind of view ``view`` holds (a subscription switch lags)
        self.in_sync = False
        self.last_seq: int | None = None
        self.out_seq = 0
        self.prompt: Prompt | None = None
        # readers the board reports down or stuck: reader -> (state, since (time.time()), VersionReg)
        self.reader_faults: dict[int, tuple[int, float, int]] = {}
        self.events: Deque[Event] = deque(maxlen=history)
        self.frames = 0
        self.resyncs = 0
        self.bad_frames = 0
        self.board_errors = 0
        self.hellos = 0
        self.snapshots = 0
        self.pongs = 0
        self.connected = False
        self.listeners: list[Callable[[Event], None]] = []
        self._outbox: list[bytes] = []
        self._asked = 0.0
        # deck profiles this host knows: a HELLO header names its profile by digest (docs/protocol.md)
        self.profiles: list[dict[str, Any]] = []
        self.stored: tuple[int, int] | None = None   # the last STORED: a pushed profile's CRC-32, size

    # -- sending ---------------------------------------------------------------------------
    def frame(self, ftype: int, body: bytes = b"") -> bytes:
        data = codec.encode(ftype, self.out_seq, body)
        self.out_seq = codec.seq_next(self.out_seq)
        return data

    def hello_bytes(self) -> bytes:
        """What to send on (re)connecting: a delimiter to end junk, then SUBSCRIBE."""
        self.out_seq = 0
        self.in_sync = False
        self.last_seq = None
        return b"\x00" + self.frame(codec.SUBSCRIBE, bytes([self.view_kind]))

    def take_outbox(self) -> bytes:
        """Frames the mirror wants sent (resync requests)."""
        data = b"".join(self._outbox)
        self._outbox.clear()
        return data

    def action_bytes(self, action: dict[str, Any], ftype: int = codec.ACTION) -> bytes:
        """An ACTION frame for an input the mat has no sensor for (``ValueError`` if malformed);
        ``ftype`` UNDO: the frame that takes that entry back (the board compares public fields)."""
        if self.game_cls is None:
            raise ValueError("no game on the board")
        rec = bytearray(ACTION_SIZE)
        err = self.game_cls.VOCAB.encode(action, rec)
        if err:
            raise ValueError("malformed action %r" % (action,))
        n = ACTION_SIZE
        while n > 2 and rec[n - 1] == 0:
            n -= 1
        return self.frame(ftype, bytes(rec[:n]))

    def know_profile(self, profile: dict[str, Any]) -> None:
        """Remember a deck profile (a whole one, or the part a header carries) for the HELLO
        headers that name it by digest."""
        if profile not in self.profiles:
            self.profiles.append(profile)

    def newgame_bytes(self, header: dict[str, Any], replace: bool = False) -> bytes:
        games.from_header(header)  # refuse locally what the board would refuse
        if isinstance(header.get("profile"), dict):
            self.know_profile(header["profile"])
        return self.frame(codec.NEWGAME, newgame_body(header, replace))

    def profile_frames(self, blob: bytes) -> list[bytes]:
        """PROFILE frames that push a deck profile's binary form to the board's profile.bin."""
        if not blob or len(blob) > 0xFFFF:
            raise ValueError("a deck profile of %d bytes cannot be pushed" % len(blob))
        step = codec.MAX_BODY - 4
        total = len(blob).to_bytes(2, "little")
        return [self.frame(codec.PROFILE, at.to_bytes(2, "little") + total + blob[at:at + step])
                for at in range(0, len(blob), step)]

    def log_header(self, header: Any) -> Any:
        """A HELLO header in its log form: the deck profile its digest names put back inline, so
        the log replays anywhere (unchanged, with a note, if this host does not know it)."""
        digest = header.get("profile") if isinstance(header, dict) else None
        if not isinstance(digest, str):
            return header
        modules = header.get("modules", ())
        for prof in list(reversed(self.profiles)) + [sample_profile()]:
            try:
                if deck_profile.digest(prof, modules) == digest:
                    return dict(header, profile=deck_profile.for_modules(prof, modules))
            except ValueError:
                continue   # a profile lacking what these modules need
        self._note("error", "the board's game uses deck profile %s, which this host does not know: "
                            "give the profile file (--profile)" % digest)
        return header

    # -- receiving -------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        before = sum(self.reader.errors)
        for ftype, seq, body in self.reader.frames(data):
            self._frame(ftype, seq, body)
        if sum(self.reader.errors) != before:
            self.bad_frames += sum(self.reader.errors) - before
            self._note("link", "bad frame on the line (%s)" % codec.ERROR_NAMES[self.reader.last_error])
            self._resync()

    def _frame(self, ftype: int, seq: int, body: bytes) -> None:
        self.frames += 1
        if self.last_seq is not None and codec.seq_gap(self.last_seq, seq) and ftype != codec.HELLO:
            self._note("link", "frames lost (sequence gap)")
            self._resync()
        self.last_seq = seq
        if ftype == codec.HELLO:
            self._hello(body)
        elif ftype == codec.SNAPSHOT:
            self._snapshot(body)
        elif ftype == codec.DELTA:
            self._delta(body)
        elif ftype == codec.REJECT:
            self._reject(body)
        elif ftype == codec.UNDONE:
            self._undone(body)
        elif ftype == codec.PROMPT and len(body) >= 5:
            self.prompt = Prompt(body[0], body[1] | body[2] << 8, body[3], body[4])
        elif ftype == codec.PONG:
            self.pongs += 1
        elif ftype == codec.DIAG and body[:1] == bytes([codec.DIAG_READER]) and len(body) >= 4:
            self._reader_health(body[1], body[2], body[3])
        elif ftype == codec.DIAG and body[:1] == bytes([codec.DIAG_MESSAGE]):
            self._note("error", "board: " + body[1:].decode("utf-8", "replace"))
        elif ftype == codec.STORED and len(body) >= 6:
            self.stored = (int.from_bytes(body[0:4], "little"), body[4] | body[5] << 8)
            self._note("info", "board: deck profile stored (%d bytes, crc32:%08x)" % (self.stored[1], self.stored[0]))
        elif ftype == codec.ERROR:
            self.board_errors += 1
            kind = body[0] if body else 0
            self._note("error", "the board got a bad frame (%s)" % codec.ERROR_NAMES[kind % len(codec.ERROR_NAMES)])

    def _reader_health(self, reader: int, state: int, version: int) -> None:
        """DIAG reader (firmware/sensors.py): 0 working again, 1 down, 2 scans keep failing."""
        old = self.reader_faults.get(reader)
        if state == 0:
            if self.reader_faults.pop(reader, None) is not None:
                self._note("info", "board: reader %d works again" % reader)
            return
        if old is None or old[0] != state:
            self.reader_faults[reader] = (state, time.time(), version)
            what = "is down (not answering)" if state == 1 else "keeps failing: a damaged tag on its pad?"
            self._note("error", "board: reader %d %s" % (reader, what))

    def _hello(self, body: bytes) -> None:
        self.connected = True
        self.hellos += 1
        self.prompt = None
        game_id = body[4] if len(body) > 5 else 0
        self.game_cls = GAME_CLASSES.get(game_id)
        try:
            self.header = self.log_header(json.loads(body[6:].decode())) if len(body) > 6 else None
        except ValueError:
            self.header = None
        self.game_cls = class_for(self.header, self.game_cls)
        self.view = None   # the last game's view means nothing to this game's class: wait for its snapshot
        self.in_sync = False

    def _snapshot(self, body: bytes) -> None:
        if len(body) < 2 or body[0] != self.view_kind:
            return  # e.g. the public snapshot a board sends at boot, before our SUBSCRIBE
        if body[1] == 0:
            self.view = None
            self.in_sync = self.game_cls is None
            return
        if self.game_cls is None or body[1] != self.game_cls.GAME_ID:
            self._resync()
            return
        self.view = bytearray(body[2:])
        self.view_of = body[0]
        self.snapshots += 1
        self.in_sync = True
        self._asked = 0.0

    def _record(self, body: bytes, at: int) -> tuple[dict[str, Any] | None, int]:
        """The action object of a record inside a body (length first); and the offset after it."""
        n = body[at]
        rec = bytearray(ACTION_SIZE)
        rec[:n] = body[at + 1:at + 1 + n]
        action = None
        if n and self.game_cls is not None and self.game_cls.VOCAB.valid(rec):
            action = self.game_cls.VOCAB.decode(rec, public=self.view_kind == PUBLIC)
        return action, at + 1 + n

    def _delta(self, body: bytes) -> None:
        action, at = self._record(body, 0)
        before = after = None
        if self.in_sync and self.view is not None:
            before = self.state()
            if codec.apply_runs(self.view, body, at) < 0:
                self._note("link", "a delta did not fit the mirrored view")
                self._resync()
            else:
                after = self.state()
        game = self.game_cls.NAME if self.game_cls is not None else ""
        self._note("accepted", describe_action(action), action,
                   outcome=wording.outcome(game, action, before, after))

    def _reject(self, body: bytes) -> None:
        if len(body) < 3:
            return
        reason = self.reason(body[0])
        action, at = self._record(body, 2)
        reader = None if body[1] == FROM_HOST else body[1]
        where = "" if reader is None else " (reader %d)" % reader
        uid = body[at:at + 7].hex() if len(body) >= at + 7 else None
        if uid and reason != "unknown_tag" and self.view_kind == PUBLIC:
            uid = None  # a registered piece's UID would tell which piece it is (a Skull disc)
        what = describe_action(action) if action else ("tag %s" % uid if uid else "a tag")
        self._note("rejected", "%s refused: %s%s" % (what, reason.replace("_", " "), where), action,
                   reason, reader)

    def _undone(self, body: bytes) -> None:
        """The board's answer to UNDO: the entry taken back (its SNAPSHOT follows), or why not."""
        if len(body) < 2:
            return
        action, _ = self._record(body, 1)
        if body[0] == 0:
            self._note("undone", "undone: %s" % describe_action(action), action)
            return
        reason = UNDO_REASONS.get(body[0], "reason_%d" % body[0])
        self._note("undo_refused", "undo refused: %s" % reason.replace("_", " "), reason=reason)

    def reason(self, code: int) -> str:
        if code < FIRST_GAME_REASON:
            return COMMON_REASONS[code] if code < len(COMMON_REASONS) else "reason_%d" % code
        # every game keeps its names in one string (a board's heap): split here, on the host
        names = self.game_cls.REASONS.split() if self.game_cls is not None else []
        if code - FIRST_GAME_REASON < len(names):
            return names[code - FIRST_GAME_REASON]
        return "reason_%d" % code

    def _resync(self) -> None:
        """Ask for a SNAPSHOT once (again after a second without one, in case the ask was lost)."""
        now = time.monotonic()
        if self.in_sync or now - self._asked > 1.0:
            self.resyncs += 1
            self._asked = now
            self._outbox.append(self.frame(codec.RESYNC))
        self.in_sync = False

    def _note(self, kind: str, text: str, action: dict[str, Any] | None = None,
              reason: str | None = None, reader: int | None = None,
              outcome: wording.Outcome | None = None) -> None:
        seat = action.get("p") if action else None
        ev = Event(kind, text, seat, action, reason=reason, reader=reader, outcome=outcome)
        self.events.append(ev)
        for fn in self.listeners:
            fn(ev)

    # -- what the scoreboard shows ---------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        """The mirrored view as a dict (the game's ``describe``: ``host.screen.views``), or None before a snapshot."""
        if self.game_cls is None or self.view is None or self.view_of != self.view_kind:
            return None   # (or still the other view: the switched subscription's snapshot is on its way)
        if self.view_kind == REFEREE:
            try:
                game = games.from_header(self.header or {"game": self.game_cls.NAME})
            except ValueError:
                return None   # a header naming a deck profile this host does not know
            game.s[:] = self.view[:len(game.s)]
            return views.referee(game)
        try:
            return views.describe(self.game_cls, self.view)
        except (IndexError, KeyError, ValueError):
            # A view this game's class cannot read (a board out of step with its HELLO): say so and
            # ask again rather than take the scoreboard down.
            self.view = None
            self._note("link", "the mirrored view does not fit %s: asked for a new snapshot" % self.game_cls.NAME)
            self._resync()
            return None


def describe_action(action: dict[str, Any] | None) -> str:
    """``seat 2: bid n=3`` — a short line for the event list."""
    if not action:
        return "action"
    fields = " ".join("%s=%s" % (k, v) for k, v in action.items() if k not in ("a", "p"))
    return ("seat %d: %s %s" % (action["p"], action["a"], fields)).strip()


class SerialLink:
    """Runs a ``Mirror`` over a serial port, reconnecting when the port goes away."""

    def __init__(self, port: str, mirror: Mirror, opener: Callable[[str], Transport],
                 retry_s: float = 0.5) -> None:
        self.port = port
        self.name = port  # how messages name the board (the demo: "the demo's virtual board")
        self.mirror = mirror
        self.opener = opener
        self.retry_s = retry_s
        self.conn: Transport | None = None
        self._next_try = 0.0

    def poll(self, budget: int = 4096, wait: float | None = None) -> bool:
        """Move bytes both ways once (reading waits up to ``wait`` seconds, None: the port's
        timeout); True if the port is open."""
        if self.conn is None and not self._connect():
            return False
        assert self.conn is not None
        try:
            out = self.mirror.take_outbox()
            if out:
                self.conn.write(out)
            data = self.conn.read(budget, wait)
        except (OSError, IOError) as e:
            self._lost(str(e))
            return False
        if data:
            self.mirror.feed(data)
        return True

    def send(self, data: bytes) -> None:
        if self.conn is None:
            raise ConnectionError("board not connected on %s" % self.name)
        try:
            self.conn.write(data)
        except (OSError, IOError) as e:
            self._lost(str(e))
            raise ConnectionError("board went away on %s" % self.name) from e

    def _connect(self) -> bool:
        now = time.monotonic()
        if now < self._next_try:
            return False
        self._next_try = now + self.retry_s
        try:
            self.conn = self.opener(self.port)
        except (PortBusy, NotAPort):
            raise  # waiting will not help: say so at once
        except (OSError, IOError):
            self.conn = None
            return False
        self.mirror._note("link", "connected to %s%s" % (getattr(self.conn, "via", ""), self.name))
        self.conn.write(self.mirror.hello_bytes())
        return True

    def _lost(self, why: str) -> None:
        self.mirror.connected = False
        self.mirror.in_sync = False
        self.mirror._note("link", "lost the board on %s (%s); reconnecting" % (self.name, why))
        try:
            if self.conn is not None:
                self.conn.close()
        except (OSError, IOError):
            pass
        self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class _Port:
    """pyserial's ``Serial`` whose ``read`` returns as soon as bytes are there (``Serial.read(n)``
    waits for all n or the timeout: 50 ms of lag on every frame). ``claim``: the port's lock,
    dropped on close."""

    def __init__(self, port: Any, claim: Any = None) -> None:
        self.port = port
        self.claim = claim

    def read(self, size: int, wait: float | None = None) -> bytes:
        if not readable_within(self.port, wait):
            return b""
        data = self.port.read(1)
        waiting = self.port.in_waiting if data else 0
        return data + self.port.read(min(size - 1, waiting)) if waiting and size > 1 else data

    def write(self, data: bytes) -> int | None:
        return self.port.write(data)

    def close(self) -> None:
        try:
            self.port.close()
        finally:
            if self.claim is not None:
                self.claim.release()


class Tapped:
    """A transport whose bytes are also handed to ``on_read`` / ``on_write`` as they pass
    (bytes counted on the wire; the hub routing the board's frames to its clients)."""

    def __init__(self, inner: Transport, on_read: Callable[[bytes], None] | None = None,
                 on_write: Callable[[bytes], None] | None = None) -> None:
        self.inner = inner
        self.on_read = on_read
        self.on_write = on_write
        self.via = getattr(inner, "via", "")  # "the hub of ": what the link is connected to

    def read(self, size: int, wait: float | None = None) -> bytes:
        data = self.inner.read(size, wait)
        if data and self.on_read is not None:
            self.on_read(data)
        return data

    def write(self, data: bytes) -> int | None:
        if self.on_write is not None:
            self.on_write(data)
        return self.inner.write(data)

    def close(self) -> None:
        self.inner.close()


def readable_within(conn: Any, wait: float | None) -> bool:
    """Whether ``conn`` (anything with ``fileno``) has bytes to read within ``wait`` seconds;
    True when ``wait`` is None (the read itself waits, up to its own timeout)."""
    return wait is None or bool(select.select([conn], [], [], wait)[0])


class NotAPort(OSError):
    """The path exists but is no serial port (``/dev/null``, a folder): waiting will not help."""


def check_port(port: str) -> None:
    """``NotAPort`` if ``port`` exists and is no terminal device; a missing port is fine (a
    board not plugged in yet)."""
    if not os.path.exists(port):
        return
    if not stat.S_ISCHR(os.stat(port).st_mode):
        raise NotAPort("%s is not a serial port" % port)
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return  # busy or not allowed: opening it says so properly
    try:
        if not os.isatty(fd):
            raise NotAPort("%s is not a serial port (not a terminal device)" % port)
    finally:
        os.close(fd)


def open_port(port: str, claim: Any = None) -> Transport:
    """The serial port itself (the caller owns it: ``host/hub/portlock.py``)."""
    import serial  # pyserial

    check_port(port)
    try:
        conn = serial.Serial(port, 115200, timeout=0.05, write_timeout=2)
    except serial.SerialException as e:
        if os.path.exists(port) and e.errno not in (errno.EBUSY, errno.EAGAIN, errno.EIO):
            raise NotAPort("%s: not a serial port (%s)" % (port, e)) from None
        raise OSError(str(e)) from e
    except OSError as e:  # termios on a character device that is no terminal (/dev/null)
        raise NotAPort("%s: not a serial port (%s)" % (port, e.strerror or e)) from None
    return _Port(conn, claim)
