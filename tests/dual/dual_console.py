"""The console hand-over on both interpreters: kbd_intr off while refereeing, on for CONSOLE_MS
after a CONSOLE frame, then off again; a restart note left by ``main`` is told at the next boot."""
import json
import sys

from fakeboard import FakeBoard, scratch_dir
from shared_rules.wire import codec

from firmware import app as app_mod
from firmware.app import App

# firmware/app.py's private _CONSOLE_MS and _STEADY_STEPS (tests/test_rules_literals.py checks them).
CONSOLE_MS = 30000
STEADY_STEPS = 500


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
    root = scratch_dir("console-note-" + sys.implementation.name)
    with open(root + "/game.json", "w") as f:
        f.write(json.dumps({"game": "skull", "players": 3}))
    app_mod._leave_restart_note(root, MemoryError("memory allocation failed"))
    board = ConsoleBoard(root)
    a = App(board, persist=False, sensors=None)
    a.boot()
    first = [bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG]
    a.boot()
    again = [bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG]
    assert app_mod._restart_note(root) is not None  # kept until the loop has run steadily
    assert first == ["the firmware restarted itself after an error: MemoryError: memory allocation failed"]
    assert again == []
    return [first, again]


class Restarted(Exception):
    pass


class FailingBoard(ConsoleBoard):
    """Runs out of memory after a few loop steps; its soft reset ends the test's 'power-on'."""

    def __init__(self, root, steps):
        ConsoleBoard.__init__(self, root)
        self.steps = steps

    def idle(self):
        self.steps -= 1
        if self.steps < 0:
            raise MemoryError("memory allocation failed, allocating 1168 bytes")

    def soft_reset(self):
        raise Restarted()


def test_a_memory_error_restarts_and_a_second_one_in_a_row_starts_no_game():
    root = scratch_dir("console-mem-" + sys.implementation.name)
    with open(root + "/game.json", "w") as f:
        f.write(json.dumps({"game": "skull", "players": 3}))
    told = []
    for steps in (STEADY_STEPS + 5, 5):
        board = FailingBoard(root, steps)
        try:
            app_mod.run_board(board, lambda b: App(b, sensors=None))
            assert False, "run_board returned"
        except Restarted:
            pass
        told.append([bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG])
    # The first restart was told at the next start, which failed soon after: no game now.
    board = ConsoleBoard(root)
    a = App(board, sensors=None)
    assert a.boot() is False and a.referee.game is None
    last = [bytes(b[1:]).decode() for t, _, b in board.link.frames() if t == codec.DIAG]
    assert told[0] == [] and told[1][0].startswith("the firmware restarted itself after an error: MemoryError")
    assert last[0].startswith("the firmware failed twice in a row (MemoryError"), last
    # The board still referees: a new game from the host starts.
    board.link.push(codec.encode(codec.NEWGAME, 0, json.dumps({"game": "skull", "players": 4}).encode()))
    a.step()
    assert a.referee.game is not None and a.referee.game.seats() == 4
    return [told[1], last]
