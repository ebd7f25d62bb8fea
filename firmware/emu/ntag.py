"""ISO/IEC 14443-3 Type A tags for the MFRC522 emulator: a generic PICC and NTAG213/215/216.

A tag sees the frames the reader transmits (bytes + bit count, LSB first as on the air) and
writes its answer into `resp`; the reader emulator superposes the answers of every tag in its
field, which is where real bit collisions come from. Answers are kept as whole frames with the
bit range [rstart, rend) that is actually sent, so an anticollision answer that starts in the
middle of a byte is the tag's full UID CLn with rstart > 0.

Sources:
- ISO/IEC 14443-3:2018 §6.3 PICC states (IDLE, READY, ACTIVE, HALT and the READY*/ACTIVE* pair
  that falls back to HALT), §6.4.1 REQA 26h / WUPA 52h short frames, §6.4.2 ANTICOLLISION and
  SELECT (SEL 93h/95h/97h, NVB), §6.4.3 HLTA 50h 00h, §6.5.2.1 ATQA (UID size in bits 8..7),
  §6.5.3.4 SAK (cascade bit 3), §6.5.4 UID CLn = CT 88h + 3 UID bytes + BCC for
  double/triple size, Annex B CRC_A (preset 6363h, reflected polynomial 8408h, no final XOR).
- NXP NTAG213/215/216 data sheet rev 3.2: §8.4 states IDLE/READY1/READY2/ACTIVE/HALT (any
  unexpected frame returns the tag to IDLE, or to HALT when it was woken from HALT), §8.5.1
  UID pages 0-2 (BCC0 = 88h^SN0^SN1^SN2, BCC1 = SN3^SN4^SN5^SN6, internal byte 48h), §8.5
  memory organisation (capability container in page 3, dynamic lock page and four
  configuration pages at the end), §8.5.2 static lock bytes (page 2 bytes 2-3: L-CC and L4..L15
  lock pages 3..15), §8.5.3 dynamic lock bytes (NTAG213: one bit per 2 pages from page 16,
  NTAG215/216: one bit per 16 pages), §8.5.4 CC, §8.5.7 configuration pages (AUTH0 in CFG0
  byte 3: pages from AUTH0 on need PWD_AUTH; CFGLCK, bit 6 of ACCESS in CFG1 byte 0, locks
  CFG0/CFG1), §9.3 4-bit ACK Ah and NAK codes, §9.4 ATQA 0044h and SAK 00h, §10.2 READ 30h: 16
  bytes from 4 pages, rolling over to page 0 past the last page, NAK for a start page beyond
  it; §10.4 WRITE A2h: page 2..last, 4 bytes, CRC_A; ACK within 10 ms; NAK 0h for an invalid,
  locked or protected page, NAK 1h for a bad CRC_A; lock bytes and CC are OTP (bits ORed),
  bytes 0-1 of page 2 (BCC1, internal) stay as they are.

NTAG21x §10.1 GET_VERSION 60h: 8 bytes (00h, vendor 04h, type 04h, subtype 02h, 01h, 00h,
storage size 0Fh/11h/13h, protocol 03h) + CRC_A; §10.5 COMPATIBILITY_WRITE A0h: the first frame
(A0h, page, CRC_A) is acknowledged, the second (16 bytes + CRC_A) programs the first 4 bytes and
is acknowledged again; any other frame in between cancels it.

Emulator scope: no parity bits, no timing other than a per-answer frame delay used against the
reader's timer (a WRITE is acknowledged after the longest time the datasheet allows, 10 ms), no
FAST_READ/PWD_AUTH, no MIFARE Classic authentication (an NTAG never answers one); block-locking bits are stored but do not freeze lock bits; PWD
and PACK take writes but read back as 00h (they are not kept). `write_page` sets user memory
directly for test set-up.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

POWER_OFF = const(0)  # no field: the tag forgets everything (ISO 14443-3 §6.3.1)
IDLE = const(1)
READY = const(2)      # READY1, READY2, READY3 by cascade level
ACTIVE = const(3)
HALT = const(4)

REQA = const(0x26)
WUPA = const(0x52)
HLTA = const(0x50)
READ = const(0x30)
WRITE = const(0xA2)
GET_VERSION = const(0x60)
COMPAT_WRITE = const(0xA0)
ACK = const(0xA)
CT = const(0x88)      # cascade tag
SEL_CODES = (0x93, 0x95, 0x97)
NAK_INVALID_ARG = const(0x0)
NAK_CRC = const(0x1)

NTAG213 = const(45)   # pages 00h..2Ch
NTAG215 = const(135)  # pages 00h..86h
NTAG216 = const(231)  # pages 00h..E6h
_CC_SIZE = {NTAG213: 0x12, NTAG215: 0x3E, NTAG216: 0x6D}  # CC byte 2: data area / 8
_STORAGE = {NTAG213: 0x0F, NTAG215: 0x11, NTAG216: 0x13}  # GET_VERSION storage size byte

FDT_FC = const(1172)  # ISO 14443-3 §6.2.1.2 frame delay PICC->PCD (n = 9), in carrier cycles
WRITE_FC = const(135600)  # NTAG21x §10.4 WRITE: ACK/NAK at most 10 ms (13.56 MHz carrier)

_STATE_NAMES = ("POWER_OFF", "IDLE", "READY", "ACTIVE", "HALT")


def crc_a(buf, n, crc=0x6363):
    """CRC_A of buf[0:n], bit-serial as ISO/IEC 14443-3 Annex B describes it.

    Deliberately the bit-by-bit LFSR, not the driver's byte-wise update: the two are checked
    against each other (and against Annex B's examples) instead of sharing one bug.
    """
    for i in range(n):
        crc ^= buf[i]
        for _ in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0x8408
            else:
                crc >>= 1
    return crc


def _bcc(b, off):
    return b[off] ^ b[off + 1] ^ b[off + 2] ^ b[off + 3]


class Picc:
    """A Type A PICC with a 4-, 7- or 10-byte UID: states, request, anticollision, select, halt.

    Subclasses add the commands of the ACTIVE state (`_active`). A plain Picc answers SAK `sak`
    and treats every ACTIVE-state frame except HLTA as an error, which is how a foreign card
    (say a MIFARE Classic with a 4-byte UID) looks to the mat's NTAG-only reader.
    """

    def __init__(self, uid, sak=0x08, delay_fc=FDT_FC):
        n = len(uid)
        if n not in (4, 7, 10):
            raise ValueError("UID must be 4, 7 or 10 bytes")
        if uid[0] == CT:
            raise ValueError("a UID cannot start with 88h, the cascade tag")
        self.uid = bytes(uid)
        self.levels = (1, 2, 3)[(n > 4) + (n > 7)]
        self.sak = sak
        self.delay_fc = delay_fc
        self.answer_fc = delay_fc  # frame delay of the current answer
        self.cl = bytearray(15)  # UID CL1..CL3, 5 bytes each incl. BCC (§6.5.4)
        self._build_cl()
        self.resp = bytearray(20)
        self.rstart = 0
        self.rend = 0
        self.has_crc = False  # the answer ends in CRC_A (bad-CRC faults only touch those)
        self.state = POWER_OFF
        self.level = 0         # cascade level being resolved in READY
        self.from_halt = False  # READY*/ACTIVE*: errors return to HALT instead of IDLE

    def _build_cl(self):
        u = self.uid
        src = 0
        for lvl in range(self.levels):
            o = 5 * lvl
            if lvl < self.levels - 1:
                self.cl[o] = CT
                for i in range(3):
                    self.cl[o + 1 + i] = u[src + i]
                src += 3
            else:
                for i in range(4):
                    self.cl[o + i] = u[src + i]
            self.cl[o + 4] = _bcc(self.cl, o)

    def state_name(self):
        if self.state == READY:
            return "READY%d" % (self.level + 1)
        return _STATE_NAMES[self.state]

    # --- field ---------------------------------------------------------------------------
    def power(self, on):
        """The reader's field switched on or off (or the tag entered/left the field)."""
        self.state = IDLE if on else POWER_OFF
        self.level = 0
        self.from_halt = False

    # --- frames --------------------------------------------------------------------------
    def respond(self, f, nbits):
        """Handle one frame f (nbits long); return True and fill resp/rstart/rend to answer."""
        st = self.state
        if st == POWER_OFF:
            return False
        self.answer_fc = self.delay_fc
        if nbits == 7:
            return self._request(f[0] & 0x7F)
        if st == IDLE or st == HALT:
            return False  # only REQA/WUPA are heard in the wait states
        if st == READY:
            return self._ready(f, nbits)
        return self._active(f, nbits)

    def _error(self):
        """Unexpected frame: back to the wait state the tag was woken from (§6.3, NTAG §8.4)."""
        self.state = HALT if self.from_halt else IDLE
        self.level = 0
        return False

    def _request(self, cmd):
        st = self.state
        if (cmd == REQA and st == IDLE) or (cmd == WUPA and (st == IDLE or st == HALT)):
            self.from_halt = st == HALT
            self.state = READY
            self.level = 0
            self.resp[0] = (self.levels - 1) << 6 | 0x04  # ATQA: UID size + bit frame anticoll.
            self.resp[1] = 0x00
            return self._answer(16, False)
        if st == READY or st == ACTIVE:
            return self._error()
        return False

    def _ready(self, f, nbits):
        lvl = self.level
        if nbits < 16 or f[0] != SEL_CODES[lvl]:
            return self._error()
        nvb = f[1]
        o = 5 * lvl
        if nvb == 0x70:  # SELECT: NVB counts SEL, NVB, UID CLn and BCC; CRC_A follows
            if nbits != 72 or crc_a(f, 7) != f[7] | f[8] << 8:
                return self._error()
            for i in range(5):
                if f[2 + i] != self.cl[o + i]:
                    return False  # another tag is being selected: stay READY, keep quiet
            if lvl < self.levels - 1:
                self.level = lvl + 1
                sak = 0x04  # cascade bit: UID not complete
            else:
                self.state = ACTIVE
                sak = self.sak
            self.resp[0] = sak
            return self._with_crc(1)
        if (nvb >> 4) * 8 + (nvb & 0x0F) != nbits or nvb < 0x20:
            return self._error()
        known = nbits - 16  # ANTICOLLISION: answer the bits after the ones the reader sent
        if known > 39:
            return self._error()
        full = known >> 3
        for i in range(full):
            if f[2 + i] != self.cl[o + i]:
                return False
        rem = known & 7
        if rem and (f[2 + full] ^ self.cl[o + full]) & ((1 << rem) - 1):
            return False
        for i in range(5):
            self.resp[i] = self.cl[o + i]
        self.rstart = known
        self.rend = 40
        self.has_crc = False
        return True

    def _active(self, f, nbits):
        if nbits == 32 and f[0] == HLTA and f[1] == 0 and crc_a(f, 2) == f[2] | f[3] << 8:
            self.state = HALT
            self.level = 0
            return False  # HLTA is never answered
        return self._error()

    # --- answers -------------------------------------------------------------------------
    def _answer(self, nbits, crc):
        self.rstart = 0
        self.rend = nbits
        self.has_crc = crc
        return True

    def _with_crc(self, n):
        c = crc_a(self.resp, n)
        self.resp[n] = c & 0xFF
        self.resp[n + 1] = c >> 8
        return self._answer(8 * n + 16, True)

    def _nak(self, code):
        self.resp[0] = code
        self._error()
        return self._answer(4, False)

    def _ack(self, delay_fc):
        self.resp[0] = ACK
        self.answer_fc = max(self.delay_fc, delay_fc)
        return self._answer(4, False)


class NtagTag(Picc):
    """NTAG213/215/216: a 7-byte UID, its page memory (NTAG21x §8.5), READ and WRITE."""

    def __init__(self, uid, pages=NTAG213, delay_fc=FDT_FC):
        if len(uid) != 7:
            raise ValueError("NTAG21x UIDs are 7 bytes")
        if pages not in _CC_SIZE:
            raise ValueError("pages must be NTAG213, NTAG215 or NTAG216")
        Picc.__init__(self, uid, 0x00, delay_fc)
        self.pages = pages
        self.mem = bytearray(4 * pages)
        m = self.mem
        for i in range(4):
            m[i] = self.cl[1 + i] if i < 3 else self.cl[4]  # SN0 SN1 SN2 BCC0
            m[4 + i] = self.cl[5 + i]                        # SN3..SN6
        m[8] = self.cl[9]                                     # BCC1
        m[9] = 0x48                                           # internal
        m[12], m[13], m[14] = 0xE1, 0x10, _CC_SIZE[pages]     # CC: NDEF, v1.0, size
        m[16], m[17], m[18] = 0x03, 0x00, 0xFE                # empty NDEF TLV + terminator
        cfg = 4 * (pages - 5)                                 # dynamic lock, CFG0, CFG1, PWD, PACK
        m[cfg + 3] = 0xBD
        m[cfg + 4] = 0x04      # CFG0: MIRROR
        m[cfg + 7] = 0xFF      # AUTH0: no password protection
        m[cfg + 9] = 0x05      # CFG1 RFUI
        # PWD reads back as 00h and stays zero here
        self._cw = -1  # page of a COMPATIBILITY_WRITE whose data frame is awaited

    def write_page(self, page, data):
        """Test helper: store 4 bytes into a user page (3 < page < last config pages)."""
        if not 3 < page < self.pages - 5 or len(data) != 4:
            raise ValueError("user page and 4 bytes expected")
        for i in range(4):
            self.mem[4 * page + i] = data[i]

    def _writable(self, page):
        """Whether WRITE may program `page` (§8.5.2, §8.5.3, §8.5.7, §10.4)."""
        n = self.pages
        m = self.mem
        if page < 2 or page >= n or page >= m[4 * (n - 4) + 3]:  # AUTH0: no PWD_AUTH here
            return False
        dyn = n - 5
        if 3 <= page < 16:
            return not (m[10 + (page >> 3)] >> (page & 7)) & 1  # L-CC, L4..L15
        if 16 <= page < dyn:
            k = (page - 16) // (2 if n == NTAG213 else 16)
            return not (m[4 * dyn + (k >> 3)] >> (k & 7)) & 1
        if page == n - 4 or page == n - 3:
            return not m[4 * (n - 3)] & 0x40  # CFGLCK
        return True

    def _program(self, page, f, at):
        """Store the 4 data bytes f[at:at+4]; OTP pages take the OR of old and new bits."""
        o = 4 * page
        m = self.mem
        n = self.pages
        if page >= n - 2:
            return  # PWD, PACK: write-only, they read back as 00h
        if page == 2:
            m[o + 2] |= f[at + 2]
            m[o + 3] |= f[at + 3]
        elif page == 3 or page == n - 5:
            for i in range(4 if page == 3 else 3):  # dynamic lock byte 3 is RFUI
                m[o + i] |= f[at + i]
        else:
            for i in range(4):
                m[o + i] = f[at + i]

    def _active(self, f, nbits):
        cw = self._cw
        self._cw = -1
        if cw >= 0 and nbits == 144:  # COMPATIBILITY_WRITE, second part: 16 data bytes
            if crc_a(f, 16) != f[16] | f[17] << 8:
                return self._nak(NAK_CRC)
            self._program(cw, f, 0)
            return self._ack(WRITE_FC)
        if nbits == 64 and f[0] == WRITE:
            if crc_a(f, 6) != f[6] | f[7] << 8:
                return self._nak(NAK_CRC)
            if not self._writable(f[1]):
                return self._nak(NAK_INVALID_ARG)
            self._program(f[1], f, 2)
            return self._ack(WRITE_FC)
        if nbits == 32 and f[0] == COMPAT_WRITE:
            if crc_a(f, 2) != f[2] | f[3] << 8:
                return self._nak(NAK_CRC)
            if not self._writable(f[1]):
                return self._nak(NAK_INVALID_ARG)
            self._cw = f[1]
            return self._ack(0)
        if nbits == 24 and f[0] == GET_VERSION:
            if crc_a(f, 1) != f[1] | f[2] << 8:
                return self._nak(NAK_CRC)
            v = self.resp
            v[0], v[1], v[2], v[3], v[4], v[5] = 0x00, 0x04, 0x04, 0x02, 0x01, 0x00
            v[6] = _STORAGE[self.pages]
            v[7] = 0x03
            return self._with_crc(8)
        if nbits == 32 and f[0] == READ:
            if crc_a(f, 2) != f[2] | f[3] << 8:
                return self._nak(NAK_CRC)
            page = f[1]
            if page >= self.pages:
                return self._nak(NAK_INVALID_ARG)
            size = 4 * self.pages
            src = 4 * page
            for i in range(16):
                self.resp[i] = self.mem[(src + i) % size]  # roll over to page 0 (§10.2)
            return self._with_crc(16)
        return Picc._active(self, f, nbits)
