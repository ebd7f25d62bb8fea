"""The hall over a real Mosquitto (tests/hallkit.py): nothing hidden on a topic, a table writes
only its own topics, events survive a broker restart in order, a new hall sees every table at
once from the retained pictures, and a vanished hub shows offline (its last will)."""
from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiomqtt
import pytest

from children import reap
from hallkit import Recorder, cancel, events, publisher, start_broker, states
from host.hall import topics
from host.hall.follower import follow
from host.hall.simtable import SimTable
from host.hall.tables import Tables

pytestmark = pytest.mark.timeout(120)
SKULL = {"game": "skull", "players": 3}


@pytest.fixture(params=["mosquitto", "amqtt"])
def setup(tmp_path: Path, request):
    """Each test on Mosquitto, the hall's broker, and on amqtt, the fallback where it is missing."""
    if request.param == "amqtt" and request.node.get_closest_marker("mosquitto_only"):
        pytest.skip("amqtt keeps no session across its own restart (Mosquitto's persistence does)")
    s = start_broker(tmp_path, request.param)
    try:
        yield s
    finally:
        s.broker.stop()


def public_part(payload: dict[str, Any]) -> dict[str, Any]:
    """A message without what names the table or its hub's run (they differ by design)."""
    return {k: v for k, v in payload.items() if k not in ("table", "run")}


def test_games_that_differ_only_in_hidden_facts_publish_the_same_bytes(setup):
    """Skull: the same seats place discs in the same order, one game all flowers, the other
    with skulls. Every message of one table equals the other's, once the name is set aside."""
    discs = {"A": ["flower", "flower", "flower", "flower"], "B": ["skull", "flower", "skull", "flower"]}
    seats = [0, 1, 2, 0]

    async def play() -> tuple[list[tuple[str, bytes]], dict[str, SimTable]]:
        rec = Recorder()
        listening = asyncio.create_task(rec.run(setup))
        tables = {name: SimTable(SKULL, 1) for name in discs}
        pubs = {name: publisher(setup, name, t) for name, t in tables.items()}
        tasks = [asyncio.create_task(p.run()) for p in pubs.values()]
        try:
            for name in discs:
                await rec.until(lambda got, name=name: len(states(got, name)) == 1, "%s's first picture" % name)
            for step, seat in enumerate(seats):
                for name, t in tables.items():
                    assert t.play({"a": "place", "p": seat, "disc": discs[name][step]})
                    await rec.until(lambda got, name=name, n=step + 1: any(s["n"] == n for s in states(got, name)),
                                    "%s's picture after event %d" % (name, step + 1))
        finally:
            await cancel(*tasks, listening)
        return rec.got, tables

    got, tables = asyncio.run(play())
    assert tables["A"].game.s != tables["B"].game.s   # the hidden facts do differ
    for kind in ("state", "events"):
        a = [public_part(json.loads(p)) for t, p in got if t == topics.topic("A", kind)]
        b = [public_part(json.loads(p)) for t, p in got if t == topics.topic("B", kind)]
        assert a and a == b
    assert len(events(got, "A")) == len(seats)


def test_a_table_writes_only_its_own_topics_and_strangers_nothing(setup):
    async def attempt() -> list[tuple[str, bytes]]:
        rec = Recorder()
        listening = asyncio.create_task(rec.run(setup))
        try:
            async with aiomqtt.Client("127.0.0.1", setup.port, username="A", password=setup.password("A")) as a:
                # retained, as A's own message after it: a recorder subscribing late would get both
                await a.publish(topics.topic("B", "state"), b'{"forged": true}', qos=1, retain=True)
                await a.publish(topics.topic("A", "online"), b"1", qos=1, retain=True)
            await rec.until(lambda got: any(t == topics.topic("A", "online") for t, _ in got), "A's own message")
            for user, password in (("A", "wrong"), (None, None), ("B", setup.password("A"))):
                with pytest.raises(aiomqtt.MqttError):   # Mosquitto refuses at once, amqtt never answers
                    async with aiomqtt.Client("127.0.0.1", setup.port, username=user, password=password,
                                              timeout=3):
                        pass
            return rec.got
        finally:
            await cancel(listening)

    got = asyncio.run(attempt())
    # B's topic never got A's forgery; A's own message may come twice (QoS 1 is at least once, and
    # amqtt may send a retained message both live and as retained to a subscriber just arriving)
    assert {t for t, _ in got} == {topics.topic("A", "online")}


