"""What the hall makes of the tables' messages (host/hall/tables.py, standings.py), the hall
page (read-only) and the command lines' checks: no broker needed."""
from __future__ import annotations

import asyncio
import json
import shutil
import stat
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hypothesis import given, settings, strategies as st

from host.cli.main import main
from host.hall import topics
from host.hall.server import HallPage
from host.hall.simtable import SimTable
from host.hall.standings import standings
from host.hall.tables import Tables
from host.web.fanout import TV
from host.web.server import Web

pytestmark = pytest.mark.timeout(60)


def state(table: SimTable, n: int = 0, run: str = "r1", url: str = "http://10.0.0.5:8765/") -> bytes:
    frame = Web(table).fanout.current(TV)[1]   # type: ignore[arg-type]
    head = json.dumps({"table": "A", "run": run, "n": n, "url": url})
    return head[:-1].encode() + b',"view":' + frame + b"}"


def event(n: int, run: str = "r1") -> bytes:
    return json.dumps({"n": n, "run": run, "kind": "accepted", "text": "seat %d bids" % n}).encode()


def test_a_table_picture_gives_game_seats_scores_and_whose_turn():
    hall = Tables()
    table = SimTable({"game": "skull", "players": 3}, 2)
    table.step()
    update = hall.apply(topics.topic("A", "state"), state(table, 1))
    assert update is not None and update["type"] == "table"
    t = update["table"]
    assert (t["table"], t["game"], t["seats"], t["url"]) == ("A", "skull", 3, "http://10.0.0.5:8765/")
    assert len(t["rows"]) == 3 and t["columns"] and (t["turn"], t["phase"]) == (table.mirror.state()["turn"], "prep")


@pytest.mark.parametrize("topic,payload", [
    ("tapmat/tables/A/state", b"not json"),
    ("tapmat/tables/A/state", b"[1, 2]"),
    ("tapmat/tables/A/state", b'{"n": 1, "view": {"seats": "many"}}'),
    ("tapmat/tables/A/state", b'{"n": -1, "view": {"seats": 2}}'),
    ("tapmat/tables/A/state", b'{"n": 1, "view": {"seats": 2, "rows": 5}}'),
    ("tapmat/tables/A/state", b'{"n": 1, "view": {"seats": 2, "final": {"rows": [{"rank": "x"}]}}}'),
    ("tapmat/tables/A/state", b"[" * 100000 + b"]" * 100000),
    ("tapmat/tables/A/events", b'{"text": "no number"}'),
    ("tapmat/tables/A/online", b"maybe"),
    ("tapmat/tables/A/other", b"1"),
    ("tapmat/tables/../online", b"1"),
    ("elsewhere", b"1"),
    ("tapmat/tables/A/state", b"\xff\xfe"),
])
def test_a_message_no_hub_sends_is_counted_and_ignored(topic, payload):
    hall = Tables()
    assert hall.apply(topic, payload) is None
    assert hall.bad == 1 and hall.snapshot()["tables"] in ([], [{"table": "A", "online": None, "run": "", "n": 0,
                                                                  "url": "", "events": []}])


def test_repeated_events_are_dropped_and_a_jump_is_counted_lost():
    hall = Tables()
    got = [hall.apply(topics.topic("A", "events"), event(n)) for n in (1, 2, 2, 1, 5)]
    assert [u["event"]["n"] if u else None for u in got] == [1, 2, None, None, 5]
    assert (hall.duplicates, hall.lost) == (2, 2)
    # a restarted hub numbers from 1 again: a new run, not a repeat
    assert hall.apply(topics.topic("A", "events"), event(1, run="r2")) is not None


def test_a_link_that_is_no_web_address_is_not_offered():
    hall = Tables()
    table = SimTable({"game": "skull", "players": 3}, 2)
    for url, shown in (("javascript:alert(1)", ""), ('http://x/"><script>', ""), ("https://t1.lan/", "https://t1.lan/")):
        update = hall.apply(topics.topic("A", "state"), state(table, url=url))
        assert update is not None and update["table"]["url"] == shown


def test_standings_sum_the_placements_of_finished_games_across_tables():
    hall = Tables()
    for name, seed in (("A", 1), ("B", 2)):
        table = SimTable({"game": "skull", "players": 3}, seed)
        while table.step():
            pass
        frame = state(table).replace(b'"table":"A"', b'"table":"%s"' % name.encode())
        hall.apply(topics.topic(name, "state"), frame)
        hall.apply(topics.topic(name, "state"), frame)   # the same game again: counted once
    rows = hall.standings()
    assert len(rows) == 6 and all(r["games"] == 1 for r in rows)
    ranks = {"%s seat %d" % (name, r["seat"]): r["rank"] for name, t in hall.tables.items() for r in t.view["final"]}
    assert {r["player"]: r["total"] for r in rows} == ranks and min(ranks.values()) == 1
    assert {r["player"] for r in rows} == {"%s seat %d" % (t, s) for t in "AB" for s in range(3)}


def test_standings_share_a_rank_on_equal_totals():
    rows = standings([[("ann", 1), ("bob", 2)], [("bob", 1), ("ann", 2)], [("cy", 1)]])
    assert [(r["rank"], r["player"], r["total"]) for r in rows] == [(1, "cy", 1), (2, "ann", 3), (2, "bob", 3)]


