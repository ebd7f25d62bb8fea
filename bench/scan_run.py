"""The reader scan cycle: 12 emulated MFRC522 readers polled round robin, like the event loop.

MicroPython-compatible: ``scan_run.py CYCLES``; prints JSON. Six readers hold one tag, one holds
a closed bag of five, five are empty. The time is the unix port's (CPU cost of the driver and
the emulator); on a board the SPI clock and the radio's timeouts dominate (docs/nfc.md), so the
SPI transactions per cycle are reported too.
"""
import sys
import json

sys.path.insert(0, "")

from firmware.mfrc522 import Mfrc522
from firmware.emu.ntag import NtagTag
from firmware.emu.spi_bus import EmuSpiBus

from clock import ticks_us, ticks_diff

READERS = 12


def main(cycles):
    bus = EmuSpiBus()
    readers = []
    for i in range(READERS):
        emu = bus.add_reader()
        if i < 6:
            emu.add_tag(NtagTag(bytes((4, i, 1, 2, 3, 4, 5))))
        elif i == 6:
            for k in range(5):
                emu.add_tag(NtagTag(bytes((4, 0x40, k, 9, 8, 7, 6))))
        r = Mfrc522(bus, emu.cs)
        r.init()
        readers.append(r)
    uids = bytearray(35)
    found = 0
    t0 = ticks_us()
    before = bus.transactions
    for _ in range(cycles):
        for r in readers:
            r.antenna_on()
            found += r.scan(uids)
            r.antenna_off()
    us = ticks_diff(ticks_us(), t0)
    print(json.dumps({"readers": READERS, "cycles": cycles, "us_per_cycle": us // cycles,
                      "spi_transactions_per_cycle": (bus.transactions - before) // cycles,
                      "tags_per_cycle": found // cycles}))


main(int(sys.argv[1]))
