"""Physical play on a loaded machine (issue 15, item 7): several simulations at once, each on a
virtual board of its own, while busy-loop processes keep every core busy. The simulated hands
wait for the board to have seen each move (host/sim/runner.py ``Hands``), so the games must come out
exactly as when the machine is idle: every legal move is the playout's, read as made, every
mistake refused, the mirror equal to the rules' public view after every answer. No time is
measured; the hogs are bounded (killed when the test ends, and they stop by themselves).
Besides the load, the boards stutter: their interpreters are stopped (SIGSTOP) for random short
spells and let go again, as a busy scheduler may do at the worst moment."""
from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

from children import reap
from host.sim.playout import Playout

ROOT = Path(__file__).resolve().parent.parent
HOG_S = 900  # a hog left behind by a killed test run stops by itself after this long
HOG = "import time\nend = time.monotonic() + %d\nwhile time.monotonic() < end:\n    pass\n" % HOG_S
ACTIONS = 40
# (game, players, seed): every game with physical players; Sheriff (its market's piles of taps,
# bags loaded and clasps shut) more than once, as that is where the races showed
GAMES = [("skull", 4, 3), ("deadmans", 3, 5), ("sheriff", 4, 2), ("sheriff", 3, 9), ("sheriff", 4, 13)]


@contextlib.contextmanager
def cpu_hogs(n: int) -> Iterator[None]:
    procs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (a sim's board interpreter: ``tapmat sim`` runs its own)."""
    out: list[int] = []
    for task in Path("/proc/%d/task" % pid).glob("*"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


@contextlib.contextmanager
def stutter(runs: list[subprocess.Popen], seed: int = 15) -> Iterator[None]:
    """Stop one running sim's board interpreter for 0-200 ms now and then, until the end."""
    rng = random.Random(seed)
    done = threading.Event()

    def loop() -> None:
        while not done.wait(rng.uniform(0.05, 0.3)):
            live = [r for r in runs if r.poll() is None]
            boards = [c for r in live for c in children(r.pid)]
            if not boards:
                continue
            pid = rng.choice(boards)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
                try:
                    done.wait(rng.uniform(0.0, 0.2))
                finally:
                    os.kill(pid, signal.SIGCONT)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def sim_command(game: str, players: int, seed: int) -> list[str]:
    return [sys.executable, "-m", "host.cli", "sim", "--game", game, "--players", str(players),
            "--seed", str(seed), "--actions", str(ACTIONS), "--mistakes", "0.15", "--json"]


def test_physical_play_is_exact_with_the_cpu_loaded_and_simulations_in_parallel() -> None:
    with cpu_hogs(2 * (os.cpu_count() or 1)):
        runs = [subprocess.Popen(sim_command(*g), cwd=ROOT, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for g in GAMES]
        try:
            with stutter(runs):
                outputs = [r.communicate(timeout=600) for r in runs]
        finally:
            reap(runs)
    for (game, players, seed), run, (out, err) in zip(GAMES, runs, outputs):
        what = "%s %d players seed %d" % (game, players, seed)
        assert run.returncode == 0, "%s: %s" % (what, err.strip().splitlines()[-1:])
        result = json.loads(out)
        info = result["sim"]
        assert info["mode"] == "physical", what
        # every answer checked against the rules' public view (the sim raises on a difference)
        assert info["checked"] == info["actions"] + info["refused"] + 1, what
        playout = Playout({"game": game, "players": players}, seed).run()
        assert info["actions"] == min(ACTIONS, len(playout)), what
        assert len(result["rejected"]) == info["refused"], what
    assert sum(json.loads(o)["sim"]["refused"] for o, _ in outputs) >= 1
