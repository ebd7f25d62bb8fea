"""Simulated players on a board: seeded random legal moves, performed physically where the mat
has sensors, plus deliberate mistakes that the board must refuse.

The moves are ``host.sim.playout``'s: the game's ``Table`` lists every legal action and
``playout.pick`` chooses with ``Rng(seed)``, so ``tapmat sim --seed S`` plays exactly the actions
of ``Playout(header, S)``. How an action reaches the board is a *player*'s business:

- a physical player (``host/sim/players_<game>.py``, class ``Player``) puts tags on the virtual
  board's readers and lifts them, closes bag clasps and taps command tokens, following the
  game's gesture table (docs/mat.md, docs/mat-deadmans.md, docs/mat-sheriff.md); it needs the
  board's gesture module (``firmware/mat_<game>.py``) and a virtual board's control socket;
- otherwise ``HostPlayer`` sends each action as a host ACTION frame (the board accepts them for
  any game); the sim says so.

After every answer the sim checks the mirror against the truth: the same actions applied to a
local game give the board's public view, byte for byte. Mistakes (a disc on another seat's pad,
an unregistered tag, an out-of-turn move) are drawn from a second generator, so they never
change the legal moves; each must be refused with the reason the local rules (or the mat) give,
and must change nothing. The accepted actions, with the hidden fields the players know, make the
action log (``--log``) that ``tapmat replay`` turns into the same scores.

``measure()`` is for ``make bench``: mirror lag and bytes on the wire per game.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import json
import shutil
import statistics
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from host.hub.mirror import Event, header_text
from host.screen import views
from host.screen.monitor import Session, SessionTimeout
from host.screen.scoreboard import firmware_module, gestures
from host.vboard.client import VirtualBoardClient, VirtualBoardError
from host.vboard.virtual_deck import VirtualDeck
from shared_rules import games
from shared_rules.wire import codec
from shared_rules.sheriff.modules import profile as deck_profile
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.core.engine import OK
from host.sim.playout import pick, table_for
from shared_rules.core.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
LAYOUT_FILE = ROOT / "hardware" / "mat_layout.json"
MISSES = 3            # complete scans without a tag before the board counts it gone (firmware/presence.py)
CLASP_STABLE = 2      # equal reads before a clasp change counts (firmware/sensors.py)
CLOSING_SCANS = 1     # complete dock scans before a closing counts (firmware/sensors.py _BAG_SCANS)
ANSWER_S = 10.0       # longest wait for the board's answer once it has seen the move
RESYNC_AFTER_S = 0.5  # no answer this long: ask for a snapshot (the answer may have been lost)
MISTAKE_SEED = 0x6D697374  # the mistakes' generator: Rng(seed ^ MISTAKE_SEED)
STALL_S = 10.0        # the board's loop not moving this long: it has stopped
STALL_STEPS = 20000   # loop steps without scanning where a hand moved: that reader is dead
CLIENT_S = 30.0       # the control socket's answer (a scans request waits for a loop step)
SETTLE_READ_S = 0.002  # a hand waiting for a scan reads the serial port this long between asks:
#                        the scan it waits for sends nothing, so the port's 50 ms would pass
#                        in full, and the board scans on meanwhile (most of a game's CPU)


class SimError(RuntimeError):
    """The board did something else than the rules say it must (or did nothing)."""


class Cancelled(SimError):
    """``Sim.cancel()`` was called (from another thread)."""


@dataclass
class Attempt:
    """A deliberate mistake: ``do`` makes it, the board must refuse it (with ``expect``, a reason
    name, when given); ``undo`` takes the piece back off the mat afterwards."""

    what: str
    expect: str | None
    do: Callable[[], None]
    undo: Callable[[], None] = lambda: None


@dataclass
class SimResult:
    header: dict[str, Any]
    seed: int
    mode: str
    note: str
    actions: list[dict[str, Any]]
    rejected: list[dict[str, Any]]
    final: dict[str, Any]
    checked: int
    lags: list[float]
    rx_bytes: int
    tx_bytes: int
    seconds: float

    def log_lines(self) -> list[str]:
        """The action log: the header, then every accepted action."""
        return [json.dumps(self.header)] + [json.dumps(a) for a in self.actions]

    def write_log(self, path: Path | str) -> None:
        Path(path).write_text("\n".join(self.log_lines()) + "\n")

    def contract(self) -> dict[str, Any]:
        """The replay contract's JSON, plus what the sim did (``sim``)."""
        out = dict(self.final)
        out["sim"] = {"seed": self.seed, "mode": self.mode, "actions": len(self.actions),
                      "refused": len(self.rejected), "checked": self.checked}
        return out


