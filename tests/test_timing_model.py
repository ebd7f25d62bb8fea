"""The timing model (bench/timing.py) charges what the scheduler relies on: each chip's 5.1 ms
power-up guard runs on its own timer from its own field-on, so fields switched on together pay
it once (docs/nfc.md, "Scan schedule"). Virtual clock only: no wall-clock time is measured."""
from __future__ import annotations

from bench.timing import COSTS, Board, Clock
from host.board import mfrc522_layout as L
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
        assert r.init() == L.OK
    board.emus[2].add_tag(NtagTag(bytes((4, 0x7A, 2, 0, 0x31, 0x42, 0x53))))
    uids = bytearray(6 * 7)
    one, found = visit(clock, [a], uids)
    assert found == [0] and one >= GUARD_US
    alone = sum(visit(clock, [r], uids)[0] for r in (a, b, c))
    together, found = visit(clock, [a, b, c], uids)
    assert found == [0, 0, 1]
    # one guard instead of three; the RF work itself is the same
    assert together >= GUARD_US and alone - together >= 2 * GUARD_US - 100


def test_a_hand_moves_at_its_time_in_the_middle_of_a_scan() -> None:
    """Rig.at: a tag put down at t is in the field from the first SPI transaction at or after
    t, so a tap can land inside a loop step (during a guard: that scan finds it; after the
    scan's last request: it waits for the next one)."""
    clock = Clock()
    board = Board(clock, COSTS["low"])
    r = board.readers[0]
    assert r.init() == L.OK
    uids = bytearray(6 * 7)
    early = bytes((4, 0x7A, 0, 1, 0x31, 0x42, 0x53))
    late = bytes((4, 0x7A, 0, 2, 0x31, 0x42, 0x53))
    board.bus.due.append((clock.us + 3000, lambda: board.emus[0].add_tag(NtagTag(early))))
    board.bus.due.append((clock.us + 20000, lambda: board.emus[0].add_tag(NtagTag(late))))
    r.antenna_on()  # the guard runs until about 5.1 ms: the early tag is there by then
    assert r.scan(uids) == 1 and bytes(uids[:7]) == early and len(board.bus.due) == 1
    r.antenna_off()
    assert clock.us < board.bus.due[0][0] and len(board.emus[0].tags()) == 1


def test_never_more_than_three_fields_on_in_any_state() -> None:
    """The supply budget (docs/hardware.md): at no SPI transaction of the scheduled loop are
    more than SWEEP_FIELDS fields on, a kept field included, in every bench state, while taps
    come and go on the awaited pad (a kept field, arrivals ending steps) and the command pad."""
    import tempfile
    from pathlib import Path

    from bench import timing
    from host.board.sensors_layout import SWEEP_FIELDS
    with tempfile.TemporaryDirectory() as d:
        reg = timing.registry_file(Path(d))
        for state in timing.STATES:
            rig = timing.Rig(state, COSTS["high"], reg, "scheduled")
            bus = rig.board.bus
            most = [0]
            inner = bus.write_readinto

            def counted(tx, rx, inner=inner, most=most) -> None:
                inner(tx, rx)
                most[0] = max(most[0], sum(1 for e in rig.board.emus if e.rf_on()))
            bus.write_readinto = counted  # type: ignore[method-assign]
            rig.run_until(300_000)
            for i, pad in enumerate((rig.expected, timing.ANYWHERE) * 3):
                uid = bytes((4, 0x7F, pad, i, 1, 2, 3))
                t = rig.put(rig.clock.us + 7919 * (i + 1), pad, uid)
                rig.lift(t + 60_000, pad, uid)
                rig.run_until(t + 400_000)
            assert most[0] == SWEEP_FIELDS, (state[0], most[0])


