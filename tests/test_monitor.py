"""The monitor's session against real virtual boards: it follows a board whose port goes away
and comes back (the board process stopped and started again on its folder, as an unplugged and
replugged board), shows the final standings of a finished game (Sheriff's need one referee
snapshot, after which the mirror is public again), and ``tapmat monitor --exit-at-end`` draws
them."""
from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Iterator

import pytest
from rich.console import Console

from host.board import image
from host.hub.mirror import PUBLIC
from host.screen.monitor import Session, watch
from host.sim.runner import _modules, local_board, play
from host.vboard.process import VirtualBoard
from host.vboard.client import VirtualBoardClient
from shared_rules import games
from host.sim.playout import Playout


@pytest.fixture(scope="module")
def board() -> Iterator[Path]:
    with local_board() as folder:
        yield folder


class Running:
    """A virtual board on a folder, in a thread, until stop()."""

    def __init__(self, folder: Path) -> None:
        self.board = VirtualBoard(folder, log=lambda _msg: None)
        self.board.start()
        self.thread = threading.Thread(target=self.board.serve, daemon=True)
        self.thread.start()
        with VirtualBoardClient(folder) as client:
            client.wait_booted(firmware=True)

    def stop(self) -> None:
        self.board.stop()
        self.thread.join(10)


def public(header: dict, actions: list[dict]) -> bytes:
    g = games.from_header(header)
    rec = bytearray(128)
    for a in actions:
        assert g.VOCAB.encode(a, rec) == 0 and g.accept(rec) == 0
    view = bytearray(g.PUBLIC_SIZE)
    g.public(view)
    return bytes(view)


def act(s: Session, action: dict) -> None:
    n = len([e for e in s.events if e.kind == "accepted"])
    s.send(s.mirror.action_bytes(action))
    s.wait(lambda: len([e for e in s.events if e.kind == "accepted"]) > n and s.mirror.in_sync, 10, "a DELTA")


def test_the_session_follows_a_board_that_goes_away_and_comes_back(tmp_path: Path) -> None:
    header = {"game": "deadmans", "players": 3}
    folder = tmp_path / "vboard"
    image.install_dir(folder, image.board_image(image.VIRTUAL, modules=_modules(), game=header))
    log = Playout(header, 3).run()[:12]
    first = Running(folder)
    s = Session(str(folder / "tty"))
    try:
        s.connect()
        for a in log[:6]:
            act(s, a)
        first.stop()  # the port goes away: the pty is closed, BOARD_DIR/tty removed
        s.wait(lambda: not s.mirror.connected, 10, "the session to notice")
        assert bytes(s.mirror.view) == public(header, log[:6])  # the last picture is kept
        second = Running(folder)  # plugged in again: a new pty, the game restored from the journal
        try:
            hellos = s.mirror.hellos
            s.wait(lambda: s.mirror.hellos > hellos and s.mirror.in_sync, 15, "the board again")
            assert bytes(s.mirror.view) == public(header, log[:6])
            for a in log[6:]:
                act(s, a)
            assert bytes(s.mirror.view) == public(header, log)
        finally:
            second.stop()
    finally:
        s.close()
    texts = [e.text for e in s.events if e.kind == "link"]
    assert any(t.startswith("lost the board") for t in texts)
    assert sum(t.startswith("connected to") for t in texts) == 2


def test_final_standings_of_a_finished_sheriff_game(board: Path, tmp_path: Path) -> None:
    result = play({"game": "sheriff", "players": 3}, 2, port=str(board / "tty"), host_only=True, mistakes=0)
    s = Session(str(board / "tty"))
    try:
        s.connect()
        final = s.standings()
        assert final is not None
        for key in ("scores", "winners", "gold", "over"):
            assert final[key] == result.final[key]
        # the referee snapshot served the scores only: the mirror is public and in sync again
        assert s.mirror.view_kind == PUBLIC and s.mirror.in_sync
        assert "bag" not in s.mirror.state()["seats"][0]
        assert s.picture().final == final
    finally:
        s.close()


def test_monitor_exits_at_the_end_with_the_standings(board: Path) -> None:
    result = play({"game": "skull", "players": 3}, 3, port=str(board / "tty"), host_only=True, mistakes=0)
    console = Console(width=80, height=24, record=True, file=io.StringIO(), color_system=None)
    final = watch(str(board / "tty"), exit_at_end=True, screen=False, console=console)
    assert final is not None and final["winners"] == result.final["winners"]
    out = console.export_text()
    assert "Final standings" in out and "WINNER" in out


def test_the_monitor_says_the_names_the_hub_keeps(board: Path) -> None:
    """Names given on the TV or a phone are the hub's (hub.sqlite beside the port): an attached
    monitor shows them too, in its table and its final standings."""
    from host.hub.store import Store, default_path

    port = str(board / "tty")
    store = Store(default_path(port))
    try:
        for seat, name in enumerate(("Ann", "Bob", "Cy")):
            store.save_name(seat, name)
        play({"game": "skull", "players": 3}, 4, port=port, host_only=True, mistakes=0)
        console = Console(width=80, height=24, record=True, file=io.StringIO(), color_system=None)
        watch(port, exit_at_end=True, screen=False, console=console)
        out = console.export_text()
        assert "Ann" in out and "Bob" in out and "Cy" in out and "seat 1" not in out, out
    finally:
        store.close()
        default_path(port).unlink()
