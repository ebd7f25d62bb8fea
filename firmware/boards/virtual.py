"""Board profile "virtual": the reference mat emulated on the MicroPython unix port.

Every board profile is a module offering the same names (firmware/boards/pico.py is the
reference hardware; docs/virtual-board.md has the full contract):

- ``readers``: one MFRC522 driver per reader (``firmware.mfrc522.Mfrc522(spi, cs)``);
- ``switches``: bag-clasp hall switches, ``value()`` is 1 while the clasp is closed;
- ``leds``: one RGB LED per station, ``set(i, r, g, b)`` (0..255) and ``show()``;
- ``buzzer``: ``play(pattern_id)`` (ids as in firmware/feedback.py) and ``tone(hz, ms)``,
  both non-blocking;
- ``link``: the serial link, ``readinto(buf) -> n`` (never waits, 0 when nothing came) and
  ``write(buf, n)``; 0x03 from the host raises KeyboardInterrupt, like a board's kbd_intr;
- ``kbd_intr(c)``: ``micropython.kbd_intr`` (3: 0x03 interrupts, -1: it is a plain byte);
  ``soft_reset()``: a fresh interpreter runs main.py again;
- ``ticks_ms()``, ``sleep_ms(ms)``; ``idle()``, called once per firmware loop step (here it
  applies the host's control commands and waits up to IDLE_MS for input);
- ``fs_root`` (the board filesystem: journal, snapshots, game.json), ``name``.
Bad arguments raise ValueError and change nothing.

Here the SPI bus is ``firmware.emu.spi_bus.EmuSpiBus`` with one register-level MFRC522
emulator per reader, so the real driver runs unchanged; the link is stdin/stdout, which
host/vboard/process.py bridges to a pseudo-terminal. How many readers, switches and LEDs there are
comes from ``board.json`` in the board folder (defaults: the reference hardware, 16/6/16).

The physical world comes over a control pipe from host/vboard/process.py (file descriptor in
TAPMAT_VBOARD_CTL_IN), one ASCII command per line, applied by ``idle()``:

    P <reader> <uid hex> [<user memory hex>]   place a tag (4/10-byte UIDs are foreign cards)
    R <reader> <uid hex>                       take it away
    C <reader>|*                               clear one reader or all
    S <switch> 0|1                             open / close a bag clasp
    F <reader> <fault> <count>                 emulator fault (firmware.emu.mfrc522_emu kinds)
    N                                          what the firmware has looked at (below)

What the mat shows goes back on TAPMAT_VBOARD_CTL_OUT: ``H <readers> <switches> <leds>`` when
the profile is up, ``L <rgb hex>`` when show() changes the LEDs, ``P <id>`` for play(),
``T <hz> <ms>`` for tone() (hex), ``N <steps> <scans> <reads>`` for N (decimal: loop steps,
then per reader the scans begun (``Mfrc522.inventories``: each sees every tag in the field at
its start; a field kept on makes scans without switching it on again), per clasp switch the times value() was read, each
list comma-separated; a simulated hand waits on these before its next move: host/sim/runner.py
``Hands``), ``K 3``/``K -1`` for kbd_intr() (the bridge sends SIGINT for
an unread 0x03 only while it is 3), ``X <line>`` for a command it could not apply. Without those
variables (the board started by hand) the world stays empty and nothing is reported.
"""
import binascii
import json
import os
import select
import sys
import time

from firmware.mfrc522 import Mfrc522
from firmware.emu.ntag import NtagTag, Picc
from firmware.emu.spi_bus import EmuSpiBus
from firmware.boards.stdio_link import StdioLink, poller, ready
from firmware.sounds import PATTERNS

name = "virtual"

try:
    ticks_ms = time.ticks_ms
    sleep_ms = time.sleep_ms
except AttributeError:  # CPython runs this module in the dual tests
    def ticks_ms():
        return int(time.monotonic() * 1000) & 0x3FFFFFFF  # type: ignore[attr-defined]

    def sleep_ms(ms):
        time.sleep(ms / 1000)

CONFIG_FILE = "board.json"
DEFAULTS = {"readers": 16, "switches": 6, "leds": 16}  # hardware/pins.json
LIMITS = {"readers": 64, "switches": 32, "leds": 64}

HZ_MIN = 50
HZ_MAX = 10000
MS_MAX = 5000

IDLE_MS = 1       # idle() waits at most this long for serial input or a host command,
QUIET_MS = 20     # or this long once QUIET_STEPS steps in a row had none: nothing changes on a
QUIET_STEPS = 200  # virtual mat but by a command, so a mat left alone scans 50 times a second
#                    (a tenth of the CPU), while one just touched scans flat out
LINE_MAX = 400    # longest control command: P, reader, 10-byte UID, 144 bytes of user memory
_HEX = b"0123456789abcdef"


