"""The timing model (bench/timing.py) charges what the scheduler relies on: each chip's 5.1 ms
power-up guard runs on its own timer from its own field-on, so fields switched on together pay
it once (docs/nfc.md, "Scan schedule"). Virtual clock only: no wall-clock time is measured."""
from __future__ import annotations

from bench.timing import COSTS, Board, Clock
from firmware.drivers import mfrc522
from firmware.emu.ntag import NtagTag

GUARD_US = 205 * 25.0  # the driver's guard: TReload 204 + 1 ticks of 25 us


def visit(clock: Clock, readers: list, uids: bytearray) -> tuple[float, list[int]]:
    """Switch the fields of ``readers`` on together, scan each, switch them off: time, counts."""
    t0 = clock.us
    for r in readers:
        r.antenna_on()
    found = [r.scan(uids) for r in readers]
    for r in readers:
        r.antenna_off()
    return clock.us - t0, found


def test_fields_switched_on_together_share_their_guard() -> None:
    clock = Clock()
    board = Board(clock, COSTS["low"])
    a, b, c = board.readers[:3]
    for r in (a, b, c):
        assert r.init() == mfrc522.OK
    board.emus[2].add_tag(NtagTag(bytes((4, 0x7A, 2, 0, 0x31, 0x42, 0x53))))
    uids = bytearray(6 * 7)
    one, found = visit(clock, [a], uids)
    assert found == [0] and one >= GUARD_US
    alone = sum(visit(clock, [r], uids)[0] for r in (a, b, c))
    together, found = visit(clock, [a, b, c], uids)
    assert found == [0, 0, 1]
    # one guard instead of three; the RF work itself is the same
    assert together >= GUARD_US and alone - together >= 2 * GUARD_US - 100
