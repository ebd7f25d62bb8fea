"""Which tags lie on which reader: scan results -> debounced arrive / leave events.

A tag **arrives on its first read**: the MFRC522 driver only reports a UID after SELECT was
answered with a CRC-valid SAK by the tag owning exactly that UID (docs/nfc.md, "Never a wrong
UID"), so a single read is never a ghost, and waiting for a second read would only add a
second visit of the pad to every tap. Reads are lost, though (a tag at the edge of the field, a
collision in a bag), so a tag **leaves only after ``misses`` consecutive complete scans without
it** (default 3; how long that takes depends on the scan schedule: docs/performance.md,
"Latency (timing model)"): a flicker never looks like a lift. A scan that ended
in an error (``complete=False``) may have missed tags, so it adds arrivals but counts no misses.

Per reader up to ``slots`` tags (a merchant bag holds 5). Events go to a preallocated ring the
caller drains with ``pop()``; each event carries its own copy of the UID, so a slot can be
reused by the next scan before the event is read. Nothing allocates after construction.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# Event kinds (private: no name on the board; tests and host tools read them from the generated
# twin host/board/presence_layout.py).
_NONE = const(0)
_ARRIVE = const(1)
_LEAVE = const(2)
_UID_LEN = const(7)  # shared_rules.deck.UID_LEN (tests/test_rules_literals.py)
_EV = const(9)  # an event in the ring: reader, kind, UID


class Presence:
    def __init__(self, readers=16, slots=5, misses=3, size=32):
        """``size``: events the ring holds."""
        if misses < 1 or misses > 250 or slots < 1 or readers < 1 or size < 1:
            raise ValueError("presence: readers, slots, ring size >= 1 and misses 1..250")
        self.readers = readers
        self.slots = slots
        self.misses = misses
        self._uids = bytearray(readers * slots * _UID_LEN)
        # 0 = free slot; 1 = seen in the reader's last complete scan; 1 + k = k misses in a row.
        self._age = bytearray(readers * slots)
        self._seen = bytearray(slots)
        self._ring = bytearray(size * _EV)
        self._head = 0
        self._n = 0  # events in the ring
        self.dropped = 0   # events lost because the ring was full (drain after every feed)
        self.crowded = 0   # tags not tracked because a reader's slots were all taken
        self.reader = 0    # set by pop()
        self.uid = bytearray(_UID_LEN)

    def feed(self, reader, n, uids, complete=True):
        """One scan of ``reader``: ``n`` UIDs in 7-byte slots of ``uids`` (as ``Mfrc522.scan``).

        ``complete``: the scan ended normally (driver status OK); otherwise absent tags keep
        their state. A bad reader index or count is ignored.
        """
        if not 0 <= reader < self.readers or n < 0 or n * _UID_LEN > len(uids):
            return
        base = reader * self.slots
        seen = self._seen
        for s in range(self.slots):
            seen[s] = 0
        for i in range(n):
            off = i * _UID_LEN
            s = free = -1  # the slot holding it; the first free one
            for k in range(self.slots):
                if not self._age[base + k]:
                    if free < 0:
                        free = k
                elif self._same(uids, off, self._uids, (base + k) * _UID_LEN):
                    s = k
                    break
            if s < 0:
                s = free
                if s < 0:
                    self.crowded += 1
                    continue
                self._copy(uids, off, self._uids, (base + s) * _UID_LEN)
                self._push(reader, _ARRIVE, uids, off)
            self._age[base + s] = 1
            seen[s] = 1
        if not complete:
            return
        for s in range(self.slots):
            a = self._age[base + s]
            if a and not seen[s]:
                if a >= self.misses:
                    self._age[base + s] = 0
                    self._push(reader, _LEAVE, self._uids, (base + s) * _UID_LEN)
                else:
                    self._age[base + s] = a + 1

    def pop(self):
        """The oldest event's kind (ARRIVE/LEAVE; NONE when empty); sets ``reader`` and ``uid``."""
        if not self._n:
            return _NONE
        at = self._head * _EV
        self.reader = self._ring[at]
        kind = self._ring[at + 1]
        self._copy(self._ring, at + 2, self.uid, 0)
        self._head = (self._head + 1) % (len(self._ring) // _EV)
        self._n -= 1
        return kind

    def find(self, uid, skip, fresh=False):
        """A reader other than ``skip`` holding ``uid`` (seen in its last scan if ``fresh``), or -1."""
        for r in range(self.readers):
            if r == skip:
                continue
            base = r * self.slots
            for s in range(self.slots):
                a = self._age[base + s]
                if a and (a == 1 or not fresh) and self._same(uid, 0, self._uids, (base + s) * _UID_LEN):
                    return r
        return -1

    def copy_uid(self, reader, slot, out):
        """Copy the UID held in a slot of a reader into ``out``; False if the slot is free.
        (A bag's content at clasp time: every slot of the dock's reader.)"""
        i = reader * self.slots + slot
        if not self._age[i]:
            return False
        self._copy(self._uids, i * _UID_LEN, out, 0)
        return True

    def known(self, reader, out, fresh=False):
        """Copy the UIDs tracked on ``reader`` into the 7-byte slots of ``out`` (as many as fit,
        for ``Mfrc522.scan(known=...)``); return how many. ``fresh``: only those seen in its
        last complete scan (``Mfrc522.roll_call``: the set a scan without change would find)."""
        n = 0
        cap = len(out) // _UID_LEN
        base = reader * self.slots
        for s in range(self.slots):
            a = self._age[base + s]
            if a and (a == 1 or not fresh) and n < cap:
                self._copy(self._uids, (base + s) * _UID_LEN, out, n * _UID_LEN)
                n += 1
        return n

    def missing(self, reader):
        """Whether a tag tracked on ``reader`` was missed by its last complete scan (a lift,
        maybe: ``misses`` in a row make it leave)."""
        base = reader * self.slots
        for s in range(self.slots):
            if self._age[base + s] > 1:
                return True
        return False

    def count(self, reader):
        n = 0
        for s in range(self.slots):
            if self._age[reader * self.slots + s]:
                n += 1
        return n

    def forget(self, reader):
        """Forget the tags on ``reader``, no events (a bag's dock when its clasp closes: its next
        complete scan says what the bag holds)."""
        base = reader * self.slots
        for s in range(self.slots):
            self._age[base + s] = 0

    def clear(self):
        """Forget every tag and event (the next scans report everything as arriving)."""
        for i in range(len(self._age)):
            self._age[i] = 0
        self._n = 0

    # -- helpers ------------------------------------------------------------------------
    def _push(self, reader, kind, src, off):
        cap = len(self._ring) // _EV
        if self._n == cap:
            self.dropped += 1
            return
        at = ((self._head + self._n) % cap) * _EV
        self._ring[at] = reader
        self._ring[at + 1] = kind
        self._copy(src, off, self._ring, at + 2)
        self._n += 1

    @staticmethod
    def _same(a, a_off, b, b_off):
        for i in range(_UID_LEN):
            if a[a_off + i] != b[b_off + i]:
                return False
        return True

    @staticmethod
    def _copy(src, off, dst, at):
        for i in range(_UID_LEN):
            dst[at + i] = src[off + i]
