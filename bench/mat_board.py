"""The parts of a mat for the firmware-loop bench (bench/firmware_run.py ``mat``) and the game-switch
test (tests/heap_switch.py), MicroPython-compatible.

16 real MFRC522 drivers and 6 bag switches, LEDs and a buzzer. With ``placed`` (the bench) the
drivers talk to register-level emulated readers (``firmware/emu``) holding real NTAG tags, so the
firmware reads, debounces and looks up tags as on a played mat; the emulator's own heap is
measured here (a board has none) and the bench subtracts it. Without, the bus answers zeros (no
tag anywhere). ``mat_layout.json`` and ``deck.bin`` must be on the board filesystem
(bench/__main__.py ``mat_files``).
"""
import gc

from firmware.mfrc522 import Mfrc522

READERS = 16
SWITCHES = 6


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


def equip(board, placed=None):
    """Make ``board`` (bench/firmware_run.py) a mat. ``placed``: a file of ``reader uid-hex`` lines,
    the tags lying on the emulated readers. Returns the heap the emulator holds (0 without)."""
    q = Quiet()
    board.switches = [q] * SWITCHES
    board.leds = q
    board.buzzer = q
    if placed is None:
        board.readers = [Mfrc522(q, q) for _ in range(READERS)]
        return 0
    gc.collect()
    before = gc.mem_alloc()   # the emulator's modules count as its heap too
    from binascii import unhexlify
    from firmware.emu.ntag import NtagTag
    from firmware.emu.spi_bus import EmuSpiBus
    bus = EmuSpiBus()
    emus = [bus.add_reader() for _ in range(READERS)]
    with open(placed) as f:
        for line in f:
            reader, uid = line.split()
            emus[int(reader)].add_tag(NtagTag(unhexlify(uid)))
    gc.collect()
    held = gc.mem_alloc() - before
    board.readers = [Mfrc522(bus, e.cs) for e in emus]
    return held
