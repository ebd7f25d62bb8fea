"""What the heap holds after importing modules from ROMFS, by module and kind of object.

    python -m bench.heap_kinds [MODULE ...]     (default: the firmware with all three games)

``micropython.mem_info(1)`` prints the GC block map: one character per block, the first block of
each object telling its kind (py/gc.c ``gc_dump_alloc_table``). The modules are imported one
more at a time, in increasing order of their cost alone (so a module's imports come first), and
the blocks each import adds are counted by kind; ``micropython.qstr_info()`` gives the qstr pool
(names interned: from ROMFS the string data stays in the image, but every name takes a pool
entry, and the pools grow by doubling, one block each: their bytes are shown as "qstr pools").
Bytes = blocks x block size. A dict's or a class's hash table, a class, an instance and a raw code
(one per function, method, class body and module body, 48 B on the 64-bit port) are blocks
without a kind ("other"); "code" counts those code objects in the module's source. A growing
``sys.modules`` or qstr pool lands on whichever import makes it grow: the split is approximate.
"""
from __future__ import annotations

import ast
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.heap import Heap
from host.board.build import compile_tree

MICROPYTHON = str(Path(sys.executable).parent / "micropython")
KINDS = {"D": "dict", "h": "other (raw code, hash table, class, instance)",
         "B": "function", "S": "str/bytes", "T": "tuple", "L": "list", "A": "bytearray/array",
         "M": "module", "F": "float", "Q": "qstr pools"}
FIRMWARE = ["firmware.app", "firmware.mat_skull", "firmware.mat_deadmans", "firmware.mat_sheriff"]
LINE = re.compile(r"^[0-9a-f]{8}: (.*)$")
QSTR = re.compile(r"qstr pool: n_pool=(\d+), n_qstr=(\d+), n_str_data_bytes=(\d+), n_total_bytes=(\d+)")
# Import the modules named after the code, then the qstr pool and the block map.
MAP = "import gc, micropython\nfor _n in %r:\n    __import__(_n)\ngc.collect()\nmicropython.qstr_info()\nmicropython.mem_info(1)\n"
LOADED = "for _n in %r:\n    __import__(_n)\nprint(' '.join(n for n in sys.modules if n.split('.')[0] in ('shared_rules', 'firmware')))\n"


def code_objects(source: str) -> int:
    """Code objects MicroPython makes of a module's source: its body, each function, lambda,
    class body and comprehension (each one raw code when loaded). ``if _TYPING:`` blocks are
    compiled out (a const false test) and not counted."""
    count = 0
    todo: list[ast.AST] = [ast.parse(source)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "_TYPING":
            todo.extend(node.orelse)
            continue
        count += isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                                   ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
        todo.extend(ast.iter_child_nodes(node))
    return count


def module_code_objects(name: str) -> int:
    """``code_objects`` of a module of the tree by its dotted name (a package: its __init__)."""
    path = Path(*name.split("."))
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return code_objects(source.read_text())


def kinds(dump: str) -> tuple[Counter, int, int]:
    """Blocks by the kind of the object they belong to (the qstr pools' blocks as "Q", taken
    from the "other" heads); the block size; qstr count."""
    total = int(re.search(r"GC: total: (\d+)", dump).group(1))  # type: ignore[union-attr]
    pools = QSTR.search(dump)
    qstrs = int(pools.group(2))  # type: ignore[union-attr]
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
    size = total // blocks if blocks else 16
    pool_blocks = (int(pools.group(4)) - int(pools.group(3))) // size  # type: ignore[union-attr]
    count["h"] -= pool_blocks
    count["Q"] += pool_blocks
    return count, size, qstrs


def line(name: str, diff: dict[str, int], qstrs: int, code: int) -> str:
    return "%-30s %7d %5d %4d  %s" % (name, sum(diff.values()), qstrs, code, ", ".join(
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
        print("%-30s %7s %5s %4s  %s" % ("module", "bytes", "qstrs", "code", "by kind (bytes)"))
        codes = 0
        for i, name in enumerate(order):
            now, size, q = kinds(heap.run("romfs", MAP % order[:i + 1], 1 << 22).stdout)
            diff = {k: (now[k] - prev[k]) * size for k in set(now) | set(prev) if now[k] != prev[k]}
            total.update(diff)
            code = module_code_objects(name)
            codes += code
            print(line(name, diff, q - q0, code), flush=True)
            prev, q0 = now, q
        print(line("total", dict(total), q0 - first, codes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
