"""The hub's guard against the café network: who may talk to the web page, and what it may send.

- Host check (every request): the ``Host`` header must name an address the hub serves
  (127.0.0.1, localhost, and with ``--lan`` this computer's LAN address), so a page on another
  site cannot reach the hub through DNS rebinding (its requests carry the attacker's host name).
- Origin check (every state-changing request and every WebSocket): a browser always sends
  ``Origin`` there; if it is present it must be one of the hub's own origins, so another site's
  page cannot post actions or open the live view with a visitor's browser.
- Bodies are small (``MAX_BODY`` bytes, else 413) and JSON is parsed with a depth limit, so
  deeply nested JSON, numbers like ``1e400`` and non-objects answer 400, never 500.
"""
from __future__ import annotations

import json
import math
import secrets
from typing import Any, Awaitable, Callable

from aiohttp import web

MAX_BODY = 16 * 1024  # an action is a few dozen bytes; anything near this is not a phone's
MAX_DEPTH = 5  # {"action": {"bribe": {"stand": ["silk"]}}}: a string in a list at depth 5
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def allowed_hosts(names: list[str], port: int) -> frozenset[str]:
    """The Host header values the hub answers: each served name with and without the port."""
    out = set()
    for name in names:
        out.add(name.lower())
        out.add(("%s:%d" % (name, port)).lower())
    return frozenset(out)


def guard(hosts: Callable[[], frozenset[str]]) -> Any:
    """An aiohttp middleware refusing foreign Host headers (421) and foreign Origins (403)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        allowed = hosts()
        if (request.host or "").lower() not in allowed:
            raise web.HTTPMisdirectedRequest(text="this hub does not serve the host %r" % request.host)
        origin = request.headers.get("Origin")
        changes = request.method in STATE_CHANGING or request.headers.get("Upgrade", "").lower() == "websocket"
        if changes and origin is not None and not _own_origin(origin, allowed):
            raise web.HTTPForbidden(text="requests from %r may not change this table" % origin)
        return await handler(request)

    return middleware


def _own_origin(origin: str, allowed: frozenset[str]) -> bool:
    scheme, _, rest = origin.partition("://")
    return scheme == "http" and rest.lower() in allowed


def _no_constant(name: str) -> Any:
    raise ValueError("%s is not a number a phone sends" % name)


def _big_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("the number %s is out of range" % text)
    return value


def _depth(value: Any, level: int = 1) -> int:
    """The nesting depth of ``value`` (``ValueError`` past ``MAX_DEPTH``)."""
    if level > MAX_DEPTH:
        raise ValueError("nested deeper than %d levels" % MAX_DEPTH)
    if isinstance(value, dict):
        return max([_depth(v, level + 1) for v in value.values()] + [level])
    if isinstance(value, list):
        return max([_depth(v, level + 1) for v in value] + [level])
    return level


def parse_json(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object (``ValueError`` with a plain reason otherwise): depth
    limited (json's own RecursionError is caught too), no NaN/Infinity/1e400."""
    if len(raw) > MAX_BODY:
        raise ValueError("the request is larger than %d bytes" % MAX_BODY)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_big_float)
    except UnicodeDecodeError:
        raise ValueError("the request is not UTF-8 text") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("the request is not a JSON object")
    _depth(data)
    return data


def small_int(value: Any, what: str, limit: int) -> int:
    """``value`` as an int in 0..limit-1 (``ValueError`` naming ``what`` otherwise): rejects
    floats, booleans, strings and huge numbers before they reach the codec."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise ValueError("%s must be a whole number from 0 to %d" % (what, limit - 1))
    return value


def same_token(given: Any, expected: str) -> bool:
    """Constant-time token comparison that takes any input (``compare_digest`` raises on
    non-ASCII text, which would answer 500)."""
    return isinstance(given, str) and secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
