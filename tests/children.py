"""Child processes of tests never outlive them: signalled, waited for, killed if they linger."""
from __future__ import annotations

import signal
import subprocess
from typing import Iterable


def stop(proc: subprocess.Popen, sig: int = signal.SIGINT, timeout: float = 20.0) -> int | None:
    """Send ``sig`` (Ctrl-C by default) and reap ``proc``: its exit status, or None if it did not
    end within ``timeout`` (it is then killed and reaped all the same)."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def reap(procs: Iterable[subprocess.Popen]) -> None:
    """Kill and reap whichever of ``procs`` still run (a ``finally`` after a failure)."""
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