def test_a_roll_call_of_a_batch_stack_costs_less_than_confirming_it() -> None:
    """The model's cost of telling a pad unchanged (docs/performance.md, "Latency"): a stack of
    four tags sharing their CL1 (as the bench's piles and batch UIDs do), its guard spent, is
    told unchanged by a roll call (REQA, ANTICOLLISION CL1, SELECT CL1, seven ANTICOLLISION
    CL2 frames) in clearly less time than a scan confirming its tags; a fifth tag, a CL1 twin,
    is found and identified by the roll call in less time than that scan takes."""
    from bench.timing import _uid
    costs = []
    for cost in COSTS.values():
        clock = Clock()
        board = Board(clock, cost)
        r = board.readers[0]
        assert r.init() == L.OK
        stack = [_uid(0, k) for k in range(4)]
        for u in stack:
            board.emus[0].add_tag(NtagTag(u))
        uids = bytearray(6 * 7)

        def timed(what: str) -> float:
            for i, u in enumerate(stack):
                uids[7 * i:7 * i + 7] = u
            r.antenna_on()
            r._timer_wait()  # the guard ran while other pads were read
            t0 = clock.us
            if what == "roll":
                st = r.roll_call(uids, 4)
            else:
                r.scan(uids, None, 0, 4)
                st = r.status
            dt = clock.us - t0
            r.antenna_off()
            assert st == (L.OK if what == "scan" or len(board.emus[0].tags()) == 4
                          else L.COLLISION)
            return dt
        timed("roll")  # CollPos readings learnt
        roll, scan = timed("roll"), timed("scan")
        assert roll < 0.7 * scan, (roll, scan)
        board.emus[0].add_tag(NtagTag(bytes((4, 0x7A, 0, 9, 1, 2, 3))))
        tap_roll = timed("roll")
        assert r.uid_len == 7 and bytes(r.uid[:7]) == bytes((4, 0x7A, 0, 9, 1, 2, 3))
        tap_scan = timed("scan")
        assert tap_roll < 0.6 * tap_scan, (tap_roll, tap_scan)
        costs.append((roll, scan, tap_roll, tap_scan))


class _NoTwins:
    """A deck registry's twin table holding none of the pile's CL1s (random NXP UIDs)."""

    def twinned(self, uid, off: int) -> bool:
        return False


def test_a_roll_call_of_random_uids_costs_what_a_batch_does_given_the_decks_twins() -> None:
    """Four tags with pairwise different CL1s (random NXP UIDs), guard spent: with the deck's
    twin table the roll call walks one lone tag at CL2 (2n + 2 exchanges) and costs what a
    batch stack's does, not about a confirmation as without it (5n - 1)."""
    from bench.timing import _uid
    for cost in COSTS.values():
        took = {}
        for pile, twins in (("batch", _NoTwins()), ("random", _NoTwins()), ("random", None)):
            clock = Clock()
            board = Board(clock, cost)
            r = board.readers[0]
            assert r.init() == L.OK
            stack = [_uid(0, k, pile) for k in range(4)]
            for u in stack:
                board.emus[0].add_tag(NtagTag(u))
            uids = bytearray(6 * 7)
            for _ in range(2):  # the first learns the CollPos reading
                for i, u in enumerate(stack):
                    uids[7 * i:7 * i + 7] = u
                r.antenna_on()
                r._timer_wait()
                t0, x0 = clock.us, board.emus[0].exchanges
                assert r.roll_call(uids, 4, False, twins, 1) == L.OK
                dt, ex = clock.us - t0, board.emus[0].exchanges - x0
                r.antenna_off()
            took[(pile, twins is not None)] = (dt, ex)
        assert took[("batch", True)][1] == took[("random", True)][1] == 10, took
        assert took[("random", False)][1] == 19, took
        assert took[("random", True)][0] < 0.6 * took[("random", False)][0], took


