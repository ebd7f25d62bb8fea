"""Check a deck profile, or turn it into the binary form the board keeps (``profile.bin``).

A deck profile holds the Merry Men expansion's card data that is not public (Black Market values
now); the owner of a copy fills it in from their cards. Schema: ``docs/rules-merry-men.md``;
``host/profiles/sample.json`` holds placeholder values, never the printed ones.

    tapmat profile check deck.json
    tapmat profile build deck.json -o profile.bin
    tapmat profile push deck.json --port /dev/ttyACM0    # over the link, no reflash
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from host.board.deck_profile import SAMPLE, load  # noqa: F401  (SAMPLE: the shipped placeholders)
from shared_rules.sheriff.modules import profile

NAME = "profile"
HELP = "check a deck profile (Merry Men card data) or build its binary form"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=("check", "build", "push"),
                   help="check: validate; build: write the binary form; push: write it to a board's profile.bin")
    p.add_argument("file", type=Path, metavar="FILE", help="a deck profile (JSON, or a profile.bin to check)")
    p.add_argument("-o", "--output", type=Path, metavar="OUT", help="where build writes (default: FILE with .bin)")
    p.add_argument("--port", metavar="PORT", help="push: the board's serial port (a virtual board's BOARD_DIR/tty)")


def describe(obj: dict[str, Any]) -> str:
    """One line: name, what the profile holds, and a warning for placeholder values."""
    parts = [repr(obj["name"])]
    if "black_market" in obj:
        bm = obj["black_market"]
        parts.append("black market " + ", ".join(f"{g} {bm[g][0]}/{bm[g][1]}" for g in profile.BLACK_MARKET_GOODS))
    for key, what in (("laws", "laws"), ("special_orders", "special orders"), ("merry_men", "Merry Men")):
        if key in obj:   # issue 11: card sections, and the cards the primitives cannot express
            odd = [c["name"] for c in obj[key] if "unsupported" in c]
            parts.append(f"{len(obj[key])} {what}" + (f" ({len(odd)} unsupported: {', '.join(odd)})" if odd else ""))
    if obj["placeholders"]:
        parts.append("PLACEHOLDER values, not the printed cards")
    return "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    try:
        obj = load(args.file)
    except ValueError as e:
        print(f"tapmat profile: {e}", file=sys.stderr)
        return 2
    if args.what == "check":
        print(f"{args.file}: ok: {describe(obj)}")
        return 0
    blob = profile.encode(obj)
    if args.what == "push":
        return push(args.port, blob, describe(obj))
    out = args.output or args.file.with_suffix(".bin")
    try:
        out.write_bytes(blob)
    except OSError as e:
        print(f"tapmat profile: {out}: {e.strerror}", file=sys.stderr)
        return 2
    print(f"{out}: {len(blob)} B: {describe(obj)}")
    return 0


def push(port: str | None, blob: bytes, what: str) -> int:
    """Write the binary form to the board's profile.bin over the link (PROFILE frames)."""
    from host.screen.monitor import BoardRefused, Session, SessionTimeout
    from host.hub.portlock import PortBusy
    from host.vboard.readiness import port_ready
    if not port:
        print("tapmat profile: push needs --port", file=sys.stderr)
        return 2
    if not port_ready("tapmat profile", port):
        return 2
    session = Session(port)
    try:
        session.connect(say=lambda line: print("tapmat profile: " + line, file=sys.stderr, flush=True))
        session.push_profile(blob)
    except (BoardRefused, SessionTimeout, PortBusy, OSError) as e:
        print(f"tapmat profile: {port}: {e}", file=sys.stderr)
        return 2
    finally:
        session.close()
    print(f"{port}: profile.bin: {len(blob)} B: {what}")
    return 0