@pytest.mark.mosquitto_only
def test_a_hub_that_loses_the_broker_republishes_its_events_in_order(setup):
    """Five events, the broker stops, ten more while it is away, the broker is back (its
    persistence keeps the hall's session): the hall has 1..15 once each, in order, and the
    picture of the fifteenth."""
    async def scene() -> Tables:
        hall = Tables()
        seen: list[int] = []
        wake = asyncio.Event()

        def update(u: dict[str, Any]) -> None:
            if u["type"] == "event":
                seen.append(u["event"]["n"])
            wake.set()

        async def until(found, what: str) -> None:
            async def wait() -> None:
                # the hall's updates wake this; the publisher's own state (connected, pending)
                # changes without one, so look again every 50 ms as well
                while not found():
                    wake.clear()
                    try:
                        await asyncio.wait_for(wake.wait(), 0.05)
                    except asyncio.TimeoutError:
                        pass
            try:
                await asyncio.wait_for(wait(), 30)
            except asyncio.TimeoutError:
                raise AssertionError("never came: %s (seen %s)" % (what, seen)) from None

        following = asyncio.create_task(follow(setup.address, hall, update, setup.password(topics.HALL_USER),
                                               identifier="tapmat-hall-test"))
        table = SimTable(SKULL, 7)
        pub = publisher(setup, "A", table)
        publishing = asyncio.create_task(pub.run())
        try:
            await until(lambda: hall.tables.get("A") is not None and hall.tables["A"].online, "A online")
            for _ in range(5):
                table.step()
            await until(lambda: seen[-1:] == [5], "the first five events")
            setup.broker.stop()
            for _ in range(10):
                table.step()
            await until(lambda: not pub.connected, "the publisher noticing the broker is gone")
            assert len(pub.pending) == 10
            setup.broker.start()
            await until(lambda: 15 in seen and hall.tables["A"].n == 15, "the buffered events and the picture")
        finally:
            await cancel(publishing, following)
        assert seen == list(range(1, 16)) and hall.lost == 0
        return hall

    asyncio.run(scene())


def test_a_new_hall_has_every_table_from_the_retained_pictures(setup):
    async def scene() -> Tables:
        tables = {name: SimTable(SKULL, i + 1) for i, name in enumerate(["A", "B"])}
        pubs = [publisher(setup, name, t) for name, t in tables.items()]
        tasks = [asyncio.create_task(p.run()) for p in pubs]
        rec = Recorder()
        listening = asyncio.create_task(rec.run(setup))
        try:
            for t in tables.values():
                for _ in range(4):
                    t.step()
            for name in tables:
                await rec.until(lambda got, name=name: any(s["n"] == 4 for s in states(got, name)), name)
            # the tables are quiet now: a hall that starts only now gets everything at once
            hall = Tables()
            got = asyncio.Event()
            late = asyncio.create_task(follow(setup.address, hall, lambda _u: got.set(),
                                              setup.password(topics.HALL_USER), identifier="tapmat-hall-late"))
            try:
                while not all(hall.tables.get(n) and hall.tables[n].n == 4 and hall.tables[n].online for n in tables):
                    got.clear()
                    await asyncio.wait_for(got.wait(), 20)
            finally:
                await cancel(late)
        finally:
            await cancel(listening, *tasks)
        return hall

    hall = asyncio.run(scene())
    assert {t.view["game"] for t in hall.tables.values()} == {"skull"}
    assert all(t.view["seats"] == 3 and t.view["rows"] for t in hall.tables.values())


