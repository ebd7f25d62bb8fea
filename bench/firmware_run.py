"""One whole game through the firmware's event loop: ``firmware_run.py FRAMES_FILE FS_DIR [mat]``.

MicroPython-compatible, run from a folder of ``.mpy`` modules. The host side is precomputed:
``FRAMES_FILE`` holds the encoded frames a host would send (NEWGAME, one ACTION per action,
RESYNC), read in small chunks as from a serial line; the journal is real (in ``FS_DIR``). So
``-X heapsize`` bisection (bench/__main__.py) measures the firmware's own heap, and the counts
below its wire and journal bytes. Prints JSON.

Without ``mat`` the board has no readers (host actions only). With it the board is a mat
(``bench/mat_board.py``): emulated readers hold the tags listed in ``FS_DIR/bench_tags.txt``, and
the firmware builds its whole reader stack, gesture layer and feedback and reads them; the actions
still come as host frames. The emulator is built first, at the bottom of the heap as a ROMFS image
would be, and its measured heap is reported (``emulator_heap``) for the bench to subtract.

A firmware that asks for a restart (``board.soft_reset()``: it found no room for the next game)
ends the process with status 80: the bench counts that run as failed.
"""
import gc
import json
import sys


class FilePort:
    """A serial line fed from a file; counts what the board writes."""

    def __init__(self, path):
        self.f = open(path, "rb")
        self.written = 0
        self.last = 0

    def readinto(self, buf):
        return self.f.readinto(buf) or 0

    def write(self, buf, n):
        self.written += n
        self.last = n


class Board:
    name = "bench"
    readers = []
    switches = []

    def __init__(self, link, root):
        self.fs_root = root
        self.link = link
        self.t = 0

    def ticks_ms(self):
        self.t += 5
        return self.t

    def idle(self):
        pass

    def soft_reset(self):
        # Called from an except block, say where the heap ran out (bench/heap.py why_failed).
        exc = sys.exc_info()[1]
        if exc is not None:
            sys.print_exception(exc, sys.stderr)
        sys.exit(80)


def main():
    board = Board(FilePort(sys.argv[1]), sys.argv[2])
    mat = sys.argv[3:] == ["mat"]
    emulator = 0
    if mat:
        from mat_board import equip   # its classes cost heap: only on a mat
        emulator = equip(board, board.fs_root + "/bench_tags.txt")
    from firmware.app import App
    app = App(board, sensors=True if mat else None)
    link = app.link
    end = board.link.f.seek(0, 2)
    board.link.f.seek(0)
    app.boot()
    while board.link.f.tell() < end or link.start < link.end:
        app.step()
    app.step()
    # "over" also says that a mat started its gesture layer (a mat that did not would play the
    # game from host frames all the same); "tags" that it read the tags lying on it.
    over = app.referee.game.over() and (not mat or app.sensors.mat is not None)
    tags = app.sensors.lying if mat else 0
    # The board's work is done: the report below is the bench's. At the smallest heap a game
    # ends with the heap full (the loop allocates nothing, a board prints no report), so its
    # few hundred bytes must not decide the figure: the game and the emulated readers (the
    # bench's own heap, through the drivers) go first.
    app.referee.game = None
    app.persist.game = None
    if mat:
        app.sensors.mat = None
        board.readers.clear()
    gc.collect()
    print(json.dumps({"over": over, "accepted": app.referee.accepted, "emulator_heap": emulator,
                      "tags": tags, "wire_bytes": board.link.written, "last_write": board.link.last,
                      "journal": app.persist.stats()}))


main()
