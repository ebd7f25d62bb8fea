"""The hub's web page: a table view for a TV and a phone view per seat (aiohttp).

- ``/``: the table view, big type, live over a WebSocket: the same view model as the terminal
  scoreboard (``host.scoreboard.model``) plus the mat drawn with each station's state
  (``host/web/matsvg.py``) and the final standings with the rules' tie-breaks.
- ``/join``: one QR code per seat (segno); each opens ``/seat/N?t=TOKEN``.
- ``/seat/N?t=TOKEN``: the phone view of seat N. The token is drawn at random when the hub
  starts, one per seat, so a phone sees and acts for its own seat only. The hub mirrors the
  public view only, so a phone shows what everybody may see, plus the seat's own controls:
  the Sheriff (or a deputy) enters an accepted bribe or a debt paid in chosen goods, or any
  other action the mat has no sensor for; each goes to the board as a host ACTION frame
  (``Hub.send_action``) and the phone shows the referee's verdict.
- ``/players``: the players' guide (docs/players.md), ``/mat.svg``: the current mat.

The server binds to 127.0.0.1 unless ``lan`` is set (then every interface: phones on the
table's Wi-Fi).
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import secrets
import socket
import threading
from pathlib import Path
from typing import Any, Iterator

import segno
from aiohttp import WSMsgType, web

from host.web import matsvg
from host.hub.hub import Hub
from host.screen.scoreboard import PLAIN, Picture, model, picture_of
from host.web.fanout import Fanout
from host.web.security import MAX_BODY, allowed_hosts, guard, parse_json, same_token, small_int

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent   # the pages beside this module
GUIDE = ROOT / "docs" / "players.md"
MAX_SEATS = 16
PUSH_S = 1.0  # a WebSocket looks for a new picture at least this often (a change wakes it at once)


class Web:
    def __init__(self, hub: Hub, lan: bool = False, port: int = 8765) -> None:
        self.hub = hub
        self.lan = lan
        self.port = port
        self.tokens = [secrets.token_urlsafe(9) for _ in range(MAX_SEATS)]
        self.hosts: frozenset[str] = frozenset()
        self.app = web.Application(client_max_size=MAX_BODY, middlewares=[guard(lambda: self.hosts)])
        self.app.add_routes([
            web.get("/", self.page("tv.html")),
            web.get("/join", self.join),
            web.get("/seat/{seat}", self.seat_page),
            web.get("/qr/{seat}.svg", self.qr),
            web.get("/mat.svg", self.mat),
            web.get("/players", self.guide),
            web.get("/ws", self.socket),
            web.post("/action", self.action),
            web.static("/static", STATIC),
            web.get("/{name}.svg", self.doc_svg),
        ])
        self.runner: web.AppRunner | None = None
        self.fanout = Fanout(lambda: self.hub.version, self.public_view, you)

    # -- addresses -------------------------------------------------------------------------
    def host_name(self) -> str:
        return lan_address() if self.lan else "127.0.0.1"

    def base_url(self) -> str:
        return "http://%s:%d" % (self.host_name(), self.port)

    def seat_url(self, seat: int) -> str:
        return "%s/seat/%d?t=%s" % (self.base_url(), seat, self.tokens[seat])

    def served_names(self) -> list[str]:
        """The host names a request may carry: localhost, and the LAN address with --lan."""
        names = ["127.0.0.1", "localhost"]
        if self.lan:
            names += [self.host_name(), socket.gethostname()]
        return names

    async def start(self) -> None:
        self.fanout.attach(asyncio.get_running_loop())
        self.hub.listeners.append(self.fanout.notify)
        self.runner = web.AppRunner(self.app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "0.0.0.0" if self.lan else "127.0.0.1", self.port)
        await site.start()
        if not self.port:  # 0: any free port (tests)
            self.port = int(self.runner.addresses[0][1])
        self.hosts = allowed_hosts(self.served_names(), self.port)

    async def stop(self) -> None:
        if self.fanout.notify in self.hub.listeners:
            self.hub.listeners.remove(self.fanout.notify)
        if self.runner is not None:
            await self.runner.cleanup()

    # -- what is shown ---------------------------------------------------------------------
    def picture(self) -> Picture:
        hub = self.hub
        with hub.lock:
            m = hub.mirror
            return picture_of(m, port=hub.port, connected=hub.link.conn is not None and m.connected,
                              final=hub.final())

    def public_view(self) -> dict[str, Any]:
        """What everybody may see: built once per change (``Fanout``) for every client."""
        out = model(self.picture(), wide=True)
        out["events"] = out["events"][-12:]
        out["stations"] = matsvg.stations(out)
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        out = self.public_view()
        out["you"] = None if seat is None else you(out, seat)
        return out

    def _seat(self, request: web.Request) -> int:
        try:
            seat = int(request.match_info.get("seat") or request.query.get("seat", ""))
        except ValueError:
            raise web.HTTPNotFound(text="no such seat") from None
        if not 0 <= seat < MAX_SEATS or not same_token(request.query.get("t", ""), self.tokens[seat]):
            raise web.HTTPForbidden(text="this link is not valid for seat %d: scan the seat's QR "
                                         "code on the table view's join page again" % seat)
        return seat

    # -- handlers --------------------------------------------------------------------------
    def page(self, name: str) -> Any:
        async def handler(_request: web.Request) -> web.StreamResponse:
            return web.FileResponse(STATIC / name)
        return handler

    async def seat_page(self, request: web.Request) -> web.StreamResponse:
        self._seat(request)
        return web.FileResponse(STATIC / "seat.html")

    async def join(self, _request: web.Request) -> web.Response:
        seats = self.view()["seats"] or 0
        cards = "".join(
            '<figure><img src="/qr/%d.svg" alt="QR code of seat %d"><figcaption>seat %d</figcaption>'
            '</figure>' % (s, s, s) for s in range(seats))
        body = ('<!doctype html><html><head><meta charset="utf-8"><title>tapmat: join</title>'
                '<link rel="stylesheet" href="/static/style.css"></head><body class="tv">'
                '<h1>Scan your seat</h1><div class="qrs">%s</div>'
                '<p><a href="/">back to the table</a></p></body></html>'
                % (cards or "<p>no game on the board yet</p>"))
        return web.Response(text=body, content_type="text/html")

    async def qr(self, request: web.Request) -> web.Response:
        text = request.match_info["seat"]
        seat = int(text) if text.isascii() and text.isdigit() and len(text) < 3 else -1
        if not 0 <= seat < MAX_SEATS:
            raise web.HTTPNotFound(text="no such seat")
        out = io.BytesIO()
        segno.make(self.seat_url(seat), error="m").save(out, kind="svg", scale=6, border=2)
        return web.Response(body=out.getvalue(), content_type="image/svg+xml")

    async def mat(self, _request: web.Request) -> web.Response:
        v = self.view()
        return web.Response(text=matsvg.svg(v["game"], v["seats"], v["stations"]),
                            content_type="image/svg+xml")

    async def guide(self, _request: web.Request) -> web.Response:
        try:
            text = GUIDE.read_text()
        except OSError:
            raise web.HTTPNotFound(text="docs/players.md is missing") from None
        body = ('<!doctype html><html><head><meta charset="utf-8"><title>tapmat: players\' guide'
                '</title><link rel="stylesheet" href="/static/style.css"></head><body class="guide">'
                '<p><a href="/">back to the table</a></p>%s</body></html>' % markdown_html(text))
        return web.Response(text=body, content_type="text/html")

    async def doc_svg(self, request: web.Request) -> web.StreamResponse:
        """The guide's pictures (docs/*.svg, generated from hardware/ by host/web/matsvg.py)."""
        path = GUIDE.parent / (request.match_info["name"] + ".svg")
        if "/" in request.match_info["name"] or not path.is_file():
            raise web.HTTPNotFound(text="no such picture")
        return web.FileResponse(path)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._seat(request) if "seat" in request.query else None
        ws = web.WebSocketResponse(heartbeat=10)
        await ws.prepare(request)
        last = None
        reader = asyncio.ensure_future(ws.receive())
        try:
            while not ws.closed:
                changed = self.fanout.next_change()
                if self.hub.version != last:
                    last, frame = self.fanout.current(seat)
                    await ws.send_frame(frame, WSMsgType.TEXT)
                waiting: list[asyncio.Future[Any]] = [reader, changed]
                done, _ = await asyncio.wait(waiting, timeout=PUSH_S,
                                             return_when=asyncio.FIRST_COMPLETED)
                if reader in done:
                    msg = reader.result()
                    if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
                        break
                    if msg.type == WSMsgType.BINARY:  # the views send nothing: a stranger's probe
                        await ws.close(code=1003, message=b"this socket takes no binary frames")
                        break
                    reader = asyncio.ensure_future(ws.receive())
        finally:
            reader.cancel()
        return ws

    async def action(self, request: web.Request) -> web.Response:
        try:
            data = parse_json(await request.read())
            seat = small_int(data.get("seat"), "seat", MAX_SEATS)
            action = data.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("a"), str):
                raise ValueError("the page sent no action")
        except ValueError as e:
            return web.json_response({"ok": False, "text": str(e)}, status=400)
        if not same_token(data.get("t"), self.tokens[seat]):
            return web.json_response({"ok": False, "text": "not this seat's link"}, status=403)
        action["p"] = seat  # a phone acts for its own seat only
        loop = asyncio.get_running_loop()
        try:
            ev = await loop.run_in_executor(None, self.hub.send_action, action)
        except (ValueError, TypeError, OverflowError, KeyError) as e:
            return web.json_response({"ok": False, "text": "not an action the game knows: %s" % e},
                                     status=400)
        except (TimeoutError, ConnectionError) as e:
            return web.json_response({"ok": False, "text": str(e)})
        if ev.kind == "accepted":
            return web.json_response({"ok": True, "text": "accepted by the referee"})
        reason = PLAIN.get(ev.reason or "", (ev.reason or "refused").replace("_", " "))
        return web.json_response({"ok": False, "text": "refused: " + reason, "reason": ev.reason})


