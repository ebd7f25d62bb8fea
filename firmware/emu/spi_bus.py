"""An emulated SPI bus with several MFRC522 readers, each behind its own chip-select pin.

`EmuSpiBus.write_readinto(tx, rx)` has the shape of machine.SPI.write_readinto and is routed to
the reader whose chip select is low, so the real driver runs unchanged on the virtual board.
NSS framing matters: the MFRC522 starts a new transaction at each falling edge of its NSS
(data sheet rev 3.9 §8.1.2), which `EmuPin` counts. With no reader selected (a reader absent or
unplugged) MISO reads 00h, as the board's pull-down on MISO gives it (hardware/, docs/hardware.md);
with several selected, each one sees the bytes and MISO is their wired AND.
"""
from firmware.emu.mfrc522_emu import Mfrc522Emu


class EmuPin:
    """An output pin with machine.Pin's value(): value() reads, value(v) drives."""

    def __init__(self, value=1):
        self._v = 1 if value else 0
        self.falls = 0  # falling edges so far: each one starts an SPI transaction
        self.bus = None  # an EmuSpiBus told of each edge (add_reader), so it finds the selected reader at once
        self.reader = None  # the emulated reader it selects there

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if self._v != v:
            if not v:
                self.falls += 1
            if self.bus is not None:
                self.bus.selecting(self, v)
        self._v = v
        return None


class EmuSpiBus:
    """machine.SPI stand-in carrying any number of emulated readers."""

    def __init__(self):
        self.readers = []
        self.transactions = 0  # write_readinto calls: one NSS-framed transfer each
        self.bytes = 0
        # Readers whose pins report their edges (add_reader): how many are selected, and the
        # last one selected. One selected, as in every normal transfer: it alone answers, found
        # without asking all the chip selects (the virtual board's hot path: 16 readers).
        self._told = 0
        self._low = 0
        self._last = None

    def add_reader(self, version=0x92):
        """Attach a new emulated MFRC522 with its own chip-select EmuPin; return the reader."""
        pin = EmuPin(1)
        reader = Mfrc522Emu(pin, version)
        pin.bus = self
        pin.reader = reader
        self._told += 1
        self.readers.append(reader)
        return reader

    def selecting(self, pin, v):
        """``pin`` (one of add_reader's) changes: count the selected readers, keep the last."""
        if v:
            self._low -= 1
            if self._last is pin.reader:
                self._last = None
        else:
            self._low += 1
            self._last = pin.reader

    def write_readinto(self, tx, rx):
        n = len(tx)
        if len(rx) != n:
            raise ValueError("tx and rx must have the same length")
        self.transactions += 1
        self.bytes += n
        last = self._last
        if self._low == 1 and last is not None and self._told == len(self.readers):
            last.transfer(tx, rx)   # every reader's pin reports, and only this one is low
            return
        if tx is rx:  # one buffer both ways, as machine.SPI allows: every selected reader
            selected = 0  # sees the bytes sent, not what the first one answered
            for r in self.readers:
                if r.cs.value() == 0:
                    selected += 1
            if selected > 1:
                tx = bytes(tx)
        selected = 0
        for r in self.readers:
            if r.cs.value() == 0:
                if selected == 0:
                    r.transfer(tx, rx)
                else:
                    self._contend(r, tx, rx)
                selected += 1
        if selected == 0:
            for i in range(n):
                rx[i] = 0x00  # MISO pulled down

    @staticmethod
    def _contend(reader, tx, rx):
        """A further selected reader: it sees the bytes too; the MISO lines are ANDed."""
        other = bytearray(len(tx))
        reader.transfer(tx, other)
        for i in range(len(tx)):
            rx[i] &= other[i]
