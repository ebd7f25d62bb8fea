"""MFRC522 driver against the register-level MFRC522 + NTAG21x emulator, on both interpreters.

The driver (firmware/mfrc522.py) only sees SPI bytes; the emulator (firmware/emu/)
decodes them as the chip would and superposes the answers of every tag in its field, so
collisions, cascade levels, faults and timeouts are exercised end to end.
"""
import binascii

try:
    import micropython
except ImportError:
    micropython = None

from firmware import mfrc522 as drv
from firmware.tag_writer import TagWriter
from host.board import mfrc522_layout as L
from firmware.emu import mfrc522_emu as emu
from firmware.emu.ntag import ACTIVE, NTAG213, NTAG215, NTAG216, WRITE_FC, NtagTag, Picc
from firmware.emu.ntag import crc_a as emu_crc_a
from firmware.emu.spi_bus import EmuPin, EmuSpiBus
from soak import count

ROLL_SETS = count(100, 300)   # random known sets per CollPos reading in the roll-call tests (make soak: 300)

FAULTS = ((emu.NO_ANSWER, "no_answer"), (emu.BAD_CRC, "bad_crc"), (emu.FLIP, "flip"),
          (emu.NOISE, "noise"))


def _hex(b):
    return binascii.hexlify(bytes(b)).decode()


def _uid(*tail):
    return bytes((0x04,) + tail)


def _rig(version=0x92, spy=False, driver=drv.Mfrc522):
    bus = EmuSpiBus()
    chip = bus.add_reader(version)
    port = _Spy(bus) if spy else bus
    rdr = driver(port, chip.cs)
    assert rdr.init() == L.OK
    if spy:
        port.frames = []  # forget the CRC self-test written by init()
    return bus, chip, rdr, port


class _Spy:
    """SPI wrapper that records every frame the driver loads into the FIFO (FIFODataReg write)."""

    def __init__(self, bus):
        self.bus = bus
        self.frames = []

    def write_readinto(self, tx, rx):
        if tx[0] == 0x09 << 1:
            self.frames.append(_hex(tx[1:]))
        self.bus.write_readinto(tx, rx)


class _Trace:
    """Wraps a driver's _transceive to log (frame, status, CollReg) of every exchange."""

    def __init__(self, rdr):
        self.rdr = rdr
        self.inner = rdr._transceive
        self.log = []
        rdr._transceive = self

    def __call__(self, n, last_bits, align, ticks):
        frame = _hex(self.rdr.ftx[1:n + 1])
        st = self.inner(n, last_bits, align, ticks)
        self.log.append((frame, st, self.rdr.coll))
        return st


def _scan(rdr, cap=5, data=None, page=0):
    """One poll of a reader as the mat does it: field on, inventory, field off."""
    buf = bytearray(7 * cap)
    rdr.antenna_on()
    n = rdr.scan(buf, data, page)
    rdr.antenna_off()
    return [_hex(buf[7 * i:7 * i + 7]) for i in range(n)]


def _hexes(uids):
    return sorted([_hex(u) for u in uids])


def _raw(bus, chip, tx):
    """One SPI transaction straight to the emulated chip; returns MISO."""
    rx = bytearray(len(tx))
    chip.cs.value(0)
    bus.write_readinto(bytearray(tx), rx)
    chip.cs.value(1)
    return list(rx)


# --- CRC_A ---------------------------------------------------------------------------------

def test_crc_a_known_answers_and_both_implementations_agree():
    vectors = (b"\x00\x00", b"\x12\x34", b"\x50\x00", b"\x30\x00",
               b"\x93\x70\x88\x04\x01\x02\x8f")
    out = []
    for v in vectors:
        c = drv.crc_a(v, 0, len(v))
        assert c == emu_crc_a(v, len(v))  # byte-wise (driver) == bit-serial (emulator)
        out.append([c & 0xFF, c >> 8])   # as sent on the air, LSByte first
    assert out[0] == [0xA0, 0x1E]  # ISO/IEC 14443-3 Annex B example
    assert out[1] == [0x26, 0xCF]  # ISO/IEC 14443-3 Annex B example
    assert out[2] == [0x57, 0xCD]  # HLTA
    assert out[3] == [0x02, 0xA8]  # READ page 0
    return out


# --- chip bring-up --------------------------------------------------------------------------

def test_init_checks_version_and_crc_coprocessor():
    versions = []
    for v in (0x91, 0x92, 0x88, 0x12, 0xB2, 0x89, 0x90):  # NXP v1.0/v2.0 and clones
        _, _, rdr, _ = _rig(v)  # _rig asserts init() == OK: the CRC self-test passed
        versions.append(rdr.version)
    assert versions == [0x91, 0x92, 0x88, 0x12, 0xB2, 0x89, 0x90]
    bus = EmuSpiBus()
    chip = bus.add_reader(0xB2)
    chip._crc_update = lambda n: None  # a clone whose CRC coprocessor computes nothing
    rdr = drv.Mfrc522(bus, chip.cs)
    assert rdr.init() == L.CHIP_ERR and rdr.version == 0xB2
    return versions


def test_init_configures_timer_modulation_crc_and_gain():
    _, chip, rdr, _ = _rig()
    r = chip.regs
    # TModeReg TAuto + prescaler 169 (25 us ticks), 300 us reload, 100 % ASK, ModeReg 3Dh
    # (TxWaitRF, CRC preset 6363h), 48 dB RX gain, ValuesAfterColl off, antenna off
    regs = [r[0x2A], r[0x2B], r[0x2C], r[0x2D], r[0x15], r[0x11], r[0x26], r[0x0E] & 0x80,
            r[0x14]]
    assert regs == [0x80, 169, 0, 11, 0x40, 0x3D, 0x78, 0, 0x80]
    bus = EmuSpiBus()
    quiet = bus.add_reader()
    assert drv.Mfrc522(bus, quiet.cs, gain=4).init() == L.OK and quiet.regs[0x26] == 0x48
    try:
        drv.Mfrc522(bus, quiet.cs, gain=8)
        bad_gain = "accepted"
    except ValueError:
        bad_gain = "rejected"
    assert bad_gain == "rejected"
    return regs


class _ZeroSpi:
    """A bus where the chip never answers: MISO stuck low."""

    def __init__(self):
        self.transactions = 0

    def write_readinto(self, tx, rx):
        self.transactions += 1
        for i in range(len(rx)):
            rx[i] = 0


def test_answer_timeout_covers_the_latest_iso_answer_and_no_more():
    # REQA/ANTICOLLISION/SELECT answers start 1172/fc or 1236/fc after the frame (FDT, n = 9) and
    # TAuto stops the timer at the answer's 5th bit: the 300 us reload must cover 1236 + 5 * 128 fc
    _, chip, rdr, _ = _rig()
    period = (2 * 169 + 1) * (chip.regs[0x2D] + 1)
    assert period >= 1236 + 5 * 128 and chip.regs[0x2D] == 11
    late = NtagTag(_uid(9, 9, 9, 9, 9, 9), delay_fc=1236)
    chip.add_tag(late)
    rdr.antenna_on()
    heard = _scan(rdr)
    rdr.antenna_off()
    chip.remove_tag(late.uid)
    chip.add_tag(NtagTag(_uid(8, 8, 8, 8, 8, 8), delay_fc=period + 1))  # answers too late
    rdr.antenna_on()
    missed = _scan(rdr)
    rdr.antenna_off()
    assert heard == [_hex(late.uid)] and missed == []
    return [period, heard, missed]


def test_absent_chip_gives_chip_error_after_bounded_polling():
    out = []
    empty = EmuSpiBus()  # no reader selected: the board's pull-down reads 00h
    rdr = drv.Mfrc522(empty, EmuPin())
    out.append(L.STATUS_NAMES[rdr.init()])
    assert empty.transactions <= 1 + 1000 + 1
    dead = _ZeroSpi()
    rdr = drv.Mfrc522(dead, EmuPin())
    out.append(L.STATUS_NAMES[rdr.init()])
    rdr.antenna_on()
    before = dead.transactions
    buf = bytearray(35)
    assert rdr.scan(buf) == 0
    out.append(L.STATUS_NAMES[rdr.status])
    assert dead.transactions - before < 3000  # bounded: no endless wait on a dead chip
    assert out == ["chip", "chip", "chip"]
    return out


def test_missing_timer_is_caught_by_the_poll_bound():
    bus, chip, rdr, _ = _rig()
    rdr.antenna_on()
    _raw(bus, chip, [0x2A << 1, 0x00])  # TModeReg: TAuto off, so no TimerIRq ever comes
    before = bus.transactions
    st = rdr.request(True)
    assert st == L.CHIP_ERR
    assert bus.transactions - before < 1020  # set-up, then the 1000-poll bound
    return L.STATUS_NAMES[st]


# --- inventory ------------------------------------------------------------------------------

def test_single_tag_is_found_and_left_halted():
    _, chip, rdr, _ = _rig()
    tag = NtagTag(_uid(1, 2, 3, 4, 5, 6))
    chip.add_tag(tag)
    rdr.antenna_on()
    buf = bytearray(35)
    n = rdr.scan(buf)
    assert n == 1 and rdr.status == L.OK and rdr.errors == 0
    assert _hex(buf[:7]) == "04010203040506"
    assert tag.state_name() == "HALT"
    rdr.antenna_off()
    assert tag.state_name() == "POWER_OFF"
    return [n, _hex(buf[:7])]


def test_seven_byte_uid_goes_through_cascade_level_2():
    _, chip, rdr, spy = _rig(spy=True)
    chip.add_tag(NtagTag(_uid(0x11, 0x22, 0x33, 0x44, 0x55, 0x66)))
    assert _scan(rdr) == ["04112233445566"]
    bcc0 = 0x88 ^ 0x04 ^ 0x11 ^ 0x22
    bcc1 = 0x33 ^ 0x44 ^ 0x55 ^ 0x66
    sel1 = "937088041122%02x" % bcc0
    sel2 = "957033445566%02x" % bcc1
    selects = [f[:-4] for f in spy.frames if f[2:4] == "70"]  # SELECTs without their CRC_A
    assert selects == [sel1, sel2]  # CL1 carries cascade tag 88h, CL2 the last 4 UID bytes
    assert spy.frames[0] == "52" and spy.frames[1] == "9320" and spy.frames[3] == "9520"
    assert rdr.uid_len == 7 and rdr.sak == 0x00
    return spy.frames


