"""Everything the mat senses, polled a little at a time: readers by a schedule, bag clasps.

Each ``poll()`` does one unit of work — hand on one pending presence event, or read the clasps
and sweep a few readers — so the serial link is serviced between sweeps. What a movement
means is the mat layer's business (``firmware/mat.py``); this module only feeds it. Nothing
here allocates once built.

Which readers (docs/nfc.md, "Scan schedule"): each loop step is a *sweep* (``_sweep``) of a few
pads with up to ``SWEEP_FIELDS`` fields on at once: a pad's field goes on as soon as the pad
before it has been read, so the 5.1 ms power-up guards overlap; once every pad of the sweep is
on, the first pad of the next sweep is switched on (``warm``), so its guard runs while this
sweep's last pad is read. The pads the mat's prompt awaits a tag on (``hot``:
``mat.wait_reader``, or the pads of ``mat.wait_zone`` of the seats in ``mat.wait_seats``, up to
``_HOT_MAX``) are in every sweep while they hold at most ``SWEEP_TAGS`` tags in all, else one of
them every other step. Every other pad that can be scanned (the game's other pads and the
*spare* ones, with no zone in this game's layout: a tag there only earns a ``not_now``) is in
one *cycle* (``_cycle``): first the pads holding more than ``SWEEP_TAGS`` tags (another seat's
stack or bank: *loaded*), then the others (*light*), each part in pad order, so each pad comes
round once a lap, at the same point of it (docs/performance.md, "The scheduler in detail"):
its tap waits at most a lap, whichever pad it is. Each sweep takes the cycle's next pads up to
a weight (``_take``: ``STEP_UNITS``, ``FEW_UNITS`` or ``HOT_UNITS``; a loaded pad weighs
``W_LOADED``, a light one 1). The loaded pads go one after another: a roll call lasts longer
than the guard of the pad after it, a light pad's request does not.
*One* awaited pad holding tags (the turn seat's stack, the play area) keeps its field on
(``kept``): its tags stay HALT, so one REQA (``_peek``, ``Mfrc522.arrivals``) finds a newcomer
there; it is sent at the start of each step, after each other pad of the step and between every
two tags a scan confirms (``Mfrc522.scan(peek=...)``), and a newcomer ends the step at once. Its
tags are checked (a roll call woken by WUPA, no guard) once a lap, where the light part begins
(the two guards that run meanwhile go to light pads), and every step while one of them is
missing. A tag counted gone there needs no field reset: if it still lies there HALT (its
answers lost), the next roll call's WUPA finds it again.
A pad holding tags that is not awaited (and the kept pad) is checked by a *roll call*
(``Mfrc522.roll_call``): are exactly the tags its last complete scan found still there? That
costs a short anticollision frame or two per tag instead of a SELECT pair and an HLTA (of the
tags whose CL1 neither the pad nor the deck holds twice, one in turn is asked at CL2: a tag
sharing such a CL1 is unregistered, and found within as many roll calls as there are such tags);
a newcomer is singled out by the roll call itself and handed on, and any other change (a lift, a
fault) is scanned at once; a tag missing since the last complete scan is not asked for, so the
roll calls that find the others count its misses.
Bag docks are not scanned by the schedule: what lies on a dock counts only when its clasp closes
(docs/mat-sheriff.md, cards arriving on or leaving a dock mean nothing), so when a clasp closes
its dock's tags are forgotten and it is scanned before anything else from the first switch read
that finds the clasp closed (the debounce runs meanwhile): the first complete scan (status OK,
every collision resolved) says what the bag holds, and only then is the closing handed to the
mat (docs/performance.md, "Bag clasps": 4 scans with the misses counted took the light past
60 ms); one dock a step has a health check (one register read). A closed bag cannot change:
its dock is *sealed* until the clasp opens. An awaited pad with tags, a dock, or a pad whose
roll call saw a change is scanned incrementally: its known inventory is confirmed by SELECTs,
then arrivals are looked for (``Mfrc522.scan(known=...)``).
A tag arriving while another pad (a spare pad or a dock too) still lists it makes that pad be
scanned again first, so a card moved from a pad scanned less often is not taken for one UID on
two pads.

Reader health (docs/nfc.md, "Reader health"): a reader whose ``init()`` failed, that stops
answering (``CHIP_ERR``) or that reset or vanished (TModeReg no longer what ``init()`` wrote: read
with the status registers of every exchange, so a scan or REQA returns ``CHIP_ERR`` at its first
status read; ``Mfrc522.healthy()`` for a dock, never scanned) is *down*: skipped, so it costs the others no time, and initialised
again after 1, then 16, 32 ... 1024 loop steps. A pad whose scans keep failing (one bad tag) stays
scanned; after ``_STUCK_SCANS`` failing scans in a row they count as complete, so the other tags
on it still leave and arrive. Every change of a reader's state goes to ``report(reader, state,
version)`` (the app sends a DIAG and lights the station), one per ``poll()``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from firmware.mat import Mat, NOTHING, NO_ZONE, NO_SEAT
from firmware.presence import Presence
from firmware.registry import Registry

# Private: inlined, no names on the board (tests read them from the twin host/board/sensors_layout.py).
_UID_SLOTS = const(6)  # a bag holds 5: a sixth card must be seen to be refused
_HOT_MAX = const(6)  # more awaited pads than this share the round like the others
_SWEEP_TAGS = const(2)  # awaited pads all swept every step while they hold at most SWEEP_TAGS tags
# in all (else one of them every other step: confirming their tags costs far more than the
# guards); pads holding more are "loaded"
_SWEEP_FIELDS = const(3)  # fields on at once in a sweep (supply budget: docs/hardware.md)
_NO_DOCK = const(255)
_NO_KEEP = const(255)
_SPARE = const(1)   # rare[r]
_DOCK = const(2)
_FEW_HOT = const(3)  # up to this many awaited pads: FEW_UNITS of the cycle a sweep, else HOT_UNITS
_READER_OK = const(0)    # reader states for report()
_READER_DOWN = const(1)
_READER_STUCK = const(2)  # scans keep failing: a bad tag on the pad
_STUCK_SCANS = const(3)
_RETRY_FIRST = const(16)  # loop steps before the second re-init of a down reader; doubles up to
_RETRY_MAX = const(1024)
_CLASP_STABLE = const(2)  # equal reads in a row before a clasp change counts
_BAG_SCANS = const(1)  # complete scans of a closing bag's dock that say what it holds
_PICKS = const(6)  # pads a sweep scans besides the awaited ones (``pick``)
_W_LOADED = const(4)  # a pad holding more than SWEEP_TAGS tags (a roll call: ~10 ms) weighs this
# much in a sweep's plan, another pad (a request: ~1 ms after its guard) 1
_STEP_UNITS = const(10)  # what a sweep takes from the cycle beside a kept field
_FEW_UNITS = const(3)  # ... beside up to FEW_HOT awaited pads
_HOT_UNITS = const(2)  # ... beside more
_ROLLS = const(240)  # roll calls counted modulo this: a multiple of every count of lone CL1s
# a pad can hold (1..UID_SLOTS), so each is walked at CL2 once in that many roll calls
_NONE = const(255)
# The driver's status codes (firmware/mfrc522.py, restated: tests/test_rules_literals.py).
_OK = const(0)
_COLLISION = const(4)
_CHIP_ERR = const(8)
_OVERFLOW = const(9)
_PARTIAL = const(11)
_NO_EVENT = const(0)  # firmware/presence.py's event kinds (restated, as above)
_ARRIVE = const(1)


class Sensors:
    def __init__(self, board, path):
        """``path``: the deck registry on the board's filesystem (missing or damaged:
        ``error`` says why, and the mat is off: host actions only)."""
        self.readers = board.readers
        self.switches = board.switches
        self.presence = Presence(readers=len(self.readers), slots=_UID_SLOTS)
        self.uids = bytearray(_UID_SLOTS * 7)
        self.clasp = bytearray(len(self.switches))
        self.clasp_read = bytearray(len(self.switches))  # each switch's last read
        self.clasp_same = bytearray(len(self.switches))  # how many times in a row (up to
        # CLASP_STABLE)
        self.dock = bytearray([_NO_DOCK] * len(self.switches))  # each switch's dock reader
        self.closing = bytearray(len(self.switches))  # 1 + complete dock scans due before a
        # closing clasp reaches the mat
        self.mat = None
        self.reader = 255
        self.uid = None
        self.error = None
        self.scans = 0
        n = len(self.readers)
        self.hot = bytearray(n)      # 1: the prompt awaits a tag on this pad
        self.rare = bytearray(n)     # _SPARE: no zone in the game's layout; _DOCK: a bag dock
        self.sealed = bytearray(n)   # 1: the dock of a closed clasp, not scanned
        self.next_hot = 0            # the next awaited pad to try (``_next``)
        self.next_dock = 0           # the next dock to check (``_next``)
        self.next_pad = 0            # the cycle's next pad to try, n: the next part (``_cycle``)
        self.lap = False             # the last pad ``_cycle`` gave began its light part
        self.phase = 0               # the cycle's part: its loaded pads (0), the others (1)
        self.warm = _NONE            # the pad switched on for the next sweep (``_fill``)
        self.order = bytearray(n)    # the sweep's pads in the order it reads them (``_sweep``)
        self.swept = 0               # how many
        self.turn = 0                # toggles: the sweep's step of two
        self.hot_n = 0               # how many pads are awaited
        self.kept = _NO_KEEP          # the pad whose field stays on between scans
        self.kmiss = False           # its last scan missed a known tag (a lift, maybe)
        self.kuids = bytearray(_UID_SLOTS * 7)  # newcomers on the kept pad (``_peek``)
        self.peek = self._peek       # bound once: handed to scans without allocating
        self.pick = bytearray(_PICKS)  # the pads of the next sweep
        self.lit = 0                 # the sweep's fields on, the kept one included
        self.ahead = 0               # the sweep's next pad to switch on
        self._prompt = -1  # the mat's prompt ``hot`` was computed for (``_hot_pads``)
        self.lying = 0  # tags found on the pads by the last start()
        try:
            self.registry = Registry(path)
        except ValueError as e:  # deck.DeckError: missing or damaged registry
            self.registry = None
            self.error = str(e)
        self.state = bytearray(n)     # _READER_OK / _READER_DOWN / _READER_STUCK
        self.news = bytearray(n)      # 1: state change not reported yet
        self.failed = bytearray(n)    # failing scans in a row
        self.rolls = bytearray(n)     # roll calls of the pad, modulo _ROLLS (their ``turn``)
        self.retry_at = [0] * n       # a down reader's next re-init: at this step
        self.backoff = [0] * n        # then this many steps later
        self.steps = 0
        self.down = 0                 # readers down
        self.report = None            # report(reader, state, version), set by the app
        for r in range(n):
            if self.readers[r].init() != _OK:
                self._set(r, _READER_DOWN)
        for i in range(len(self.switches)):
            self.clasp[i] = self.clasp_read[i] = self.switches[i].value()

    def start(self, game, layout):
        """Interpret movements for ``game`` with the zone ``layout`` (None: host actions only).

        Before that, one full poll round *settles*: what lies on the pads now is the table as it
        is (discs on their stacks after a power cut), handed to the mat as present, not moves.
        The caller announces the game after this returns, so every later gesture counts."""
        self.presence.clear()
        self.mat = None
        self._release()
        self._cool()
        for r in range(len(self.readers)):
            self.news[r] = 1 if self.state[r] else 0  # a new game hears of the faults again
        self.lying = 0
        for r in range(len(self.readers)):
            self.sealed[r] = 0
            self.rare[r] = 0
        for i in range(len(self.switches)):
            self.dock[i] = _NO_DOCK
            self.closing[i] = 0
        if layout is not None and self.registry is not None:
            m = self.mat = Mat(game, layout, self.registry, self.presence)
            p = self.presence
            for r in range(len(self.readers)):
                self.rare[r] = _SPARE if r >= len(m.zone_of) or m.zone_of[r] == NO_ZONE else 0
                self._scan(r)
                while p.pop() != _NO_EVENT:
                    self.lying += 1
                    m.on_present(p.reader, p.uid)
            for i in range(len(self.switches)):
                if i < len(m.dock_seat) and m.dock_seat[i] != NO_SEAT:
                    d = self.dock[i] = m.dock_reader[i]
                    self.rare[d] = _DOCK
                    self.sealed[d] = self.clasp[i]  # just read: a closed bag is as it is
        return self.mat

    def poll(self):
        """One unit of sensing. Returns NOTHING, READY (the action is in ``mat.rec``) or a reason
        code; ``reader`` (and ``uid`` for a tag) say where."""
        mat = self.mat
        if mat is None:
            return NOTHING
        p = self.presence
        kind = _NO_EVENT
        for i in range(len(self.closing)):
            if self.closing[i] == 1:
                break  # a bag read: its clasp is heard before the events the read made
        else:
            kind = p.pop()
        if kind != _NO_EVENT:
            if kind == _ARRIVE:
                other = p.find(p.uid, p.reader, True)
                if other >= 0 and self.state[other] != _READER_DOWN:
                    # seen on another pad at its last scan, which may be a while ago (pads
                    # nobody waits on are scanned less often): look there again first, so a
                    # card moved from pad to pad is not taken for one UID on two pads
                    self._cool()
                    self._scan(other)
            self.reader = p.reader
            self.uid = p.uid
            code = mat.on_presence(kind, p.reader, p.uid)
            self.reader = mat.reader
            return code
        for i in range(len(self.switches)):  # debounced clasp changes, one at a time
            v = self.switches[i].value()
            if v != self.clasp_read[i]:
                self.clasp_read[i] = v
                self.clasp_same[i] = 1
            elif self.clasp_same[i] < _CLASP_STABLE:
                self.clasp_same[i] += 1
            d = self.dock[i]
            if d != _NO_DOCK and not self.clasp[i]:
                # an open bag's clasp: the bag is read from the first read that finds it closed,
                # while the debounce runs; a bounce open again stops that
                if not v:
                    self.closing[i] = 0
                elif not self.closing[i]:
                    self.closing[i] = 1 + _BAG_SCANS
                    if self.state[d] != _READER_DOWN:  # else what was read last is all there is
                        p.forget(d)
            if self.clasp_same[i] < _CLASP_STABLE or v == self.clasp[i] or self.closing[i] > 1:
                continue  # no change yet, or the bag not read yet
            self.clasp[i] = v
            self.closing[i] = 0
            if d != _NO_DOCK:
                self.sealed[d] = v  # a closed bag cannot change: not scanned until it opens
            self.uid = None
            code = mat.on_switch(i, v == 1)
            self.reader = mat.reader
            return code
        if self.report is not None:  # one pending reader state change
            for r in range(len(self.news)):
                if self.news[r]:
                    self.news[r] = 0
                    self.report(r, self.state[r], self.readers[r].version)
                    break
        r = self._pick()
        if r >= 0:
            self._cool()
            self._scan(r)
        return NOTHING

    # -- reader health --------------------------------------------------------------------
    def _set(self, r, state):
        if self.state[r] != state:
            if state == _READER_DOWN:
                self.down += 1
                self.retry_at[r] = self.steps + 1
                self.backoff[r] = _RETRY_FIRST
            elif self.state[r] == _READER_DOWN:
                self.down -= 1
            self.state[r] = state
            self.news[r] = 1

    def _hot_pads(self):
        """Recompute ``hot`` when the mat's prompt changed."""
        m = self.mat
        prompt = m.wait_seats << 16 | m.wait_zone << 8 | m.wait_reader  # zone, pad: bytes
        if prompt == self._prompt:
            return
        self._prompt = prompt
        count = 0
        for r in range(len(self.hot)):
            h = 0
            if m.wait_reader != NO_ZONE:
                h = 1 if r == m.wait_reader else 0
            elif r < len(m.zone_of) and m.zone_of[r] == m.wait_zone and m.seat_of[r] != NO_SEAT:
                h = (m.wait_seats >> m.seat_of[r]) & 1
            if self.rare[r] == _DOCK:
                h = 0  # awaited for its clasp, read when it closes
            self.hot[r] = h
            count += h
        if count > _HOT_MAX:
            for r in range(len(self.hot)):
                self.hot[r] = 0
            count = 0
        self.hot_n = count

    def _pick(self):
        """The next reader to scan (module docstring), or -1 when none can be scanned."""
        n = len(self.readers)
        self.steps += 1
        if self.down:
            for r in range(n):  # initialise again the down readers whose back-off is over
                if self.state[r] == _READER_DOWN and self.steps >= self.retry_at[r]:
                    if self.readers[r].init() == _OK:
                        self.failed[r] = 0
                        self._set(r, _READER_OK)
                    else:
                        self.retry_at[r] = self.steps + self.backoff[r]
                        if self.backoff[r] < _RETRY_MAX:
                            self.backoff[r] *= 2
            if self.down == n:
                return -1
        for i in range(len(self.closing)):
            if self.closing[i] > 1:  # a bag being closed is read first
                d = self.dock[i]
                if self.state[d] != _READER_DOWN:
                    return d
                self.closing[i] = 1  # nothing to read it with: the closing counts as it is
        self._hot_pads()
        r = self._next(True)  # a bag dock's health check, one a step
        if r >= 0 and not self.readers[r].healthy():  # (one register read: docks are not scanned)
            self._set(r, _READER_DOWN)
        k = _NO_KEEP  # the awaited pad, when there is one
        if self.hot_n == 1:
            for r in range(n):
                if self.hot[r]:
                    k = r
        if k != _NO_KEEP and self.presence.count(k) and not self.sealed[k] \
                and self.state[k] != _READER_DOWN:
            # One awaited pad holding tags: its field stays on, so its tags stay HALT and one
            # REQA finds a newcomer (``_peek``) at the start of each step, after each pad of the
            # step and between every two tags a scan confirms (``Mfrc522.scan(peek=...)``); a
            # newcomer ends the step at once. Each step reads STEP_UNITS of the cycle of the
            # other pads; the kept pad's tags are checked (a roll call woken by WUPA, no guard:
            # lifts) once a lap, where the cycle's light part begins, and every step while one
            # of them is missing.
            if self.kept != k:
                self._release()
                self.kept = k
            if not self.readers[k].antenna_is_on():
                return k  # a full scan switches it on
            self._take(k if self.kmiss else -1, self._suspect(), _STEP_UNITS, k)
            self._sweep(False)
            return -1
        self._release()
        tags = 0  # on the awaited pads
        for r in range(n):
            if self.hot[r]:
                tags += self.presence.count(r)
        every = tags <= _SWEEP_TAGS
        t = self.turn = 0 if self.turn else 1
        one = -1 if every or t else self._next(False)
        self._take(one, self._suspect(), _HOT_UNITS if self.hot_n > _FEW_HOT else _FEW_UNITS, -1)
        self._sweep(every)
        return -1

    def _suspect(self):
        """A pad nobody awaits whose last scan missed one of its tags (the first from the round's
        cursor), or -1: read in the next step instead of its turn, so the misses that make a
        lift count come a step apart, not a round apart (docs/performance.md, "Lifts")."""
        n = len(self.readers)
        at = self.next_pad
        for i in range(n):
            r = (at + i) % n
            if not (self.hot[r] or self.sealed[r] or self.rare[r] == _DOCK) and r != self.kept \
                    and self.state[r] != _READER_DOWN and self.presence.missing(r):
                return r
        return -1

    def _peek(self):
        """One REQA on the kept field (``Mfrc522.arrivals``): True when a tag arrived there."""
        k = self.kept
        if k == _NO_KEEP:
            return False
        reader = self.readers[k]
        n = reader.arrivals(self.kuids)
        if reader.status == _CHIP_ERR:
            self._release()
            self._set(k, _READER_DOWN)
            return False
        self.presence.feed(k, n, self.kuids, False)
        return n > 0

    def _release(self):
        """Switch off the field kept on, if any."""
        if self.kept != _NO_KEEP:
            self.readers[self.kept].antenna_off()
            self.kept = _NO_KEEP

    def _take(self, first, suspect, units, lap):
        """Plan the next sweep (``pick``, in the order it reads them): ``first`` and ``suspect``
        (-1: none), then the next pads of the cycle (``_cycle``) until they weigh ``units`` (a
        pad holding more than ``SWEEP_TAGS`` tags ``W_LOADED``, another 1); pad ``lap`` (-1:
        none) where the cycle's light part begins, if not planned yet."""
        p = self.pick
        i = 0
        w = 0
        if first >= 0:  # an awaited pad: beside the cycle's share
            p[0] = first
            i = 1
        if suspect >= 0 and suspect != first:
            p[i] = suspect
            i += 1
            w += self._weight(suspect)
        while i < _PICKS - 1 and w < units:  # room for ``lap`` and the pad after it
            r = self._cycle(True)
            if r < 0 or self._picked(r, i):
                break
            if self.lap and lap >= 0 and not self._picked(lap, i):
                p[i] = lap
                i += 1
            p[i] = r
            i += 1
            w += self._weight(r)
        while i < _PICKS:
            p[i] = _NONE
            i += 1

    def _weight(self, r):
        return _W_LOADED if self.presence.count(r) > _SWEEP_TAGS else 1

    def _picked(self, r, n):
        for i in range(n):
            if self.pick[i] == r:
                return True
        return False

    def _cycle(self, advance):
        """The next pad of the cycle (or -1): every pad nobody awaits that is not the kept one, a
        dock, sealed or down, the round's and the spare ones alike, so each comes round once a
        lap: first those holding more than ``SWEEP_TAGS`` tags, then the others, each part in
        pad order (a roll call hides the guard of the pad after it, a light pad's read does not,
        so the loaded pads go one after the other). ``advance``: move on past it (``lap``: it
        began the light part, once a lap)."""
        n = len(self.readers)
        at = self.next_pad
        for i in range(2 * n):
            turn = self.phase + (at + i) // n  # parts begun since the last pad given
            r = (at + i) % n
            if r != self.kept and not (self.hot[r] or self.sealed[r] or self.rare[r] == _DOCK) \
                    and self.state[r] != _READER_DOWN \
                    and (self.presence.count(r) <= _SWEEP_TAGS) == turn % 2:
                if advance:
                    self.lap = turn % 2 == 1 and turn > self.phase  # the light part begins
                    self.phase = turn % 2
                    self.next_pad = r + 1  # up to n: the next part begins there
                return r
        return -1

    def _sweep(self, every):
        """Scan in one step every awaited pad (``every``) and the pads in ``pick``, with up to
        ``SWEEP_FIELDS`` fields on at once, the kept one included: each pad's field goes on as
        soon as there is room (as soon as the pad before has been read), so the tags' 5.1 ms
        power-up guards (ISO/IEC 14443-3 §5.2.1, on each chip's own timer) run while other pads
        are read and during the look at the kept field after each pad (docs/nfc.md, "Scan
        schedule"; docs/hardware.md: why no more fields at once). A tag arriving (here, or on
        the kept pad between two pads) or a bag's clasp closing ends the step: the fields switched
        on ahead go off again, and the arrival or the bag's reading comes at once."""
        n = len(self.readers)
        k = self.kept
        w = self.warm
        self.warm = _NONE
        self.lit = 1 if k != _NO_KEEP else 0  # fields on, the kept one included
        if w != _NONE:
            if self._swept(w, every):
                self.lit += 1
            else:  # planned otherwise since its field went on
                self.readers[w].antenna_off()
        # the order: the picks as planned, then the other awaited pads
        m = 0
        for i in range(_PICKS + n):
            r = self.pick[i] if i < _PICKS else i - _PICKS
            if r != _NONE and self._swept(r, every) and (i < _PICKS or not self._picked(r, _PICKS)):
                self.order[m] = r
                m += 1
        self.swept = m
        self.ahead = 0  # the next pad of ``order`` to switch on
        left = m
        if k != _NO_KEEP and (not m or self.order[0] != k):  # a look first, as the guards run
            self._fill(k)
            if self._peek():
                left = -1
        for i in range(m):
            if left < 0:
                break
            r = self.order[i]
            self._fill(k)
            if r != k:
                self.lit -= 1  # its field goes off with its scan
            left -= 1
            if self._scan(r) or (left > 0 and (self._fill(k) or self._peek())) \
                    or self._bag_closing():
                left = -1
        if left < 0:  # the fields switched on ahead go off again
            for i in range(self.ahead):
                q = self.order[i]
                if q != k and self.readers[q].antenna_is_on():
                    self.readers[q].antenna_off()
            self._cool()

    def _cool(self):
        """Switch off the field switched on for the next sweep, if any."""
        if self.warm != _NONE:
            self.readers[self.warm].antenna_off()
            self.warm = _NONE

    def _bag_closing(self):
        """Whether an open bag's clasp reads closed: the step ends there, so its bag is read at
        once instead of after the rest of the sweep (docs/performance.md, "Bag clasps")."""
        for i in range(len(self.switches)):
            if self.dock[i] != _NO_DOCK and not self.clasp[i] and not self.closing[i] \
                    and self.switches[i].value():
                return True
        return False

    def _fill(self, k):
        """Switch on the fields of the next pads of the sweep (``k``: the kept one, already on)
        while there is room; with room left once they all are, the field of the cycle's next pad
        (``warm``), so the next sweep's first guard runs while this one's last pad is read."""
        while self.lit < _SWEEP_FIELDS and self.ahead < self.swept:
            q = self.order[self.ahead]
            if not self.readers[q].antenna_is_on():
                self.readers[q].antenna_on()
                self.lit += 1
            self.ahead += 1
        if self.lit < _SWEEP_FIELDS and self.warm == _NONE and self.ahead == self.swept:
            q = self._cycle(False)
            if q >= 0 and q != k and not self._picked(q, _PICKS):
                self.readers[q].antenna_on()
                self.lit += 1
                self.warm = q

    def _swept(self, r, every):
        p = self.pick
        return ((every and self.hot[r]) or r == p[0] or r == p[1] or r == p[2] or r == p[3]
                or r == p[4] or r == p[5]) \
            and self.state[r] != _READER_DOWN

    def _next(self, dock):
        """The next awaited pad (``dock``: the next bag dock) that can be scanned, or -1."""
        n = len(self.readers)
        at = self.next_dock if dock else self.next_hot
        for i in range(n):
            r = (at + i) % n
            if (self.rare[r] == _DOCK if dock else self.hot[r]) and not self.sealed[r] \
                    and self.state[r] != _READER_DOWN:
                if dock:
                    self.next_dock = (r + 1) % n
                else:
                    self.next_hot = (r + 1) % n
                return r
        return -1

    def _scan(self, r):
        """Scan pad ``r``; True when a tag arrived, on it or (``_peek`` between its tags) on the
        kept pad: the step ends there."""
        reader = self.readers[r]
        keep = r == self.kept
        reader.antenna_on()
        st = _COLLISION
        if self.presence.count(r) and (keep or not self.hot[r]) and self.rare[r] != _DOCK:
            # exactly the tags its last complete scan found (a tag missing since: one more miss)?
            n = self.presence.known(r, self.uids, True)
            t = self.rolls[r] = (self.rolls[r] + 1) % _ROLLS
            st = reader.roll_call(self.uids, n, keep, self.registry, t)
            if reader.uid_len:  # a newcomer, singled out: hand it on, the step ends
                if not keep:
                    reader.antenna_off()
                n = self.presence.count(r)
                self.presence.feed(r, 1, reader.uid, False)
                return self.presence.count(r) > n  # not when the pad had no slot left for it
        known = self.presence.known(r, self.uids)
        if st == _OK:
            n = self.presence.known(r, self.uids, True)
        elif st != _CHIP_ERR:  # something changed (or never looked): scan
            n = reader.scan(self.uids, None, 0, known, keep,
                            None if keep or self.kept == _NO_KEEP else self.peek)
            st = reader.status
        if not keep:
            reader.antenna_off()
        self.scans += 1
        if st == _CHIP_ERR:
            self._set(r, _READER_DOWN)
            return False
        if st == _PARTIAL:  # cut short by a newcomer: not every tag was listed
            self.presence.feed(r, n, self.uids, False)
            return True
        ok = st == _OK
        if ok:
            self.failed[r] = 0
            self._set(r, _READER_OK)
        elif self.failed[r] < _STUCK_SCANS:
            self.failed[r] += 1
        if self.failed[r] >= _STUCK_SCANS:
            self._set(r, _READER_STUCK)
            ok = st != _OVERFLOW  # what the failing scan found is all that can be read
        self.presence.feed(r, n, self.uids, ok)
        if keep:
            self.kmiss = ok and n < known
        if ok:
            for i in range(len(self.closing)):
                if self.closing[i] > 1 and self.dock[i] == r:
                    self.closing[i] -= 1
        return n > known
