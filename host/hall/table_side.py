"""``tapmat serve --mqtt``: the options checked before the hub starts, and the publisher run
beside the web page on the same event loop (so the TV's frame is built once for both)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.hall import broker, topics
from host.hall.publisher import Publisher, follow
from host.web.fanout import TV


@dataclass(frozen=True)
class Options:
    address: tuple[str, int]
    table: str
    password: str | None


def options(mqtt: str | None, table: str | None, secret: Path | None) -> Options | None:
    """The publishing options (None without ``--mqtt``); ``ValueError`` saying what is wrong."""
    if not mqtt:
        if table or secret:
            raise ValueError("--table and --mqtt-secret go with --mqtt HOST[:PORT]")
        return None
    if not table:
        raise ValueError("--mqtt needs --table NAME: the table's name in the hall")
    return Options(topics.address(mqtt), topics.table_name(table),
                   broker.read_secret(secret) if secret is not None else None)


async def publish(hub: Any, page: Any, opts: Options, url: str) -> None:
    """Publish ``hub``'s public picture (``page``'s TV frame) until cancelled."""
    pub = Publisher(opts.table, opts.address, lambda: page.fanout.current(TV), url=url,
                    password=opts.password, say=lambda line: print(line, flush=True))
    stop = follow(hub, pub)
    try:
        await pub.run()
    finally:
        stop()


def start(hub: Any, page: Any, opts: Options | None, url: str) -> "asyncio.Task[None] | None":
    return asyncio.create_task(publish(hub, page, opts, url)) if opts is not None else None
