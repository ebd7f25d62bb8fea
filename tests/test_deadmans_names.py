"""The Dead Man's Draw replay stays under the 140-name step of MicroPython's qstr pools.

Every name a module uses is interned when it loads (from ROMFS: one pool entry each). The dynamic
pools hold 20, 40, 80, 160 ... entries, each pool one block, so they fill at 20, 60, 140, 300 names.
The bench's DMD replay (``make bench``'s ``deadmans-4`` log, one refused line included, so
``replay_why`` loads too) interns 140 names in all: the fourth pool (160 entries, 1.8 KB on a 64-bit
port) is never taken. One name more anywhere on its path and it is taken in the middle of the
replay, at its peak: measured with 144 names, 24 KB instead of 17.8 (docs/performance.md, Dead
Man's Draw, round 6). A count, deterministic on both ports: not a heap figure.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from bench.__main__ import GAME_CASES, write_log
from bench.heap import Heap
from host.build import compile_tree
from shared_rules.replay import replay_file

MICROPYTHON = str(Path(sys.executable).parent / "micropython")
POOL_STEP = 140  # names the first three pools hold (20 + 40 + 80)
RUN = ("from shared_rules import replay\nreplay.main(['replay', %r])\n"
       "import micropython\nmicropython.qstr_info()\n")


def test_the_dead_mans_draw_replay_interns_no_more_names_than_three_pools_hold(tmp_path: Path) -> None:
    compile_tree(tmp_path / "mpy")
    heap = Heap(MICROPYTHON, tmp_path / "mpy")
    header = next(h for label, h, _ in GAME_CASES if label == "deadmans-4")
    log = tmp_path / "deadmans-4.jsonl"
    write_log(log, header, 1, noise=False)
    assert replay_file(str(log))["rejected_count"] >= 1  # replay_why's names are on the path
    out = heap.run("romfs", RUN % str(log), 1 << 22)
    assert out.returncode == 0, out.stderr[-2000:]
    names = int(re.search(r"n_qstr=(\d+)", out.stdout).group(1))  # type: ignore[union-attr]
    assert names <= POOL_STEP, (
        "the DMD replay interns %d names: over %d the 160-entry qstr pool (1.8 KB) is taken at the "
        "replay's peak" % (names, POOL_STEP))