CRASHING_TABLE = """
import asyncio, sys
from hallkit import Setup, publisher
from host.hall.simtable import SimTable
setup = Setup(__import__("pathlib").Path(sys.argv[1]), int(sys.argv[2]), None)
async def main():
    pub = publisher(setup, "B", SimTable({"game": "skull", "players": 3}, 1))
    task = asyncio.create_task(pub.run())
    while not pub.connected:
        await asyncio.sleep(0.01)
    print("up", flush=True)
    await task
asyncio.run(main())
"""


def test_a_hub_that_vanishes_shows_offline_by_its_last_will(setup, tmp_path):
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-c", CRASHING_TABLE, str(setup.folder), str(setup.port)],
                            cwd=root, env={"PYTHONPATH": "%s:%s/tests" % (root, root)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "up", proc.stderr.read() if proc.stderr else ""

        async def watch() -> list[bytes]:
            rec = Recorder()
            listening = asyncio.create_task(rec.run(setup, topics.topic("B", "online")))
            try:
                await rec.until(lambda got: got[-1:] == [(topics.topic("B", "online"), b"1")], "B online")
                proc.kill()   # no goodbye: the broker publishes the will
                await rec.until(lambda got: got[-1:] == [(topics.topic("B", "online"), b"0")], "B's last will")
            finally:
                await cancel(listening)
            return [p for _, p in rec.got]

        assert asyncio.run(watch())[-2:] == [b"1", b"0"]
    finally:
        reap([proc])


def test_tapmat_serve_publishes_the_board_it_holds(setup):
    """The whole path: a virtual board, ``tapmat serve --mqtt`` holding it (no web page), a
    game started and a disc placed through the hub; Ctrl-C says offline."""
    from host.screen.monitor import Session
    from host.sim.runner import local_board

    root = Path(__file__).resolve().parent.parent
    with local_board() as folder:
        tty = str(folder / "tty")
        serve = subprocess.Popen([sys.executable, "-m", "host.cli", "serve", "--port", tty, "--http", "0",
                                  "--mqtt", "127.0.0.1:%d" % setup.port, "--table", "A",
                                  "--mqtt-secret", str(setup.folder / "secrets" / "A")],
                                 cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert serve.stdout is not None
            lines = [serve.stdout.readline() for _ in range(2)]
            assert "publishing" in lines[-1], lines

            def play() -> None:
                session = Session(tty)
                try:
                    session.connect()
                    session.new_game(SKULL)
                    session.send(session.mirror.action_bytes({"a": "place", "p": 1, "disc": "skull"}))
                    session.wait(lambda: any(e.kind == "accepted" for e in session.mirror.events), 10, "the place")
                finally:
                    session.close()

            async def watch() -> list[tuple[str, bytes]]:
                rec = Recorder()
                listening = asyncio.create_task(rec.run(setup))
                try:
                    await asyncio.get_running_loop().run_in_executor(None, play)
                    await rec.until(lambda got: any("places a disc" in e["text"] for e in events(got, "A")),
                                    "the placed disc")
                    await rec.until(lambda got: any(s["view"]["game"] == "skull" and s["view"]["state"] and s["view"]["state"]["seats"][1]["stack"] == 1
                                                    for s in states(got, "A")), "the picture with the disc")
                    serve.send_signal(signal.SIGINT)   # Ctrl-C
                    await rec.until(lambda got: got[-1] == (topics.topic("A", "online"), b"0"), "A offline")
                finally:
                    await cancel(listening)
                return rec.got

            got = asyncio.run(watch())
            assert not any(b"skull" in p for t, p in got if t.endswith("/events"))   # the disc stays hidden
            assert serve.wait(20) == 0   # Ctrl-C'd above: a second one would interrupt its goodbye
        finally:
            reap([serve])
