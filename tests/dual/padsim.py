"""A simulated mat for the dual tests, on both interpreters: which tags lie on which pad of
``hardware/mat_layout.json``, scanned into ``firmware.presence.Presence`` as the poll loop does,
every event through ``firmware.mat.Mat``, every action it makes submitted to the rules.

A game's test module subclasses ``Table`` for its zones and gestures and registers its pieces
with ``registry()``; every token is registered for it (``token_uid``)."""
import json
import sys

from shared_rules import games
from shared_rules.core import deck
from shared_rules.core import tokens
from firmware.mat import Mat, pick_layout, READY, NOTHING
from firmware.presence import Presence
from host.board.presence_layout import NONE
from firmware.registry import Registry
import scratch

try:
    import micropython
except ImportError:
    micropython = None

with open("hardware/mat_layout.json") as _f:
    LAYOUT_DOC = json.load(_f)
READERS = 16
CLASP = -1   # a scheduled round that is a bag clasp: (CLASP, switch, closed)
UNKNOWN_UID = bytes((4, 1, 2, 3, 4, 5, 6))   # registered nowhere
FOREIGN_UID = bytes((4, 0xDD, 0, 0, 0, 0, 2))  # for a module to register as another game's piece
_registries = {}


def token_uid(t):
    return bytes((4, 0x70, t, 0, 0, 0x99, 1))


def registry(name, pieces):
    """The registry of one test module: ``pieces()`` -> its deck records, plus every token;
    written once per interpreter (both may run at once, so each has its own file)."""
    if name not in _registries:
        recs = pieces()
        for t in range(len(tokens.CODES)):
            recs.append({"uid": deck.uid_hex(token_uid(t)), "kind": "token", "code": tokens.CODES[t]})
        path = scratch.TMP + "/tapmat_dual_mat_%s_%s.bin" % (name, sys.implementation.name)
        deck.write(path, recs)
        _registries[name] = Registry(path)
    return _registries[name]


def fill(buf, tags):
    """Write UIDs into a reader's scan buffer (7-byte slots, as ``Mfrc522.scan``); their count."""
    for i in range(len(tags)):
        buf[7 * i:7 * i + 7] = tags[i]
    return len(tags)


class Table:
    """The physical mat of one game: ``on[reader]`` lists the tags lying on that pad. Every
    ``put``/``take`` is scanned until Presence reports it (a leave takes ``misses`` polls); what
    the mat and the rules answer is collected for ``news()``: the decoded actions, and
    ``["refused", reason]`` (by the rules) or ``["rejected", reason, reader]`` (by the mat)."""
    SLOTS = 5   # tags a reader tracks; a scan may see one more

    def __init__(self, header, registry, game=None):
        self.game = game or games.from_header(header)
        self.layout = pick_layout(LAYOUT_DOC, self.game.NAME, self.game.seats())
        self.presence = Presence(slots=self.SLOTS)
        self.mat = Mat(self.game, self.layout, registry, self.presence)
        self.zones = self.layout["zones"]
        self.command = self.zones["command"]
        self.on = [[] for _ in range(READERS)]
        self.buf = bytearray(7 * (self.SLOTS + 1))
        self.log = []

    def put(self, reader, uid):
        self.on[reader].append(uid)
        self.changed(reader)

    def take(self, reader, uid):
        self.on[reader].remove(uid)
        self.changed(reader)

    def tap(self, reader, uid):
        self.put(reader, uid)
        self.take(reader, uid)

    def token(self, t):
        self.tap(self.command, token_uid(t))

    def changed(self, reader):
        """A pad's tags changed: by default whole poll rounds over every reader."""
        self.settle()

    def settle(self):
        """Enough poll rounds of every reader for every change to be reported."""
        for _ in range(self.presence.misses + 1):
            for r in range(READERS):
                self.scan(r)

    def scan(self, reader):
        """One poll of a reader: its events through the mat."""
        tags = self.on[reader]
        n = fill(self.buf, tags[:self.SLOTS + 1])
        self.presence.feed(reader, n, self.buf)
        while True:
            kind = self.presence.pop()
            if kind == NONE:
                break
            self.outcome(self.mat.on_presence(kind, self.presence.reader, self.presence.uid))

    def outcome(self, code):
        if code == READY:
            self.submit(self.mat.rec)
        elif code != NOTHING:
            self.log.append(["rejected", self.game.reason(code), self.mat.reader])

    def submit(self, rec):
        """An action record to the rules; whether they accepted it."""
        err = self.game.accept(rec)
        if err:
            self.log.append(["refused", self.game.reason(err)])
            return False
        self.log.append(self.game.VOCAB.decode(rec))
        return True

    def news(self):
        out = self.log
        self.log = []
        return out

    def prompt(self):
        """What the mat waits for: [prompt name, seat mask, shared pad]."""
        what = self.mat.prompt()
        return [self.mat.g.PROMPTS[what], self.mat.wait_seats, self.mat.wait_reader]

    # -- the firmware loop with the heap locked ---------------------------------------------
    def schedule(self, steps):
        """Precomputed poll rounds for physical changes ("put"/"take", reader, uid) and clasps
        ("clasp", switch, closed): after each change whole poll rounds over every reader, so
        the locked loop only feeds buffers that already exist."""
        on = [[] for _ in range(READERS)]
        out = []
        for what, a, b in steps:
            if what == "clasp":
                out.append((CLASP, a, b))
                continue
            if what == "put":
                on[a].append(b)
            else:
                on[a].remove(b)
            for _ in range(self.presence.misses + 1):
                for r in range(READERS):
                    buf = bytearray(len(self.buf))
                    out.append((r, fill(buf, on[r]), buf))
        return out

    def run_locked(self, rounds, polls=1):
        """The sensor-to-rules path under ``micropython.heap_lock()``: each round (reader, n,
        buf) fed ``polls`` times, or a clasp; every event through the mat, every record it makes
        to the rules, the prompt asked after each round. Returns [accepted, other]: other counts
        the mat's rejections and the rules' refusals."""
        p = self.presence
        mat = self.mat
        self.accepted = 0
        self.other = 0
        if micropython:
            micropython.heap_lock()
        try:
            for reader, n, buf in rounds:
                if reader == CLASP:
                    self._tally(mat.on_switch(n, buf))
                else:
                    for _ in range(polls):
                        p.feed(reader, n, buf)
                        while True:
                            kind = p.pop()
                            if kind == NONE:
                                break
                            self._tally(mat.on_presence(kind, p.reader, p.uid))
                mat.prompt()
        finally:
            if micropython:
                micropython.heap_unlock()
        return [self.accepted, self.other]

    def _tally(self, code):
        if code == READY and self.game.accept(self.mat.rec) == 0:
            self.accepted += 1
        elif code != NOTHING:
            self.other += 1
