"""Hand a running board's console over, so that Ctrl-C (mpremote, a terminal) reaches its REPL.

While it referees, the firmware takes 0x03 as a plain byte: line noise or another program must
not stop a game. This asks it to let Ctrl-C stop it for the next 30 s (`tapmat flash` does the
same before it connects). See docs/flashing.md.

    tapmat console --port /dev/ttyACM0 && mpremote connect /dev/ttyACM0 repl
"""
from __future__ import annotations

import argparse
import sys

import serial

from host.board.flash import hand_console_over

NAME = "console"
HELP = "let Ctrl-C stop the firmware for 30 s (before mpremote by hand)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, metavar="PORT", help="the board's serial port (/dev/ttyACM0)")


def run(args: argparse.Namespace) -> int:
    try:
        with serial.Serial(args.port, timeout=0.1, exclusive=True) as port:
            answered = hand_console_over(port)
    except serial.SerialException as e:
        print(f"tapmat console: {args.port}: cannot open it ({e}); is another program using it?",
              file=sys.stderr)
        return 2
    if answered:
        print(f"{args.port}: the firmware stops on Ctrl-C for the next 30 s "
              f"(mpremote connect {args.port} repl)")
        return 0
    print(f"{args.port}: no tapmat firmware answered; if the board is at its REPL, Ctrl-C works already",
          file=sys.stderr)
    return 1
