"""Who a web request speaks for: the host (the TV, which starts games and names players) or one
seat's phone. Kept in one place so the seat pairing of issue 23 (``dev/s7-trust``) replaces these
two functions and nothing else.

- The host credential is drawn when the hub starts; ``tapmat serve`` prints the TV's address with
  it (``/?host=TOKEN``). The page trades it for an HttpOnly cookie and forgets the query.
- A seat's token is the one in its QR code (``/seat/N?t=TOKEN``); the phone sends it back.
"""
from __future__ import annotations

import secrets
from typing import Any

from aiohttp import web

from host.web.security import same_token

HOST_COOKIE = "tapmat_host"


class Keys:
    """The host credential and one token per seat, drawn at random when the hub starts."""

    def __init__(self, seats: int) -> None:
        self.host = secrets.token_urlsafe(12)
        self.seats = [secrets.token_urlsafe(9) for _ in range(seats)]


def is_host(request: web.Request, keys: Keys) -> bool:
    """Whether the request carries the host credential (the TV's cookie, or ``host=`` once)."""
    given = request.cookies.get(HOST_COOKIE) or request.query.get("host", "")
    return same_token(given, keys.host)


def seat_for_request(request: web.Request, keys: Keys, seat: int, token: Any = None) -> bool:
    """Whether the request speaks for ``seat`` (its token in ``token`` or the query's ``t``)."""
    given = token if token is not None else request.query.get("t", "")
    return 0 <= seat < len(keys.seats) and same_token(given, keys.seats[seat])