# -- hands on the virtual board -----------------------------------------------------------------
class Hands:
    """Tags put on and lifted off the virtual board's readers, bag clasps shut and opened: each
    move only once the board has observably taken in the moves before it (a handshake with the
    board, never a guess at its timing).

    The virtual board counts what its firmware looks at (``VirtualBoardClient.scans``): per reader
    the complete scans begun (``Mfrc522.inventories``: the world changes only between loop
    steps, so a scan begun after a change sees the changed pad; a pad whose field the mat keeps
    on is scanned without switching it on again), per clasp the times it was read. A
    tag put down is seen once its reader has been scanned after the put; a lifted one is seen
    gone after ``MISSES`` more scans (firmware/presence.py); a clasp once read ``CLASP_STABLE``
    times (firmware/sensors.py). The firmware turns what it found into events in order, one a
    loop step, before it scans again; so moves that each wait for the one before reach the mat
    in the order they were made, however the machine schedules the board and the sim.

    Bag docks (``docks``: clasp switch -> dock reader, the game's) are the exception: the
    firmware reads a dock only when its clasp closes (docs/nfc.md, "Scan schedule"), so a card
    put into or taken out of a bag is never waited for. What the firmware guarantees instead:
    once a closing is read it scans the dock and nothing else until one complete scan (every
    collision resolved) says what the bag holds (``_BAG_SCANS``), and hands the closing
    to the mat at its next look at the clasps, before any other pad is scanned and before any
    later clasp change can be debounced (that takes ``CLASP_STABLE`` reads). So a closing is
    seen after ``CLASP_STABLE`` reads of its clasp and ``CLOSING_SCANS`` scans of its dock; a
    board that restarts meanwhile reads the dock once at start and seals a closed bag as it is,
    so after a restart only the clasp reads are waited for."""

    def __init__(self, session: Session, client: Any, docks: dict[int, int] | None = None) -> None:
        self.session = session
        self.client = client
        self.docks: dict[int, int] = dict(docks or {})
        self.on: dict[str, int] = {}
        self.clasps: list[bool] = client.status()["switches"]
        self.lifted: set[str] = set()  # lifted, not yet seen gone
        # (counter, index, base, more, boots, again): counter[index] >= base + more, or >= again
        # when the board has restarted since (it counts from power-on)
        self.pending: list[tuple[str, int, int, int, int, int]] = []
        self.last_move = 0.0

    def _counts(self) -> dict[str, Any] | None:
        """The board's counters now (after every change sent before), or None while it restarts."""
        try:
            counts: dict[str, Any] = self.client.scans()
            return counts
        except VirtualBoardError:
            return None

    def _expect(self, counter: str, index: int, more: int, again: int | None = None) -> None:
        """The move just made is seen once ``counter[index]`` grew by ``more`` from the counters
        read now, after the move (what the board counted before the move reached it does not
        count), or, should the board restart, reached ``again`` (default ``more``) from power-on."""
        self._pend(self._counts(), counter, index, more, more if again is None else again)

    def _pend(self, counts: dict[str, Any] | None, counter: str, index: int, more: int, again: int) -> None:
        """``_expect`` from a given reading of the counters (None: the board was restarting)."""
        if counts is None:  # a fresh power-on counts from 0
            self.pending.append((counter, index, 0, again, -1, again))
        else:
            self.pending.append((counter, index, counts[counter][index], more, counts["boots"], again))

    def _done(self, counts: dict[str, Any]) -> bool:
        """Whether every pending move is seen (after a restart: counted again from power-on)."""
        return all(counts[counter][index] >= (base + more if boots == counts["boots"] else again)
                   for counter, index, base, more, boots, again in self.pending)

    def settle(self) -> None:
        """Wait until the board has seen every move made so far. ``SimError`` if its loop stops
        (no step for ``STALL_S``) or runs ``STALL_STEPS`` steps without looking (a dead reader)."""
        if not self.pending:
            return
        mark: tuple[int, int] | None = None
        since = time.monotonic()
        first = 0
        while True:
            counts = self._counts()
            if counts is not None:
                if self._done(counts):
                    self.pending.clear()
                    self.lifted.clear()
                    return
                if mark is None or mark[0] != counts["boots"]:
                    first = counts["steps"]
                elif counts["steps"] - first > STALL_STEPS:
                    late = ["%s %d: %d of %d" % (c, i, counts[c][i], (b + m if n == counts["boots"] else a))
                            for c, i, b, m, n, a in self.pending]
                    raise SimError("the board ran %d loop steps without scanning where a hand moved (%s)"
                                   % (STALL_STEPS, ", ".join(late)))
                if mark != (counts["boots"], counts["steps"]):
                    mark = (counts["boots"], counts["steps"])
                    since = time.monotonic()
            if time.monotonic() - since > STALL_S:
                raise SimError("the board's loop has not moved for %.0f s" % STALL_S)
            self.session.pump(wait=SETTLE_READ_S)

    def cooling(self, uid: str) -> bool:
        """Whether the board may not have seen this tag lifted yet (the next move waits for it)."""
        return uid in self.lifted

    def put(self, reader: int, uid: str) -> None:
        if uid in self.on:
            raise SimError("tag %s is already on reader %d" % (uid, self.on[uid]))
        self.settle()
        self.client.place(reader, uid)
        self.on[uid] = reader
        if reader not in self.docks.values():
            self._expect("scans", reader, 1)
        self._moved()

    def lift(self, uid: str) -> None:
        reader = self.on.get(uid)
        if reader is None:
            raise SimError("tag %s is not on the mat" % uid)
        self.settle()
        del self.on[uid]
        self.client.remove(uid)
        self.lifted.add(uid)
        if reader not in self.docks.values():
            self._expect("scans", reader, MISSES)
        self._moved()

    def seen(self, uid: str) -> None:
        """Wait until the board has seen ``uid`` put down (and every move before)."""
        assert uid in self.on
        self.settle()

    def switch(self, index: int, closed: bool) -> None:
        if self.clasps[index] == closed:
            return  # already so: no move (and no game may be running to see one)
        self.settle()
        self.clasps[index] = closed
        dock = self.docks.get(index) if closed else None
        # a closing's dock scans may begin before the board answers a reading made after the
        # move, and no more come: they are counted from a reading made before it (the open
        # dock is not scanned meanwhile)
        before = self._counts() if dock is not None else None
        self.client.switch(index, closed)
        self._expect("switch_reads", index, CLASP_STABLE)
        if dock is not None:
            self._pend(before, "scans", dock, CLOSING_SCANS, 0)
        self._moved()

    def clear(self) -> None:
        """Take every tag off the mat before a new game. Nothing is waited for but the change
        itself (a ``scans`` request is answered after it is applied): the board's new game
        forgets every tag and reads every pad, docks too, before it counts a move
        (``Sensors.start``), whatever game ran before and whichever pads it scanned."""
        self.settle()
        self.client.clear()
        self.on.clear()
        self._counts()

    def _moved(self) -> None:
        self.last_move = time.time()


