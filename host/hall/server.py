"""The hall page: every table's game, seats, scores and whose turn, live, and the tournament's
standings; read-only (GET only; the WebSocket only sends).

Each update from the tables is encoded once and the same bytes go to every page; a page that
cannot keep up (its queue full) gets one fresh whole picture instead of the backlog.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from host.hall.tables import Tables
from host.web.security import allowed_hosts, guard
from host.web.server import lan_address

STATIC = Path(__file__).resolve().parent / "static"
BACKLOG = 1000   # updates queued for one page before it is sent a whole picture instead


class HallPage:
    def __init__(self, tables: Tables, port: int = 8766, lan: bool = False) -> None:
        self.tables = tables
        self.port = port
        self.lan = lan
        self.hosts: frozenset[str] = frozenset()
        self.pages: set[asyncio.Queue[bytes | None]] = set()
        self.app = web.Application(middlewares=[guard(lambda: self.hosts)])
        self.app.add_routes([
            web.get("/", self.index),
            web.get("/hall.json", self.whole),
            web.get("/ws", self.socket),
        ])
        self.runner: web.AppRunner | None = None

    def base_url(self) -> str:
        return "http://%s:%d" % (lan_address() if self.lan else "127.0.0.1", self.port)

    async def start(self) -> None:
        self.runner = web.AppRunner(self.app, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "0.0.0.0" if self.lan else "127.0.0.1", self.port).start()
        if not self.port:   # 0: any free port (tests, the bench)
            self.port = int(self.runner.addresses[0][1])
        names = ["127.0.0.1", "localhost"] + ([lan_address()] if self.lan else [])
        self.hosts = allowed_hosts(names, self.port)

    async def stop(self) -> None:
        for q in self.pages:
            q.put_nowait(None)
        if self.runner is not None:
            await self.runner.cleanup()

    def update(self, message: dict[str, Any]) -> None:
        """Send one update to every page (on the event loop)."""
        frame = json.dumps(message, separators=(",", ":")).encode()
        for q in self.pages:
            try:
                q.put_nowait(frame)
            except asyncio.QueueFull:
                while not q.empty():
                    q.get_nowait()
                q.put_nowait(self._whole())

    def _whole(self) -> bytes:
        return json.dumps(self.tables.snapshot(), separators=(",", ":")).encode()

    async def index(self, _request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "hall.html")

    async def whole(self, _request: web.Request) -> web.Response:
        return web.Response(body=self._whole(), content_type="application/json")

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=10)
        await ws.prepare(request)
        q: asyncio.Queue[bytes | None] = asyncio.Queue(BACKLOG)
        q.put_nowait(self._whole())
        self.pages.add(q)
        reader = asyncio.ensure_future(ws.receive())
        try:
            while not ws.closed:
                getter = asyncio.ensure_future(q.get())
                done, _ = await asyncio.wait([reader, getter], return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    msg = reader.result()
                    if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
                        break
                    reader = asyncio.ensure_future(ws.receive())   # the page says nothing we act on
                    continue
                frame = getter.result()
                if frame is None:
                    break
                await ws.send_frame(frame, WSMsgType.TEXT)
        finally:
            reader.cancel()
            self.pages.discard(q)
        return ws
