"""Everything the mat senses, polled a little at a time: readers by a schedule, bag clasps.

Each ``poll()`` does one unit of work — hand on one pending presence event, or read the clasps
and scan one reader — so the serial link is serviced between readers. What a movement
means is the mat layer's business (``firmware/mat.py``); this module only feeds it. Nothing
here allocates once built.

Which reader (docs/nfc.md, "Scan schedule"): the pads the mat's prompt awaits a tag on (``hot``:
``mat.wait_reader``, or the pads of ``mat.wait_zone`` of the seats in ``mat.wait_seats``) take one
scan in ``HOT_EVERY`` when there are at most ``HOT_MAX`` of them (more gain nothing); the other
pads share the rest round robin. A pad with tags is scanned incrementally: its known inventory is
confirmed by SELECTs, then arrivals are looked for (``Mfrc522.scan(known=...)``). A tag arriving
while another pad still lists it makes that pad be scanned again first, so a card moved from a
pad scanned less often is not taken for one UID on two pads.

Reader health (docs/nfc.md, "Reader health"): a reader whose ``init()`` failed, that stops
answering (``CHIP_ERR``) or that reset or vanished (``Mfrc522.healthy()`` checked before each
scan, one SPI transaction) is *down*: skipped, so it costs the others no time, and initialised
again after 1, then 16, 32 ... 1024 loop steps. A pad whose scans keep failing (one bad tag) stays
scanned; after ``STUCK_SCANS`` failing scans in a row they count as complete, so the other tags
on it still leave and arrive. Every change of a reader's state goes to ``report(reader, state,
version)`` (the app sends a DIAG and lights the station), one per ``poll()``.
"""
from firmware.drivers import mfrc522
from firmware.mat import Mat, NOTHING, NO_ZONE, NO_SEAT
from firmware.presence import Presence, NONE, ARRIVE
from firmware.registry import Registry

