"""The deck profile on the host: ``tapmat profile``, the flash image's ``profile.bin`` and the
board filling a header that names modules from it (firmware ``with_profile``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.app import with_profile
from host.cli import main
from host.cmd_profile import SAMPLE, load
from host.image import ImageError, board_image
from shared_rules import games, profile
from shared_rules import sheriff_mm

HEADER = {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"]}


def test_sample_profile_is_valid_and_says_it_holds_placeholders(capsys: pytest.CaptureFixture[str]) -> None:
    obj = load(SAMPLE)
    assert obj["placeholders"] is True and "placeholder" in obj["name"]
    assert main(["profile", "check", str(SAMPLE)]) == 0
    assert "PLACEHOLDER values" in capsys.readouterr().out


def test_build_then_check_the_binary_form(tmp_path: Path) -> None:
    out = tmp_path / "p.bin"
    assert main(["profile", "build", str(SAMPLE), "-o", str(out)]) == 0
    assert profile.decode(out.read_bytes()) == load(SAMPLE)
    assert load(out) == load(SAMPLE)


@pytest.mark.parametrize("text, where", [
    ('{"format": 1,', "bad.json:1: not JSON"),
    ('{"format": 1, "name": "x", "placeholders": false, "black_market": {"pepper": [1, 2]}}',
     "bad.json: black_market.pepper: the top card"),
    ('{"format": 1, "name": "x", "placeholders": false, "laws": []}', "bad.json: laws: not supported"),
])
def test_errors_name_file_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["profile", "check", str(bad)]) == 2
    assert where in capsys.readouterr().err.replace(str(tmp_path) + "/", "")


def test_image_writes_profile_bin_and_a_self_contained_game_json() -> None:
    blob = profile.encode(load(SAMPLE))
    im = board_image("virtual", game=HEADER, profile=blob, modules={})
    assert im.files["profile.bin"] == blob
    header = json.loads(im.files["game.json"])
    assert header["profile"] == load(SAMPLE) and isinstance(games.from_header(header), sheriff_mm.SheriffMM)
    with pytest.raises(ImageError, match="deck profile"):
        board_image("virtual", profile=blob[:-1] + b"\0", modules={})
    with pytest.raises(ImageError, match="black_market needs"):
        board_image("virtual", game=HEADER, modules={})


def test_board_fills_a_header_from_profile_bin(tmp_path: Path) -> None:
    assert with_profile(str(tmp_path), dict(HEADER)) == HEADER          # no file: unchanged
    (tmp_path / "profile.bin").write_bytes(profile.encode(load(SAMPLE)))
    filled = with_profile(str(tmp_path), dict(HEADER))
    assert filled["profile"] == load(SAMPLE)
    plain = {"game": "sheriff", "players": 4}
    assert with_profile(str(tmp_path), plain) == plain                 # base games never read it
    (tmp_path / "profile.bin").write_bytes(b"TPRF broken")
    with pytest.raises(ValueError, match="profile.bin"):
        with_profile(str(tmp_path), dict(HEADER))
