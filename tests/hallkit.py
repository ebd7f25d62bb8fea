"""The hall's tests: a Mosquitto of their own on a free loopback port, simulated tables
publishing, and a raw subscriber that records every message (host/hall/)."""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import aiomqtt
import pytest

from host.hall import broker, topics
from host.hall.publisher import Publisher, follow
from host.hall.simtable import SimTable
from host.web.fanout import TV
from host.web.server import Web

TABLES = ["A", "B"]
WAIT_S = 20.0   # a guard against hanging, never a measurement


@dataclass
class Setup:
    folder: Path
    port: int
    broker: broker.Broker

    def password(self, user: str) -> str:
        return broker.read_secret(broker.secret_path(self.folder, user))

    @property
    def address(self) -> tuple[str, int]:
        return ("127.0.0.1", self.port)


def need_mosquitto() -> None:
    if broker.mosquitto() is None:
        pytest.skip("needs the Debian package mosquitto (apt-get install mosquitto; .ci/run installs it "
                    "when it runs as root)")


def start_broker(folder: Path) -> Setup:
    need_mosquitto()
    port = broker.free_port()
    conf = broker.write(folder, TABLES, port, broker.free_port())
    return Setup(folder, port, broker.Broker(conf, port).start())


def publisher(setup: Setup, name: str, table: SimTable) -> Publisher:
    """A publisher for a simulated table, fed as ``tapmat serve --mqtt`` feeds it from its hub."""
    page = Web(table)   # type: ignore[arg-type]  (a SimTable is shaped like a Hub)
    pub = Publisher(name, setup.address, lambda: page.fanout.current(TV), password=setup.password(name))
    follow(table, pub)
    return pub


@dataclass
class Recorder:
    """Every message on the tables' topics, in arrival order: (topic, payload)."""

    got: list[tuple[str, bytes]] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, setup: Setup, pattern: str = topics.ROOT + "/#", user: str = topics.HALL_USER) -> None:
        async with aiomqtt.Client("127.0.0.1", setup.port, username=user,
                                  password=setup.password(user)) as client:
            await client.subscribe(pattern, qos=1)
            async for m in client.messages:
                self.got.append((str(m.topic), bytes(m.payload)))  # type: ignore[arg-type]
                self.wake.set()

    async def until(self, found: Callable[[list[tuple[str, bytes]]], bool], what: str) -> None:
        async def wait() -> None:
            while not found(self.got):
                self.wake.clear()
                await self.wake.wait()
        try:
            await asyncio.wait_for(wait(), WAIT_S)
        except asyncio.TimeoutError:
            raise AssertionError("never came: %s (got %d messages)" % (what, len(self.got))) from None


def states(got: list[tuple[str, bytes]], name: str) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p in got if t == topics.topic(name, "state")]


def events(got: list[tuple[str, bytes]], name: str) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p in got if t == topics.topic(name, "events")]


async def cancel(*tasks: "asyncio.Task[Any]") -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
