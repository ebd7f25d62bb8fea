"""Run every benchmark, print a table and write ``bench/results.json``.

Numbers, not assertions: heap by ``-X heapsize`` bisection, state and snapshot bytes, actions per
second on MicroPython and CPython, ``.mpy`` bytes. Each section reports its progress.
"""
from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from host.build import ROOT, compile_tree
from bench.heap import smallest_heap

sys.path.insert(0, str(ROOT / "tests"))
from replay_logs import write_log  # noqa: E402

BIN = Path(sys.executable).parent
MICROPYTHON = str(BIN / "micropython")
RESULTS = ROOT / "bench" / "results.json"
console = Console()

# (label, header, games timed for speed)
GAME_CASES = [
    ("skull-6", {"game": "skull", "players": 6}, 40),
    ("skull-12", {"game": "skull", "players": 12}, 20),
    ("deadmans-4", {"game": "deadmans", "players": 4}, 40),
    ("deadmans-8", {"game": "deadmans", "players": 8, "decks": 2}, 20),
    ("sheriff-5", {"game": "sheriff", "players": 5}, 10),
]
RESIDENT = """
import gc
gc.collect()
from shared_rules import replay, games
games.game_class(%r)
gc.collect()
print(gc.mem_alloc())
"""


def resident(mpy_dir: Path, game: str) -> int:
    """Heap bytes held once the replay path and the game's modules are imported (mostly code:
    the unix port loads .mpy bytecode into the heap; a board with frozen modules would not)."""
    res = subprocess.run([MICROPYTHON, "-c", RESIDENT % game], cwd=mpy_dir, capture_output=True,
                         text=True, check=True, timeout=60)
    return int(res.stdout)


def speed(interp: list[str], header: dict, games: int) -> dict:
    cmd = interp + ["bench/speed.py", json.dumps(header), str(games)]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True, timeout=600)
    return json.loads(res.stdout)


def replay_heap(log: Path, mpy_dir: Path, expect: dict) -> int:
    """Smallest heap (bytes) with which the board build replays ``log`` to the expected result."""
    def ok(heap: int) -> bool:
        res = subprocess.run([MICROPYTHON, "-X", "heapsize=%d" % heap, "-m", "shared_rules.replay", str(log)],
                             cwd=mpy_dir, capture_output=True, text=True, timeout=120)
        return res.returncode == 0 and json.loads(res.stdout) == expect
    return smallest_heap(ok, 2048, 1 << 20)


def bench_games(mpy_dir: Path, tmp: Path) -> dict:
    from shared_rules.replay import replay_file
    out = {}
    for label, header, count in GAME_CASES:
        console.print("[bold]%s[/]: heap bisection, speed on both interpreters" % label)
        log = tmp / (label + ".jsonl")
        write_log(log, header, 1, noise=False)
        expect = replay_file(str(log))
        mp = speed([MICROPYTHON, "-X", "heapsize=8M"], header, count)
        cp = speed([sys.executable], header, count)
        heap = replay_heap(log, mpy_dir, expect)
        code = resident(mpy_dir, header["game"])
        out[label] = {
            "header": header,
            "log_actions": sum(1 for line in log.read_text().splitlines() if line.startswith('{"a"')),
            "min_heap_replay_mpy": heap,
            "heap_resident_after_import": code,
            "heap_beyond_modules": heap - code,
            "state_bytes": mp["state_bytes"],
            "snapshot_bytes": mp["snapshot_bytes"],
            "public_view_bytes": mp["public_bytes"],
            "actions_per_s_micropython": round(mp["actions"] * 1e6 / max(mp["us"], 1)),
            "actions_per_s_cpython": round(cp["actions"] * 1e6 / max(cp["us"], 1)),
        }
    return out


def bench_sizes(compiled) -> dict:
    sizes = {str(c.source.with_suffix(".mpy")): c.size for c in compiled}
    rules = sum(v for k, v in sizes.items() if k.startswith("shared_rules/"))
    return {"shared_rules_mpy_bytes": rules, "firmware_mpy_bytes": sum(sizes.values()) - rules, "files": sizes}


def show(results: dict) -> None:
    t = Table(title="tapmat bench (%s)" % results["machine"])
    for col in ("case", "min heap (replay, .mpy)", "of it: modules", "state B", "snapshot B",
                "actions/s MicroPython", "actions/s CPython"):
        t.add_column(col, justify="right" if col != "case" else "left")
    for label, r in results["games"].items():
        t.add_row(label, "%d" % r["min_heap_replay_mpy"], "%d" % r["heap_resident_after_import"],
                  str(r["state_bytes"]), str(r["snapshot_bytes"]),
                  "{:,}".format(r["actions_per_s_micropython"]), "{:,}".format(r["actions_per_s_cpython"]))
    console.print(t)
    console.print("shared_rules/ .mpy: %d bytes; firmware/ .mpy: %d bytes"
                  % (results["sizes"]["shared_rules_mpy_bytes"], results["sizes"]["firmware_mpy_bytes"]))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        console.print("compiling .mpy ...")
        compiled = compile_tree(tmp / "mpy")
        results = {
            "machine": "%s %s, Python %s" % (platform.system(), platform.machine(), platform.python_version()),
            "games": bench_games(tmp / "mpy", tmp),
            "sizes": bench_sizes(compiled),
        }
    RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    show(results)
    console.print("written %s" % RESULTS.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
