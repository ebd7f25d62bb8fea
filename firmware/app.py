"""The firmware's event loop: readers, bag switches and the serial link feed one referee.

``main.py`` builds an ``App`` on the board profile and calls ``run()``. Each ``step()`` services
the link (host frames), scans the next reader (round robin), reads the bag switches and turns
what changed into actions through the mat layer. In steady state a step allocates nothing
(``tests/dual/dual_app.py`` runs steps under ``micropython.heap_lock()``).
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

import gc
import os
import sys

from shared_rules.core import board_files
from shared_rules.core.board_files import board_path, read_json
from shared_rules.wire import codec
from shared_rules.core.actions import ACTION_SIZE

from firmware.link import BoardLink
from firmware.persist import Persist, trouble
from firmware.referee import Referee

_FRAMES_PER_STEP = const(2)  # host frames handled per loop step (docs/protocol.md, section 5)
_CONSOLE_MS = const(30000)  # after CONSOLE, Ctrl-C stops the firmware for this long (docs/flashing.md)
_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms wraps at 2**30 on MicroPython
_RESTART_FILE = const("restart.txt")  # why the firmware restarted itself, told to the host at the next boot
_STEADY_STEPS = const(500)  # loop steps after a restart before its note is dropped
_AGAIN = const("again: ")  # a restart note's prefix when the start after a restart failed too
_OK = const(0)        # shared_rules.core.engine's (tests/test_rules_literals.py)
_NO_GAME = const(12)
_FROM_HOST = const(255)  # firmware.referee's: the reader of a host action
_NOTHING = const(0)  # firmware.mat's poll results (tests/test_rules_literals.py): the mat module
_READY = const(1)    # itself is imported only with readers
_GAME_FILE = const("game.json")
_LAYOUT_FILE = const("mat_layout.json")
_REGISTRY_FILE = const("deck.bin")
# What only a game's setup runs (App.set_up lets go of it), as prefixes of module names.
_SETUP_CODE = ("shared_rules.games", "shared_rules.sheriff.modules.setup", "shared_rules.sheriff.modules.profile",
               "shared_rules.catalogue", "firmware.upload", "shared_rules.core.deck_check")
# Collect after this many bytes allocated, not only when the heap is full (docs/performance.md,
# round 11): a game's start loads code and parses files whose garbage then lies among what stays.
_GC_EVERY = const(4096)
_REJECT = const(1)  # the buzzer's REJECT (firmware.sounds, restated: its notes are the board profile's)


def collect_often(on):
    """While a game is set up (the app made, boot, a new game, a profile pushed), collect after
    every ``_GC_EVERY`` bytes allocated: the garbage of loading code and parsing files is freed
    as it comes, and what stays fills its holes instead of going above it, among fragments too
    small for the next module (a collection only when the heap is full). Off (``on`` False)
    while a game is played (``App.setting_up`` and ``App.step``): the loop allocates nothing
    then, but a virtual board's emulated readers do, and collecting that often made them five
    times slower."""
    if hasattr(gc, "threshold"):   # MicroPython's collector (CPython's needs no help)
        gc.threshold(_GC_EVERY if on else -1)


def let_go(prefixes):
    """Take the modules whose names start with one of ``prefixes`` out of ``sys.modules`` and
    their packages, so their code is collected once nothing else holds it."""
    for prefix in prefixes:
        for mod in [m for m in sys.modules if m.startswith(prefix)]:
            del sys.modules[mod]
            package, _, leaf = mod.rpartition(".")
            parent = sys.modules.get(package)
            if parent is not None and hasattr(parent, leaf):
                delattr(parent, leaf)


class App:
    """The board's loop. ``persist`` and ``sensors`` default to the real ones on ``board``; tests
    may pass None to leave one out."""

    def __init__(self, board, persist=True, sensors=True):
        self.collecting = False
        self.setting_up()   # the imports and objects below, like a game's start
        self.board = board
        self.root = board.fs_root
        self.upload = None   # a deck profile being pushed (firmware/upload.py), between its frames
        # Whether the board has mat layouts; the file is read again at each start, which keeps
        # only the game's own layout (all of them, parsed, held 6 KB on the unix port). Parsed
        # first and collected, so the long-lived objects below are not placed among its garbage.
        self.layouts = read_json(self.root, _LAYOUT_FILE) is not None
        gc.collect()
        if sensors is True:
            # The reader stack (sensors, presence, registry, the MFRC522 driver: ~12 KB and ~190
            # names on a board) and the LED feedback are imported only for a board that reads
            # tags, and first: module code and the names it interns (qstr pools, which grow by
            # doubling, one block each) go in before the long-lived objects.
            from firmware.sensors import Sensors
            if hasattr(board, "leds"):
                from firmware import feedback   # noqa: F401  (its Feedback is built at each start)
            if persist is True:
                # Boot's recovery code too (let go after boot): its names are interned for good
                # anyway, and a mat's names cross the qstr pool doubling at ~620 around here.
                # Loaded at boot instead, after the long-lived objects, the new pool (6.4 KB in
                # one block on the unix port) found no room: 100 KB on a mat for every game.
                from firmware import recover   # noqa: F401
        board_files.profile_path = board_path(self.root, board_files.PROFILE_FILE)   # headers name it by digest
        self.link = BoardLink(board.link)
        self.persist = Persist(self.root) if persist is True else persist
        self.referee = Referee(self.link, self.persist)
        if sensors is True:
            sensors = Sensors(board, board_path(self.root, _REGISTRY_FILE))
            if board.readers:  # serve the link while a reader waits out its field guard
                board.readers[0].set_guard_hook(self.link.serve)
        self.sensors = sensors
        self.feedback = None
        self.rec = bytearray(ACTION_SIZE)
        # the prompt last sent to the host (what, seats, zone): a new one only when it changes
        self.prompt_what = -1
        self.prompt_seats = 0
        self.prompt_zone = 0
        self.console_since = -1   # ticks_ms of the last CONSOLE while Ctrl-C may interrupt; -1: none
        self.restart_told = False  # the restart note told (removed once the loop runs steadily)
        self.link_errors_told = 0  # the link's bad frames, as last told to the host
        if self.sensors:
            self.sensors.report = self.report
        self.set_up()   # the registry's checks (deck_check) go before any game loads

    # -- starting a game -----------------------------------------------------------------
    def setting_up(self):
        """A game is set up from here (the app made, boot, a new game, a profile pushed): collect
        often (``collect_often``) until the loop's step that did it ends. A method call, not a
        wrapper around each of them: four wrappers' closures held 0.6 KB (Skull's loop, ROMFS)."""
        if not self.collecting:
            self.collecting = True
            collect_often(True)

    def boot(self):
        """Restore the journalled game, or start the configured one; announce it to the host.

        After two failed starts in a row (``main`` left a second restart note) no game starts:
        the board answers the host, which may choose another game; the journal stays."""
        self.setting_up()
        why = _restart_note(self.root)
        if why is not None and why.startswith(_AGAIN):
            _restart_note(self.root, True)
            self.referee.hello()
            self.referee.message("the firmware failed twice in a row (%s): no game started; the "
                                 "journal is kept (send a new game, or switch off and on)" % why[len(_AGAIN):])
            return False
        game = None
        info = None
        if self.persist:
            try:
                game, info = self.persist.boot(self.set_up)
            except ValueError as e:
                if not getattr(e, "keep", False):
                    raise
                # profile.Missing: the stored game's deck profile is gone or another
                self.referee.hello()
                self.referee.message("%s; the stored game is kept, not restored" % e)
                return False
        if game is None:
            conf = read_json(self.root, _GAME_FILE)
            ready = None if conf is None else self._prepared("configured", conf)
            if ready is None:
                self.referee.hello()
                return False
            game, header = ready
        else:
            self.set_up()
            header = self.persist.header
        self.start(game, header, info)
        return True

    def _prepared(self, step, arg):
        """``firmware.game_start``'s ``step`` (``configured`` or ``new_game``): the game it built,
        as ``start``'s arguments, or None. The start code is loaded for it and let go of before
        the game starts: a method of its own, so no stale slot of a caller's frame holds that
        code while the mat's loads."""
        from firmware import game_start
        try:
            return getattr(game_start, step)(self, arg)
        finally:
            let_go(("firmware.game_start",))

    def set_up(self):
        """Let go of the code only a game's setup needs: the game table, the Merry Men setup, the
        deck profile's code and the card catalogue (read by it), a finished profile upload; then collect, so
        what loads next fills the holes. Called between reading a header's card tables and
        loading the rules (``games.from_header``'s ``between``: a board never holds both), and
        once the game is built (the catalogue's values the rules took stay with them; all of it
        is imported again when next needed); and once the app is made, after the deck registry's
        checks. With none of it loaded, nothing is done."""
        loaded = [p for p in _SETUP_CODE if any(m.startswith(p) for m in sys.modules)]
        if self.upload is None and not loaded:
            return
        self.upload = None
        let_go(loaded)
        gc.collect()

    def start(self, game, header, info=None):
        """Referee ``game`` from now on; ``info``: what the journal's recovery found (boot)."""
        self.feedback = None
        self.referee.fit(game)   # the view buffers before the mat, with the start code let go of
        mat = None
        if self.sensors and self.layouts:
            # The gesture layer and the LEDs serve a board that reads tags: imported only then.
            from firmware.feedback import Feedback
            from firmware.mat import pick_layout
            try:
                layout = pick_layout(read_json(self.root, _LAYOUT_FILE) or {"games": {}}, game.NAME, game.seats())
                # The layout file's parse is garbage now: collected, the mat and the gestures
                # fill its holes (Skull on a mat: -4.5 KB smallest heap, the others unchanged).
                gc.collect()
                mat = self.sensors.start(game, layout)
            except (ValueError, ImportError):
                mat = None  # no layout or no gestures for this game: host actions only
            if mat is not None and hasattr(self.board, "leds"):
                self.feedback = Feedback(self.board, layout, game.seats())
        self.referee.start(game, header)
        # What went wrong at start, for the host and the players: no deck registry (the mat
        # cannot read tags: host actions only), a damaged journal, pieces left on the pads of a
        # fresh game (they do not count: the table must be cleared).
        problems = []
        fresh = self.persist.count == 0 if self.persist else True
        if fresh and self.sensors and self.sensors.mat is not None and self.sensors.lying:
            problems.append("clear the table: %d pieces lie on the pads and do not count; lift them "
                            "and play them again" % self.sensors.lying)
        if self.sensors and self.sensors.error:
            problems.append(self.sensors.error + "; the mat reads no tags (host actions only)")
        why = None if self.restart_told else _restart_note(self.root)
        if why:
            self.restart_told = True
            problems.append("the firmware restarted itself after an error: " + why)
        damage = trouble(info)
        if damage:
            problems.append(damage)
        for text in problems:
            self.referee.message(text)
        if problems and hasattr(self.board, "buzzer"):
            self.board.buzzer.play(_REJECT)
        self.prompt_what = -1
        self._prompt()

    def new_game(self, text):
        """NEWGAME from the host: a log header as JSON text (``firmware.game_start``: what is
        refused and why, the switch from a running game). Refused: an ERROR frame."""
        self.setting_up()
        ready = self._prepared("new_game", text)
        if ready is None:
            return
        try:
            self.start(*ready)
        except MemoryError:
            self.board.soft_reset()   # the new game is journalled: the next boot restores it

    def let_go_of_game(self):
        """Let go of the running game, its mat and its modules (``shared_rules.<name>*``,
        ``firmware.mat_<name>``, the deck profile code) before another game is built. A function
        of its own: the references it handles go with its frame, so the collection that follows
        frees the old game's code (left in a frame of ``new_game``, a stale slot held all of it:
        switching Sheriff to Dead Man's Draw, 12 KB)."""
        name = self.referee.game.NAME
        self.referee.game = None
        self.feedback = None
        if self.sensors:
            self.sensors.mat = None
        if self.persist:
            self.persist.close()
            self.persist.game = None
        let_go(("shared_rules." + name, "firmware.mat_" + name, "shared_rules.sheriff.modules.profile"))

    # -- the link ------------------------------------------------------------------------
    def error(self, kind):
        body = self.link.body
        body[0] = kind
        seq = self.link.reader.seq
        body[1] = seq & 255
        body[2] = seq >> 8
        n = sum(self.link.reader.errors)   # bad frames seen so far (all kinds)
        body[3] = n & 255
        body[4] = (n >> 8) & 255
        self.link.send(codec.ERROR, 5)

    # -- the console -------------------------------------------------------------------
    def console(self, interrupt):
        """Whether a 0x03 on the console stops the firmware (the board's ``kbd_intr``)."""
        kbd_intr = getattr(self.board, "kbd_intr", None)
        if kbd_intr is not None:
            kbd_intr(3 if interrupt else -1)

    def service_link(self):
        """Handle at most _FRAMES_PER_STEP frames (each poll reads at most link._MAX_CHUNKS chunks):
        a flood of host frames only slows the loop by a bounded amount, and the readers are
        still scanned once per step. Report bad frames with ERROR."""
        link = self.link
        r = link.reader
        for _ in range(_FRAMES_PER_STEP):
            if not link.poll():
                break
            t = r.type
            n = r.body_len
            body = r.body
            if t == codec.PING:
                out = link.body
                for i in range(n):
                    out[i] = body[i]
                link.send(codec.PONG, n)
            elif t == codec.RESYNC:
                self.referee.snapshot()
            elif t == codec.PEEK:
                self.referee.peek()
            elif t == codec.SUBSCRIBE:
                self.referee.subscribe(body[0] if n else 0)
                self.prompt_what = -1
                self._prompt()
            elif t == codec.ACTION:
                # An action record the host sent (inputs the mat has no sensor for).
                if self.referee.game is None:
                    self.referee.refuse(_NO_GAME, None, _FROM_HOST, None)
                elif n < 2 or n > ACTION_SIZE:
                    self.error(codec.ERR_BODY)
                elif self.referee.submit(self._record(body, n), _FROM_HOST) == _OK:
                    self._prompt()
            elif t == codec.UNDO:
                # Take back the last host entry (firmware.referee.Referee.undo says when it may).
                if n < 2 or n > ACTION_SIZE:
                    self.error(codec.ERR_BODY)
                elif self.referee.undo(self._record(body, n)) == _OK:
                    self._prompt()
            elif t == codec.CONSOLE:
                # For _CONSOLE_MS a Ctrl-C stops the firmware (mpremote gets the REPL); then 0x03
                # is a plain byte again (step).
                self.referee.message("console handed over: Ctrl-C stops the firmware for %d s" % (_CONSOLE_MS // 1000))
                self.console(True)
                self.console_since = self.board.ticks_ms()
            elif t == codec.PROFILE:
                if self.profile_frame(body, n):
                    self.set_up()   # the upload's code and the profile's go
                    if self.referee.game is None:
                        # The board starts as at power-on: a stored game that waited for this
                        # profile comes back.
                        self.boot()
            elif t == codec.NEWGAME:
                try:
                    self.new_game(bytes(body[:n]).decode())
                except UnicodeError:
                    self.error(codec.ERR_BODY)
            else:
                self.error(codec.ERR_TYPE)
        bad = sum(link.reader.errors)
        if bad != self.link_errors_told:
            self.link_errors_told = bad
            self.error(r.last_error)

    def profile_frame(self, body, n):
        """A deck profile pushed (firmware/upload.py: its code loaded only then, and held by no
        frame once this returns); True once the whole profile is stored."""
        self.setting_up()
        from firmware import upload
        return upload.receive(self, body, n)

    def _record(self, body, n):
        """A host frame's trimmed record, zero-padded in ``self.rec``."""
        rec = self.rec
        for i in range(ACTION_SIZE):
            rec[i] = body[i] if i < n else 0
        return rec

    # -- feedback ------------------------------------------------------------------------
    def _prompt(self):
        """Tell the host and the players what the mat waits for, when that changed."""
        s = self.sensors
        mat = s.mat if s else None
        if mat is None:
            return
        what = mat.prompt()
        if what != self.prompt_what or mat.wait_seats != self.prompt_seats or mat.wait_zone != self.prompt_zone:
            self.prompt_what = what
            self.prompt_seats = mat.wait_seats
            self.prompt_zone = mat.wait_zone
            self.referee.prompt(what, mat.wait_seats, mat.wait_zone, mat.wait_reader)
        if self.feedback is not None:
            self.feedback.show(mat, self.board.ticks_ms())

    def report(self, reader, state, version):
        """A reader's state changed (firmware/sensors.py): tell the host, light its station."""
        self.referee.reader_health(reader, state, version)
        if self.feedback is not None:
            self.feedback.fault(reader, state != 0)

    # -- the loop ------------------------------------------------------------------------
    def step(self):
        self.service_link()
        if self.collecting:   # what the frames set up is done: the loop allocates nothing
            self.collecting = False
            collect_often(False)
        s = self.sensors
        if s is not None and s.mat is not None and self.referee.game is not None:
            code = s.poll()
            if code != _NOTHING:
                if code == _READY:
                    code = self.referee.check(s.mat.rec, s.reader)   # _OK or why it was refused
                else:
                    self.referee.refuse(code, None, s.reader, s.uid)
                fb = self.feedback
                if fb is not None:
                    if code == _OK:
                        fb.accepted(s.reader, self.board.ticks_ms())
                    else:
                        fb.rejected(s.reader, self.board.ticks_ms())
                if code == _OK:
                    # Light first, then the journal before anything else (no scan, no host frame,
                    # no other action): the host's DELTA, the acknowledgement, only once it is
                    # durable (docs/persistence.md, "Light first").
                    self.referee.commit(s.mat.rec)
                    self._prompt()
        if self.feedback is not None:
            self.feedback.tick(self.board.ticks_ms())
        if self.persist and self.referee.game is not None:
            self.persist.tidy()
        since = self.console_since
        if since >= 0 and (self.board.ticks_ms() - since) & _TICKS_MASK >= _CONSOLE_MS:
            self.console_since = -1
            self.console(False)
        self.board.idle()

    def run(self):
        self.console(False)  # line noise or another program must not stop a game
        self.boot()
        for _ in range(_STEADY_STEPS):
            self.step()
        if self.restart_told:
            _restart_note(self.root, True)  # the restart worked: a later error is a first one
        while True:
            self.step()


def _restart_note(root, take=False):
    """The reason left by ``main`` before a restart, or None; ``take``: remove the note."""
    try:
        with open(board_path(root, _RESTART_FILE)) as f:
            why = f.read(200)
        if take:
            os.remove(board_path(root, _RESTART_FILE))
        return why
    except OSError:
        return None


def _leave_restart_note(root, exc):
    """Why ``main`` restarts; ``again: `` first when the last restart's note was never told (the
    start after it failed too): the next boot then starts no game."""
    again = _restart_note(root) is not None
    try:
        with open(board_path(root, _RESTART_FILE), "w") as f:
            f.write((_AGAIN if again else "") + type(exc).__name__ + (": " + str(exc) if str(exc) else ""))
    except Exception:  # noqa: BLE001  (out of memory or flash: restart all the same)
        pass


def main():
    """Entry point of ``main.py`` on a board. Any error (a MemoryError too) restarts the firmware
    with a fresh heap instead of leaving the board at the REPL; the journal keeps the game and the
    next boot tells the host why. Only a Ctrl-C after CONSOLE reaches the REPL."""
    from firmware import boards
    run_board(boards.load())


def run_board(board, app=App):
    """``main`` on a given board profile (tests pass their own)."""
    try:
        app(board).run()
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # noqa: BLE001  (whatever it was, the game must go on)
        _leave_restart_note(board.fs_root, exc)
        board.soft_reset()
