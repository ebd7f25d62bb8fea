"""MFRC522 driver: inventory of the NTAG21x tags on one reader (ISO/IEC 14443 A, 106 kBd).

The driver gets its bus objects from the board profile: `spi.write_readinto(tx, rx)` as on
machine.SPI and a chip-select `cs.value(v)` as on machine.Pin, so it never imports `machine`
and runs unchanged against the emulator in firmware/emu/. Everything after construction is
allocation-free: frames and answers live in preallocated buffers reached through precomputed
memoryview slices, results go to caller buffers, and statuses are small ints (no exceptions on
the normal path; ValueError only for caller bugs such as a too-small buffer).

Sources (section numbers of the documents named):
- NXP MFRC522 data sheet rev 3.9: §8.1.2 SPI (address byte: bit 7 read, bits 6..1 register;
  a read transaction may name a new register in every byte, used here to fetch ComIrqReg,
  ErrorReg, FIFOLevelReg, ControlReg and CollReg in one transfer), §8.3 FIFO, §8.5 timer,
  §9.3 registers (ComIrqReg Set1 semantics, ErrorReg, BitFramingReg TxLastBits/RxAlign/
  StartSend, CollReg CollPos/CollPosNotValid/ValuesAfterColl, ModeReg TxWaitRF/CRCPreset,
  TxControlReg Tx1RFEn/Tx2RFEn, TxASKReg Force100ASK, RFCfgReg RxGain, TModeReg TAuto),
  §10.3 commands (Idle, CalcCRC, Transceive, SoftReset).
- ISO/IEC 14443-3:2018: §5.2.1 a PICC answers a request at most 5 ms after the field is on,
  §6.2.3 short frame (7 bits) and bit-oriented anticollision frame, Annex B CRC_A,
  §6.3 PICC states, §6.4 REQA/WUPA/ANTICOLLISION/SELECT/HLTA, §6.5.3 anticollision loop (NVB,
  collision bit resolved by sending it as 1), §6.5.3.4 SAK cascade bit, §6.5.4 cascade tag 88h
  and BCC.
- NXP NTAG213/215/216 data sheet rev 3.2: §8.5 memory organisation (user memory from page 4;
  §8.5.2/8.5.3 static and dynamic lock bytes, §8.5.4 capability container in page 3, §8.5.7
  configuration pages), §9.3 4-bit ACK Ah and NAK 0h/1h/4h/5h, §10.2 READ (30h, 16 bytes +
  CRC_A, answer within 5 ms), §10.4 WRITE (A2h, page, 4 bytes, CRC_A; 4-bit ACK or NAK within
  10 ms).

Inventory (`scan`): WUPA, then REQA, each answered by every tag still IDLE; anticollision and
SELECT through the cascade levels single out one tag; optionally READ; HLTA parks it in HALT,
where REQA no longer wakes it; repeat until a request meets silence. A tag that hits an error
falls back to IDLE (it woke from IDLE), so the next round finds it again. That only holds when
every tag starts IDLE, which is why a scan runs on a fresh field: `antenna_on()` (the mat's
poll loop keeps idle readers' radio off) or, if the field stayed on since the last scan, an
automatic field reset. Failures end in a status code, never in a wrong UID: anticollision
answers must match their BCC, SELECT is answered (SAK + CRC_A) only by the tag owning the
complete UID CLn, cascade tag and SAK cascade bit must agree, READ data must match CRC_A.

Writing tags is ``firmware.tag_writer`` (``TagWriter``, this driver and WRITE): the referee only
reads, so a board in play never loads it.

Every wait is bounded: the chip's timer ends each exchange (TAuto) and every polling loop has
a fixed bound in case the chip stops answering.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

# Status codes (private: inlined, no name on the board; tests and host tools read them by name
# from the generated twin host/board/mfrc522_layout.py, ``python -m host.layout``).
_OK = const(0)
_NO_TAG = const(1)        # nothing answered a request
_TIMEOUT = const(2)       # a tag stopped answering in the middle of an exchange
_CRC_ERR = const(3)       # CRC_A of an answer (SAK, READ data) did not match
_COLLISION = const(4)     # answers collided where no collision can be resolved
_PROTOCOL_ERR = const(5)  # malformed answer, chip error flags, inconsistent cascade
_BCC_ERR = const(6)       # anticollision answer did not match its BCC
_NAK = const(7)           # the tag answered a 4-bit NAK (see last_nak)
_CHIP_ERR = const(8)      # the MFRC522 is absent, unknown or stopped answering
_OVERFLOW = const(9)      # more tags in the field than the scan buffer holds
_DENIED = const(10)       # write() refused to send: the page is not the tag's user memory
_PARTIAL = const(11)      # scan() cut short by its ``peek`` (or a newcomer): not every tag listed
_STATUS_NAMES = const(("ok", "no_tag", "timeout", "crc", "collision", "protocol", "bcc", "nak",
                       "chip", "overflow", "denied", "partial"))  # for host tools

_UID_LEN = const(7)     # NTAG21x double-size UID; the slot size of scan()'s buffer
_PAGE_BYTES = const(16)  # one READ: four 4-byte pages
_FIRST_USER_PAGE = const(4)  # NTAG21x user memory starts after UID, lock bytes and CC (§8.5)

# Registers (§9.2).
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_READ = const(0x80 | _FIFO_DATA << 1)  # the address byte that reads FIFODataReg
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_RF_CFG = const(0x26)
_TMODE = const(0x2A)
_TPRESCALER = const(0x2B)
_TRELOAD_H = const(0x2C)
_TRELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Commands (§10.3 Table 149), register bits.
_CMD_IDLE = const(0x00)
_CMD_CALC_CRC = const(0x03)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_TIMER_IRQ = const(0x01)
_CRC_IRQ = const(0x04)
_FATAL_ERRS = const(0xD1)  # WrErr, TempErr, BufferOvfl, ProtocolErr
_COLL_ERR = const(0x08)
_PARITY_CRC_ERRS = const(0x06)
_COLL_POS_NOT_VALID = const(0x20)
_START_SEND = const(0x80)
_TSTART_NOW = const(0x50)  # TStartNow; bit 4 kept at its reset value (1)
_TX_RF_EN = const(0x03)    # Tx1RFEn | Tx2RFEn
_TX_CONTROL_OFF = const(0x80)
_FORCE_100ASK = const(0x40)
_MODE_INIT = const(0x3D)   # TxWaitRF, PolMFin, CRCPreset 01 = 6363h (CRC_A)
_TAUTO = const(0x80)
_RF_CFG_RESERVED = const(0x08)  # RFCfgReg bits 3..0 keep their reset value

# Timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 25 us per tick.
_PRESCALER = const(169)
_TMODE_SET = const(_TAUTO | _PRESCALER >> 8)  # TModeReg as init() writes it: TAuto, prescaler hi
# 300 us: an ISO 14443-3 answer to REQA/WUPA/ANTICOLLISION/SELECT starts exactly 1172/fc or
# 1236/fc (91 us) after the frame (FDT, n = 9), and with TAuto the timer stops at the answer's
# 5th bit (data sheet TModeReg): 138 us suffice, twice that is kept. HLTA is never answered.
_T_SHORT = const(11)
_T_LONG = const(204)   # 5.1 ms: NTAG READ answers within 5 ms; also field-off and power-up guard
_POLL_MAX = const(1000)  # status polls per wait: far longer than 5.1 ms on any SPI clock

# ISO/IEC 14443-3 commands.
_REQA = const(0x26)
_WUPA = const(0x52)
_READ = const(0x30)
_HLTA = const(0x50)
_CT = const(0x88)
_SEL = const((0x93, 0x95, 0x97))  # SEL of cascade levels 1..3
_SAK_CASCADE = const(0x04)

_FRAME_MAX = const(9)   # SELECT: SEL NVB UID CLn (4) BCC CRC_A (2); WRITE needs 8
_RX_MAX = const(18)     # READ answer: 16 data bytes + CRC_A
_GUARD = const(1)      # Mfrc522._flags: power-up guard timer running since antenna_on()
_FRESH = const(2)      # field switched on since the last scan: every tag is IDLE
_UNSETTLED = const(4)  # confirming the known tags (scan) may have left tags READY
_LOST = const(8)       # a scan of a kept field failed a SELECT: a tag may be stuck HALT
_EMPTY = const(16)     # the FIFO is empty (the last answer read out whole): no FlushBuffer
_ARMED = const(32)     # Transceive still the command, its receiver done: StartSend alone sends
_FIELD = const(64)     # the antenna is on (TxControlReg Tx1RFEn, Tx2RFEn)
_MAX_ERRORS = const(4)   # failed attempts a scan or a write retries
_MAX_FOREIGN = const(2)  # non-NTAG tags tolerated per scan (halted, not reported)
_PEEK_TAGS = const(2)    # scan(peek=...): known tags confirmed between two looks elsewhere


# CollReg.CollPos readings (bit masks of Mfrc522.collpos; see Mfrc522._coll_bit).
_CP_FIFO = const(1)
_CP_UID = const(2)
_CP_RX = const(4)
_CP_ALL = const(7)


def _candidate(k, pos, known):
    """The UID CLn bit (from 0) that CollPos `pos` (1..32) names in reading k (0 FIFO, 1 UID,
    2 RX) after an ANTICOLLISION frame that sent `known` bits."""
    if k == 0:
        return (known & ~7) + pos - 1
    if k == 1:
        return pos - 1
    return known + pos - 1


def _clbyte(uids, off, level, k):
    """Byte k (0..3) of UID CLn of the 7-byte UID at uids[off:]: CT 88h + UID0..2 at level 0,
    UID3..6 at level 1."""
    if level == 0 and k == 0:
        return _CT
    return uids[off + k - 1 + 4 * level]


def _differ(uids, a, b, level):
    """The first UID CLn bit (0..31, as sent on the air: byte by byte, LSB first) where the
    UIDs in slots a and b differ at cascade `level`; 32 when that level is equal."""
    for k in range(4):
        x = _clbyte(uids, a * _UID_LEN, level, k) ^ _clbyte(uids, b * _UID_LEN, level, k)
        if x:
            i = 0
            while not (x >> i) & 1:
                i += 1
            return 8 * k + i
    return 32


def _bit(uids, slot, level, b):
    return _clbyte(uids, slot * _UID_LEN, level, b >> 3) >> (b & 7) & 1


def crc_a(buf, start, n):
    """CRC_A (ISO/IEC 14443-3 Annex B) of buf[start:start+n]; byte-wise, allocation-free."""
    crc = 0x6363
    for i in range(start, start + n):
        ch = (buf[i] ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = (crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)
    return crc


class Mfrc522:
    """One MFRC522 on an SPI bus, selected by its own chip-select pin.

    Exchanges never overlap (the poll loop drives one reader at a time), so the transfer buffers,
    their memoryview slices and what one exchange or selection leaves are class attributes,
    shared by every reader: per reader they would cost over 1 KB of slices alone, and each
    attribute a reader does not hold keeps its attribute table small. Per reader stay only what
    outlives an exchange and what a nested look at another reader (``scan(peek=...)``) must not
    overwrite: status, errors, foreign, inventories, the chip's state.
    """

    # A register access, a frame written to the FIFO and the FIFO read out are each sent and
    # received in one buffer (machine.SPI allows it: MOSI byte i is out before MISO byte i comes
    # in): what the chip answers while a frame is written is not kept.
    w = bytearray(2)
    ftx = bytearray(_FRAME_MAX + 1)  # FIFODataReg write: address byte + frame
    rtx = bytearray(_RX_MAX + 1)  # FIFODataReg reads + a 00h terminator; status reads' answers
    ftxv: list = []  # memoryview slices of ftx and rtx by length (the first reader makes them)
    rtxv: list = []
    # ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg, CollReg and TModeReg (the reader's health:
    # healthy) in one read transaction
    stx = bytearray((0x80 | _COM_IRQ << 1, 0x80 | _ERROR << 1, 0x80 | _FIFO_LEVEL << 1,
                     0x80 | _CONTROL << 1, 0x80 | _COLL << 1, 0x80 | _TMODE << 1, 0))
    # ComIrqReg and TModeReg: a timer wait that also notices a reader reset or gone
    ttx = bytearray((0x80 | _COM_IRQ << 1, 0x80 | _TMODE << 1, 0))
    resp = bytearray(_RX_MAX)  # the last answer
    cl = bytearray(10)  # UID CLn + BCC being resolved; 5..9: a copy while a collision is located
    rx_n = 0     # length in bytes of the last answer (in resp)
    rx_last = 0  # valid bits of its last byte (0 = all 8)
    coll = 0     # CollReg after it
    hook = None  # called between status polls while a reader waits out its field guard (read it
    # as Mfrc522.hook: through a reader a function would be bound to it)

    def __init__(self, spi, cs, gain=7):
        if not 0 <= gain <= 7:
            raise ValueError("gain is RFCfgReg RxGain, 0..7 (7 = 48 dB)")
        self._spi = spi
        self._cs = cs
        cs.value(1)
        if not Mfrc522.ftxv:  # the first reader
            ftx = memoryview(Mfrc522.ftx)
            rtx = memoryview(Mfrc522.rtx)
            Mfrc522.ftxv = [ftx[:n] for n in range(_FRAME_MAX + 2)]
            Mfrc522.rtxv = [rtx[:n] for n in range(_RX_MAX + 2)]
        self.version = 0
        self.collpos = _CP_ALL  # CollPos readings not yet ruled out on this chip
        self._flags = 0  # _GUARD, _FRESH, _UNSETTLED, _LOST, _EMPTY, _ARMED, _FIELD
        self.gain = gain  # RFCfgReg RxGain
        self.reload = -1  # TReloadReg as last written (-1: not known)
        self.status = _OK     # outcome of the last scan()
        self.errors = 0      # failed (retried) attempts in the last scan()
        self.foreign = 0     # tags with a 4- or 10-byte UID seen by the last scan()
        self.inventories = 0  # scans begun: each sees every tag in the field at its start

    # What the last exchange or selection left, shared by every reader (one exchange at a
    # time: read it right after the call on that reader; select_uid() and write() on one
    # reader with no other reader's scan in between): class attributes, read through any
    # reader and set as Mfrc522.<name> (no reader holds its own).
    uid = bytearray(10)  # UID of the tag selected last
    uid_len = 0          # its length; 0: none
    sak = 0
    last_nak = 0         # code of the last NAK (write, read)
    user_last = 0        # last user page of the selected tag (firmware.tag_writer); 0: not read from its CC

    def set_guard_hook(self, hook):
        """Have every reader call ``hook()`` between its status polls while it waits out a field
        guard (None: busy-wait). The app serves the link there; ``hook`` must be short and bounded
        (the timer still ends the wait, at the first poll after ``hook`` returns) and must not
        touch the readers. Shared by all readers, like the buffers."""
        Mfrc522.hook = hook

    # --- register access (§8.1.2) -------------------------------------------------------
    def _xfer(self, tx, rx):
        self._cs.value(0)
        self._spi.write_readinto(tx, rx)
        self._cs.value(1)

    def _wr(self, reg, v):
        self.w[0] = reg << 1
        self.w[1] = v
        self._xfer(self.w, self.w)

    def _rd(self, reg):
        self.w[0] = 0x80 | reg << 1
        self.w[1] = 0
        self._xfer(self.w, self.w)
        return self.w[1]

    def _timeout(self, ticks):
        old = self.reload
        if ticks != old:
            if ticks >> 8 != old >> 8:
                self._wr(_TRELOAD_H, ticks >> 8)
            self._wr(_TRELOAD_L, ticks & 0xFF)
            self.reload = ticks

    # --- set-up --------------------------------------------------------------------------
    def init(self):
        """Soft reset and configure for ISO 14443 A; antenna off. OK when the chip's CRC
        coprocessor computes CRC_A right (any VersionReg value, kept in .version), else CHIP_ERR."""
        self._wr(_COMMAND, _CMD_SOFT_RESET)
        for _ in range(_POLL_MAX):
            if not self._rd(_COMMAND) & _POWER_DOWN:  # reads 1 while the chip wakes up
                break
        else:
            return _CHIP_ERR
        # NXP answers 91h/92h, clones 88h, 12h, B2h, 89h, 90h ...: any value is taken, and the CRC
        # self-test below decides. 00h is the board's MISO pull-down (no chip), FFh a stuck line.
        self.version = self._rd(_VERSION)
        if self.version == 0 or self.version == 0xFF:
            return _CHIP_ERR
        self._wr(_TMODE, _TMODE_SET)  # timer starts when a frame has been sent
        self._wr(_TPRESCALER, _PRESCALER & 0xFF)
        self.reload = -1  # TReloadReg not known
        self._timeout(_T_SHORT)  # writes both TReloadReg bytes
        self._wr(_TX_ASK, _FORCE_100ASK)  # ISO 14443 A uses 100 % ASK
        self._wr(_MODE, _MODE_INIT)
        self._wr(_RF_CFG, self.gain << 4 | _RF_CFG_RESERVED)
        self._wr(_COLL, 0)  # ValuesAfterColl = 0: bits after a collision read 0
        self._wr(_TX_CONTROL, _TX_CONTROL_OFF)
        self._flags &= ~(_GUARD | _FRESH | _EMPTY | _ARMED | _FIELD)
        # the chip's CRC coprocessor (CalcCRC) on a test frame must agree with crc_a()
        f = self.ftx
        f[0] = _FIFO_DATA << 1
        for i in range(8):
            f[1 + i] = (0x1D * i + 0x52) & 0xFF
        want = crc_a(f, 1, 8)
        self._wr(_COMMAND, _CMD_IDLE)
        self._wr(_DIV_IRQ, _CRC_IRQ)
        self._wr(_FIFO_LEVEL, 0x80)
        self._xfer(self.ftxv[9], self.ftxv[9])
        self._wr(_COMMAND, _CMD_CALC_CRC)
        done = False
        for _ in range(_POLL_MAX):
            if self._rd(_DIV_IRQ) & _CRC_IRQ:
                done = True
                break
        crc = self._rd(_CRC_RESULT_H) << 8 | self._rd(_CRC_RESULT_L)
        self._wr(_COMMAND, _CMD_IDLE)
        return _OK if done and crc == want else _CHIP_ERR

    def healthy(self):
        """One register read: TModeReg still holds what init() wrote. A reader that reset
        (TModeReg back to 00h), lost power or was unplugged (MISO pulled down: 00h) fails."""
        return self._rd(_TMODE) == _TMODE_SET

    # --- antenna -------------------------------------------------------------------------
    def antenna_on(self):
        """Switch the field on; tags power up IDLE. A 5.1 ms guard runs on the chip timer."""
        if self._flags & _FIELD:
            return
        self._wr(_TX_CONTROL, _TX_CONTROL_OFF | _TX_RF_EN)
        self._timeout(_T_LONG)  # the guard timer
        self._wr(_COM_IRQ, _TIMER_IRQ)  # Set1 = 0: clears TimerIRq
        self._wr(_CONTROL, _TSTART_NOW)
        self._flags |= _GUARD | _FRESH | _FIELD

    def antenna_off(self):
        """Switch the field off: no radio on idle readers; every tag in the field resets."""
        if not self._flags & _FIELD:
            return
        self._wr(_TX_CONTROL, _TX_CONTROL_OFF)
        self._flags &= ~(_GUARD | _FRESH | _FIELD)

    def antenna_is_on(self):
        return (self._flags & _FIELD) != 0

    def _timer_wait(self, hook=None):
        """Until TimerIRq; at once when TModeReg is not what init() wrote (a reader reset or
        gone: the exchange that follows returns CHIP_ERR at its first status read). ``hook()``
        runs between two polls that found the timer running: the wait ends at most one call
        of it late, never early."""
        t = self.rtx
        rx = self.rtxv[3]
        for _ in range(_POLL_MAX):
            self._xfer(self.ttx, rx)
            if t[1] & _TIMER_IRQ or t[2] != _TMODE_SET:
                return
            if hook is not None:
                hook()

    def _field_reset(self):
        """Field off for 5.1 ms then on again: every tag drops to IDLE (ISO 14443-3 §6.3)."""
        self.antenna_off()
        self._timeout(_T_LONG)
        self._wr(_COM_IRQ, _TIMER_IRQ)
        self._wr(_CONTROL, _TSTART_NOW)
        self._timer_wait()
        self.antenna_on()

    # --- one exchange (§10.3.1.8 Transceive) ---------------------------------------------
    def _transceive(self, n, last, align, ticks):
        """Send _ftx[1:n+1] (``last``: valid bits of its last byte, ``align``: RxAlign); leave the
        answer in _resp[:_rx_n]. Returns a status code."""
        self._timeout(ticks)
        armed = self._flags & _ARMED
        if not armed:
            self._wr(_COMMAND, _CMD_IDLE)
        self._wr(_COM_IRQ, 0x7F)      # clear every interrupt request
        if not self._flags & _EMPTY:
            self._wr(_FIFO_LEVEL, 0x80)   # FlushBuffer (also clears BufferOvfl, WrErr, TempErr)
        self._flags &= ~(_EMPTY | _ARMED)
        self.ftx[0] = _FIFO_DATA << 1
        v = self.ftxv[n + 1]
        self._xfer(v, v)
        if not armed:
            self._wr(_COMMAND, _CMD_TRANSCEIVE)
        self._wr(_BIT_FRAMING, _START_SEND | align << 4 | last)
        s = self.rtx
        rx = self.rtxv[7]
        for _ in range(_POLL_MAX):
            self._xfer(self.stx, rx)
            if s[6] != _TMODE_SET:  # the reader reset (TModeReg 00h) or is gone (MISO 00h)
                return _CHIP_ERR
            if s[1] & (_RX_IRQ | _IDLE_IRQ):
                break
            if s[1] & _TIMER_IRQ:
                return _TIMEOUT
        else:
            return _CHIP_ERR
        err = s[2]
        got = s[3] & 0x7F
        Mfrc522.rx_last = s[4] & 0x07
        Mfrc522.coll = s[5]
        Mfrc522.rx_n = 0
        if err & _FATAL_ERRS or got > _RX_MAX:
            return _PROTOCOL_ERR
        # the exchange is over (RxIRq/IdleIRq; RxModeReg.RxMultiple = 0: the receiver is off),
        # so once its `got` bytes are read the FIFO stays empty until the next frame is written;
        # after a frame received, Transceive waits for the next StartSend (§10.3.1.8: "each
        # transmit process must be started by setting StartSend"): no Idle/Transceive writes
        self._flags |= _EMPTY | (_ARMED if s[1] & _RX_IRQ else 0)
        if got == 0:
            return _TIMEOUT
        rtx = s
        for i in range(got):  # the read addresses (the status reads answered here), 00h last
            rtx[i] = _FIFO_READ
        rtx[got] = 0
        v = self.rtxv[got + 1]
        self._xfer(v, v)
        for i in range(got):
            self.resp[i] = rtx[1 + i]
        Mfrc522.rx_n = got
        if err & _COLL_ERR:
            return _COLLISION
        if err & _PARITY_CRC_ERRS:
            return _PROTOCOL_ERR
        return _OK

    def _append_crc(self, n):
        """Append CRC_A to the n-byte frame in _ftx[1:]; return the new length."""
        c = crc_a(self.ftx, 1, n)
        self.ftx[1 + n] = c & 0xFF
        self.ftx[2 + n] = c >> 8
        return n + 2

    # --- ISO/IEC 14443-3 commands --------------------------------------------------------
    def request(self, all=False):
        """REQA (IDLE tags) or, with ``all``, WUPA (IDLE and HALT tags). OK or NO_TAG..."""
        if not self._flags & _FIELD:
            return _NO_TAG
        if self._flags & _GUARD:  # tags need 5 ms of field before they answer (§5.2.1)
            self._timer_wait(Mfrc522.hook)  # through the class: a function stays unbound
        self._flags &= ~(_GUARD | _FRESH)  # from now on tags leave IDLE
        self.ftx[1] = _WUPA if all else _REQA
        st = self._transceive(1, 7, 0, _T_SHORT)  # short frame: 7 bits
        if st == _TIMEOUT:
            return _NO_TAG
        if st == _COLLISION:
            st = _OK  # tags with different ATQAs: still tags, anticollision sorts them out
        if st == _OK:
            if self.rx_n != 2 or self.rx_last:  # ATQA: 2 bytes (not kept: no use for it)
                return _PROTOCOL_ERR
        return st

    def select(self):
        """Anticollision + SELECT through the cascade levels; UID in .uid[:.uid_len]."""
        Mfrc522.uid_len = 0
        Mfrc522.user_last = 0
        n = 0
        for level in range(3):
            st = self._resolve(level)
            if st == _OK:
                st = self._select_cl(level)
            if st != _OK:
                return st
            cl = self.cl
            if self.sak & _SAK_CASCADE:
                if cl[0] != _CT:
                    return _PROTOCOL_ERR
                for i in range(3):
                    self.uid[n + i] = cl[1 + i]
                n += 3
            else:
                if cl[0] == _CT:
                    return _PROTOCOL_ERR
                for i in range(4):
                    self.uid[n + i] = cl[i]
                Mfrc522.uid_len = n + 4
                return _OK
        return _PROTOCOL_ERR  # cascade bit still set after level 3

    def _resolve(self, level, known=0):
        """Anticollision loop of one cascade level (§6.5.3.1): UID CLn + BCC into _cl, from
        its first ``known`` bits, already in _cl (``roll_call``: a newcomer's prefix).

        A collision's bit comes from CollReg through the CollPos readings still possible for
        this chip (.collpos, see _coll_bit). The step after a collision must be answered, since
        the tags sending a 1 there match what was sent: silence means the reading was wrong (or
        the answer lost), so every reading is back in play and the level fails (the scan
        retries). A wrong reading costs a retry, never a wrong UID: SELECT and BCC verify.
        """
        cl = self.cl
        stepped = False  # the last round followed a collision bit
        for _ in range(40):  # every round learns at least one more bit
            full = known >> 3
            st = self._anticoll(level, known)
            if st == _COLLISION:
                last = full + self.rx_n - 1
                if not self._merge(full, known & 7, last if last < 4 else 4):
                    return _PROTOCOL_ERR
                bit = self._coll_bit(level, known)
                if bit < 0:
                    return _PROTOCOL_ERR
                self._follow(bit, 1)
                known = bit + 1
                stepped = True
                if known == 32:  # every UID bit decided by collisions: SELECT confirms it
                    cl[4] = cl[0] ^ cl[1] ^ cl[2] ^ cl[3]
                    return _OK
                continue
            if st != _OK:
                if st == _TIMEOUT and stepped:
                    self.collpos = _CP_ALL
                return st
            if self.rx_n != 5 - full or self.rx_last or not self._merge(full, known & 7, 4):
                return _PROTOCOL_ERR
            return _OK if cl[4] == cl[0] ^ cl[1] ^ cl[2] ^ cl[3] else _BCC_ERR
        return _PROTOCOL_ERR

    def _anticoll(self, level, known):
        """One ANTICOLLISION frame of cascade ``level`` with the first `known` bits of _cl (NVB,
        §6.5.3.1)."""
        full = known >> 3
        rem = known & 7
        nsend = full + (1 if rem else 0)
        f = self.ftx
        f[1] = _SEL[level]
        f[2] = (2 + full) << 4 | rem  # NVB
        for i in range(nsend):
            f[3 + i] = self.cl[i]
        return self._transceive(2 + nsend, rem, rem, _T_SHORT)

    def _follow(self, bit, v):
        """Keep _cl's bits below `bit`, set `bit` to v: the prefix of the tags sending v there."""
        cl = self.cl
        cl[bit >> 3] &= (1 << (bit & 7)) - 1
        cl[bit >> 3] |= v << (bit & 7)

    def _coll_bit(self, level, known):
        """The UID CLn bit of the collision just received, or -1.

        Where CollPos starts counting is read three ways (CP_FIFO: bit 0 of the first FIFO byte,
        RxAlign included; CP_UID: first bit of UID CLn, as the Arduino library reads it; CP_RX:
        first received bit). A reading naming a bit outside [known, 32) is ruled out; when those
        still possible give one bit, that is the answer; when they disagree, each candidate is tested in ascending order,
        sending the prefix up to it with a 0 and with a 1: the first one both answer is the
        collision (an earlier bit that all tags share leaves one of the two silent), and only
        the readings giving it stay possible.
        """
        c = self.coll
        if c & _COLL_POS_NOT_VALID:
            return -1
        pos = (c & 0x1F) or 32
        fit = 0  # readings that name a bit inside [known, 32): the others are ruled out
        for k in range(3):
            if known <= _candidate(k, pos, known) < 32:
                fit |= 1 << k
        if not fit:
            return -1
        if not self.collpos & fit:
            self.collpos = _CP_ALL  # none of the readings left fits: learn again
        self.collpos &= fit
        bit = -1  # the bit every possible reading gives (-1: no reading left)
        for k in range(3):
            if (self.collpos >> k) & 1:
                b = _candidate(k, pos, known)
                if bit >= 0 and b != bit:
                    break  # they differ: test the candidates
                bit = b
        else:
            return bit
        cl = self.cl
        for i in range(5):
            cl[5 + i] = cl[i]
        lo = known
        while True:
            bit = 32
            for k in range(3):  # the smallest untested candidate
                b = _candidate(k, pos, known)
                if (self.collpos >> k) & 1 and lo <= b < bit:
                    bit = b
            if bit == 32:
                return -1
            lo = bit + 1
            for i in range(5):
                cl[i] = cl[5 + i]
            for v in range(2):  # does any tag answer the prefix up to ``bit`` with it set to v?
                self._follow(bit, v)
                st = self._anticoll(level, bit + 1)
                if st == _TIMEOUT or st == _CHIP_ERR:
                    break
            else:
                m = 0
                for k in range(3):
                    if _candidate(k, pos, known) == bit:
                        m |= 1 << k
                self.collpos &= m
                return bit

    def _merge(self, full, rem, last):
        """Copy answer bytes into _cl[full..last]; the first keeps our own `rem` low bits."""
        if self.rx_n < last - full + 1:
            return False
        cl = self.cl
        for i in range(last - full + 1):
            v = self.resp[i]
            if i == 0 and rem:
                low = (1 << rem) - 1
                v = (cl[full] & low) | (v & ~low & 0xFF)
            cl[full + i] = v
        return True

    def _select_cl(self, level):
        """SELECT of cascade ``level`` (0..2) with the complete UID CLn (NVB 70h); SAK into .sak
        (§6.5.3.4)."""
        f = self.ftx
        f[1] = _SEL[level]
        f[2] = 0x70
        for i in range(5):
            f[3 + i] = self.cl[i]
        st = self._transceive(self._append_crc(7), 0, 0, _T_SHORT)
        if st != _OK:
            return st
        r = self.resp
        if self.rx_n != 3 or self.rx_last:
            return _PROTOCOL_ERR
        c = crc_a(r, 0, 1)
        if r[1] != c & 0xFF or r[2] != c >> 8:
            return _CRC_ERR
        Mfrc522.sak = r[0]
        return _OK

    def read(self, page, out, off=0):
        """NTAG READ of 4 pages from `page` into out[off:off+16] (selected tag). Status code."""
        if len(out) < off + _PAGE_BYTES or not 0 <= page <= 0xFF or off < 0:
            raise ValueError("page 0..255 and 16 bytes of room in out expected")
        f = self.ftx
        f[1] = _READ
        f[2] = page
        st = self._transceive(self._append_crc(2), 0, 0, _T_LONG)
        if st != _OK:
            return st
        if self.rx_n == 1 and self.rx_last == 4:
            Mfrc522.last_nak = self.resp[0] & 0x0F
            return _NAK
        r = self.resp
        if self.rx_n != _PAGE_BYTES + 2 or self.rx_last:
            return _PROTOCOL_ERR
        c = crc_a(r, 0, _PAGE_BYTES)
        if r[_PAGE_BYTES] != c & 0xFF or r[_PAGE_BYTES + 1] != c >> 8:
            return _CRC_ERR
        for i in range(_PAGE_BYTES):
            out[off + i] = r[i]
        return _OK

    def halt(self):
        """HLTA: the selected tag goes to HALT. Silence is the acknowledgement (§6.4.3 counts
        modulation within 1 ms as a NAK; an NTAG never sends one, and scan() does not use the
        outcome, so the 300 us answer timeout serves here too)."""
        f = self.ftx
        f[1] = _HLTA
        f[2] = 0
        st = self._transceive(self._append_crc(2), 0, 0, _T_SHORT)
        if st == _TIMEOUT:
            return _OK
        return _PROTOCOL_ERR if st == _OK or st == _COLLISION else st

    def _select_part(self, uid, off, level):
        """SELECT of cascade level 1 (CT + UID0..2) or 2 (UID3..6) of a 7-byte UID."""
        self._fill_cl(uid, off, level)
        st = self._select_cl(level)
        if st == _OK and ((self.sak & _SAK_CASCADE) != 0) != (level == 0):
            return _PROTOCOL_ERR  # UID incomplete after CL2, or complete after CL1
        return st

    def roll_call(self, uids, known, keep=False, twins=None, turn=0):
        """Whether the field holds exactly the ``known`` tags of uids (7-byte slots, sorted here
        in place), told without selecting and halting each: OK when it does, else the first
        deviation: TIMEOUT (a tag the known set needs stayed silent: a lift, or a lost answer),
        COLLISION (an answer the known set does not predict: an arrival, or noise),
        PROTOCOL_ERR or CRC_ERR (a garbled answer), CHIP_ERR, NO_TAG (antenna off), PARTIAL
        (``keep`` asked on a field whose tags may not all be HALT: nothing was sent).

        One request brings every tag to READY; then the binary trie of the known UIDs is
        walked with bit-oriented ANTICOLLISION frames (ISO/IEC 14443-3 §6.5.3: a frame carrying
        a prefix is answered by the tags sharing it): at each node the known set predicts the
        answer, the first collision's bit (through the CollPos readings still possible,
        ``_coll_bit``) and the bits before it, or, at a leaf, the whole UID CLn and BCC with no
        collision. First over CL1; then per group of known tags sharing a CL1 (batch UIDs
        share UID0..2) a request (from the second group walked on), SELECT CL1 of the group
        and the same walk over CL2. A tag nobody knows differs from every known UID somewhere,
        so it makes a collision where none is predicted or changes the bits before one; a lift
        silences a leaf or removes a predicted collision. n known tags in m CL1 groups cost
        2n + 3m - 1 exchanges, none of them a SELECT CL2 or an HLTA with its timeout.

        ``twins`` (the deck registry: ``twins.twinned(uids, off)``): of the *lone* groups (one
        known tag whose CL1 no two registered tags share: only a tag sharing that CL1 could hide
        at CL2, and no registered one other than it does) only one is walked at CL2, number
        ``turn`` modulo their count L. With w groups walked, holding n' tags, the cost is
        2m + 2n' + w - 1 exchanges: 2n + 2 when every CL1 is distinct (random NXP UIDs), as for
        a batch sharing one CL1, instead of 5n - 1. What one such roll call leaves unseen: an
        arrival whose CL1 is that of a lone known tag not walked this time, which the deck does
        not hold twice, i.e. the arrival or the known tag unregistered (an unknown tag put down,
        or a known tag swapped for it); the caller counting ``turn`` up by one per roll call of
        the pad sees it within L consecutive roll calls (L + 1 where its counter wraps).

        A collision where every known tag below the node sends the same bit shows newcomers on
        the other side: one of them is singled out from there as ``select`` does (anticollision
        from that prefix, SELECT of each cascade level, SAK and BCC checked), halted, and its
        UID left in .uid (.uid_len 7; 0 otherwise): the caller hands on the arrival without a
        full scan. Other deviations leave the scan to the caller. Before returning one, an HLTA
        (an error to a READY tag) sends every tag back to IDLE (HALT when ``keep`` woke them
        from HALT), so that scan needs no field reset.

        ``keep`` as for ``scan``: the field stayed on and its tags were left HALT; WUPA wakes
        them and the final HLTA, then sent after OK too, puts them back. Without ``keep`` the
        tags are left READY after OK: switch the field off (or let ``scan`` reset it). OK is
        counted in ``inventories`` (it saw every tag).
        """
        Mfrc522.uid_len = 0
        if not self._flags & _FIELD:
            return _NO_TAG
        halted = keep and not self._flags & (_FRESH | _LOST)
        if keep and not halted:
            return _PARTIAL  # the tags cannot be left HALT: nothing sent, scan instead
        if not (self._flags & _FRESH or halted):
            self._field_reset()
        # the known slots sorted in air order (CL1 bits, then CL2 bits, each LSB first), in
        # place: the known set's anticollision trie is then a range of slots
        for i in range(1, known):
            j = i
            while j:
                level = 0
                d = _differ(uids, j - 1, j, 0)
                if d == 32:
                    level = 1
                    d = _differ(uids, j - 1, j, 1)
                if d == 32 or not _bit(uids, j - 1, level, d):
                    break
                a = (j - 1) * _UID_LEN
                for k in range(_UID_LEN):
                    t = uids[a + k]
                    uids[a + k] = uids[a + _UID_LEN + k]
                    uids[a + _UID_LEN + k] = t
                j -= 1
        st = self.request(halted)
        if st == _NO_TAG:
            st = _TIMEOUT if known else _OK
        elif st == _OK and not known:
            st = _COLLISION  # a tag where none is known
        elif st == _OK:
            st = self._roll(uids, 0, known, 0, 0)
        # lone groups (see ``twins``: one known tag whose CL1 no other known tag has and the deck
        # holds once at most), then the one walked this time
        lone = 0
        g = 0
        while twins is not None and g < known:
            h = g + 1
            while h < known and _differ(uids, g, h, 0) == 32:
                h += 1
            if h == g + 1 and not twins.twinned(uids, g * _UID_LEN):
                lone += 1
            g = h
        if lone:
            lone = turn % lone + 1
        g = 0
        walked = False
        while st == _OK and g < known:
            h = g + 1
            while h < known and _differ(uids, g, h, 0) == 32:
                h += 1
            if twins is not None and h == g + 1 and not twins.twinned(uids, g * _UID_LEN):
                lone -= 1
                if lone:  # a registered tag could not hide there: walked on its turn only
                    g = h
                    continue
            if walked:  # the last group (READY2) goes back to IDLE/HALT, the others answer
                st = self.request(halted)
                if st == _NO_TAG:
                    st = _TIMEOUT
            if st == _OK:
                self._fill_cl(uids, g * _UID_LEN, 0)
                st = self._select_cl(0)
            if st == _OK and not self.sak & _SAK_CASCADE:
                st = _PROTOCOL_ERR
            if st == _OK:
                st = self._roll(uids, g, h, 1, 0)
            walked = True
            g = h
        if st == _OK:
            self.inventories += 1  # it saw every tag in the field, as a complete scan does
        if (st == _OK and not halted) or st == _CHIP_ERR:
            return st
        if self.halt() == _CHIP_ERR:
            return _CHIP_ERR
        # every tag IDLE (or HALT again): no field reset before a scan, unless a newcomer was
        # singled out and halted
        if not (halted or self.uid_len):
            self._flags |= _FRESH
        return st

    def _roll(self, uids, lo, hi, level, sent):
        """The trie node of the known tags in slots lo..hi-1 (sorted, sharing their first
        ``sent`` bits of UID CLn at ``level``): one ANTICOLLISION frame, answer as predicted?"""
        b = 32  # the first bit where they differ: the collision predicted there
        for i in range(lo, hi - 1):
            d = _differ(uids, i, i + 1, level)
            if d < b:
                b = d
        self._fill_cl(uids, lo * _UID_LEN, level)
        full = sent >> 3
        st = self._anticoll(level, sent)
        if b == 32 and st == _OK:  # a leaf: this UID CLn alone, no collision
            if self.rx_n != 5 - full or self.rx_last or not self._merge(full, sent & 7, 4):
                return _PROTOCOL_ERR
            return _OK if self._predicted(uids, lo, level, 40) else _COLLISION
        if st != _COLLISION:
            return _COLLISION if st == _OK else st  # OK: some predicted collision is missing
        last = full + self.rx_n - 1
        if not self._merge(full, sent & 7, last if last < 4 else 4):
            return _PROTOCOL_ERR
        a = self._coll_bit(level, sent)
        if a < 0 or a > b or not self._predicted(uids, lo, level, a):
            return _COLLISION
        if a < b:  # every known tag here sends the same bit at a: the others are newcomers
            return self._single(uids, lo, level, a)
        mid = lo + 1
        while not _bit(uids, mid, level, b):
            mid += 1
        st = self._roll(uids, lo, mid, level, b + 1)
        return self._roll(uids, mid, hi, level, b + 1) if st == _OK else st

    def _single(self, uids, slot, level, a):
        """A collision at bit ``a`` of UID CLn at ``level`` where the known tags (the one in
        ``slot`` among them) all send the same bit: the tags sending the other bit are
        newcomers. Single one out as ``select`` does (anticollision from that prefix, SELECT
        through the cascade levels, HLTA): its UID in .uid (.uid_len 7). COLLISION either way
        (the field changed); .uid_len stays 0 when no NTAG could be singled out."""
        self._follow(a, 1 - _bit(uids, slot, level, a))
        cl = self.cl
        for lvl in range(level, 2):
            st = self._resolve(lvl, a + 1 if lvl == level else 0)
            if st == _OK:
                st = self._select_cl(lvl)
            if st != _OK:
                return st
            if ((self.sak & _SAK_CASCADE) != 0) != (lvl == 0) or (lvl == 0) != (cl[0] == _CT):
                return _COLLISION  # not a 7-byte UID: the scan deals with it
            for i in range(3 + lvl):  # UID0..2 after CT, or UID3..6
                self.uid[3 * lvl + i] = cl[1 - lvl + i]
        for i in range(3):
            if level:
                self.uid[i] = uids[slot * _UID_LEN + i]  # the CL1 twin shares the known CL1
        self.halt()
        Mfrc522.uid_len = _UID_LEN
        return _COLLISION

    def _fill_cl(self, uids, off, level):
        """_cl = UID CLn of the 7-byte UID at uids[off:] at cascade ``level``, with its BCC."""
        cl = self.cl
        for k in range(4):
            cl[k] = _clbyte(uids, off, level, k)
        cl[4] = cl[0] ^ cl[1] ^ cl[2] ^ cl[3]

    def _predicted(self, uids, slot, level, end):
        """Whether _cl's first ``end`` bits (up to 40: BCC included) are those of the UID in
        ``slot`` at ``level``."""
        cl = self.cl
        bcc = 0
        for k in range(5):
            if k < 4:
                v = _clbyte(uids, slot * _UID_LEN, level, k)
                bcc ^= v
            else:
                v = bcc
            n = end - 8 * k
            if n <= 0:
                break
            m = 0xFF if n >= 8 else (1 << n) - 1
            if (cl[k] ^ v) & m:
                return False
        return True

    # --- inventory -----------------------------------------------------------------------
    def scan(self, uids, data=None, page=0, known=0, keep=False, peek=None):
        """Find every NTAG in the field, each once; return how many.

        UIDs go to ``uids`` in 7-byte slots (its length / 7 is the capacity); with ``data``,
        each tag's READ of `page` goes to ``data`` in 16-byte slots. .status tells the outcome:
        OK (field exhausted), OVERFLOW (more tags than slots), NO_TAG (antenna off) or the
        error that ended the scan after MAX_ERRORS retries. UIDs reported are always verified.

        `known` (without data): uids already holds the last inventory in its first
        `known` slots. Each is confirmed by a SELECT of its UID (no anticollision: 4 exchanges a
        tag instead of 6 and more), then the usual REQA loop finds what else is in the field,
        so a tag that arrived, or one whose confirmation failed, is still found.

        `keep` (with `known`): the field may have stayed on since the last scan of this reader,
        which left every tag in it HALT (ISO/IEC 14443-3 §6.3: HALT lasts while the tag is
        powered). The known tags are then woken by WUPA instead of a field reset (no 5.1 ms
        off, no 5.1 ms guard); a tag whose SELECT fails falls back to HALT (it was woken from
        HALT), where the REQA loop cannot find it, so after a scan where a SELECT failed the
        next one resets the field (a known tag that is simply gone meets silence: no reset; a
        tag that missed three WUPAs and is no longer known answers the WUPA of the next
        ``roll_call(keep=True)``). Without known tags, or with as many as fit, the field is
        reset as usual.

        Between every ``_PEEK_TAGS`` known tags the scan looks elsewhere: on a kept field it
        sends one REQA (only a newcomer, IDLE, answers it), otherwise it calls ``peek()`` (the
        caller's look at another reader's kept field). A newcomer or a true ``peek()`` cuts the
        scan short: .status PARTIAL, the tags confirmed so far (and on a kept field the
        newcomers) are returned, the others are not listed, and the scan is not counted in
        ``inventories`` (it did not see every tag). So a long pile never holds up the answer
        to a tap on the awaited pad.
        """
        cap = len(uids) // _UID_LEN
        if data is not None and len(data) < cap * _PAGE_BYTES:
            raise ValueError("data needs 16 bytes per UID slot")
        self.errors = 0
        self.foreign = 0
        if not self._flags & _FIELD:
            self.status = _NO_TAG
            return 0
        halted = keep and not self._flags & (_FRESH | _LOST) and 0 < known < cap \
            and data is None
        if not (self._flags & _FRESH or halted):
            self._field_reset()
        self.inventories += 1
        found = 0
        retry = False
        wake = True
        self.status = _OK
        if known and data is None:
            # SELECT each known UID in turn and halt it; the confirmed ones move to the front.
            # Every _PEEK_TAGS tags a look elsewhere may cut it short (.status PARTIAL). One
            # REQA brings every IDLE tag to READY1 (WUPA when the tags are ``halted``: IDLE and
            # HALT ones); a SELECT CL1 naming an absent tag meets silence and leaves the others
            # READY1, so the next SELECT needs no new request. After a tag is halted the others
            # have fallen back to IDLE, or HALT if woken from it (SELECT CL2 was not for them).
            ready = False
            twice = False
            self._flags &= ~_UNSETTLED
            for k in range(known if known < cap else cap):
                if k and not k % _PEEK_TAGS and not ready:
                    if self.request(False) != _NO_TAG if halted else peek is not None and peek():
                        self.status = _PARTIAL  # a newcomer here (now READY: ask twice) or there
                        self._flags |= _UNSETTLED
                        break
                if not ready:
                    st = self.request(halted)
                    if st == _NO_TAG and twice:
                        st = self.request(True)
                    twice = False
                    if st != _OK:
                        break  # no IDLE tag answers: the remaining known tags have left
                    ready = True
                st = self._select_part(uids, k * _UID_LEN, 0)
                if st == _TIMEOUT:
                    continue  # that tag is gone; the others are still READY1
                if st == _OK:
                    st = self._select_part(uids, k * _UID_LEN, 1)
                ready = False
                if st == _TIMEOUT and halted:
                    # gone after its CL1, which other tags share: they wait in READY2, where the
                    # next WUPA sends them back to HALT without an answer; one more wakes them
                    twice = True
                    continue
                if st != _OK:
                    self.errors += 1
                    self._flags |= _UNSETTLED
                    continue  # it fell back to IDLE (or was never selected): the REQA loop finds it
                self._flags &= ~_UNSETTLED
                self.halt()
                if found != k:
                    for i in range(_UID_LEN):
                        uids[found * _UID_LEN + i] = uids[k * _UID_LEN + i]
                found += 1
            if ready:
                self._flags |= _UNSETTLED
            wake = False  # WUPA would wake the tags just confirmed and halted
            # tags left READY hear the next REQA as an error: ask twice
            retry = (self._flags & _UNSETTLED) != 0
        cut = self.status == _PARTIAL
        self._flags &= ~_LOST
        if halted and self.errors > 0:
            self._flags |= _LOST  # a SELECT failed: that tag may be HALT again
        if cut:
            self.inventories -= 1
            if not halted:  # the other known tags are IDLE: the REQA loop would single each
                return found  # out by anticollision; the pad is scanned again soon
        found = self._inventory(uids, data, page, found, wake, retry)
        if cut and self.status == _OK:
            self.status = _PARTIAL
        return found

    def arrivals(self, uids):
        """The tags that came into a field kept on since the last ``scan`` of this reader: that
        scan halted every tag it found, and HALT tags do not answer REQA (ISO/IEC 14443-3
        §6.4.1), so one REQA meeting silence (~1 ms) says nothing arrived; a newcomer powers
        up IDLE (§6.3) and is singled out and halted as in ``scan``. Returns how many, UIDs in
        uids from slot 0; .status as for ``scan``. It says nothing about the tags that
        left (the caller's presence must not count it as a complete scan)."""
        self.errors = 0
        self.foreign = 0
        if not self._flags & _FIELD:
            self.status = _NO_TAG
            return 0
        return self._inventory(uids, None, 0, 0, False, False)

    def _inventory(self, uids, data, page, found, all, retry):
        """The request loop of ``scan``: every tag answering REQA (WUPA first when ``all``)
        after the first ``found`` slots; sets .status, returns the new count."""
        cap = len(uids) // _UID_LEN
        st = _OK
        for _ in range(cap + 2 * _MAX_ERRORS + _MAX_FOREIGN + 2):
            st = self.request(all)
            all = False
            if st == _NO_TAG:
                if retry:  # this REQA only sent the failed tag back to IDLE: ask again
                    retry = False
                    continue
                st = _OK
                break
            retry = False
            if st == _OK and found == cap:
                st = _OVERFLOW
                break
            if st == _OK:
                st = self.select()
            if st == _OK and self.uid_len == _UID_LEN and data is not None:
                st = self.read(page, data, found * _PAGE_BYTES)
            if st == _OK:
                self.halt()
                uid = self.uid
                if self.uid_len != _UID_LEN:
                    self.foreign += 1
                    continue
                for k in range(found):
                    o = k * _UID_LEN
                    for i in range(_UID_LEN):
                        if uids[o + i] != uid[i]:
                            break
                    else:  # listed already: a tag that did not stay halted
                        self.errors += 1
                        break
                else:
                    for i in range(_UID_LEN):
                        uids[found * _UID_LEN + i] = uid[i]
                    found += 1
                continue
            self.errors += 1
            retry = True
            if st == _CHIP_ERR or self.errors > _MAX_ERRORS:
                break
        else:
            st = _OVERFLOW  # more rounds than tags, retries and foreign tags can explain
        self.status = st
        return found


