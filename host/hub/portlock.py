"""One process owns a serial port at a time; every other one is told who has it, at once.

``claim(port, "tapmat sim")`` takes an exclusive ``flock`` on a small file named after the port
(its real path, so ``BOARD_DIR/tty`` and the pty it links to are one port) in a folder of this
user's, and writes the owner's name and pid into it. A second claim fails at once with
``PortBusy("/dev/ttyACM0 is busy: tapmat serve (pid 4242)")``. The kernel drops the lock when the
owner exits, however it exits, so a crash never leaves a port locked.

The same folder holds the hub's socket (``socket_path``): ``tapmat serve`` owns the port and
lets clients attach there (``host/hub/hub.py``).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path


class PortBusy(OSError):
    """Another process owns the port; the message names it."""


def _folder() -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    folder = Path(base) / ("tapmat-%d" % os.getuid())
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _key(port: str) -> str:
    real = os.path.realpath(port)
    tail = re.sub(r"[^A-Za-z0-9]+", "_", real)[-40:]
    return "%s-%s" % (tail.strip("_"), hashlib.sha1(real.encode()).hexdigest()[:8])


def lock_path(port: str) -> Path:
    return _folder() / (_key(port) + ".lock")


def socket_path(port: str) -> Path:
    """Where the hub owning ``port`` listens (a Unix socket; short enough for its 108-byte limit)."""
    return _folder() / (_key(port) + ".sock")


def holder(port: str) -> str:
    """Who holds ``port`` as written in its lock file ("tapmat serve (pid 42)"), or ""."""
    try:
        return lock_path(port).read_text().strip()
    except OSError:
        return ""


def command_name() -> str:
    """``tapmat monitor`` for the running command (the name a busy message shows)."""
    args = [a for a in sys.argv[1:2] if not a.startswith("-")]
    return " ".join(["tapmat"] + args)


class PortLock:
    """An exclusive claim on one port, held until ``release()`` (or the process ends)."""

    def __init__(self, port: str, fd: int) -> None:
        self.port = port
        self.fd: int | None = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file drops the flock
            self.fd = None

    def __enter__(self) -> "PortLock":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def claim(port: str, who: str | None = None) -> PortLock:
    """Own ``port`` (``PortBusy`` naming the owner if another process does)."""
    path = lock_path(port)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise PortBusy("%s is busy: %s" % (port, holder(port) or "another process")) from None
    os.ftruncate(fd, 0)
    os.write(fd, ("%s (pid %d)\n" % (who or command_name(), os.getpid())).encode())
    return PortLock(port, fd)
