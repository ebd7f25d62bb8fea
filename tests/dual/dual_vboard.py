"""The virtual board profile (firmware/boards/virtual.py) on both interpreters.

Control lines from the host change the emulated world, which the real MFRC522 driver then
reads through the emulated SPI bus; LEDs and buzzer report to the host; bad lines and bad
arguments change nothing. The control pipe is a FIFO here (opened read-write so it never
blocks), the same kind of descriptor the bridge passes.
"""
import binascii
import os
import sys

try:
    import micropython
except ImportError:
    micropython = None

from firmware.boards import virtual
from firmware import mfrc522 as drv
from host.board import mfrc522_layout as L
from firmware.emu.spi_bus import EmuSpiBus
import scratch

UID_A = "04a1b2c3d4e5f6"
UID_B = "04112233445566"
UID_FOREIGN = "0badf00d"


class Sink:
    """Stands in for the report pipe: keeps every line written."""

    def __init__(self):
        self.lines = []

    def write(self, buf):
        self.lines.append(bytes(buf))
        return len(buf)

    def take(self):
        """The lines so far as text (undecodable bytes as '?'), then forget them."""
        out = ["".join([chr(c) if c < 128 else "?" for c in line]) for line in self.lines]
        self.lines = []
        return out


def _rig(n_readers=3, n_switches=2, src=None):
    sink = Sink()
    bus = EmuSpiBus()
    emus = [bus.add_reader() for _ in range(n_readers)]
    readers = [drv.Mfrc522(bus, e.cs) for e in emus]
    for r in readers:
        assert r.init() == L.OK
    switches = [virtual.Switch() for _ in range(n_switches)]
    ctl = virtual.Control(src, emus, readers, switches, virtual.Reporter(sink))
    return ctl, readers, switches, sink


def _scan(reader):
    """(UIDs found as hex, foreign tags seen) on one reader."""
    reader.antenna_on()
    uids = bytearray(7 * 6)
    n = reader.scan(uids)
    found = [binascii.hexlify(uids[7 * i:7 * i + 7]).decode() for i in range(n)]
    found.sort()
    return found, reader.foreign


def _fifo(name):
    path = scratch.TMP + "/tapmat_dual_vboard_%s_%s" % (name, sys.implementation.name)
    try:
        os.remove(path)
    except OSError:
        pass
    os.system("mkfifo " + path)
    f = open(path, "r+b", buffering=0)
    os.remove(path)  # the open descriptor keeps the FIFO alive
    return f


def test_place_move_remove_clear_read_by_driver():
    ctl, readers, _, sink = _rig()
    ctl.apply(b"P 0 " + UID_A.encode())
    ctl.apply(b"P 0 " + UID_B.encode())
    ctl.apply(b"P 2 " + UID_FOREIGN.encode())
    seen = [_scan(r) for r in readers]
    ctl.apply(b"R 0 " + UID_A.encode())
    after_remove = _scan(readers[0])
    ctl.apply(b"C *")
    after_clear = [_scan(r) for r in readers]
    assert seen[0] == (sorted([UID_A, UID_B]), 0)
    assert seen[2] == ([], 1)
    assert after_remove == ([UID_B], 0)
    assert sink.take() == []
    return [seen, after_remove, after_clear]


def test_placing_twice_keeps_one_tag():
    ctl, readers, _, _ = _rig()
    ctl.apply(b"P 1 " + UID_A.encode())
    ctl.apply(b"P 1 " + UID_A.encode())
    found = _scan(readers[1])
    assert found == ([UID_A], 0)
    return found


def test_tag_memory_is_readable():
    ctl, readers, _, _ = _rig()
    ctl.apply(b"P 1 " + UID_A.encode() + b" 0103a00c34")
    r = readers[1]
    r.antenna_on()
    uids = bytearray(7)
    data = bytearray(16)
    n = r.scan(uids, data, 4)
    assert n == 1 and bytes(data[:5]) == b"\x01\x03\xa0\x0c\x34"
    return binascii.hexlify(data).decode()


def test_switches_and_faults():
    ctl, readers, switches, sink = _rig()
    ctl.apply(b"S 1 1")
    closed = [s.value() for s in switches]
    ctl.apply(b"S 1 0")
    ctl.apply(b"P 0 " + UID_A.encode())
    ctl.apply(b"F 0 1 1")  # NO_ANSWER once: the first scan's wake-up meets silence
    found = [_scan(readers[0]), _scan(readers[0])]
    assert closed == [0, 1] and switches[1].value() == 0
    assert found == [([], 0), ([UID_A], 0)]
    assert sink.take() == []
    return [closed, found]