# -- players ------------------------------------------------------------------------------------
class HostPlayer:
    """Every action as a host ACTION frame: for games without gestures on the board, boards
    without a control socket, or on request."""

    MODE = "host"

    def __init__(self, sim: "Sim") -> None:
        self.sim = sim

    def perform(self, action: dict[str, Any]) -> Event:
        return self.sim.host_action(action)

    def settle(self) -> None:
        """Nothing on the mat to tidy."""

    def attempts(self) -> list[Attempt]:
        return self.sim.out_of_turn()


def physical_player(game: str) -> Any:
    """The physical player class of a game (``host/sim/players_<game>.py``), or None."""
    if gestures(game) is None:
        return None
    try:
        return importlib.import_module("host.sim.players_" + game).Player
    except ImportError:
        return None


def choose_player(game: str, seats: int, board_dir: Path | str | None,
                  host_only: bool) -> tuple[Any, dict[str, Any] | None, str]:
    """The physical player class and zone layout for a game, or None and no layout when the
    actions must go as host ACTION frames; and a sentence saying which and why."""
    if host_only:
        return None, None, "host ACTION frames (asked for)"
    if gestures(game) is None:
        return None, None, ("host ACTION frames: the board has no gesture module for %s yet "
                            "(firmware/mat_%s.py)" % (game, game))
    cls = physical_player(game)
    if cls is None:
        return None, None, "host ACTION frames: no physical player host/sim/players_%s.py" % game
    if board_dir is None:
        return None, None, "host ACTION frames: not a virtual board (no control socket to move tags)"
    layout = board_layout(Path(board_dir), game, seats)
    if layout is None:
        return None, None, "host ACTION frames: mat_layout.json has no %s layout for %d seats" % (game, seats)
    return cls, layout, "physical gestures on the virtual board (host/sim/players_%s.py)" % game


