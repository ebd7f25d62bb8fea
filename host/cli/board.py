"""Run the virtual board: the firmware on the MicroPython unix port behind a serial port.

Prints the serial port (a pseudo-terminal, also linked as BOARD_DIR/tty) for mpremote and the
other tools, and serves the control socket BOARD_DIR/ctl.sock (tags, bag clasps, power cuts,
LEDs, buzzer). BOARD_DIR/fs is the board's filesystem; put main.py there (mpremote fs cp, or
make flash). Ctrl-C stops the board. See docs/virtual-board.md.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from host.board.image import FS_DIR
from host.vboard.process import DEFAULT_HEAP, ROM_FILE, VirtualBoard, board_romfs, rom_is_current
from host.vboard.readiness import getting_ready
from host.vboard.world import LIMITS, BoardConfig, WorldError, check_count

NAME = "board"
HELP = "run the virtual board (firmware on the MicroPython unix port, serial port on a pty)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", default="build/vboard", type=Path, metavar="BOARD_DIR",
                   help="the board's folder: fs/ (its filesystem), tty, ctl.sock "
                        "(default: %(default)s)")
    for key in ("readers", "switches", "leds"):
        p.add_argument("--" + key, type=int, metavar="N",
                       help=f"number of {key} (0..{LIMITS[key]}), saved in {FS_DIR}/board.json")
    p.add_argument("--heap", default=DEFAULT_HEAP,
                   help="MicroPython heap size, as micropython -X heapsize (default: %(default)s)")
    p.add_argument("--no-rom", action="store_true",
                   help="no ROM partition: run from .mpy files on fs/ (tapmat flash) or the "
                        "repository, as a stock board; default: the modules in a ROMFS image")
    p.add_argument("--micropython", metavar="PATH",
                   help="the unix-port interpreter (default: the one next to this Python)")


def run(args: argparse.Namespace) -> int:
    board_dir: Path = args.dir
    if args.micropython and not (os.path.isfile(args.micropython) and os.access(args.micropython, os.X_OK)):
        print(f"tapmat board: --micropython {args.micropython}: no such program", file=sys.stderr)
        return 2
    try:
        with getting_ready(board_dir) as doing:  # make flash, serve: "waiting for the virtual board"
            values = BoardConfig.load(board_dir / FS_DIR).as_dict()
            overrides = {k: getattr(args, k) for k in values if getattr(args, k) is not None}
            values.update({k: check_count(k, v) for k, v in overrides.items()})
            config = BoardConfig(**values) if overrides else None
            board = VirtualBoard(board_dir, config, micropython=args.micropython, heap=args.heap,
                                 rom=not args.no_rom)

            def building() -> None:
                doing("building its ROM image")
                board.log("getting ready: building the ROM image of today's sources (once after a "
                          "change of them: seconds, a minute on a busy machine)")

            if board.rom:
                board_romfs(building)
            board.start()
        if board.rom_file and not rom_is_current(board_dir):
            print(f"tapmat board: note: {board_dir / ROM_FILE} holds modules other than today's sources "
                  f"(a board keeps what was flashed); make flash PORT={board_dir / 'tty'} installs "
                  "the current ones", file=sys.stderr)
    except (WorldError, OSError, RuntimeError) as e:
        print(f"tapmat board: {e}", file=sys.stderr)
        return 2
    board.handle_signals()
    board.serve()
    return 0
