"""``make demo`` end to end in a pseudo-terminal of 80 x 24, and the command line's help.

The demo runs at a speed no person could follow (the pace is a pause after each action), which
changes nothing else: the board, the players, the scoreboard and the final standings are real.
"""
from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import sys
import struct
import termios
import time
from pathlib import Path

import pytest

from host.cli.main import build_parser, command_modules, main

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def run_in_terminal(argv: list[str], rows: int = 24, cols: int = 80, timeout: float = 120,
                    interrupt_at: bytes | None = None, interrupt_after: float | None = None) -> tuple[int, str, bool]:
    """Run argv in a new pseudo-terminal, Ctrl-C (SIGINT) as soon as it drew ``interrupt_at`` or
    ``interrupt_after`` seconds after it started;
    its exit status, everything it drew (raw) and whether it was interrupted. The child never
    outlives the call: still running at ``timeout``, or if reading fails, it is killed and reaped."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.chdir(ROOT)
            os.environ.update({"TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)})
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    out = bytearray()
    began = time.monotonic()
    end = began + timeout
    interrupted = False
    status = None
    try:
        while time.monotonic() < end:
            due = interrupt_after is not None and time.monotonic() >= began + interrupt_after
            if not interrupted and (due or interrupt_at is not None and interrupt_at in out):
                os.killpg(pid, signal.SIGINT)  # as the terminal's Ctrl-C: the whole foreground group
                interrupted = True
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            out += data
    finally:
        done, status = os.waitpid(pid, os.WNOHANG)
        if not done:   # still running (a timeout, or stuck writing to a terminal nobody reads):
            os.killpg(pid, signal.SIGKILL)   # its whole session (pty.fork's child leads one)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace"), interrupted


def run_screen(argv: list[str], **kw) -> tuple[int, str]:
    """``run_in_terminal`` without the terminal's control sequences."""
    code, raw, _ = run_in_terminal(argv, **kw)
    return code, ANSI.sub("", raw)


def test_make_demo_reaches_the_final_standings() -> None:
    # SPEED=20: a few seconds of play, so the live picture (drawn every 0.1 s) shows the prompts;
    # at 1000 the whole game can fall between two pictures
    code, screen = run_screen(["make", "-s", "demo", "SPEED=20", "SEED=16", "PLAYERS=3"])
    assert code == 0, screen[-2000:]
    final = screen[screen.rindex("Final standings"):]
    assert "WINNER" in final and "mistakes refused" in final
    assert "tapmat Skull" in screen and ": put a disc face down on your seat pad" in screen  # the live scoreboard was drawn, its prompt in plain words
    assert "tags moved on the mat" in screen  # physical gestures, not host actions (fits 80 columns)
    assert "/tmp/" not in screen and "host/sim/players_" not in screen  # no developer paths


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and a.dest != "help"]


def test_every_command_and_option_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    top = capsys.readouterr().out
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for mod in command_modules():
        assert mod.NAME in top and mod.HELP in " ".join(top.split())
        sub = subparsers.choices[mod.NAME]
        assert sub.description and len(sub.description) > 80, mod.NAME
        for action in options(sub) + [a for a in sub._actions if not a.option_strings]:
            if isinstance(action, argparse._SubParsersAction):  # sub-sub-commands: each its own
                for choice in action._choices_actions:
                    assert choice.help, "%s %s has no help" % (mod.NAME, choice.dest)
            else:
                assert action.help, "%s %s has no help" % (mod.NAME, action.dest)
    for name in ("sim", "monitor", "demo"):
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0
        assert "usage: tapmat " + name in capsys.readouterr().out


def test_make_demo_sheriff_six_players_with_modules() -> None:
    code, screen = run_screen(["make", "-s", "demo", "GAME=sheriff", "PLAYERS=6", "MODULES=deputies,black_market",
                                    "SPEED=1000", "SEED=3"], timeout=240)
    assert code == 0, screen[-2000:]
    final = screen[screen.rindex("Final standings"):]
    assert "WINNER" in final and "mistakes refused" in final
    assert "deputies: seat" in screen and "loot chest:" in screen and "Black Market left:" in screen


def test_make_demo_sheriff_with_laws_special_orders_and_merry_men() -> None:
    """The board referees the card modules, played with the tagged module cards; the screen names
    the laws in force and the face-up orders from the profile, and counts the Merry Men held,
    never which."""
    code, screen = run_screen(["make", "-s", "demo", "GAME=sheriff", "PLAYERS=4",
                                    "MODULES=laws,special_orders,merry_men", "PROFILE=host/profiles/sample.json",
                                    "SPEED=1000", "SEED=2"], timeout=240)
    assert code == 0, screen[-2000:]
    final = screen[screen.rindex("Final standings"):]
    assert "WINNER" in final and "mistakes refused" in final
    assert "laws in force: 1. #" in screen and "placeholder law" in screen, screen[-3000:]
    assert "special orders face up:" in screen and "Merry Men held: seat 0" in screen
    assert "tags moved on the mat" in screen  # physical gestures, not host actions (fits 80 columns)
    assert "Robin Hood" not in screen and "placeholder man" not in screen


@pytest.mark.parametrize("screen", [[], ["--no-screen"]])
def test_monitor_keeps_its_last_picture_after_ctrl_c(screen: list[str], tmp_path) -> None:
    """Ctrl-C ends the live view; the last picture is drawn again below it and stays (the
    live region is erased on exit: the picture must come after the last erase)."""
    port = str(tmp_path / "tty")  # no board there yet: the monitor waits for it
    code, raw, interrupted = run_in_terminal([sys.executable, "-m", "host.cli", "monitor", "--port", port, *screen],
                                             rows=30, cols=100, timeout=60, interrupt_at=b"no board: waiting")
    assert interrupted and code == 0, raw[-2000:]
    erased = max(raw.rfind("\x1b[2K"), raw.rfind("\x1b[?1049l"))  # erase line / leave the full screen
    last = ANSI.sub("", raw[erased:])
    assert "tapmat no game" in last and "no board: waiting for" in last, last


@pytest.mark.parametrize("after, drawn", [(0.4, None), (None, b"Skull")])
def test_ctrl_c_in_the_first_seconds_of_make_demo_prints_no_traceback(after: float | None, drawn: bytes | None) -> None:
    """Ctrl-C while the demo starts (loading its commands, building its board), or once the
    scoreboard is drawn: it stops at once and says nothing of Python's insides."""
    code, raw, interrupted = run_in_terminal(["make", "-s", "demo", "SPEED=1000", "SEED=3", "PLAYERS=3"],
                                             timeout=120, interrupt_at=drawn, interrupt_after=after)
    assert interrupted and code != 0, raw[-2000:]
    assert "Traceback" not in raw and "KeyboardInterrupt" not in raw and "Exception ignored" not in raw, raw[-3000:]
