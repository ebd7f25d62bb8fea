"""Timing model of the mat's scan loop: the real firmware (sensors, presence, mat, MFRC522 driver)
runs against the register-level emulator, and a virtual clock advances by what each SPI
transaction and each RF exchange would cost on the board. The emulator counts; COSTS converts.

Per-operation costs (all in one place; a range where the source gives one):

- ``spi_txn_us``: MicroPython overhead of one ``write_readinto`` with its two chip-select edges
  (call, argument checks, Pin.value twice): 25-50 us on an RP2040 at 125 MHz (issue 13's
  figures; measure on a board with ``tapmat doctor``).
- ``spi_byte_us``: 8 us per byte at the 1 MHz SPI clock the profile sets (8 bits / 1 MHz).
- RF, ISO/IEC 14443-2/-3 at 106 kBd: one bit lasts 128/fc = 9.44 us; a standard frame carries
  start + 9 bits per byte (8 data + odd parity) + end; a short frame (REQA/WUPA) 7 bits + start
  + end; an anticollision frame's split byte carries its bits plus parity. A tag answers after
  its frame delay (``answer_fc`` of the emulated tag: 1172/fc = 86 us; an NTAG WRITE ACK up to
  10 ms).
- The MFRC522 timer (data sheet §8.5): (2 * TPrescaler + 1) * (TReloadVal + 1) / fc, started
  at the end of a frame (TAuto) or by TStartNow: an unanswered exchange costs the whole period,
  the 5.1 ms power-up guard after switching a field on is spent waiting on it (ISO/IEC 14443-3
  §5.2.1: a PICC answers at most 5 ms after the field is on).
- ``step_us``: what one ``App.step`` costs besides the readers and the clasp reads (link poll,
  feedback tick): an estimate, 100-200 us.
- ``pin_us``: one hall switch read (``Pin.value()``): 5-10 us.
- ``feedback_us``: LED update after an accepted or refused tap: 16 WS2812B take ~0.5 ms.
- ``event_us``: MicroPython from a presence event to the mat's verdict (``Presence.pop``, the
  other pads' look-up ``Presence.find`` over 16 x 6 slots, ``Mat.on_presence`` or ``on_switch``
  with its deck-registry look-up, a binary search of ``deck.bin`` on littlefs): an estimate,
  1.0-2.5 ms on an RP2040 at 125 MHz (the unix port's CPU time for it x 40-60, the ratio of
  MicroPython's speed on a ~3 GHz x86 core to a Cortex-M0+ at 125 MHz).
- ``accept_us``: the rules core accepting an action, the same ratio applied to the unix port's
  actions/s (bench/results.json ``games``: 2-26 us there): 0.1-1.5 ms.
- ``frame_us``: one REJECT frame to the host before a refusal's light (COBS, CRC-16, USB CDC
  write): 0.3-1.0 ms. An accepted tap sends its DELTA only after the journal (below).

An accepted tap is lit *before* its journal commit (``firmware/app.py``: ``Referee.check``, the
light, then ``Referee.commit``), so its light costs ``event_us + accept_us + feedback_us`` after
the arrival and the commit follows. The commit's flash work is counted on a real littlefs
(``bench/journal_flash.py``: writes, fsyncs, page programs and erases per ``accepted()``) and
timed with ``FLASH``: W25Q16JV page program tPP 0.4 ms typical, 3 ms max; 4 KiB sector erase tSE
45 ms typical, 400 ms max (Winbond W25Q16JV data sheet, AC electrical characteristics); per
fsync ``sync_us`` of littlefs and RP2040 work around it (leaving and re-entering XIP for each
flash call, the commit's CRC-32 and metadata look-ups through the flash cache): an estimate,
0.3-1.0 ms.

What the chip does while the driver waits (timer, answers) is modelled as a deadline: the
driver's next ComIrqReg read returns once the clock has reached it, which is how its polling
loop behaves on the board (one poll transaction of granularity included).

Hands move at a time on the clock, in the middle of a loop step as on a real table: a tag put
down or lifted at t is in the field from the first SPI transaction at or after t (``Rig.at``);
an RF exchange already under way is not changed by it.

Not modelled: CPU time of the rules core (measured separately: actions/s in bench/results.json),
interrupts, garbage collection (the loop allocates nothing).
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Callable

from firmware.emu.mfrc522_emu import Mfrc522Emu
from firmware.emu.ntag import NtagTag
from firmware.emu.spi_bus import EmuPin, EmuSpiBus

FC_HZ = 13.56e6
BIT_US = 128 / FC_HZ * 1e6          # 9.44 us at 106 kBd
COSTS = {
    "low": {"spi_txn_us": 25.0, "spi_byte_us": 8.0, "step_us": 100.0, "feedback_us": 500.0,
            "event_us": 1000.0, "accept_us": 100.0, "frame_us": 300.0, "pin_us": 5.0},
    "high": {"spi_txn_us": 50.0, "spi_byte_us": 8.0, "step_us": 200.0, "feedback_us": 500.0,
             "event_us": 2500.0, "accept_us": 1500.0, "frame_us": 1000.0, "pin_us": 10.0},
}
# the journal's flash (docstring): "low" with the data sheet's typical times, "high" its maxima
FLASH = {"low": {"page_us": 400.0, "erase_us": 45_000.0, "sync_us": 300.0},
         "high": {"page_us": 3000.0, "erase_us": 400_000.0, "sync_us": 1000.0}}
READERS = 16
MISSES = 3  # firmware.presence default: a tag leaves after 3 complete scans without it

_COM_IRQ = 0x04
_CONTROL = 0x0C
_BIT_FRAMING = 0x0D


class Clock:
    def __init__(self) -> None:
        self.us = 0.0


def frame_us(nbits: int) -> float:
    """Air time of a frame of nbits data bits: start, parity per full byte, end."""
    if nbits == 7:
        return 9 * BIT_US
    return (2 + nbits + nbits // 8) * BIT_US


class MeteredEmu(Mfrc522Emu):
    """The emulated chip, with the time its radio and timer take put on the clock as deadlines."""

    def __init__(self, cs: EmuPin, clock: Clock) -> None:
        super().__init__(cs)
        self.clock = clock
        self.busy_until = 0.0
        self.exchanges = 0
        self.waited_us = 0.0  # clock spent waiting on this chip's radio and timer

    def _timer_us(self) -> float:
        fc = self._timer_fc()
        return fc / FC_HZ * 1e6 if fc >= 0 else 0.0

    def _read(self, reg: int) -> int:
        if reg == _COM_IRQ and self.clock.us < self.busy_until:
            self.waited_us += self.busy_until - self.clock.us
            self.clock.us = self.busy_until  # the driver polls until the chip is done
        return super()._read(reg)

    def _write(self, reg: int, v: int) -> None:
        if reg == _CONTROL and v & 0x40:  # TStartNow: the timer runs its period
            self.busy_until = self.clock.us + self._timer_us()
        if reg == _BIT_FRAMING and v & 0x80 and self.regs[0x01] & 0x0F == 0x0C:
            n = self._flen
            last = v & 0x07
            nbits = 8 * n - (8 - last if last and n else 0)
            super()._write(reg, v)
            self.exchanges += 1
            t = frame_us(nbits)
            if self.regs[_COM_IRQ] & 0x20:  # RxIRq: answered
                t += self._delay / FC_HZ * 1e6 + frame_us(self._end - self._start)
            else:
                t += self._timer_us()
            self.busy_until = self.clock.us + t
            return
        super()._write(reg, v)


class MeteredBus(EmuSpiBus):
    def __init__(self, clock: Clock, cost: dict) -> None:
        super().__init__()
        self.clock = clock
        self.cost = cost
        self.due: list[tuple[float, Callable[[], object]]] = []  # hands' moves, by time

    def add_reader(self, version: int = 0x92) -> Mfrc522Emu:
        reader = MeteredEmu(EmuPin(1), self.clock)
        self.readers.append(reader)
        return reader

    def write_readinto(self, tx, rx) -> None:
        self.clock.us += self.cost["spi_txn_us"] + self.cost["spi_byte_us"] * len(tx)
        self.happen()
        super().write_readinto(tx, rx)

    def happen(self) -> None:
        """Make the moves whose time has come."""
        while self.due and self.due[0][0] <= self.clock.us:
            self.due.pop(0)[1]()


# --- the mat in a game state -----------------------------------------------------------------

PILES = ("batch", "random")  # a pile's UIDs: one batch (shared UID0..2), or random NXP UIDs


def _uid(pad: int, k: int, pile: str = "batch") -> bytes:
    """Tag k of the pile on ``pad``: batch-like (UID0..2 = 04 7A pad, CL1 twins all) or an
    NXP-style random UID (04h, six seeded random bytes: distinct CL1s, the usual case for tags
    not from one batch)."""
    if pile == "batch":
        return bytes((4, 0x7A, pad, k, 0x31, 0x42, 0x53))
    u = bytearray(random.Random(pad * 64 + k).randbytes(7))
    u[0] = 4
    u[3] = u[3] if u[3] != 0x88 else 0
    return bytes(u)


# (label, header, {pad: tags lying on it}, closed clasps, actions played before): the expected
# pad is the first the game's prompt awaits in that state (the rules' first prompt on an empty
# table; with Skull stacks of 4 every seat has placed all its discs and seat 0 is to add or bid:
# its pad; in Dead Man's Draw seat 0 has drawn and may draw again: the play pad 13), "anywhere"
# is the command pad 15 (in every layout, not awaited in these states), "spare" pad 11 (in no
# layout of these states), "loaded" the last pad in play holding tags that is not awaited
# (Skull: seat 5's stack, pad 10; Dead Man's Draw: seat 3's bank, pad 10), "own" such a pad of
# the seat awaited (Dead Man's Draw: seat 0's bank, pad 1, where a collect may be tapped)
_BAGS = {p: 5 for p in (1, 3, 5, 7, 9)}
_SKULL_STACKS = [{"a": "place", "p": seat, "disc": "skull" if n == 0 else "flower"}
                 for n in range(4) for seat in range(6)]
STATES = [
    ("empty mat, 16 pads", {"game": "skull", "players": 6}, {}, (), []),
    ("Skull 6 seats, stacks of 4", {"game": "skull", "players": 6},
     {p: 4 for p in (0, 2, 4, 6, 8, 10)}, (), _SKULL_STACKS),
    ("Sheriff, 5 bags of 5, clasps open", {"game": "sheriff", "players": 5}, _BAGS, (), []),
    ("Sheriff, 5 bags of 5, clasps closed", {"game": "sheriff", "players": 5}, _BAGS,
     (0, 1, 2, 3, 4), []),
    ("Dead Man's Draw 4 seats, 5 in play, banks of 3", {"game": "deadmans", "players": 4},
     {13: 5, 1: 3, 4: 3, 7: 3, 10: 3}, (), [{"a": "draw", "p": 0, "card": "chest5"}]),
]
# states measured again with random-UID piles: those whose piles are on pads (the Sheriff's lie
# on docks, which are not scanned while a clasp is open, nor once it is closed)
RANDOM_PILES = ("Skull 6 seats, stacks of 4", "Dead Man's Draw 4 seats, 5 in play, banks of 3")
ANYWHERE = 15
SPARE = 11
SWITCHES = 6
POLICIES = ("round_robin", "scheduled")


class MeteredPin(EmuPin):
    """A hall switch whose every read costs ``pin_us`` on the clock."""

    def __init__(self, value: int, clock: Clock, cost: dict) -> None:
        super().__init__(value)
        self.clock = clock
        self.cost = cost

    def value(self, v=None):
        if v is None:
            self.clock.us += self.cost["pin_us"]
        return super().value(v)


class Board:
    """What ``firmware.sensors.Sensors`` needs of a board, on the metered bus; the hall switches
    read 1 (clasp closed) for the docks in ``closed``."""

    def __init__(self, clock: Clock, cost: dict, closed: tuple = ()) -> None:
        from firmware.mfrc522 import Mfrc522
        self.bus = MeteredBus(clock, cost)
        self.emus = [self.bus.add_reader() for _ in range(READERS)]
        self.readers = [Mfrc522(self.bus, e.cs) for e in self.emus]
        self.switches = [MeteredPin(1 if i in closed else 0, clock, cost) for i in range(SWITCHES)]


class Rig:
    """Sensors + mat of one game state on a metered board; events timed on the clock."""

    def __init__(self, state: tuple, cost: dict, registry: str, policy: str, pile: str = "batch") -> None:
        from shared_rules import games
        from firmware.mat import pick_layout
        from firmware.sensors import Sensors
        label, header, piles, closed, played = state
        self.free = ANYWHERE
        self.cost = cost
        self.clock = Clock()
        self.board = Board(self.clock, cost, closed)
        for pad, n in piles.items():
            for k in range(n):
                self.board.emus[pad].add_tag(NtagTag(_uid(pad, k, pile)))
        self.sensors = Sensors(self.board, registry)
        layout_doc = json.loads((Path(__file__).resolve().parent.parent / "hardware" / "mat_layout.json").read_text())
        game = games.from_header(header)
        play(game, played)
        self.mat = self.sensors.start(game, pick_layout(layout_doc, game.NAME, game.seats()))
        self.mat.prompt()
        self.sensors._hot_pads()
        self.hot = [r for r in range(READERS) if self.sensors.hot[r]]
        self.mat.prompt()
        waited = [r for r in range(READERS) if self._awaited(r)]
        self.expected = waited[0]
        # pads in play holding tags that are not awaited (docks are not in play: what lies there
        # counts at the clasp): the last of another seat's (stack or bank) and the first of an
        # awaited seat's (Dead Man's Draw: the turn seat's bank, where a collect is tapped)
        m = self.mat
        docks = set(d for i, d in enumerate(m.dock_reader) if m.dock_seat[i] != 255)
        piled = [r for r in piles if r not in waited and r not in docks]
        own = [r for r in piled if m.seat_of[r] != 255 and m.wait_seats >> m.seat_of[r] & 1]
        other = [r for r in piled if r not in own]
        self.loaded = max(other) if other else None
        self.own = min(own) if own else None
        if policy == "round_robin":  # the loop before issue 13: every reader in turn, full scans
            rr = self.sensors
            at = [0]  # the next reader

            def pick() -> int:
                r = at[0]
                at[0] = (r + 1) % READERS
                return r
            rr._pick = pick  # type: ignore[method-assign]
            rr.presence.known = lambda reader, out, fresh=False: 0  # type: ignore[method-assign]
            for rd in rr.readers:  # no roll calls either: every visit a full scan
                rd.roll_call = partial(_no_roll_call, rd)  # type: ignore[method-assign]
        self.events: list[tuple[int, int, bytes, float]] = []
        self.scan_starts: list[tuple[int, float]] = []  # (reader, clock) of every scan begun
        scan = self.sensors._scan

        def timed_scan(r: int) -> bool:
            self.scan_starts.append((r, self.clock.us))
            return scan(r)
        self.sensors._scan = timed_scan  # type: ignore[method-assign]
        pres = self.sensors.presence
        inner = pres.pop

        def pop() -> int:
            kind = inner()
            if kind:  # the mat's verdict on it costs MicroPython time, whatever the event
                self.clock.us += cost["event_us"]
                self.events.append((kind, pres.reader, bytes(pres.uid), self.clock.us))
            return kind
        pres.pop = pop  # type: ignore[method-assign]

    def _awaited(self, r: int) -> bool:
        m = self.mat
        if m.wait_reader != 255:
            return r == m.wait_reader
        return r < len(m.zone_of) and m.zone_of[r] == m.wait_zone and m.seat_of[r] != 255 \
            and bool(m.wait_seats >> m.seat_of[r] & 1)

    def at(self, t_us: float, move: Callable[[], object]) -> None:
        """Make ``move`` (a tag put down or lifted) at clock time ``t_us``."""
        due = self.board.bus.due
        due.append((t_us, move))
        due.sort(key=lambda d: d[0])

    def put(self, t_us: float, pad: int, uid: bytes) -> float:
        self.at(t_us, lambda: self.board.emus[pad].add_tag(NtagTag(uid)))
        return t_us

    def lift(self, t_us: float, pad: int, uid: bytes) -> float:
        self.at(t_us, lambda: self.board.emus[pad].remove_tag(uid))
        return t_us

    def step(self) -> None:
        self.clock.us += self.cost["step_us"]
        self.board.bus.happen()
        self.sensors.poll()

    def run_until(self, t_us: float) -> None:
        while self.clock.us < t_us:
            self.step()

    def wait_event(self, kind: int, pad: int, uid: bytes, limit_us: float = 5e6) -> float:
        """Step until presence reports (kind, pad, uid); the clock when it was handed on."""
        end = self.clock.us + limit_us
        while self.clock.us < end:
            for k, r, u, t in self.events:
                if (k, r, u) == (kind, pad, uid):
                    self.events.clear()
                    return t
            self.step()
        raise RuntimeError("no event %d on pad %d within %.0f ms" % (kind, pad, limit_us / 1000))

    def clasp(self, t_us: float, switch: int, closed: bool, limit_us: float = 5e6) -> float:
        """Close (or open) the clasp of ``switch`` at ``t_us``; the clock when the mat hears it
        (``Mat.on_switch``: the dock's bag read first when it closes)."""
        heard: list[float] = []
        mat = self.mat
        inner = mat.on_switch

        def on_switch(i: int, c: bool) -> int:
            self.clock.us += self.cost["event_us"]
            if (i, c) == (switch, closed):
                heard.append(self.clock.us)
            return inner(i, c)
        mat.on_switch = on_switch  # type: ignore[method-assign]
        self.at(t_us, lambda: self.board.switches[switch].value(1 if closed else 0))
        try:
            while not heard:
                if self.clock.us > t_us + limit_us:
                    raise RuntimeError("clasp %d unheard within %.0f ms" % (switch, limit_us / 1000))
                self.step()
        finally:
            del mat.on_switch
        return heard[0]

    def scan_gaps(self, pad: int, span_us: float) -> float:
        """Longest time between two scans of ``pad`` starting during the next ``span_us``."""
        self.scan_starts.clear()
        self.run_until(self.clock.us + span_us)
        starts = [t for r, t in self.scan_starts if r == pad]
        return max(b - a for a, b in zip(starts, starts[1:]))


def _no_roll_call(reader, uids, known, keep=False, twins=None, turn=0) -> int:
    """The round-robin loop's stand-in for ``Mfrc522.roll_call``: nothing told, scan."""
    from host.board.mfrc522_layout import COLLISION
    type(reader).uid_len = 0  # what the mat reads after a roll call: no newcomer
    return COLLISION


def play(game, actions: list) -> None:
    """Bring ``game`` to a state of the table by playing ``actions`` (each must be legal)."""
    from shared_rules.core.actions import ACTION_SIZE
    rec = bytearray(ACTION_SIZE)
    for action in actions:
        if type(game).VOCAB.encode(action, rec) or game.check(rec):
            raise ValueError("timing state: %r is not legal here" % (action,))
        game.apply(rec)


# tap phases per cell: 12 were a sample whose worst missed the unluckiest phase by up to 4 ms;
# 48 (about 2 ms apart in a round) give the worst case the docs quote
PHASES = 48


def spread(samples_us: list[float]) -> dict:
    """p50, p95 (nearest rank) and worst of ``samples_us``, in ms."""
    s = sorted(samples_us)

    def rank(q: float) -> float:
        return round(s[max(0, math.ceil(q * len(s)) - 1)] / 1000, 1)
    return {"p50": rank(0.5), "p95": rank(0.95), "worst": rank(1.0)}


def verdict_us(cost: dict, accepted: bool) -> float:
    """From the mat's verdict on an event (``event_us``, charged on the clock with the event) to
    the light: an accepted action's rules check or a refusal's REJECT frame, then the LEDs (an
    accepted action's journal comes after its light: ``Referee.commit``)."""
    return (cost["accept_us"] if accepted else cost["frame_us"]) + cost["feedback_us"]


def measure(state: tuple, cost: dict, registry: str, policy: str, phases: int = PHASES,
            pile: str = "batch") -> dict:
    """One state of the table under one loop and cost set: taps (the same arrivals, lit as an
    accepted and as a refused action: sensing does not depend on the verdict), lifts and, with
    docks, bag clasps closing, per kind of pad, each as p50 / p95 / worst over ``phases``."""
    from host.board.presence_layout import ARRIVE, LEAVE
    rig = Rig(state, cost, registry, policy, pile)
    rig.run_until(300_000)  # settle
    round_us = rig.scan_gaps(rig.free, 3_000_000)
    out: dict = {"awaited_pad": rig.expected, "hot_pads": rig.hot, "round_ms": round(round_us / 1000, 1),
           "expected_pad_gap_ms": round(rig.scan_gaps(rig.expected, 3_000_000) / 1000, 1),
           "loaded_pad": rig.loaded, "own_pad": rig.own, "tap": {}, "lift": {}}
    pads = [("expected", rig.expected), ("anywhere", rig.free)]
    if rig.loaded is not None:
        pads.append(("loaded", rig.loaded))
    if rig.own is not None:
        pads.append(("own", rig.own))
    lit = {v: verdict_us(cost, v) for v in (True, False)}
    for name, pad in pads:
        taps = []
        lifts = []
        for i in range(phases):
            # on a batch pile, the tag put down shares UID0..2 with the pile's tags: a CL1 twin,
            # which a roll call only tells apart at CL2 (docs/nfc.md); on a random pile its CL1
            # is another
            twin = name in ("loaded", "own") and pile == "batch"
            uid = bytes((4, 0x7A if twin else 0x7E, pad, 0x40 + i, 1, 2, 3))
            t0 = rig.put(rig.clock.us + round_us * (i + 1) / phases, pad, uid)
            taps.append(rig.wait_event(ARRIVE, pad, uid) - t0)
            t0 = rig.lift(rig.clock.us + round_us * (i + 1) / phases, pad, uid)
            lifts.append(rig.wait_event(LEAVE, pad, uid) - t0)
        out["tap"][name] = {"accepted": spread([t + lit[True] for t in taps]),
                            "refused": spread([t + lit[False] for t in taps])}
        out["lift"][name] = spread(lifts)
    taps = []
    lifts = []
    for i in range(phases):
        uid = bytes((4, 0x7C, SPARE, i, 1, 2, 3))
        t0 = rig.put(rig.clock.us + 1000 + 7919 * i, SPARE, uid)
        taps.append(rig.wait_event(ARRIVE, SPARE, uid) - t0 + lit[False])  # always not_now
        t0 = rig.lift(rig.clock.us + 1000 + 7919 * i, SPARE, uid)
        lifts.append(rig.wait_event(LEAVE, SPARE, uid, 20e6) - t0)
    out["tap"]["spare"] = {"refused": spread(taps)}
    out["lift"]["spare"] = spread(lifts)
    docks = [i for i, seat in enumerate(rig.mat.dock_seat) if seat != 255 and i not in state[3]]
    if docks:
        closes = []
        for i in range(phases):
            sw = docks[i % len(docks)]
            t0 = rig.clock.us + round_us * (i + 1) / phases
            closes.append(rig.clasp(t0, sw, True) - t0 + lit[True])
            rig.clasp(rig.clock.us + 1000, sw, False)
            rig.run_until(rig.clock.us + 100_000)
        out["clasp"] = spread(closes)
    out["taps_100ms_missed"] = short_taps(rig, rig.free, 100_000, phases)
    return out


def short_taps(rig: Rig, pad: int, hold_us: float, phases: int) -> int:
    """How many of ``phases`` taps held ``hold_us`` on ``pad`` (phase-shifted) were never seen."""
    from host.board.presence_layout import ARRIVE
    missed = 0
    for i in range(phases):
        uid = bytes((4, 0x7D, pad, i, 1, 2, 3))
        rig.events.clear()
        t0 = rig.put(rig.clock.us + 1000 + 7919 * i, pad, uid)
        rig.lift(t0 + hold_us, pad, uid)
        rig.run_until(t0 + hold_us + 1_000_000)
        missed += not any(k == ARRIVE and u == uid for k, _, u, _ in rig.events)
        rig.events.clear()
    return missed


JOURNAL_GAMES = 3  # seeded games per game for bench/journal_flash.py


def journal(games_played: int = JOURNAL_GAMES) -> dict:
    """The journal's flash work on a real littlefs (bench/journal_flash.py, MicroPython unix
    port), per game and per call (``accepted``: the commit after an accepted action's light;
    ``tidy``: the snapshot every 32 actions), timed with ``FLASH``: p50 / p95 / worst."""
    root = Path(__file__).resolve().parent.parent
    res = subprocess.run([str(Path(sys.executable).parent / "micropython"), "bench/journal_flash.py",
                          str(games_played)], cwd=root, capture_output=True, text=True, check=True,
                         timeout=600)
    out: dict = {}
    for game, rows in json.loads(res.stdout).items():
        line = out[game] = {}
        for call in ("accepted", "tidy"):
            mine = [r for r in rows if r[0] == call]
            n = sum(r[5] for r in mine)
            per = {"calls": n}
            for i, what in ((1, "writes"), (2, "fsyncs"), (3, "pages"), (4, "erases")):
                per[what + "_per_call"] = round(sum(r[i] * r[5] for r in mine) / n, 3)
            for name, f in FLASH.items():
                per["ms_" + name] = spread([f["sync_us"] + r[3] * f["page_us"] + r[4] * f["erase_us"]
                                            for r in mine for _ in range(r[5])])
            line[call] = per
    return out


def registry_file(tmp: Path) -> str:
    """An empty-ish deck registry (tags stay unknown: the timing of an unknown tag's refusal is
    the timing of any tap)."""
    from shared_rules.core import deck
    from shared_rules.core import tokens
    recs = [{"uid": deck.uid_hex(bytes((4, 0x70, t, 0, 0, 0x99, 1))), "kind": "token",
             "code": tokens.CODES[t]} for t in range(len(tokens.CODES))]
    path = tmp / "deck.bin"
    deck.write(str(path), recs)
    return str(path)


def bench() -> dict:
    """Every state with batch piles under both loops; those with piles again with random UIDs
    under the scheduler (``<state>, random UIDs``)."""
    out: dict = {"costs": COSTS, "flash": FLASH, "states": {}, "journal": journal()}
    with tempfile.TemporaryDirectory() as d:
        reg = registry_file(Path(d))
        for state in STATES:
            for pile in PILES if state[0] in RANDOM_PILES else PILES[:1]:
                label = state[0] if pile == "batch" else state[0] + ", random UIDs"
                out["states"][label] = {policy: {name: measure(state, cost, reg, policy, pile=pile)
                                                 for name, cost in COSTS.items()}
                                        for policy in (POLICIES if pile == "batch" else POLICIES[1:])}
    return out


def main() -> None:
    """Print the figures and put them in bench/results.json (``timing``), the rest kept."""
    out = bench()
    print(json.dumps(out, indent=1))
    path = Path(__file__).resolve().parent / "results.json"
    results = json.loads(path.read_text()) if path.exists() else {}
    results["timing"] = out
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
