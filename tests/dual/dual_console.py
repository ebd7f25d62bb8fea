"""The console hand-over on both interpreters: kbd_intr off while refereeing, on for CONSOLE_MS
after a CONSOLE frame, then off again; a restart note left by ``main`` is told at the next boot."""
import json

from fakeboard import FakeBoard, scratch_dir
from shared_rules import codec

from firmware import app as app_mod
from firmware.app import CONSOLE_MS, App


class ConsoleBoard(FakeBoard):
    """A fake board with a clock the test moves and a kbd_intr that records its settings."""

    def __init__(self, root=None):
        FakeBoard.__init__(self, root)
        self.now = 0x3FFFFF00  # close to the ticks wrap, on purpose
        self.intr = []

    def ticks_ms(self):
        return self.now & 0x3FFFFFFF

    def kbd_intr(self, c):
        self.intr.append(c)


def _types(board):
    return [f[0] for f in board.link.frames()]


def test_console_window_opens_and_closes():
    board = ConsoleBoard()
    a = App(board, persist=False, sensors=None)
    a.console(False)
    a.boot()
    board.link.push(codec.encode(codec.CONSOLE, 0))
    a.step()
    sent = board.link.frames()
    diag = [bytes(b[1:]).decode() for t, _, b in sent if t == codec.DIAG]
    after_frame = list(board.intr)
    board.now += CONSOLE_MS - 1
    a.step()
    still = list(board.intr)
    board.now += 1
    a.step()
    a.step()
    assert after_frame == [-1, 3] and still == [-1, 3] and board.intr == [-1, 3, -1], board.intr
    assert diag and diag[0].startswith("console handed over"), diag
    return [after_frame, still, list(board.intr)]


def test_restart_note_is_told_once_at_the_next_game_start():
    root = scratch_dir("console-note")
    with open(root + "/game.json", "w") as f:
        f.write(json.dumps({"game": "skull", "players": 3}))
    app_mod._leave_restart_note(root, MemoryError("memory allocation failed"))
    board = ConsoleBoard(root)
    a = App(board, persist=False, sensors=None)
    a.boot()
    first = [bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG]
    a.boot()
    again = [bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG]
    assert first == ["the firmware restarted itself after an error: MemoryError: memory allocation failed"]
    assert again == []
    return [first, again]