def lan_address() -> str:
    """This computer's address on the local network (the hall page uses it too)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing interface
        return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        s.close()


@contextlib.contextmanager
def serving(page: Web) -> Iterator[Web]:
    """``page`` served by an event loop in a thread of its own (tests, the bench), stopped and
    the thread joined afterwards whatever happens."""
    loop = asyncio.new_event_loop()
    started = threading.Event()

    def serve() -> None:
        loop.run_until_complete(page.start())
        started.set()
        loop.run_forever()
    thread = threading.Thread(target=serve, name="web", daemon=True)
    thread.start()
    try:
        if not started.wait(10):
            raise TimeoutError("the web page did not start in 10 s")
        yield page
    finally:
        if started.is_set():
            asyncio.run_coroutine_threadsafe(page.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def you(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The phone's own part: its seat, its role, and the decisions it may enter."""
    d = view.get("state") or {}
    seats = d.get("seats") or []
    out: dict[str, Any] = {"seat": seat, "role": "player", "targets": [], "goods": []}
    if seat >= len(seats):
        out["role"] = "no such seat in this game"
        return out
    try:
        from shared_rules import games
        vocab = games.game_class(d.get("game", "")).VOCAB
        out["actions"] = [{"a": name, "fields": [f[0] for f in fields]}
                          for name, fields in zip(vocab.names, vocab.fields)]
    except (ValueError, AttributeError, TypeError, IndexError):
        out["actions"] = []
    if d.get("game") == "sheriff":
        from host.screen.wording import goods
        from shared_rules.sheriff.rules import CODES
        out["goods"] = list(CODES)
        if d.get("sheriff") == seat:
            out["role"] = "Sheriff"
        out["targets"] = [
            {"seat": i, "declared": s["declared"], "declared_text": goods(s["declared"][1], s["declared"][0]),
             "stand": {g: n for g, n in s["stand"].items() if n},
             "gold": s["gold"]}
            for i, s in enumerate(seats) if s["declared"] and not s["resolved"] and i != seat]
    return out


def markdown_html(text: str) -> str:
    """The players' guide as HTML (markdown-it, the parser rich uses), with its pictures served
    from ``/docs/``."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark").enable("table").render(text))
