"""The README's "At the table" walkthrough as a newcomer types it, Ctrl-C in the middle of a
flash, and ports that are wrong or silent: every tool says so in a few seconds (issue 27).

Each command is a real ``tapmat`` child process (real SIGINT, real ports), reaped in ``finally``.
"""
from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from children import reap
from host.board.image import board_image, install_dir
from host.vboard.client import VirtualBoardClient
from host.vboard.readiness import STARTING, getting_ready
from vboards import Board, running_board

ROOT = Path(__file__).resolve().parent.parent
TAPMAT = [sys.executable, "-m", "host.cli"]


@contextlib.contextmanager
def tapmat(*args: str, **popen: object) -> Iterator[subprocess.Popen]:
    """``tapmat args`` as a child (output in pipes unless given); killed and reaped whatever happens."""
    opts: dict = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, "cwd": ROOT, "bufsize": 0}
    opts.update(popen)
    proc = subprocess.Popen(TAPMAT + list(args), **opts)
    try:
        yield proc
    finally:
        reap([proc])


def read_until(stream, marker: str, timeout: float = 60) -> str:
    """What a child's pipe says until it holds ``marker`` (fails at EOF or timeout, never hangs)."""
    seen = ""
    end = time.monotonic() + timeout
    fd = stream.fileno()
    while marker not in seen:
        left = end - time.monotonic()
        assert left > 0, f"no {marker!r} in {seen!r}"
        if select.select([fd], [], [], min(left, 0.5))[0]:
            data = os.read(fd, 65536)
            assert data, f"the pipe closed before {marker!r}: {seen!r}"
            seen += data.decode("utf-8", "replace")
    return seen


def test_flash_right_after_starting_the_board(tmp_path: Path) -> None:
    """``tapmat board --dir D &`` then at once ``make flash PORT=D/tty GAME=sheriff PLAYERS=4``:
    the flash waits for the board (however long it gets ready) and the game boots."""
    folder = tmp_path / "vboard"
    with tapmat("board", "--dir", str(folder), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as board:
        out = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", f"PORT={folder / 'tty'}",
                              "GAME=sheriff", "PLAYERS=4"], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "board reset" in out.stdout
        with VirtualBoardClient(folder) as client:
            client.wait_booted(firmware=True, timeout=60)
        board.send_signal(signal.SIGINT)
        assert board.wait(timeout=30) == 0


def test_flash_waits_for_a_board_getting_ready_with_a_progress_line(tmp_path: Path) -> None:
    folder = tmp_path / "vboard"
    with getting_ready(folder) as doing:  # this process plays a board building its ROM image
        doing("building its ROM image")
        with tapmat("flash", "--port", str(folder / "tty"), "--game", "skull", "--players", "3") as flash:
            said = read_until(flash.stderr, "building its ROM image")
            assert "tapmat flash: waiting for the virtual board in %s" % folder in said
            with running_board(folder) as board:  # the board is ready: the flash goes on
                out, err = flash.communicate(timeout=120)
                assert flash.returncode == 0, out + err
                board.wait_firmware(0)


def test_a_port_nobody_provides_fails_at_once(tmp_path: Path) -> None:
    """No port, or a board that died while getting ready: a message after the short grace, no
    waiting on (the time itself is measured by make bench, not here)."""
    (tmp_path / STARTING).write_text("%d\nbuilding its ROM image\n" % 2 ** 22)  # above any pid
    for port in (str(tmp_path / "tty"), "/nonexistent/tty"):
        for cmd in (["flash", "--port", port], ["serve", "--port", port, "--http", "0"],
                    ["sim", "--port", port, "--game", "skull"],
                    ["profile", "push", "host/profiles/sample.json", "--port", port]):
            out = subprocess.run(TAPMAT + cmd, cwd=ROOT, capture_output=True, text=True, timeout=30)
            assert out.returncode == 2, (cmd, out.stderr)
            assert "no such serial port" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("cmd", [["sim", "--game", "skull"], ["profile", "push", "host/profiles/sample.json"]])
def test_a_command_that_waits_for_the_board_says_when_none_answers(cmd: list[str]) -> None:
    """sim and profile push on a bare pty: the notice before their 10 s wait ends, then the error."""
    master, slave = pty.openpty()
    try:
        port = os.ttyname(slave)
        out = subprocess.run(TAPMAT + cmd + ["--port", port], cwd=ROOT, capture_output=True, text=True, timeout=60)
        said = out.stdout + out.stderr   # the sim tells its story on stdout, errors on stderr
        assert out.returncode == 2 and "Traceback" not in said, said
        _, notice, rest = said.partition("no tapmat board answers on %s after 3 s" % port)
        assert notice and "make flash PORT=%s" % port in rest and "timed out after 10.0 s" in out.stderr, said
    finally:
        os.close(slave)
        os.close(master)


def test_serve_says_when_no_board_answers(tmp_path: Path) -> None:
    """A port that exists but where no tapmat firmware speaks (a bare pty): serve says so."""
    master, slave = pty.openpty()
    try:
        with tapmat("serve", "--port", os.ttyname(slave), "--http", "0") as serve:
            said = read_until(serve.stderr, "no tapmat board answers", timeout=60)
            assert "make flash PORT=%s" % os.ttyname(slave) in said
            serve.send_signal(signal.SIGINT)
            assert serve.wait(timeout=30) == 0
            assert "Traceback" not in serve.stderr.read()
    finally:
        os.close(slave)
        os.close(master)


def test_monitor_off_a_terminal_prints_as_it_goes(tmp_path: Path) -> None:
    """``tapmat monitor --no-screen | tee log``: the link's state at once, not at the end."""
    with tapmat("monitor", "--port", str(tmp_path / "tty"), "--no-screen") as monitor:
        said = read_until(monitor.stdout, "no board: waiting for %s" % (tmp_path / "tty"))
        assert "Traceback" not in said
        monitor.send_signal(signal.SIGINT)
        assert monitor.wait(timeout=30) == 0


def test_ctrl_c_during_a_flash_restarts_the_firmware(tmp_path: Path) -> None:
    """SIGINT while the flash holds the board in its raw REPL: the board is reset into its
    firmware (the table's views see it again), the flash says so and exits 130, no traceback."""
    folder = tmp_path / "vboard"
    install_dir(folder, board_image("virtual", game={"game": "skull", "players": 3}))
    with running_board(folder) as board:
        board.wait_firmware(0)
        interrupted_at = interrupt_flash(board)
        status = board.client.wait_booted(interrupted_at, firmware=True, timeout=60)
        assert status["state"] == "main"


def interrupt_flash(board: Board) -> int:
    """Start ``tapmat flash`` on ``board``, SIGINT it once the board is in its raw REPL; the boot
    count at that moment. Checks the flash's answer."""
    with tapmat("flash", "--port", board.port, "--game", "skull", "--players", "4") as flash:
        st = board.client.wait_for(lambda st: st["state"] in ("repl", "exec") and not st["firmware"], timeout=60,
                                   what="the flash to stop the firmware")
        flash.send_signal(signal.SIGINT)
        out, err = flash.communicate(timeout=60)
    assert flash.returncode == 130, out + err
    assert "interrupted; the board was restarted" in err and "Traceback" not in err, err
    return int(st["boots"])