def read_config(root):
    """(readers, switches, leds) from board.json; a missing file or bad value gives the default."""
    try:
        with open(root + "/" + CONFIG_FILE) as f:
            cfg = json.load(f)
    except (OSError, ValueError):
        cfg = {}
    out = []
    for key in ("readers", "switches", "leds"):
        v = cfg.get(key) if isinstance(cfg, dict) else None
        ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= LIMITS[key]
        out.append(v if ok else DEFAULTS[key])
    return out


def _put_hex(buf, at, v, digits):
    """Write v as `digits` lower-case hex digits into buf at `at`; return the offset after."""
    for k in range(digits):
        buf[at + k] = _HEX[(v >> (4 * (digits - 1 - k))) & 15]
    return at + digits


class Reporter:
    """Lines to the host bridge; silent when there is none or it went away."""

    def __init__(self, stream):
        self._out = stream

    def send(self, buf):
        if self._out is None:
            return
        try:
            self._out.write(buf)
        except OSError:
            self._out = None


class Switch:
    """A bag clasp's hall switch: value() is 1 while the clasp is closed."""

    def __init__(self):
        self.closed = 0
        self.reads = 0  # for the N report

    def value(self):
        self.reads += 1
        return self.closed


class Leds:
    """The LED chain: set() fills a buffer, show() reports it to the host if it changed."""

    def __init__(self, n, reporter):
        self.n = n
        self.rgb = bytearray(3 * n)
        self._shown = bytearray(3 * n)
        self._fresh = True  # nothing reported yet: the first show() always reports
        self._msg = bytearray(b"L " + b"00" * (3 * n) + b"\n")
        self._reporter = reporter

    def set(self, i, r, g, b):
        """Colour of LED i, channels 0..255; ValueError changes nothing."""
        if not (0 <= i < self.n and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255):
            raise ValueError("led index or colour")
        o = 3 * i
        self.rgb[o] = r
        self.rgb[o + 1] = g
        self.rgb[o + 2] = b

    def show(self):
        """Latch the colours; allocation-free (one report line when something changed)."""
        rgb = self.rgb
        shown = self._shown
        changed = self._fresh
        for k in range(3 * self.n):
            if shown[k] != rgb[k]:
                shown[k] = rgb[k]
                changed = True
        if not changed:
            return
        self._fresh = False
        msg = self._msg
        for k in range(3 * self.n):
            _put_hex(msg, 2 + 2 * k, rgb[k], 2)
        self._reporter.send(msg)


class Buzzer:
    """The piezo: each tone() or play() becomes one report line; nothing blocks."""

    def __init__(self, reporter):
        self._reporter = reporter
        self._play = bytearray(b"P 00\n")
        self._tone = bytearray(b"T 0000 0000\n")

    def play(self, pattern_id):
        """Play a pattern of firmware/sounds.py; ValueError (and no sound) for an unknown id."""
        if not 0 <= pattern_id < len(PATTERNS):
            raise ValueError("pattern")
        _put_hex(self._play, 2, pattern_id, 2)
        self._reporter.send(self._play)

    def tone(self, hz, ms):
        """Sound hz for ms; ValueError (and no sound) outside 50..10000 Hz, 1..5000 ms."""
        if not (HZ_MIN <= hz <= HZ_MAX and 0 < ms <= MS_MAX):
            raise ValueError("tone")
        _put_hex(self._tone, 2, hz, 4)
        _put_hex(self._tone, 7, ms, 4)
        self._reporter.send(self._tone)


class Control:
    """The host's commands (module docstring): tags on readers, clasps, emulator faults."""

    def __init__(self, src, emulators, readers, switches, reporter):
        self._src = src
        self._emus = emulators
        self._readers = readers
        self._switches = switches
        self._reporter = reporter
        self._line = bytearray(LINE_MAX)
        self._n = 0
        self._byte = bytearray(1)
        self._ipoll = poller(src) if src is not None else None

    def service(self):
        """Apply every complete command waiting; allocates nothing when none waits."""
        while self._src is not None and ready(self._ipoll):
            if not self._src.readinto(self._byte):
                self._src = None  # end of file: the host is gone, the world stays as it is
                return
            c = self._byte[0]
            if c == 10:
                if self._n <= LINE_MAX:
                    self.apply(bytes(memoryview(self._line)[:self._n]))
                self._n = 0
            elif self._n < LINE_MAX:
                self._line[self._n] = c
                self._n += 1
            else:
                self._n = LINE_MAX + 1  # too long: dropped at its newline

    def apply(self, line):
        """Apply one command line (bytes, no newline); report it back if it cannot be applied."""
        try:
            self._apply(line.decode().split())
        except (ValueError, IndexError, UnicodeError):
            self._reporter.send(b"X " + line + b"\n")

    def _apply(self, words):
        op = words[0]
        if op == "S":
            v = int(words[2])
            if v not in (0, 1):
                raise ValueError("switch state")
            self._switches[_index(words[1], len(self._switches))].closed = v
        elif op == "N":
            self._reporter.send(("N %d %s %s\n" % (
                steps, ",".join(str(r.inventories) for r in self._readers),
                ",".join(str(w.reads) for w in self._switches))).encode())
        elif op == "C" and words[1] == "*":
            for emu in self._emus:
                emu.clear()
        else:
            emu = self._emus[_index(words[1], len(self._emus))]
            if op == "C":
                emu.clear()
            elif op == "P":
                tag = make_tag(binascii.unhexlify(words[2]),
                               binascii.unhexlify(words[3]) if len(words) > 3 else b"")
                emu.remove_tag(tag.uid)
                emu.add_tag(tag)
            elif op == "R":
                emu.remove_tag(binascii.unhexlify(words[2]))
            elif op == "F":
                emu.inject(int(words[2]), int(words[3]))
            else:
                raise ValueError("command")