def test_the_hall_page_is_read_only_and_live():
    async def scene() -> None:
        hall = Tables()
        page = HallPage(hall, port=0)
        await page.start()
        base = "http://127.0.0.1:%d" % page.port
        try:
            async with aiohttp.ClientSession() as s:
                async with s.get(base + "/") as r:
                    assert r.status == 200 and "The hall" in await r.text()
                for method in ("POST", "PUT", "DELETE"):
                    async with s.request(method, base + "/hall.json") as r:
                        assert r.status == 405
                async with s.get(base + "/hall.json", headers={"Host": "evil.example"}) as r:
                    assert r.status == 421
                async with s.ws_connect(base + "/ws") as ws:
                    first = json.loads((await ws.receive(timeout=10)).data)
                    assert first == {"type": "snapshot", "tables": [], "standings": []}
                    page.update(hall.apply(topics.topic("A", "online"), b"1") or {})
                    second = json.loads((await ws.receive(timeout=10)).data)
                    assert second["table"]["online"] is True
                    await ws.send_str("delete everything")   # ignored: the page only listens
                    page.update(hall.apply(topics.topic("A", "events"), event(1)) or {})
                    assert json.loads((await ws.receive(timeout=10)).data)["event"]["n"] == 1
        finally:
            await page.stop()
    asyncio.run(scene())


def run_cli(*argv: str, capsys: Any) -> tuple[int, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out + out.err


@pytest.mark.parametrize("argv,says", [
    (["hall", "--mqtt", "broker:99999"], "no broker address"),
    (["hall", "--mqtt", ""], "no broker address"),
    (["hall", "--write-config", "X"], "name the tables"),
    (["hall", "--write-config", "X", "--tables", "a/b"], "cannot name a table"),
    (["hall", "--write-config", "X", "--tables", "_hall"], "cannot name a table"),
    (["hall", "--mqtt-secret", "/nonexistent/secret", "--http", "0"], "cannot read the broker password"),
    (["serve", "--mqtt", "localhost"], "needs --table"),
    (["serve", "--table", "A"], "go with --mqtt"),
    (["serve", "--mqtt", "h", "--table", "#"], "cannot name a table"),
    (["serve", "--mqtt", "h:0", "--table", "A"], "no broker address"),
])
def test_bad_options_get_a_clear_error(argv, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, text = run_cli(*argv, capsys=capsys)
    assert rc == 2 and says in text


def test_write_config_makes_accounts_an_acl_and_both_listeners(tmp_path, capsys):
    if shutil.which("mosquitto_passwd") is None and not Path("/usr/bin/mosquitto_passwd").exists():
        pytest.skip("needs the Debian package mosquitto (mosquitto_passwd; .ci/run installs it when it runs as root)")
    folder = tmp_path / "b"
    rc, text = run_cli("hall", "--write-config", str(folder), "--tables", "t1,t2", "--mqtt", "0.0.0.0:1884",
                       capsys=capsys)
    assert rc == 0 and "--table t1 --mqtt-secret" in text
    conf = (folder / "mosquitto.conf").read_text()
    assert "listener 1884 127.0.0.1\nprotocol mqtt" in conf and "protocol websockets" in conf
    assert "allow_anonymous false" in conf
    acl = (folder / "acl").read_text()
    assert "user t1\ntopic write tapmat/tables/t1/#" in acl and "user _hall\ntopic read tapmat/tables/#" in acl
    secret = (folder / "secrets" / "t1").read_text().strip()
    assert secret and secret not in (folder / "passwd").read_text()   # hashed
    assert stat.S_IMODE((folder / "secrets" / "t1").stat().st_mode) == 0o600
    run_cli("hall", "--write-config", str(folder), "--tables", "t1,t2,t3", capsys=capsys)
    assert (folder / "secrets" / "t1").read_text().strip() == secret   # a table keeps its password


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["n", "run", "url", "view", "seats", "rows", "columns", "final",
                                         "state", "turn", "names", "info", "rank", "seat", "text"]), inner, max_size=6),
                    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(topics.KINDS), message=JSON)
def test_no_message_takes_the_hall_down(kind, message):
    hall = Tables()
    hall.apply(topics.topic("A", kind), json.dumps(message).encode())
    json.dumps(hall.snapshot())   # whatever it kept, the page can still be sent


def test_named_players_are_summed_by_name_across_tables():
    """Ann plays at both tables: one line for her in the standings; an unnamed seat stays its
    table's own ("B seat 2"), never one "seat 2" shared by every table."""
    hall = Tables()
    for name, seed, names in (("A", 1, ("Ann", "Bob", "Cy")), ("B", 2, ("Dee", "Ann", ""))):
        table = SimTable({"game": "skull", "players": 3}, seed)
        for seat, who in enumerate(names):
            if who:
                table.table.name(seat, who)
        while table.step():
            pass
        hall.apply(topics.topic(name, "state"), state(table).replace(b'"table":"A"', b'"table":"%s"' % name.encode()))
    players = {r["player"]: r["games"] for r in hall.standings()}
    assert players["Ann"] == 2 and players["Bob"] == 1 and "B seat 2" in players and "seat 2" not in players
