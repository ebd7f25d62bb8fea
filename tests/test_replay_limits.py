"""Replay refusals say what is wrong; huge, garbled or hostile logs need bounded memory and give
bounded output, on both interpreters (``tapmat replay`` and ``micropython -m shared_rules.replay``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli.main import main
from shared_rules.replay import _MAX_LINE as MAX_LINE, _MAX_LISTED as MAX_LISTED  # private const()s

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = str(Path(sys.executable).parent / "micropython")
HEADER = '{"game": "skull", "players": 3}\n'


def both(log: Path, capsys: pytest.CaptureFixture[str], heap: str = "2M") -> dict:
    """Replay on both interpreters (MicroPython with a small heap); their equal JSON result."""
    mp = subprocess.run([MICROPYTHON, "-X", f"heapsize={heap}", "-m", "shared_rules.replay", str(log)],
                        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert mp.returncode == 0, mp.stderr[-2000:]
    assert main(["replay", str(log), "--json"]) == 0
    host = json.loads(capsys.readouterr().out)
    assert json.loads(mp.stdout) == host
    return host


def test_refusals_say_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        '{"a": "place", "p": 0, "disc": "flower"}',
        '{"a": "plaice", "p": 1, "disc": "flower"}',
        '{"a": "place", "p": 1, "disc": "flower", "colour": "red"}',
        '{"a": "place", "p": 7, "disc": "flower"}',
        '{"a": "place", "p": 300, "disc": "flower"}',
        '{"a": "place", "p": 1, "disc": "rose"}',
        '{"a": "place", "p": 1}',
        '{"a": "bid", "p": 1, "n": 999}',
        '{"a": "place", "p": 1, "disc": "flo',
        '[' * 50 + ']' * 50,
        '{"p": 1}',
    ]
    log = tmp_path / "log.jsonl"
    log.write_text(HEADER + "\n".join(lines) + "\n")
    got = [[r["line"], r["error"], r.get("detail")] for r in both(log, capsys)["rejected"]]
    assert got == [
        [3, "malformed", 'unknown action "plaice"'],
        [4, "malformed", "unknown field 'colour' for place"],
        [5, "bad_seat", "seat 7 out of range 0..2"],
        [6, "malformed", "seat 300 out of range 0..2"],
        [7, "unknown_code", "field 'disc': unknown code 'rose'"],
        [8, "malformed", "missing field 'disc'"],
        [9, "malformed", "field 'n' out of range 0..254"],
        [10, "malformed", "truncated line (not valid JSON)"],
        [11, "malformed", "nested more than 4 deep"],
        [12, "malformed", "no action name ('a')"],
    ]
    assert main(["replay", str(log)]) == 0
    assert "line 3 rejected: malformed (unknown action \"plaice\")" in capsys.readouterr().out


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + HEADER.encode() + b'{"a": "place", "p": 0, "disc": "flower"}\n')
    result = both(log, capsys)
    assert result["rejected"] == [] and result["game"] == "skull"


def test_a_header_with_an_unknown_key_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hdr.jsonl"
    log.write_text('{"game": "skull", "players": 3, "colour": "red"}\n')
    mp = subprocess.run([MICROPYTHON, "-m", "shared_rules.replay", str(log)], cwd=ROOT,
                        capture_output=True, text=True, timeout=60)
    assert mp.returncode == 2 and f"{log}:1: bad header: unknown option 'colour'" in mp.stderr
    assert main(["replay", str(log)]) == 2
    assert f"{log}:1: bad header: unknown option 'colour'" in capsys.readouterr().err


def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "deep.jsonl"
    within = "[" * 2000 + "]" * 2000   # under the line limit, deeper than CPython's recursion limit
    deep = '{"a": ' * 100000 + "1" + "}" * 100000
    log.write_text(HEADER + within + "\n" + deep + "\n" + '{"a": "place", "p": 0, "disc": "flower"}\n')
    got = [[r["line"], r.get("detail")] for r in both(log, capsys)["rejected"]]
    assert got == [[2, "nested more than 4 deep"], [3, "line longer than %d bytes" % MAX_LINE]]


def test_huge_and_garbage_logs_need_bounded_memory_and_output(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # 20 MB without a newline, then 300,000 garbage lines; MicroPython gets a 512 KB heap.
    log = tmp_path / "garbage.jsonl"
    with open(log, "wb") as f:
        f.write(HEADER.encode())
        f.write(os.urandom(1 << 20).replace(b"\n", b" ") * 20 + b"\n")
        for i in range(300000):
            f.write(b'{"a": "x%d"}\n' % i if i % 2 else b"garbage \x00\xff line\n")
        f.write(b'{"a": "place", "p": 0, "disc": "flower"}\n')
    result = both(log, capsys, heap="512k")
    assert result["rejected_count"] == 300001 and len(result["rejected"]) == MAX_LISTED
    assert result["rejected"][0] == {"line": 2, "error": "malformed",
                                     "detail": "line longer than %d bytes" % MAX_LINE}
    assert result["rejected"][1]["detail"] == "not UTF-8 text"
    assert len(json.dumps(result)) < 150 * 1000
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("... and %d more rejected lines (300001 in all)\n" % (300001 - MAX_LISTED))


def test_lines_at_the_limit_are_read_whole_and_one_byte_more_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reader takes a line in small pieces: a line of exactly MAX_LINE bytes (with or without
    its newline, at the end of the file) is one action, one of MAX_LINE + 1 is refused."""
    def padded(action: dict, size: int) -> bytes:
        text = json.dumps(action).encode()
        return text + b" " * (size - len(text))
    log = tmp_path / "limit.jsonl"
    log.write_bytes(HEADER.encode() + padded({"a": "place", "p": 0, "disc": "flower"}, MAX_LINE) + b"\n"
                    + padded({"a": "place", "p": 1, "disc": "flower"}, MAX_LINE + 1) + b"\n"
                    + padded({"a": "place", "p": 1, "disc": "flower"}, MAX_LINE))
    result = both(log, capsys)
    assert result["rejected"] == [{"line": 3, "error": "malformed",
                                   "detail": "line longer than %d bytes" % MAX_LINE}]
