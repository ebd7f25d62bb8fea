"""A virtual board that is getting ready, and the tools that wait for it.

``tapmat board`` first builds the ROM image of today's sources when it has none (a fresh clone, a
changed source: seconds, a minute on a loaded machine). Meanwhile its folder holds ``STARTING``
(the board's pid, then what it is doing), and its serial port link ``BOARD_DIR/tty`` appears only
afterwards. ``wait_for_port`` lets a tool started right after ``tapmat board &`` (``make flash``,
``tapmat serve``) wait for that board with a progress line instead of finding no port, while a
port that nothing provides still fails within ``PORT_GRACE_S`` (docs/virtual-board.md).
"""
from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Callable, Iterator, TextIO

STARTING = "starting"  # BOARD_DIR/starting: "<pid>\n<what the board is doing>\n"
PORT_GRACE_S = 1.0     # a missing port that no board is getting ready for: how long to wait for one
READY_LIMIT_S = 600.0  # the longest wait for a board that says it is getting ready
POLL_S = 0.1

Progress = Callable[[str, float], None]  # (what the board is doing, seconds waited so far)


@contextlib.contextmanager
def getting_ready(board_dir: Path) -> Iterator[Callable[[str], None]]:
    """Mark ``board_dir`` as a board getting ready for the block; yields ``doing(what)`` that
    tells the waiting tools what takes the time."""
    board_dir.mkdir(parents=True, exist_ok=True)
    marker = board_dir / STARTING

    def doing(what: str) -> None:
        part = marker.with_name(STARTING + ".new")
        part.write_text("%d\n%s\n" % (os.getpid(), what))
        part.replace(marker)

    doing("starting")
    try:
        yield doing
    finally:
        marker.unlink(missing_ok=True)


def board_getting_ready(port: str) -> str | None:
    """What the live virtual board behind ``port`` (``BOARD_DIR/tty``) is doing while it gets
    ready, or None: no such board (none there, or one that died while getting ready)."""
    try:
        pid_text, _, what = (Path(port).parent / STARTING).read_text().partition("\n")
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, another user's
    return what.strip() or "starting"


def wait_for_port(port: str, progress: Progress | None = None, grace: float = PORT_GRACE_S,
                  limit: float = READY_LIMIT_S) -> bool:
    """Whether ``port`` exists, waiting for it: up to ``grace`` seconds for a board being
    started, as long as a virtual board there says it is getting ready (at most ``limit``)."""
    began = time.monotonic()
    while not os.path.exists(port):
        waited = time.monotonic() - began
        what = board_getting_ready(port)
        if waited >= (grace if what is None else limit):
            return False
        if what is not None and progress is not None:
            progress(what, waited)
        time.sleep(POLL_S)
    return True


class ProgressLine:
    """A ``Progress`` that keeps one line up to date on a terminal (elsewhere: a line every 10 s):
    ``tapmat flash: waiting for the virtual board in build/vboard: building its ROM image… 12 s``."""

    def __init__(self, tool: str, port: str, stream: TextIO | None = None) -> None:
        self.prefix = "%s: waiting for the virtual board in %s" % (tool, Path(port).parent)
        self.out = stream or sys.stderr
        self.live = self.out.isatty()
        self.shown = -1  # the second last shown; -1: nothing shown yet

    def __call__(self, what: str, waited: float) -> None:
        second = int(waited)
        if second == self.shown or (not self.live and self.shown >= 0 and second - self.shown < 10):
            return
        self.shown = second
        text = "%s: %s… %d s" % (self.prefix, what, second)
        self.out.write("\r\x1b[K" + text if self.live else text + "\n")
        self.out.flush()

    def end(self) -> None:
        """Finish the terminal's line, if one was drawn."""
        if self.live and self.shown >= 0:
            self.out.write("\n")
            self.out.flush()


def no_such_port(port: str) -> str:
    """What to say of a serial port that is not there."""
    return (f"{port}: no such serial port (is the board plugged in? a Pico shows up as "
            f"/dev/ttyACM0; tapmat board prints its port)")


SILENT_S = 3.0  # no tapmat firmware answering on a port this long: say so


def silent_port(port: str) -> str:
    """What to say of a port where no tapmat firmware has answered for ``SILENT_S``."""
    return (f"no tapmat board answers on {port} after {SILENT_S:.0f} s (no firmware on it? "
            f"make flash PORT={port} GAME=skull PLAYERS=4)")


def port_ready(tool: str, port: str) -> bool:
    """``wait_for_port`` with a progress line on stderr; False, said there, if it never appears."""
    line = ProgressLine(tool, port)
    try:
        if wait_for_port(port, line):
            return True
    finally:
        line.end()
    print(f"{tool}: {no_such_port(port)}", file=sys.stderr)
    return False