BAG = (_uid(0xAA, 0xBB, 0x10, 0x20, 0x30, 0x40),
       _uid(0xAA, 0xBB, 0x10, 0x20, 0x30, 0x41),  # differs in the last UID bit of CL2
       _uid(0xAA, 0x3B, 0x10, 0x20, 0x30, 0x40),  # CL1 collision in bit 31
       _uid(0x2A, 0xBB, 0x99, 0x20, 0x30, 0x40),  # CL1 collision in bit 15
       _uid(0xAA, 0xBB, 0x10, 0xA0, 0x30, 0x40))  # CL2 collision in bit 15


def _bag_reader(tags=BAG, spy=False):
    bus, chip, rdr, port = _rig(spy=spy)
    for u in tags:
        chip.add_tag(NtagTag(u))
    return bus, chip, rdr, port


def test_five_tags_in_a_bag_are_each_found_exactly_once():
    _, chip, rdr, _ = _bag_reader()
    tr = _Trace(rdr)
    truth = _hexes(BAG)
    got = _scan(rdr)
    assert sorted(got) == truth and len(got) == 5
    assert rdr.status == L.OK and rdr.errors == 0
    collisions = len([x for x in tr.log if x[1] == L.COLLISION])
    assert collisions >= 4  # the bag really collided
    again = _scan(rdr)
    assert sorted(again) == truth
    return [got, collisions]


def test_field_left_on_between_scans_is_reset_so_nothing_hides_in_halt():
    _, chip, rdr, _ = _bag_reader()
    rdr.antenna_on()
    buf = bytearray(35)
    first = rdr.scan(buf)
    second = rdr.scan(buf)  # every tag was left in HALT: the driver resets the field first
    assert first == 5 and second == 5 and rdr.status == L.OK
    assert _hexes([buf[7 * i:7 * i + 7] for i in range(5)]) == _hexes(BAG)
    return [first, second]


def _flip(uid, level, bit, value=-1):
    """UID with one UID CLn bit flipped, or set to `value` (level 1: CL1 bits 8..31, level 2:
    CL2 bits 0..31)."""
    u = bytearray(uid)
    i = bit // 8 - 1 if level == 1 else 3 + bit // 8
    m = 1 << (bit % 8)
    u[i] = u[i] ^ m if value < 0 else (u[i] | m if value else u[i] & ~m)
    return bytes(u)


def test_two_tags_differing_at_a_late_bit_are_resolved():
    base = _uid(0x5A, 0x6B, 0x7C, 0x11, 0x22, 0x33)
    out = []
    for level, bit in ((2, 0), (2, 7), (2, 8), (2, 23), (2, 24), (2, 30), (2, 31),
                       (1, 8), (1, 23), (1, 30), (1, 31)):
        other = _flip(base, level, bit)
        _, chip, rdr, _ = _bag_reader((base, other))
        tr = _Trace(rdr)
        got = _scan(rdr)
        assert sorted(got) == _hexes((base, other)), (level, bit, got)
        assert rdr.status == L.OK and rdr.errors == 0
        sel = "93" if level == 1 else "95"
        colls = [x for x in tr.log if x[1] == L.COLLISION and x[0][:2] == sel]
        assert len(colls) == 1, (level, bit)
        frame, _, coll = colls[0]
        nvb = int(frame[2:4], 16)
        full = (nvb >> 4) - 2
        assert full * 8 + ((coll & 0x1F) or 32) - 1 == bit  # CollPos named the flipped bit
        out.append([level, bit, coll])
    # three tags: the second collision comes in a round that starts mid-byte (RxAlign > 0)
    for first, second in ((3, 20), (13, 29), (9, 31), (17, 18)):
        a = _flip(base, 2, first, 0)
        b = _flip(base, 2, first, 1)  # the reader follows the 1s: b and c stay in the loop
        c = _flip(b, 2, second)
        _, chip, rdr, _ = _bag_reader((a, b, c))
        tr = _Trace(rdr)
        got = _scan(rdr)
        assert sorted(got) == _hexes((a, b, c)) and rdr.errors == 0
        colls = [x for x in tr.log if x[1] == L.COLLISION and x[0][:2] == "95"]
        frame, _, coll = colls[1]
        nvb = int(frame[2:4], 16)
        assert nvb & 0x0F == (first + 1) % 8  # sent the first collision bit: RxAlign = rem
        assert ((nvb >> 4) - 2) * 8 + ((coll & 0x1F) or 32) - 1 == second
        out.append([first, second, nvb, coll])
    return out


def test_more_tags_than_slots_reports_overflow():
    tags = BAG + (_uid(0x01, 0x02, 0x03, 0x04, 0x05, 0x06),)
    _, chip, rdr, _ = _bag_reader(tags)
    got = _scan(rdr)
    assert len(got) == 5 and len(set(got)) == 5
    assert all([g in _hexes(tags) for g in got])
    assert rdr.status == L.OVERFLOW
    return L.STATUS_NAMES[rdr.status]


def test_foreign_tags_are_halted_but_not_reported():
    _, chip, rdr, _ = _rig()
    chip.add_tag(Picc(b"\x08\x12\x34\x56"))                                  # 4-byte UID
    chip.add_tag(NtagTag(_uid(0x10, 0x20, 0x30, 0x40, 0x50, 0x60)))
    chip.add_tag(Picc(b"\x04\x01\x02\x03\x04\x05\x06\x07\x08\x09", 0x20))  # 10-byte UID
    got = _scan(rdr)
    assert got == ["04102030405060"]
    assert rdr.foreign == 2 and rdr.status == L.OK
    return [got, rdr.foreign]


def test_removed_tag_disappears():
    _, chip, rdr, _ = _bag_reader()
    assert len(_scan(rdr)) == 5
    gone = chip.remove_tag(BAG[2])
    assert gone is not None and gone.state_name() == "POWER_OFF"
    assert chip.remove_tag(BAG[2]) is None
    got = _scan(rdr)
    assert sorted(got) == _hexes(BAG[:2] + BAG[3:])
    chip.clear()
    assert _scan(rdr) == [] and rdr.status == L.OK
    return sorted(got)


def test_antenna_off_finds_nothing():
    bus, chip, rdr, _ = _bag_reader()
    buf = bytearray(35)
    before = bus.transactions
    assert not rdr.antenna_is_on() and not chip.rf_on()
    assert rdr.scan(buf) == 0 and rdr.status == L.NO_TAG
    assert rdr.request(True) == L.NO_TAG
    assert bus.transactions == before  # no exchange is even attempted without a field
    assert [t.state_name() for t in chip.tags()] == ["POWER_OFF"] * 5
    rdr.antenna_on()
    assert rdr.antenna_is_on() and chip.rf_on()
    assert rdr.scan(buf) == 5
    return L.STATUS_NAMES[L.NO_TAG]


# --- READ -----------------------------------------------------------------------------------

def _selected(tag):
    """A reader whose only tag is selected (ACTIVE)."""
    bus = EmuSpiBus()
    c = bus.add_reader()
    rdr = drv.Mfrc522(bus, c.cs)
    assert rdr.init() == L.OK
    c.add_tag(tag)
    rdr.antenna_on()
    assert rdr.request(True) == L.OK and rdr.select() == L.OK
    return rdr, c


def test_read_returns_tag_memory_with_crc_checked():
    out = []
    tag = NtagTag(_uid(0x21, 0x32, 0x43, 0x54, 0x65, 0x76))
    tag.write_page(4, b"TAPM")
    tag.write_page(5, b"AT!\x00")
    rdr, chip = _selected(tag)
    page = bytearray(16)
    assert rdr.read(0, page) == L.OK
    assert bytes(page) == bytes(tag.mem[0:16])
    assert page[3] == 0x88 ^ 0x04 ^ 0x21 ^ 0x32 and page[8] == 0x43 ^ 0x54 ^ 0x65 ^ 0x76
    assert _hex(page[12:16]) == "e1101200"  # NTAG213 capability container
    out.append(_hex(page))
    assert rdr.read(4, page) == L.OK and bytes(page[:7]) == b"TAPMAT!"
    assert rdr.read(0x2C, page) == L.OK  # last page, then roll over to pages 0..2
    assert bytes(page) == bytes(tag.mem[4 * 0x2C:]) + bytes(tag.mem[0:12])
    out.append(_hex(page))
    chip.inject(emu.BAD_CRC)
    assert rdr.read(4, page) == L.CRC_ERR
    assert rdr.read(0x2D, page) == L.NAK and rdr.last_nak == 0  # beyond NTAG213
    assert tag.state_name() == "IDLE"  # a NAK sends the tag back to IDLE
    return out


def test_ntag215_and_216_sizes():
    out = []
    for pages in (NTAG215, NTAG216):
        tag = NtagTag(_uid(1, 2, 3, 4, 5, pages & 0xFF), pages)
        rdr, _ = _selected(tag)
        buf = bytearray(16)
        assert rdr.read(3, buf) == L.OK
        assert rdr.read(pages - 1, buf) == L.OK
        cc = tag.mem[14]
        assert rdr.read(pages, buf) == L.NAK
        out.append([pages, cc])
    assert out == [[135, 0x3E], [231, 0x6D]]
    return out


def test_scan_can_read_a_page_of_every_tag():
    _, chip, rdr, _ = _bag_reader()
    for t in chip.tags():
        t.write_page(4, t.uid[3:7])
    data = bytearray(5 * 16)
    got = _scan(rdr, data=data, page=4)
    assert len(got) == 5 and rdr.status == L.OK
    for i in range(5):
        assert _hex(data[16 * i:16 * i + 4]) == got[i][6:]  # page 4 holds UID bytes 3..6
    return got


