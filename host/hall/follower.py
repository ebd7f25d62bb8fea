"""The hall's subscription: every table's topics into ``Tables``, through any broker outage.

The hall keeps one persistent session (a fixed client id, QoS 1): while it is away, or while the
broker restarts with its persistence file, the broker keeps the tables' events for it, and the
retained pictures give a fresh hall every table at once.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable

import aiomqtt

from host.hall import topics
from host.hall.publisher import KEEPALIVE_S, RETRY_S
from host.hall.tables import Tables


async def follow(broker: tuple[str, int], tables: Tables, on_update: Callable[[dict[str, Any]], None],
                 password: str | None = None, identifier: str = "tapmat-hall",
                 say: Callable[[str], None] = lambda _line: None) -> None:
    """Apply every message to ``tables`` and hand the page's update to ``on_update``, until
    cancelled; reconnects with backoff."""
    host, port = broker
    wait = RETRY_S[0]
    up, refused = False, ""
    while True:
        try:
            async with aiomqtt.Client(host, port, identifier=identifier, clean_session=False,
                                      username=topics.HALL_USER if password else None,
                                      password=password, keepalive=KEEPALIVE_S) as client:
                await client.subscribe(topics.ROOT + "/+/+", qos=1)
                up, wait = True, RETRY_S[0]
                say("hall: following the tables on %s:%d" % (host, port))
                async for message in client.messages:
                    update = tables.apply(str(message.topic), message.payload)
                    if update is not None:
                        on_update(update)
        except aiomqtt.MqttError as e:
            if up:
                say("hall: lost the broker (%s); reconnecting" % e)
            elif str(e) != refused:   # once per new reason (wrong password, no broker ...)
                say("hall: cannot follow %s:%d (%s); retrying" % (host, port, e))
            up, refused = False, str(e)
            await asyncio.sleep(wait)
            wait = min(RETRY_S[1], wait * 2)
