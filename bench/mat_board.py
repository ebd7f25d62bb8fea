"""The parts of a mat for the firmware-loop bench (bench/firmware_run.py ``mat``) and the game-switch
test (tests/heap_switch.py), MicroPython-compatible.

16 real MFRC522 drivers and 6 bag switches on a bus that answers zeros (no emulator's heap is
counted: a board has none), LEDs and a buzzer; ``mat_layout.json`` and ``deck.bin`` must be on
the board filesystem (bench/__main__.py ``mat_files``).
"""
from firmware.mfrc522 import Mfrc522


class Quiet:
    """Chip select, SPI bus, bag switch, LEDs, buzzer: present and silent."""

    def value(self, v=None):
        return 0

    def write_readinto(self, tx, rx):
        for i in range(len(rx)):
            rx[i] = 0

    def set(self, i, r, g, b):
        pass

    def show(self):
        pass

    def play(self, pattern):
        pass


def equip(board):
    """Make ``board`` (bench/firmware_run.py) a mat."""
    q = Quiet()
    board.readers = [Mfrc522(q, q) for _ in range(16)]
    board.switches = [q] * 6
    board.leds = q
    board.buzzer = q
