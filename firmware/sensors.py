"""Everything the mat senses, polled a little at a time: readers round robin, bag clasps.

Each ``poll()`` does one unit of work — hand on one pending presence event, or read the clasps
and scan the next reader — so the serial link is serviced between readers. What a movement
means is the mat layer's business (``firmware/mat.py``); this module only feeds it. Nothing
here allocates once built.
"""
from firmware.drivers import mfrc522
from firmware.mat import Mat, NOTHING
from firmware.presence import Presence, NONE
from firmware.registry import Registry

UID_SLOTS = 6  # a bag holds 5: a sixth card must be seen to be refused
CLASP_STABLE = 2  # equal reads in a row before a clasp change counts


class Sensors:
    def __init__(self, board, registry_path):
        """``registry_path``: the deck registry on the board's filesystem (missing or damaged:
        ``error`` says why, and the mat is off: host actions only)."""
        self.board = board
        self.readers = board.readers
        self.switches = board.switches
        self.presence = Presence(readers=len(self.readers), slots=UID_SLOTS)
        self.uids = bytearray(UID_SLOTS * 7)
        self.next_reader = 0
        self.clasp = bytearray(len(self.switches))
        self.clasp_seen = bytearray(len(self.switches))
        self.clasp_count = bytearray(len(self.switches))
        self.mat = None
        self.reader = 255
        self.uid = None
        self.error = None
        self.scans = 0
        self.lying = 0  # tags found on the pads by the last start()
        try:
            self.registry = Registry(registry_path)
        except ValueError as e:  # deck.DeckError: missing or damaged registry
            self.registry = None
            self.error = str(e)
        for r in self.readers:
            r.init()
        for i in range(len(self.switches)):
            self.clasp[i] = self.clasp_seen[i] = self.switches[i].value()

    def start(self, game, layout):
        """Interpret movements for ``game`` with the zone ``layout`` (None: host actions only).

        Before that, one full poll round *settles*: what lies on the pads now is the table as it
        is (discs on their stacks after a power cut), handed to the mat as present, not moves.
        The caller announces the game after this returns, so every later gesture counts."""
        self.presence.clear()
        self.mat = None
        self.lying = 0
        if layout is not None and self.registry is not None:
            self.mat = Mat(game, layout, self.registry, self.presence)
            p = self.presence
            for _ in range(len(self.readers)):
                self._scan()
                while p.pop() != NONE:
                    self.lying += 1
                    self.mat.on_present(p.reader, p.uid)
        return self.mat

    def poll(self):
        """One unit of sensing. Returns NOTHING, READY (the action is in ``mat.rec``) or a reason
        code; ``reader`` (and ``uid`` for a tag) say where."""
        mat = self.mat
        if mat is None:
            return NOTHING
        p = self.presence
        kind = p.pop()
        if kind != NONE:
            self.reader = p.reader
            self.uid = p.uid
            code = mat.on_presence(kind, p.reader, p.uid)
            self.reader = mat.reader
            return code
        code = self._clasps()
        if code != NOTHING:
            return code
        self._scan()
        return NOTHING

    def _scan(self):
        r = self.next_reader
        self.next_reader = (r + 1) % len(self.readers)
        reader = self.readers[r]
        reader.antenna_on()
        n = reader.scan(self.uids)
        reader.antenna_off()
        self.scans += 1
        self.presence.feed(r, n, self.uids, reader.status == mfrc522.OK)

    def _clasps(self):
        """Debounced clasp changes, one at a time, to the mat."""
        for i in range(len(self.switches)):
            v = self.switches[i].value()
            if v != self.clasp_seen[i]:
                self.clasp_seen[i] = v
                self.clasp_count[i] = 1
            elif self.clasp_count[i] < CLASP_STABLE:
                self.clasp_count[i] += 1
            if self.clasp_count[i] >= CLASP_STABLE and v != self.clasp[i]:
                self.clasp[i] = v
                self.uid = None
                code = self.mat.on_switch(i, v == 1)
                self.reader = self.mat.reader
                return code
        return NOTHING
