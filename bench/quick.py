"""Quick heap figures for a few bench cases, nothing written: what a change does, in a minute.

    python -m bench.quick skull-6 deadmans-4 sheriff-5 [--no-fw] [--mat [--mpy]] [--micropython PATH]

Per case: the replay's smallest heap (ROMFS and ``.mpy``), the firmware loop without readers
(both ways) unless ``--no-fw``, and with ``--mat`` the firmware loop on a mat with 16 readers
(ROMFS; ``--mpy`` adds ``.mpy``). Same method as ``make bench`` (``bench/heap.py``): ``-X heapsize``
bisection, the ROMFS image's own allocation subtracted. ``--micropython`` measures with another
build (a 32-bit unix port, say). Cases: the labels of ``GAME_CASES`` and ``CARD_CASES`` in
``bench/__main__.py``.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import bench.__main__ as B
from bench.heap import MODES
from host.board.build import compile_tree

# What is printed: the figure's name, its key in bench/results.json less the mode.
FIGURES = (("replay", "min_heap_replay_"), ("firmware without readers", "min_heap_firmware_"),
           ("firmware on a mat", "min_heap_firmware_mat_"))


def command(name: str) -> str:
    """A micropython command as every run can start it from its own folder: a path made absolute,
    a bare name looked up on PATH."""
    found = shutil.which(name)
    if found is None:
        raise argparse.ArgumentTypeError("no such command: %s (build/micropython32: make micropython32)" % name)
    return str(Path(found).resolve())


def main(argv: list[str]) -> int:
    cases = {label: header for label, header, _ in B.GAME_CASES + B.CARD_CASES}
    ap = argparse.ArgumentParser(prog="python -m bench.quick",
                                 description="Quick heap figures for a few bench cases, nothing written.")
    ap.add_argument("cases", nargs="+", choices=sorted(cases), metavar="CASE")
    ap.add_argument("--no-fw", action="store_true", help="the replay only")
    ap.add_argument("--mat", action="store_true", help="also the firmware loop on a mat (16 readers)")
    ap.add_argument("--mpy", action="store_true", help="with --mat: also from .mpy files")
    ap.add_argument("--micropython", default=B.MICROPYTHON, type=command,
                    help="the micropython command to measure (a 32-bit port: make micropython32)")
    args = ap.parse_args(argv)
    B.MICROPYTHON = args.micropython
    mat_modes = (("romfs", "mpy") if args.mpy else ("romfs",)) if args.mat else ()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        compile_tree(tmp / "mpy")
        heap = B.bench_build(tmp / "mpy")
        for label in args.cases:
            game, line = B.case_heap(heap, tmp, label, cases[label], not args.no_fw, mat_modes)
            found = {**game, **line}
            for what, key in FIGURES:
                got = ["%s %.1f" % (m, found[key + m] / 1024) for m in MODES if key + m in found]
                if got:
                    print("%s %s KB: %s" % (label, what, ", ".join(got)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
