"""The virtual board: the firmware on the MicroPython unix port, behind a pseudo-terminal.

A ``VirtualBoard`` looks like a real board on a serial port. It runs
``micropython firmware/boards/vrom.py BOARD_DIR/fs`` (the board's "ROM": boot.py, main.py, the
REPL that mpremote speaks) as a child process and bridges the child's stdin/stdout to the
master side of a pty; the slave side (``/dev/pts/N``, also linked as ``BOARD_DIR/tty``) is the
board's serial port for mpremote, the firmware's host link and every other tool.

The bridge plays the board's hardware:
- power: a soft reset (vrom exits with EXIT_SOFT_RESET*) or machine.reset() starts a fresh
  interpreter; a dead child (SIGKILL = power cut, or a crash) is booted again like plugging
  the power back in. Bytes the host sent survive a soft reset (they wait in the stdin pipe,
  which outlives the child) but not a power cut.
- USB serial flow control: while a client has the port open, the child's output waits for it
  (a full pty stalls the child); with no client, the output is dropped, as a board does when
  no host is listening.
- Ctrl-C: the profile's link raises KeyboardInterrupt when it reads 0x03; if a 0x03 stays unread
  while code runs (code that never reads the link), the child gets SIGINT instead, which the
  unix port turns into KeyboardInterrupt; not while the code has turned kbd_intr off (the
  profile reports ``K -1``; each boot and each REPL execution turns it on again, as pyexec.c).
- a ROM partition (``BOARD_DIR/rom.bin``, 256 KB; ``rom=False``/``--no-rom``: none): vrom answers
  ``vfs.rom_ioctl`` from it, so ``mpremote romfs query/deploy`` and ``tapmat flash`` write a ROMFS
  image there for real, and mounts the image found there at ``/rom`` at power-on. A new board's
  partition comes holding the repository's modules (as if flashed at the factory); afterwards it
  keeps what was deployed, as a board does. The unix port keeps the partition in the heap, so
  ``-X heapsize`` is the board's heap plus the partition.
- the physical world (tags on readers, bag clasps; host/vboard/world.py) sent to the firmware's
  virtual profile over a control pipe; its LEDs and buzzer reported back.

Clients control it through a Unix socket, ``BOARD_DIR/ctl.sock``: one JSON object per line in
each direction (``host/vboard/client.py``; the protocol is in docs/virtual-board.md).
"""
from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
import tty
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from host.board import build
from host.board.image import EXCLUDE, FS_DIR, VIRTUAL
from host.vboard.world import BoardConfig, World, WorldError, check_index

ROOT = Path(__file__).resolve().parents[2]
VROM = ROOT / "firmware" / "boards" / "vrom.py"

# Exit codes of firmware/boards/vrom.py (tests/test_vboard_units.py checks that they agree).
EXIT_SOFT_RESET = 80
EXIT_SOFT_RESET_RAW = 81
EXIT_HARD_RESET = 82

ROM_FILE = "rom.bin"   # BOARD_DIR/rom.bin: the board's ROM partition (firmware/boards/vrom.py)
ROM_SIZE = 256 * 1024
ROM_ERASED = 0xFF
TTY_LINK = "tty"       # BOARD_DIR/tty -> /dev/pts/N
SOCKET_NAME = "ctl.sock"
ENV_CTL_IN = "TAPMAT_VBOARD_CTL_IN"
ENV_CTL_OUT = "TAPMAT_VBOARD_CTL_OUT"

DEFAULT_HEAP = "512k"
ROM_CACHE = build.ROOT / "build" / "romfs"  # ROMFS images of the modules, one per source content


def board_romfs(building: Callable[[], None] | None = None) -> Path:
    """The virtual target's modules as a ROMFS image (what a new board's partition holds);
    ``building()`` is called first when it has to be made from the sources."""
    return build.cached_romfs(EXCLUDE[VIRTUAL], ROM_CACHE, building)


