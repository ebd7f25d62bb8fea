"""Running virtual boards for tests: ``tapmat board`` in a folder, its control client, its port."""
from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

import serial  # type: ignore[import-untyped]

from children import stop
from host.hub.mirror import Mirror
from host.vboard.client import VirtualBoardClient

ROOT = Path(__file__).resolve().parent.parent
MPREMOTE = str(Path(sys.executable).parent / "mpremote")


class Board:
    """A running ``tapmat board`` and its control client."""

    def __init__(self, path: Path, proc: subprocess.Popen, client: VirtualBoardClient) -> None:
        self.dir = path
        self.fs = path / "fs"
        self.proc = proc
        self.client = client
        self.port = str(client.status()["port"])

    def wait_firmware(self, after: int) -> None:
        """Wait until a boot later than ``after`` has the virtual profile up and its firmware loop
        running (a ``scans`` request is answered from the loop: the firmware has booted its game
        and reads the link, so a CONSOLE frame, ``make flash``'s first word, is answered at once;
        under load the boot alone took longer than flash's 1 s wait for that answer)."""
        self.client.wait_booted(after, firmware=True, timeout=30)
        with VirtualBoardClient(self.dir, timeout=30) as patient:   # a loaded machine boots slowly
            patient.scans()

    def mpremote(self, *args: str, check: bool = True) -> str:
        out = subprocess.run([MPREMOTE, "connect", self.port, *args], capture_output=True,
                             text=True, timeout=30)
        if check:
            assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout

    def reboot(self) -> dict:
        """Power-cycle and wait until boot.py/main.py or the REPL runs."""
        boots = self.client.power_cut(off_ms=0)
        return self.client.wait_booted(boots)


@contextlib.contextmanager
def running_board(path: Path, *args: str) -> Iterator[Board]:
    """``tapmat board --dir path args...`` for the duration of the block."""
    log = open(path.parent / (path.name + ".log"), "w")
    proc = subprocess.Popen([sys.executable, "-m", "host.cli", "board", "--dir", str(path), *args],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        # Generous waits: a loaded machine (tests beside heap bisections) can take many seconds
        # to start a board; each wait ends as soon as its condition holds.
        deadline = time.monotonic() + 30
        while not (path / "ctl.sock").exists():
            assert proc.poll() is None, (path.parent / (path.name + ".log")).read_text()
            assert time.monotonic() < deadline, "the virtual board did not start"
            time.sleep(0.05)
        client = VirtualBoardClient(path)
        client.wait_booted(timeout=30)
        yield Board(path, proc, client)
        client.close()
    finally:
        code = stop(proc, signal.SIGTERM, timeout=10)  # killed and reaped if it lingers
        log.close()
    # A clean stop: exit status 0, the port link and the control socket removed.
    assert code == 0 and not (path / "ctl.sock").exists() and not (path / "tty").exists()


def frames_until(mirror: Mirror, port: serial.Serial, done: Callable[[], bool], what: str,
                 timeout: float = 10.0) -> None:
    """Carry frames between the port and the mirror until ``done()``."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"no {what} from the board (events: {list(mirror.events)})"
        mirror.feed(port.read(4096))
        out = mirror.take_outbox()
        if out:
            port.write(out)