def test_the_model_charges_the_drivers_register_traffic_on_the_virtual_board() -> None:
    """The same driver work (init, a scan of a pile, a roll call, a newcomer found by it, an
    empty pad) on the virtual board's bus (``EmuSpiBus``, firmware/boards/virtual.py) and on the
    model's metered bus: byte for byte the same SPI transactions, and the model's clock is
    exactly its stated per-call costs for them (``spi_txn_us`` each, ``spi_byte_us`` a byte) plus
    the waits on the chips' radio and timer, nothing else."""
    from bench.timing import _uid
    from firmware.emu.spi_bus import EmuSpiBus
    from firmware.mfrc522 import Mfrc522

    def work(bus, emus: list) -> list[bytes]:
        traffic: list[bytes] = []
        inner = bus.write_readinto

        def recorded(tx, rx) -> None:
            traffic.append(bytes(tx))
            inner(tx, rx)
        bus.write_readinto = recorded
        readers = [Mfrc522(bus, e.cs) for e in emus]
        for k in range(4):
            emus[0].add_tag(NtagTag(_uid(0, k)))
        uids = bytearray(6 * 7)
        for r in readers:
            assert r.init() == L.OK
            r.antenna_on()
            r.scan(uids)
            r.antenna_off()
        readers[0].antenna_on()
        assert readers[0].roll_call(uids, 4) in (L.OK, L.COLLISION)
        emus[0].add_tag(NtagTag(bytes((4, 0x7A, 0, 9, 1, 2, 3))))
        readers[0].roll_call(uids, 4)
        readers[0].antenna_off()
        return traffic

    plain = EmuSpiBus()
    real = work(plain, [plain.add_reader() for _ in range(2)])
    for cost in COSTS.values():
        clock = Clock()
        board = Board(clock, cost)
        modelled = work(board.bus, board.emus[:2])
        assert modelled == real and len(real) > 100
        spi = len(real) * cost["spi_txn_us"] + sum(map(len, real)) * cost["spi_byte_us"]
        waits = sum(e.waited_us for e in board.emus)
        assert waits > 2 * GUARD_US and abs(clock.us - (spi + waits)) < 1e-6, (clock.us, spi, waits)


def test_an_accepted_tap_and_a_refused_one_take_the_same_sensing_path(tmp_path) -> None:
    """The bench lights both verdicts from the same arrivals (bench/timing.py ``measure``): a
    registered disc the rules accept and an unknown tag refused, each put on the awaited pad of
    the empty mat at the same moment of a fresh rig, arrive at the same clock time; the disc's
    verdict is READY and the rules accept it, the unknown tag's a refusal."""
    from bench import timing
    from firmware.mat import READY
    from host.board.presence_layout import ARRIVE
    from shared_rules.core import deck, tokens
    disc = bytes((4, 0x5D, 0, 0, 1, 2, 3))
    recs = [{"uid": deck.uid_hex(disc), "game": "skull", "kind": "disc", "code": "flower", "seat": 0}]
    recs += [{"uid": deck.uid_hex(bytes((4, 0x70, t, 0, 0, 0x99, 1))), "kind": "token",
              "code": tokens.CODES[t]} for t in range(len(tokens.CODES))]
    deck.write(str(tmp_path / "deck.bin"), recs)
    arrived = {}
    for uid in (disc, bytes((4, 0x7E, 0, 0, 1, 2, 3))):
        rig = timing.Rig(timing.STATES[0], COSTS["high"], str(tmp_path / "deck.bin"), "scheduled")
        rig.run_until(300_000)
        assert rig.expected == 0
        codes = []
        poll = rig.sensors.poll

        def verdict(poll=poll, codes=codes) -> int:
            code = poll()
            if code:
                codes.append(code)
            return code
        rig.sensors.poll = verdict  # type: ignore[method-assign]
        t0 = rig.put(rig.clock.us + 7919, 0, uid)
        arrived[uid] = rig.wait_event(ARRIVE, 0, uid) - t0
        rig.step()
        if uid == disc:
            assert codes == [READY] and rig.mat.game.accept(rig.mat.rec) == 0
        else:
            assert codes and codes[0] != READY
    assert len(set(arrived.values())) == 1, arrived
