"""Install the tapmat firmware on a board (a Pico, or the virtual board) over its serial port.

Compiles shared_rules/ and firmware/ with mpy-cross for the board's .mpy version, copies only
the files whose SHA-256 differs from the board's, writes the mat layout, the deck registry and
the game, then resets the board. See docs/flashing.md.

    tapmat flash --port /dev/ttyACM0 --game skull --players 4 --deck decks/home.bin
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from host.board.flash import BoardError, Interrupted, PortUnavailable, flash
from host.cli.sim import add_game_arguments, add_header_arguments, add_module_arguments, parse_header
from host.board.image import JOURNAL_FILES, ImageError, compile_modules
from host.vboard.readiness import port_ready
from shared_rules.core import deck as deck_file

NAME = "flash"
HELP = "install the firmware, mat layout, deck registry and game on a board (mpremote)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, metavar="PORT",
                   help="the board's serial port (/dev/ttyACM0; a virtual board's tty)")
    add_game_arguments(p)  # the game the board starts at boot (game.json)
    add_header_arguments(p)
    add_module_arguments(p, profile=False)
    p.add_argument("--deck", type=Path, metavar="FILE",
                   help="deck registry: a deck.bin (tapmat tags) or a JSON list of tag records; "
                        "default: the virtual deck on the virtual board, else the board's own")
    p.add_argument("--profile", type=Path, metavar="FILE",
                   help="deck profile (Merry Men card data, JSON or profile.bin) written as profile.bin")
    p.add_argument("--no-reset", action="store_true", help="leave the board in the REPL")
    p.add_argument("--line-numbers", action="store_true",
                   help="keep line numbers in the board's tracebacks (about 5 KB more heap from .mpy files)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="SECONDS",
                   help="seconds to wait for the board's REPL (default: %(default)s)")


def header_from(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.header is not None and (args.game or args.players is not None):
        raise ImageError("give either --header or --game/--players")
    if args.game is not None and args.players is None:
        raise ImageError("--game needs --players")
    if args.game is None and args.players is not None:
        raise ImageError("--players needs --game")
    try:
        header = parse_header(args, embed_profile=False)
    except ValueError as e:
        raise ImageError(str(e)) from None
    return header


def read_deck(path: Path) -> bytes:
    """Registry bytes from a deck.bin or a JSON list of records (checked either way)."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ImageError(f"deck registry {path}: {e.strerror}") from None
    try:
        if data[:4] == deck_file.MAGIC:
            deck_file.unpack(data)
            return data
        records = json.loads(data)
    except deck_file.DeckError as e:
        raise ImageError(f"deck registry {path}: {e}") from None
    except (ValueError, UnicodeError):
        raise ImageError(f"deck registry {path}: neither a deck.bin (tapmat tags) nor a JSON "
                         f"list of tag records") from None
    try:
        return bytes(deck_file.pack(records))
    except deck_file.DeckError as e:
        raise ImageError(f"deck registry {path}: {e}") from None


def read_profile(path: Path) -> bytes:
    """The binary form of a deck profile file (JSON or profile.bin), checked."""
    from host.board.deck_profile import load
    from shared_rules.sheriff.modules import profile
    try:
        return profile.encode(load(path))
    except ValueError as e:
        raise ImageError(f"deck profile {e}") from None


def run(args: argparse.Namespace) -> int:
    try:
        header = header_from(args)
        deck = read_deck(args.deck) if args.deck else None
        profile = read_profile(args.profile) if args.profile else None
    except ImageError as e:
        print(f"tapmat flash: {e}", file=sys.stderr)
        return 2
    marks = {"write": "+", "remove": "-", "mkdir": "d", "rmdir": "x"}

    def progress(action: str, path: str, size: int) -> None:
        print(f"  {marks[action]} {path}" + (f"  {size} B" if action == "write" else ""), flush=True)

    print(f"tapmat flash: {args.port}", flush=True)
    if not port_ready("tapmat flash", args.port):
        return 2
    try:
        result = flash(args.port, game=header, deck=deck, profile=profile, reset=not args.no_reset,
                       progress=progress, timeout=args.timeout,
                       compile=functools.partial(compile_modules, lines=args.line_numbers))
    except PortUnavailable as e:
        print(f"tapmat flash: {e}", file=sys.stderr)
        return 2
    except Interrupted as e:
        print(f"tapmat flash: {e}", file=sys.stderr)
        return 130
    except (BoardError, ImageError) as e:
        print(f"tapmat flash: {e}", file=sys.stderr)
        return 1
    plan = result.plan
    info = result.info
    print(f"modules: {result.storage}")
    print(f"MicroPython {info.release} on {info.platform} (.mpy v{info.mpy_version}): "
          f"{result.image.target} image, {len(result.image.files)} files, {result.image.size} B")
    print(f"{len(plan.write)} written ({result.written_bytes} B), {len(plan.unchanged)} unchanged, "
          f"{len(plan.remove)} removed"
          + (", new game: the old game's journal removed" if set(plan.remove) & set(JOURNAL_FILES) else "")
          + ("" if args.no_reset else "; board reset") + f" in {result.seconds:.1f} s")
    return 0
