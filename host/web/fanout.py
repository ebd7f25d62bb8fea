"""One view per change, the same bytes to every client (the hub's WebSocket fan-out).

Each change of the board bumps ``Hub.version``. The first client to look after a change builds
the public view once per language; the TV's frame and each seat's frame (the public view plus
that seat's own controls) are encoded once and the same ``bytes`` go to every client of that audience. A
client that falls behind skips to the newest frame: it never sends an older one after a newer
(coalescing), so a slow phone sees the latest state, never a stale one.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

Audience = tuple[str, int | None]  # (language, None: the table view (TV) / N: seat N's phone)
TV: Audience = ("en", None)         # the table view in English (what the hall shows of a table)


class Fanout:
    """The frames of the current version, built lazily and at most once per audience."""

    def __init__(self, version: Callable[[], int], build: Callable[[str], dict[str, Any]],
                 personal: Callable[[dict[str, Any], int], dict[str, Any]]) -> None:
        self._version = version
        self._build = build
        self._personal = personal
        self._built_for: int | None = None
        self._base: dict[str, dict[str, Any]] = {}   # per language
        self._frames: dict[Audience, bytes] = {}
        self.builds = 0  # how many times the view was built (the tests and the bench read it)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Future[None] | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve clients on ``loop``: ``notify`` (any thread) wakes them there."""
        self._loop = loop

    def notify(self, _version: int = 0) -> None:
        """A change happened (called from the hub's thread): wake every waiting client now
        rather than at its next look."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)
        self._wake = None

    def next_change(self) -> asyncio.Future[None]:
        """A future done at the next ``notify``, shared by every client (take it before looking
        at the version, so a change in between is not missed)."""
        if self._wake is None:
            assert self._loop is not None, "attach() the loop first"
            self._wake = self._loop.create_future()
        return self._wake

    def current(self, audience: Audience) -> tuple[int, bytes]:
        """The newest version and its frame for ``audience`` (built now if nobody has yet).

        The version is read before building: a change that lands during the build makes the
        next call build again, so a frame is never labelled newer than what it shows."""
        version = self._version()
        lang, seat = audience
        if version != self._built_for:
            self._base = {}
            self._frames = {}
            self._built_for = version
        base = self._base.get(lang)
        if base is None:
            base = self._base[lang] = self._build(lang)
            self.builds += 1
        frame = self._frames.get(audience)
        if frame is None:
            view = dict(base)
            view["you"] = None if seat is None else self._personal(base, seat)
            view["version"] = version  # a client (and the bench) can tell newer from older
            frame = self._frames[audience] = json.dumps(view).encode("utf-8")
        return version, frame
