"""One whole game through the firmware's event loop: ``firmware_run.py FRAMES_FILE FS_DIR [mat]``.

MicroPython-compatible, run from a folder of ``.mpy`` modules. The host side is precomputed:
``FRAMES_FILE`` holds the encoded frames a host would send (NEWGAME, one ACTION per action,
RESYNC), read in small chunks as from a serial line; the journal is real (in ``FS_DIR``). So
``-X heapsize`` bisection (bench/__main__.py) measures the firmware's own heap, and the counts
below its wire and journal bytes. Prints JSON.

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

    def idle(self):
        pass


def main(frames, root, mat):
    if mat:
        from mat_board import MatBoard   # its classes cost heap: only on a mat
        board = MatBoard(FilePort(frames), root)
    else:
        board = Board(FilePort(frames), root)
    app = App(board, sensors=True if mat else None)
    app.boot()
    link = app.link
    end = board.link.f.seek(0, 2)
    board.link.f.seek(0)
    while board.link.f.tell() < end or link.rx_pos < link.rx_len:
        app.step()
    app.step()
    game = app.referee.game
    print(json.dumps({"over": game.over(), "accepted": app.referee.accepted,
                      "mat": app.sensors is not None and app.sensors.mat is not None,
                      "wire_bytes": board.link.written, "last_write": board.link.last,
                      "journal": app.persist.stats()}))


main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["mat"])
