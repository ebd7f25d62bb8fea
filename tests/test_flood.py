"""A PING flood on the serial line does not starve the mat (the virtual board, real processes).

A thread writes PING frames as fast as the line takes them while a disc is put on a pad; the
disc must be reported as quickly as on a quiet line would allow (the loop bounds the link work
of each step, firmware/app.py _FRAMES_PER_STEP), and PINGs are still answered.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
import serial  # type: ignore[import-untyped]

from host.board.image import board_image, install_dir
from host.hub.mirror import Mirror
from host.vboard.virtual_deck import VirtualDeck
from shared_rules.wire import codec
from vboards import Board, frames_until, running_board

HEADER = {"game": "skull", "players": 4}
SEAT_PADS = (0, 2, 4)  # hardware/mat_layout.json, Skull 3-6 seats


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    path = tmp_path_factory.mktemp("flood") / "vboard"
    install_dir(path, board_image("virtual", game=HEADER))
    with running_board(path) as b:
        b.wait_firmware(0)
        yield b


def test_discs_are_seen_during_a_ping_flood(board: Board) -> None:
    port = serial.Serial(board.port, timeout=0.01)
    mirror = Mirror()
    port.write(mirror.hello_bytes())
    frames_until(mirror, port, lambda: mirror.in_sync, "a snapshot")
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        pings = b"".join(codec.encode(codec.PING, i, bytes(64)) for i in range(32))
        while not stop.is_set():
            port.write(pings)
            sent[0] += 32

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    try:
        deck = VirtualDeck()
        for seat, pad in enumerate(SEAT_PADS):
            board.client.place(pad, deck.disc(seat, "flower"))
            # A whole scan round of 16 readers takes well under a second even on a loaded
            # machine; the old loop kept a disc unreported for more than 8 s.
            frames_until(mirror, port, lambda: sum(e.kind == "accepted" for e in mirror.events) > seat,
                         f"seat {seat}'s place during the flood", timeout=8)
    finally:
        stop.set()
        writer.join()
        port.close()
    assert sent[0] > 1000 and mirror.pongs > 0, (sent[0], mirror.pongs)
