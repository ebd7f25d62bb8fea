"""The hub's web page against the café network: foreign Host and Origin headers, malformed and
oversized bodies, binary WebSocket frames. Each answers 4xx (or a WebSocket close), never 500,
and the game is unchanged (the virtual board's referee state is compared before and after)."""
from __future__ import annotations

import asyncio
import http.client
import json

import aiohttp
import pytest

from host.cli.serve import exposure
from host.web.security import MAX_BODY, allowed_hosts
from test_web import site  # noqa: F401  (the module fixture: a virtual board, its hub and web page)
from webpair import token_for


def raw(page, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
        ) -> tuple[int, bytes]:
    """One request with exactly these headers (http.client lets Host and Origin be anything)."""
    conn = http.client.HTTPConnection("127.0.0.1", page.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": "127.0.0.1:%d" % page.port, "Content-Length": str(len(body))}
        sent.update(headers or {})
        for k, v in sent.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def post_action(page, body: bytes, **headers: str) -> tuple[int, bytes]:
    return raw(page, "POST", "/action", body, {"Content-Type": "application/json", **headers})


def state(page) -> dict:
    return json.loads(json.dumps(page.view()["state"]))


def test_a_foreign_host_name_is_refused(site):  # noqa: F811
    page, _ = site
    assert raw(page, "GET", "/")[0] == 200
    assert raw(page, "GET", "/", headers={"Host": "localhost:%d" % page.port})[0] == 200
    # DNS rebinding: the attacker's name resolves to the hub, the browser still sends that name
    for host in ("evil.example:%d" % page.port, "evil.example", "127.0.0.1.evil.example:%d" % page.port, ""):
        status, _ = raw(page, "GET", "/", headers={"Host": host})
        assert status == 421, host
    status, _ = raw(page, "GET", "/join", headers={"Host": "evil.example"})
    assert status == 421


def test_a_foreign_origin_may_not_post_or_open_the_socket(site):  # noqa: F811
    page, _ = site
    before = state(page)
    sheriff = before["sheriff"]
    body = json.dumps({"seat": sheriff, "t": token_for(page, sheriff), "action": {"a": "pass", "target": 1}}).encode()
    for origin in ("http://evil.example", "http://127.0.0.1:1", "https://127.0.0.1:%d" % page.port, "null"):
        status, text = post_action(page, body, Origin=origin)
        assert status == 403, (origin, text)
    assert state(page) == before

    async def ws(origin: str) -> int:
        async with aiohttp.ClientSession() as s:
            try:
                async with s.ws_connect("http://127.0.0.1:%d/ws" % page.port, headers={"Origin": origin},
                                        timeout=aiohttp.ClientWSTimeout(ws_close=5)) as sock:
                    await sock.receive(timeout=5)
                    return 101
            except aiohttp.WSServerHandshakeError as e:
                return e.status
    assert asyncio.run(ws("http://evil.example")) == 403
    assert asyncio.run(ws("http://127.0.0.1:%d" % page.port)) == 101


@pytest.mark.parametrize("body, why", [
    (b"[" * 5000 + b"]" * 5000, "deeply nested JSON"),
    (b'{"seat": ' + b"[" * 100000 + b"]" * 100000 + b"}", "nested and oversized"),
    (b'{"seat": 1e400, "t": "x", "action": {"a": "pass"}}', "a number out of range"),
    (b'{"seat": 1.5, "t": "x", "action": {"a": "pass"}}', "a fraction"),
    (b'{"seat": NaN, "t": "x", "action": {"a": "pass"}}', "NaN"),
    (b'{"seat": true, "t": "x", "action": {"a": "pass"}}', "a boolean"),
    (b'{"seat": 1' + b"0" * 5000 + b', "t": "x", "action": {"a": "pass"}}', "a huge integer"),
    (b'{"seat": -1, "t": "x", "action": {"a": "pass"}}', "a negative seat"),
    (b'{"seat": 1, "t": "x", "action": "pass"}', "an action that is not an object"),
    (b'{"seat": 1, "t": "x", "action": {"a": {"b": {"c": 1}}}}', "nested action"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[1, 2]", "not an object"),
    (b"", "empty"),
    (b"{" + b" " * (MAX_BODY + 10) + b"}", "oversized"),
])
def test_malformed_action_bodies_answer_4xx(site, body, why):  # noqa: F811
    page, _ = site
    before = state(page)
    status, text = post_action(page, body)
    assert 400 <= status < 500, (why, status, text[:200])
    assert state(page) == before


def test_a_valid_seat_with_odd_action_values_answers_4xx(site):  # noqa: F811
    page, _ = site
    before = state(page)
    sheriff = before["sheriff"]
    for action in ({"a": "pass", "target": 1e300}, {"a": "pass", "target": "x" * 100},
                   {"a": "pass", "target": 2 ** 80}, {"a": "no-such-move"}, {"a": "pass", "target": [1]}):
        body = json.dumps({"seat": sheriff, "t": token_for(page, sheriff), "action": action}).encode()
        status, text = post_action(page, body)
        assert 400 <= status < 500, (action, status, text[:200])
    for token in ("ü" * 12, "", "\x00"):  # non-ASCII tokens once raised inside compare_digest
        body = json.dumps({"seat": sheriff, "t": token, "action": {"a": "pass", "target": 1}}).encode()
        assert post_action(page, body)[0] == 403
        assert raw(page, "GET", "/seat/%d?t=%s" % (sheriff, "%C3%BC"))[0] == 403
    for path in ("/qr/%C2%B2.svg", "/qr/99999999999999999999.svg", "/seat/%C2%B2", "/seat/1e400"):
        assert 400 <= raw(page, "GET", path)[0] < 500, path
    assert state(page) == before


def test_binary_websocket_frames_close_the_socket(site):  # noqa: F811
    page, _ = site

    async def probe() -> int | None:
        async with aiohttp.ClientSession() as s:
            async with s.ws_connect("http://127.0.0.1:%d/ws" % page.port) as sock:
                first = await sock.receive(timeout=5)
                assert first.type == aiohttp.WSMsgType.TEXT and json.loads(first.data)["state"]
                await sock.send_bytes(b"\x00\xff" * 1000)
                while True:
                    msg = await sock.receive(timeout=5)
                    if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        return sock.close_code
    before = state(page)
    assert asyncio.run(probe()) == 1003
    assert state(page) == before
    assert raw(page, "GET", "/")[0] == 200  # the hub still serves


def test_lan_says_what_it_exposes():
    local = exposure(False, "http://127.0.0.1:8765")
    assert "this computer only" in local
    lan = exposure(True, "http://192.168.1.5:8765")
    assert "LOCAL NETWORK" in lan and "http://192.168.1.5:8765" in lan and "4-digit code confirmed on the TV" in lan
    assert allowed_hosts(["127.0.0.1", "localhost"], 8765) >= {"127.0.0.1:8765", "localhost:8765"}


def test_a_foreign_origin_may_not_undo(site):  # noqa: F811
    """The host's undo is a state-changing request like any other: a page of another site holding
    the TV's cookie is refused, and the entry stays."""
    page, _ = site
    host = {"Content-Type": "application/json", "Cookie": "tapmat_host=" + page.pairing.host}
    assert raw(page, "POST", "/name", json.dumps({"seat": 2, "name": "Zed"}).encode(), host)[0] == 200
    status, _ = raw(page, "POST", "/undo", b"{}", dict(host, Origin="http://evil.example"))
    assert status == 403 and page.view()["names"][2] == "Zed" and page.view()["undo"] is not None
    assert raw(page, "POST", "/undo", b"{}", host)[0] == 200 and page.view()["names"][2] == "seat 2"
