"""The hub: own the board's serial port, mirror its game, and let every view attach.

One process holds the port (any other program that opens it is told "PORT is busy: tapmat
serve (pid N)" at once). ``tapmat monitor``, ``tapmat sim --port`` and ``tapmat tags`` on the
same port attach to the hub over a local socket; ``tapmat flash`` (``make flash``) asks it to
hand the board over and it takes the board back afterwards. The hub also serves a web page:
the table view for a TV, and a phone view per seat, opened by QR code from the join page, where
the Sheriff enters bribes and debts paid in chosen goods (docs/host.md). It listens on
localhost only, unless --lan lets phones on the table's network in. Ctrl-C stops it.

    tapmat serve --port /dev/ttyACM0 --lan
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from pathlib import Path
from typing import Any

from host.board.deck_profile import load
from host.hall import table_side
from host.hub.hub import Hub
from host.hub.portlock import PortBusy
from host.hub.store import Store, default_path
from host import i18n
from host.vboard.readiness import SILENT_S, port_ready, silent_port

NAME = "serve"
HELP = "the hub: own the board's port, serve the web page (TV and phones), let views attach"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", default="build/vboard/tty", metavar="PORT",
                   help="the board's serial port (default: %(default)s, the virtual board's)")
    p.add_argument("--http", type=int, default=8765, metavar="N",
                   help="the web page's TCP port (default: %(default)s; 0: no web page)")
    p.add_argument("--profile", action="append", default=[], type=Path, metavar="FILE",
                   help="a deck profile the board's game may name by digest (repeatable; the sample is always known)")
    p.add_argument("--lang", choices=i18n.LANGS, default=None,
                   help="every page's language (default: each browser's own, from its language setting)")
    p.add_argument("--state", type=Path, default=None, metavar="FILE",
                   help="where the hub keeps pairings, names, events and earlier games across a restart "
                        "(default: hub.sqlite beside the port, or ~/.local/state/tapmat/ for a device)")
    p.add_argument("--lan", action="store_true",
                   help="serve the web page to the local network (phones), not only this computer")
    p.add_argument("--mqtt", metavar="HOST[:PORT]",
                   help="publish the table's public state to the hall's MQTT broker (docs/hall.md)")
    p.add_argument("--table", metavar="NAME", help="this table's name in the hall (with --mqtt)")
    p.add_argument("--mqtt-secret", type=Path, metavar="FILE",
                   help="this table's broker password, written by tapmat hall (with --mqtt)")


async def _serve(hub: Hub, http: int, lan: bool, lang: str | None, profile: dict[str, Any] | None,
                 mqtt: table_side.Options | None = None) -> None:
    from host.web.server import Web

    site = Web(hub, lan=lan, port=http, lang=lang, profile=profile)
    if http:
        await site.start()
        print("table view for the TV (host: new games, names): %s" % site.tv_url(), flush=True)
        print("  watching only: %s/   (the seats' codes are on the TV's join page, for the host)" % site.base_url(),
              flush=True)
        print(exposure(lan, site.base_url()), flush=True)
    publishing = table_side.start(hub, site, mqtt, site.base_url() + "/" if http else "")
    try:
        await asyncio.Event().wait()
    finally:
        if publishing is not None:
            publishing.cancel()
        await site.stop()


def exposure(lan: bool, url: str) -> str:
    """What the web page exposes, said plainly when the hub starts."""
    if not lan:
        return "web page: this computer only (127.0.0.1); phones need --lan"
    return ("web page OPEN TO THE LOCAL NETWORK at %s: anyone on this Wi-Fi can watch the public "
            "table view; a seat acts only from the phone the host paired with it on the TV "
            "(QR code, then a 4-digit code confirmed on the TV). Requests naming another host or "
            "coming from another site's page are refused." % url)


def run(args: argparse.Namespace) -> int:
    try:
        profiles = [load(f) for f in args.profile]
        mqtt = table_side.options(args.mqtt, args.table, args.mqtt_secret)
    except ValueError as e:
        print("tapmat serve: %s" % e, file=sys.stderr)
        return 2
    if not port_ready("tapmat serve", args.port):
        return 2
    try:
        store = Store(args.state or default_path(args.port))
    except (ValueError, OSError) as e:
        print("tapmat serve: %s" % e, file=sys.stderr)
        return 2
    try:
        hub = Hub(args.port, who="tapmat serve", store=store)
    except PortBusy as e:
        print("tapmat serve: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("tapmat serve: %s" % e, file=sys.stderr)
        return 2
    for prof in profiles:
        hub.mirror.know_profile(prof)
    print("tapmat serve: holding %s; views attach with --port %s" % (args.port, args.port), flush=True)
    hub.start()
    silent = threading.Timer(SILENT_S, say_if_silent, (hub, args.port))
    silent.daemon = True
    silent.start()
    try:
        if args.http or mqtt:
            asyncio.run(_serve(hub, args.http, args.lan, args.lang, profiles[0] if profiles else None, mqtt))
        else:
            hub.wait()
    except OSError as e:
        print("tapmat serve: web page on port %d: %s" % (args.http, e.strerror or e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        silent.cancel()
        hub.close()
        store.close()
    return 0


def say_if_silent(hub: Hub, port: str) -> None:
    """A port where no tapmat firmware answers: say so (the hub keeps listening for one)."""
    if hub.mirror.hellos == 0:
        print("tapmat serve: %s; still listening" % silent_port(port), file=sys.stderr, flush=True)
