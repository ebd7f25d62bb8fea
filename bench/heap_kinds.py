"""What the heap holds after importing modules from ROMFS, by module and kind of object.

    python -m bench.heap_kinds [MODULE ...]     (default: the firmware with all three games)

``micropython.mem_info(1)`` prints the GC block map: one character per block, the first block of
each object telling its kind (py/gc.c ``gc_dump_alloc_table``). The modules are imported one
more at a time, in increasing order of their cost alone (so a module's imports come first), and
the blocks each import adds are counted by kind; ``micropython.qstr_info()`` gives the qstr pool
(names interned: from ROMFS the string data stays in the image, but every name takes a pool
entry, and the pools grow by doubling, one block each). Bytes = blocks x block size. A dict's or
a class's hash table is a block without a kind ("other"), and a growing ``sys.modules`` or qstr
pool lands on whichever import makes it grow: the split is approximate.
"""
from __future__ import annotations

import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.heap import Heap
from host.build import compile_tree

MICROPYTHON = str(Path(sys.executable).parent / "micropython")
KINDS = {"D": "dict", "h": "other (hash table, class, instance, raw code, qstr pool...)",
         "B": "function", "S": "str/bytes", "T": "tuple", "L": "list", "A": "bytearray/array",
         "M": "module", "F": "float"}
FIRMWARE = ["firmware.app", "firmware.mat_skull", "firmware.mat_deadmans", "firmware.mat_sheriff"]
LINE = re.compile(r"^[0-9a-f]{8}: (.*)$")
QSTR = re.compile(r"qstr pool: n_pool=(\d+), n_qstr=(\d+), n_str_data_bytes=(\d+), n_total_bytes=(\d+)")
# Import the modules named after the code, then the qstr pool and the block map.
MAP = "import gc, micropython\nfor _n in %r:\n    __import__(_n)\ngc.collect()\nmicropython.qstr_info()\nmicropython.mem_info(1)\n"
LOADED = "for _n in %r:\n    __import__(_n)\nprint(' '.join(n for n in sys.modules if n.split('.')[0] in ('shared_rules', 'firmware')))\n"


def kinds(dump: str) -> tuple[Counter, int, int]:
    """Blocks by the kind of the object they belong to; the block size; qstr count."""
    total = int(re.search(r"GC: total: (\d+)", dump).group(1))  # type: ignore[union-attr]
    qstrs = int(QSTR.search(dump).group(2))  # type: ignore[union-attr]
    count: Counter = Counter()
    blocks = 0
    head = "."
    for line in dump.splitlines():
        m = LINE.match(line)
        if m:
            for c in m.group(1):
                blocks += 1
                if c == ".":
                    head = "."
                elif c == "=":
                    count[head] += head != "."
                else:
                    head = c
                    count[c] += 1
        elif "lines all free" in line:
            blocks += 64 * int(re.search(r"\((\d+) lines", line).group(1))  # type: ignore[union-attr]
            head = "."
    return count, total // blocks if blocks else 16, qstrs


def line(name: str, diff: dict[str, int], qstrs: int) -> str:
    return "%-30s %7d %5d  %s" % (name, sum(diff.values()), qstrs, ", ".join(
        "%s %d" % (KINDS.get(k, k), v) for k, v in sorted(diff.items(), key=lambda kv: -kv[1])))


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        mpy = Path(tmp) / "mpy"
        compile_tree(mpy)
        heap = Heap(MICROPYTHON, mpy)
        wanted = argv or FIRMWARE
        names = heap.run("romfs", LOADED % wanted, 1 << 22).stdout.split()
        costs = heap.imports(names)
        order = sorted(names, key=lambda n: (costs[n]["alone"], n))
        prev, _size, q0 = kinds(heap.run("romfs", MAP % [], 1 << 22).stdout)  # the image itself
        first = q0
        total: Counter = Counter()
        print("%-30s %7s %5s  %s" % ("module", "bytes", "qstrs", "by kind (bytes)"))
        for i, name in enumerate(order):
            now, size, q = kinds(heap.run("romfs", MAP % order[:i + 1], 1 << 22).stdout)
            diff = {k: (now[k] - prev[k]) * size for k in set(now) | set(prev) if now[k] != prev[k]}
            total.update(diff)
            print(line(name, diff, q - q0), flush=True)
            prev, q0 = now, q
        print(line("total", dict(total), q0 - first))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
