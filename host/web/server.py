"""The hub's web page: a table view for a TV and a phone view per seat (aiohttp).

- ``/``: the table view, big type, live over a WebSocket: the same view model as the terminal
  scoreboard (``host.scoreboard.model``) plus the mat drawn with each station's state
  (``host/web/matsvg.py``) and the final standings with the rules' tie-breaks.
- ``/join`` (host only): each seat's QR code, which phone waits with which code, confirm,
  reject, re-pair (``host/web/pairing.py``); ``/pair/N?c=CLAIM``: a phone asking for seat N.
- ``/seat/N?t=TOKEN``: the phone view of seat N, for the phone the host paired with it. The hub
  mirrors the public view only, so a phone shows what everybody may see, plus the seat's own
  controls: the Sheriff (or a deputy) proposes an accepted bribe or a debt paid in chosen goods,
  which waits for the merchant's consent (``host/hub/proposals.py``; ``POST /answer``), or enters
  any other action the mat has no sensor for; each goes to the board as a host ACTION frame
  (``Hub.send_action``) and the phones show the referee's verdict.
- ``/players``: the players' guide (docs/players.md, or docs/players.vi.md in Vietnamese),
  ``/mat.svg``: the current mat.
- ``/i18n/<lang>.json``: every string of the pages in that language (``host/i18n``); the view
  model comes in the language the page asks for (``/ws?lang=vi``), names included.
- ``POST /newgame`` (host): a new game, or a rematch, on the board without reflashing
  (``Hub.new_game``); the game that ends is archived: ``/games`` lists them, ``/games/N.jsonl``
  is one as an action log. ``POST /name``: a seat's name (the host for any seat, a phone for its
  own).
- ``POST /undo`` (host): take back the newest entry typed here (a move, a name, a pairing) until
  the next move on the mat (``host/hub/corrections.py``); the view model's ``undo`` says what.

The server binds to 127.0.0.1 unless ``lan`` is set (then every interface: phones on the
table's Wi-Fi).
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import html
import socket
import threading
from pathlib import Path
from typing import Any, Iterator

import segno
from aiohttp import WSMsgType, web

from host import i18n
from host.i18n import N_
from host.web import matsvg
from host.hub.corrections import Entry, UndoRefused
from host.hub.hub import GameRefused, Hub
from host.hub.proposals import ProposalRefused, Proposals, needs_consent
from host.hub.table import NameRefused
from host.screen.scoreboard import Picture, model, picture_of
from host.screen.table_words import reason_text
from host.screen.wording import Voice, sentence
from host.web.pairing import HOST_COOKIE, Pairing, PairRefused
from host.web.fanout import Fanout
from host.web.security import MAX_BODY, allowed_hosts, guard, parse_json, small_int
from shared_rules import games
from shared_rules.sheriff.modules import MODULES

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent   # the pages beside this module
GUIDE = ROOT / "docs" / "players.md"
GUIDES = {"en": GUIDE, "vi": ROOT / "docs" / "players.vi.md"}
MAX_SEATS = 16
DECIDED = 4   # answered proposals the views show
PUSH_S = 1.0  # a WebSocket looks for a new picture at least this often (a change wakes it at once)


class Web:
    def __init__(self, hub: Hub, lan: bool = False, port: int = 8765, lang: str | None = None,
                 profile: dict[str, Any] | None = None) -> None:
        self.hub = hub
        self.lan = lan
        self.port = port
        self.lang = lang   # --lang: every page's language; None: each browser's own
        self.profile = profile   # the deck profile a Merry Men card module game takes (--profile)
        self.pairing = Pairing(hub.store, MAX_SEATS)
        self.proposals = Proposals()
        self.decided: list[dict[str, Any]] = []   # the last proposals answered, for both phones and the TV
        self.hosts: frozenset[str] = frozenset()
        self.app = web.Application(client_max_size=MAX_BODY, middlewares=[guard(lambda: self.hosts)])
        self.app.add_routes([
            web.get("/", self.tv_page),
            web.get("/join", self.join),
            web.get("/seat/{seat}", self.seat_page),
            web.get("/qr/{seat}.svg", self.qr),
            web.get("/pair/{seat}", self.pair_page),
            web.post("/pair", self.pair_ask),
            web.post("/pair/collect", self.pair_collect),
            web.post("/pair/{what}", self.pair_host),
            web.post("/answer", self.answer),
            web.get("/mat.svg", self.mat),
            web.get("/players", self.guide),
            web.get("/ws", self.socket),
            web.post("/action", self.action),
            web.post("/newgame", self.newgame),
            web.post("/name", self.name),
            web.post("/undo", self.undo),
            web.get("/games", self.games),
            web.get("/whoami", self.whoami),
            web.get("/games/{number}.jsonl", self.game_log),
            web.get("/i18n/{lang}.json", self.catalogue),
            web.static("/static", STATIC),
            web.get("/{name}.svg", self.doc_svg),
        ])
        self.runner: web.AppRunner | None = None
        self.fanout = Fanout(lambda: self.hub.version, self.public_view, self.seat_part)

    # -- addresses -------------------------------------------------------------------------
    def host_name(self) -> str:
        return lan_address() if self.lan else "127.0.0.1"

    def base_url(self) -> str:
        return "http://%s:%d" % (self.host_name(), self.port)

    def pair_url(self, seat: int) -> str:
        """What seat ``seat``'s QR code on the join page opens."""
        return "%s/pair/%d?c=%s" % (self.base_url(), seat, self.pairing.claims[seat])

    def tv_url(self) -> str:
        """The table view with the host credential (printed by ``tapmat serve`` for the TV)."""
        return "%s/?host=%s" % (self.base_url(), self.pairing.host)

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
    def picture(self, lang: str = i18n.DEFAULT) -> Picture:
        hub = self.hub
        with hub.lock:
            m = hub.mirror
            seats = len((m.state() or {}).get("seats") or [])
            return picture_of(m, port=hub.port, connected=hub.link.conn is not None and m.connected,
                              final=hub.final(), voice=Voice(lang, hub.table.names_for(seats)),
                              since=hub.table.since)

    def public_view(self, lang: str = i18n.DEFAULT) -> dict[str, Any]:
        """What everybody may see, in ``lang``: built once per change and language (``Fanout``)."""
        out = model(self.picture(lang), wide=True)
        out["events"] = out["events"][-12:]
        voice = Voice(lang, tuple(out["names"]))
        out["stations"] = matsvg.stations(out, voice)
        game = out.get("game") or ""
        out["proposals"] = [dict(p.public(), text=voice.tr(
            "waiting for {who} to agree: {what}", who=voice.who(p.payer), what=sentence(game, p.action, voice)))
            for p in self.proposals.listed()]
        out["decided"] = [dict(d, text=voice.tr(d["msgid"], who=voice.who(d["seat"]),
                                                 what=sentence(game, d["action"], voice),
                                                 why=reason_text(voice, d["reason"]) if d["reason"] else ""))
                          for d in self.decided]
        entry = self.hub.last_entry()
        out["undo"] = entry.public(game, voice) if entry is not None else None
        return out

    def view(self, seat: int | None = None, lang: str = i18n.DEFAULT) -> dict[str, Any]:
        out = self.public_view(lang)
        out["you"] = None if seat is None else self.seat_part(out, seat)
        return out

    def seat_part(self, view: dict[str, Any], seat: int) -> dict[str, Any]:
        """A phone's own part: its controls, and what the mat knows of its own bag and hand
        (this seat's frame only: no other phone and no TV ever gets it)."""
        out = you(view, seat)
        own = self.hub.own_side(seat) if view.get("game") == "sheriff" else None
        out["own"] = own_lines(Voice(view.get("lang") or i18n.DEFAULT, tuple(view.get("names") or ())), own)
        return out

    def language(self, request: web.Request) -> str:
        """The page's language: ``?lang=``, else ``--lang``, else the browser's Accept-Language."""
        asked = request.query.get("lang", "")
        if asked in i18n.LANGS:
            return asked
        return self.lang or i18n.choose(request.headers.get("Accept-Language"))

    def _seat(self, request: web.Request) -> int:
        try:
            seat = int(request.match_info.get("seat") or request.query.get("seat", ""))
        except ValueError:
            raise web.HTTPNotFound(text="no such seat") from None
        if not 0 <= seat < MAX_SEATS or not self.pairing.speaks_for(request, seat):
            raise web.HTTPForbidden(text="this link is not valid for seat %d: scan the seat's QR "
                                         "code on the table view's join page again" % seat)
        return seat

    # -- handlers --------------------------------------------------------------------------
    def page(self, name: str) -> Any:
        async def handler(_request: web.Request) -> web.StreamResponse:
            return web.FileResponse(STATIC / name)
        return handler

    async def tv_page(self, request: web.Request) -> web.StreamResponse:
        """The table view; ``?host=TOKEN`` (the address ``tapmat serve`` prints) becomes the
        TV's cookie, and the address bar forgets the token."""
        if "host" in request.query:
            if not self.pairing.is_host(request):
                raise web.HTTPForbidden(text="this host link is not valid: use the address tapmat serve printed")
            found = web.HTTPFound("/")
            found.set_cookie(HOST_COOKIE, self.pairing.host, httponly=True, samesite="Strict")
            raise found
        return web.FileResponse(STATIC / "tv.html")

    async def seat_page(self, request: web.Request) -> web.StreamResponse:
        self._seat(request)
        return web.FileResponse(STATIC / "seat.html")

    def host_only(self, request: web.Request) -> None:
        if not self.pairing.is_host(request):
            raise web.HTTPForbidden(text="only the table view (the host) shows the seats' codes: "
                                         "open the address tapmat serve printed")

    async def join(self, request: web.Request) -> web.Response:
        """The seats' codes, for the TV only: a QR code per free seat, the code of a phone that
        waits (confirm / reject), re-pair for a seat that has a phone. It redraws every 2 s."""
        self.host_only(request)
        lang = self.language(request)
        esc = html.escape
        v = self.view(lang=lang)
        waiting = self.pairing.waiting()

        def form(what: str, seat: int, label: str, code: str = "") -> str:
            extra = '<input type="hidden" name="code" value="%s">' % code if code else ""
            return ('<form method="post" action="/pair/%s"><input type="hidden" name="seat" value="%d">%s'
                    '<button type="submit">%s</button></form>' % (what, seat, extra, label))

        cards = []
        for seat, name in enumerate(v["names"]):
            if seat in waiting:
                code = waiting[seat]
                body = ('<p class="code">%s <b>%s</b></p>%s%s' % (
                    esc(i18n.say(lang, "a phone asks for this seat with the code")), code,
                    form("confirm", seat, esc(i18n.say(lang, "Confirm {code}", code=code)), code), form("reject", seat, esc(i18n.say(lang, "Reject")))))
            elif self.pairing.paired(seat):
                body = '<p>%s</p>%s' % (esc(i18n.say(lang, "paired")), form("unpair", seat, esc(i18n.say(lang, "Re-pair (a new phone)"))))
            else:
                body = ('<img src="/qr/%d.svg" alt="QR %s"><a class="pair-link" href="%s">%s</a>'
                        % (seat, html.escape(name), html.escape(self.pair_url(seat)),
                           esc(i18n.say(lang, "or open this link on the phone"))))
            cards.append('<figure>%s<figcaption>%s</figcaption></figure>' % (body, html.escape(name)))
        page = ('<!doctype html><html lang="%s"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">'
                '<title>tapmat</title><link rel="stylesheet" href="/static/style.css"></head><body class="tv join">'
                '<h1>%s</h1><p>%s</p><div class="qrs">%s</div><p><a href="/">%s</a></p></body></html>'
                % (lang, esc(i18n.say(lang, "Scan your seat's code")),
                   esc(i18n.say(lang, "Your phone then shows four digits: the host confirms them here.")),
                   "".join(cards) or "<p>%s</p>" % esc(i18n.say(lang, "no game on the board yet")), esc(i18n.say(lang, "back to the table"))))
        return web.Response(text=page, content_type="text/html")

    async def qr(self, request: web.Request) -> web.Response:
        self.host_only(request)
        text = request.match_info["seat"]
        seat = int(text) if text.isascii() and text.isdigit() and len(text) < 3 else -1
        if not 0 <= seat < MAX_SEATS:
            raise web.HTTPNotFound(text="no such seat")
        out = io.BytesIO()
        segno.make(self.pair_url(seat), error="m").save(out, kind="svg", scale=6, border=2)
        return web.Response(body=out.getvalue(), content_type="image/svg+xml")

    # -- pairing a phone -------------------------------------------------------------------------
    async def pair_page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "pair.html")

    async def _seat_and(self, request: web.Request, key: str) -> tuple[str, int, Any]:
        """The page's language, the seat and one more field of a JSON or form body (4xx if not)."""
        lang = self.language(request)
        try:
            if request.content_type == "application/x-www-form-urlencoded":
                data: dict[str, Any] = dict(await request.post())
                data["seat"] = int(str(data.get("seat", "")), 10) if str(data.get("seat", "")).isdigit() else None
            else:
                data = parse_json(await request.read())
            seat = small_int(data.get("seat"), "seat", MAX_SEATS)
        except ValueError as e:
            raise web.HTTPBadRequest(text=str(e)) from None
        return lang, seat, data.get(key)

    async def pair_ask(self, request: web.Request) -> web.Response:
        lang, seat, claim = await self._seat_and(request, "c")
        try:
            found = self.pairing.ask(seat, claim)
        except PairRefused as e:
            return pair_refused(lang, e, seat)
        self.hub.changed()
        return web.json_response({"ok": True, "ask": found.ask, "code": found.code, "text": i18n.say(
            lang, "Show this code to the host: they confirm it on the TV.")})

    async def pair_collect(self, request: web.Request) -> web.Response:
        lang, seat, ask = await self._seat_and(request, "ask")
        try:
            token = self.pairing.collect(seat, ask)
        except PairRefused as e:
            return pair_refused(lang, e, seat)
        return web.json_response({"ok": token is not None, "token": token})

    async def pair_host(self, request: web.Request) -> web.StreamResponse:
        """The host on the join page: ``confirm`` a phone's code, ``reject`` it, ``unpair`` a seat."""
        what = request.match_info["what"]
        if what not in ("confirm", "reject", "unpair"):
            raise web.HTTPNotFound(text="no such pairing step")
        self.host_only(request)
        lang, seat, code = await self._seat_and(request, "code")
        claim, token = self.pairing.held(seat)
        try:
            if what == "confirm":
                self.pairing.confirm(seat, code)
            elif what == "reject":
                self.pairing.reject(seat)
            else:
                self.pairing.unpair(seat)
        except PairRefused as e:
            raise web.HTTPConflict(text=i18n.say(lang, str(e), seat=seat)) from None
        if what != "reject":
            self.hub.entered(Entry("paired" if what == "confirm" else "repaired", seat, self.hub.mirror.hellos,
                                   restore=lambda: self.pairing.restore(seat, claim, token)))
        self.hub.changed()
        if request.content_type == "application/x-www-form-urlencoded":
            raise web.HTTPSeeOther("/join")
        return web.json_response({"ok": True})

    async def mat(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        v = self.view(lang=lang)
        return web.Response(text=matsvg.svg(v["game"], v["seats"], v["stations"], Voice(lang, tuple(v["names"]))),
                            content_type="image/svg+xml")

    async def guide(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        try:
            text = GUIDES[lang].read_text()
        except OSError:
            raise web.HTTPNotFound(text="%s is missing" % GUIDES[lang].relative_to(ROOT)) from None
        body = ('<!doctype html><html lang="%s"><head><meta charset="utf-8"><meta name="viewport" '
                'content="width=device-width, initial-scale=1"><title>tapmat: %s</title><link rel="stylesheet" '
                'href="/static/style.css"></head><body class="guide"><p><a href="/">%s</a></p>%s</body></html>'
                % (lang, i18n.say(lang, "Players' guide"), i18n.say(lang, "back to the table"), markdown_html(text)))
        return web.Response(text=body, content_type="text/html")

    async def doc_svg(self, request: web.Request) -> web.StreamResponse:
        """The guide's pictures (docs/*.svg, generated from hardware/ by host/web/matsvg.py)."""
        path = GUIDE.parent / (request.match_info["name"] + ".svg")
        if "/" in request.match_info["name"] or not path.is_file():
            raise web.HTTPNotFound(text="no such picture")
        return web.FileResponse(path)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._seat(request) if "seat" in request.query else None
        audience = (self.language(request), seat)
        ws = web.WebSocketResponse(heartbeat=10)
        await ws.prepare(request)
        last = None
        reader = asyncio.ensure_future(ws.receive())
        if seat is not None:
            self.hub.own_wanted += 1   # the hub asks the board for the seats' own sides meanwhile
        try:
            while not ws.closed:
                changed = self.fanout.next_change()
                if self.hub.version != last:
                    last, frame = self.fanout.current(audience)
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
            if seat is not None:
                self.hub.own_wanted -= 1
        return ws

    async def action(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        try:
            data = parse_json(await request.read())
            seat = small_int(data.get("seat"), "seat", MAX_SEATS)
            action = data.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("a"), str):
                raise ValueError("the page sent no action")
        except ValueError as e:
            return web.json_response({"ok": False, "text": str(e)}, status=400)
        if not self.pairing.speaks_for(request, seat, data.get("t")):
            return web.json_response({"ok": False, "text": i18n.say(lang, "not this seat's link")}, status=403)
        action["p"] = seat  # a phone acts for its own seat only
        if needs_consent(action):
            try:
                made = self.proposals.propose(action)
            except ProposalRefused as e:
                return web.json_response({"ok": False, "text": i18n.say(lang, str(e))}, status=400)
            self.hub.changed()
            names = self.hub.table.names_for(MAX_SEATS)
            return web.json_response({"ok": True, "pending": made.number, "text": i18n.say(
                lang, "proposed: waiting for {who} to agree", who=Voice(lang, names).who(made.payer))})
        return await self.rule(action, lang)

    async def rule(self, action: dict[str, Any], lang: str) -> web.Response:
        """``action`` to the board; the answer is the referee's verdict, in words."""
        ev = await self.send(action)
        return ev if isinstance(ev, web.Response) else self.verdict_of(ev, lang)

    async def send(self, action: dict[str, Any]) -> Any:
        """The board's event for ``action``, or the response that says why there is none."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(None, self.hub.send_action, action)
        except (ValueError, TypeError, OverflowError, KeyError) as e:
            return web.json_response({"ok": False, "text": "not an action the game knows: %s" % e},
                                     status=400)
        except (TimeoutError, ConnectionError) as e:
            return web.json_response({"ok": False, "text": str(e)}, status=503)

    async def answer(self, request: web.Request) -> web.Response:
        """A phone answers a proposal: the merchant who pays agrees (it goes to the referee) or
        either side withdraws. Both phones and the TV then show what was recorded."""
        lang = self.language(request)
        try:
            data = parse_json(await request.read())
            seat = small_int(data.get("seat"), "seat", MAX_SEATS)
            number = small_int(data.get("number"), "number", 1 << 30)
        except ValueError as e:
            return web.json_response({"ok": False, "text": str(e)}, status=400)
        if not self.pairing.speaks_for(request, seat, data.get("t")):
            return web.json_response({"ok": False, "text": i18n.say(lang, "not this seat's link")}, status=403)
        agree = data.get("agree") is True
        try:
            found = self.proposals.answer(number, seat, agree)
        except ProposalRefused as e:
            self.hub.changed()
            return web.json_response({"ok": False, "text": i18n.say(lang, str(e))}, status=409)
        if not agree:
            self.record(found.action, N_("withdrawn by {who}: {what}"), seat)
            return web.json_response({"ok": True, "text": i18n.say(lang, "withdrawn")})
        ev = await self.send(found.action)
        if isinstance(ev, web.Response):
            self.record(found.action, N_("not recorded (the board did not answer): {what}"), seat)
            return ev
        if ev.kind == "accepted":
            self.record(found.action, N_("agreed by {who} and recorded: {what}"), seat)
        else:
            self.record(found.action, N_("refused by the referee ({why}): {what}"), seat, ev.reason or "")
        return self.verdict_of(ev, lang)

    def verdict_of(self, ev: Any, lang: str) -> web.Response:
        if ev.kind == "accepted":
            return web.json_response({"ok": True, "text": i18n.say(lang, "accepted by the referee")})
        reason = reason_text(Voice(lang), ev.reason)
        return web.json_response({"ok": False, "text": i18n.say(lang, "refused: ") + reason, "reason": ev.reason})

    def record(self, action: dict[str, Any], msgid: str, seat: int, reason: str = "") -> None:
        """What became of a proposal, said to both phones and the TV (the last few)."""
        self.decided = (self.decided + [{"msgid": msgid, "seat": seat, "action": action, "reason": reason,
                                         "by": int(action["p"]), "payer": int(action["target"])}])[-DECIDED:]
        self.hub.changed()

    # -- the table: names, new games, the archive ---------------------------------------------
    async def name(self, request: web.Request) -> web.Response:
        """A seat's name: the host names any seat, a phone its own."""
        lang = self.language(request)
        try:
            data = parse_json(await request.read())
            seat = small_int(data.get("seat"), "seat", MAX_SEATS)
        except ValueError as e:
            return web.json_response({"ok": False, "text": str(e)}, status=400)
        if not (self.pairing.is_host(request) or self.pairing.speaks_for(request, seat, data.get("t"))):
            return web.json_response({"ok": False, "text": i18n.say(lang, "not this seat's link")}, status=403)
        was = self.hub.table.names_for(MAX_SEATS)[seat]
        try:
            name = self.hub.table.name(seat, data.get("name"))
        except NameRefused as e:
            return web.json_response({"ok": False, "text": i18n.say(lang, str(e), max=20)}, status=400)
        if name != was:
            self.hub.entered(Entry("name", seat, self.hub.mirror.hellos, was=was, now=name,
                                   restore=lambda: self.hub.table.name(seat, was)))
        self.hub.changed()
        return web.json_response({"ok": True, "name": name})

    async def undo(self, request: web.Request) -> web.Response:
        """The host takes back the newest entry (``Hub.undo``); refused with the reason."""
        lang = self.language(request)
        if not self.pairing.is_host(request):
            return web.json_response({"ok": False, "text": i18n.say(lang, "only the table view (host) undoes an entry")},
                                     status=403)
        game = self.hub.mirror.game_cls.NAME if self.hub.mirror.game_cls is not None else ""
        v = Voice(lang, self.hub.table.names_for(MAX_SEATS))
        try:
            entry = await asyncio.get_running_loop().run_in_executor(None, self.hub.undo)
        except UndoRefused as e:
            self.hub.changed()
            return web.json_response({"ok": False, "reason": str(e), "text": i18n.say(
                lang, "cannot undo: {why}", why=reason_text(v, str(e)))}, status=409)
        except (TimeoutError, ConnectionError) as e:
            return web.json_response({"ok": False, "text": str(e)}, status=503)
        return web.json_response({"ok": True, "text": i18n.say(lang, "undone: {what}", what=entry.words(game, v))})

    async def newgame(self, request: web.Request) -> web.Response:
        """The host starts a game: ``{"game", "players", "modules", "names", "replace"}``, or
        ``{"rematch": true}`` for the same game and players again."""
        lang = self.language(request)
        if not self.pairing.is_host(request):
            return web.json_response({"ok": False, "text": i18n.say(lang, "only the table view (host) starts a game")},
                                     status=403)
        try:
            data = parse_json(await request.read())
            header = self.new_header(data)
            names = data.get("names") or []
            if not isinstance(names, list) or len(names) > MAX_SEATS:
                raise ValueError("names: a list, one per seat")
            for seat, text in enumerate(names):
                if text is not None:
                    self.hub.table.name(seat, text)
        except NameRefused as e:
            return web.json_response({"ok": False, "text": i18n.say(lang, str(e), max=20)}, status=400)
        except ValueError as e:
            return web.json_response({"ok": False, "text": i18n.say(lang, "not a game: {why}", why=e)}, status=400)
        loop = asyncio.get_running_loop()
        try:
            done = await loop.run_in_executor(None, lambda: self.hub.new_game(header, data.get("replace") is True))
        except GameRefused as e:
            if e.in_progress:
                return web.json_response({"ok": False, "confirm": True, "text": i18n.say(
                    lang, "A game is in progress. Start the new game anyway? The current game ends and is archived.")},
                    status=409)
            return web.json_response({"ok": False, "text": i18n.say(lang, "the mat refused the new game: {why}", why=e)},
                                     status=409)
        except (TimeoutError, ConnectionError) as e:
            return web.json_response({"ok": False, "text": str(e)}, status=503)
        self.proposals.forget()   # nothing proposed in the last game still stands
        self.decided = []
        return web.json_response({"ok": True, "archived": done.number if done else None,
                                  "text": i18n.say(lang, "new game started")})

    def new_header(self, data: dict[str, Any]) -> dict[str, Any]:
        """The header a new-game request asks for (``ValueError`` naming what is wrong)."""
        if data.get("rematch") is True:
            played = self.hub.mirror.header
            if not played:
                raise ValueError("no game to play again")
            return dict(played)
        game = data.get("game")
        if game not in games.names():
            raise ValueError("choose a game")
        header: dict[str, Any] = {"game": game, "players": small_int(data.get("players"), "players", MAX_SEATS)}
        modules = data.get("modules") or []
        if not isinstance(modules, list) or any(m not in MODULES for m in modules):
            raise ValueError("modules: some of %s" % ", ".join(MODULES))
        if modules:
            if game != "sheriff":
                raise ValueError("the Merry Men modules are Sheriff's")
            header["modules"] = [m for m in MODULES if m in modules]
            if self.profile is not None:
                from shared_rules.sheriff.modules import profile as deck_profile
                header["profile"] = deck_profile.for_modules(self.profile, header["modules"])
        games.from_header(header)   # ValueError with the rules' reason
        return header

    async def whoami(self, request: web.Request) -> web.Response:
        """Whether this page holds the host credential (the TV shows the host's panels then)."""
        return web.json_response({"host": self.pairing.is_host(request)})

    async def games(self, _request: web.Request) -> web.Response:
        with self.hub.table.lock:
            listed = [a.summary() for a in self.hub.table.archive]
        return web.json_response({"games": listed})

    async def game_log(self, request: web.Request) -> web.Response:
        text = request.match_info["number"]
        number = int(text) if text.isascii() and text.isdigit() and len(text) < 7 else -1
        found = self.hub.table.archived(number)
        if found is None:
            raise web.HTTPNotFound(text="no archived game %s" % text)
        return web.Response(text=found.log(), content_type="application/x-ndjson", headers={
            "Content-Disposition": 'attachment; filename="tapmat-game-%d.jsonl"' % number})

    async def catalogue(self, request: web.Request) -> web.Response:
        lang = request.match_info["lang"]
        if lang not in i18n.LANGS:
            raise web.HTTPNotFound(text="no catalogue for that language")
        return web.json_response(i18n.catalogue(lang))


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


def own_lines(v: Voice, own: dict[str, Any] | None) -> list[str]:
    """A merchant's own side in words: their bag, the hand cards the mat saw them take, their
    Merry Man."""
    if own is None:
        return []
    lines = []
    if own["bag"]:
        lines.append(v.tr("In your bag: {goods}", goods=v.goods(own["bag"])))
    if own["known_hand"]:
        lines.append(v.tr("In your hand, as the mat saw you take them: {goods}",
                          goods=", ".join(v.good(g, n) for g, n in own["known_hand"].items())))
    if own["merry_man"] is not None:
        lines.append(v.tr("Your Merry Man: card {n}", n=own["merry_man"]))
    return lines


def pair_refused(lang: str, why: PairRefused, seat: int) -> web.Response:
    return web.json_response({"ok": False, "text": i18n.say(lang, str(why), seat=seat)}, status=403)


def you(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The phone's own part: its seat, its role, and the decisions it may enter."""
    d = view.get("state") or {}
    seats = d.get("seats") or []
    names = view.get("names") or []
    v = Voice(view.get("lang") or i18n.DEFAULT, tuple(names))
    out: dict[str, Any] = {"seat": seat, "name": v.who(seat), "role": v.tr("player"), "decides": False,
                           "targets": [], "goods": {}}
    if seat >= len(seats):
        out["role"] = v.tr("no such seat in this game")
        return out
    try:
        vocab = games.game_class(d.get("game", "")).VOCAB
        out["actions"] = [{"a": name, "fields": [f[0] for f in fields]}
                          for name, fields in zip(vocab.names, vocab.fields)]
    except (ValueError, AttributeError, TypeError, IndexError):
        out["actions"] = []
    if d.get("game") == "sheriff":
        from shared_rules.sheriff.rules import CODES
        out["goods"] = {code: v.good_name(code) for code in CODES}
        if d.get("sheriff") == seat or seat in d.get("deputies", ()):
            out["role"] = v.tr("Sheriff") if d.get("sheriff") == seat else v.tr("Deputy")
            out["decides"] = True
        out["targets"] = [
            {"seat": i, "name": v.who(i), "declared": v.good(s["declared"][0], s["declared"][1]),
             "stand": {g: n for g, n in s["stand"].items() if n},
             "gold": s["gold"]}
            for i, s in enumerate(seats) if s["declared"] and not s["resolved"] and i != seat]
    # proposals this seat answers (it pays) or may withdraw (it made them), and what became of them
    out["to_answer"] = [p for p in view.get("proposals", ()) if p["payer"] == seat]
    out["made"] = [p for p in view.get("proposals", ()) if p["by"] == seat]
    out["decided"] = [d for d in view.get("decided", ()) if seat in (d["by"], d["payer"])][-1:]
    return out


def markdown_html(text: str) -> str:
    """The players' guide as HTML (markdown-it, the parser rich uses), with its pictures served
    from ``/docs/``."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark").enable("table").render(text))
