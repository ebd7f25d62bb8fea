"""The ROMFS way of flashing: the image tapmat builds mounts with ``vfs.VfsRom`` and imports, and
the board-side ROM query (host/board/flash.py ``ROM_QUERY``) reads a partition's size and digest.

The unix port has no ROM partition, so the query runs against a stand-in ``vfs`` module whose
``rom_ioctl`` answers as a board's does (a partition as a buffer, mpremote's second kind).
"""
from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
from pathlib import Path

from host.board import build
from host.board.flash import PRELUDE, ROM_QUERY
from host.vboard.process import ROM_SIZE

MICROPYTHON = str(Path(sys.executable).parent / "micropython")

FAKE_ROM = """import sys
class _Vfs:
    @staticmethod
    def rom_ioctl(op, *args):
        return %d if op == 1 else _PART
_PART = bytearray(bytes(range(256)) * 16)
sys.modules['vfs'] = _Vfs
"""


def run_mp(code: str, cwd: Path | None = None) -> str:
    res = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_rom_query_gives_partition_size_and_digest_of_the_image_length() -> None:
    size, digest = ast.literal_eval(run_mp(FAKE_ROM % 1 + PRELUDE + ROM_QUERY % 1000))
    part = bytes(range(256)) * 16
    assert (size, digest) == (len(part), hashlib.sha256(part[:1000]).hexdigest())


def test_rom_query_without_partition() -> None:
    assert ast.literal_eval(run_mp(FAKE_ROM % 0 + PRELUDE + ROM_QUERY % 1000)) == (-1, "")
    assert ast.literal_eval(run_mp(PRELUDE + ROM_QUERY % 1000)) == (-1, "")  # no vfs.rom_ioctl


def test_romfs_image_mounts_and_imports(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("")
    (src / "pkg" / "mod.py").write_text("VALUE = b'in rom'\n")
    for py in ("pkg/__init__.py", "pkg/mod.py"):
        subprocess.run([build.MPY_CROSS, "-o", str(src / py[:-3]) + ".mpy", py], cwd=src, check=True)
    image = build.romfs({"pkg/__init__.mpy": (src / "pkg/__init__.mpy").read_bytes(),
                         "pkg/mod.mpy": (src / "pkg/mod.mpy").read_bytes(), "data.txt": b"hello"})
    (tmp_path / "img.romfs").write_bytes(image)
    out = run_mp("import sys, vfs\n"
                 "b = open('img.romfs', 'rb').read()\n"
                 "vfs.mount(vfs.VfsRom(b), '/rom')\n"
                 "sys.path.insert(0, '/rom')\n"
                 "import pkg.mod\n"
                 "print(pkg.mod.VALUE, open('/rom/data.txt').read(), sorted(__import__('os').listdir('/rom')))\n",
                 cwd=tmp_path)
    assert out.strip() == "b'in rom' hello ['data.txt', 'pkg']"


def test_manifest_freezes_what_a_pico_gets(monkeypatch) -> None:
    """manifest.py, run as MicroPython's manifest tools run it (from its folder, with their
    include/package functions), names exactly the Pico image's modules."""
    from host.board.image import EXCLUDE, PICO
    frozen: list[str] = []
    calls = {"include": lambda path, **kw: None,
             "package": lambda pkg, files, **kw: frozen.extend(pkg + "/" + f for f in files)}
    monkeypatch.chdir(build.ROOT)
    exec((build.ROOT / "manifest.py").read_text(), calls)
    pico = [p.as_posix() for p in build.board_sources() if not p.as_posix().startswith(EXCLUDE[PICO])]
    assert sorted(frozen) == sorted(pico) and "shared_rules/core/engine.py" in frozen


def test_virtual_board_runs_from_a_rom_partition_unless_asked_not_to(tmp_path: Path) -> None:
    """``tapmat board`` mounts a ROMFS image of the modules at /rom, as a board with a ROM
    partition does; ``--no-rom`` gives a stock board (filesystem, then the repository)."""
    from host.board.flash import Connection
    from vboards import running_board
    probe = "import sys, firmware.app\nprint(firmware.app.__file__, '/rom' in sys.path)"
    with running_board(tmp_path / "rom") as board:
        with Connection(board.port) as c:
            assert c.run(probe).split() == ["/rom/firmware/app.mpy", "True"]
        out = board.mpremote("romfs", "query")  # mpremote's own query, through vfs.rom_ioctl
        assert f"ROMFS0 partition has size {ROM_SIZE} bytes" in out, out
        assert "ROMFS image size: " in out and "Not a valid ROMFS" not in out, out
    with running_board(tmp_path / "plain", "--no-rom") as board:
        with Connection(board.port) as c:
            assert c.run(probe).split() == [str(build.ROOT / "firmware" / "app.py"), "False"]


def test_a_board_knows_when_its_rom_holds_other_modules_than_the_sources(tmp_path: Path) -> None:
    """A board keeps what was flashed: ``tapmat board`` notes a ROM partition whose image is not
    today's sources' (``rom_is_current``), e.g. a persistent ``build/vboard`` after a change."""
    from host.vboard.process import ROM_FILE, rom_is_current, rom_partition
    rom = rom_partition(tmp_path)
    assert rom_is_current(tmp_path)
    data = bytearray(rom.read_bytes())
    data[100] ^= 0xFF
    (tmp_path / ROM_FILE).write_bytes(bytes(data))
    assert not rom_is_current(tmp_path)
