"""A table's hub publishes its public picture to the hall's MQTT broker (``tapmat serve --mqtt``).

Only the TV's frame goes out (``host.web.fanout``: the public view the table's TV shows, built
from the hub's public mirror), so nothing a player hides can reach a topic. Events are numbered
from 1 per hub run and kept until the broker acknowledges them (QoS 1): a hub that loses the
broker buffers them and republishes them in order once it is back, then the latest picture. A
hall drops the duplicates an acknowledgement lost on the way makes, by number.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import secrets
import threading
from typing import Any, Callable, Deque

import aiomqtt

from host.hall import topics

BUFFER = 100_000     # events kept while the broker is away; older ones give way (the state stays whole)
PUBLISH_S = 5.0      # an acknowledgement slower than this counts as a lost broker
KEEPALIVE_S = 5      # how soon a silent broker (or a hub, for its last will) counts as gone
RETRY_S = (0.1, 1.0)  # reconnect backoff: first wait, longest wait (a café broker is back within seconds)

View = Callable[[], tuple[int, bytes]]   # the newest version and its public frame (JSON bytes)


class Publisher:
    """One table's topics on one broker; ``run()`` on the event loop keeps them current."""

    def __init__(self, table: str, broker: tuple[str, int], view: View, url: str = "",
                 password: str | None = None, say: Callable[[str], None] = lambda _line: None,
                 buffer: int = BUFFER) -> None:
        self.table = topics.table_name(table)
        self.broker = broker
        self.view = view
        self.url = url
        self.password = password
        self.say = say
        self.run_id = secrets.token_hex(4)   # a restarted hub numbers from 1 again: the hall tells runs apart
        self.pending: Deque[tuple[int, bytes]] = collections.deque(maxlen=buffer)
        self.numbered = 0
        self.connected = False
        self.refused = ""   # why the broker last could not be reached
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._sent_version: int | None = None

    # -- from the hub's thread ---------------------------------------------------------------
    def event(self, record: dict[str, Any]) -> int:
        """Queue a public event record; its number (any thread)."""
        with self._lock:
            self.numbered += 1
            n = self.numbered
            body = dict(record, n=n, run=self.run_id)
            self.pending.append((n, json.dumps(body, separators=(",", ":")).encode()))
        self.changed()
        return n

    def changed(self, _version: int = 0) -> None:
        """The picture changed (any thread): publish it soon."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):   # the loop closed meanwhile: the hub is stopping
                loop.call_soon_threadsafe(wake.set)

    # -- on the event loop -------------------------------------------------------------------
    async def run(self) -> None:
        """Publish until cancelled, reconnecting with backoff whenever the broker goes away."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        wait = RETRY_S[0]
        host, port = self.broker
        online = topics.topic(self.table, "online")
        while True:
            try:
                async with aiomqtt.Client(host, port, identifier="tapmat-table-" + self.table,
                                          username=self.table if self.password else None,
                                          password=self.password, keepalive=KEEPALIVE_S,
                                          will=aiomqtt.Will(online, b"0", qos=1, retain=True)) as client:
                    await client.publish(online, b"1", qos=1, retain=True, timeout=PUBLISH_S)
                    self.connected, self.refused, wait = True, "", RETRY_S[0]
                    self.say("mqtt: table %s publishing to %s:%d" % (self.table, host, port))
                    self._sent_version = None   # the broker may have lost the retained picture
                    try:
                        await self._publish(client)
                    except asyncio.CancelledError:   # the hub stops: say so now, not by the will
                        with contextlib.suppress(aiomqtt.MqttError):
                            await client.publish(online, b"0", qos=1, retain=True, timeout=1.0)
                        raise
            except aiomqtt.MqttError as e:
                why = str(e)
                if self.connected:
                    self.say("mqtt: lost the broker (%s); buffering events" % why)
                elif why != self.refused:   # once per new reason (wrong password, no broker ...)
                    self.say("mqtt: cannot publish to %s:%d (%s); retrying" % (host, port, why))
                self.connected, self.refused = False, why
                await asyncio.sleep(wait)
                wait = min(RETRY_S[1], wait * 2)

    async def _publish(self, client: aiomqtt.Client) -> None:
        assert self._wake is not None
        events = topics.topic(self.table, "events")
        state = topics.topic(self.table, "state")
        while True:
            self._wake.clear()
            while True:   # oldest first; an event leaves the buffer once the broker has it
                with self._lock:
                    head = self.pending[0] if self.pending else None
                if head is None:
                    break
                await client.publish(events, head[1], qos=1, timeout=PUBLISH_S)
                with self._lock:
                    if self.pending and self.pending[0] is head:
                        self.pending.popleft()
            version, frame = self.view()
            if version != self._sent_version:
                await client.publish(state, self.state_payload(frame), qos=1, retain=True,
                                     timeout=PUBLISH_S)
                self._sent_version = version
            await self._wake.wait()

    def state_payload(self, frame: bytes) -> bytes:
        """The retained picture: the TV's frame as it is, with the table's name, run, last event
        number and TV address (the hall's click-through)."""
        with self._lock:
            n = self.numbered
        head = json.dumps({"table": self.table, "run": self.run_id, "n": n, "url": self.url},
                          separators=(",", ":"))
        return head[:-1].encode() + b',"view":' + frame + b"}"


# -- a hub as the source -----------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _pads(game: str, seats: int) -> dict[int, str]:
    from host.screen.scoreboard import pad_names
    return pad_names(game, seats)


def public_event(mirror: Any, ev: Any) -> dict[str, Any]:
    """An event of the hub's public mirror as the TV lists it: kind and text, nothing more."""
    from host.screen.scoreboard import event_text

    game = mirror.game_cls.NAME if mirror.game_cls is not None else ""
    seats = int((mirror.header or {}).get("players") or 0)
    return {"kind": ev.kind, "text": event_text(ev, _pads(game, seats) if game else {}, game).plain}


def follow(hub: Any, publisher: Publisher) -> Callable[[], None]:
    """Feed ``publisher`` from ``hub`` (a ``Hub``, or the bench's simulated one); returns the
    function that stops it."""
    def on_event(ev: Any) -> None:
        publisher.event(public_event(hub.mirror, ev))
    hub.mirror.listeners.append(on_event)
    hub.listeners.append(publisher.changed)

    def stop() -> None:
        hub.mirror.listeners.remove(on_event)
        hub.listeners.remove(publisher.changed)
    return stop
