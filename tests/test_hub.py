"""The hub owns the port; clients attach; everyone else is told who owns it (host/hub/hub.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.hub import portlock
from host.hub.hub import Claim, Hub, running
from host.hub.hub import open_serial
from host.hub.mirror import REFEREE
from host.screen.monitor import Session
from host.sim.runner import Sim, local_board

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from vboards import running_board  # noqa: E402
from children import stop  # noqa: E402
SHERIFF = {"game": "sheriff", "players": 4}


@pytest.fixture(scope="module")
def board():
    with local_board() as folder:
        yield folder


def tapmat(*args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "host.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_a_second_owner_is_told_who_has_the_port(board):
    port = str(board / "tty")
    with portlock.claim(port, "tapmat sim"):
        with pytest.raises(portlock.PortBusy, match=r"tty is busy: tapmat sim \(pid \d+\)"):
            open_serial(port)
        began = time.monotonic()
        out = tapmat("flash", "--port", port, "--game", "skull", "--players", "3")
        assert out.returncode == 2
        assert "is busy: tapmat sim (pid" in out.stderr
        assert time.monotonic() - began < 10  # at once, not after the REPL's timeout
        out = tapmat("sim", "--game", "skull", "--port", port)
        assert out.returncode == 2 and "is busy: tapmat sim (pid" in out.stderr, out.stderr
    assert not running(port)


def test_clients_share_the_board_through_the_hub(board):
    port = str(board / "tty")
    hub = Hub(port).start()
    try:
        with pytest.raises(portlock.PortBusy, match="busy: tapmat serve"):
            portlock.claim(port)
        watcher = Session(port)
        watcher.connect()
        player = Session(port)
        player.connect()
        sim = Sim(player, SHERIFF, 3, board_dir=board, host_only=True, mistakes=0.1)
        result = sim.run(25)  # the Sheriff summary takes a referee snapshot through the hub
        assert len(result.actions) == 25 and result.checked >= 25
        watcher.wait(lambda: watcher.mirror.in_sync and watcher.mirror.view == player.mirror.view,
                     10, "the watcher to see the player's game")
        hub_view = lambda: hub.mirror.in_sync and hub.mirror.view == player.mirror.view  # noqa: E731
        deadline = time.monotonic() + 10
        while not hub_view():
            assert time.monotonic() < deadline, "the hub's own mirror fell behind"
            time.sleep(0.05)
        assert watcher.mirror.bad_frames == player.mirror.bad_frames == 0
        accepted = [e for e in watcher.events if e.kind == "accepted"]
        assert len(accepted) >= 20  # the watcher saw the game's moves, in words
        # a referee client, then back: the public clients are resynchronised
        player.subscribe(REFEREE)
        player.close()
        watcher.wait(lambda: hub.board_view == 0 and watcher.mirror.in_sync, 10, "the public view back")
        watcher.close()
    finally:
        hub.close()
    assert not running(port)


def test_flash_hand_over_and_back(board):
    port = str(board / "tty")
    hub = Hub(port).start()
    try:
        client = Session(port)
        client.connect()
        claim = Claim(port, "tapmat flash")
        assert "tapmat flash" in portlock.holder(port)
        with pytest.raises(portlock.PortBusy, match="busy: tapmat flash"):
            portlock.claim(port)
        claim.release()
        hellos = client.mirror.hellos
        client.wait(lambda: client.mirror.hellos > hellos and client.mirror.in_sync, 10,
                    "the board back through the hub")
        assert "tapmat serve" in portlock.holder(port)
        client.close()
    finally:
        hub.close()


@pytest.mark.parametrize("command", ["monitor", "serve"])
def test_no_serial_port_is_said_at_once(command):
    out = tapmat(command, "--port", "/dev/null", timeout=20)
    assert out.returncode == 2
    assert "/dev/null is not a serial port" in out.stderr


def test_serve_then_flash_and_sim_on_the_same_port(tmp_path):
    """The README's evening: the hub holds the board; make flash and the sim go through it."""
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        http = s.getsockname()[1]
    with running_board(tmp_path / "b") as b:
        port = str(b.dir / "tty")
        serve = subprocess.Popen([sys.executable, "-m", "host.cli", "serve", "--port", port, "--http", str(http)],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + 20
            while not running(port):
                assert serve.poll() is None and time.monotonic() < deadline, serve.stdout.read()
                time.sleep(0.1)
            out = tapmat("flash", "--port", port, "--game", "skull", "--players", "3", timeout=180)
            assert out.returncode == 0, out.stdout + out.stderr
            assert "tapmat serve" in portlock.holder(port)  # taken back
            out = tapmat("sim", "--game", "skull", "--players", "3", "--port", port, "--host-actions",
                         "--actions", "6", "--json", timeout=120)
            assert out.returncode == 0, out.stderr
            assert json.loads(out.stdout)["sim"]["actions"] == 6
            page = urllib.request.urlopen("http://127.0.0.1:%d/" % http, timeout=10).read().decode()
            assert "tapmat" in page
        finally:
            code = stop(serve)
        assert code == 0, "tapmat serve did not end on Ctrl-C (exit %s)" % code
        assert not running(port)


def test_the_hub_knows_sheriffs_final_standings(board):
    """Sheriff's public view hides the contraband that scores at the end: the hub takes one
    referee snapshot for the standings and goes back to the public view."""
    from host.sim.playout import Playout

    port = str(board / "tty")
    hub = Hub(port).start()
    try:
        watcher = Session(port)
        watcher.connect()
        watcher.new_game(SHERIFF, replace=True)
        game = Playout(SHERIFF, 2)
        while True:
            action = game.step()
            if action is None:
                break
            assert hub.send_action(action).kind == "accepted"
        truth = game.game.summary()
        deadline = time.monotonic() + 10
        while hub.final() is None:
            assert time.monotonic() < deadline, "no final standings on the hub"
            time.sleep(0.05)
        final = hub.final()
        assert (final["scores"], final["winners"]) == (truth["scores"], truth["winners"])
        watcher.wait(lambda: hub.board_view == 0 and hub.mirror.in_sync and watcher.mirror.in_sync, 10,
                     "the public view again")
        assert watcher.mirror.view_kind == 0 and "bag" not in watcher.mirror.state()["seats"][0]
        watcher.close()
    finally:
        hub.close()


def test_a_monitor_is_the_hub_when_there_is_none(board, tmp_path):
    """The issue's evening: a monitor open, then the sim on the same port plays through it."""
    port = str(board / "tty")
    screen = open(tmp_path / "screen.txt", "w")
    monitor = subprocess.Popen([sys.executable, "-m", "host.cli", "monitor", "--port", port, "--no-screen"],
                               cwd=ROOT, stdout=screen, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while not running(port):
            assert monitor.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        assert "tapmat monitor (pid %d)" % monitor.pid in portlock.holder(port)
        out = tapmat("sim", "--game", "skull", "--players", "3", "--port", port, "--host-actions",
                     "--actions", "8", "--json", timeout=120)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["sim"]["actions"] == 8
    finally:
        code = stop(monitor)
        screen.close()
    assert code == 0, "tapmat monitor did not end on Ctrl-C (exit %s)" % code
    assert "seat" in (tmp_path / "screen.txt").read_text()  # it mirrored the sim's game
    assert not running(port)


def test_a_killed_hub_comes_back_with_its_pairings_names_and_events(board, tmp_path):
    """``kill -9`` of ``tapmat serve`` and a new one on the same store: the TV's host link, the
    phone's token, the name it gave and the events played are all still there."""
    import re
    import socket
    import asyncio
    import aiohttp

    from webpair import post

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        http = s.getsockname()[1]
    port = str(board / "tty")
    state = tmp_path / "hub.sqlite"

    def serve() -> tuple[subprocess.Popen, str]:
        proc = subprocess.Popen([sys.executable, "-m", "host.cli", "serve", "--port", port, "--http", str(http),
                                 "--state", str(state)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        deadline = time.monotonic() + 30
        for line in proc.stdout:
            found = re.search(r"/\?host=(\S+)", line)
            if found:
                return proc, found.group(1)
            assert time.monotonic() < deadline, line
        raise AssertionError("tapmat serve printed no TV address (exit %s)" % proc.wait())

    class Page:   # what tests/webpair.py needs of a page, from outside the process
        def __init__(self, host: str) -> None:
            self.pairing = type("Credential", (), {"host": host})()

        def base_url(self) -> str:
            return "http://127.0.0.1:%d" % http

    def view(token: str) -> dict:
        async def first() -> dict:
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect("http://127.0.0.1:%d/ws?seat=0&t=%s" % (http, token)) as ws:
                    return json.loads((await ws.receive(timeout=10)).data)
        return asyncio.run(first())

    first, host = serve()
    try:
        page = Page(host)
        out = tapmat("sim", "--game", "skull", "--players", "3", "--port", port, "--host-actions",
                     "--actions", "5", "--json", timeout=120)
        assert out.returncode == 0, out.stderr
        join = urllib_get(page.base_url() + "/join", host)
        claim = re.search(r"/pair/0\?c=([\w-]+)", join).group(1)
        asked = post(page, "/pair", {"seat": 0, "c": claim})
        post(page, "/pair/confirm", {"seat": 0, "code": asked["code"]}, host=True)
        token = post(page, "/pair/collect", {"seat": 0, "ask": asked["ask"]})["token"]
        assert post(page, "/name", {"seat": 0, "t": token, "name": "Ann"})["ok"]
        before = view(token)
        assert before["names"][0] == "Ann" and len(before["events"]) >= 5
    finally:
        first.kill()
        first.wait()
        first.stdout.close()
    second, host_again = serve()
    try:
        assert host_again == host                      # the TV's link still works
        after = view(token)                            # so does the phone's: it reconnects as it was
        assert after["you"]["name"] == "Ann" and after["names"][0] == "Ann"
        assert [e["text"] for e in after["events"]][-5:] == [e["text"] for e in before["events"]][-5:]
        import urllib.error
        with pytest.raises(urllib.error.HTTPError) as refused:   # the seat is still taken
            post(Page(host), "/pair", {"seat": 0, "c": claim})
        assert refused.value.code == 403
    finally:
        stop(second)
        second.stdout.close()


def urllib_get(url: str, host: str) -> str:
    import urllib.request
    req = urllib.request.Request(url, headers={"Cookie": "tapmat_host=" + host})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read().decode()


def test_an_entry_is_undone_until_a_move_on_the_mat(tmp_path):
    """The hub's newest entry is taken back by UNDO (the board's view and the archived log agree
    without it); a disc put on a pad afterwards ends it, and the board refuses a stale undo with
    its reason."""
    from host.board.image import board_image, install_dir
    from host.hub.corrections import UndoRefused
    from host.vboard.virtual_deck import VirtualDeck
    from shared_rules import games, replay

    header = {"game": "skull", "players": 4}
    install_dir(tmp_path / "vboard", board_image("virtual", game=header))
    with running_board(tmp_path / "vboard") as b:
        b.wait_firmware(0)
        hub = Hub(b.port).start()
        try:
            deadline = time.monotonic() + 10
            while not (hub.mirror.in_sync and hub.mirror.view is not None):
                assert time.monotonic() < deadline, "no snapshot"
                time.sleep(0.05)
            fresh = bytes(hub.mirror.view)
            assert hub.send_action({"a": "place", "p": 0, "disc": "skull"}).kind == "accepted"
            entry = hub.last_entry()
            assert entry is not None and entry.kind == "action" and entry.action["a"] == "place"
            assert hub.undo() is entry and hub.last_entry() is None
            deadline = time.monotonic() + 5
            while bytes(hub.mirror.view or b"") != fresh:   # the SNAPSHOT after UNDONE
                assert time.monotonic() < deadline, "the view did not come back"
                time.sleep(0.05)
            with pytest.raises(UndoRefused, match="nothing_to_undo"):
                hub.undo()
            assert hub.send_action({"a": "place", "p": 0, "disc": "flower"}).kind == "accepted"
            stale = hub.last_entry()
            b.client.place(2, VirtualDeck().disc(1, "flower"))   # seat 1's pad: a move on the mat
            deadline = time.monotonic() + 10
            while hub.last_entry() is not None:
                assert time.monotonic() < deadline, "the mat's move did not end the entry"
                time.sleep(0.05)
            with hub.lock:
                hub.entry = stale   # as a hub that missed the mat's move would hold it
            with pytest.raises(UndoRefused, match="moved_on_mat"):
                hub.undo()
            kept = bytes(hub.mirror.view)
            done = hub.new_game(header, replace=True)
            # the public record: a disc placed face down has no disc in its line (docs/host.md)
            assert done is not None and done.actions == [{"a": "place", "p": 0}, {"a": "place", "p": 1}]
            r = replay.Replay()
            for line in done.log().replace('"p": 0}', '"p": 0, "disc": "flower"}').replace(
                    '"p": 1}', '"p": 1, "disc": "flower"}').encode().splitlines():
                assert replay.feed(r, line) == 0, line
            out = bytearray(games.from_header(header).PUBLIC_SIZE)
            r.game.public(out)
            assert bytes(out) == kept and replay.result(r)["rejected"] == []
        finally:
            hub.close()
