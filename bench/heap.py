"""Heap figures on the MicroPython unix port, two ways a board can hold the code.

- ``romfs``: ``shared_rules/`` and ``firmware/`` compiled and packed in a ROMFS image, mounted with
  ``vfs.VfsRom`` at ``/rom``. Bytecode and constants are used in place, as on a board with a ROM
  partition or frozen modules. The unix port has no ROM, so the image sits in a heap ``bytearray``:
  that allocation (``Heap.image_heap``, measured) is subtracted from every figure.
- ``mpy``: the same ``.mpy`` files on a filesystem (a stock board): loading copies the bytecode
  into the heap.

``smallest_heap`` bisects on ``-X heapsize``: the smallest heap with which a run still succeeds.
``Heap.runs_out`` then says where the run one bisection step below failed.
"""
from __future__ import annotations

import ast
import json
import re
import subprocess
from pathlib import Path
from typing import Callable

from host.board import build

MODES = ("romfs", "mpy")

# Prelude of every measured run. ROMFS: read the image into one exact-size buffer (the stand-in
# for a ROM partition: ``read(n)`` reserves n bytes at once) and mount it first on the import
# path. It binds no names: each would be interned, and the names interned decide when a qstr
# pool doubles (docs/performance.md).
_MOUNT = """import sys, vfs
vfs.mount(vfs.VfsRom(open(%r, "rb").read(%d)), "/rom")
sys.path.insert(0, "/rom")
"""
_PLAIN = "import sys\nsys.path.insert(0, '')\n"
_ALLOC = "import gc\ngc.collect()\nprint(gc.mem_alloc())\n"
REPLAY = "from shared_rules import replay\nsys.exit(replay.main(['replay', %r]))\n"
FIRMWARE = "del sys.argv[:]\nsys.argv.extend(%r)\nimport firmware_run\n"
# One process imports every module, cheapest first (so a module's dependencies are in
# already), and prints each one's own heap cost; a module that cannot import here says why.
IMPORTS = """import gc
def _cost(name):
    gc.collect()
    a = gc.mem_alloc()
    try:
        __import__(name)
    except Exception as e:
        return repr(e)
    gc.collect()
    return gc.mem_alloc() - a
print(repr([(n, _cost(n)) for n in %r]))
"""


def _argv(frames: Path, fs: Path, mat: dict | None) -> list[str]:
    return ["firmware_run", str(frames), str(fs)] + (["mat"] if mat is not None else [])


def _refill(folder: Path, files: dict[str, bytes] | None) -> None:
    """Empty ``folder`` (a board filesystem), then write ``files`` into it."""
    for f in folder.glob("*"):
        f.unlink()
    for name, data in (files or {}).items():
        (folder / name).write_bytes(data)


def why_failed(run: subprocess.CompletedProcess) -> str:
    """A failed run in a few words: the innermost frame of the traceback and the error (where the
    heap ran out), or that the firmware restarted itself (status 80: a game found no room),
    with the error it restarted on when it printed one."""
    if run.returncode == 80:
        where = _innermost(run.stderr)
        return "restarted (board.soft_reset): no room for a game beside what was loaded" + (
            ", " + where if where else "")
    if run.returncode == 0:
        return "a wrong result"
    return _innermost(run.stderr) or _innermost(run.stdout) or "exit status %d" % run.returncode


def _innermost(text: str) -> str:
    """``module function: error`` of a traceback's innermost frame (the board's code has no line
    numbers: host/board/build.py ``OPT_NO_LINES``); its last line if it has no frame; "" for no text."""
    lines = text.strip().splitlines()
    if not lines:
        return ""
    frames = [m for m in (re.match(r'\s*File "([^"]+)", line \d+, in (\S+)', line) for line in lines) if m]
    if not frames:
        return lines[-1]
    module, function = frames[-1].groups()
    return "%s %s: %s" % (module, function, lines[-1])


def smallest_heap(ok: Callable[[int], bool], lo: int, hi: int, step: int = 256) -> int:
    """Bisect on ``ok(heap)`` (assumed monotone) between ``lo`` and ``hi`` bytes, to ``step``."""
    if not ok(hi):
        raise RuntimeError("fails even with a %d-byte heap" % hi)
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


