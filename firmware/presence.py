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
from shared_rules.deck import UID_LEN

NONE = 0
ARRIVE = 1
LEAVE = 2
_EV = 2 + UID_LEN  # reader, kind, UID


class Presence:
    def __init__(self, readers=16, slots=5, misses=3, ring=32):
        if misses < 1 or misses > 250 or slots < 1 or readers < 1 or ring < 1:
            raise ValueError("presence: readers, slots, ring >= 1 and misses 1..250")
        self.readers = readers
        self.slots = slots
        self.misses = misses
        self._uids = bytearray(readers * slots * UID_LEN)
        # 0 = free slot; 1 = seen in the reader's last complete scan; 1 + k = k misses in a row.
        self._age = bytearray(readers * slots)
        self._seen = bytearray(slots)
        self._ring = bytearray(ring * _EV)
        self._cap = ring
        self._head = 0
        self._len = 0
        self.dropped = 0   # events lost because the ring was full (drain after every feed)
        self.crowded = 0   # tags not tracked because a reader's slots were all taken
        self.reader = 0    # set by pop()
        self.uid = bytearray(UID_LEN)

    def feed(self, reader, n, uids, complete=True):
        """One scan of ``reader``: ``n`` UIDs in 7-byte slots of ``uids`` (as ``Mfrc522.scan``).

        ``complete``: the scan ended normally (driver status OK); otherwise absent tags keep
        their state. A bad reader index or count is ignored.
        """
        if not 0 <= reader < self.readers or n < 0 or n * UID_LEN > len(uids):
            return
        base = reader * self.slots
        seen = self._seen
        for s in range(self.slots):
            seen[s] = 0
        for i in range(n):
            s = self._find(base, uids, i * UID_LEN)
            if s < 0:
                s = self._free(base)
                if s < 0:
                    self.crowded += 1
                    continue
                self._copy(uids, i * UID_LEN, self._uids, (base + s) * UID_LEN)
                self._push(reader, ARRIVE, uids, i * UID_LEN)
            self._age[base + s] = 1
            seen[s] = 1
        if not complete:
            return
        for s in range(self.slots):
            a = self._age[base + s]
            if a and not seen[s]:
                if a >= self.misses:
                    self._age[base + s] = 0
                    self._push(reader, LEAVE, self._uids, (base + s) * UID_LEN)
                else:
                    self._age[base + s] = a + 1

    def pop(self):
        """The oldest event's kind (ARRIVE/LEAVE; NONE when empty); sets ``reader`` and ``uid``."""
        if not self._len:
            return NONE
        at = self._head * _EV
        self.reader = self._ring[at]
        kind = self._ring[at + 1]
        self._copy(self._ring, at + 2, self.uid, 0)
        self._head = (self._head + 1) % self._cap
        self._len -= 1
        return kind

    def find(self, uid, skip, fresh=False):
        """A reader other than ``skip`` holding ``uid`` (seen in its last scan if ``fresh``), or -1."""
        for r in range(self.readers):
            if r == skip:
                continue
            base = r * self.slots
            for s in range(self.slots):
                a = self._age[base + s]
                if a and (a == 1 or not fresh) and self._same(uid, 0, self._uids, (base + s) * UID_LEN):
                    return r
        return -1

    def copy_uid(self, reader, slot, out):
        """Copy the UID held in a slot of a reader into ``out``; False if the slot is free.
        (A bag's content at clasp time: every slot of the dock's reader.)"""
        i = reader * self.slots + slot
        if not self._age[i]:
            return False
        self._copy(self._uids, i * UID_LEN, out, 0)
        return True

    def known(self, reader, out, fresh=False):
        """Copy the UIDs tracked on ``reader`` into the 7-byte slots of ``out`` (as many as fit,
        for ``Mfrc522.scan(known=...)``); return how many. ``fresh``: only those seen in its
        last complete scan (``Mfrc522.roll_call``: the set a scan without change would find)."""
        n = 0
        cap = len(out) // UID_LEN
        base = reader * self.slots
        for s in range(self.slots):
            a = self._age[base + s]
            if a and (a == 1 or not fresh) and n < cap:
                self._copy(self._uids, (base + s) * UID_LEN, out, n * UID_LEN)
                n += 1
        return n

    def count(self, reader):
        n = 0
        for s in range(self.slots):
            if self._age[reader * self.slots + s]:
                n += 1
        return n

    def clear(self):
        """Forget every tag and event (the next scans report everything as arriving)."""
        for i in range(len(self._age)):
            self._age[i] = 0
        self._len = 0

    # -- helpers ------------------------------------------------------------------------
    def _find(self, base, uids, off):
        for s in range(self.slots):
            if self._age[base + s] and self._same(uids, off, self._uids, (base + s) * UID_LEN):
                return s
        return -1

    def _free(self, base):
        for s in range(self.slots):
            if not self._age[base + s]:
                return s
        return -1

    def _push(self, reader, kind, src, off):
        if self._len == self._cap:
            self.dropped += 1
            return
        at = ((self._head + self._len) % self._cap) * _EV
        self._ring[at] = reader
        self._ring[at + 1] = kind
        self._copy(src, off, self._ring, at + 2)
        self._len += 1

    @staticmethod
    def _same(a, a_off, b, b_off):
        for i in range(UID_LEN):
            if a[a_off + i] != b[b_off + i]:
                return False
        return True

    @staticmethod
    def _copy(src, s_off, dst, d_off):
        for i in range(UID_LEN):
            dst[d_off + i] = src[s_off + i]
