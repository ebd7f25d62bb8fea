"""Quick heap figures for a few bench cases, nothing written: what a change does, in a minute.

    python -m bench.quick skull-6 deadmans-4 sheriff-5 [--no-fw] [--mat [--mpy]] [--micropython PATH]

Per case: the replay's smallest heap (ROMFS and ``.mpy``), the firmware loop without readers
(both ways) unless ``--no-fw``, and with ``--mat`` the firmware loop on a mat with 16 readers
(ROMFS; ``--mpy`` adds ``.mpy``). Same method as ``make bench`` (``bench/heap.py``): ``-X heapsize``
bisection, the ROMFS image's own allocation subtracted. ``--micropython`` measures with another
build (a 32-bit unix port, say). Cases: the labels of ``GAME_CASES`` and ``CARD_CASES`` in
``bench/__main__.py``; ``--mat`` applies to ``MAT_CASES``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import bench.__main__ as B
from host.build import compile_tree
from shared_rules.replay import replay_file


def main(argv: list[str]) -> int:
    cases = {label: header for label, header, _ in B.GAME_CASES + B.CARD_CASES}
    ap = argparse.ArgumentParser(prog="python -m bench.quick",
                                 description="Quick heap figures for a few bench cases, nothing written.")
    ap.add_argument("cases", nargs="+", choices=sorted(cases), metavar="CASE")
    ap.add_argument("--no-fw", action="store_true", help="the replay only")
    ap.add_argument("--mat", action="store_true", help="also the firmware loop on a mat (16 readers)")
    ap.add_argument("--mpy", action="store_true", help="with --mat: also from .mpy files")
    ap.add_argument("--micropython", default=B.MICROPYTHON, help="the micropython command to measure")
    args = ap.parse_args(argv)
    B.MICROPYTHON = args.micropython
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        compile_tree(tmp / "mpy")
        heap = B.bench_build(tmp / "mpy")
        for label in args.cases:
            log = tmp / (label + ".jsonl")
            B.write_log(log, cases[label], 1, noise=False)
            expect = replay_file(str(log))
            out = {m: heap.replay(m, log, expect) / 1024 for m in ("romfs", "mpy")}
            print("%s replay KB: romfs %.1f, mpy %.1f" % (label, out["romfs"], out["mpy"]), flush=True)
            if args.no_fw:
                continue
            frames = tmp / (label + ".frames")
            B.frames_file(frames, cases[label], 1)
            fs = tmp / "fs"
            fs.mkdir(exist_ok=True)
            full = heap.firmware_once("mpy", frames, fs)
            if full is None:
                print("%s: the firmware loop fails even with a 4 MB heap" % label, file=sys.stderr)
                return 1
            out = {m: heap.firmware(m, frames, fs, full) / 1024 for m in ("romfs", "mpy")}
            print("%s firmware without readers KB: romfs %.1f, mpy %.1f" % (label, out["romfs"], out["mpy"]),
                  flush=True)
            if args.mat and label in B.MAT_CASES:
                files = B.mat_files()
                full = heap.firmware_once("mpy", frames, fs, files)
                if full is None:
                    print("%s: the firmware loop on a mat fails even with a 4 MB heap" % label, file=sys.stderr)
                    return 1
                modes = ("romfs", "mpy") if args.mpy else ("romfs",)
                out = {m: heap.firmware(m, frames, fs, full, files) / 1024 for m in modes}
                print("%s firmware on a mat KB: %s" % (label, ", ".join("%s %.1f" % kv for kv in out.items())),
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