class Heap:
    """Measured runs from one build: ``mpy_dir`` (compiled modules plus the bench drivers) and
    its ROMFS image next to it."""

    def __init__(self, micropython: str, mpy_dir: Path) -> None:
        self.micropython = micropython
        self.mpy_dir = mpy_dir
        self.runs_out = ""   # why the last figure's run one bisection step below it failed
        self._failed: dict[int, str] = {}
        files = {p.relative_to(mpy_dir).as_posix(): p.read_bytes()
                 for p in sorted(mpy_dir.rglob("*.mpy"))}
        self.image = mpy_dir.parent / "modules.romfs"
        self.image.write_bytes(build.romfs(files))
        self.image_bytes = self.image.stat().st_size
        self.image_heap = int(self.run("romfs", _ALLOC, 1 << 22).stdout) - int(self.run("mpy", _ALLOC, 1 << 22).stdout)

    def prelude(self, mode: str) -> str:
        return _MOUNT % (str(self.image), self.image_bytes) if mode == "romfs" else _PLAIN

    def run(self, mode: str, code: str, heap: int) -> subprocess.CompletedProcess:
        return subprocess.run([self.micropython, "-X", "heapsize=%d" % heap, "-c", self.prelude(mode) + code],
                              cwd=self.mpy_dir, capture_output=True, text=True, timeout=300)

    def smallest(self, mode: str, passes: Callable[[int], bool], lo: int = 4096, step: int = 256) -> int:
        """Smallest heap with which ``passes(heap)`` in ``mode``, without the ROMFS image's own
        allocation; ``runs_out`` says why the run one bisection step below failed."""
        self._failed = {}
        hi = smallest_heap(passes, lo, 1 << 22, step)
        below = [heap for heap in self._failed if heap < hi]
        self.runs_out = self._failed[max(below)] if below else ""
        return hi - (self.image_heap if mode == "romfs" else 0)

    def _passes(self, mode: str, code: str, heap: int, good: Callable[[dict], bool]) -> bool:
        """One bisection run: whether it ended well and ``good`` of the JSON it printed; why not
        is kept by heap size, for ``runs_out``."""
        r = self.run(mode, code, heap)
        if r.returncode == 0 and good(json.loads(r.stdout)):
            return True
        self._failed[heap] = why_failed(r)
        return False

    def replay(self, mode: str, log: Path, expect: dict) -> int:
        return self.smallest(mode, lambda heap: self._passes(mode, REPLAY % str(log), heap, lambda out: out == expect))

    def firmware(self, mode: str, frames: Path, fs: Path, expect: dict,
                 mat: dict[str, bytes] | None = None) -> int:
        """``mat``: the board reads tags (bench/firmware_run.py), with these files on ``fs``; the
        emulator's heap, measured in this mode, is subtracted like the ROMFS image's. A run passes
        only if the game came out exactly as ``expect`` in one process: a firmware that restarted
        (status 80) failed."""
        def game(out: dict | None) -> dict | None:
            return out and {k: v for k, v in out.items() if k != "emulator_heap"}
        full = self.firmware_once(mode, frames, fs, mat)
        if game(full) != game(expect):
            raise RuntimeError("%s: the firmware loop from %s differs from the expected game: %s" % (frames.name, mode, full))

        def passes(heap: int) -> bool:
            _refill(fs, mat)
            return self._passes(mode, FIRMWARE % _argv(frames, fs, mat), heap, lambda out: game(out) == game(expect))
        return self.smallest(mode, passes, 8192) - full["emulator_heap"]

    def restore(self, mode: str, frames: Path, fs: Path, mat: dict[str, bytes]) -> int:
        """The smallest heap with which a mat boots after a power cut at the end of the game
        ``frames`` (its journal and snapshot as the played run left them, no frame coming) and
        restores that game, as at a heap of 4 MB; the emulator's heap subtracted as in
        ``firmware``. A boot that restarted (status 80) failed."""
        self.firmware_once(mode, frames, fs, mat)
        left = {f.name: f.read_bytes() for f in fs.iterdir()}
        quiet = frames.with_name("no.frames")
        quiet.write_bytes(b"")
        code = FIRMWARE % _argv(quiet, fs, mat)
        _refill(fs, left)
        r = self.run(mode, code, 1 << 22)
        full = json.loads(r.stdout) if r.returncode == 0 else None
        if not full or not full["over"]:
            raise RuntimeError("%s: the board did not restore the game from %s at 4 MB: %s" % (frames.name, mode, full))

        def passes(heap: int) -> bool:
            _refill(fs, left)
            return self._passes(mode, code, heap, lambda out: out == full)
        return self.smallest(mode, passes, 8192) - full["emulator_heap"]

    def firmware_once(self, mode: str, frames: Path, fs: Path, mat: dict[str, bytes] | None = None,
                      heap: int = 1 << 22) -> dict | None:
        """One whole game in one process on a board whose filesystem ``fs`` starts with only
        ``mat``'s files; None if it failed or restarted."""
        _refill(fs, mat)
        r = self.run(mode, FIRMWARE % _argv(frames, fs, mat), heap)
        return json.loads(r.stdout) if r.returncode == 0 else None

    def imports(self, modules: list[str]) -> dict[str, dict]:
        """Per module, from ROMFS: ``alone``, the heap its import takes in a fresh interpreter
        (dependencies included); ``own``, what it adds once the modules cheaper alone are in
        (so its dependencies usually are). A string instead of a number: why it does not
        import on the unix port."""
        alone = {}
        for name in modules:
            alone[name] = self._import_costs([name])[name]
        order = sorted(modules, key=lambda n: alone[n] if isinstance(alone[n], int) else 1 << 30)
        own = self._import_costs(order)
        return {n: {"alone": alone[n], "own": own[n]} for n in modules}

    def _import_costs(self, names: list[str]) -> dict[str, int | str]:
        r = self.run("romfs", IMPORTS % names, 1 << 22)
        if r.returncode:
            return {n: r.stderr.strip()[-200:] for n in names}
        return dict(ast.literal_eval(r.stdout))
