"""Switch games many times at a Pico-sized heap (run by tests/test_heap_switch.py).

    micropython -X heapsize=212k tests/heap_switch.py FS_DIR DECK_BIN MPY_DIR ROUNDS

The firmware's App on a board of plain objects: 16 real MFRC522 drivers over an SPI bus that
answers zeros (no emulator: a Pico has none), a link fed NEWGAME frames, a mat layout and a deck
registry on FS_DIR. Modules come from MPY_DIR (compiled, as on a board). Every game, every seat
range end, in turn, ROUNDS times; prints the most heap in use after a switch.

The board's ``soft_reset()`` ends the process with status 80 after noting how far it got
(``FS_DIR/progress``): the caller starts it again, a fresh heap as on a board, and it boots from
FS_DIR (the journal, game.json) like the firmware does, then goes on switching. Any other
exception, a MemoryError included, fails the run.
"""
import gc
import json
import os
import sys

sys.path.insert(0, "")
sys.path.insert(0, "tests/dual")
sys.path.insert(0, sys.argv[3])
gc.collect()
BASE = gc.mem_alloc()

from shared_rules.wire import codec  # noqa: E402
from firmware.app import App  # noqa: E402
from bench.mat_board import equip  # noqa: E402
from fakeboard import FakeBoard  # noqa: E402

HEADERS = ({"game": "skull", "players": 6}, {"game": "sheriff", "players": 5},
           {"game": "deadmans", "players": 4}, {"game": "sheriff", "players": 3},
           {"game": "skull", "players": 3}, {"game": "deadmans", "players": 2})


class Port:
    def __init__(self):
        self.data = b""
        self.pos = 0

    def readinto(self, buf):
        n = 0
        while n < len(buf) and self.pos < len(self.data):
            buf[n] = self.data[self.pos]
            self.pos += 1
            n += 1
        return n

    def write(self, buf, n):
        pass


class Board(FakeBoard):
    name = "lean"

    def __init__(self, root):
        FakeBoard.__init__(self, root, port_size=1)
        equip(self)   # 16 real MFRC522 drivers on a silent bus, switches, LEDs, buzzer
        self.link = Port()

    def soft_reset(self):
        with open(self.fs_root + "/progress", "w") as f:
            f.write(str(self.at))
        sys.exit(80)


def main():
    root, deck, rounds = sys.argv[1], sys.argv[2], int(sys.argv[4])
    try:
        with open(root + "/progress") as f:
            start = int(f.read())
    except OSError:  # the first power-on: a clean filesystem
        start = 0
        for f in os.listdir(root):
            os.remove(root + "/" + f)
        for src, name in (("hardware/mat_layout.json", "mat_layout.json"), (deck, "deck.bin")):
            with open(src, "rb") as f:
                data = f.read()
            with open(root + "/" + name, "wb") as f:
                f.write(data)
            data = None
    board = Board(root)
    app = App(board)
    app.boot()
    if start:
        # Restarted to switch: the game asked for is the one running now.
        h = HEADERS[(start - 1) % len(HEADERS)]
        g = app.referee.game
        assert g is not None and g.NAME == h["game"] and g.seats() == h["players"], h
    most = 0
    for at in range(start, rounds * len(HEADERS)):
        h = HEADERS[at % len(HEADERS)]
        board.at = at + 1
        board.link.data = codec.encode(codec.NEWGAME, at, json.dumps(h).encode())
        board.link.pos = 0
        for _ in range(20):
            app.step()
        g = app.referee.game
        assert g is not None and g.NAME == h["game"] and app.sensors.mat is not None, h
        gc.collect()
        most = max(most, gc.mem_alloc() - BASE)
    print("switched %d times; heap in use after a switch at most %d bytes" % (rounds * len(HEADERS), most))


main()