def test_bad_lines_change_nothing_and_are_reported():
    ctl, readers, switches, sink = _rig()
    bad = [b"", b"P", b"P 9 " + UID_A.encode(), b"P 0 zz", b"P 0 88a1b2c3d4e5f6", b"P 0 04a1",
           b"P 0 0badf00d 00", b"S 0 2", b"S 5 1", b"S -1 1", b"Q 0", b"F 0 9 1", b"C 3",
           b"R x 04", b"\xff\xfe"]
    for line in bad:
        ctl.apply(line)
    reports = sink.take()
    assert len(reports) == len(bad)
    assert all(r.startswith("X ") for r in reports)
    assert [_scan(r) for r in readers] == [([], 0)] * 3
    assert [s.value() for s in switches] == [0, 0]
    return len(reports)


def test_leds_report_changes_only():
    sink = Sink()
    leds = virtual.Leds(3, virtual.Reporter(sink))
    leds.show()
    first = sink.take()
    leds.set(1, 255, 16, 1)
    leds.show()
    leds.show()
    changed = sink.take()
    errors = 0
    for args in ((3, 0, 0, 0), (-1, 0, 0, 0), (0, 256, 0, 0), (0, 0, -1, 0)):
        try:
            leds.set(*args)
        except ValueError:
            errors += 1
    leds.show()
    assert first == ["L 000000000000000000\n"]
    assert changed == ["L 000000ff1001000000\n"]
    assert errors == 4 and sink.take() == []
    return changed


def test_buzzer_reports_and_refuses():
    sink = Sink()
    bz = virtual.Buzzer(virtual.Reporter(sink))
    bz.play(2)
    bz.tone(880, 60)
    errors = 0
    for call in ((bz.play, (5,)), (bz.play, (-1,)), (bz.tone, (49, 10)), (bz.tone, (880, 0)),
                 (bz.tone, (10001, 10)), (bz.tone, (440, 5001))):
        try:
            call[0](*call[1])
        except ValueError:
            errors += 1
    lines = sink.take()
    assert lines == ["P 02\n", "T 0370 003c\n"] and errors == 6
    return lines


def test_control_pipe_lines_arrive_in_pieces():
    f = _fifo("pieces")
    ctl, readers, switches, sink = _rig(src=f)
    ctl.service()
    f.write(b"S 0 1\nP 2 " + UID_A[:6].encode())
    ctl.service()
    half = (switches[0].value(), _scan(readers[2]))
    f.write(UID_A[6:].encode() + b"\n" + b"x" * (virtual.LINE_MAX + 5) + b"\nS 1 1\n")
    ctl.service()
    assert half == (1, ([], 0))
    assert _scan(readers[2]) == ([UID_A], 0) and switches[1].value() == 1
    assert sink.take() == []  # the over-long line is dropped silently at its newline
    f.close()
    return half


def test_idle_paths_allocate_nothing():
    f = _fifo("heap")
    ctl, _, _, _ = _rig(src=f)
    null = open("/dev/null", "wb", buffering=0)
    leds = virtual.Leds(4, virtual.Reporter(null))
    bz = virtual.Buzzer(virtual.Reporter(null))
    leds.show()
    ctl.service()
    if micropython:
        micropython.heap_lock()
    try:
        for i in range(20):
            ctl.service()
            leds.set(i & 3, i, 2 * i, 3 * i)
            leds.show()
            leds.show()
            bz.play(i % len(virtual.PATTERNS))
            bz.tone(440 + i, 10)
    finally:
        if micropython:
            micropython.heap_unlock()
    f.close()
    null.close()
    return list(leds.rgb)


def test_config_defaults_and_limits():
    path = scratch.TMP + "/tapmat_dual_vboard_cfg_" + sys.implementation.name  # both interpreters run at once
    try:
        os.mkdir(path)
    except OSError:
        pass
    out = [virtual.read_config(path + "/missing")]
    for text in ('{"readers": 4, "switches": 0, "leds": 64}', '{"readers": 65, "leds": true}',
                 '[1, 2]', "not json"):
        with open(path + "/board.json", "w") as fh:
            fh.write(text)
        out.append(virtual.read_config(path))
    os.remove(path + "/board.json")
    os.rmdir(path)
    assert out[0] == [16, 6, 16] and out[1] == [4, 0, 64] and out[2] == [16, 6, 16]
    return out


def test_link_reads_what_waits_and_stops_at_ctrl_c():
    f = _fifo("link")
    link = virtual.StdioLink(f, None, interrupt=True)
    buf = bytearray(8)
    if micropython:
        micropython.heap_lock()
    try:
        idle = link.readinto(buf)
    finally:
        if micropython:
            micropython.heap_unlock()
    f.write(b"abc")
    got = [idle, link.readinto(buf), bytes(buf[:3]).decode()]
    f.write(b"x\x03yz")
    try:
        link.readinto(buf)
        got.append("no interrupt")
    except KeyboardInterrupt:
        got.append("interrupt")
    got.append(link.readinto(buf))
    got.append(bytes(buf[:2]).decode())
    f.close()
    assert got == [0, 3, "abc", "interrupt", 2, "yz"]
    return got
