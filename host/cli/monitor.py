"""The live scoreboard of a board: its game mirrored over the serial port, full screen.

Shows the game, round and phase, whose turn it is and what the mat waits for; per seat the
score and the public details of the game (Skull mats and discs in hand, Dead Man's Draw banks
with the top card of each suit, Sheriff gold, stands, contraband counts and who is Sheriff); the
last events, refusals with their reason; the link. Public information only, unless --referee
asks the board for the referee view (hidden discs, bags and hands: for debugging). When the game
is over it shows the final standings and the winners. The link survives an unplugged board or a
rebooted virtual board: it reconnects and resynchronises. Ctrl-C quits; the last picture stays.

The monitor attaches to the hub that owns the port (``tapmat serve``) or becomes the hub
itself: ``tapmat sim --port``, ``tapmat tags`` and ``tapmat flash`` on the same port then work
through it (flash takes the board over and hands it back).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host.board.deck_profile import load
from host.screen.monitor import watch
from host import i18n

NAME = "monitor"
HELP = "live scoreboard of the game on a board (mirrored over its serial port)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", default="build/vboard/tty", metavar="PORT",
                   help="the board's serial port, e.g. /dev/ttyACM0, or a virtual board's "
                        "BOARD_DIR/tty (default: %(default)s)")
    p.add_argument("--lang", choices=i18n.LANGS, default=None,
                   help="the scoreboard's language (default: from LANG, else English)")
    p.add_argument("--referee", action="store_true",
                   help="mirror the referee view: hidden information too (debugging only)")
    p.add_argument("--exit-at-end", action="store_true",
                   help="quit once the game is over, printing the final standings")
    p.add_argument("--no-screen", action="store_true",
                   help="draw in the terminal's normal buffer instead of the full screen")
    p.add_argument("--profile", action="append", default=[], type=Path, metavar="FILE",
                   help="a deck profile the board's game may name by digest (repeatable; the sample is always known)")


def run(args: argparse.Namespace) -> int:
    try:
        profiles = [load(f) for f in args.profile]
    except ValueError as e:
        print("tapmat monitor: %s" % e, file=sys.stderr)
        return 2
    try:
        watch(args.port, referee=args.referee, exit_at_end=args.exit_at_end, screen=not args.no_screen,
              profiles=profiles, lang=args.lang or i18n.from_environment())
    except OSError as e:  # the port is busy, or is no serial port
        print("tapmat monitor: %s" % e, file=sys.stderr)
        return 2
    return 0
