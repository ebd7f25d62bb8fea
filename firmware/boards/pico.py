"""Board profile of the reference hardware: Raspberry Pi Pico (RP2040) running MicroPython.

Wiring, power and parts: docs/hardware.md. The _GP_* constants below mirror hardware/pins.json
(tests/test_hardware.py keeps them equal). They are constants rather than pins.json read at boot
because const() values are folded into the bytecode and cost no heap, while json.load would build
a dict tree with every note string before the game state is allocated, fragmenting the heap.

Every board profile offers the same names (firmware/boards/virtual.py too): readers, switches,
leds, buzzer, link, ticks_ms, sleep_ms, kbd_intr, soft_reset, fs_root, name.
"""
import sys
import time

from firmware.boards.stdio_link import StdioLink
from firmware.sounds import PATTERNS

import machine
import micropython
import neopixel
from micropython import const

from firmware.mfrc522 import Mfrc522

name = "pico"
fs_root = "/"
ticks_ms = time.ticks_ms
sleep_ms = time.sleep_ms


def idle():
    """Once per firmware loop step: nothing to service on real hardware (the buzzer runs on a
    timer, the USB link is polled by the loop)."""

# -- pin table: GPIO numbers, mirrors hardware/pins.json --------------------------------------
_GP_SPI_MISO = const(16)
_GP_CS_EN = const(17)
_GP_SPI_SCK = const(18)
_GP_SPI_MOSI = const(19)
_GP_RDR_RST = const(20)
_GP_BUZZER = const(21)
_GP_LED_DIN = const(22)
_GP_CS_A0 = const(10)   # A0..A3 must be consecutive GPIOs: the select writes them in one go
_GP_CS_A1 = const(11)
_GP_CS_A2 = const(12)
_GP_CS_A3 = const(13)
_GP_CLASP0 = const(6)
_GP_CLASP1 = const(7)
_GP_CLASP2 = const(8)
_GP_CLASP3 = const(9)
_GP_CLASP4 = const(14)
_GP_CLASP5 = const(15)
_GP_I2C_SDA = const(4)
_GP_I2C_SCL = const(5)

_SPI_BUS = const(0)
_SPI_BAUD = const(1000000)  # 1 MHz: up to 60 cm of ribbon per reader, 16 loads (docs/hardware.md)
_READERS = const(16)
_LEDS = const(16)
_LED_LIMIT = const(64)      # channel ceiling out of 255: keeps 16 LEDs inside the power budget

# RP2040 datasheet 2.3.1.7 (SIO registers): writing a mask sets or clears those GPIO outputs at once.
_SIO_GPIO_OUT_SET = const(0xD0000014)
_SIO_GPIO_OUT_CLR = const(0xD0000018)
_ADDR_MASK = const(0xF << _GP_CS_A0)
_EN_MASK = const(1 << _GP_CS_EN)

_mem32 = machine.mem32


class DecodedSelect:
    """Chip select of one reader through the 74HC154 4-to-16 decoder, used like a ``machine.Pin``.

    74HC154 function table: with /E0 (CS_EN) high every output /Y0../Y15 is high; with /E0 low only
    /Yn, n = A3..A0, is low. value(0) disables the decoder, sets the address, then enables it, so
    at most one reader is ever selected, even for a moment. /Yn also drives /OE of that reader's
    74HC125 MISO gate, because MFRC522 modules do not release MISO when deselected.
    """

    def __init__(self, index):
        if not 0 <= index < _READERS:
            raise ValueError("reader index")
        self._addr = index << _GP_CS_A0

    def value(self, v):
        """1: deselect every reader; 0: select this one. Allocates nothing."""
        _mem32[_SIO_GPIO_OUT_SET] = _EN_MASK
        if not v:
            _mem32[_SIO_GPIO_OUT_CLR] = _ADDR_MASK
            _mem32[_SIO_GPIO_OUT_SET] = self._addr
            _mem32[_SIO_GPIO_OUT_CLR] = _EN_MASK


class Clasp:
    """Hall switch of a bag dock: value() is 1 while the clasp magnet sits over it (bag closed).

    A3144 / DRV5032FB pull their output low near a magnet (open collector / open drain, datasheet
    output tables), hence the pull-up and the inversion.
    """

    def __init__(self, gpio):
        self._pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)

    def value(self):
        return 1 - self._pin.value()


