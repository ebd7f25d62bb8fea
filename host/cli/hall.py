"""The hall: one page following every table of a café or a tournament through an MQTT broker.

Each table's laptop runs ``tapmat serve --mqtt HOST --table NAME``; the hall page shows every
table's game, seats, scores and whose turn, live, links to each table's TV view, and sums the
players' placements across tables (docs/hall.md). The page is read-only.

    tapmat hall --broker --tables t1,t2,t3          # a local Mosquitto with the tables' accounts
    tapmat hall --mqtt broker.lan:1883 --http 8766  # a broker that runs already (a service)
    tapmat hall --write-config build/hall --tables t1,t2 --lan   # its files, for the service
"""
from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import sys
from pathlib import Path

from host.hall import broker, topics

NAME = "hall"
HELP = "the hall page: follow every table through an MQTT broker (Mosquitto)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mqtt", default="127.0.0.1:%d" % topics.MQTT_PORT, metavar="HOST[:PORT]",
                   help="the broker (default: %(default)s; with --broker: the port the local one listens on)")
    p.add_argument("--http", type=int, default=8766, metavar="N", help="the hall page's TCP port (default: %(default)s)")
    p.add_argument("--lan", action="store_true",
                   help="serve the page (and, with --broker, the broker) to the local network")
    p.add_argument("--broker", action="store_true", help="start a local Mosquitto with a generated configuration")
    p.add_argument("--tables", default="", metavar="A,B,...", help="the tables' names: one broker account each")
    p.add_argument("--dir", type=Path, default=Path("build/hall"), metavar="FOLDER",
                   help="the broker's configuration, accounts and persistence (default: %(default)s)")
    p.add_argument("--ws-port", type=int, default=9001, metavar="N",
                   help="the broker's WebSockets listener (default: %(default)s)")
    p.add_argument("--write-config", type=Path, metavar="FOLDER",
                   help="only write the broker's files into FOLDER (to run Mosquitto as a service) and exit")
    p.add_argument("--mqtt-secret", type=Path, metavar="FILE",
                   help="the hall account's password (default: FOLDER/secrets/%s when it exists)" % topics.HALL_USER)


def _tables(text: str) -> list[str]:
    return [topics.table_name(t.strip()) for t in text.split(",") if t.strip()]


def _configure(folder: Path, args: argparse.Namespace, port: int) -> Path:
    tables = _tables(args.tables)
    if not tables:
        raise ValueError("name the tables: --tables t1,t2,... (each gets its own broker account)")
    conf = broker.write(folder, tables, port, args.ws_port, "0.0.0.0" if args.lan else "127.0.0.1")
    print("broker files in %s; each table's laptop runs:" % folder.resolve())
    for name in tables:
        print("  tapmat serve --mqtt HOST:%d --table %s --mqtt-secret %s" % (port, name, broker.secret_path(folder.resolve(), name)))
    print("(copy each table's secret file to its laptop; HOST: this computer's address)", flush=True)
    return conf


def _password(args: argparse.Namespace, folder: Path) -> str | None:
    path = args.mqtt_secret or broker.secret_path(folder, topics.HALL_USER)
    if args.mqtt_secret is None and not path.exists():
        return None   # an open broker
    return broker.read_secret(path)


async def _hall(address: tuple[str, int], http: int, lan: bool, password: str | None) -> None:
    from host.hall.follower import follow
    from host.hall.server import HallPage
    from host.hall.tables import Tables

    tables = Tables()
    page = HallPage(tables, port=http, lan=lan)
    await page.start()
    print("hall page: %s/   (read-only; following %s:%d)" % (page.base_url(), *address), flush=True)
    try:
        await follow(address, tables, page.update, password, "tapmat-hall-%s-%d" % (socket.gethostname(), page.port),
                     say=lambda line: print(line, flush=True))
    finally:
        await page.stop()


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    try:
        host, port = topics.address(args.mqtt)
        if args.write_config is not None:
            conf = _configure(args.write_config, args, port)
            print("run it: mosquitto -c %s   (as a service: docs/hall.md)" % conf)
            return 0
        local = broker.Broker(_configure(args.dir, args, port), port) if args.broker else None
        password = _password(args, args.dir)
        if local is not None:
            local.start()
            print("broker: Mosquitto on port %d (MQTT), %d (WebSockets); log %s" % (port, args.ws_port, local.log),
                  flush=True)
    except (ValueError, OSError) as e:
        print("tapmat hall: %s" % e, file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _interrupt)   # a service manager's stop: our broker stops too
    try:
        asyncio.run(_hall((host, port), args.http, args.lan, password))
    except OSError as e:
        print("tapmat hall: hall page on port %d: %s" % (args.http, e.strerror or e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        if local is not None:
            local.stop()
    return 0