def rom_partition(board_dir: Path) -> Path:
    """The board's ROM partition file; a missing one is made holding ``board_romfs()``."""
    path = board_dir / ROM_FILE
    if not path.exists():
        image = board_romfs().read_bytes()
        if len(image) > ROM_SIZE:
            raise RuntimeError(f"the modules' ROMFS image ({len(image)} B) outgrew the virtual "
                               f"board's {ROM_SIZE} B ROM partition (host/vboard/process.py ROM_SIZE)")
        tmp = path.with_name(ROM_FILE + ".new")
        tmp.write_bytes(image + bytes([ROM_ERASED]) * (ROM_SIZE - len(image)))
        tmp.replace(path)
    return path


def rom_is_current(board_dir: Path) -> bool:
    """Whether the board's ROM partition holds the modules of today's sources. A board keeps what
    was flashed, as a real one does, so after a source change it runs the old modules until
    ``tapmat flash`` (or a new board folder) puts the new ones there."""
    path = board_dir / ROM_FILE
    image = board_romfs().read_bytes()
    with open(path, "rb") as f:
        return f.read(len(image)) == image
DEFAULT_OFF_MS = 200       # how long a power cut keeps the board dark
CRASH_RESTART_S = 1.0      # an interpreter that died on its own is restarted after this
INTERRUPT_GRACE_S = 0.3    # a 0x03 unread this long while code runs: SIGINT
TICK_S = 0.05              # housekeeping period (client attach, timers)
CHUNK = 4096
HOST_PENDING_MAX = 1 << 16   # output bytes held for a slow client before the child is stalled
CHILD_PENDING_MAX = 1 << 20  # host bytes held for a child that does not read
CTL_PENDING_MAX = 1 << 18    # control lines held for a profile that does not read
DEFERRED: dict[str, Any] = {"ok": True}  # request_line: the reply comes later (scans)
CLIENT_OUT_MAX = 1 << 20     # a client that reads slower than this is dropped
CLIENT_LINE_MAX = 1 << 16
BUZZER_HISTORY = 64
OFF_MS_MAX = 60000

STATE_OFF = "off"      # no interpreter (power cut, between two boots)
STATE_BOOT = "boot"    # interpreter started, vrom not yet running
# vrom's reports: running boot.py/main.py, running REPL input, waiting at a prompt
STATES = {"M": "main", "E": "exec", "Q": "repl"}
RUNNING_CODE = ("main", "exec")

Log = Callable[[str], None]


def find_micropython() -> str:
    """The unix-port interpreter of this virtual environment, else the one on PATH."""
    sibling = Path(sys.executable).parent / "micropython"
    if sibling.exists():
        return str(sibling)
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("no micropython interpreter (run make venv)")
    return found


def unread_bytes(fd: int) -> int:
    """Bytes waiting in a pipe (FIONREAD on its read end)."""
    buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    return int(struct.unpack("i", buf)[0])


@dataclass
class Child:
    """One power-on of the board: the interpreter process and its control pipes."""

    proc: subprocess.Popen
    pidfd: int
    ctl_in: int   # bridge -> profile
    ctl_out: int  # vrom/profile -> bridge
    ctl_pending: bytearray = field(default_factory=bytearray)
    ctl_partial: bytearray = field(default_factory=bytearray)
    off_s: float | None = None  # set by a power cut: the restart waits this long
    queries: deque["Client"] = field(default_factory=deque)  # waiting for an N report, in order


@dataclass
class Client:
    sock: socket.socket
    inbuf: bytearray = field(default_factory=bytearray)
    outbuf: bytearray = field(default_factory=bytearray)
    subscribed: bool = False


