"""The firmware on a mat stays under the 620-name step of MicroPython's qstr pools, for each game.

Every name a module uses is interned when it loads (from ROMFS: one pool entry each). The dynamic
pools hold 20, 40, 80, 160, 320, 640 ... entries, each pool one block, so five pools hold 620
names; the sixth (640 entries) is one ~7 KB block on a 64-bit port. The bench's firmware loop on a
mat (``heap1.py GAME --mat``: 16 readers, a whole game) interns 581 / 601 / 618 names for Skull,
Dead Man's Draw and Sheriff (end of round 6, docs/performance.md): one name more on a game's path
can take that pool, +7 KB at once. A count, deterministic: not a heap figure.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import bench.__main__ as B
import bench.heap as H
from host.build import compile_tree

POOLS_HOLD = 620  # 20 + 40 + 80 + 160 + 320


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, H.Heap]:
    tmp = tmp_path_factory.mktemp("mat_names")
    compile_tree(tmp / "mpy")
    return tmp, B.bench_build(tmp / "mpy")


@pytest.mark.parametrize("label", ["skull-6", "deadmans-4", "sheriff-5"])
def test_a_whole_game_on_a_mat_interns_no_more_names_than_five_pools_hold(
        built: tuple[Path, H.Heap], label: str) -> None:
    tmp, heap = built
    header = {lab: h for lab, h, _ in B.GAME_CASES}[label]
    frames = tmp / (label + ".frames")
    B.frames_file(frames, header, 1)
    fs = tmp / (label + "-fs")
    fs.mkdir()
    files = B.mat_files()
    H._refill(fs, files)
    code = H.FIRMWARE % H._argv(frames, fs, files) + "\nimport micropython\nmicropython.qstr_info()\n"
    out = heap.run("romfs", code, 1 << 22)
    assert out.returncode == 0, out.stderr[-2000:]
    names = int(re.search(r"n_qstr=(\d+)", out.stdout).group(1))  # type: ignore[union-attr]
    assert names <= POOLS_HOLD, (
        "%s on a mat interns %d names: over %d the 640-entry qstr pool (~7 KB) is taken; the change "
        "that added names to its path is the one to look at (tools: /work/notes/mat_names.py)"
        % (label, names, POOLS_HOLD))
    print(label, names, file=sys.stderr)