# --- faults ---------------------------------------------------------------------------------

_REQUESTS = ("26", "52")


def _check(got, truth, data, tags):
    """Invariants of any scan: every UID real, none twice, READ data is the tag's own."""
    assert len(set(got)) == len(got)
    for i in range(len(got)):
        assert got[i] in truth
        mem = [t.mem for t in tags if _hex(t.uid) == got[i]][0]
        assert bytes(data[16 * i:16 * (i + 1)]) == bytes(mem[16:32])


def test_every_single_fault_ends_in_a_retry_or_a_miss_never_a_wrong_uid():
    three = BAG[:3]
    truth = _hexes(three)
    _, chip, rdr, spy = _bag_reader(three, spy=True)
    data = bytearray(80)
    assert sorted(_scan(rdr, data=data, page=4)) == truth
    frames = spy.frames  # the clean run, one frame per transceive
    summary = []
    for kind, name in FAULTS:
        retried = 0
        missed = 0
        for k in range(len(frames)):
            _, chip, rdr, _ = _bag_reader(three)
            chip.inject(kind, 1, k, k % 7)  # NOISE: vary where the spurious collision lands
            data = bytearray(80)
            got = _scan(rdr, data=data, page=4)
            _check(got, truth, data, chip.tags())
            if sorted(got) == truth:
                assert rdr.status == L.OK
                retried += rdr.errors > 0
            else:  # only a lost answer to a request looks like an empty field
                assert kind == emu.NO_ANSWER and frames[k] in _REQUESTS, (name, k)
                assert rdr.status == L.OK
                missed += 1
                assert sorted(_scan(rdr, data=data, page=4)) == truth  # next poll: all back
        summary.append([name, len(frames), retried, missed])
    return summary