# -- the simulation -----------------------------------------------------------------------------
class Sim:
    def __init__(self, session: Session, header: dict[str, Any], seed: int, *,
                 board_dir: Path | str | None = None, host_only: bool = False, pace: float = 0.0,
                 mistakes: float = 0.08, on_step: Callable[["Sim"], None] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.m = session.mirror
        self.header = header
        self.seed = seed
        self.game = games.from_header(header)
        self.rng = Rng(seed)
        self.table = table_for(self.game, self.rng)
        self.mistake_rng = Rng(seed ^ MISTAKE_SEED)
        self.mistakes = mistakes
        self.pace = pace
        self.on_step = on_step
        self.say = say or (lambda _line: None)
        self.rec = bytearray(ACTION_SIZE)
        self.deck = VirtualDeck()
        self.actions: list[dict[str, Any]] = []
        self.rejected: list[dict[str, Any]] = []
        self.lags: list[float] = []
        self.checked = 0
        self.hands: Hands | None = None
        self.client: Any = None
        self._mark = 0
        self._host_sent = 0.0
        self._lag: float | None = None
        self._doing = ""
        self.planned: dict[str, Any] = {}  # the next legal action, chosen before any mistake
        self._cancelled = False
        self._after = b""
        self._before = b""
        cls, self.layout, why = choose_player(self.game.NAME, self.game.seats(), board_dir, host_only)
        if board_dir is not None:  # even host actions start from a clear mat
            self.client = VirtualBoardClient(Path(board_dir), timeout=CLIENT_S)
            docks = self.layout["zones"].get("dock", [])[:self.game.seats()] if self.layout else []
            self.hands = Hands(session, self.client, {switch: reader for reader, switch in docks})
        self.player: Any = cls(self) if cls is not None else HostPlayer(self)
        self.mode = self.player.MODE
        self.note = why

    # -- the truth ------------------------------------------------------------------------
    def public(self, game: Any = None) -> bytes:
        g = game or self.game
        view = bytearray(g.PUBLIC_SIZE)
        g.public(view)
        return bytes(view)

    def view(self) -> dict[str, Any]:
        """The local game's public dict (what every player at the table sees)."""
        return views.describe(type(self.game), self.public())

    def probe(self, action: dict[str, Any]) -> str:
        """The reason the rules would give for ``action`` now ("ok" if legal); nothing changes."""
        if self.game.VOCAB.encode(action, self.rec):
            return "malformed"
        copy = games.from_header(self.header)
        copy.s[:] = self.game.s
        err = copy.accept(self.rec)
        return "ok" if err == OK else copy.reason(err)

    def _apply(self, action: dict[str, Any]) -> bytes:
        copy = games.from_header(self.header)
        copy.s[:] = self.game.s
        if self.game.VOCAB.encode(action, self.rec) or copy.accept(self.rec) != OK:
            raise SimError("the table offered an illegal action %r" % (action,))
        return self.public(copy)

    # -- talking to the board -------------------------------------------------------------
    def mark(self) -> None:
        """Answers from now on belong to the next action or mistake."""
        self._mark = len(self.session.events)

    def answer(self, resend: Callable[[], None] | None = None) -> Event:
        """The board's judgment (DELTA or REJECT) of what was just done. If the answer is lost
        (a gap, a reboot) a snapshot shows whether the action was applied; ``resend`` repeats
        a host action that a rebooting board never got."""
        m = self.m
        events = self.session.events
        hands = self.hands
        if hands is not None:
            hands.settle()  # the board has seen the move: its answer is a few loop steps away
        start = time.monotonic()
        hellos = m.hellos
        asked = m.snapshots
        last_ask = start
        while True:
            for i in range(self._mark, len(events)):
                if events[i].kind in ("accepted", "rejected"):
                    self._mark = i + 1
                    moved = max(hands.last_move if hands is not None else 0.0, self._host_sent)
                    self._lag = events[i].at - moved
                    return events[i]
            now = time.monotonic()
            view = bytes(m.view) if m.snapshots != asked and m.in_sync and m.view is not None else None
            if view is not None and self._after != self._before and view == self._after:
                self._mark = len(events)
                return Event("accepted", "answer lost; the snapshot shows the action applied")
            if view is not None and m.hellos != hellos and resend is not None and view == self._before:
                hellos = m.hellos
                asked = m.snapshots
                resend()  # the board rebooted before it got the action
            self._check()
            if now - start > ANSWER_S:
                raise SimError("no answer from the board in %.0f s to %s (after %d actions)"
                               % (ANSWER_S, self._doing, len(self.actions)))
            if now - last_ask > RESYNC_AFTER_S and m.in_sync:
                last_ask = now
                asked = m.snapshots
                self.session.send(m.frame(codec.RESYNC))
            self.session.pump()

    def host_action(self, action: dict[str, Any]) -> Event:
        """Send an ACTION frame and wait for its answer."""
        data = self.m.action_bytes(action)
        self._host_sent = time.time()
        self.session.send(data)
        return self.answer(resend=lambda: self.session.send(self.m.action_bytes(action)))

    def out_of_turn(self) -> list[Attempt]:
        """The mistake any game can make through the host: the action about to be played, by
        another seat. (Never ``table.legal()`` here: some tables draw their options from the
        moves' Rng, and the moves must stay the playout's.)"""
        planned = self.planned
        n = self.game.seats()
        for k in range(1, n):
            seat = (planned["p"] + k) % n
            wrong = dict(planned, p=seat)
            reason = self.probe(wrong)
            if reason not in ("ok", "malformed"):
                return [Attempt("seat %d tries %s out of turn (host action)" % (seat, planned["a"]),
                                reason, functools.partial(self._send_only, wrong))]
        return []

    def _send_only(self, action: dict[str, Any]) -> None:
        self.session.send(self.m.action_bytes(action))

    def in_step(self) -> None:
        """Wait until the mirror is in sync, then check it against the local game."""
        self.session.wait(lambda: self.m.in_sync and self.m.view is not None, ANSWER_S,
                          "the mirror to catch up")
        if bytes(self.m.view or b"") != self.public():
            raise SimError("after %d actions the mirrored view differs from the rules' public view"
                           % len(self.actions))
        self.checked += 1

    def pause(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.session.pump(wait=left)
            self._check()

    def cancel(self) -> None:
        """Stop at the next wait (from another thread)."""
        self._cancelled = True

    def _check(self) -> None:
        if self._cancelled:
            raise Cancelled("the simulation was stopped")

    # -- one game ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.hands is not None:
            self.hands.clear()
        # a simulation is asked for by whoever runs it: it ends a game under way on the board
        if self.session.new_game(self.header, push_profile=True, replace=True):
            self.say("the board lacked this game's deck profile: pushed it to its profile.bin")
        self.mark()
        self.in_step()

    def mistake(self) -> None:
        options = self.player.attempts()
        if not options:
            return
        attempt = options[self.mistake_rng.below(len(options))]
        self._before = self._after = self.public()
        self.mark()
        self._doing = "a mistake: " + attempt.what
        attempt.do()
        ev = self.answer()
        if ev.kind != "rejected":
            raise SimError("the board accepted a mistake: %s (%s)" % (attempt.what, ev.text))
        if attempt.expect is not None and ev.reason != attempt.expect:
            raise SimError("%s: refused as %s, the rules say %s" % (attempt.what, ev.reason, attempt.expect))
        attempt.undo()
        self.rejected.append({"error": ev.reason, "after": len(self.actions), "what": attempt.what})
        self.say("refused as it must be: %s (%s)" % (attempt.what, ev.reason))
        self.in_step()

    def step(self) -> dict[str, Any] | None:
        """Play one legal action (perhaps after a mistake); None when the game is over."""
        if self.game.over():
            return None
        options = self.table.legal()
        if not options:
            raise SimError("no legal action in a running game")
        action = pick(options, self.rng)
        self.planned = action
        if self.mistakes and self.mistake_rng.below(1000) < self.mistakes * 1000:
            self.mistake()
        self._before = self.public()
        self._after = self._apply(action)
        self.mark()
        self._doing = json.dumps(action)
        self._lag = None
        ev = self.player.perform(action)
        if self._lag is not None:  # a DELTA, not an answer recovered from a snapshot
            self.lags.append(self._lag)
        if ev.kind != "accepted":
            raise SimError("the board refused %r: %s" % (action, ev.reason))
        full = dict(action)
        for key, value in (ev.action or {}).items():
            if key in action and action[key] != value:
                raise SimError("the board took %r as %r" % (action, ev.action))
            full[key] = value
        if self.game.VOCAB.encode(full, self.rec) or self.game.accept(self.rec) != OK:
            raise SimError("the board accepted %r, which the rules refuse" % (full,))
        self.table.accepted(action)
        self.actions.append(full)
        self.player.settle()
        self.in_step()
        if self.on_step is not None:
            self.on_step(self)
        if self.pace:
            self.pause(self.pace)
        return full

    def run(self, max_actions: int | None = None) -> SimResult:
        began = time.monotonic()
        self.start()
        while max_actions is None or len(self.actions) < max_actions:
            if self.step() is None:
                break
        final = self.session.summary(self.rejected)
        rx, tx = self.session.rx, self.session.tx
        return SimResult(self.header, self.seed, self.mode, self.note, self.actions, self.rejected,
                         final, self.checked, self.lags, rx.without(codec.PONG), tx.without(codec.PING),
                         time.monotonic() - began)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def board_layout(board_dir: Path, game: str, seats: int) -> dict[str, Any] | None:
    """The zone layout the board reads (its ``mat_layout.json``; else the repository's)."""
    path = board_dir / "fs" / "mat_layout.json"
    try:
        doc = json.loads((path if path.exists() else LAYOUT_FILE).read_text())
        layout: dict[str, Any] = firmware_module("firmware.mat").pick_layout(doc, game, seats)
        return layout
    except (OSError, ValueError, KeyError):
        return None


# -- a virtual board of the sim's own -----------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _modules() -> dict[str, bytes]:
    from host.board import image
    return image.compile_modules(image.VIRTUAL)


@contextlib.contextmanager
def local_board(log: Callable[[str], None] | None = None, header: dict[str, Any] | None = None) -> Iterator[Path]:
    """A virtual board in a temporary folder, running in a thread of this process, with the
    firmware image (no game yet: the sim sends NEWGAME) and the deck profile ``header`` carries,
    as ``make flash PROFILE=`` writes it. Yields the board folder."""
    from host.board import image
    from host.vboard.process import VirtualBoard

    folder = Path(tempfile.mkdtemp(prefix="tapmat-sim-"))
    board = None
    thread = None
    try:
        image.install_dir(folder, image.board_image(image.VIRTUAL, modules=_modules(), profile=profile_bin(header)))
        board = VirtualBoard(folder, log=log or (lambda _msg: None))
        board.start()
        thread = threading.Thread(target=board.serve, name="virtual-board", daemon=True)
        thread.start()
        with VirtualBoardClient(folder) as client:
            client.wait_booted(firmware=True)
        yield folder
    finally:
        if board is not None:
            board.stop()
        if thread is not None:
            thread.join(10)
        shutil.rmtree(folder, ignore_errors=True)


def profile_bin(header: dict[str, Any] | None) -> bytes | None:
    """The binary deck profile for a board that is to play ``header`` (None: it names none)."""
    prof = (header or {}).get("profile")
    return deck_profile.encode(prof) if isinstance(prof, dict) else None


def board_dir_of(port: str) -> Path | None:
    """The virtual board folder behind a port (``BOARD_DIR/tty``, or the pty it links to)."""
    p = Path(port)
    if (p.parent / "ctl.sock").exists():
        return p.parent
    return None


def play(header: dict[str, Any], seed: int, *, port: str | None = None, max_actions: int | None = None,
         host_only: bool = False, pace: float = 0.0, mistakes: float = 0.08,
         say: Callable[[str], None] | None = None, on_step: Callable[[Sim], None] | None = None,
         session_hook: Callable[[Session], None] | None = None) -> SimResult:
    """One simulated game on the board at ``port`` (None: a virtual board of its own)."""
    with contextlib.ExitStack() as stack:
        folder: Path | None
        if port is None:
            own: Path = stack.enter_context(local_board(header=header))
            folder, port = own, str(own / "tty")
        else:
            folder = board_dir_of(port)
        session = Session(port)
        stack.callback(session.close)
        if session_hook is not None:
            session_hook(session)
        session.connect(say=say)
        sim = Sim(session, header, seed, board_dir=folder, host_only=host_only, pace=pace,
                  mistakes=mistakes, on_step=on_step, say=say)
        stack.callback(sim.close)
        say and say("%s, seed %d: %s" % (header_text(header), seed, sim.note))
        return sim.run(max_actions)


# -- make bench -----------------------------------------------------------------------------------
BENCH_CASES = (
    ("skull-4", {"game": "skull", "players": 4}),
    ("deadmans-3", {"game": "deadmans", "players": 3}),
    ("sheriff-4", {"game": "sheriff", "players": 4}),
)


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    v = sorted(values)
    return {"median": round(statistics.median(v) * 1000, 2),
            "p95": round(v[min(len(v) - 1, int(0.95 * len(v)))] * 1000, 2),
            "max": round(v[-1] * 1000, 2)}


def measure(cases: tuple[tuple[str, dict[str, Any]], ...] = BENCH_CASES, seed: int = 1,
            host_only: bool = False) -> dict[str, Any]:
    """Host mirror lag and bytes on the wire per game, one seeded game each on one virtual board.

    ``lag_ms``: from the move (the last tag put down or lifted, or the ACTION frame sent) to the
    mirrored state showing its DELTA; with physical players it includes the board noticing the
    tag (its reader's turn in the poll round); ``host_only``: every action an ACTION frame, so
    the lag is the link and the board's processing alone. ``rx_bytes``: board -> host,
    ``tx_bytes``: host -> board, whole games with set-up, without PING/PONG frames."""
    out: dict[str, Any] = {}
    with local_board() as folder:
        for label, header in cases:
            result = play(header, seed, port=str(folder / "tty"), mistakes=0.0, host_only=host_only)
            n = len(result.actions)
            out[label] = {
                "mode": result.mode, "actions": n, "lag_ms": _ms(result.lags),
                "rx_bytes": result.rx_bytes, "tx_bytes": result.tx_bytes,
                "rx_bytes_per_action": round(result.rx_bytes / n, 1) if n else None,
                "seconds": round(result.seconds, 2),
            }
    return out
