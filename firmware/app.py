"""The firmware's event loop: readers, bag switches and the serial link feed one referee.

``main.py`` builds an ``App`` on the board profile and calls ``run()``. Each ``step()`` services
the link (host frames), scans the next reader (round robin), reads the bag switches and turns
what changed into actions through the mat layer. In steady state a step allocates nothing
(``tests/dual/dual_app.py`` runs steps under ``micropython.heap_lock()``).
"""
import json

from shared_rules import codec, games
from shared_rules.actions import ACTION_SIZE
from shared_rules.engine import NO_GAME

from firmware.link import BoardLink
from firmware.referee import Referee, FROM_HOST

GAME_FILE = "game.json"
LAYOUT_FILE = "mat_layout.json"


def _path(root, name):
    return name if root in ("", ".") else root.rstrip("/") + "/" + name


def read_json(root, name):
    """A JSON file of the board filesystem, or None if it is missing or unreadable."""
    try:
        with open(_path(root, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def layout_for(layouts, game, seats):
    """The zone layout of ``mat_layout.json`` for a game and seat count (None if there is none)."""
    if not layouts:
        return None
    for entry in layouts.get("games", {}).get(game, ()):
        lo, hi = entry["seats"]
        if lo <= seats <= hi:
            return entry
    return None


class App:
    def __init__(self, board, persist=None, feedback=None, sensors=None):
        self.board = board
        self.root = board.fs_root
        self.link = BoardLink(board.link)
        self.persist = persist
        self.referee = Referee(self.link, persist, feedback)
        self.sensors = sensors
        self.rec = bytearray(ACTION_SIZE)
        self.layouts = read_json(self.root, LAYOUT_FILE)

    # -- starting a game -----------------------------------------------------------------
    def boot(self):
        """Restore the journalled game, or start the configured one; announce it to the host."""
        game = None
        header = None
        if self.persist:
            game, header = self.persist.boot()
        if game is None:
            header = read_json(self.root, GAME_FILE)
            if header is not None:
                try:
                    game = games.from_header(header)
                except ValueError:
                    game = None
                if game is not None and self.persist:
                    self.persist.new_game(header, game)
        if game is None:
            self.referee.hello()
            return False
        self._start(game, header)
        return True

    def _start(self, game, header):
        if self.sensors:
            self.sensors.start(game, layout_for(self.layouts, game.NAME, game.seats()))
        self.referee.start(game, json.dumps(header).encode())

    def new_game(self, text):
        """NEWGAME from the host: a log header as JSON text. Refused: an ERROR frame."""
        try:
            header = json.loads(text)
            game = games.from_header(header)
        except ValueError:
            self.error(codec.ERR_BODY)
            return
        try:
            with open(_path(self.root, GAME_FILE), "w") as f:
                json.dump(header, f)
        except OSError:
            pass  # the journal still holds the game; only a reboot without it loses the choice
        if self.persist:
            self.persist.new_game(header, game)
        self._start(game, header)

    # -- the link ------------------------------------------------------------------------
    def error(self, kind):
        body = self.link.body
        body[0] = kind
        seq = self.link.reader.seq
        body[1] = seq & 255
        body[2] = seq >> 8
        n = self.link.link_errors()
        body[3] = n & 255
        body[4] = (n >> 8) & 255
        self.link.send(codec.ERROR, 5)

    def on_frame(self):
        r = self.link.reader
        t = r.type
        n = r.body_len
        body = r.body
        if t == codec.PING:
            out = self.link.body
            for i in range(n):
                out[i] = body[i]
            self.link.send(codec.PONG, n)
        elif t == codec.RESYNC:
            self.referee.snapshot()
        elif t == codec.SUBSCRIBE:
            self.referee.subscribe(body[0] if n else 0)
        elif t == codec.ACTION:
            self.host_action(body, n)
        elif t == codec.NEWGAME:
            self.new_game(bytes(body[:n]).decode())
        else:
            self.error(codec.ERR_TYPE)

    def host_action(self, body, n):
        """An action record the host sent (inputs the mat has no sensor for)."""
        if self.referee.game is None:
            self.referee.refuse(NO_GAME, None, FROM_HOST, None)
            return
        rec = self.rec
        if n < 2 or n > ACTION_SIZE:
            self.error(codec.ERR_BODY)
            return
        for i in range(ACTION_SIZE):
            rec[i] = body[i] if i < n else 0
        self.referee.submit(rec, FROM_HOST)

    def service_link(self):
        """Handle every frame the line has now; report bad frames with ERROR."""
        link = self.link
        while link.poll():
            self.on_frame()
        bad = link.link_errors()
        if bad != link.errors_seen:
            link.errors_seen = bad
            self.error(link.reader.last_error)

    # -- the loop ------------------------------------------------------------------------
    def step(self):
        self.service_link()
        if self.sensors and self.referee.game is not None:
            code = self.sensors.poll(self.rec)
            if code == 1:
                self.referee.submit(self.rec, self.sensors.reader)
            elif code > 1:
                self.referee.refuse(code, None, self.sensors.reader, self.sensors.uid)
        self.board.idle()

    def run(self):
        self.boot()
        while True:
            self.step()


def main():
    from firmware import boards
    board = boards.load()
    App(board).run()

