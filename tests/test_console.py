"""A stray 0x03 never stops a game; CONSOLE hands the console over; a soft reset restarts it.

On the virtual board, whose profile emulates ``micropython.kbd_intr`` (docs/virtual-board.md):
the firmware turns the interrupt off while it referees, so 0x03 bytes from line noise or another
program are junk for the frame reader; after CONSOLE (what ``tapmat flash`` and ``tapmat
console`` send) Ctrl-C reaches the REPL, and Ctrl-D there (a soft reset) starts the firmware.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest
import serial  # type: ignore[import-untyped]

from host.cli import main as cli
from host.board.flash import console_frame, hand_console_over
from host.board.image import board_image, install_dir
from host.hub.mirror import Mirror
from host.vboard.virtual_deck import VirtualDeck
from shared_rules.wire import codec
from vboards import Board, frames_until, running_board

HEADER = {"game": "skull", "players": 4}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    path = tmp_path_factory.mktemp("console") / "vboard"
    install_dir(path, board_image("virtual", game=HEADER))
    with running_board(path) as b:
        b.wait_firmware(0)
        yield b


def synced(board: Board) -> tuple[Mirror, serial.Serial]:
    port = serial.Serial(board.port, timeout=0.02)
    mirror = Mirror()
    port.write(mirror.hello_bytes())
    frames_until(mirror, port, lambda: mirror.in_sync, "a snapshot")
    return mirror, port


def test_console_frame_has_no_repl_control_byte() -> None:
    wire = console_frame()
    assert not any(1 <= b <= 6 for b in wire) and wire[-1] == 0
    assert [f[0] for f in codec.FrameReader().frames(wire)] == [codec.CONSOLE]


def test_stray_ctrl_c_does_not_stop_a_game(board: Board) -> None:
    board.client.clear()
    mirror, port = synced(board)
    with port:
        for junk in (b"\x03", b"\x03\x03\x03", b"abc\x03def\x00", b"\r\x03\r\x03"):
            port.write(junk)
            time.sleep(0.4)  # longer than the bridge's SIGINT grace for an unread 0x03
        assert board.client.status()["state"] == "main"
        before = bytes(mirror.view or b"")
        board.client.place(0, VirtualDeck().disc(0, "flower"))  # seat 0's pad
        frames_until(mirror, port, lambda: any(e.kind == "accepted" for e in mirror.events), "DELTA")
        assert bytes(mirror.view or b"") != before
        port.write(b"\x00" + mirror.frame(codec.PING, b"still here"))  # 00 ends the junk
        frames_until(mirror, port, lambda: mirror.pongs > 0, "PONG")


def test_console_hand_over_then_ctrl_c_then_soft_reset(board: Board) -> None:
    with serial.Serial(board.port, timeout=0.05) as port:
        assert hand_console_over(port)
        port.write(b"\r\x03")
        board.client.wait_for(lambda st: st["state"] == "repl", what="the REPL after Ctrl-C")
        boots = board.client.status()["boots"]
        port.write(b"\x03\x04")  # clear the line, soft reset: main.py runs again
        board.wait_firmware(boots)
    mirror, port = synced(board)
    port.close()
    assert mirror.game_cls is not None and mirror.game_cls.NAME == "skull"


def test_tapmat_console_command(board: Board, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["console", "--port", board.port]) == 0
    assert "Ctrl-C" in capsys.readouterr().out
    time.sleep(0.1)
    with serial.Serial(board.port, timeout=0.05) as port:
        port.write(b"\x03")
        board.client.wait_for(lambda st: st["state"] == "repl", what="the REPL after Ctrl-C")
        assert cli.main(["console", "--port", board.port]) == 1  # the REPL takes Ctrl-C anyway
        boots = board.client.status()["boots"]
        port.write(b"\x03\x04")
        board.wait_firmware(boots)
