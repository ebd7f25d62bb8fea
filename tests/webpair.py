"""Pairing a phone with a seat the way the table does it, over HTTP: the phone asks with the
seat's QR claim, the host confirms the phone's code, the phone collects its token."""
from __future__ import annotations

import json
import urllib.request
from typing import Any


def post(page, path: str, body: dict[str, Any], host: bool = False) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if host:
        headers["Cookie"] = "tapmat_host=" + page.pairing.host
    req = urllib.request.Request(page.base_url() + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def pair(page, seat: int) -> str:
    """A new phone for ``seat`` (the seat must have none): its token."""
    asked = post(page, "/pair", {"seat": seat, "c": page.pairing.claims[seat]})
    post(page, "/pair/confirm", {"seat": seat, "code": asked["code"]}, host=True)
    return str(post(page, "/pair/collect", {"seat": seat, "ask": asked["ask"]})["token"])


def token_for(page, seat: int) -> str:
    """The token of the phone paired with ``seat``, pairing one if the seat has none."""
    return page.pairing.tokens[seat] or pair(page, seat)


def seat_url(page, seat: int) -> str:
    return "%s/seat/%d?t=%s" % (page.base_url(), seat, token_for(page, seat))
