"""Register-level MFRC522 emulator: what a driver sees through the SPI port, plus an RF field.

The emulator decodes the SPI byte stream as the chip does (NXP MFRC522 data sheet rev 3.9,
§8.1.2: a transaction starts when NSS falls; the first byte is the address byte, bit 7 = read,
bits 6..1 = register; a read transaction answers, on each following byte, the register named by
the previous MOSI byte, so several registers can be read in one transaction; a write
transaction writes every following byte to the same register, which is how the FIFO is
filled). Registers follow §9 (reset values from the register tables); commands follow §10.3
(Table 149): Idle, Mem, CalcCRC, Transceive, SoftReset; NoCmdChange only updates RcvOff and
PowerDown; the other commands end at once with IdleIRq.

Modelled behaviour the driver relies on:
- FIFO (§8.3, 64 bytes, FIFOLevelReg with FlushBuffer, BufferOvfl on overflow).
- Transceive (§10.3.1.8): StartSend in BitFramingReg sends the FIFO, TxLastBits gives the
  valid bits of the last byte (short and bit-oriented frames); the answer is stored with its
  first bit at RxAlign; ControlReg RxLastBits gives the valid bits of the last received byte.
  The command stays active after the answer, as on the chip; ComIrqReg gets TxIRq then RxIRq
  (and ErrIRq on errors), or TimerIRq when no tag answers.
- Several tags in the field answer at once: the answers are superposed bit by bit. Where they
  differ, ErrorReg CollErr is set and CollReg CollPos holds the position of the first collided
  bit, 1..32 with 0 meaning 32 (CollPosNotValid beyond that) (§9.3.1.15). Where the count starts
  is not settled by the data sheet, so `collpos` picks one of three readings: COLLPOS_FIFO from
  bit 0 of the first FIFO byte, RxAlign included (the default); COLLPOS_UID from the first bit of
  the UID CLn, the bits the reader sent included (the reading of the Arduino MFRC522 library);
  COLLPOS_RX from the first received bit. The collided bit reads 1; later bits read as the
  wired OR of the answers when ValuesAfterColl is set, as 0 when it is cleared.
- Timer (§8.5, §9.3.3.10): with TAuto the timer starts at the end of the transmission; an
  answer whose frame delay exceeds the reload period (prescaler per TModeReg/TPrescalerReg and
  DemodReg TPrescalEven) is lost and TimerIRq is set. TStartNow fires TimerIRq at once: time
  does not pass in the emulator. Without TAuto nothing ever times out (the driver must bound its
  polling). With ModeReg TxWaitRF and the antenna off the transmitter never starts.
- Antenna (§9.3.2.5 TxControlReg Tx1RFEn/Tx2RFEn): switching the field off powers every tag
  down (ISO/IEC 14443-3 §6.3.1); switching it on puts them in IDLE.
- CRC coprocessor (§10.3.1.4 CalcCRC): FIFO bytes, and bytes written while the command runs,
  go through CRC_A with the ModeReg CRCPreset (0000h, 6363h, A671h, FFFFh); the result is in
  CRCResultReg (21h MSB, 22h LSB); DivIrqReg CRCIRq and Status1Reg CRCReady are set.

Not modelled: parity bits and ParityErr, TxCRCEn/RxCRCEn hardware CRC, MSBFirst, Hi/LoAlert
interrupts, the IRQ pin, power-down, MIFARE Crypto1, data rates other than 106 kBd.

Faults (`inject`, armed after a given number of transceives): NO_ANSWER drops the answers
of the next N transceives (the tags still act on the frame); BAD_CRC corrupts the CRC_A of
the next N answers that carry one; FLIP flips one data bit of the next N answers; NOISE
reports a spurious collision in the next N answers (at bit `bit` of the answer, default its
middle) and garbles the bits after it.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from firmware.emu.ntag import crc_a

# Registers (§9.2 Table 20).
_COMMAND = const(0x01)
_COM_IEN = const(0x02)
_DIV_IEN = const(0x03)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_STATUS1 = const(0x07)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_WATER_LEVEL = const(0x0B)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_DEMOD = const(0x19)
_CRC_RESULT_H = const(0x21)
_CRC_RESULT_L = const(0x22)
_TMODE = const(0x2A)
_TPRESCALER = const(0x2B)
_TRELOAD_H = const(0x2C)
_TRELOAD_L = const(0x2D)
_VERSION = const(0x37)

# Commands (§10.3 Table 149) and CommandReg bits.
_CMD_IDLE = const(0x0)
_CMD_MEM = const(0x1)
_CMD_CALC_CRC = const(0x3)
_CMD_NO_CHANGE = const(0x7)
_CMD_TRANSCEIVE = const(0xC)
_CMD_MF_AUTHENT = const(0xE)
_CMD_SOFT_RESET = const(0xF)
_RCV_OFF = const(0x20)
_POWER_DOWN = const(0x10)

# ComIrqReg / DivIrqReg / ErrorReg bits.
_TX_IRQ = const(0x40)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_ERR_IRQ = const(0x02)
_TIMER_IRQ = const(0x01)
_CRC_IRQ = const(0x04)
_BUFFER_OVFL = const(0x10)
_COLL_ERR = const(0x08)
_STICKY_ERRS = const(0xD0)  # WrErr, TempErr, BufferOvfl: a command does not clear them

# CollReg CollPos readings (`Mfrc522Emu.collpos`, module docstring).
COLLPOS_FIFO = const(0)
COLLPOS_UID = const(1)
COLLPOS_RX = const(2)

# Fault kinds for inject().
NO_ANSWER = const(1)
BAD_CRC = const(2)
FLIP = const(3)
NOISE = const(4)

# Reset values (§9.3 register tables); unlisted registers reset to 00h.
_RESET_VALUES = (
    (_COMMAND, 0x20), (_COM_IEN, 0x80), (_COM_IRQ, 0x14), (_STATUS1, 0x21),
    (_WATER_LEVEL, 0x08), (_CONTROL, 0x10), (_COLL, 0xA0), (_MODE, 0x3F),
    (_TX_CONTROL, 0x80), (0x16, 0x10), (0x17, 0x84), (0x18, 0x84), (_DEMOD, 0x4D),
    (0x1C, 0x62), (0x1F, 0xEB), (_CRC_RESULT_H, 0xFF), (_CRC_RESULT_L, 0xFF),
    (0x24, 0x26), (0x26, 0x48), (0x27, 0x88), (0x28, 0x20), (0x29, 0x20),
)
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)
_FIFO_SIZE = const(64)
_MAX_ANSWER = const(24)  # bytes; the longest answer (READ) is 18


class Mfrc522Emu:
    """One emulated MFRC522 behind chip-select pin `cs` (an EmuPin), with its RF field."""

    # Scratch for one exchange, shared by every emulated reader (exchanges never overlap):
    # the frame on the air and the wired OR / wired AND of the answers.
    _frame = bytearray(_FIFO_SIZE)
    _or = bytearray(_MAX_ANSWER)
    _and = bytearray(_MAX_ANSWER)

    def __init__(self, cs, version=0x92):
        if not 0 < version < 0xFF:
            raise ValueError("VersionReg: 91h/92h (NXP v1.0/v2.0), a clone's value (88h, B2h ...)")
        self.cs = cs
        self.version = version
        self.regs = bytearray(64)
        self._fifo = bytearray(_FIFO_SIZE)
        self._fhead = 0
        self._flen = 0
        self._mem = bytearray(25)  # the Mem command's internal buffer survives SoftReset
        self._field = []
        self._crc = 0
        self._falls = cs.falls
        self._expect_addr = True
        self._reading = False
        self._addr = 0
        self._faults = bytearray(5)  # remaining count per fault kind
        self._after = bytearray(5)   # transceives to let pass before the fault starts
        self._live = bytearray(5)    # fault kinds active in the current transceive
        self._noise_bit = -1
        self._start = 0  # superposed answer: bit range, CRC_A flag, frame delay
        self._end = 0
        self._crc_ans = False
        self._delay = 0
        self.transceives = 0
        self.fields = 0  # times the field went on: scans begun (the virtual board's N report)
        self.collpos = COLLPOS_FIFO
        self._soft_reset()

    # --- RF field ------------------------------------------------------------------------
    def rf_on(self):
        return (self.regs[_TX_CONTROL] & 0x03) != 0

    def add_tag(self, tag):
        """Put a tag in the field; it powers up (IDLE) if the antenna is on."""
        for t in self._field:
            if t is tag:
                raise ValueError("tag already in the field")
        self._field.append(tag)
        tag.power(self.rf_on())

    def remove_tag(self, uid):
        """Take the tag with this UID out of the field; return it, or None if absent."""
        for i in range(len(self._field)):
            t = self._field[i]
            if t.uid == bytes(uid):
                self._field.pop(i)
                t.power(False)
                return t
        return None

    def clear(self):
        for t in self._field:
            t.power(False)
        self._field = []

    def tags(self):
        return list(self._field)

    def inject(self, kind, count=1, after=0, bit=-1):
        """Arm a fault for `count` transceives/answers once `after` transceives have passed.

        See the module docstring for what each kind does; `bit` places a NOISE collision.
        """
        if kind not in (NO_ANSWER, BAD_CRC, FLIP, NOISE) or not 0 <= count <= 255 \
                or not 0 <= after <= 255:
            raise ValueError("unknown fault kind, or count/after outside 0..255")
        self._faults[kind] = count
        self._after[kind] = after
        if kind == NOISE:
            self._noise_bit = bit

    def _set_field(self, old):
        on = self.rf_on()
        if on != old:
            if on:
                self.fields += 1
            for t in self._field:
                t.power(on)

    # --- SPI -----------------------------------------------------------------------------
    def transfer(self, tx, rx):
        """Clock len(tx) bytes through the SPI port (NSS is low); fill rx with MISO."""
        falls = self.cs.falls
        if falls != self._falls:  # NSS fell since the last bytes: a new transaction
            self._falls = falls
            self._expect_addr = True
        for i in range(len(tx)):
            b = tx[i]
            if self._expect_addr:
                self._expect_addr = False
                self._reading = (b & 0x80) != 0
                self._addr = (b >> 1) & 0x3F
                rx[i] = 0
            elif self._reading:
                rx[i] = self._read(self._addr)
                self._addr = (b >> 1) & 0x3F
            else:
                rx[i] = 0
                self._write(self._addr, b)

    def _read(self, reg):
        r = self.regs
        if reg == _FIFO_DATA:
            return self._pop()
        if reg == _FIFO_LEVEL:
            return self._flen
        if reg == _STATUS1:
            return self._status1()
        if reg == _BIT_FRAMING:
            return r[reg] & 0x7F  # StartSend reads 0
        if reg == _CONTROL:
            return r[reg] & 0x3F  # TStopNow/TStartNow read 0
        if reg == _VERSION:
            return self.version
        return r[reg]

    def _status1(self):
        r = self.regs
        v = 0
        if self._flen <= r[_WATER_LEVEL]:
            v |= 0x01  # LoAlert
        if _FIFO_SIZE - self._flen <= r[_WATER_LEVEL]:
            v |= 0x02  # HiAlert
        if (r[_COM_IRQ] & r[_COM_IEN] & 0x7F) or (r[_DIV_IRQ] & r[_DIV_IEN] & 0x7F):
            v |= 0x10  # IRq
        if r[_COMMAND] & 0x0F != _CMD_CALC_CRC or r[_DIV_IRQ] & _CRC_IRQ:
            v |= 0x20  # CRCReady
            if r[_CRC_RESULT_H] == 0 and r[_CRC_RESULT_L] == 0:
                v |= 0x40  # CRCOk
        return v

    def _write(self, reg, v):
        r = self.regs
        if reg == _COMMAND:
            self._command(v)
        elif reg == _COM_IRQ or reg == _DIV_IRQ:
            if v & 0x80:  # Set1/Set2: marked bits are set, else cleared
                r[reg] |= v & 0x7F
            else:
                r[reg] &= ~v & 0xFF
        elif reg == _FIFO_DATA:
            if r[_COMMAND] & 0x0F == _CMD_CALC_CRC:
                self._frame[0] = v
                self._crc_update(1)
            else:
                self._push(v)
        elif reg == _FIFO_LEVEL:
            if v & 0x80:  # FlushBuffer: the only way to clear BufferOvfl, WrErr and TempErr
                self._flen = 0
                self._fhead = 0
                r[_ERROR] &= ~_STICKY_ERRS & 0xFF
        elif reg == _BIT_FRAMING:
            r[reg] = v & 0x7F
            if v & 0x80 and r[_COMMAND] & 0x0F == _CMD_TRANSCEIVE:
                self._transceive()
        elif reg == _CONTROL:
            r[reg] = (r[reg] & 0x07) | (v & 0x38)  # RxLastBits is read-only
            if v & 0x40:  # TStartNow: time does not pass here, so it expires at once
                r[_COM_IRQ] |= _TIMER_IRQ
        elif reg == _TX_CONTROL:
            old = self.rf_on()
            r[reg] = v
            self._set_field(old)
        elif reg == _COLL:
            r[reg] = (r[reg] & 0x7F) | (v & 0x80)  # only ValuesAfterColl is writable
        elif reg in (_ERROR, _STATUS1, _CRC_RESULT_H, _CRC_RESULT_L, _VERSION):
            pass  # read-only
        else:
            r[reg] = v

    # --- FIFO ----------------------------------------------------------------------------
    def _push(self, v):
        if self._flen == _FIFO_SIZE:
            self.regs[_ERROR] |= _BUFFER_OVFL
            return
        self._fifo[(self._fhead + self._flen) % _FIFO_SIZE] = v
        self._flen += 1

    def _pop(self):
        if self._flen == 0:
            return 0
        v = self._fifo[self._fhead]
        self._fhead = (self._fhead + 1) % _FIFO_SIZE
        self._flen -= 1
        return v

    # --- commands ------------------------------------------------------------------------
    def _command(self, v):
        r = self.regs
        cmd = v & 0x0F
        if cmd == _CMD_NO_CHANGE:
            r[_COMMAND] = (r[_COMMAND] & 0x0F) | (v & (_RCV_OFF | _POWER_DOWN))
            return
        if cmd == _CMD_SOFT_RESET:
            self._soft_reset()
            return
        r[_COMMAND] = v & (_RCV_OFF | _POWER_DOWN | 0x0F)
        if cmd == _CMD_CALC_CRC:
            self._crc = _CRC_PRESETS[r[_MODE] & 0x03]
            n = 0
            while self._flen:
                self._frame[n] = self._pop()
                n += 1
            self._crc_update(n)
        elif cmd == _CMD_MEM:
            if self._flen == 0:
                for i in range(25):
                    self._push(self._mem[i])
            else:
                for i in range(25):
                    self._mem[i] = self._pop()
            self._end_command()
        elif cmd == _CMD_MF_AUTHENT:
            # MIFARE Classic authentication: no NTAG ever answers it, so the command never
            # completes; only the timer (TAuto) ends the wait (TimerIRq, no IdleIRq)
            self._flen = 0
            self._fhead = 0
            if self._timer_fc() >= 0:
                r[_COM_IRQ] |= _TIMER_IRQ
        elif cmd != _CMD_IDLE and cmd != _CMD_TRANSCEIVE:
            self._end_command()  # not modelled: ends at once

    def _end_command(self):
        self.regs[_COMMAND] &= 0xF0
        self.regs[_COM_IRQ] |= _IDLE_IRQ

    def _crc_update(self, n):
        self._crc = crc_a(self._frame, n, self._crc)
        self.regs[_CRC_RESULT_H] = self._crc >> 8
        self.regs[_CRC_RESULT_L] = self._crc & 0xFF
        self.regs[_DIV_IRQ] |= _CRC_IRQ

    def _soft_reset(self):
        r = self.regs
        old = (r[_TX_CONTROL] & 0x03) != 0
        for i in range(64):
            r[i] = 0
        for reg, v in _RESET_VALUES:
            r[reg] = v
        self._flen = 0
        self._fhead = 0
        self._set_field(old)

    def _timer_fc(self):
        """Timer period in carrier cycles, or -1 if the timer does not run (§8.5)."""
        r = self.regs
        if not r[_TMODE] & 0x80:
            return -1
        pre = (r[_TMODE] & 0x0F) << 8 | r[_TPRESCALER]
        step = 2 * pre + (2 if r[_DEMOD] & 0x10 else 1)
        return step * ((r[_TRELOAD_H] << 8 | r[_TRELOAD_L]) + 1)  # TReloadVal + 1 (§8.5)

    def _transceive(self):
        r = self.regs
        self.transceives += 1
        for k in range(1, 5):
            self._live[k] = 1 if self._faults[k] and not self._after[k] else 0
            if self._after[k]:
                self._after[k] -= 1
        n = 0
        while self._flen:
            self._frame[n] = self._pop()
            n += 1
        last = r[_BIT_FRAMING] & 0x07
        nbits = 8 * n - (8 - last if last and n else 0)
        r[_ERROR] &= _STICKY_ERRS
        if not self.rf_on() and r[_MODE] & 0x20:
            return  # TxWaitRF: no field, nothing is sent and the timer never starts
        r[_COM_IRQ] |= _TX_IRQ
        answered = False
        if self.rf_on() and nbits and not r[_COMMAND] & _RCV_OFF:
            answered = self._air(nbits)
        if self._live[NO_ANSWER]:
            self._faults[NO_ANSWER] -= 1
            answered = False
        timer = self._timer_fc()
        if answered and 0 <= timer < self._delay:
            answered = False
        if not answered:
            if timer >= 0:
                r[_COM_IRQ] |= _TIMER_IRQ
            return
        self._receive((r[_BIT_FRAMING] >> 4) & 0x07)

    def _air(self, nbits):
        """Send the frame to every tag; superpose the answers in _or/_and. True if any."""
        count = 0
        nb = 0
        for t in self._field:
            if not t.respond(self._frame, nbits):
                continue
            tb = (t.rend + 7) >> 3
            if count == 0:
                self._start = t.rstart
                self._end = t.rend
                self._crc_ans = t.has_crc
                self._delay = t.answer_fc
            else:
                self._start = min(self._start, t.rstart)
                self._end = max(self._end, t.rend)
                self._crc_ans = self._crc_ans and t.has_crc
                self._delay = max(self._delay, t.answer_fc)
            for i in range(nb, tb):
                self._or[i] = 0
                self._and[i] = 0xFF if count == 0 else 0
            nb = max(nb, tb)
            for i in range(nb):
                a = t.resp[i] if i < tb else 0
                self._or[i] |= a
                self._and[i] &= a
            count += 1
        return count > 0

    def _receive(self, align):
        """Store the superposed answer in the FIFO as the receiver would (§9.3.1.13-15)."""
        r = self.regs
        start = self._start
        end = self._end
        nb = (end + 7) >> 3
        if self._live[BAD_CRC] and self._crc_ans:
            self._faults[BAD_CRC] -= 1
            self._or[nb - 1] ^= 0xA5
            self._and[nb - 1] ^= 0xA5
        if self._live[FLIP]:
            self._faults[FLIP] -= 1
            j = (start + end) >> 1
            self._or[j >> 3] ^= 1 << (j & 7)
            self._and[j >> 3] ^= 1 << (j & 7)
        coll = end   # the first bit where the answers differ (whole equal bytes skipped at once)
        j = start
        while j < end:
            if not j & 7 and j + 8 <= end and self._or[j >> 3] == self._and[j >> 3]:
                j += 8
            elif (self._or[j >> 3] ^ self._and[j >> 3]) >> (j & 7) & 1:
                coll = j
                break
            else:
                j += 1
        noisy = 0
        if self._live[NOISE] and end - start >= 2:
            self._faults[NOISE] -= 1
            k = self._noise_bit
            j = start + (k if 0 <= k < end - start else (end - start) >> 1)
            if j < coll:
                coll = j
                noisy = 1
        keep_after = r[_COLL] & 0x80  # ValuesAfterColl
        q = align
        cur = 0
        first = start   # the bits still to go into the FIFO one by one
        if coll == end and not align and not start & 7:
            # no collision, byte-aligned (every answer but an anticollision's): whole bytes
            for b in range(start >> 3, end >> 3):
                self._push(self._or[b])
            q = end - start
            cur = self._or[end >> 3] & ((1 << (q & 7)) - 1) if q & 7 else 0
            first = end
        for j in range(first, end):
            bit = self._or[j >> 3] >> (j & 7) & 1
            if j == coll:
                bit = 1
            elif j > coll:
                bit = (bit ^ noisy) if keep_after else 0
            cur |= bit << (q & 7)
            q += 1
            if q & 7 == 0:
                self._push(cur)
                cur = 0
        if q & 7:
            self._push(cur)
        r[_CONTROL] = (r[_CONTROL] & 0xF8) | (q & 7)
        if coll < end:
            r[_ERROR] |= _COLL_ERR
            pos = coll - start + 1  # COLLPOS_RX
            if self.collpos == COLLPOS_FIFO:
                pos += align
            elif self.collpos == COLLPOS_UID:
                pos += start
            r[_COLL] = keep_after | ((pos & 0x1F) if pos <= 32 else 0x20)
        else:
            r[_COLL] = keep_after | 0x20
        r[_COM_IRQ] |= _RX_IRQ | (_ERR_IRQ if r[_ERROR] else 0)
