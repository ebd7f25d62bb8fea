"""Board profiles: one module per board, all offering the same names (docs/virtual-board.md).

Only modules in this package import ``machine``. ``load()`` picks the profile for the
interpreter it runs on: the virtual board on the MicroPython unix port, the Pico otherwise.
"""
import sys


def load():
    """The board profile module for this interpreter (importing it builds the board)."""
    if sys.platform == "linux":
        from firmware.boards import virtual as board
    else:
        from firmware.boards import pico as board
    return board
