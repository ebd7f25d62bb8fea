"""One whole game through the firmware's event loop: ``firmware_run.py FRAMES_FILE FS_DIR [mat]``.

MicroPython-compatible, run from a folder of ``.mpy`` modules. The host side is precomputed:
``FRAMES_FILE`` holds the encoded frames a host would send (NEWGAME, one ACTION per action,
RESYNC), read in small chunks as from a serial line; the journal is real (in ``FS_DIR``). So
``-X heapsize`` bisection (bench/__main__.py) measures the firmware's own heap, and the counts
below its wire and journal bytes. Prints JSON. A restart of the firmware (``board.soft_reset()``) ends the
process with status 80: the bench then runs it again (``_restart``).

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
        _restart(self)


def _restart(board):
    """The firmware restarts with a fresh heap (``board.soft_reset()``, e.g. a new game that
    found no room beside the last one's garbage): note how far the host's frames were handled
    and what was accepted so far in ``FS_DIR/bench.run``, end with status 80; the bench runs the
    next process on the same filesystem, which boots as a board does and reads on from there."""
    app = _app[0]
    link = app.link
    done = board.link.f.tell() - (link.rx_len - link.rx_pos)
    with open(board.fs_root + "/bench.run", "w") as f:
        f.write("%d %d %d" % (done, _past[0] + app.referee.accepted, _past[1] + 1))
    sys.exit(80)


_app = [None]
_past = [0, 0]   # actions accepted by the runs before this one, restarts before this one


def main(frames, root, mat):
    board = Board(FilePort(frames), root)
    if mat:
        from mat_board import equip   # its classes cost heap: only on a mat
        equip(board)
    start = 0
    try:
        with open(root + "/bench.run") as f:
            start, _past[0], _past[1] = [int(w) for w in f.read().split()]
    except OSError:
        pass   # the first run
    app = App(board, sensors=True if mat else None)
    _app[0] = app
    link = app.link
    end = board.link.f.seek(0, 2)
    board.link.f.seek(start)
    app.boot()
    while board.link.f.tell() < end or link.rx_pos < link.rx_len:
        app.step()
    app.step()
    game = app.referee.game
    print(json.dumps({"over": game.over(), "accepted": _past[0] + app.referee.accepted, "restarts": _past[1],
                      "mat": app.sensors is not None and app.sensors.mat is not None,
                      "wire_bytes": board.link.written, "last_write": board.link.last,
                      "journal": app.persist.stats()}))


main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["mat"])
