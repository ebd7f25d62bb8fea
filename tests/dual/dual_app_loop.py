"""The whole event loop with real sensors: emulated readers, the mat, the journal, the link.

A board made of the MFRC522 emulator (16 readers on one emulated SPI bus), the firmware's App
with persistence and sensors, a Skull game from ``game.json``. Under ``micropython.heap_lock()``
the loop polls the readers with discs lying on pads (steady state), and a disc put on a pad is
seen, accepted, journalled and mirrored — all without allocating.
"""
import json
import sys

from fakeboard import FakeBoard, FakePort, scratch_dir
from shared_rules.wire import codec
from shared_rules.core import deck
from shared_rules.core import tokens
from firmware.app import App
from firmware.mfrc522 import Mfrc522
from firmware.emu.mfrc522_emu import Mfrc522Emu
from firmware.emu.ntag import NtagTag
from firmware.emu.spi_bus import EmuPin, EmuSpiBus
from host.board.sensors_layout import BAG_SCANS, SWEEP_FIELDS, SWEEP_TAGS

try:
    import micropython
except ImportError:
    micropython = None

READERS = 16
SEAT_PADS = (0, 2, 4, 6)  # hardware/mat_layout.json, Skull 3-6 seats
CYCLE_STEPS = 3  # steps a cycle of the other pads takes at most beside a kept field in these tests
BOX, COMMAND = 13, 15
USED = SEAT_PADS + (BOX, COMMAND)  # the other ten pads are spare in this game


def disc_uid(seat, disc, copy):
    return bytes((4, 0x5C, seat, disc, copy, 0x11, 0x3E))


class Stub:
    """Switches read ``v`` (0: clasp open); LEDs and buzzer count what they are told."""

    def __init__(self):
        self.calls = 0
        self.v = 0

    def value(self):
        return self.v

    def set(self, i, r, g, b):
        self.calls += 1

    def show(self):
        self.calls += 1

    def play(self, pattern):
        self.calls += 1


class EmulatedBoard(FakeBoard):
    name = "emulated"

    def __init__(self, root):
        FakeBoard.__init__(self, root)
        self.bus = EmuSpiBus()
        self.emus = [self.bus.add_reader() for _ in range(READERS)]
        self.readers = [Mfrc522(self.bus, e.cs) for e in self.emus]
        self.switches = [Stub() for _ in range(6)]
        self.leds = Stub()
        self.buzzer = Stub()


def board_with_game(header=None, closed=()):
    root = scratch_dir("loop-" + sys.implementation.name)
    with open("hardware/mat_layout.json") as f:
        layout = f.read()
    with open(root + "/mat_layout.json", "w") as f:
        f.write(layout)
    recs = []
    for seat in range(4):
        for code, disc in enumerate(("flower", "skull")):
            for copy in range(3 if code == 0 else 1):
                recs.append({"uid": deck.uid_hex(disc_uid(seat, code, copy)), "game": "skull",
                             "kind": "disc", "code": disc, "seat": seat})
    for t in range(len(tokens.CODES)):
        recs.append({"uid": deck.uid_hex(bytes((4, 0x70, t, 0, 0, 0x99, 1))), "kind": "token",
                     "code": tokens.CODES[t]})
    deck.write(root + "/deck.bin", recs)
    with open(root + "/game.json", "w") as f:
        f.write(json.dumps(header or {"game": "skull", "players": 4}))
    board = EmulatedBoard(root)
    for i in closed:
        board.switches[i].v = 1
    return board, started(board)


def started(board):
    """Boot the firmware on the board (it polls every pad once before announcing the game:
    what lies there then is the table as it is, not moves)."""
    app = App(board)
    assert app.boot() and app.sensors.mat is not None
    return app


def run(app, steps, locked):
    if locked and micropython:
        micropython.heap_lock()
    try:
        for _ in range(steps):
            app.step()
    finally:
        if locked and micropython:
            micropython.heap_unlock()


