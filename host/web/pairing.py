"""Who a web request speaks for: the host (the TV) or one seat's paired phone.

The café network is hostile: whoever can reach the hub must not be able to take a seat. So:

- The **host credential** is drawn once and kept in the hub's store; ``tapmat serve`` prints the
  TV's address with it (``/?host=…``), the TV trades it for an HttpOnly cookie. Only the host
  sees the seats' pairing codes (``/join``), names any seat, starts games, re-pairs a seat.
- A seat's QR code on the join page carries a **claim** (``/pair/N?c=…``), not the seat's
  token. A phone that opens it asks to pair and is shown a **4-digit code**; the TV shows the
  same code beside the seat and the host confirms it there (a photo of the QR taken from across
  the room gives a stranger a code the table can see is not theirs). Only then does the phone get
  the seat's **token**, kept on the phone (``localStorage``) and in the hub's store, so a hub
  restart changes nothing.
- A paired seat cannot be paired again from a phone: the host re-pairs it from the TV, which
  revokes the old token and draws a new claim (the old QR code stops working).
"""
from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from host.hub.store import Store
from host.i18n import N_
from host.web.security import same_token

HOST_COOKIE = "tapmat_host"
ASK_S = 300.0   # an unconfirmed request to pair is forgotten after this long


class PairRefused(ValueError):
    """A request to pair that cannot go on (the message is a msgid with ``{seat}``)."""


@dataclass
class Ask:
    """A phone waiting for the host to confirm its code."""

    ask: str       # the phone's handle on its request
    code: str      # the 4 digits shown on the phone and on the TV
    made: float
    token: str | None = None   # set once the host confirmed: the phone collects it


class Pairing:
    """The host credential, each seat's claim and token, and the requests waiting."""

    def __init__(self, store: Store, seats: int) -> None:
        self.store = store
        self.lock = threading.Lock()
        self.host = str(store.setting("host_credential", lambda: secrets.token_urlsafe(16)))
        saved = store.seats()
        self.claims = [saved[s][0] if s in saved else "" for s in range(seats)]
        self.tokens: list[str | None] = [saved[s][1] if s in saved else None for s in range(seats)]
        for seat, claim in enumerate(self.claims):
            if not claim:
                self._new_claim(seat)
        self.asks: dict[int, Ask] = {}

    def _new_claim(self, seat: int) -> None:
        self.claims[seat] = secrets.token_urlsafe(9)
        self.store.save_pairing(seat, self.claims[seat], self.tokens[seat])

    # -- the phone's side ----------------------------------------------------------------------
    def ask(self, seat: int, claim: Any) -> Ask:
        """A phone opened seat ``seat``'s QR code: a request with its code, for the host."""
        with self.lock:
            if not 0 <= seat < len(self.claims):
                raise PairRefused(N_("there is no seat {seat}"))
            if not same_token(claim, self.claims[seat]):
                raise PairRefused(N_("this code is no longer valid for seat {seat}: scan the code on the TV again"))
            if self.tokens[seat] is not None:
                raise PairRefused(N_("seat {seat} already has a phone; the host can re-pair it from the TV"))
            found = Ask(secrets.token_urlsafe(12), "%04d" % secrets.randbelow(10000), time.monotonic())
            self.asks[seat] = found   # the newest request is the one the TV shows
            return found

    def collect(self, seat: int, ask: Any) -> str | None:
        """The phone's token once the host confirmed its code; None while it waits.
        ``PairRefused`` when the request is gone (rejected, replaced or too old)."""
        with self.lock:
            found = self.asks.get(seat)
            if found is None or not same_token(ask, found.ask) or time.monotonic() - found.made > ASK_S:
                raise PairRefused(N_("the host did not confirm this phone for seat {seat}: scan the code again"))
            if found.token is not None:
                del self.asks[seat]
            return found.token

    # -- the host's side -----------------------------------------------------------------------
    def waiting(self) -> dict[int, str]:
        """seat -> the code of the phone waiting for it."""
        now = time.monotonic()
        with self.lock:
            return {s: a.code for s, a in self.asks.items() if a.token is None and now - a.made <= ASK_S}

    def confirm(self, seat: int, code: Any) -> None:
        with self.lock:
            found = self.asks.get(seat)
            if found is None or found.token is not None or not same_token(code, found.code):
                raise PairRefused(N_("no phone is waiting for seat {seat} with that code"))
            found.token = self.tokens[seat] = secrets.token_urlsafe(16)
            self.store.save_pairing(seat, self.claims[seat], found.token)

    def reject(self, seat: int) -> None:
        with self.lock:
            self.asks.pop(seat, None)

    def unpair(self, seat: int) -> None:
        """Re-pair: the seat's phone loses its token and the old QR code stops working."""
        with self.lock:
            self.asks.pop(seat, None)
            self.tokens[seat] = None
            self._new_claim(seat)

    def held(self, seat: int) -> tuple[str, str | None]:
        """The seat's claim and token now (an undo of the next pairing step puts them back)."""
        with self.lock:
            return self.claims[seat], self.tokens[seat]

    def restore(self, seat: int, claim: str, token: str | None) -> None:
        """Undo a confirm (the phone loses its token again) or a re-pair (the old phone and QR
        code work again): the seat's claim and token as ``held`` gave them."""
        with self.lock:
            self.asks.pop(seat, None)
            self.claims[seat], self.tokens[seat] = claim, token
            self.store.save_pairing(seat, claim, token)

    def paired(self, seat: int) -> bool:
        return 0 <= seat < len(self.tokens) and self.tokens[seat] is not None

    # -- requests ----------------------------------------------------------------------------
    def is_host(self, request: web.Request) -> bool:
        """Whether the request carries the host credential (the TV's cookie, or ``host=`` once)."""
        given = request.cookies.get(HOST_COOKIE) or request.query.get("host", "")
        return same_token(given, self.host)

    def speaks_for(self, request: web.Request, seat: int, token: Any = None) -> bool:
        """Whether the request speaks for ``seat`` (its token in ``token`` or the query's ``t``)."""
        given = token if token is not None else request.query.get("t", "")
        if not 0 <= seat < len(self.tokens):
            return False
        expected = self.tokens[seat]
        return expected is not None and same_token(given, expected)
