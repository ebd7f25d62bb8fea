"""The firmware on the virtual board: refused tags reach the host as plain rejections.

An unknown tag and a tag of another game's deck are each refused with their reason, the pad's
LED turns red, and the game does not change. (One UID on two pads at once needs a cloned tag,
which the virtual board's world cannot hold — it moves a tag placed twice: that case is tested
through the mat layer in tests/dual/dual_mat.py.)
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
import serial  # type: ignore[import-untyped]

from host.board.image import board_image, install_dir
from host.hub.mirror import Mirror
from host.vboard.virtual_deck import VirtualDeck
from vboards import Board, frames_until, running_board

HEADER = {"game": "skull", "players": 4}
SEAT0_PAD = 0  # hardware/mat_layout.json: Skull 3-6 seats, seat pads 0, 2, 4, 6


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    path = tmp_path_factory.mktemp("fw") / "vboard"
    install_dir(path, board_image("virtual", game=HEADER))
    with running_board(path) as b:
        b.wait_firmware(0)
        yield b


@pytest.fixture
def link(board: Board) -> Iterator[tuple[Mirror, serial.Serial]]:
    board.client.clear()
    port = serial.Serial(board.port, timeout=0.02)
    mirror = Mirror()
    port.write(mirror.hello_bytes())
    frames_until(mirror, port, lambda: mirror.in_sync, "a snapshot")
    yield mirror, port
    port.close()


def refusal(mirror: Mirror, port: serial.Serial) -> str:
    frames_until(mirror, port, lambda: any(e.kind == "rejected" for e in mirror.events), "a rejection")
    return [e.text for e in mirror.events if e.kind == "rejected"][0]


def test_unknown_tag_is_refused(board: Board, link: tuple[Mirror, serial.Serial]) -> None:
    mirror, port = link
    before = bytes(mirror.view or b"")
    board.client.place(SEAT0_PAD, "04deadbeef0001")
    assert refusal(mirror, port) == "tag 04deadbeef0001 refused: unknown tag (reader 0)"
    assert bytes(mirror.view or b"") == before
    board.client.wait_for(lambda st: st["leds"] and st["leds"][SEAT0_PAD] == [255, 0, 0], what="a red pad")


def test_tag_of_another_game_is_refused(board: Board, link: tuple[Mirror, serial.Serial]) -> None:
    mirror, port = link
    board.client.place(SEAT0_PAD, VirtualDeck().card("sheriff", "crossbow"))
    assert "foreign tag" in refusal(mirror, port)
