"""One whole game through the firmware's event loop: ``firmware_run.py FRAMES_FILE FS_DIR [mat]``.

MicroPython-compatible, run from a folder of ``.mpy`` modules. The host side is precomputed:
``FRAMES_FILE`` holds the encoded frames a host would send (NEWGAME, one ACTION per action,
RESYNC), read in small chunks as from a serial line; the journal is real (in ``FS_DIR``). So
``-X heapsize`` bisection (bench/__main__.py) measures the firmware's own heap, and the counts
below its wire and journal bytes. Prints JSON. A restart of the firmware (``board.soft_reset()``) ends the
process with status 80: the bench then runs it again (``Board.soft_reset``).

Without ``mat`` the board has no readers (host actions only). With it the board is a mat
(``bench/mat_board.py``): the firmware imports and builds its whole reader stack, gesture layer
and feedback; the actions still come as host frames.
"""
import sys
import json

from firmware.app import App


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
        """The firmware restarts with a fresh heap (e.g. a new game that found no room beside the
        last one's garbage): note how far the host's frames were handled, what was accepted so far
        and the restarts in ``FS_DIR/bench.run``, end with status 80; the bench runs the next
        process on the same filesystem, which boots as a board does and reads on from there."""
        link = _run[0].link
        with open(self.fs_root + "/bench.run", "w") as f:
            f.write("%d %d %d" % (self.link.f.tell() - (link.end - link.start),
                                  _run[1] + _run[0].referee.accepted, _run[2] + 1))
        sys.exit(80)


# The app, then what the runs before this one accepted and how often they restarted. Few names:
# every name the bench interns counts in the qstr pools (docs/performance.md, "Names").
_run = [None, 0, 0]


def main():
    board = Board(FilePort(sys.argv[1]), sys.argv[2])
    mat = sys.argv[3:] == ["mat"]
    if mat:
        from mat_board import equip   # its classes cost heap: only on a mat
        equip(board)
    try:
        with open(board.fs_root + "/bench.run") as f:
            _run[:] = [int(w) for w in f.read().split()]
    except OSError:
        _run[:] = [0, 0, 0]   # the first run
    at = _run[0]
    app = App(board, sensors=True if mat else None)
    _run[0] = app
    link = app.link
    end = board.link.f.seek(0, 2)
    board.link.f.seek(at)
    app.boot()
    while board.link.f.tell() < end or link.start < link.end:
        app.step()
    app.step()
    # "over" also says that a mat started its gesture layer (a mat that did not would play the
    # game from host frames all the same).
    game = app.referee.game
    print(json.dumps({"over": game.over() and (not mat or app.sensors.mat is not None),
                      "accepted": _run[1] + app.referee.accepted, "restarts": _run[2],
                      "wire_bytes": board.link.written, "last_write": board.link.last,
                      "journal": app.persist.stats()}))


main()
