"""A demonstration: simulated players play a game on a virtual board, with the live scoreboard.

Starts a virtual board (the firmware on the MicroPython unix port, in a temporary folder), lets
seeded simulated players play one game on it, physically where the mat has gestures (tags put
on and lifted off its readers, tokens tapped), and draws the scoreboard as the mirror sees it,
at a pace a person can follow. Exits with the final standings. ``make demo`` runs it.
"""
from __future__ import annotations

import argparse
import random
import sys

from rich.console import Console

from host.cli.sim import add_game_arguments, add_header_arguments, add_module_arguments, header_of
from host.sim.demo import run_demo, say_result
from host.screen.monitor import SessionTimeout
from host.sim.runner import SimError

NAME = "demo"
HELP = "a simulated game on a virtual board with the live scoreboard (make demo)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_game_arguments(p, default="skull")
    add_header_arguments(p)
    add_module_arguments(p)
    p.add_argument("--seed", type=int, metavar="N", help="random seed (default: a new one, shown on screen)")
    p.add_argument("--speed", type=float, default=1.0, metavar="X",
                   help="playing speed: 1 is about an action a second, 4 four times faster "
                        "(default: %(default)s)")
    p.add_argument("--mistakes", type=float, default=0.08, metavar="RATE",
                   help="chance of a deliberate mistake before each action (default: %(default)s)")
    p.add_argument("--no-screen", action="store_true",
                   help="draw in the terminal's normal buffer instead of the full screen")


def run(args: argparse.Namespace) -> int:
    try:
        header = header_of(args)
    except ValueError as e:
        print("tapmat demo: bad game: %s" % e, file=sys.stderr)
        return 2
    if args.speed <= 0 or not 0 <= args.mistakes <= 1:
        print("tapmat demo: --speed must be > 0 and --mistakes 0..1", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1, 100000)
    console = Console()
    try:
        result = run_demo(header, seed, args.speed, console, screen=not args.no_screen,
                          mistakes=args.mistakes)
    except (SimError, SessionTimeout, OSError) as e:
        print("tapmat demo: %s" % e, file=sys.stderr)
        return 1
    if result is None:
        return 130
    say_result(console, result)
    return 0