class _Lcg:
    """Tiny deterministic PRNG (same sequence on both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def test_random_fault_storms_never_yield_a_wrong_uid():
    rnd = _Lcg(2024)
    full = 0
    errors = 0
    for _ in range(200):
        tags = BAG[:1 + rnd.below(5)]
        _, chip, rdr, _ = _bag_reader(tags)
        for _ in range(1 + rnd.below(3)):
            chip.inject(FAULTS[rnd.below(4)][0], 1 + rnd.below(2), rnd.below(40), rnd.below(40))
        data = bytearray(80)
        got = _scan(rdr, data=data, page=4)
        _check(got, _hexes(tags), data, chip.tags())
        full += sorted(got) == _hexes(tags)
        errors += rdr.errors
        for kind, _ in FAULTS:
            chip.inject(kind, 0)  # disarm what is left: the next poll finds everything
        assert sorted(_scan(rdr, data=data, page=4)) == _hexes(tags)
    return [full, errors]


def test_persistent_faults_end_in_a_clean_error():
    out = []
    for kind, name in FAULTS:
        _, chip, rdr, _ = _bag_reader(BAG[:3])
        chip.inject(kind, 255)
        data = bytearray(80)
        got = _scan(rdr, data=data, page=4)
        _check(got, _hexes(BAG[:3]), data, chip.tags())
        if kind == emu.NO_ANSWER:  # silence looks like an empty field
            assert got == [] and rdr.status == L.OK
        else:  # every attempt fails: the scan stops after max_errors retries with the error
            assert rdr.status not in (L.OK, L.OVERFLOW) and rdr.errors == L.MAX_ERRORS + 1
        out.append([name, len(got), L.STATUS_NAMES[rdr.status]])
    return out


# --- emulator -------------------------------------------------------------------------------

def test_emulator_spi_framing_and_registers():
    bus, chip, rdr, _ = _rig()
    out = []
    # one read transaction names a new register in every byte: VersionReg, ModeReg, CollReg
    out.append(_raw(bus, chip, [0x80 | 0x37 << 1, 0x80 | 0x11 << 1, 0x80 | 0x0E << 1, 0]))
    assert out[-1] == [0, 0x92, 0x3D, 0x20]
    _raw(bus, chip, [0x0A << 1, 0x80])                  # FlushBuffer
    _raw(bus, chip, [0x09 << 1, 0xDE, 0xAD, 0xBE])      # burst write into the FIFO
    chip.cs.value(0)                                    # one transaction split in two calls
    rx = bytearray(2)
    bus.write_readinto(bytearray([0x09 << 1, 0xEF]), rx)
    bus.write_readinto(bytearray([0x01]), rx[:1])
    chip.cs.value(1)
    assert _raw(bus, chip, [0x80 | 0x0A << 1, 0])[1] == 5
    out.append(_raw(bus, chip, [0x92] * 5 + [0]))
    assert out[-1] == [0, 0xDE, 0xAD, 0xBE, 0xEF, 0x01]
    _raw(bus, chip, [0x04 << 1, 0x80 | 0x01])           # Set1: set TimerIRq
    a = _raw(bus, chip, [0x80 | 0x04 << 1, 0])[1] & 0x01
    _raw(bus, chip, [0x04 << 1, 0x01])                  # Set1 = 0: clear it
    b = _raw(bus, chip, [0x80 | 0x04 << 1, 0])[1] & 0x01
    assert [a, b] == [1, 0]
    rx = bytearray(3)
    bus.write_readinto(bytearray([0xEE, 0, 0]), rx)     # nobody selected: MISO pulled down
    assert list(rx) == [0, 0, 0]
    out.append(list(rx))
    return out


def test_emulated_bus_routes_by_chip_select():
    bus = EmuSpiBus()
    chips = [bus.add_reader(0x92), bus.add_reader(0x91)]
    rdrs = [drv.Mfrc522(bus, c.cs) for c in chips]
    assert [r.init() for r in rdrs] == [L.OK, L.OK]
    assert [r.version for r in rdrs] == [0x92, 0x91]
    chips[0].add_tag(NtagTag(_uid(1, 1, 1, 1, 1, 1)))
    chips[1].add_tag(NtagTag(_uid(2, 2, 2, 2, 2, 2)))
    got = [_scan(r) for r in rdrs]
    assert got == [["04010101010101"], ["04020202020202"]]
    return got


def test_tag_state_machine():
    tag = NtagTag(_uid(9, 8, 7, 6, 5, 4))
    f = bytearray(9)
    seen = []

    def send(frame, nbits):
        for i in range(len(frame)):
            f[i] = frame[i]
        answered = tag.respond(f, nbits)
        seen.append(tag.state_name() + ("+" if answered else ""))

    def crc(frame):
        c = emu_crc_a(frame, len(frame))
        return frame + bytes((c & 0xFF, c >> 8))

    hlta = crc(b"\x50\x00")
    cl1 = bytes(tag.cl[0:5])
    cl2 = bytes(tag.cl[5:10])
    send(b"\x26", 7)                        # no field: nothing
    tag.power(True)
    send(b"\x26", 7)                        # REQA wakes IDLE
    send(hlta, 32)                          # HLTA in READY is an error: back to IDLE
    send(b"\x52", 7)                        # WUPA
    send(b"\x93\x20", 16)                   # anticollision CL1: answers
    send(crc(b"\x93\x70" + cl1), 72)        # select CL1: READY2
    send(crc(b"\x95\x70" + cl2), 72)        # select CL2: ACTIVE
    send(hlta, 32)                          # HALT, no answer
    send(b"\x26", 7)                        # REQA does not wake HALT
    send(b"\x52", 7)                        # WUPA does (READY*)
    send(crc(b"\x30\x00"), 32)              # READ before select: error, back to HALT
    assert seen == ["POWER_OFF", "READY1+", "IDLE", "READY1+", "READY1+", "READY2+",
                    "ACTIVE+", "HALT", "HALT", "READY1+", "HALT"]
    assert tag.resp[0] == 0x44 and tag.resp[1] == 0x00  # ATQA 0044h
    return seen


# --- allocation and cost --------------------------------------------------------------------

def _poll(rdr, buf, data):
    rdr.antenna_on()
    n = rdr.scan(buf, data, 4)
    rdr.antenna_off()
    return n


def test_steady_state_poll_allocates_nothing():
    """Empty field (the idle poll), one card, a full bag, with and without READ: no heap use.

    The emulator's transceive path is allocation-free too, so the whole exchange runs with the
    MicroPython heap locked (on CPython this is a plain run).
    """
    counts = []
    for tags in ((), BAG[:1], BAG):
        _, chip, rdr, _ = _bag_reader(tags)
        buf = bytearray(35)
        for data in (None, bytearray(80)):
            _poll(rdr, buf, data)  # warm-up
            if micropython:
                micropython.heap_lock()
            try:
                n = _poll(rdr, buf, data)
            finally:
                if micropython:
                    micropython.heap_unlock()
            assert n == len(tags) and rdr.status == L.OK
            counts.append(n)
    return counts


def test_a_reader_that_reset_or_vanished_ends_a_scan_at_its_first_status_read():
    """TModeReg is read with the status registers (no separate health read): a scan, a roll
    call and a REQA on the kept field of a reader that reset (TModeReg 00h) or vanished (MISO
    pulled down: 00h) end in CHIP_ERR within 20 transactions, not after 1000 polls; a
    healthy reader still scans."""
    out = []
    for fault in ("reset", "gone"):
        for call in ("scan", "roll_call", "arrivals"):
            bus, chip, rdr, _ = _bag_reader(BAG[:3])
            buf = bytearray(35)
            rdr.antenna_on()
            assert rdr.scan(buf, None, 0, 0, True) == 3 and rdr.status == L.OK
            if fault == "reset":
                chip._soft_reset()
            else:
                bus.readers.remove(chip)
            t0 = bus.transactions
            if call == "scan":
                rdr.scan(buf, None, 0, 3, True)
                st = rdr.status
            elif call == "roll_call":
                st = rdr.roll_call(buf, 3, True)
            else:
                rdr.arrivals(buf)
                st = rdr.status
            assert st == L.CHIP_ERR, (fault, call, st)
            assert bus.transactions - t0 <= 20, (fault, call, bus.transactions - t0)
            out.append(bus.transactions - t0)
    return out


def test_spi_transactions_per_scan():
    """Measured, not asserted beyond sanity: SPI transactions (NSS-framed transfers)."""
    out = {}
    for label, tags, read in (("0", (), False), ("1", BAG[:1], False), ("5", BAG, False),
                              ("1+read", BAG[:1], True), ("5+read", BAG, True)):
        bus, chip, rdr, _ = _bag_reader(tags)
        buf = bytearray(35)
        data = bytearray(80) if read else None
        t0 = bus.transactions
        rdr.antenna_on()
        t1 = bus.transactions
        n = rdr.scan(buf, data, 4)
        t2 = bus.transactions
        rdr.antenna_off()
        t3 = bus.transactions
        assert n == len(tags)
        out[label] = [t2 - t1, t3 - t0, chip.transceives]
    out["antenna_on"] = t1 - t0
    out["antenna_off"] = t3 - t2
    return out


# --- WRITE ----------------------------------------------------------------------------------

RECORD = b"\x03\x2a\xd4\x0b\x1ftapmat:card\x01\x1a\x2b\x3c\x4d\x06digit0" + bytes(range(16)) + b"\xfe"


def _writer(pages=NTAG213, others=()):
    """A tag writer with an NTAG (and maybe other tags) in a field that is on; nothing selected."""
    bus, chip, rdr, _ = _rig(driver=TagWriter)
    tag = NtagTag(_uid(0x7A, 0x01, 0x02, 0x03, 0x04, pages & 0xFF), pages)
    chip.add_tag(tag)
    for u in others:
        chip.add_tag(NtagTag(u))
    rdr.antenna_on()
    return bus, chip, rdr, tag


def _write_all(rdr, data, first=4):
    """select_uid is done; write data (a multiple of 4 bytes) page by page from `first`.
    Returns [status, pages acknowledged, failed attempts]; the first failure stops."""
    failed = 0
    for p in range(len(data) // 4):
        st = rdr.write(first + p, data, 4 * p)
        failed += rdr.errors
        if st != L.OK:
            return [st, p, failed]
    return [L.OK, len(data) // 4, failed]


def _padded(data):
    return bytes(data) + bytes(-len(data) % 4)


def test_write_then_read_back_on_every_ntag_size():
    out = []
    for pages, last in ((NTAG213, 0x27), (NTAG215, 0x81), (NTAG216, 0xE1)):
        bus, chip, rdr, tag = _writer(pages)
        assert rdr.select_uid(tag.uid) == L.OK and tag.state_name() == "ACTIVE"
        data = _padded(RECORD)
        assert _write_all(rdr, data) == [L.OK, len(data) // 4, 0]
        assert rdr.user_last == last  # learned from the CC (page 3)
        assert rdr.write(last, b"LAST") == L.OK and bytes(tag.mem[4 * last:4 * last + 4]) == b"LAST"
        back = bytearray(len(data) + 16)
        for p in range(0, len(data), 16):
            assert rdr.read(4 + p // 4, back, p) == L.OK
        assert bytes(back[:len(data)]) == data  # READ through the driver gives the record back
        before = bytes(tag.mem)
        sent = chip.transceives
        denied = [rdr.write(p, b"XXXX") for p in (0, 1, 2, 3, last + 1, 0xFF)]
        assert denied == [L.DENIED] * 6 and chip.transceives == sent  # nothing was sent
        assert bytes(tag.mem) == before and tag.state_name() == "ACTIVE"
        out.append([pages, rdr.user_last, len(data) // 4])
    try:
        rdr.write(4, b"abc")
        short = "accepted"
    except ValueError:
        short = "rejected"
    assert short == "rejected"
    return out


def test_write_waits_10_ms_for_the_ack():
    bus, chip, rdr, tag = _writer()
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(4, b"ABCD") == L.OK
    assert [chip.regs[0x2C], chip.regs[0x2D]] == [404 >> 8, 404 & 0xFF]  # 10.1 ms
    # the READ timeout (5.1 ms) would miss the ACK: the tag takes up to 10 ms (NTAG21x §10.4)
    f = rdr.ftx
    f[1], f[2], f[3], f[4], f[5], f[6] = 0xA2, 5, 0x45, 0x46, 0x47, 0x48
    assert rdr._transceive(rdr._append_crc(6), 0, 0, 204) == L.TIMEOUT
    assert bytes(tag.mem[20:24]) == b"EFGH"  # programmed all the same: why a lost ACK is checked
    assert _scan(rdr) == [_hex(tag.uid)]       # the next scan goes back to 300 us timeouts
    assert [chip.regs[0x2C], chip.regs[0x2D]] == [0, 11]
    return [404, 204]


def test_select_uid_picks_one_tag_among_many():
    _, chip, rdr, tag = _writer(others=BAG)
    out = []
    for u in (BAG[2], tag.uid, BAG[4]):
        assert rdr.select_uid(u) == L.OK and _hex(rdr.uid[:rdr.uid_len]) == _hex(u)
        states = [t.state_name() for t in chip.tags()]
        assert states.count("ACTIVE") == 1  # only the tag with that UID
        out.append(states.index("ACTIVE"))
    assert rdr.write(4, b"mine") == L.OK
    assert [_hex(t.uid) for t in chip.tags() if bytes(t.mem[16:20]) == b"mine"] == [_hex(BAG[4])]
    assert rdr.select_uid(BAG[4]) == L.OK  # re-selecting the ACTIVE tag itself
    assert rdr.select_uid(_uid(9, 9, 9, 9, 9, 9)) == L.NO_TAG and rdr.uid_len == 0
    assert rdr.write(4, b"none") == L.NO_TAG  # nothing selected: nothing sent
    chip.clear()
    assert rdr.select_uid(tag.uid) == L.NO_TAG
    rdr.antenna_off()
    assert rdr.select_uid(tag.uid) == L.NO_TAG
    return out


def test_write_naks_on_locked_and_protected_pages():
    out = []
    _, chip, rdr, tag = _writer()
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(4, b"keep") == L.OK and rdr.write(16, b"dyn!") == L.OK
    # static lock byte 0: L4 (bit 4); bytes 0-1 of page 2 (BCC1, internal) cannot change
    assert rdr.write(2, b"\xff\xff\x10\x00", system=True) == L.OK
    assert _hex(tag.mem[8:12]) == "%02x481000" % tag.mem[8]
    assert rdr.write(2, b"\x00\x00\x00\x00", system=True) == L.OK  # OTP: bits stay set
    assert tag.mem[10] == 0x10
    for page in (4, 0, 1, 45):  # locked, UID, UID, beyond NTAG213
        st = rdr.write(page, b"gone", system=page != 4)
        assert st == L.NAK and rdr.last_nak == 0 and tag.state_name() == "IDLE"
        out.append([page, L.STATUS_NAMES[st], rdr.last_nak])
        assert rdr.select_uid(tag.uid) == L.OK
    assert bytes(tag.mem[16:20]) == b"keep" and rdr.write(5, b"free") == L.OK
    # CC: OTP bits are ORed in; L-CC (bit 3) locks it
    assert rdr.write(3, b"\x00\x00\x00\x0f", system=True) == L.OK and _hex(tag.mem[12:16]) == "e110120f"
    assert rdr.write(2, b"\x00\x00\x08\x00", system=True) == L.OK
    assert rdr.write(3, b"\x00\x00\x00\xf0", system=True) == L.NAK and _hex(tag.mem[12:16]) == "e110120f"
    # dynamic lock page 28h: bit 0 of byte 0 locks pages 16-17 on an NTAG213
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(0x28, b"\x01\x00\x00\x00", system=True) == L.OK
    assert _hex(tag.mem[0xA0:0xA4]) == "010000bd"  # byte 3 (RFUI) keeps its value
    assert rdr.write(17, b"nope") == L.NAK and bytes(tag.mem[64:68]) == b"dyn!"
    assert rdr.select_uid(tag.uid) == L.OK and rdr.write(18, b"open") == L.OK
    # NTAG215: one dynamic lock bit per 16 pages; CFGLCK locks CFG0/CFG1; AUTH0 protects
    _, chip, rdr, tag = _writer(NTAG215)
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(0x82, b"\x01\x00\x00\x00", system=True) == L.OK
    assert rdr.write(31, b"lckd") == L.NAK
    assert rdr.select_uid(tag.uid) == L.OK and rdr.write(32, b"open") == L.OK
    assert rdr.write(0x84, b"\x40\x00\x00\x00", system=True) == L.OK  # CFG1 ACCESS: CFGLCK
    assert rdr.write(0x83, b"\x04\x00\x00\x10", system=True) == L.NAK
    _, chip, rdr, tag = _writer(NTAG216)
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(0xE3, b"\x04\x00\x00\x30", system=True) == L.OK  # AUTH0 = 30h
    assert rdr.write(0x2F, b"free") == L.OK
    assert rdr.write(0x30, b"auth") == L.NAK and rdr.last_nak == 0  # no PWD_AUTH
    out.append(L.STATUS_NAMES[L.DENIED])
    return out


class _Garble:
    """SPI wrapper that corrupts byte `at` of `count` WRITE frames, after letting `after` pass,
    on their way into the FIFO, as noise on the air would: the tag gets a bad CRC_A (at = 7)
    or a command it does not know (at = 1)."""

    def __init__(self, bus, at, count=1, after=0):
        self.bus = bus
        self.at = at
        self.count = count
        self.after = after

    def write_readinto(self, tx, rx):
        if len(tx) == 9 and tx[0] == 0x09 << 1 and tx[1] == 0xA2:
            if self.after:
                self.after -= 1
            elif self.count:
                self.count -= 1
                tx = bytearray(tx)
                tx[self.at] ^= 0x5A
        self.bus.write_readinto(tx, rx)


def _garbled_writer(at, count, after=0):
    """A writer whose WRITE frames get garbled (see _Garble)."""
    bus = EmuSpiBus()
    chip = bus.add_reader()
    rdr = TagWriter(_Garble(bus, at, count, after), chip.cs)
    assert rdr.init() == L.OK
    tag = NtagTag(_uid(0x7B, 1, 2, 3, 4, 5))
    chip.add_tag(tag)
    rdr.antenna_on()
    return chip, rdr, tag


def test_bad_crc_in_a_write_frame_gets_nak_1h_and_is_retried():
    chip, rdr, tag = _garbled_writer(7, 1)
    assert rdr.select_uid(tag.uid) == L.OK
    tr = _Trace(rdr)
    assert rdr.write(4, b"good") == L.OK and rdr.errors == 1
    assert bytes(tag.mem[16:20]) == b"good"
    steps = [[x[0][:2], L.STATUS_NAMES[x[1]]] for x in tr.log]
    # CC read, WRITE answered by NAK 1h (tag back to IDLE), WUPA + SELECT CL1/CL2, WRITE again
    assert steps == [["30", "ok"], ["a2", "ok"], ["52", "ok"], ["93", "ok"], ["95", "ok"],
                     ["a2", "ok"]]
    chip, rdr, tag = _garbled_writer(7, 255)
    assert rdr.select_uid(tag.uid) == L.OK
    assert rdr.write(4, b"never") == L.NAK and rdr.last_nak == 1
    assert rdr.errors == L.MAX_ERRORS + 1 and bytes(tag.mem[16:20]) == b"\x03\x00\xfe\x00"
    return steps


def test_lost_ack_is_checked_by_reading_the_page_back():
    out = []
    # the ACK is lost but the tag programmed the page: a READ shows it, no second WRITE
    _, chip, rdr, tag = _writer()
    assert rdr.select_uid(tag.uid) == L.OK and rdr.write(4, b"warm") == L.OK
    tr = _Trace(rdr)
    chip.inject(emu.NO_ANSWER, 1)
    assert rdr.write(5, b"lost") == L.OK and rdr.errors == 1 and bytes(tag.mem[20:24]) == b"lost"
    out.append([x[0][:2] + ":" + L.STATUS_NAMES[x[1]] for x in tr.log])
    assert out[-1] == ["a2:timeout", "30:ok"]
    # the ACK and the READ answer are lost: the tag is selected again and the page rewritten
    tr.log = []
    chip.inject(emu.NO_ANSWER, 2)
    assert rdr.write(6, b"twice") == L.OK and rdr.errors == 1
    out.append([x[0][:2] + ":" + L.STATUS_NAMES[x[1]] for x in tr.log])
    assert out[-1] == ["a2:timeout", "30:timeout", "52:timeout", "52:ok", "93:ok", "95:ok", "a2:ok"]
    # the ACK is lost and the page differs (the frame never reached the tag, modelled as a
    # command byte the tag does not know: it falls back to IDLE without answering)
    chip, rdr, tag = _garbled_writer(1, 1)
    assert rdr.select_uid(tag.uid) == L.OK
    tr = _Trace(rdr)
    assert rdr.write(4, b"miss") == L.OK and rdr.errors == 1 and bytes(tag.mem[16:20]) == b"miss"
    out.append([x[0][:2] + ":" + L.STATUS_NAMES[x[1]] for x in tr.log])
    assert out[-1] == ["30:ok", "a2:timeout", "30:timeout", "52:ok", "93:ok", "95:ok", "a2:ok"]
    # a garbled ACK (FLIP: Ah -> Eh; NOISE: a collision) is not an ACK either
    for kind in (emu.FLIP, emu.NOISE):
        _, chip, rdr, tag = _writer()
        assert rdr.select_uid(tag.uid) == L.OK and rdr.write(4, b"warm") == L.OK
        tr = _Trace(rdr)
        chip.inject(kind, 1)
        assert rdr.write(5, b"flip") == L.OK and rdr.errors == 1
        out.append([x[0][:2] + ":" + L.STATUS_NAMES[x[1]] for x in tr.log])
    # FLIP: the exchange itself is clean, the 4-bit code Eh is neither ACK nor NAK
    assert out[-2] == ["a2:ok", "30:ok"] and out[-1] == ["a2:collision", "30:ok"]
    return out


def test_every_fault_during_a_write_is_recovered_or_reported_never_a_false_ok():
    """Each fault kind at each exchange of select_uid + writing 6 pages (garbled frames: at
    each WRITE frame), once and twice in a row: a page reported OK always holds its data, and
    a single fault is always recovered."""
    data = _padded(RECORD[:24])
    _, chip, rdr, tag = _writer()
    assert rdr.select_uid(tag.uid) == L.OK and _write_all(rdr, data)[0] == L.OK
    exchanges = chip.transceives
    summary = []
    for kind, name in FAULTS + ((7, "garbled_crc"), (1, "garbled_cmd")):
        recovered = 0
        errors = 0
        for count in (1, 2):
            for k in range(exchanges + 2 if name in ("garbled_crc", "garbled_cmd") else exchanges):
                if name[:7] == "garbled":
                    chip, rdr, tag = _garbled_writer(kind, count, k)
                else:
                    _, chip, rdr, tag = _writer()
                    chip.inject(kind, count, k, k % 5)
                st = rdr.select_uid(tag.uid)
                acked = 0
                if st == L.OK:
                    st, acked, failed = _write_all(rdr, data)
                    errors += failed
                for p in range(acked):  # never a false OK
                    assert bytes(tag.mem[16 + 4 * p:20 + 4 * p]) == data[4 * p:4 * p + 4], (name, k)
                assert st == L.OK or count == 2, (name, k, st)  # one fault: always recovered
                recovered += st == L.OK
        summary.append([name, recovered, errors])
    for kind, name in FAULTS:  # a fault that never ends: a clean error after bounded retries
        bus, chip, rdr, tag = _writer()
        assert rdr.select_uid(tag.uid) == L.OK and rdr.write(4, b"warm") == L.OK
        chip.inject(kind, 255)
        before = bus.transactions
        st = rdr.write(5, b"hard")
        assert bus.transactions - before < 1000
        assert (st == L.OK) == (kind == emu.BAD_CRC)  # an ACK has no CRC_A to corrupt
        assert (bytes(tag.mem[20:24]) == b"hard") >= (st == L.OK)
        summary.append([name, L.STATUS_NAMES[st], rdr.errors])
    return [exchanges, summary]


class _Removal:
    """SPI wrapper that takes a tag out of the field once `after` transceives have happened."""

    def __init__(self, bus, chip, uid, after):
        self.bus = bus
        self.chip = chip
        self.uid = uid
        self.after = after

    def write_readinto(self, tx, rx):
        self.bus.write_readinto(tx, rx)
        if self.chip.transceives >= self.after and self.uid is not None:
            self.chip.remove_tag(self.uid)
            self.uid = None


def test_tag_removed_mid_write():
    out = []
    data = _padded(RECORD)
    for lost_ack in (False, True):
        bus = EmuSpiBus()
        chip = bus.add_reader()
        tag = NtagTag(_uid(0x7C, 1, 2, 3, 4, 5))
        port = _Removal(bus, chip, tag.uid, 3 + 1 + 5)  # select (3), CC read, pages 4..8
        rdr = TagWriter(port, chip.cs)
        assert rdr.init() == L.OK
        chip.add_tag(tag)
        rdr.antenna_on()
        assert rdr.select_uid(tag.uid) == L.OK
        if lost_ack:  # taken away right after programming page 8: its ACK never comes back
            chip.inject(emu.NO_ANSWER, 1, 5)
        before = bus.transactions
        st, acked, _ = _write_all(rdr, data)
        assert st == L.NO_TAG and acked == 5 - lost_ack
        assert bus.transactions - before < 500  # bounded: a few 10 ms timeouts on hardware
        assert bytes(tag.mem[16:36]) == data[:20]  # pages 4..8: with a lost ACK, 8 unreported
        assert bytes(tag.mem[36:40]) != data[20:24]  # page 9 never written
        out.append([L.STATUS_NAMES[st], acked, rdr.errors])
        chip.add_tag(tag)  # put back: powers up IDLE with what it had programmed
        assert rdr.select_uid(tag.uid) == L.OK and _write_all(rdr, data)[0] == L.OK
        assert bytes(tag.mem[16:16 + len(data)]) == data
    assert out == [["no_tag", 5, 1], ["no_tag", 4, 1]]
    return out


def test_write_allocates_nothing():
    """select_uid, learning the CC, a record of 12 pages (a lost ACK, re-selection), read back."""
    data = bytearray(_padded(RECORD))
    back = bytearray(len(data) + 16)
    _, chip, rdr, tag = _writer()
    uid = bytearray(tag.uid)
    assert rdr.select_uid(uid) == L.OK and _write_all(rdr, data)[0] == L.OK  # warm-up
    for i in range(len(data)):
        data[i] ^= 0xFF
    chip.inject(emu.NO_ANSWER, 2, 6)  # page 6: ACK and READ answer lost, the tag selected again
    n = len(data) // 4
    if micropython:
        micropython.heap_lock()
    try:
        st = rdr.select_uid(uid)
        for p in range(n):
            if st == L.OK:
                st = rdr.write(4 + p, data, 4 * p)
        for p in range(0, len(data), 16):
            if st == L.OK:
                st = rdr.read(4 + p // 4, back, p)
    finally:
        if micropython:
            micropython.heap_unlock()
    assert st == L.OK and bytes(back[:len(data)]) == bytes(data) == bytes(tag.mem[16:16 + len(data)])
    return n


def test_spi_transactions_per_write():
    """Measured: SPI transactions and RF exchanges of select_uid, the CC read, one page, and
    a 71-byte record (18 pages) written and read back."""
    bus, chip, rdr, tag = _writer()
    out = {}
    t0, x0 = bus.transactions, chip.transceives
    assert rdr.select_uid(tag.uid) == L.OK
    out["select_uid"] = [bus.transactions - t0, chip.transceives - x0]
    t0, x0 = bus.transactions, chip.transceives
    assert rdr.write(4, b"page") == L.OK
    out["first_write"] = [bus.transactions - t0, chip.transceives - x0]
    t0, x0 = bus.transactions, chip.transceives
    assert rdr.write(5, b"page") == L.OK
    out["write"] = [bus.transactions - t0, chip.transceives - x0]
    data = _padded(RECORD + bytes(71 - len(RECORD)))
    back = bytearray(80)
    t0, x0 = bus.transactions, chip.transceives
    assert rdr.select_uid(tag.uid) == L.OK and _write_all(rdr, data) == [L.OK, 18, 0]
    for p in range(0, 72, 16):
        assert rdr.read(4 + p // 4, back, p) == L.OK
    assert bytes(back[:72]) == data
    out["record_71"] = [bus.transactions - t0, chip.transceives - x0]
    return out


def test_emulated_write_answers():
    tag = NtagTag(_uid(5, 5, 5, 5, 5, 5))
    f = bytearray(9)

    def frame(b):
        for i in range(len(b)):
            f[i] = b[i]
        c = emu_crc_a(f, len(b))
        f[len(b)] = c & 0xFF
        f[len(b) + 1] = c >> 8

    tag.power(True)
    frame(b"\xa2\x04ABCD")
    assert not tag.respond(f, 64) and tag.state_name() == "IDLE"  # not selected: not heard
    tag.state = ACTIVE  # as after SELECT
    assert tag.respond(f, 64) and tag.rend == 4 and tag.resp[0] & 0x0F == 0xA
    assert tag.answer_fc == WRITE_FC == 135600 and bytes(tag.mem[16:20]) == b"ABCD"
    f[7] ^= 1
    assert tag.respond(f, 64) and tag.resp[0] & 0x0F == 1 and tag.state_name() == "IDLE"
    tag.state = ACTIVE
    frame(b"\x30\x04")
    assert tag.respond(f, 32) and tag.answer_fc == tag.delay_fc  # READ: the usual delay
    return [0xA, 1]


# --- CollPos readings ---------------------------------------------------------------------

def _nxp_uid(rnd):
    """An NXP-style 7-byte UID: manufacturer 04h, six random bytes; uid3 (the first byte of UID
    CL2) is never 88h, the cascade tag (ISO/IEC 14443-3 §6.5.4)."""
    u = [0x04] + [rnd.below(256) for _ in range(6)]
    if u[3] == 0x88:
        u[3] = rnd.below(0x88)
    return bytes(u)


def test_every_collpos_reading_completes_300_random_bags():
    """The emulator counts CollPos three ways; the driver finds out which at the first collision
    that tells them apart and must complete every bag of 2-5 tags, never reporting a wrong UID."""
    out = []
    for reading in (emu.COLLPOS_FIFO, emu.COLLPOS_UID, emu.COLLPOS_RX):
        rnd = _Lcg(1300 + reading)
        complete = 0
        wrong = 0
        retries = 0
        bus, chip, rdr, _ = _rig()
        chip.collpos = reading
        for _ in range(300):
            chip.clear()
            tags = []
            while len(tags) < 2 + rnd.below(4):
                u = _nxp_uid(rnd)
                if u not in tags:
                    tags.append(u)
            for u in tags:
                chip.add_tag(NtagTag(u))
            got = _scan(rdr)
            wrong += len([g for g in got if g not in _hexes(tags)])
            complete += sorted(got) == _hexes(tags) and rdr.status == L.OK
            retries += rdr.errors
        assert wrong == 0 and complete == 300, (reading, complete, wrong)
        mask = [L.CP_FIFO, L.CP_UID, L.CP_RX][reading]
        assert rdr.collpos == mask  # learnt: only the emulator's reading is left
        out.append([reading, complete, retries, rdr.collpos])
    return out


def test_a_wrongly_learnt_reading_is_unlearnt_and_the_bag_still_completes():
    _, chip, rdr, _ = _bag_reader()
    chip.collpos = emu.COLLPOS_UID
    rdr.collpos = L.CP_RX  # as if noise had taught the driver the wrong reading
    first = _scan(rdr)
    assert sorted(first) == _hexes(BAG) and rdr.status == L.OK
    errors = rdr.errors
    again = _scan(rdr)
    assert sorted(again) == _hexes(BAG) and rdr.status == L.OK and rdr.errors == 0
    assert rdr.collpos == L.CP_UID
    return [errors, rdr.collpos]


# --- emulator corrections (NTAG commands, MFAuthent, timer period, sticky errors) ---------

def _framed(f, b):
    for i in range(len(b)):
        f[i] = b[i]
    c = emu_crc_a(f, len(b))
    f[len(b)] = c & 0xFF
    f[len(b) + 1] = c >> 8
    return 8 * len(b) + 16


def test_ntag_get_version_and_compatibility_write():
    out = []
    f = bytearray(20)
    for pages, size in ((NTAG213, 0x0F), (NTAG215, 0x11), (NTAG216, 0x13)):
        tag = NtagTag(_uid(6, 6, 6, 6, 6, 6), pages)
        tag.power(True)
        tag.state = ACTIVE
        assert tag.respond(f, _framed(f, b"\x60")) and tag.rend == 80 and tag.has_crc
        v = list(tag.resp[:8])
        assert v == [0, 4, 4, 2, 1, 0, size, 3]
        assert emu_crc_a(tag.resp, 8) == tag.resp[8] | tag.resp[9] << 8
        out.append(v)
    # COMPATIBILITY_WRITE: ACK for the command, ACK for the 16-byte data frame, 4 bytes kept
    assert tag.respond(f, _framed(f, b"\xa0\x05")) and tag.rend == 4 and tag.resp[0] == 0xA
    assert tag.respond(f, _framed(f, b"WXYZ" + b"\x00" * 12)) and tag.resp[0] == 0xA
    assert bytes(tag.mem[20:24]) == b"WXYZ" and tag.answer_fc == WRITE_FC
    assert tag.respond(f, _framed(f, b"\xa0\x05"))  # a frame in between cancels it
    assert tag.respond(f, _framed(f, b"\x30\x05")) and tag.rend == 144
    assert not tag.respond(f, _framed(f, b"QQQQ" + b"\x00" * 12))  # no pending write: error
    assert bytes(tag.mem[20:24]) == b"WXYZ" and tag.state_name() == "IDLE"
    out.append(bytes(tag.mem[20:24]).decode())
    return out


def test_emulator_mfauthent_timer_period_and_sticky_errors():
    bus, chip, rdr, _ = _rig()
    chip.add_tag(NtagTag(_uid(7, 7, 7, 7, 7, 7)))
    rdr.antenna_on()
    r = chip.regs
    out = []
    # MFAuthent against an NTAG: nothing answers, only the timer ends it (no IdleIRq)
    _raw(bus, chip, [0x04 << 1, 0x7F])
    _raw(bus, chip, [0x09 << 1, 0x60, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 7, 7, 7, 7])
    _raw(bus, chip, [0x01 << 1, 0x0E])
    irq = _raw(bus, chip, [0x80 | 0x04 << 1, 0])[1]
    assert irq & 0x01 and not irq & 0x10 and r[0x01] & 0x0F == 0x0E
    out.append(irq)
    _raw(bus, chip, [0x01 << 1, 0x00])
    # timer period: (2 * TPrescaler + 1) * (TReloadVal + 1) carrier cycles (§8.5)
    _raw(bus, chip, [0x2C << 1, 0x00])
    _raw(bus, chip, [0x2D << 1, 40])
    assert chip._timer_fc() == (2 * 169 + 1) * 41
    out.append(chip._timer_fc())
    # BufferOvfl survives a command; only FlushBuffer clears it
    _raw(bus, chip, [0x09 << 1] + [0] * 65)
    assert r[0x06] & 0x10
    _raw(bus, chip, [0x01 << 1, 0x0C])           # Transceive ...
    _raw(bus, chip, [0x0D << 1, 0x87])           # ... StartSend, without a flush first
    assert r[0x06] & 0x10 and chip.transceives
    _raw(bus, chip, [0x0A << 1, 0x80])
    assert not r[0x06] & 0x10
    assert rdr.request(True) == L.OK  # a driver that flushes before each exchange copes
    out.append("flushed")
    return out


def test_a_known_inventory_is_confirmed_with_fewer_exchanges():
    """scan(known=n): the last inventory is confirmed by SELECTs; arrivals, departures and a
    failed confirmation still end in the exact set of tags."""
    out = []
    _, chip, rdr, _ = _bag_reader()
    buf = bytearray(7 * 6)
    rdr.antenna_on()
    n = rdr.scan(buf)
    rdr.antenna_off()
    full = chip.transceives
    x0 = chip.transceives
    rdr.antenna_on()
    again = rdr.scan(buf, known=n)
    rdr.antenna_off()
    quick = chip.transceives - x0
    got = sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(again)]))
    assert got == _hexes(BAG) and rdr.status == L.OK and rdr.errors == 0
    assert quick < full  # the full scan's count includes init's; still fewer per scan
    out.append([again, quick])
    # one tag left, one arrived: both seen in the same scan
    chip.remove_tag(BAG[2])
    new = _uid(0x55, 0x44, 0x33, 0x22, 0x11, 0x00)
    chip.add_tag(NtagTag(new))
    rdr.antenna_on()
    m = rdr.scan(buf, known=again)
    rdr.antenna_off()
    truth = _hexes([u for u in BAG if u != BAG[2]] + [new])
    assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == truth and rdr.status == L.OK
    out.append(m)
    # every fault during a confirmation: never a wrong UID, and the next scan is exact again
    for kind, name in FAULTS:
        for after in range(0, 24, 3):
            chip.inject(kind, 1, after, after % 7)
            rdr.antenna_on()
            k = rdr.scan(buf, known=m)
            rdr.antenna_off()
            seen = _hexes([buf[7 * i:7 * i + 7] for i in range(k)])
            assert all(u in truth for u in seen), (name, after)
            chip.inject(kind, 0)
            rdr.antenna_on()
            m = rdr.scan(buf, known=k)
            rdr.antenna_off()
            assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == truth, (name, after)
    out.append(m)
    return out


def test_a_field_kept_on_finds_arrivals_with_one_request_and_confirms_tags_by_wupa():
    """Field kept on (the mat's awaited pad): every tag the last scan found stays HALT while it
    is powered, so arrivals() is one unanswered REQA when nothing came and finds a newcomer
    (powered up IDLE); scan(known, keep=True) wakes the known tags by WUPA without a field
    reset; a failed confirmation resets the field at the next scan, never a wrong UID."""
    out = []
    _, chip, rdr, _ = _bag_reader(BAG[:3])
    buf = bytearray(7 * 6)
    rdr.antenna_on()
    n = rdr.scan(buf)
    fields = chip.fields
    x0 = chip.transceives
    assert rdr.arrivals(buf) == 0 and rdr.status == L.OK
    assert chip.transceives - x0 == 1 and all(t.state_name() == "HALT" for t in chip.tags())
    new = _uid(0x55, 0x44, 0x33, 0x22, 0x11, 0x00)
    chip.add_tag(NtagTag(new))
    assert rdr.arrivals(buf) == 1 and _hex(buf[:7]) == _hex(new) and rdr.status == L.OK
    assert rdr.inventories == 1  # arrivals() is no complete scan
    for i in range(n):
        buf[7 + 7 * i:14 + 7 * i] = BAG[i]
    m = rdr.scan(buf, known=n + 1, keep=True)
    truth = _hexes(BAG[:3] + (new,))
    assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == truth
    assert rdr.status == L.OK and chip.fields == fields and rdr.inventories == 2
    out.append([n, m])
    # one left, one came: the REQA after two confirmed tags finds the newcomer and cuts the
    # scan short (PARTIAL, not counted: the third known tag was not confirmed); the next
    # kept-field scan sees both, still without a field reset
    chip.remove_tag(BAG[1])
    other = _uid(0x56, 0x44, 0x33, 0x22, 0x11, 0x01)
    chip.add_tag(NtagTag(other))
    m = rdr.scan(buf, known=m, keep=True)
    assert rdr.status == L.PARTIAL and rdr.inventories == 2
    assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == _hexes((BAG[0], new, other))
    buf[7 * m:7 * m + 7] = BAG[2]  # the caller still knows it
    m = rdr.scan(buf, known=m + 1, keep=True)
    truth = _hexes((BAG[0], BAG[2], new, other))
    assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == truth
    assert chip.fields == fields and rdr.status == L.OK and rdr.inventories == 3
    # every fault during a kept-field scan: never a wrong UID, the next scan is exact again
    # (the caller, like firmware/presence.py, still lists a tag a scan missed)
    tags = (BAG[0], BAG[2], new, other)

    def again():
        for i in range(len(tags)):
            buf[7 * i:7 * i + 7] = tags[i]
        return rdr.scan(buf, known=len(tags), keep=True)
    for kind, name in FAULTS:
        for after in range(0, 24, 3):
            chip.inject(kind, 1, after, after % 7)
            k = again()
            seen = _hexes([buf[7 * i:7 * i + 7] for i in range(k)])
            assert all(u in truth for u in seen), (name, after)
            chip.inject(kind, 0)
            again()
            k = again()
            got = sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(k)]))
            assert got == truth, (name, after, got)
    rdr.antenna_off()
    out.append(chip.fields - fields)
    return out


def test_a_scan_looks_at_another_reader_between_its_tags_and_stops_when_told():
    """scan(peek=...): every two known tags the scan calls peek() (the mat's REQA on the pad
    whose field it keeps on); True cuts it short: PARTIAL, the tags confirmed so far, no
    anticollision of the others, not counted in ``inventories``. False changes nothing."""
    _, chip, rdr, _ = _bag_reader()
    buf = bytearray(7 * 6)
    rdr.antenna_on()
    n = rdr.scan(buf)
    rdr.antenna_off()
    calls = []

    def quiet():
        calls.append(0)
        return False

    def busy():
        calls.append(1)
        return True
    rdr.antenna_on()
    assert rdr.scan(buf, known=n, peek=quiet) == n and rdr.status == L.OK
    rdr.antenna_off()
    assert calls == [0, 0] and rdr.inventories == 2  # after tags 2 and 4 of 5
    x0 = chip.transceives
    rdr.antenna_on()
    m = rdr.scan(buf, known=n, peek=busy)
    rdr.antenna_off()
    assert rdr.status == L.PARTIAL and m == 2 and rdr.inventories == 2
    assert all(u in _hexes(BAG) for u in _hexes([buf[7 * i:7 * i + 7] for i in range(m)]))
    assert chip.transceives - x0 == 2 * 4  # two tags: REQA/WUPA, SELECT CL1, CL2, HLTA each
    return [n, m, calls]


# --- roll call ------------------------------------------------------------------------------

def _known_set(rnd, n):
    """n distinct NXP-style UIDs; about half the time batch-like (UID0..2 shared, so CL1 twins;
    now and then UID3..5 shared too, so CL2 differs only late)."""
    share = [rnd.below(256), rnd.below(256)] if rnd.below(2) else None
    tags = []
    while len(tags) < n:
        u = list(_nxp_uid(rnd))
        if share and rnd.below(4):
            u[1], u[2] = share
            if rnd.below(3) == 0 and tags:
                u[3:6] = list(tags[0][3:6])
        u = bytes(u)
        if u not in tags:
            tags.append(u)
    return tags


def _reading_rig(reading, seed):
    """A seeded generator and a reader whose chip uses CollPos ``reading``, with a 6-slot buffer."""
    _, chip, rdr, _ = _rig()
    chip.collpos = reading
    return _Lcg(seed + reading), chip, rdr, bytearray(7 * 6)


def _load(buf, tags):
    for i in range(len(tags)):
        buf[7 * i:7 * i + 7] = tags[i]
    return len(tags)


def _roll(rdr, buf, tags, keep=False, twins=None, turn=0):
    if not keep:
        rdr.antenna_on()
    st = rdr.roll_call(buf, _load(buf, tags), keep, twins, turn)
    if not keep:
        rdr.antenna_off()
    return st


def test_a_roll_call_tells_same_changed_or_fault_under_every_collpos_reading():
    """ROLL_SETS random known sets of 2-5 NXP-style UIDs per CollPos reading (batch-like sets with CL1
    twins among them): the unchanged field is OK; one tag more is COLLISION, the newcomer
    singled out by its true UID (a CL1 twin of a known tag included) or left to the scan; one
    tag less is TIMEOUT or COLLISION, never OK; a scan right after a deviation (no field reset)
    finds exactly the field. Never a wrong UID."""
    out = []
    for reading in (emu.COLLPOS_FIFO, emu.COLLPOS_UID, emu.COLLPOS_RX):
        rnd, chip, rdr, buf = _reading_rig(reading, 4100)
        same = singled = lifts = twins = 0
        for _ in range(ROLL_SETS):
            chip.clear()
            tags = _known_set(rnd, 2 + rnd.below(4))
            for u in tags:
                chip.add_tag(NtagTag(u))
            same += _roll(rdr, buf, tags) == L.OK
            new = list(_nxp_uid(rnd))
            if rnd.below(3) == 0:
                new[:3] = list(tags[rnd.below(len(tags))][:3])  # a CL1 twin
                twins += 1
            new = bytes(new)
            if new in tags:
                continue
            chip.add_tag(NtagTag(new))
            assert _roll(rdr, buf, tags) == L.COLLISION
            assert not rdr.uid_len or bytes(rdr.uid[:7]) == new, _hex(rdr.uid[:7])
            singled += rdr.uid_len == 7
            rdr.antenna_on()
            rdr.roll_call(buf, _load(buf, tags))
            if rdr.uid_len:
                rdr.antenna_off()
                rdr.antenna_on()  # the newcomer was halted: a fresh field for the check
            m = rdr.scan(buf, None, 0, _load(buf, tags))
            rdr.antenna_off()
            assert sorted(_hexes([buf[7 * i:7 * i + 7] for i in range(m)])) == _hexes(tags + [new])
            chip.remove_tag(new)
            gone = tags[rnd.below(len(tags))]
            chip.remove_tag(gone)
            st = _roll(rdr, buf, tags)
            assert st in (L.TIMEOUT, L.COLLISION) and not rdr.uid_len, st
            lifts += 1
        assert same == ROLL_SETS and singled > ROLL_SETS * 2 // 3, (reading, same, singled)
        out.append([reading, same, singled, lifts, twins, rdr.collpos])
    return out


class _Deck:
    """What ``roll_call(twins=...)`` asks of the deck registry (firmware/registry.py): whether two
    registered UIDs share a CL1 (UID0..2)."""

    def __init__(self, uids):
        seen = []
        self.twins = []
        for u in uids:
            cl1 = bytes(u[:3])
            if cl1 in seen and cl1 not in self.twins:
                self.twins.append(cl1)
            seen.append(cl1)

    def twinned(self, uid, off):
        for t in self.twins:
            if t[0] == uid[off] and t[1] == uid[off + 1] and t[2] == uid[off + 2]:
                return True
        return False


def test_a_roll_call_with_the_decks_twins_skips_lone_cl1s_and_misses_only_unregistered_twins():
    """Per CollPos reading, ROLL_SETS random known sets of 2-5 UIDs (distinct CL1s, or batch-like),
    all registered, with the deck's twin table: unchanged OK, in 2n + 2 exchanges when every
    CL1 is distinct (one lone tag walked at CL2); a registered newcomer (a CL1 twin now and
    then: the deck then holds that twin) always COLLISION, singled out by its true UID or left
    to the scan; a lift never OK; an unregistered CL1 twin of a lone known tag is the one
    change a roll call may not see (OK), and one of L roll calls with turns 0..L-1 (L lone
    tags) sees it, as does one without ``twins``."""
    out = []
    for reading in (emu.COLLPOS_FIFO, emu.COLLPOS_UID, emu.COLLPOS_RX):
        rnd, chip, rdr, buf = _reading_rig(reading, 5100)
        cheap = blind = singled = 0
        for _ in range(ROLL_SETS):
            chip.clear()
            tags = _known_set(rnd, 2 + rnd.below(4))
            for u in tags:
                chip.add_tag(NtagTag(u))
            deck = _Deck(tags)
            x0 = chip.transceives
            assert _roll(rdr, buf, tags, twins=deck) == L.OK
            if len(set(u[:3] for u in tags)) == len(tags):
                cost = chip.transceives - x0
                assert cost <= 2 * len(tags) + 2 + (3 if rdr.collpos != reading else 0), cost
                cheap += cost == 2 * len(tags) + 2
            new = list(_nxp_uid(rnd))
            if rnd.below(3) == 0:
                new[:3] = list(tags[rnd.below(len(tags))][:3])  # a CL1 twin
            new = bytes(new)
            if new in tags:
                continue
            chip.add_tag(NtagTag(new))
            st = _roll(rdr, buf, tags, twins=_Deck(tags + [new]))  # registered
            assert st == L.COLLISION and (not rdr.uid_len or bytes(rdr.uid[:7]) == new), st
            singled += rdr.uid_len == 7
            lone = [u for u in tags if sum(1 for v in tags if v[:3] == u[:3]) == 1]
            seen = 0
            for turn in range(max(1, len(lone))):  # unregistered
                st = _roll(rdr, buf, tags, twins=deck, turn=turn)
                if st == L.OK:  # only the unregistered twin of a lone tag goes unseen
                    assert new[:3] in [u[:3] for u in lone], _hex(new)
                    blind += 1
                else:
                    assert st == L.COLLISION and (not rdr.uid_len or bytes(rdr.uid[:7]) == new)
                    seen += 1
            assert seen, _hex(new)
            assert _roll(rdr, buf, tags) == L.COLLISION
            chip.remove_tag(new)
            chip.remove_tag(tags[rnd.below(len(tags))])
            assert _roll(rdr, buf, tags, twins=deck) in (L.TIMEOUT, L.COLLISION)
            assert not rdr.uid_len
        assert cheap > ROLL_SETS // 3 and singled > ROLL_SETS // 2 and blind > ROLL_SETS // 30, (reading, cheap, singled, blind)
        out.append([reading, cheap, singled, blind])
    return out


def test_a_roll_call_on_a_kept_field_leaves_its_tags_halted():
    """keep=True: WUPA wakes the HALT tags, the final HLTA sends them back (after OK too), so
    one REQA still finds only newcomers; a newcomer is singled out and halted; on a fresh
    field keep asks for nothing (PARTIAL: the caller scans)."""
    _, chip, rdr, _ = _bag_reader(BAG)
    buf = bytearray(7 * 6)
    rdr.antenna_on()
    n = rdr.scan(buf)
    fields = chip.fields
    assert n == 5 and rdr.roll_call(buf, n, True) == L.OK and rdr.inventories == 2
    assert all(t.state_name() == "HALT" for t in chip.tags())
    assert rdr.arrivals(buf) == 0 and rdr.status == L.OK
    new = _uid(0xAA, 0xBB, 0x10, 0x21, 0x30, 0x40)  # a CL1 twin of three of them
    chip.add_tag(NtagTag(new))
    assert _roll(rdr, buf, BAG, True) == L.COLLISION and _hex(rdr.uid[:7]) == _hex(new)
    assert all(t.state_name() == "HALT" for t in chip.tags()) and rdr.inventories == 2
    assert _roll(rdr, buf, BAG + (new,), True) == L.OK and chip.fields == fields
    rdr.antenna_off()
    rdr.antenna_on()
    assert rdr.roll_call(buf, 6, True) == L.PARTIAL and rdr.uid_len == 0
    assert chip.transceives and all(t.state_name() == "IDLE" for t in chip.tags())
    rdr.antenna_off()
    return [n, chip.fields - fields]


def test_a_roll_call_costs_fewer_exchanges_than_confirming_batch_tags():
    """n tags sharing their CL1 (a batch): REQA, ANTICOLLISION CL1, SELECT CL1 and 2n - 1
    ANTICOLLISION CL2 frames (2n + 2), against REQA + SELECT CL1 + SELECT CL2 + HLTA per tag
    and the closing REQA of a confirming scan (4n + 1)."""
    out = []
    for n in range(1, 6):
        tags = [_uid(0x7A, 0x01, 0x10 + 0x11 * k, 0x31, 0x42, 0x53) for k in range(n)]
        _, chip, rdr, _ = _bag_reader(tags)
        buf = bytearray(7 * 6)
        assert _roll(rdr, buf, tags) == L.OK  # the first may test CollPos readings too
        x0 = chip.transceives
        assert _roll(rdr, buf, tags) == L.OK
        roll = chip.transceives - x0
        rdr.antenna_on()
        x0 = chip.transceives
        assert rdr.scan(buf, None, 0, _load(buf, tags)) == n and rdr.status == L.OK
        confirm = chip.transceives - x0
        rdr.antenna_off()
        assert roll == 2 * n + 2 and confirm == 4 * n + 1, (n, roll, confirm)
        out.append([n, roll, confirm])
    return out


def test_faults_during_a_roll_call_never_make_a_changed_field_look_the_same():
    """Every fault kind at each of the first 16 exchanges of a roll call, on a fresh and on a
    kept field that is unchanged, holds one tag more or one tag less than known: OK only for
    the unchanged field (a fault may leave the answers it hit as the known set predicts them:
    an ATQA, bits after a collision), never CHIP_ERR or a crash, never a wrong UID; after each,
    the field scanned as the mat does, the next roll call without faults is exact again."""
    out = []
    new = _uid(0xAA, 0xBB, 0x10, 0x20, 0x31, 0x40)  # a CL1 twin of three known tags
    for keep in (False, True):
        for change in ("same", "more", "less"):
            _, chip, rdr, _ = _bag_reader(BAG[:4])
            buf = bytearray(7 * 6)
            tags = list(BAG[:4])
            truth = tags
            rdr.antenna_on()
            rdr.scan(buf)
            if change == "more":
                chip.add_tag(NtagTag(new))
                truth = tags + [new]
            elif change == "less":
                chip.remove_tag(BAG[2])
                truth = [u for u in tags if u != BAG[2]]
            if not keep:
                rdr.antenna_off()
            deviated = 0
            for kind, name in FAULTS:
                for after in range(16):
                    chip.inject(kind, 1, after, after % 5)
                    st = _roll(rdr, buf, tags, keep)
                    chip.inject(kind, 0)
                    assert st != L.CHIP_ERR and (st != L.OK or change == "same"), (
                        name, after, st)
                    assert not rdr.uid_len or _hex(rdr.uid[:7]) == _hex(new), (name, after)
                    deviated += st != L.OK
                    if keep:  # as the mat does: a scan of the kept field, a fresh one if it fails
                        rdr.scan(buf, None, 0, _load(buf, truth), True)
                        if rdr.status != L.OK:
                            rdr.antenna_off()
                            rdr.antenna_on()
                            rdr.scan(buf, None, 0, _load(buf, truth))
                    assert _roll(rdr, buf, truth, keep) == L.OK, (name, after, keep, change)
            if keep:
                rdr.antenna_off()
            out.append([keep, change, deviated])
    return out


def test_a_roll_call_allocates_nothing():
    _, chip, rdr, _ = _bag_reader(BAG)
    buf = bytearray(7 * 6)
    new = NtagTag(_uid(0x2A, 0xBB, 0x99, 0x21, 0x30, 0x40))
    deck = _Deck(BAG[:2])
    for warm in (True, False):
        if micropython and not warm:
            micropython.heap_lock()
        try:
            same = _roll(rdr, buf, BAG)
            lone = _roll(rdr, buf, BAG, twins=deck, turn=3)
            chip.remove_tag(BAG[1])
            lift = _roll(rdr, buf, BAG)
        finally:
            if micropython and not warm:
                micropython.heap_unlock()
        chip.add_tag(NtagTag(BAG[1]))
        chip.add_tag(new)
        if micropython and not warm:
            micropython.heap_lock()
        try:
            tap = _roll(rdr, buf, BAG)
        finally:
            if micropython and not warm:
                micropython.heap_unlock()
        chip.remove_tag(new.uid)
        assert same == lone == L.OK and lift != L.OK and tap == L.COLLISION and rdr.uid_len == 7
    return [same, lone, lift, tap]


def test_a_transfer_in_one_buffer_reaches_every_selected_reader_as_sent():
    """machine.SPI lets one buffer serve both ways (the driver does so); with two chips selected
    (a wiring fault) both still see the bytes sent and MISO is their AND, as with two buffers."""
    bus = EmuSpiBus()
    a = bus.add_reader(0x91)
    b = bus.add_reader(0x92)
    a.cs.value(0)
    b.cs.value(0)
    two = bytearray([0x80 | 0x37 << 1, 0x80 | 0x37 << 1, 0])
    rx = bytearray(3)
    bus.write_readinto(two, rx)
    a.cs.value(1)
    b.cs.value(1)
    a.cs.value(0)
    b.cs.value(0)
    one = bytearray(two)
    bus.write_readinto(one, one)
    assert one == rx and rx[1] == rx[2] == 0x91 & 0x92
    return _hex(one)



def test_a_writer_made_of_a_boards_reader_writes_on_that_readers_chip():
    """``tapmat tags write`` turns the board's reader into a writer (``TagWriter.of``)."""
    bus, chip, rdr, _ = _rig()
    other = bus.add_reader()
    assert drv.Mfrc522(bus, other.cs).init() == L.OK
    tag = NtagTag(_uid(0x7C, 1, 2, 3, 4, 5))
    chip.add_tag(tag)
    w = TagWriter.of(rdr)
    assert w.gain == rdr.gain and w.init() == L.OK
    w.antenna_on()
    assert w.select_uid(tag.uid) == L.OK and w.write(4, b"ours") == L.OK
    assert bytes(tag.mem[16:20]) == b"ours"
    return _hex(tag.mem[16:20])
