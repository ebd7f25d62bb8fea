"""What a newcomer tripped over (issue 14, item 5): each a command as the README gives it."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import flash as cmd_flash
from host.cli.main import build_parser, main
from host.cli.sim import parse_header
from host.board.image import check_header

ROOT = Path(__file__).resolve().parent.parent


def tapmat(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "host.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


def make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-s", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert re.fullmatch(r"tapmat \d+\.\d+\.\d+\n", capsys.readouterr().out)


def test_the_header_examples_in_flash_help_are_accepted() -> None:
    sub = next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices and "flash" in a.choices)
    text = " ".join(sub.choices["flash"].format_help().split())
    examples = re.findall(r"'(\{[^']*\})'", text)
    assert examples
    for example in examples:
        check_header(json.loads(example))


def test_make_passes_options_and_headers() -> None:
    """Dead Man's Draw for 6 needs two decks: GAME/PLAYERS get them by themselves, OPTIONS or
    HEADER name them (then the missing port is what stops it); a whole HEADER is taken as written."""
    out = make("flash", "PORT=/nonexistent/tty", "GAME=deadmans", "PLAYERS=6")
    assert "no such serial port" in out.stderr, out.stderr
    out = make("flash", "PORT=/nonexistent/tty", "GAME=deadmans", "PLAYERS=6", "OPTIONS=decks=2")
    assert "no such serial port" in out.stderr, out.stderr
    out = make("flash", "PORT=/nonexistent/tty", 'HEADER={"game": "deadmans", "players": 6, "decks": 2}')
    assert "no such serial port" in out.stderr, out.stderr
    out = make("demo", 'HEADER={"game": "deadmans", "players": 6}')
    assert 'needs "decks": 2' in out.stderr, out.stderr


def test_tags_out_creates_its_folder_and_show_needs_a_file(tmp_path: Path) -> None:
    uids = tmp_path / "uids.csv"
    uids.write_text("uid,code\n04a1b2c3d4e5f6,digit1\n")
    out = tapmat("tags", "import", str(uids), "--out", "decks/home.bin", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "decks" / "home.bin").is_file()
    out = tapmat("tags", "show", str(tmp_path / "decks" / "away.bin"))
    assert out.returncode == 2 and "away.bin: no such registry file" in out.stderr


def test_sim_log_is_checked_before_the_game(tmp_path: Path) -> None:
    out = tapmat("sim", "--game", "skull", "--log", str(tmp_path))
    assert out.returncode == 2 and "--log" in out.stderr and "Traceback" not in out.stderr


def test_board_with_a_missing_interpreter(tmp_path: Path) -> None:
    out = tapmat("board", "--dir", str(tmp_path / "b"), "--micropython", "/nonexistent")
    assert out.returncode == 2 and "/nonexistent: no such program" in out.stderr
    assert not (tmp_path / "b" / "tty").exists() and not (tmp_path / "b" / "ctl.sock").exists()


def test_exit_codes_agree() -> None:
    """2: nothing done (bad command line or input); the same words for the same mistake."""
    for args in (["sim", "--game", "skull", "--players", "99"], ["demo", "--players", "99"],
                 ["flash", "--port", "/x", "--game", "skull", "--players", "99"]):
        out = tapmat(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert "Traceback" not in out.stderr


def test_flash_header_and_game_exclusive() -> None:
    parser = build_parser()
    args = parser.parse_args(["flash", "--port", "/x", "--header", '{"game": "skull", "players": 3}',
                              "--game", "skull"])
    with pytest.raises(cmd_flash.ImageError):
        cmd_flash.header_from(args)


def test_flash_gives_up_on_a_device_that_never_stops_sending() -> None:
    import os
    import pty
    import threading
    import time

    master, slave = pty.openpty()
    stop = threading.Event()

    def chatter() -> None:
        while not stop.is_set():
            try:
                os.write(master, b"sensor 17 says hello\r\n")
            except OSError:
                return
            time.sleep(0.005)

    threading.Thread(target=chatter, daemon=True).start()
    try:
        began = time.monotonic()
        out = tapmat("flash", "--port", os.ttyname(slave), "--timeout", "1")
        # which words depends on whether mpremote gives up before our closer does (a loaded
        # machine): either says the device never stopped, and never with a traceback
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert "kept sending" in out.stderr or "sensor 17 says hello" in out.stderr, out.stderr
        assert time.monotonic() - began < 30
    finally:
        stop.set()
        os.close(slave)
        os.close(master)


@pytest.mark.parametrize("players, decks", [(2, None), (4, None), (5, 2), (8, 2)])
def test_dead_mans_draw_picks_its_decks(players: int, decks: int | None) -> None:
    args = build_parser().parse_args(["sim", "--game", "deadmans", "--players", str(players)])
    header = parse_header(args)
    assert header is not None and header.get("decks") == decks
    args = build_parser().parse_args(["sim", "--game", "deadmans", "--players", "8", "--option", "decks=1"])
    with pytest.raises(ValueError, match='decks must be a whole number from 2 to 2'):
        parse_header(args)  # said plainly, never overruled


def test_the_same_option_has_the_same_name_and_form_everywhere() -> None:
    """--port, --game, --players, --seed, --modules, --profile: one spelling, one value form."""
    subparsers = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    forms: dict[str, set[tuple]] = {}
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            for opt in action.option_strings:
                if opt in ("--port", "--game", "--players", "--seed", "--modules", "--profile", "--header",
                           "--option"):
                    forms.setdefault(opt, set()).add((action.metavar, tuple(action.choices or ())))
    assert {"--port", "--game", "--players", "--seed", "--modules"} <= set(forms)
    assert {opt: f for opt, f in forms.items() if len(f) > 1} == {}
    for name in ("sim", "demo", "flash"):
        dests = {a.dest for a in subparsers.choices[name]._actions}
        assert {"game", "players", "modules", "header", "option"} <= dests, name