def test_a_placed_disc_is_seen_accepted_journalled_and_mirrored():
    board, app = board_with_game()
    board.emus[SEAT_PADS[0]].add_tag(NtagTag(disc_uid(0, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 1 and app.persist.stats()["records"] == 1
    assert app.referee.game.summary()["scores"] == [0, 0, 0, 0]
    return app.referee.game.digest()


def test_an_accepted_tap_is_lit_then_journalled_then_told_to_the_host():
    """Light first (docs/persistence.md): the pad lights before the record is journalled, and
    the host's DELTA (its acknowledgement) leaves only after the journal's flush."""
    board, app = board_with_game()
    order = []
    fb, per, link = app.feedback, app.persist, app.link
    lit, journalled, send = fb.accepted, per.accepted, link.send

    def accepted_light(reader, now, colour=None):
        order.append("light")
        return lit(reader, now) if colour is None else lit(reader, now, colour)

    def journal(rec):
        order.append("journal")
        return journalled(rec)

    def sent(kind, n):
        if kind == codec.DELTA:
            order.append("delta")
        return send(kind, n)
    fb.accepted, per.accepted, link.send = accepted_light, journal, sent
    board.emus[SEAT_PADS[0]].add_tag(NtagTag(disc_uid(0, 0, 0)))
    run(app, 3 * READERS, False)
    del fb.accepted, per.accepted, link.send
    assert order == ["light", "journal", "delta"], order
    return order


def test_the_loop_allocates_nothing_while_polling_and_accepting():
    board, app = board_with_game()
    board.emus[SEAT_PADS[0]].add_tag(NtagTag(disc_uid(0, 0, 0)))
    run(app, 3 * READERS, False)
    sent = len(board.link.sent)
    # Steady state: discs lie on pads, nothing changes, every reader polled many times.
    run(app, 10 * READERS, True)
    assert app.referee.accepted == 1 and len(board.link.sent) == sent
    # Two more discs put down (the tag objects are made first): seen and accepted, heap locked.
    board.link.write = lambda buf, n: None
    board.emus[SEAT_PADS[1]].add_tag(NtagTag(disc_uid(1, 1, 0)))
    board.emus[SEAT_PADS[2]].add_tag(NtagTag(disc_uid(2, 0, 1)))
    run(app, 3 * READERS, True)
    assert app.referee.accepted == 3 and app.persist.stats()["records"] == 3
    assert app.sensors.scans >= 16 * READERS  # the settling round, then a reader a step
    return app.referee.game.digest()


def test_after_a_power_cut_the_discs_on_the_pads_are_not_new_places():
    board, app = board_with_game()
    for seat in range(4):
        board.emus[SEAT_PADS[seat]].add_tag(NtagTag(disc_uid(seat, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 4 and app.referee.game.s[3] == 1  # R_PHASE: every seat placed, add
    digest = app.referee.game.digest()
    # Power cut: a new interpreter on the same flash, the discs still on their pads.
    board.link = FakePort()
    again = started(board)
    run(again, 3 * READERS, False)
    assert again.referee.accepted == 0 and again.referee.game.digest() == digest
    # Seat 0 (first player) adds a disc: a real place.
    board.emus[SEAT_PADS[0]].add_tag(NtagTag(disc_uid(0, 0, 1)))
    run(again, 3 * READERS, False)
    assert again.referee.accepted == 1 and again.referee.game.s[16 + 2] == 2  # seat 0's stack (skull_layout SEAT_BASE + STACK): two discs
    return again.referee.game.digest()


def messages(board):
    """The DIAG lines the board sent (and forget what it sent)."""
    from shared_rules.wire import codec
    out = []
    for t, _, body in board.link.frames():
        if t == codec.DIAG and body[0] == codec.DIAG_MESSAGE:
            out.append(bytes(body[1:]).decode())
    return out


def test_a_missing_deck_registry_is_told_and_the_game_runs_on_host_actions():
    import os
    board, app = board_with_game()
    os.remove(board.fs_root + "/deck.bin")
    board.link = FakePort()
    calls = board.buzzer.calls
    again = App(board)
    assert again.boot() and again.sensors.mat is None
    got = messages(board)
    assert len(got) == 1 and "deck.bin" in got[0] and "host actions only" in got[0], got
    assert board.buzzer.calls == calls + 1
    return got[0].split(":")[0][-8:]  # the OS error text differs between interpreters


def test_a_torn_journal_tail_is_told():
    board, app = board_with_game()
    for seat in range(3):
        board.emus[SEAT_PADS[seat]].add_tag(NtagTag(disc_uid(seat, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 3
    path = board.fs_root + "/jrn.bin"
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:-6])  # the power went while the last record was written (its end mark too)
    board.link = FakePort()
    again = started(board)
    got = messages(board)
    assert got == ["stored game damaged (jrn.bin: 4 bytes unreadable): 2 actions restored; "
                   "recent actions may be missing"], got
    assert again.referee.game.summary()["scores"] == [0, 0, 0, 0]
    return got


# --- reader health ------------------------------------------------------------------------

def _reader_diags(board):
    """DIAG reader frames the board sent since the last call: [reader, state, version]."""
    return [list(body[1:4]) for t, _, body in board.link.frames()
            if t == codec.DIAG and body[0] == codec.DIAG_READER]


def test_a_reader_that_vanishes_is_reported_skipped_and_revived():
    board, app = board_with_game()
    run(app, 2 * READERS, False)
    _reader_diags(board)
    emu = board.emus[BOX]
    board.bus.readers.remove(emu)  # cable pulled: MISO reads the pull-down's 00h
    run(app, 2 * len(USED), False)   # within one round of the schedule
    assert _reader_diags(board) == [[BOX, 1, 0x92]] and app.sensors.state[BOX] == 1
    falls = emu.cs.falls
    run(app, 200, False)
    tries = emu.cs.falls - falls   # only the re-inits with back-off touch it (1, 16, 32, 64 steps)
    assert 0 < tries <= 4 * 20 and app.sensors.state[BOX] == 1
    board.bus.readers.append(emu)  # plugged back
    run(app, 300, False)
    assert _reader_diags(board) == [[BOX, 0, 0x92]] and app.sensors.state[BOX] == 0
    # a spare pad's reader (no zone in this game) is checked on its visits (one or two a step)
    board.bus.readers.remove(board.emus[3])
    run(app, 2 * (READERS - len(USED)), False)
    assert _reader_diags(board) == [[3, 1, 0x92]]
    return tries


def test_a_reader_that_resets_is_found_within_a_round_and_configured_again():
    board, app = board_with_game()
    run(app, 2 * READERS, False)
    _reader_diags(board)
    board.emus[COMMAND]._soft_reset()    # a brown-out: TModeReg back to 00h, antenna off
    run(app, 2 * len(USED), False)
    assert _reader_diags(board) == [[COMMAND, 1, 0x92], [COMMAND, 0, 0x92]]
    assert board.emus[COMMAND].regs[0x2A] == 0x80  # TAuto again
    return app.sensors.state[COMMAND]


def test_a_reader_missing_at_boot_is_announced_with_the_game():
    board, _ = board_with_game()
    board.bus.readers.remove(board.emus[9])
    app = started(board)
    run(app, 4, False)
    assert [9, 1, 0] in _reader_diags(board)
    return app.sensors.down


class _BadTag(NtagTag):
    """A damaged tag: every answer carrying a CRC_A carries a wrong one."""

    def _with_crc(self, n):
        ok = NtagTag._with_crc(self, n)
        self.resp[n] ^= 0x5A
        return ok


def test_a_bad_tag_does_not_hide_the_other_tags_on_its_pad():
    board, app = board_with_game()
    pad = SEAT_PADS[1]
    board.emus[pad].add_tag(NtagTag(disc_uid(1, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.sensors.presence.count(pad) == 1
    _reader_diags(board)
    board.emus[pad].add_tag(_BadTag(bytes((4, 0xBA, 0xD0, 1, 2, 3, 4))))
    run(app, 24 * READERS, False)  # an occupied pad nobody waits on: every third round
    assert _reader_diags(board) == [[pad, 2, 0x92]]
    board.emus[pad].remove_tag(disc_uid(1, 0, 0))  # the good disc lifted: it must leave
    run(app, 24 * READERS, False)
    assert app.sensors.presence.count(pad) == 0
    board.emus[pad].remove_tag(bytes((4, 0xBA, 0xD0, 1, 2, 3, 4)))
    run(app, 24 * READERS, False)
    assert _reader_diags(board) == [[pad, 0, 0x92]]
    return app.sensors.state[pad]


# --- scan schedule ------------------------------------------------------------------------

def _recording(s, seen):
    """Record every reader ``s`` scans into the bytearray ``seen`` (``seen[0]``: how many);
    allocation-free. Returns the undo."""
    inner = s._scan

    def scan(r):
        seen[0] += 1
        seen[seen[0]] = r
        return inner(r)
    s._scan = scan

    def undo():
        del s._scan
    return undo


def test_an_awaited_pad_is_scanned_every_step_and_a_moved_disc_is_no_duplicate():
    from shared_rules.core.engine import DUPLICATE_TAG
    board, app = board_with_game()
    s = app.sensors
    mat = s.mat
    pad = SEAT_PADS[0]
    board.emus[5].add_tag(NtagTag(disc_uid(0, 0, 0)))  # a disc lying on a spare pad
    run(app, 3 * READERS, False)
    mat.wait_reader = pad  # as if the prompt awaited seat 0's pad alone
    run(app, 2 * READERS, True)  # the schedule allocates nothing either
    per_step = []
    seen = bytearray(256)
    undo = _recording(s, seen)
    for _ in range(2 * READERS):
        seen[0] = 0
        run(app, 1, True)
        per_step.append(list(seen[1:1 + seen[0]]))
    undo()
    # each step: the awaited pad and the next three of the cycle of the others, in play or
    # spare alike: each of the 15 once in 5 steps
    assert all(pad in step and len(step) == 4 for step in per_step)
    for i in range(0, len(per_step) - 5, 5):
        cycle = sorted(r for step in per_step[i:i + 5] for r in step if r != pad)
        assert cycle == [r for r in range(READERS) if r != pad], cycle
    board.link.frames()
    # the disc moved from pad 5 to the awaited pad: pad 5 is scanned again first
    board.emus[5].remove_tag(disc_uid(0, 0, 0))
    board.emus[pad].add_tag(NtagTag(disc_uid(0, 0, 0)))
    run(app, 4, False)
    refused = [body[0] for t, _, body in board.link.frames() if t == codec.REJECT]
    assert DUPLICATE_TAG not in refused and s.presence.find(disc_uid(0, 0, 0), pad, True) == -1
    return [len(step) for step in per_step[:4]]


def test_awaited_empty_pads_are_swept_with_their_fields_switched_on_together():
    board, app = board_with_game()
    s = app.sensors
    run(app, 3 * READERS, False)
    assert s.hot_n == len(SEAT_PADS)  # the start: every seat places a disc
    inner = s._scan
    lit = []

    def scan(r):  # the fields on when a pad is scanned
        lit.append([p for p in range(READERS) if board.emus[p].rf_on()])
        return inner(r)
    s._scan = scan
    run(app, 2, False)
    del s._scan
    # the first pad of a sweep is read with two more fields on, never more than SWEEP_FIELDS
    assert len(lit[0]) == SWEEP_FIELDS and all(len(on) <= SWEEP_FIELDS for on in lit), lit
    before = [board.emus[p].fields for p in range(READERS)]
    run(app, 2, True)  # two steps: every awaited pad each, and the next two pads of the cycle
    # of the others each (the next one's field switched on ahead); allocation-free
    after = [board.emus[p].fields for p in range(READERS)]
    assert all(after[p] == before[p] + 2 for p in SEAT_PADS)
    assert sum(after[p] - before[p] for p in range(READERS) if p not in SEAT_PADS) == 4
    assert [p for p in range(READERS) if board.emus[p].rf_on()] == [s.warm]  # only it is on
    # awaited pads holding more tags than SWEEP_TAGS: one of them every other step, beside the
    # step's two pads of the cycle
    for k in range(SWEEP_TAGS + 1):
        board.emus[SEAT_PADS[0]].add_tag(NtagTag(bytes((4, 0xEE, 1, k, 2, 3, 4))))
    run(app, 4 * READERS, False)
    assert s.presence.count(SEAT_PADS[0]) == SWEEP_TAGS + 1 and s.hot_n == len(SEAT_PADS)
    before = [board.emus[p].fields for p in range(READERS)]
    run(app, 2 * len(SEAT_PADS), True)
    after = [board.emus[p].fields for p in range(READERS)]
    assert all(after[p] == before[p] + 1 for p in SEAT_PADS)
    assert sum(after[p] - before[p] for p in range(READERS) if p not in SEAT_PADS) \
        == 2 * 2 * len(SEAT_PADS)
    assert all(after[p] > before[p] for p in range(READERS))
    return [lit[0], s.hot_n]


def test_a_sweep_reaches_every_awaited_pad_whatever_count_the_last_schedule_left():
    """A sweep that begins with whatever count ``turn`` holds must still give its awaited pads
    their every-other-step turn (it once toggled 3 <-> 2 and never scanned them: a 6-player
    Sheriff stalled with cards lifted off an awaited stand pad)."""
    board, app = board_with_game()
    s = app.sensors
    for k in range(SWEEP_TAGS + 1):
        board.emus[SEAT_PADS[0]].add_tag(NtagTag(bytes((4, 0xEE, 1, k, 2, 3, 4))))
    run(app, 4 * READERS, False)
    assert s.presence.count(SEAT_PADS[0]) == SWEEP_TAGS + 1 and s.hot_n == len(SEAT_PADS)
    s.turn = 3  # as an older schedule could leave it
    before = [board.emus[p].fields for p in range(READERS)]
    run(app, 2 * len(SEAT_PADS), True)
    after = [board.emus[p].fields for p in range(READERS)]
    assert all(after[p] > before[p] for p in SEAT_PADS), [after[p] - before[p] for p in SEAT_PADS]
    return [after[p] - before[p] for p in SEAT_PADS]


class FloodPort(FakePort):
    """A line that never runs dry: PING frames without end. Counts what the board reads per
    loop step, and fails if one step reads more than a bounded amount."""

    def __init__(self, body_len):
        FakePort.__init__(self)
        from shared_rules.wire import codec
        self.wire = codec.encode(codec.PING, 7, bytes([i & 255 for i in range(body_len)]))
        self.at = 0
        self.step_bytes = 0
        self.most = 0
        self.pongs = 0

    def readinto(self, buf):
        w = self.wire
        for i in range(len(buf)):
            buf[i] = w[self.at]
            self.at = (self.at + 1) % len(w)
        self.step_bytes += len(buf)
        assert self.step_bytes <= 4096, "one loop step read %d bytes of a flood" % self.step_bytes
        return len(buf)

    def write(self, buf, n):
        self.pongs += 1

    def stepped(self):
        self.most = max(self.most, self.step_bytes)
        self.step_bytes = 0


def test_a_ping_flood_does_not_starve_the_readers():
    """An endless PING stream (short and longest bodies) while discs are put down: every step
    reads a bounded amount, the readers keep their rate, each disc is seen within the usual
    number of steps, and PINGs are still answered."""
    out = []
    for body_len in (0, 512):
        board, app = board_with_game()
        flood = FloodPort(body_len)
        board.link = flood
        app.link.port = flood
        board.idle = flood.stepped
        scans = app.sensors.scans
        for seat in range(3):
            board.emus[SEAT_PADS[seat]].add_tag(NtagTag(disc_uid(seat, 0, 0)))
            run(app, 3 * READERS, False)
            assert app.referee.accepted == seat + 1, (body_len, seat)
        assert app.sensors.scans - scans >= 3 * 3 * READERS - 3, app.sensors.scans - scans
        assert flood.pongs > 0
        out.append([body_len, flood.most])
    return out


def test_a_new_game_with_pieces_on_the_pads_asks_for_a_clear_table():
    """NEWGAME while discs of the last game lie on the pads: they are not places, the board asks
    for the table to be cleared (DIAG + buzz); a disc lifted and put down again is a place."""
    from shared_rules.wire import codec
    board, app = board_with_game()
    for seat in range(2):
        board.emus[SEAT_PADS[seat]].add_tag(NtagTag(disc_uid(seat, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 2
    board.link.frames()
    calls = board.buzzer.calls
    board.link.push(codec.encode(codec.NEWGAME, 1, json.dumps({"game": "skull", "players": 4, "replace": True}).encode()))
    run(app, 3 * READERS, False)
    got = messages(board)
    assert got == ["clear the table: 2 pieces lie on the pads and do not count; lift them and play them again"], got
    assert board.buzzer.calls > calls
    assert app.referee.accepted == 2 and app.referee.game.s[3] == 0  # R_PHASE: still preparing, no place
    uid = disc_uid(0, 0, 0)
    board.emus[SEAT_PADS[0]].remove_tag(uid)
    run(app, 3 * READERS, False)
    board.emus[SEAT_PADS[0]].add_tag(NtagTag(uid))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 3
    # A restored game with discs on its stacks asks nothing (they are the stacks).
    board.link = FakePort()
    started(board)
    assert messages(board) == []
    return app.referee.game.digest()


def _scans_of(app, steps):
    """Readers scanned during ``steps`` loop steps, in order."""
    s = app.sensors
    order = []
    inner = s._scan

    def scan(r):
        order.append(r)
        return inner(r)
    s._scan = scan
    run(app, steps, False)
    del s._scan
    return order


def test_a_dock_is_read_when_its_clasp_closes_and_not_scanned_otherwise():
    docks = (1, 3, 5, 7, 9)  # hardware/mat_layout.json, Sheriff 3-5 seats: dock of seat s, switch s
    stands = (0, 2, 4, 6, 8)
    board, app = board_with_game({"game": "sheriff", "players": 5}, closed=(0,))
    s = app.sensors
    card = [bytes((4, 0xBA, 0x60, k, 2, 3, 4)) for k in range(3)]
    board.emus[docks[2]].add_tag(NtagTag(card[0]))
    board.emus[docks[2]].add_tag(NtagTag(card[1]))
    run(app, 4, False)
    order = _scans_of(app, 12 * READERS)
    # docks are not scanned (what lies there counts when the clasp closes), the stands are
    assert not [d for d in docks if d in order] and all(p in order for p in stands)
    assert s.presence.count(docks[2]) == 0  # put in after the start: nothing read them yet
    # a bag docked already closed, and a card taken out of a bag just before its clasp closes:
    # each dock's tags forgotten and read afresh (BAG_SCANS complete scans) before the closing
    # counts; then sealed
    board.emus[docks[1]].add_tag(NtagTag(card[2]))
    board.switches[1].v = 1
    board.emus[docks[2]].remove_tag(card[1])
    board.switches[2].v = 1
    seen = bytearray(256)  # seen[0] readers scanned, in order
    undo = _recording(s, seen)
    if micropython:  # allocation-free (the sensors alone: the fake link allocates)
        micropython.heap_lock()
    try:
        for _ in range(2 * READERS):
            s.poll()
    finally:
        if micropython:
            micropython.heap_unlock()
    undo()
    order = list(seen[1:1 + seen[0]])
    reads = [r for r in order if r in docks]
    first = order.index(docks[1])
    assert reads == [docks[1]] * BAG_SCANS + [docks[2]] * BAG_SCANS
    assert order[first:first + 2 * BAG_SCANS] == reads
    assert s.presence.find(card[2], docks[0], True) == docks[1]
    assert s.presence.count(docks[2]) == 1 and s.presence.find(card[0], docks[0], True) == docks[2]
    order = _scans_of(app, 12 * READERS)
    assert not [d for d in docks[:3] if d in order]
    board.switches[0].v = 0  # opened (or the bag lifted out), then closed again: read again
    run(app, 4, False)
    board.switches[0].v = 1
    order = _scans_of(app, 12 * READERS)
    assert [r for r in order if r in docks] == [docks[0]] * BAG_SCANS
    return len(order)


def test_a_bag_is_read_from_the_first_closed_read_and_heard_before_its_arrivals():
    """A clasp read closed once and then open again (a bounce) is never heard; a closing is
    heard as soon as its dock's one complete scan is done and the switch read twice, before the
    arrivals that scan made (they mean nothing on a dock), with the bag's cards on the dock."""
    board, app = board_with_game({"game": "sheriff", "players": 5})
    s = app.sensors
    dock = 3  # seat 1's dock, switch 1 (hardware/mat_layout.json)
    cards = [bytes((4, 0xBA, 0x61, k, 2, 3, 4)) for k in range(2)]
    for u in cards:
        board.emus[dock].add_tag(NtagTag(u))
    run(app, 4, False)
    heard = []
    switch, presence = s.mat.on_switch, s.mat.on_presence

    def on_switch(i, closed):
        heard.append(("clasp", i, closed, s.presence.count(dock)))
        return switch(i, closed)

    def on_presence(kind, reader, uid):
        heard.append(("tag", kind, reader))
        return presence(kind, reader, uid)
    s.mat.on_switch, s.mat.on_presence = on_switch, on_presence
    board.switches[1].v = 1
    s.poll()
    board.switches[1].v = 0  # a bounce: open again at the next read
    for _ in range(3 * READERS):
        s.poll()
    assert not [h for h in heard if h[0] == "clasp"] and not s.closing[1] and not s.clasp[1]
    del heard[:]
    board.switches[1].v = 1
    for _ in range(3 * READERS):
        s.poll()
    del s.mat.on_switch, s.mat.on_presence
    assert heard[0] == ("clasp", 1, True, 2) and heard[1:] == [("tag", 1, dock)] * 2, heard
    assert s.sealed[dock] and s.clasp[1]
    return heard


def test_one_awaited_pad_holding_tags_keeps_its_field_on():
    """The turn seat's stack (one awaited pad with tags): its field stays on, every step asks
    it for arrivals with one REQA and its tags are confirmed once a cycle of the other pads (a
    complete scan, counted in ``inventories`` though no field goes on); besides it at most the
    field of the next sweep's first pad is on between steps; the field goes off when the prompt
    moves on. Heap-locked steps."""
    board, app = board_with_game()
    s = app.sensors
    pad = SEAT_PADS[0]
    emu = board.emus[pad]
    stack = [bytes((4, 0xEE, 1, k, 2, 3, 4)) for k in range(4)]  # unknown tags: refused, kept
    for u in stack:
        emu.add_tag(NtagTag(u))
    run(app, 3 * READERS, False)
    board.link.write = lambda buf, n: None  # refusals go to the host: no frames kept
    s.mat.wait_reader = pad  # as if the prompt awaited seat 0's pad alone
    run(app, 2 * READERS, True)
    assert s.kept == pad and emu.rf_on()
    fields = emu.fields
    scans = s.readers[pad].inventories
    for _ in range(6 * CYCLE_STEPS):
        run(app, 1, True)
        lit = [p for p in range(READERS) if board.emus[p].rf_on()]
        assert pad in lit and len(lit) <= 2 and (len(lit) == 1 or s.warm in lit), lit
    assert emu.fields == fields and s.readers[pad].inventories - scans >= 6
    new = bytes((4, 0xEE, 1, 9, 2, 3, 4))
    emu.add_tag(NtagTag(new))
    run(app, 1, True)  # the next step's REQA finds it
    assert s.presence.find(new, 255) == pad
    run(app, 2, True)
    emu.remove_tag(stack[0])
    steps = 0
    while s.presence.find(stack[0], 255) == pad:
        run(app, 1, True)
        steps += 1
    assert steps <= s.presence.misses + CYCLE_STEPS + 2
    s.mat.wait_reader = 255  # the prompt moves on: every seat awaited again
    run(app, 4, True)  # events of the lift handed on first
    assert s.kept == 255 and not emu.rf_on()
    return [steps]


def test_a_tap_on_the_kept_pad_ends_the_step_between_two_pads():
    """With a field kept on, one REQA on it follows every pad a step scans (and every two tags
    of a pile being confirmed): a tag put there while another pad is read is found right after
    that pad, and the step ends (the arrival is handed on at once, the fields switched on ahead
    go off). A tag counted gone there needs no field reset: a tag forgotten while it lies there
    HALT is found again by the next roll call's WUPA (heap-locked)."""
    board, app = board_with_game()
    s = app.sensors
    pad = SEAT_PADS[0]
    emu = board.emus[pad]
    stack = [bytes((4, 0xEE, 1, k, 2, 3, 4)) for k in range(4)]
    for u in stack:
        emu.add_tag(NtagTag(u))
    run(app, 3 * READERS, False)
    board.link.write = lambda buf, n: None
    s.mat.wait_reader = pad
    run(app, 2 * READERS, True)
    assert s.kept == pad
    new = NtagTag(bytes((4, 0xEE, 1, 9, 2, 3, 4)))
    seen = bytearray(64)  # seen[0] pads scanned in the step, then which; seen[63]: the tapped
    inner = s._scan

    def scan(r):  # the tap lands while the first other pad of a step is read
        seen[0] += 1
        seen[seen[0]] = r
        if r != pad and not seen[63]:
            seen[63] = seen[0]
            emu.add_tag(new)
        return inner(r)
    s._scan = scan
    steps = 0
    while not seen[63]:
        steps += 1
        seen[0] = 0
        run(app, 1, False)  # the emulated tag put down allocates
    del s._scan
    assert seen[0] == seen[63] and s.presence.find(new.uid, 255) == pad  # no pad after it
    assert [p for p in range(READERS) if board.emus[p].rf_on()] == [pad]
    # a lift there is counted gone without a field reset; a tag forgotten while it still lies
    # there HALT (as if its answers had been lost three times) answers the WUPA of the next
    # roll call of the kept field and is found again, still without a field reset
    fields = emu.fields
    emu.remove_tag(stack[0])
    while s.presence.find(stack[0], 255) == pad:
        run(app, 1, True)
    run(app, 2, True)
    assert emu.fields == fields and s.kept == pad and emu.rf_on()
    rest = bytearray(7 * 6)
    n = 0
    for u in stack[2:] + [new.uid]:
        rest[7 * n:7 * n + 7] = u
        n += 1
    for _ in range(s.presence.misses):
        s.presence.feed(pad, n, rest, True)
    assert s.presence.find(stack[1], 255) == -1
    again = 0
    while s.presence.find(stack[1], 255) != pad:
        run(app, 1, True)
        again += 1
        assert again <= 2 * CYCLE_STEPS + 2
    assert emu.fields == fields and s.kept == pad
    return [steps, list(seen[1:1 + seen[0]])]


def test_a_tap_and_a_lift_on_another_seats_stack_are_found_by_its_roll_call():
    """Another seat's stack (a loaded pad nobody awaits) is checked by roll calls: a tag put
    there (a CL1 twin of the stack's tags, as batch UIDs are) is singled out by the roll call
    itself and handed to the mat as an arrival on that pad, with no full scan of the pad; a tag
    lifted off it is counted gone after one scan (the deviation) and roll calls of the tags
    still there. Heap-locked steps."""
    board, app = board_with_game()
    s = app.sensors
    mine, other = SEAT_PADS[0], SEAT_PADS[1]
    for pad in (mine, other):
        for k in range(4):  # unknown tags: refused, but they lie there
            board.emus[pad].add_tag(NtagTag(bytes((4, 0xEE, pad, k, 2, 3, 4))))
    run(app, 3 * READERS, False)
    board.link.write = lambda buf, n: None
    s.mat.wait_reader = mine  # the prompt awaits seat 0's pad alone: the other stack is loaded
    run(app, 2 * READERS, True)
    assert s.kept == mine and s.presence.count(other) == 4 > SWEEP_TAGS
    rdr = s.readers[other]
    calls = bytearray(2)  # roll calls, scans of the other pad
    events = bytearray(3 * 8)  # (kind, reader, last UID byte) of each event, up to 8
    roll, scan, told = rdr.roll_call, rdr.scan, s.mat.on_presence

    # no closures: a MicroPython closure called with more than a few arguments allocates
    def counted_roll(uids, known, keep=False, twins=None, turn=0, calls=calls, roll=roll):
        calls[0] += 1
        return roll(uids, known, keep, twins, turn)

    def counted_scan(uids, data=None, page=0, known=0, keep=False, peek=None, calls=calls,
                     scan=scan):
        calls[1] += 1
        return scan(uids, data, page, known, keep, peek)

    def heard(kind, reader, uid, events=events, told=told):
        i = events[0] + 1
        if i < 8:
            events[0] = i
            events[3 * i], events[3 * i + 1], events[3 * i + 2] = kind, reader, uid[6]
        return told(kind, reader, uid)
    rdr.roll_call, rdr.scan, s.mat.on_presence = counted_roll, counted_scan, heard
    run(app, 2 * READERS, True)
    assert calls[0] >= 2 and calls[1] == 0 and events[0] == 0  # the stack as it was
    new = NtagTag(bytes((4, 0xEE, other, 9, 2, 3, 9)))
    board.emus[other].add_tag(new)
    rolls = calls[0]
    steps = 0
    while not events[0]:
        run(app, 1, True)
        steps += 1
    assert list(events[3:6]) == [1, other, 9] and calls[1] == 0  # ARRIVE, from the roll call
    assert calls[0] == rolls + 1 and s.presence.count(other) == 5
    board.emus[other].remove_tag(bytes((4, 0xEE, other, 1, 2, 3, 4)))
    events[0] = 0
    while not events[0]:
        run(app, 1, True)
        steps += 1
    assert list(events[3:6]) == [2, other, 4] and s.presence.count(other) == 4  # LEAVE
    assert calls[1] == 1  # one scan (the first roll call's deviation), then roll calls
    del rdr.roll_call, rdr.scan, s.mat.on_presence
    return [steps, calls[1]]


def test_a_tag_a_full_pad_has_no_slot_for_does_not_end_the_step():
    """A roll call singles out a tag the pad's presence has no slot left for (more tags than it
    tracks): nothing is handed on, so the step goes on (else every visit of that pad would cut
    its step short)."""
    board, app = board_with_game()
    s = app.sensors
    pad = SEAT_PADS[1]
    slots = s.presence.slots
    for k in range(slots):
        board.emus[pad].add_tag(NtagTag(bytes((4, 0xEE, pad, k, 2, 3, 4))))
    run(app, 3 * READERS, False)
    board.link.write = lambda buf, n: None
    s.mat.wait_reader = SEAT_PADS[0]  # the prompt awaits seat 0's pad alone: this one is loaded
    run(app, 2, False)
    assert s.presence.count(pad) == slots and not s.hot[pad]
    board.emus[pad].add_tag(NtagTag(bytes((4, 0xEE, pad, slots, 2, 3, 4))))
    crowded = s.presence.crowded
    arrived = s._scan(pad)  # heap-locked roll calls: the test above
    assert not arrived and s.presence.crowded == crowded + 1 and s.presence.count(pad) == slots
    assert s.readers[pad].uid_len == 7  # it was singled out by the roll call
    return [slots, s.presence.crowded - crowded]


# -- the link served while a reader waits out its field guard ------------------------------
GUARD_TICKS = 40  # the guard on the test clock: SPI transactions and link bytes, one tick each


class GuardEmu(Mfrc522Emu):
    """An emulated chip whose TStartNow timer runs ``GUARD_TICKS`` on the bus clock (the plain
    emulator's expires at once): the driver polls ComIrqReg until then. Records how late each
    wait ended (a wait: a poll before found the timer running), and any frame sent before the
    timer's end."""

    def __init__(self, cs, bus):
        Mfrc522Emu.__init__(self, cs)
        self.bus = bus
        self.due = -1
        self.polled = False  # a poll found the timer running: the driver is waiting on it

    def _write(self, reg, v):
        Mfrc522Emu._write(self, reg, v)
        if reg == 0x0C and v & 0x40:   # ControlReg TStartNow
            self.regs[0x04] &= 0xFE    # TimerIRq only once the period is over
            self.due = self.bus.clock + GUARD_TICKS
            self.polled = False
        elif reg == 0x0D and v & 0x80 and self.due >= 0:  # StartSend while the timer runs
            self.bus.early += 1

    def _read(self, reg):
        if reg == 0x04 and self.due >= 0:
            if self.bus.clock >= self.due:
                self.regs[0x04] |= 0x01
                late = self.bus.clock - self.due
                if self.polled and late > self.bus.late:  # a wait, not a timer long over
                    self.bus.late = late
                self.due = -1
            else:
                self.polled = True
                if self.bus.waiting is not None:
                    self.bus.waiting()
        return Mfrc522Emu._read(self, reg)


class ClockedBus(EmuSpiBus):
    def __init__(self):
        EmuSpiBus.__init__(self)
        self.clock = 0
        self.late = 0      # the most ticks a guard wait ended after the timer's end
        self.early = 0     # frames sent while a guard ran
        self.waiting = None  # called at each poll that finds a guard running

    def add_reader(self, version=0x92):
        r = GuardEmu(EmuPin(1), self)
        self.readers.append(r)
        return r

    def write_readinto(self, tx, rx):
        self.clock += 1
        EmuSpiBus.write_readinto(self, tx, rx)


class TimedPort(FakePort):
    """A line whose every byte read costs a tick of the bus clock; ``writes`` counts frames
    sent and keeps the last one (no allocation: heap-locked tests)."""

    def __init__(self, bus):
        FakePort.__init__(self)
        self.bus = bus
        self.writes = 0
        self.last = bytearray(codec.MAX_FRAME)
        self.last_n = 0

    def readinto(self, buf):
        n = FakePort.readinto(self, buf)
        self.bus.clock += n
        return n

    def write(self, buf, n):
        self.writes += 1
        for i in range(n):
            self.last[i] = buf[i]
        self.last_n = n




def guarded_board(port_class):
    """The Skull board on guard-timed readers and a ``port_class`` line, booted and run a while."""
    board = board_with_game()[0]
    bus = ClockedBus()
    board.emus = [bus.add_reader() for _ in range(READERS)]
    board.readers = [Mfrc522(bus, e.cs) for e in board.emus]
    board.bus = bus
    app = App(board)
    assert app.boot() and app.sensors.mat is not None
    port = port_class(bus)
    board.link = port
    app.link.port = port
    run(app, 2 * READERS, False)
    return bus, port, app


def test_a_host_frame_arriving_during_a_guard_is_decoded_then_and_handled_once():
    """A PING whose bytes arrive while the first pad of a step waits out its field guard is
    complete when the step ends (only the guard's link service could have decoded it), and the
    next step's service_link answers it, once; heap locked; no REQA before its guard's end."""
    bus, port, app = guarded_board(TimedPort)
    wire = codec.encode(codec.PING, 9, b"guard")
    arrived = [0]

    def arrive():
        if not arrived[0]:
            arrived[0] = bus.clock
            port.push(wire)
    if micropython:
        micropython.heap_lock()
    try:
        bus.waiting = arrive
        app.step()
        bus.waiting = None
        ready = app.link.reader.ready
        sent = port.writes
        app.step()
        answered = port.writes
        for _ in range(2 * READERS):
            app.step()
    finally:
        if micropython:
            micropython.heap_unlock()
    assert arrived[0], "no guard was waited in the step"
    assert ready and sent == 0, (ready, sent)
    assert answered == 1 and port.writes == 1, (answered, port.writes)
    got = list(codec.FrameReader().frames(bytes(port.last[:port.last_n])))
    assert got and got[0][0] == codec.PONG and got[0][2] == b"guard", got
    assert bus.early == 0
    return [len(wire), bus.late]


class GarbagePort(TimedPort):
    """A flood that never completes a frame (no 00h delimiter): the guard hook reads at every poll."""

    def __init__(self, bus):
        TimedPort.__init__(self, bus)
        self.read = 0

    def readinto(self, buf):
        for i in range(len(buf)):
            buf[i] = 0x55
        self.bus.clock += len(buf)
        self.read += len(buf)
        return len(buf)


def test_a_flood_during_a_guard_does_not_stretch_it():
    """Garbage without end on the line: every guard wait ends at most one link service call
    (16 bytes read and decoded, a tick each) plus one status poll after the timer's end, never
    before it, and a disc put down is still seen and accepted."""
    bus, port, app = guarded_board(GarbagePort)
    port.read = 0
    app.board.emus[SEAT_PADS[0]].add_tag(NtagTag(disc_uid(0, 0, 0)))
    run(app, 3 * READERS, False)
    assert app.referee.accepted == 1
    assert bus.early == 0
    assert 0 < bus.late <= 16 + 1, bus.late
    assert port.read > 0
    return bus.late


def test_a_plain_function_as_guard_hook_runs_unbound_during_a_guard():
    """The guard hook is shared by every reader (a class attribute of the driver): a plain
    function, not only a bound method like the app's, is called with no argument at each poll
    of a guard wait, allocating nothing (read through the class, a function stays unbound)."""
    bus = ClockedBus()
    chip = bus.add_reader()
    chip.add_tag(NtagTag(bytes((4, 1, 2, 3, 4, 5, 6))))
    rdr = Mfrc522(bus, chip.cs)
    assert rdr.init() == 0
    calls = [0]

    def hook():
        calls[0] += 1
    rdr.set_guard_hook(hook)
    try:
        rdr.antenna_on()
        if micropython:
            micropython.heap_lock()
        try:
            st = rdr.request(True)
        finally:
            if micropython:
                micropython.heap_unlock()
        rdr.antenna_off()
    finally:
        rdr.set_guard_hook(None)
    assert st == 0 and calls[0] > 0
    return calls[0]