class VirtualBoard:
    """The bridge process; ``start()`` then ``serve()`` until ``stop()`` or SIGINT/SIGTERM."""

    def __init__(self, board_dir: Path, config: BoardConfig | None = None, *,
                 micropython: str | None = None, heap: str = DEFAULT_HEAP,
                 log: Log | None = None, rom: bool = True) -> None:
        self.dir = board_dir.resolve()
        self.fs = self.dir / FS_DIR
        self.micropython = micropython or find_micropython()
        self.heap = heap
        self.rom = rom  # a ROM partition (ROMFS), else .mpy files on fs/ or the repository
        self.rom_file: Path | None = None
        self.log: Log = log or (lambda msg: print("tapmat board: " + msg, flush=True))
        self.fs.mkdir(parents=True, exist_ok=True)
        self._new_config = config  # saved by start(), once no other bridge owns the folder
        self.world = World(config or BoardConfig.load(self.fs))
        self.port = ""
        self.boots = 0
        self.state = STATE_OFF
        self.firmware = False
        self.leds: list[list[int]] | None = None
        self.buzzer: deque[dict[str, Any]] = deque(maxlen=BUZZER_HISTORY)
        self.buzzer_count = 0
        self.dropped = 0  # output bytes dropped because no client had the port open
        self._child: Child | None = None
        self._raw_next = False
        self._boot_at: float | None = None
        self._running = False
        self._handlers: dict[int, Callable[[int], None]] = {}
        self._poll = select.poll()
        self._clients: dict[int, Client] = {}
        self._to_child = bytearray()
        self._to_host = bytearray()
        self._written = 0  # bytes written into the stdin pipe so far
        self._intr: tuple[int, float] | None = None  # (offset of an unread 0x03, when written)
        self._kbd_intr = True  # the running code's kbd_intr: 0x03 interrupts it
        self._attached = False
        self._dark = False  # powered off by a power cut: what the host sends is lost

    # -- set-up and tear-down --------------------------------------------------------------
    def start(self) -> None:
        """Open the pty, the pipes and the socket, and power the board on."""
        self._listen = self._open_socket()
        if self._new_config is not None:
            self._new_config.save(self.fs)
        if self.rom:  # before the port appears: a tool that finds the port finds a board
            self.rom_file = rom_partition(self.dir)
            self.log(f"ROM partition {self.rom_file} ({self.rom_file.stat().st_size} B; "
                     f"--no-rom: run from the filesystem and the repository)")
        self._master, slave = os.openpty()
        self.port = os.ttyname(slave)
        tty.setraw(slave)
        os.close(slave)  # the client opens it; while nobody does, the master sees POLLHUP
        os.set_blocking(self._master, False)
        link = self.dir / TTY_LINK
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(self.port)
        self._stdin_r, self._stdin_w = os.pipe()
        self._stdout_r, self._stdout_w = os.pipe()
        self._stderr_r, self._stderr_w = os.pipe()
        for fd in (self._stdin_w, self._stdout_r, self._stderr_r):
            os.set_blocking(fd, False)
        self._wakeup_r, self._wakeup_w = os.pipe()
        for fd in (self._wakeup_r, self._wakeup_w):
            os.set_blocking(fd, False)
        self._watch(self._listen.fileno(), select.POLLIN, self._on_accept)
        self._watch(self._stdout_r, select.POLLIN, self._on_child_output)
        self._watch(self._stderr_r, select.POLLIN, self._on_child_stderr)
        self._watch(self._wakeup_r, select.POLLIN, self._on_wakeup)
        self._running = True
        self.log(f"serial port {self.port} (link {link}), control socket {self.dir / SOCKET_NAME}")
        self.log(f"filesystem {self.fs}, {self.world.config.readers} readers, "
                 f"{self.world.config.switches} clasp switches, {self.world.config.leds} LEDs")
        self._boot_at = time.monotonic()

    def _open_socket(self) -> socket.socket:
        path = self.dir / SOCKET_NAME
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
            raise RuntimeError(f"a virtual board already runs in {self.dir}")
        except (FileNotFoundError, ConnectionRefusedError):
            pass  # nothing there, or a stale socket of a bridge that died
        finally:
            probe.close()
        if path.exists() or path.is_symlink():
            path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        part = path.with_name(".%s.%d" % (SOCKET_NAME, os.getpid()))
        part.unlink(missing_ok=True)
        sock.bind(str(part))
        sock.listen(8)
        part.replace(path)  # the socket appears listening: a client never finds it refusing
        sock.setblocking(False)
        return sock

    def serve(self) -> None:
        """Run until stop() (or SIGINT/SIGTERM when installed with ``handle_signals()``)."""
        while self._running:
            for fd, events in self._poll.poll(self._timeout_ms()):
                handler = self._handlers.get(fd)
                if handler is not None:
                    handler(events)
            self._housekeeping()
        self._shutdown()

    def handle_signals(self) -> None:
        """SIGINT and SIGTERM end serve() cleanly (main thread only)."""
        signal.set_wakeup_fd(self._wakeup_w)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda _sig, _frame: self.stop())

    def stop(self) -> None:
        self._running = False

    def _shutdown(self) -> None:
        child = self._child
        if child is not None:
            self._kill(child)
            self._close_child(child)
        for client in list(self._clients.values()):
            self._drop_client(client)
        self._listen.close()
        for name in (SOCKET_NAME, TTY_LINK):
            path = self.dir / name
            if path.is_symlink() or path.exists():
                path.unlink()
        for fd in (self._master, self._stdin_r, self._stdin_w, self._stdout_r, self._stdout_w,
                   self._stderr_r, self._stderr_w, self._wakeup_r, self._wakeup_w):
            os.close(fd)
        self.log("stopped")

    # -- the event loop --------------------------------------------------------------------
    def _watch(self, fd: int, events: int, handler: Callable[[int], None]) -> None:
        if fd in self._handlers:
            self._poll.modify(fd, events)
        else:
            self._poll.register(fd, events)
        self._handlers[fd] = handler

    def _unwatch(self, fd: int) -> None:
        if self._handlers.pop(fd, None) is not None:
            self._poll.unregister(fd)

    def _timeout_ms(self) -> int:
        wait = TICK_S
        if self._boot_at is not None:
            wait = min(wait, max(0.0, self._boot_at - time.monotonic()))
        return int(wait * 1000)

    def _housekeeping(self) -> None:
        if self._boot_at is not None and time.monotonic() >= self._boot_at and self._running:
            self._boot_at = None
            self._spawn()
        if not self._attached and self._client_present():
            self._attached = True
            self._watch_master()
        self._check_interrupt()

    def _on_wakeup(self, _events: int) -> None:
        try:
            os.read(self._wakeup_r, CHUNK)
        except BlockingIOError:
            pass

    # -- the serial port: pty master <-> child stdin/stdout ----------------------------------
    def _client_present(self) -> bool:
        """Whether some program has the serial port open (no hang-up on the master)."""
        probe = select.poll()
        probe.register(self._master, select.POLLIN)
        return not any(ev & select.POLLHUP for _, ev in probe.poll(0))

    def _watch_master(self) -> None:
        events = select.POLLIN | (select.POLLOUT if self._to_host else 0)
        self._watch(self._master, events, self._on_master)

    def _detach(self) -> None:
        """The last client closed the port: forget what it did not read."""
        self._attached = False
        self._unwatch(self._master)
        self._to_host.clear()
        self._watch_child_output()

    def _on_master(self, events: int) -> None:
        if events & (select.POLLIN | select.POLLHUP | select.POLLERR):
            try:
                data = os.read(self._master, CHUNK)
            except BlockingIOError:
                data = None
            except OSError:  # EIO: no client any more
                self._detach()
                return
            if data:
                self._from_host(data)
            elif data is not None:
                self._detach()
                return
        if events & select.POLLOUT:
            self._flush_host()

    def _from_host(self, data: bytes) -> None:
        if self._dark:
            return
        if len(self._to_child) + len(data) > CHILD_PENDING_MAX:
            self.log("the board does not read its serial input; dropping host bytes")
            return
        at = data.rfind(b"\x03")
        if at >= 0:
            self._intr = (self._written + len(self._to_child) + at, time.monotonic())
        self._to_child += data
        self._flush_child()

    def _flush_child(self) -> None:
        if self._to_child:
            try:
                n = os.write(self._stdin_w, self._to_child)
            except BlockingIOError:
                n = 0
            del self._to_child[:n]
            self._written += n
        if self._to_child:
            self._watch(self._stdin_w, select.POLLOUT, lambda _ev: self._flush_child())
        else:
            self._unwatch(self._stdin_w)

    def _on_child_output(self, _events: int) -> None:
        try:
            data = os.read(self._stdout_r, CHUNK)
        except BlockingIOError:
            return
        if not self._client_present():
            if self._attached:
                self._detach()
            self.dropped += len(data)
            return
        self._to_host += data
        self._flush_host()

    def _flush_host(self) -> None:
        if self._to_host:
            try:
                n = os.write(self._master, self._to_host)
            except BlockingIOError:
                n = 0
            except OSError:
                self._detach()
                return
            del self._to_host[:n]
        if self._attached:
            self._watch_master()
        self._watch_child_output()

    def _watch_child_output(self) -> None:
        """Read the child only while the client keeps up: USB CDC flow control."""
        if len(self._to_host) < HOST_PENDING_MAX:
            self._watch(self._stdout_r, select.POLLIN, self._on_child_output)
        else:
            self._unwatch(self._stdout_r)

    def _on_child_stderr(self, _events: int) -> None:
        try:
            data = os.read(self._stderr_r, CHUNK)
        except BlockingIOError:
            return
        for line in data.decode(errors="replace").splitlines():
            self.log("board stderr: " + line)

    def _check_interrupt(self) -> None:
        """A 0x03 the running code did not read in time: SIGINT, as a board's kbd_intr would."""
        if self._intr is None:
            return
        offset, when = self._intr
        child = self._child
        if child is None or self.state == "repl":
            self._intr = None  # no code runs (the REPL reads every byte itself)
            return
        if self.state not in RUNNING_CODE or time.monotonic() - when < INTERRUPT_GRACE_S:
            return
        self._intr = None
        if not self._kbd_intr:
            return  # the code took 0x03 as a plain byte (micropython.kbd_intr(-1))
        consumed = self._written - unread_bytes(self._stdin_r)
        if consumed <= offset:
            self.log("Ctrl-C not read by the running code: sending SIGINT")
            self._discard_through_interrupt()
            child.proc.send_signal(signal.SIGINT)

    def _discard_through_interrupt(self) -> None:
        """Take the unread input up to its last 0x03 out of the pipe, as a board's USB serial
        clears its receive ring buffer on Ctrl-C (so the REPL does not see that 0x03 again).
        The child may read concurrently, so only what poll says is there is read."""
        probe = select.poll()
        probe.register(self._stdin_r, select.POLLIN)
        data = b""
        while unread_bytes(self._stdin_r) and probe.poll(0):
            data += os.read(self._stdin_r, CHUNK)
        self._to_child[:0] = data[data.rfind(b"\x03") + 1:]
        self._written -= len(data)
        self._flush_child()

    # -- the interpreter ---------------------------------------------------------------------
    def heap_bytes(self) -> int:
        """The interpreter's heap: the board's, plus the ROM partition the unix port keeps in it."""
        units = {"k": 1 << 10, "m": 1 << 20}
        h = self.heap.lower()
        size = int(h[:-1]) * units[h[-1]] if h[-1:] in units else int(h)
        return size + (self.rom_file.stat().st_size + 1024 if self.rom_file else 0)

    def _spawn(self) -> None:
        raw = self._raw_next
        self._raw_next = False
        ci_r, ci_w = os.pipe()
        co_r, co_w = os.pipe()
        env = dict(os.environ)
        env[ENV_CTL_IN] = str(ci_r)
        env[ENV_CTL_OUT] = str(co_w)
        cmd = [self.micropython, "-X", "heapsize=%d" % self.heap_bytes(), str(VROM), str(self.fs)]
        if self.rom_file is not None:
            cmd.append("--rom=" + str(self.rom_file))
        proc = subprocess.Popen(cmd + (["--raw"] if raw else []), stdin=self._stdin_r,
                                stdout=self._stdout_w, stderr=self._stderr_w,
                                pass_fds=(ci_r, co_w), env=env, cwd=self.fs,
                                start_new_session=True)
        os.close(ci_r)
        os.close(co_w)
        os.set_blocking(ci_w, False)
        os.set_blocking(co_r, False)
        child = Child(proc, os.pidfd_open(proc.pid), ci_w, co_r)
        self._child = child
        self._dark = False
        self.boots += 1
        self.firmware = False
        self._intr = None
        self._set_state(STATE_BOOT)
        self._watch(child.pidfd, select.POLLIN, lambda _ev: self._on_exit(child))
        self._watch(co_r, select.POLLIN, lambda _ev: self._on_report(child))
        self._send_world(self.world.replay())
        self.log(f"power on #{self.boots} (pid {proc.pid}{', raw REPL' if raw else ''})")

    def _kill(self, child: Child) -> None:
        if child.proc.poll() is None:
            child.proc.kill()
        child.proc.wait()

    def _close_child(self, child: Child) -> None:
        for fd in (child.pidfd, child.ctl_in, child.ctl_out):
            self._unwatch(fd)
            os.close(fd)
        if self._child is child:
            self._child = None

    def _on_exit(self, child: Child) -> None:
        rc = child.proc.wait()
        self._on_report(child)  # what it reported just before it ended
        while child.queries:
            self._send_client(child.queries.popleft(), {"ok": False, "error": "the board restarted"})
        self._close_child(child)
        self.firmware = False
        self._set_state(STATE_OFF)
        delay = 0.0
        if child.off_s is not None:
            what, delay = "power cut", child.off_s
            self._dark = True
        elif rc == EXIT_SOFT_RESET:
            what = "soft reset"
        elif rc == EXIT_SOFT_RESET_RAW:
            what, self._raw_next = "soft reset (raw REPL)", True
        elif rc == EXIT_HARD_RESET:
            what = "reset"
        elif rc < 0:
            what, delay = f"power cut (signal {-rc})", DEFAULT_OFF_MS / 1000
            self._dark = True
        else:
            what, delay = f"interpreter ended with status {rc}, restarting", CRASH_RESTART_S
        if rc not in (EXIT_SOFT_RESET, EXIT_SOFT_RESET_RAW):
            self._drain_serial_input()
        self.log(what)
        if self._running:
            self._boot_at = time.monotonic() + delay

    def _drain_serial_input(self) -> None:
        """A board that loses power loses what sat in its receive buffer."""
        self._to_child.clear()
        self._unwatch(self._stdin_w)
        n = unread_bytes(self._stdin_r)
        while n > 0:
            n -= len(os.read(self._stdin_r, min(n, CHUNK)))

    def power_cut(self, off_ms: int) -> None:
        """Kill the interpreter (SIGKILL), then boot again after off_ms."""
        child = self._child
        if child is None:  # already dark: stay dark for off_ms from now
            self._dark = True
            self._boot_at = time.monotonic() + off_ms / 1000
            return
        child.off_s = off_ms / 1000
        self._kill(child)
        self._on_exit(child)

    # -- control pipes -----------------------------------------------------------------------
    def _send_world(self, lines: list[bytes]) -> None:
        child = self._child
        if child is None:
            return  # the next power-on replays the whole world
        child.ctl_pending += b"".join(lines)
        if len(child.ctl_pending) > CTL_PENDING_MAX:
            child.ctl_pending = bytearray(b"".join(self.world.replay()) + b"N\n" * len(child.queries))
        self._flush_ctl(child)

    def _flush_ctl(self, child: Child) -> None:
        if child.ctl_pending:
            try:
                n = os.write(child.ctl_in, child.ctl_pending)
            except BlockingIOError:
                n = 0
            except BrokenPipeError:
                n = len(child.ctl_pending)
            del child.ctl_pending[:n]
        if child.ctl_pending:
            self._watch(child.ctl_in, select.POLLOUT, lambda _ev: self._flush_ctl(child))
        else:
            self._unwatch(child.ctl_in)

    def _on_report(self, child: Child) -> None:
        while True:
            try:
                data = os.read(child.ctl_out, CHUNK)
            except BlockingIOError:
                break
            if not data:
                self._unwatch(child.ctl_out)
                break
            child.ctl_partial += data
        *lines, rest = child.ctl_partial.split(b"\n")
        child.ctl_partial = bytearray(rest)
        for line in lines:
            self._report(line.decode(errors="replace").split())

    def _report(self, words: list[str]) -> None:
        """One line from vrom or the virtual profile (firmware/boards/virtual.py docstring)."""
        try:
            kind = words[0]
            if kind in STATES:
                self._kbd_intr = True  # pyexec.c: Ctrl-C interrupts each new execution
                self._set_state(STATES[kind])
            elif kind == "N":
                self._scans(words[1:])
            elif kind == "K":
                self._kbd_intr = words[1] == "3"
            elif kind == "H":
                self._firmware_up(*(int(w) for w in words[1:4]))
            elif kind == "L":
                rgb = bytes.fromhex(words[1])
                self.leds = [list(rgb[i:i + 3]) for i in range(0, len(rgb), 3)]
                self._publish({"event": "leds", "leds": self.leds})
            elif kind == "P":
                self._buzz({"play": int(words[1], 16)})
            elif kind == "T":
                self._buzz({"tone": [int(words[1], 16), int(words[2], 16)]})
            elif kind == "X":
                self.log("the board refused control line: " + " ".join(words[1:]))
            else:
                raise ValueError(kind)
        except (IndexError, ValueError, TypeError):
            self.log(f"unexpected report from the board: {' '.join(words)!r}")

    def _scans(self, words: list[str]) -> None:
        """The profile's N report: the answer to the oldest ``scans`` request."""
        child = self._child
        if child is None or not child.queries:
            raise ValueError("N")
        counts = [[int(n) for n in w.split(",") if n] for w in (words + ["", ""])[1:3]]
        self._send_client(child.queries.popleft(), {"ok": True, "boots": self.boots,
                                                    "steps": int(words[0]), "scans": counts[0],
                                                    "switch_reads": counts[1]})

    def _firmware_up(self, readers: int, switches: int, leds: int) -> None:
        config = BoardConfig(readers, switches, leds)
        if config != self.world.config:
            self.log(f"board.json changed on the board: now {config.as_dict()}")
            self.world.reconfigure(config)
        self.firmware = True
        self.log(f"virtual profile up: {readers} readers, {switches} clasp switches, {leds} LEDs")
        self._publish({"event": "firmware", **config.as_dict()})

    def _buzz(self, event: dict[str, Any]) -> None:
        self.buzzer_count += 1
        event["n"] = self.buzzer_count
        self.buzzer.append(event)
        self._publish({"event": "buzzer", **event})

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self._publish({"event": "state", "state": state, "boots": self.boots})

    # -- clients -----------------------------------------------------------------------------
    def _on_accept(self, _events: int) -> None:
        try:
            sock, _ = self._listen.accept()
        except BlockingIOError:
            return
        sock.setblocking(False)
        client = Client(sock)
        self._clients[sock.fileno()] = client
        self._watch(sock.fileno(), select.POLLIN, lambda ev: self._on_client(client, ev))

    def _drop_client(self, client: Client) -> None:
        fd = client.sock.fileno()
        self._unwatch(fd)
        self._clients.pop(fd, None)
        client.sock.close()

    def _on_client(self, client: Client, events: int) -> None:
        if events & select.POLLOUT:
            self._flush_client(client)
        if not events & (select.POLLIN | select.POLLHUP | select.POLLERR):
            return
        try:
            data = client.sock.recv(CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop_client(client)
            return
        client.inbuf += data
        *lines, rest = client.inbuf.split(b"\n")
        client.inbuf = bytearray(rest)
        for line in lines:
            if line.strip():
                reply = self.request_line(bytes(line), client)
                if reply is not DEFERRED:  # a scans request is answered by the profile's N report
                    self._send_client(client, reply)
        if len(client.inbuf) > CLIENT_LINE_MAX:
            self._send_client(client, {"ok": False, "error": "request line too long"})
            client.inbuf.clear()

    def _send_client(self, client: Client, msg: dict[str, Any]) -> None:
        client.outbuf += json.dumps(msg).encode() + b"\n"
        if len(client.outbuf) > CLIENT_OUT_MAX:
            self._drop_client(client)
            return
        self._flush_client(client)

    def _flush_client(self, client: Client) -> None:
        try:
            n = client.sock.send(client.outbuf)
        except BlockingIOError:
            n = 0
        except OSError:
            self._drop_client(client)
            return
        del client.outbuf[:n]
        events = select.POLLIN | (select.POLLOUT if client.outbuf else 0)
        self._watch(client.sock.fileno(), events, lambda ev: self._on_client(client, ev))

    def _publish(self, event: dict[str, Any]) -> None:
        for client in list(self._clients.values()):
            if client.subscribed:
                self._send_client(client, event)

    def request_line(self, line: bytes, client: Client | None = None) -> dict[str, Any]:
        """Answer one JSON request line; bad requests get {"ok": false, "error": ...}."""
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            return {"ok": False, "error": "not a JSON line"}
        if not isinstance(msg, dict) or not isinstance(msg.get("cmd"), str):
            return {"ok": False, "error": 'expected an object with a "cmd" string'}
        handler = self._commands().get(msg["cmd"])
        if handler is None:
            return {"ok": False, "error": f"unknown cmd {msg['cmd']!r}; one of "
                                          + ", ".join(sorted(self._commands()))}
        try:
            reply = handler(msg)
        except WorldError as e:
            return {"ok": False, "error": str(e)}
        if msg["cmd"] == "subscribe" and client is not None:
            client.subscribed = True
        if msg["cmd"] == "scans":
            return self._ask_scans(client)
        return {"ok": True, **reply}

    def _commands(self) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {
            "place": self._cmd_place,
            "remove": self._cmd_remove,
            "clear": self._cmd_clear,
            "switch": self._cmd_switch,
            "fault": self._cmd_fault,
            "power_cut": self._cmd_power_cut,
            "status": lambda _msg: self.status(),
            "subscribe": lambda _msg: self.status(),
            "scans": lambda _msg: {},
        }

    def _ask_scans(self, client: Client | None) -> dict[str, Any]:
        """Ask the running profile what the firmware has looked at (firmware/boards/virtual.py, N):
        loop steps, field-on counts per reader, reads per clasp switch. Answered later, after
        every world change sent before it has been applied."""
        child = self._child
        if client is None or child is None or not self.firmware:
            return {"ok": False, "error": "the virtual profile is not running: nothing to count"}
        child.queries.append(client)
        self._send_world([b"N\n"])
        return DEFERRED

    def _cmd_place(self, msg: dict[str, Any]) -> dict[str, Any]:
        lines, old = self.world.place(msg.get("reader"), msg.get("uid"), msg.get("memory"))
        self._send_world(lines)
        return {"moved_from": old}

    def _cmd_remove(self, msg: dict[str, Any]) -> dict[str, Any]:
        lines, reader = self.world.remove(msg.get("uid"))
        self._send_world(lines)
        return {"reader": reader}

    def _cmd_clear(self, msg: dict[str, Any]) -> dict[str, Any]:
        lines, gone = self.world.clear(msg.get("reader"))
        self._send_world(lines)
        return {"removed": gone}

    def _cmd_switch(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._send_world(self.world.switch(msg.get("index"), msg.get("closed", True)))
        return {}

    def _cmd_fault(self, msg: dict[str, Any]) -> dict[str, Any]:
        lines = self.world.fault(msg.get("reader"), msg.get("fault"), msg.get("count", 1))
        if not self.firmware:
            raise WorldError("the virtual profile is not running: no reader to fault")
        self._send_world(lines)
        return {}

    def _cmd_power_cut(self, msg: dict[str, Any]) -> dict[str, Any]:
        off_ms = check_index("off_ms", msg.get("off_ms", DEFAULT_OFF_MS), OFF_MS_MAX + 1)
        self.power_cut(off_ms)
        return {"boots": self.boots}

    def status(self) -> dict[str, Any]:
        child = self._child
        return {
            "port": self.port,
            "tty": str(self.dir / TTY_LINK),
            "fs": str(self.fs),
            "boots": self.boots,
            "state": self.state,
            "pid": child.proc.pid if child is not None else None,
            "firmware": self.firmware,
            "config": self.world.config.as_dict(),
            **self.world.snapshot(),
            "leds": self.leds,
            "buzzer": list(self.buzzer),
            "buzzer_count": self.buzzer_count,
            "dropped": self.dropped,
        }

