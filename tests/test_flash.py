"""``make flash`` / ``tapmat flash`` against the virtual board, end to end, and its refusals.

Two virtual boards (``tapmat board`` in temporary folders) serve the module: ``board`` has a
ROM partition, erased at the start, and ``plain`` has none (``--no-rom``, a stock board). The
first test flashes ``board`` through ``make flash`` (a subprocess, as a user would): the modules
go into its partition with the real ``mpremote romfs deploy``; it checks that the board boots the
new firmware from /rom into a game of Skull that answers HELLO and turns a placed disc into a
DELTA, and that a second flash copies and deploys nothing. The other tests use the Python API
with modules compiled once.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path
from typing import Callable, Iterator

import pytest
import serial  # type: ignore[import-untyped]

from host.board import build
from host.board import image
from host.cli.flash import header_from, read_deck
from host.board.flash import BoardError, BoardInfo, Connection, check_board, flash, mpy_cross_version
from host.board.image import DirFilesystem, ImageError, board_image, install_dir, sha256
from host.hub.mirror import Mirror
from host.vboard.process import ROM_ERASED, ROM_FILE, ROM_SIZE
from host.vboard.virtual_deck import VirtualDeck
from vboards import Board, frames_until, running_board
from shared_rules.core import deck

ROOT = Path(__file__).resolve().parent.parent
SKULL = {"game": "skull", "players": 4}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """A board with an erased ROM partition: a flash must deploy the modules there."""
    path = tmp_path_factory.mktemp("flash") / "vboard"
    path.mkdir()
    (path / ROM_FILE).write_bytes(bytes([ROM_ERASED]) * ROM_SIZE)
    with running_board(path) as b:
        yield b


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """A board without a ROM partition: the modules go to its filesystem as .mpy files."""
    with running_board(tmp_path_factory.mktemp("flash") / "plain", "--no-rom") as b:
        yield b


@pytest.fixture(scope="module")
def compiled() -> Callable[[str], dict[str, bytes]]:
    """image.compile_modules, once per target for the module."""
    cache: dict[str, dict[str, bytes]] = {}
    return lambda target: cache.setdefault(target, image.compile_modules(target))


def test_make_flash_boots_a_game_and_reflash_copies_nothing(
        board: Board, compiled: Callable[[str], dict[str, bytes]]) -> None:
    boots = board.client.status()["boots"]
    # -o: never let this test reinstall the virtual environment (the stamp may look stale)
    res = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", f"PORT={board.port}",
                          "GAME=skull", "PLAYERS=4"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"modules: ROM partition ({ROM_SIZE} B): modules as a ROMFS image of" in res.stdout
    assert "ROMFS image deployed" in res.stdout  # mpremote's own words
    assert "+ firmware/app.mpy" not in res.stdout and "+ main.py" in res.stdout
    assert "board reset" in res.stdout
    board.wait_firmware(boots)
    romfs = build.romfs(compiled("virtual"))
    assert (board.dir / ROM_FILE).read_bytes()[:len(romfs)] == romfs

    mirror = Mirror()
    with serial.Serial(board.port, timeout=0.05, exclusive=True) as port:
        port.write(mirror.hello_bytes())
        frames_until(mirror, port, lambda: mirror.in_sync, "HELLO + SNAPSHOT")
        assert mirror.game_cls is not None and mirror.game_cls.NAME == "skull"
        before = bytes(mirror.view or b"")
        board.client.place(0, VirtualDeck().disc(0, "flower"))  # seat 0's pad (mat_layout.json)
        frames_until(mirror, port, lambda: any(e.kind == "accepted" for e in mirror.events), "DELTA")
    accepted = [e for e in mirror.events if e.kind == "accepted"]
    assert accepted[0].action is not None and accepted[0].action["a"] == "place"
    assert accepted[0].action["p"] == 0 and bytes(mirror.view or b"") != before

    boots = board.client.status()["boots"]
    again = flash(board.port, game=SKULL, compile=compiled)
    assert again.plan.write == [] and again.plan.remove == [] and again.plan.changes == 0
    assert len(again.plan.unchanged) == len(again.image.files)
    assert again.storage.endswith(", unchanged")
    assert again.info.platform == "linux" and again.image.target == "virtual"
    board.wait_firmware(boots)
    assert (board.fs / "jrn.bin").exists()  # the same game goes on: its journal stays
    with Connection(board.port) as c:
        assert c.run("import firmware.app\nprint(firmware.app.__file__)").strip() == "/rom/firmware/app.mpy"


def test_romfs_flash_removes_module_files_that_would_shadow_the_rom(
        board: Board, compiled: Callable[[str], dict[str, bytes]]) -> None:
    (board.fs / "firmware").mkdir(exist_ok=True)
    (board.fs / "firmware" / "app.mpy").write_bytes(b"left by an earlier .mpy flash")
    res = flash(board.port, game=SKULL, compile=compiled, reset=False)
    assert res.plan.remove == ["firmware/app.mpy"] and res.storage.endswith(", unchanged")
    assert not (board.fs / "firmware" / "app.mpy").exists()


def test_flash_repairs_only_what_differs(plain: Board, compiled: Callable[[str], dict[str, bytes]]) -> None:
    board = plain
    boots = board.client.status()["boots"]
    flash(board.port, game=SKULL, compile=compiled)  # the game starts: a journal to remove later
    board.wait_firmware(boots)
    (board.fs / "firmware" / "mat.mpy").write_bytes(b"damaged")
    (board.fs / "firmware" / "stale.py").write_text("raise ImportError('shadowing the .mpy')\n")
    (board.fs / "shared_rules" / "old").mkdir()
    (board.fs / "shared_rules" / "old" / "x.mpy").write_bytes(b"M")
    seen: list[tuple[str, str]] = []
    res = flash(board.port, game=SKULL, compile=compiled, reset=False,
                progress=lambda action, path, _n: seen.append((action, path)))
    assert res.plan.write == ["firmware/mat.mpy"]
    assert sorted(res.plan.remove) == ["firmware/stale.py", "shared_rules/old/x.mpy"]
    assert res.plan.rmdir == ["shared_rules/old"]
    assert ("write", "firmware/mat.mpy") in seen and ("rmdir", "shared_rules/old") in seen
    assert not (board.fs / "firmware" / "stale.py").exists()
    assert (board.fs / "firmware" / "mat.mpy").read_bytes() == res.image.files["firmware/mat.mpy"]

    other = {"game": "skull", "players": 3}
    res = flash(board.port, game=other, compile=compiled)
    assert res.plan.write == ["game.json"] and res.plan.new_game
    assert "jrn.bin" in res.plan.remove and "snap.bin" in res.plan.remove


def test_install_dir_and_flash_give_the_same_files(
        plain: Board, tmp_path: Path, compiled: Callable[[str], dict[str, bytes]]) -> None:
    board = plain
    res = flash(board.port, game=SKULL, compile=compiled)
    assert res.storage == "no ROM partition: modules as .mpy files"
    install_dir(tmp_path, board_image("virtual", game=SKULL, modules=compiled("virtual")))
    flashed, flashed_dirs = DirFilesystem(board.fs).listing(list(res.image.files), image.PACKAGES)
    installed, installed_dirs = DirFilesystem(tmp_path / "fs").listing(list(res.image.files),
                                                                      image.PACKAGES)
    assert flashed == installed and flashed_dirs == installed_dirs
    assert flashed["deck.bin"] == sha256(VirtualDeck().pack())


def test_missing_busy_and_silent_ports(board: Board, tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="no such serial port"):
        Connection(str(tmp_path / "ttyACM9"))
    with serial.Serial(board.port, exclusive=True):
        with pytest.raises(BoardError, match="is busy: another program holds it"):
            Connection(board.port)
    master, slave = os.openpty()  # a serial line with nothing that speaks the raw REPL
    try:
        with pytest.raises(BoardError, match="no MicroPython REPL answers.*sent nothing"):
            Connection(os.ttyname(slave), timeout=0.5)
    finally:
        os.close(master)
        os.close(slave)


def test_incompatible_boards_are_refused() -> None:
    cross = mpy_cross_version()
    assert cross[0] == 6
    ok = BoardInfo("micropython", "1.29.0", "rp2", 6 | 3 << 8 | 10 << 10)
    assert check_board(ok, cross) == "pico"
    with pytest.raises(BoardError, match="loads .mpy v5, this tapmat compiles .mpy v6"):
        check_board(BoardInfo("micropython", "1.19.1", "rp2", 5 | 2 << 10), cross)
    with pytest.raises(BoardError, match="does not report its .mpy version"):
        check_board(BoardInfo("micropython", "1.11.0", "rp2", -1), cross)
    with pytest.raises(BoardError, match="runs circuitpython 9.0.0, not MicroPython"):
        check_board(BoardInfo("circuitpython", "9.0.0", "RP2040", 6), cross)
    with pytest.raises(BoardError, match="no tapmat board profile for platform 'esp32'"):
        check_board(BoardInfo("micropython", "1.29.0", "esp32", 6), cross)


def test_command_line_game_and_deck(tmp_path: Path) -> None:
    def ns(**kw: object) -> argparse.Namespace:
        return argparse.Namespace(**{"game": None, "players": None, "header": None, **kw})

    assert header_from(ns()) is None
    assert header_from(ns(game="skull", players=4)) == SKULL
    assert header_from(ns(header='{"game": "skull", "players": 4}')) == SKULL
    for bad, message in ((ns(game="skull"), "--game needs --players"),
                         (ns(players=3), "--players needs --game"),
                         (ns(header="{", game="skull"), "either --header or --game"),
                         (ns(header="{"), "--header is not JSON"),
                         (ns(game="skull", players=13), "skull")):
        with pytest.raises(ImageError, match=message):
            header_from(bad)
    records = [{"uid": "04a1b2c3d4e5f6", "kind": "token", "code": "pass"}]
    (tmp_path / "d.json").write_text(json.dumps(records))
    (tmp_path / "d.bin").write_bytes(deck.pack(records))
    assert read_deck(tmp_path / "d.json") == read_deck(tmp_path / "d.bin") == deck.pack(records)
    (tmp_path / "bad.bin").write_bytes(deck.pack(records)[:-1] + b"\x00")
    with pytest.raises(ImageError, match="bad.bin: CRC mismatch"):
        read_deck(tmp_path / "bad.bin")
    (tmp_path / "notes.txt").write_text("my deck")
    with pytest.raises(ImageError, match="neither a deck.bin .* nor a JSON list"):
        read_deck(tmp_path / "notes.txt")
    (tmp_path / "d2.json").write_text('[{"uid": "04a1b2c3d4e5f6", "kind": "token", "code": "flowr"}]')
    with pytest.raises(ImageError, match="d2.json: tag 04a1b2c3d4e5f6: unknown token code 'flowr'"):
        read_deck(tmp_path / "d2.json")
    with pytest.raises(ImageError, match="No such file"):
        read_deck(tmp_path / "missing.bin")


def test_flash_knows_it_closed_the_port_before_the_close_begins() -> None:
    """A read that fails while pyserial is still closing the port (its fd gone, ``is_open`` still
    true) must be told from a device that answered garbage: the closer's event is set first."""
    import threading

    from host.board import flash

    seen: list[bool] = []
    closed = threading.Event()

    class SlowPort:
        def close(self) -> None:
            seen.append(closing.is_set())
            closed.set()

    with flash._closed_after(SlowPort(), 0.01) as closing:
        assert closed.wait(10)
    assert seen == [True]
