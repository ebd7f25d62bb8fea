"""The deck profile on the host: ``tapmat profile``, the flash image's ``profile.bin`` and the
board filling a header that names modules from it (firmware ``with_profile``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.game_start import with_profile
from host.cli.main import main
from host.board.deck_profile import SAMPLE, load
from host.board.image import ImageError, board_image
from shared_rules import games
from shared_rules.core import board_files
from shared_rules.sheriff.modules import profile
from shared_rules.sheriff.modules import deputies

HEADER = {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"]}


def test_sample_profile_is_valid_and_says_it_holds_placeholders(capsys: pytest.CaptureFixture[str]) -> None:
    obj = load(SAMPLE)
    assert obj["placeholders"] is True and "placeholder" in obj["name"]
    assert main(["profile", "check", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "PLACEHOLDER values" in out and "24 laws; 15 special orders; 18 Merry Men" in out, out


def test_build_then_check_the_binary_form(tmp_path: Path) -> None:
    out = tmp_path / "p.bin"
    assert main(["profile", "build", str(SAMPLE), "-o", str(out)]) == 0
    assert profile.decode(out.read_bytes()) == load(SAMPLE)
    assert load(out) == load(SAMPLE)


@pytest.mark.parametrize("text, where", [
    ('{"format": 1,', "bad.json:1: not JSON"),
    ('{"format": 1, "name": "x", "placeholders": false, "black_market": {"pepper": [1, 2]}}',
     "bad.json: black_market.pepper: the top card"),
    ('{"format": 1, "name": "x", "placeholders": false, "laws": []}', "bad.json: laws: a list of exactly 24 cards"),
    ('{"format": 1, "name": "x", "placeholders": false, "special_orders": [' + ", ".join(
        ['{"legal": "apple", "contraband": "mead", "reward": 4}'] * 14 + ['{"legal": "apple", "contraband": "mead"}'])
     + ']}', "bad.json: special_orders[14].reward: a whole number from 0 to 255"),
])
def test_errors_name_file_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["profile", "check", str(bad)]) == 2
    assert where in capsys.readouterr().err.replace(str(tmp_path) + "/", "")


def test_image_writes_profile_bin_and_a_game_json_naming_it_by_digest() -> None:
    blob = profile.encode(load(SAMPLE))
    im = board_image("virtual", game=HEADER, profile=blob, modules={})
    assert im.files["profile.bin"] == blob
    header = json.loads(im.files["game.json"])
    digest = profile.digest(load(SAMPLE), HEADER["modules"])
    assert header == dict(HEADER, profile=digest)                       # the link form: it fits a frame
    assert digest == profile.Stored(blob, HEADER["modules"], "profile.bin").digest
    with pytest.raises(ImageError, match="deck profile"):
        board_image("virtual", profile=blob[:-1] + b"\0", modules={})
    with pytest.raises(ImageError, match="black_market needs"):
        board_image("virtual", game=HEADER, modules={})
    # a header with its profile inline brings its own profile.bin (only what it uses)
    inline = dict(HEADER, profile=profile.for_modules(load(SAMPLE), HEADER["modules"]))
    im = board_image("virtual", game=inline, modules={})
    assert json.loads(im.files["game.json"])["profile"] == digest and len(im.files["profile.bin"]) < len(blob)
    other = dict(load(SAMPLE), black_market={"pepper": [9, 8], "mead": [9, 8], "silk": [9, 8]})
    with pytest.raises(ImageError, match="is not profile.bin's"):
        board_image("virtual", game=dict(HEADER, profile=other), profile=blob, modules={})


def test_board_names_its_profile_bin_by_digest(tmp_path: Path) -> None:
    assert with_profile(str(tmp_path), dict(HEADER)) == HEADER          # no file: unchanged
    (tmp_path / "profile.bin").write_bytes(profile.encode(load(SAMPLE)))
    filled = with_profile(str(tmp_path), dict(HEADER))
    assert filled["profile"] == profile.digest(load(SAMPLE), HEADER["modules"])
    plain = {"game": "sheriff", "players": 4}
    assert with_profile(str(tmp_path), plain) == plain                 # base games never read it
    deputies = {"game": "sheriff", "players": 6, "modules": ["deputies"]}
    assert with_profile(str(tmp_path), dict(deputies)) == deputies     # nor modules without card data
    (tmp_path / "profile.bin").write_bytes(b"TPRF broken")
    with pytest.raises(ValueError, match="profile.bin"):
        with_profile(str(tmp_path), dict(HEADER))


def test_digest_covers_only_the_sections_a_header_uses() -> None:
    whole = load(SAMPLE)
    bm = profile.digest(whole, ["black_market"])
    assert bm == profile.digest(profile.for_modules(whole, ["black_market"]), ["black_market"])
    assert bm == profile.Stored(profile.encode(whole), ["black_market"], "p").digest
    changed = dict(whole, laws=[dict(c) for c in whole["laws"]])
    changed["laws"][3]["name"] = "another name"
    assert profile.digest(changed, ["black_market"]) == bm             # laws are not in this header
    assert profile.digest(changed, ["laws"]) != profile.digest(whole, ["laws"])


def test_a_link_form_header_is_refused_where_no_board_profile_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_files, "profile_path", None)   # a host, a replay: no board's profile.bin
    header = profile.link_header(dict(HEADER, profile=load(SAMPLE)))
    assert header["profile"].startswith("crc32:") and len(json.dumps(header)) < 200
    with pytest.raises(ValueError, match="a log carries the profile itself"):
        games.from_header(header)


def test_profile_push_writes_a_boards_profile_bin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tapmat profile push: PROFILE frames over the link, answered by STORED; no reflash."""
    from host.sim.runner import local_board
    assert main(["profile", "push", str(SAMPLE)]) == 2
    assert "push needs --port" in capsys.readouterr().err
    with local_board() as folder:
        assert main(["profile", "push", str(SAMPLE), "--port", str(folder / "tty")]) == 0
        assert (folder / "fs" / "profile.bin").read_bytes() == profile.encode(load(SAMPLE))
    assert "profile.bin: %d B" % len(profile.encode(load(SAMPLE))) in capsys.readouterr().out
