"""The board image (host/board/image.py): what each target gets, and how a sync brings a folder to it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import persist
from host.board import image
from host.board.image import DirFilesystem, Image, ImageError, board_image, install_dir, plan, sha256
from host.vboard.virtual_deck import VirtualDeck
from shared_rules.core import deck

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def modules() -> dict[str, dict[str, bytes]]:
    return {t: image.compile_modules(t) for t in image.TARGETS}


def test_targets_get_their_own_profile_and_no_host_modules(modules: dict[str, dict[str, bytes]]) -> None:
    pico, virtual = set(modules["pico"]), set(modules["virtual"])
    assert "firmware/boards/pico.mpy" in pico and "firmware/boards/pico.mpy" not in virtual
    assert "firmware/boards/virtual.mpy" in virtual and "firmware/boards/virtual.mpy" not in pico
    assert {p for p in virtual if p.startswith("firmware/emu/")} >= {
        "firmware/emu/__init__.mpy", "firmware/emu/ntag.mpy", "firmware/emu/mfrc522_emu.mpy"}
    assert not any(p.startswith("firmware/emu/") for p in pico)
    for files in (pico, virtual):
        assert "firmware/boards/vrom.mpy" not in files and "firmware/main.mpy" not in files
        assert not any(p.endswith(("layout.mpy", "rng.mpy")) or p.startswith("host/") for p in files)
        assert {"firmware/app.mpy", "firmware/mfrc522.mpy", "shared_rules/skull/rules.mpy",
                "shared_rules/wire/codec.mpy", "shared_rules/__init__.mpy"} <= files
    # every board source is in one image or the other, except the ROM and main.py
    sources = {p.with_suffix(".mpy").as_posix() for p in image.build.board_sources()}
    assert sources - pico - virtual == {"firmware/boards/vrom.mpy", "firmware/main.mpy"}


def test_modules_are_bytecode_mpy_v6(modules: dict[str, dict[str, bytes]]) -> None:
    for data in modules["pico"].values():
        assert data[0:2] == b"M\x06"
        assert data[2] >> 2 == 0  # no native architecture: loads on any port with .mpy v6


def test_image_files_and_order(modules: dict[str, dict[str, bytes]]) -> None:
    header = image.game_header("skull", 4)
    im = board_image("virtual", game=header, modules=modules["virtual"])
    names = list(im.files)
    assert names[-1] == "main.py"
    assert names.index("game.json") > max(i for i, n in enumerate(names) if "/" in n)
    assert im.files["main.py"] == (ROOT / "firmware" / "main.py").read_bytes()
    assert im.files["mat_layout.json"] == (ROOT / "hardware" / "mat_layout.json").read_bytes()
    assert im.files["deck.bin"] == VirtualDeck().pack()
    assert json.loads(im.files["game.json"]) == {"game": "skull", "players": 4}
    assert im.size == sum(len(b) for b in im.files.values())
    pico = board_image("pico", modules=modules["pico"])
    assert "deck.bin" not in pico.files and "game.json" not in pico.files
    records = [{"uid": "04a1b2c3d4e5f6", "kind": "token", "code": "pass"}]
    assert board_image("pico", deck=deck.pack(records), modules=modules["pico"]).files["deck.bin"] \
        == deck.pack(records)


def test_bad_inputs_are_refused_with_reasons(modules: dict[str, dict[str, bytes]]) -> None:
    with pytest.raises(ImageError, match="unknown game 'chess'"):
        image.game_header("chess", 3)
    with pytest.raises(ImageError, match="skull"):
        image.game_header("skull", 1)
    with pytest.raises(ImageError, match="deck registry: .*magic"):
        board_image("pico", deck=b"not a registry at all", modules=modules["pico"])
    with pytest.raises(ImageError, match="unknown target"):
        image.compile_modules("esp32")
    with pytest.raises(ImageError, match="virtual image"):
        install_dir(Path("/nonexistent"), board_image("pico", modules=modules["pico"]))


def test_journal_names_match_the_firmware() -> None:
    assert tuple(image.JOURNAL_FILES) == tuple(persist._NAMES)


def test_plan_writes_changed_removes_stale_and_keeps_foreign_files() -> None:
    im = Image("virtual", {"firmware/a.mpy": b"A", "firmware/sub/b.mpy": b"B", "game.json": b"{}",
                           "main.py": b"M"})
    listing = {"firmware/a.mpy": sha256(b"A"), "firmware/a.py": sha256(b"stale source"),
               "firmware/old/x.mpy": sha256(b"x"), "main.py": sha256(b"old"),
               "board.json": sha256(b"{}"), "jrn.bin": sha256(b"j"), "game.json": sha256(b"{}")}
    p = plan(im, listing, {"firmware", "firmware/old"})
    assert p.write == ["firmware/sub/b.mpy", "main.py"]
    assert p.unchanged == ["firmware/a.mpy", "game.json"]
    assert p.remove == ["firmware/a.py", "firmware/old/x.mpy"]  # not board.json, not the journal
    assert p.mkdir == ["firmware/sub"] and p.rmdir == ["firmware/old"]
    assert not p.new_game
    listing["game.json"] = sha256(b'{"game": "skull"}')
    p = plan(im, listing, {"firmware", "firmware/old"})
    assert p.new_game and "jrn.bin" in p.remove and "game.json" in p.write


def test_install_dir_syncs_a_folder(tmp_path: Path, modules: dict[str, dict[str, bytes]]) -> None:
    im = board_image("virtual", game=image.game_header("skull", 3), modules=modules["virtual"])
    first = install_dir(tmp_path, im)
    fs = tmp_path / "fs"
    assert sorted(first.write) == sorted(im.files) and not first.remove
    assert {p: sha256((fs / p).read_bytes()) for p in im.files} == im.hashes()
    (fs / "firmware" / "stale.py").write_text("raise ImportError")
    (fs / "firmware" / "app.mpy").write_bytes(b"broken")
    (fs / "jrn.bin").write_bytes(b"journal of a game")
    (fs / "board.json").write_text('{"readers": 8}')
    again = install_dir(tmp_path, im)
    assert again.write == ["firmware/app.mpy"] and again.remove == ["firmware/stale.py"]
    assert (fs / "jrn.bin").exists() and (fs / "board.json").exists()
    other = board_image("virtual", game=image.game_header("skull", 5), modules=modules["virtual"])
    third = install_dir(tmp_path, other)
    assert third.write == ["game.json"] and third.remove == ["jrn.bin"] and third.new_game
    assert not (fs / "jrn.bin").exists()
    files, _dirs = DirFilesystem(fs).listing(list(other.files), image.PACKAGES)
    assert {p: files[p] for p in other.files} == other.hashes()
    assert install_dir(tmp_path, other).changes == 0