UID_SLOTS = 6  # a bag holds 5: a sixth card must be seen to be refused
HOT_MAX = 2         # more awaited pads than this share the round like the others
HOT_EVERY = 2       # awaited pads take one scan in HOT_EVERY
READER_OK = 0      # reader states for report()
READER_DOWN = 1
READER_STUCK = 2   # scans keep failing: a bad tag on the pad
STUCK_SCANS = 3
RETRY_FIRST = 16   # loop steps before the second re-init of a down reader; doubles up to
RETRY_MAX = 1024
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
        self.last_reader = 0  # the reader scanned last
        n = len(self.readers)
        self.hot = bytearray(n)      # 1: the prompt awaits a tag on this pad
        self.next_hot = 0
        self.turn = 0                # scans since the last hot one
        self._ws = self._wz = self._wr = -1  # the prompt ``hot`` was computed for
        self.lying = 0  # tags found on the pads by the last start()
        try:
            self.registry = Registry(registry_path)
        except ValueError as e:  # deck.DeckError: missing or damaged registry
            self.registry = None
            self.error = str(e)
        self.state = bytearray(n)     # READER_OK / READER_DOWN / READER_STUCK
        self.news = bytearray(n)      # 1: state change not reported yet
        self.failed = bytearray(n)    # failing scans in a row
        self.retry_at = [0] * n       # step of the next re-init of a down reader
        self.backoff = [0] * n
        self.steps = 0
        self.down = 0                 # readers down
        self.report = None            # report(reader, state, version), set by the app
        for r in range(n):
            if self.readers[r].init() != mfrc522.OK:
                self._set(r, READER_DOWN)
        for i in range(len(self.switches)):
            self.clasp[i] = self.clasp_seen[i] = self.switches[i].value()

    def start(self, game, layout):
        """Interpret movements for ``game`` with the zone ``layout`` (None: host actions only).

        Before that, one full poll round *settles*: what lies on the pads now is the table as it
        is (discs on their stacks after a power cut), handed to the mat as present, not moves.
        The caller announces the game after this returns, so every later gesture counts."""
        self.presence.clear()
        self.mat = None
        for r in range(len(self.readers)):
            self.news[r] = 1 if self.state[r] else 0  # a new game hears of the faults again
        self.lying = 0
        if layout is not None and self.registry is not None:
            self.mat = Mat(game, layout, self.registry, self.presence)
            p = self.presence
            for r in range(len(self.readers)):
                self._scan(r)
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
            if kind == ARRIVE:
                other = p.find(p.uid, p.reader, True)
                if other >= 0 and self.state[other] != READER_DOWN:
                    # seen on another pad at its last scan, which may be a while ago (pads
                    # nobody waits on are scanned less often): look there again first, so a
                    # card moved from pad to pad is not taken for one UID on two pads
                    self._scan(other)
            self.reader = p.reader
            self.uid = p.uid
            code = mat.on_presence(kind, p.reader, p.uid)
            self.reader = mat.reader
            return code
        code = self._clasps()
        if code != NOTHING:
            return code
        self._tell()
        r = self._pick()
        if r >= 0:
            self._scan(r)
        return NOTHING

    # -- reader health --------------------------------------------------------------------
    def _set(self, r, state):
        if self.state[r] != state:
            if state == READER_DOWN:
                self.down += 1
                self.retry_at[r] = self.steps + 1
                self.backoff[r] = RETRY_FIRST
            elif self.state[r] == READER_DOWN:
                self.down -= 1
            self.state[r] = state
            self.news[r] = 1

    def _tell(self):
        """Report one pending state change."""
        if self.report is None:
            return
        for r in range(len(self.news)):
            if self.news[r]:
                self.news[r] = 0
                self.report(r, self.state[r], self.readers[r].version)
                return

    def _revive(self):
        """Initialise again the down readers whose back-off is over."""
        for r in range(len(self.readers)):
            if self.state[r] == READER_DOWN and self.steps >= self.retry_at[r]:
                if self.readers[r].init() == mfrc522.OK:
                    self.failed[r] = 0
                    self._set(r, READER_OK)
                else:
                    self.retry_at[r] = self.steps + self.backoff[r]
                    if self.backoff[r] < RETRY_MAX:
                        self.backoff[r] *= 2

    def _hot_pads(self):
        """Recompute ``hot`` when the mat's prompt changed."""
        m = self.mat
        if m.wait_seats == self._ws and m.wait_zone == self._wz and m.wait_reader == self._wr:
            return
        self._ws = m.wait_seats
        self._wz = m.wait_zone
        self._wr = m.wait_reader
        count = 0
        for r in range(len(self.hot)):
            h = 0
            if m.wait_reader != NO_ZONE:
                h = 1 if r == m.wait_reader else 0
            elif r < len(m.zone_of) and m.zone_of[r] == m.wait_zone and m.seat_of[r] != NO_SEAT:
                h = (m.wait_seats >> m.seat_of[r]) & 1
            self.hot[r] = h
            count += h
        if count > HOT_MAX:
            for r in range(len(self.hot)):
                self.hot[r] = 0

    def _pick(self):
        """The next reader to scan (module docstring), or -1 when every reader is down."""
        n = len(self.readers)
        self.steps += 1
        if self.down:
            self._revive()
            if self.down == n:
                return -1
        self._hot_pads()
        self.turn += 1
        if self.turn >= HOT_EVERY:
            self.turn = 0
            r = self._next_hot()
            if r >= 0:
                return r
        for i in range(n):
            r = (self.next_reader + i) % n
            if not self.hot[r] and self.state[r] != READER_DOWN:
                self.next_reader = (r + 1) % n
                return r
        return self._next_hot()  # every pad left is awaited: hot turns only

    def _next_hot(self):
        n = len(self.readers)
        for i in range(n):
            r = (self.next_hot + i) % n
            if self.hot[r] and self.state[r] != READER_DOWN:
                self.next_hot = (r + 1) % n
                return r
        return -1

    def _scan(self, r):
        self.last_reader = r
        reader = self.readers[r]
        if not reader.healthy():
            self._set(r, READER_DOWN)
            return
        reader.antenna_on()
        n = reader.scan(self.uids, None, 0, self.presence.known(r, self.uids))
        reader.antenna_off()
        self.scans += 1
        st = reader.status
        if st == mfrc522.CHIP_ERR:
            self._set(r, READER_DOWN)
            return
        ok = st == mfrc522.OK
        if ok:
            self.failed[r] = 0
            self._set(r, READER_OK)
        elif self.failed[r] < STUCK_SCANS:
            self.failed[r] += 1
        if self.failed[r] >= STUCK_SCANS:
            self._set(r, READER_STUCK)
            ok = st != mfrc522.OVERFLOW  # what the failing scan found is all that can be read
        self.presence.feed(r, n, self.uids, ok)

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