def _index(word, n):
    i = int(word)
    if not 0 <= i < n:
        raise ValueError("index")
    return i


def make_tag(uid, memory=b""):
    """An NTAG213 with a 7-byte UID and user memory from page 4; other UID sizes: a foreign card."""
    if len(uid) != 7:
        if memory:
            raise ValueError("only NTAG tags carry user memory here")
        return Picc(uid)
    tag = NtagTag(uid)
    if len(memory) > 4 * (tag.pages - 9):  # user pages 4 .. pages-6
        raise ValueError("user memory too long")
    page = bytearray(4)
    for p in range((len(memory) + 3) // 4):
        for k in range(4):
            i = 4 * p + k
            page[k] = memory[i] if i < len(memory) else 0
        tag.write_page(4 + p, page)
    return tag


def _open_fd(var, mode):
    """The control pipe named by environment variable var (a descriptor number), or None."""
    fd = os.getenv(var)
    if not fd:
        return None
    try:
        return open("/dev/fd/" + fd, mode)
    except OSError:
        return None


fs_root = os.getcwd()
_reporter = Reporter(_open_fd("TAPMAT_VBOARD_CTL_OUT", "wb"))
_n_readers, _n_switches, _n_leds = read_config(fs_root)
_bus = EmuSpiBus()
emulators = [_bus.add_reader() for _ in range(_n_readers)]  # the emulated chips, for tests
readers = [Mfrc522(_bus, emu.cs) for emu in emulators]
switches = [Switch() for _ in range(_n_switches)]
leds = Leds(_n_leds, _reporter)
buzzer = Buzzer(_reporter)
link = StdioLink(sys.stdin.buffer, sys.stdout.buffer, interrupt=True)
_ctl_in = _open_fd("TAPMAT_VBOARD_CTL_IN", "rb")
control = Control(_ctl_in, emulators, readers, switches, _reporter)
_wait = select.poll()  # idle() wakes on serial input or a host command
_wait.register(sys.stdin.buffer, select.POLLIN)
if _ctl_in is not None:
    _wait.register(_ctl_in, select.POLLIN)
_wait_ipoll = getattr(_wait, "ipoll", _wait.poll)
_wait_ipoll(0)
_reporter.send(("H %d %d %d\n" % (_n_readers, _n_switches, _n_leds)).encode())


def kbd_intr(c):
    """``micropython.kbd_intr`` as a board has it: the link (stdin) raises KeyboardInterrupt on 0x03
    only while ``c`` is 3; the bridge hears of it so that its SIGINT fallback agrees."""
    link.interrupt = c == 3
    _reporter.send(b"K 3\n" if c == 3 else b"K -1\n")


def soft_reset():
    """``machine.soft_reset()`` as a board has it: vrom ends this interpreter with a soft reboot
    and the bridge runs main.py again in a fresh one."""
    raise SystemExit(0)


steps = 0  # loop steps (idle() calls), for the N report
quiet = 0  # steps in a row that waited in vain


def idle():
    """Once per loop step: apply the host's commands, then wait up to IDLE_MS (QUIET_MS once
    nothing came for QUIET_STEPS steps) for any input.

    A hang-up on the serial port or the control pipe means the host bridge is gone: the board
    has lost its power, so SystemExit ends the interpreter instead of spinning on forever.
    """
    global steps, quiet
    steps += 1
    control.service()
    quiet += 1
    for ev in _wait_ipoll(QUIET_MS if quiet > QUIET_STEPS else IDLE_MS):
        if ev[1] & select.POLLHUP:
            raise SystemExit(0)
        quiet = 0
        break
