"""``tapmat replay`` (CPython) and ``micropython -m shared_rules.replay`` agree, per the contract."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli.main import main
from replay_logs import write_log

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = str(Path(sys.executable).parent / "micropython")

HEADERS = [
    {"game": "skull", "players": 3},
    {"game": "skull", "players": 6, "first": 2},
    {"game": "skull", "players": 12},
    {"game": "skull", "players": 3, "tribes_per_player": 2},
]


def both_replays(tmp_path, capsys, header, seed):
    """A seeded log replayed by ``tapmat replay`` and by MicroPython: equal JSON; (it, refused lines)."""
    log = tmp_path / "game.jsonl"
    refused = write_log(log, header, seed)
    code, out, _ = host_replay(capsys, str(log), "--json")
    assert code == 0
    host = json.loads(out)
    mp = micropython_replay(log)
    assert mp.returncode == 0, mp.stderr
    assert json.loads(mp.stdout) == host
    return host, refused


def micropython_replay(log: Path) -> subprocess.CompletedProcess:
    return subprocess.run([MICROPYTHON, "-m", "shared_rules.replay", str(log)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def host_replay(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("header", HEADERS, ids=lambda h: "%s-%d-%s" % (h["game"], h["players"], h.get("tribes_per_player", 1)))
def test_both_interpreters_print_equal_json(tmp_path, capsys, header, seed):
    host, refused = both_replays(tmp_path, capsys, header, seed)
    assert host["over"] and len(host["winners"]) == 1
    assert [r["line"] for r in host["rejected"]] == refused


def test_strict_stops_at_first_rejection(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    refused = write_log(log, HEADERS[0], 5)
    code, out, err = host_replay(capsys, str(log), "--json", "--strict")
    assert code == 1
    assert [r["line"] for r in json.loads(out)["rejected"]] == refused[:1]
    assert "%s:%d" % (log, refused[0]) in err


@pytest.mark.parametrize("content,line,words", [
    ("", 0, "no header"),
    ("# only a comment\n\n", 2, "no header"),
    ("{bad json\n", 1, "not valid JSON"),
    ('\n{"game": "skull", "players": 2}\n', 2, "players"),
    ('{"game": "skull", "players": 4, "speed": 1}\n', 1, "unknown option"),
    ('{"game": "go", "players": 2}\n', 1, "unknown game"),
])
def test_bad_header_exits_2_naming_file_and_line(tmp_path, capsys, content, line, words):
    log = tmp_path / "bad.jsonl"
    log.write_text(content)
    code, out, err = host_replay(capsys, str(log), "--json")
    assert code == 2 and out == ""
    assert "%s:%d:" % (log, line) in err and words in err
    mp = micropython_replay(log)
    assert mp.returncode == 2 and mp.stdout == ""
    assert "%s:%d:" % (log, line) in mp.stderr


def test_missing_file_exits_2(tmp_path, capsys):
    code, _, err = host_replay(capsys, str(tmp_path / "nope.jsonl"))
    assert code == 2 and "nope.jsonl" in err
    assert micropython_replay(tmp_path / "nope.jsonl").returncode == 2


def test_invalid_utf8_line_is_malformed(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    log.write_bytes(b'{"game": "skull", "players": 3}\n\xff\xfe\n{"a": "place", "p": 0, "disc": "flower"}\n')
    code, out, _ = host_replay(capsys, str(log), "--json")
    assert json.loads(out)["rejected"] == [{"line": 2, "error": "malformed", "detail": "not UTF-8 text"}]
    assert json.loads(micropython_replay(log).stdout) == json.loads(out)


def test_text_output_lists_rejections(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    refused = write_log(log, HEADERS[1], 9)
    code, out, _ = host_replay(capsys, str(log))
    assert code == 0 and "(winner)" in out
    assert "line %d rejected" % refused[0] in out


MM_PROFILE = {"format": 1, "name": "test values", "placeholders": True,
              "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}


@pytest.mark.parametrize("header", [
    {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"], "profile": MM_PROFILE},
    {"game": "sheriff", "players": 4, "modules": ["black_market"], "profile": MM_PROFILE},
    {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market", "laws", "special_orders", "merry_men"],
     "profile": json.loads((Path(__file__).parent.parent / "host" / "profiles" / "sample.json").read_text())},
    {"game": "sheriff", "players": 3, "modules": ["laws", "special_orders", "merry_men"],
     "profile": json.loads((Path(__file__).parent.parent / "host" / "profiles" / "sample.json").read_text())},
], ids=["sheriff-6-deputies-black_market", "sheriff-4-black_market", "sheriff-6-all-five-modules-sample-profile",
        "sheriff-3-laws-orders-merry_men"])
def test_merry_men_logs_replay_alone_and_equal_on_both_interpreters(tmp_path, capsys, header):
    """The header carries the deck profile: the log needs no other file on either interpreter."""
    host, refused = both_replays(tmp_path, capsys, header, 2)
    assert host["over"] and host["winners"] and [r["line"] for r in host["rejected"]] == refused


def test_a_header_may_carry_a_deck_profile_up_to_its_own_limits(tmp_path, capsys):
    """The header line may be longer (16384 bytes) and deeper (6) than an action line (4096, 4),
    for a deck profile's cards inline; beyond that it is a bad header on both interpreters."""
    sample = json.loads((Path(__file__).parent.parent / "host" / "profiles" / "sample.json").read_text())
    ok = {"game": "sheriff", "players": 4, "modules": ["laws", "special_orders", "merry_men"], "profile": sample}
    log = tmp_path / "long.jsonl"
    log.write_text(json.dumps(ok) + "\n")
    assert 4096 < len(json.dumps(ok)) < 16384
    code, out, _ = host_replay(capsys, str(log), "--json")
    assert code == 0 and json.loads(out)["rejected"] == []
    too_long = dict(ok, profile=dict(sample, name="x" * 64), players=4)
    log.write_text(json.dumps(too_long) + " " * 11000 + "\n")
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"game": "sheriff", "players": 4, "x": [[[[[[1]]]]]]}\n')
    for path, why in ((log, "line longer than 16384 bytes"), (deep, "nested more than 6 deep")):
        code, _, err = host_replay(capsys, str(path), "--json")
        mp = micropython_replay(path)
        assert code == 2 and why in err and mp.returncode == 2 and why in mp.stderr, (err, mp.stderr)