class Leds:
    """The WS2812B chain, one LED per station; set() writes the pixel buffer, show() sends it.

    WS2812B datasheet ("composition of 24 bit data"): green, red, blue, MSB first; neopixel keeps
    that order in ``buf``, which set() fills directly so no colour tuple is allocated.
    """

    def __init__(self, gpio, n):
        self._np = neopixel.NeoPixel(machine.Pin(gpio, machine.Pin.OUT), n)
        self._buf = self._np.buf
        self.n = n

    def set(self, i, r, g, b):
        """Colour of LED i, channels 0..255, scaled to _LED_LIMIT; ValueError changes nothing."""
        if not (0 <= i < self.n and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255):
            raise ValueError("led index or colour")
        o = 3 * i
        buf = self._buf
        buf[o] = (g * _LED_LIMIT + 254) // 255
        buf[o + 1] = (r * _LED_LIMIT + 254) // 255
        buf[o + 2] = (b * _LED_LIMIT + 254) // 255

    def show(self):
        self._np.write()


_HZ_MIN = const(50)
_HZ_MAX = const(10000)
_MS_MAX = const(5000)
_DUTY_HALF = const(32768)


class Buzzer:
    """Passive piezo on a PWM pin; tone() and play() return at once, a one-shot Timer steps on.

    rp2 runs Timer callbacks as scheduled (soft) callbacks unless hard=True (MicroPython >= 1.26),
    so the step runs between bytecodes of the main loop, never inside an interrupt.
    """

    def __init__(self, gpio):
        self._pwm = machine.PWM(machine.Pin(gpio, machine.Pin.OUT))
        self._pwm.duty_u16(0)
        self._timer = machine.Timer(-1)
        self._tone = [0, 0]
        self._steps = self._tone
        self._i = 0
        self._next_cb = self._next  # bound once: re-arming the timer allocates no method object

    def tone(self, hz, ms):
        """Sound hz for ms; ValueError (and no change) outside 50..10000 Hz, 1..5000 ms."""
        if not (_HZ_MIN <= hz <= _HZ_MAX and 0 < ms <= _MS_MAX):
            raise ValueError("tone")
        self._tone[0] = hz
        self._tone[1] = ms
        self._start(self._tone)

    def play(self, pattern_id):
        """Play PATTERNS[pattern_id]; ValueError (and no change) for an unknown id."""
        if not 0 <= pattern_id < len(PATTERNS):
            raise ValueError("pattern")
        self._start(PATTERNS[pattern_id])

    def _start(self, steps):
        self._steps = steps
        self._i = 0
        self._next(None)

    def _next(self, _timer):
        i = self._i
        steps = self._steps
        if i >= len(steps):
            self._pwm.duty_u16(0)
            return
        hz = steps[i]
        self._i = i + 2
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(_DUTY_HALF)
        else:
            self._pwm.duty_u16(0)
        self._timer.init(mode=machine.Timer.ONE_SHOT, period=steps[i + 1], callback=self._next_cb)


def i2c():
    """The I2C0 bus of the optional SSD1306 status display (made on demand: it is optional)."""
    return machine.I2C(0, sda=machine.Pin(_GP_I2C_SDA), scl=machine.Pin(_GP_I2C_SCL), freq=400000)


def _readers():
    """Hold the readers in hard power-down, park the decoder, then release them (MFRC522 8.8.1)."""
    rst = machine.Pin(_GP_RDR_RST, machine.Pin.OUT, value=0)
    machine.Pin(_GP_CS_EN, machine.Pin.OUT, value=1)
    for gp in (_GP_CS_A0, _GP_CS_A1, _GP_CS_A2, _GP_CS_A3):
        machine.Pin(gp, machine.Pin.OUT, value=0)
    spi = machine.SPI(_SPI_BUS, baudrate=_SPI_BAUD, polarity=0, phase=0, bits=8,
                      firstbit=machine.SPI.MSB, sck=machine.Pin(_GP_SPI_SCK),
                      mosi=machine.Pin(_GP_SPI_MOSI), miso=machine.Pin(_GP_SPI_MISO))
    time.sleep_ms(1)
    rst.value(1)
    time.sleep_ms(50)  # crystal start-up before the first register access
    return [Mfrc522(spi, DecodedSelect(i)) for i in range(_READERS)]


readers = _readers()
switches = [Clasp(gp) for gp in (_GP_CLASP0, _GP_CLASP1, _GP_CLASP2, _GP_CLASP3, _GP_CLASP4,
                                 _GP_CLASP5)]
leds = Leds(_GP_LED_DIN, _LEDS)
buzzer = Buzzer(_GP_BUZZER)
link = StdioLink(sys.stdin.buffer, sys.stdout.buffer)  # Ctrl-C: kbd_intr, before stdin


def kbd_intr(c):
    """``micropython.kbd_intr``: 3 lets a 0x03 on the console raise KeyboardInterrupt, -1 makes it
    a plain byte (the firmware turns it off while it referees, docs/flashing.md)."""
    micropython.kbd_intr(c)


def soft_reset():
    """Start the firmware again with a fresh heap (boot.py, main.py), the journal kept."""
    machine.soft_reset()
