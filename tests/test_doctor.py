"""``tapmat doctor`` on the virtual board: every reader's version and health, the field guard,
and the guided three-tag collision test (tags placed through the board's control client)."""
from __future__ import annotations

from typing import Iterator

import pytest

from host.cli.main import main
from test_flash import Board, running_board

PAD = 15
THREE = ["04c0ffee000001", "04c0ffee000081", "04c1ffee000001"]  # collisions in CL1 and CL2


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    with running_board(tmp_path_factory.mktemp("doctor") / "vboard") as b:
        yield b


class _Hand:
    """stdin of the guided step: the player puts the tags down, then presses Enter."""

    def __init__(self, board: Board, uids: list[str]) -> None:
        self.board = board
        self.uids = uids

    def readline(self) -> str:
        for uid in self.uids:
            self.board.client.place(PAD, uid)
        return "\n"


def test_doctor_reports_every_reader_and_passes_three_tags(board: Board, capsys: pytest.CaptureFixture,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", _Hand(board, THREE))
    code = main(["doctor", "--port", board.port])
    out = capsys.readouterr().out
    assert "put exactly three tags on reader 15" in out
    assert code == 0, out
    assert out.count("92h NXP MFRC522 v2.0") == 16 and "collision test: passed" in out
    assert all(uid in out for uid in THREE)
    assert "CollPos reading: FIFO bit 0" in out  # the virtual board's emulator counts that way
    board.client.clear()


def test_doctor_fails_the_collision_test_without_three_tags(board: Board, capsys: pytest.CaptureFixture,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", _Hand(board, THREE[:1]))
    code = main(["doctor", "--port", board.port])
    out = capsys.readouterr().out
    assert code == 1 and "collision test: failed" in out
    board.client.clear()
    assert main(["doctor", "--port", board.port, "--no-collision"]) == 0
