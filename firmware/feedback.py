"""What players see and hear: one LED per pad (a seat's station is its pad), one buzzer.

| Situation | LED | Buzzer pattern |
|---|---|---|
| an action accepted | the pad where it happened: green for ``hold`` ms | ``sounds.OK`` |
| a gesture rejected (mat or rules) | that pad: red for ``hold`` ms | ``sounds.REJECT`` |
| seats awaited (their turn) | their station LEDs blue, steady; the awaited shared pad too | ``sounds.TURN`` when the awaited seats change |
| a number half tapped | the command pad amber | none |
| game over | the winners' stations gold, every other LED off | ``sounds.END`` once |
| a reader down, or its pad failing every scan | that pad's LED magenta until it recovers | none |

Flashes end in ``tick(now)``; times are the board's ``ticks_ms()`` passed in by the caller, so
tests need no clock. Buzzer ids: ``firmware/sounds.py``.
Only changed LEDs are written, and ``show()`` is called only when one changed. No allocation.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from array import array

from firmware.mat import PROMPT_OVER, NO_ZONE

# The buzzer's ids (firmware.sounds, restated: tests/test_rules_literals.py); the board's profile
# holds the notes.
_PATTERN_OK = const(0)
_PATTERN_REJECT = const(1)
_PATTERN_TURN = const(2)
_PATTERN_END = const(4)

_OFF = const(0)
_GREEN = const(1)
_RED = const(2)
_BLUE = const(3)
_AMBER = const(4)
_GOLD = const(5)
_MAGENTA = const(6)
_FAULT = const(0x80)   # the fault bit of a steady colour (faults show magenta)
COLOURS = bytes((
    0, 0, 0,
    0, 255, 0,
    255, 0, 0,
    0, 64, 255,
    255, 120, 0,
    255, 200, 40,
    255, 0, 160,
))
_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms wraps at 2**30 on 32-bit ports


class Feedback:
    def __init__(self, board, layout, seats, hold=600):
        """``layout``: as ``firmware.mat.pick_layout`` gives it; ``seats``: the game's seat count;
        ``hold``: how long a flash lasts (ms)."""
        self.leds = board.leds
        self.buzzer = board.buzzer
        led_of = layout.get("led_of_reader")
        if led_of is None:
            led_of = range(layout.get("readers", 16))
        self.led_of = bytes(led_of)   # reader -> its LED
        n = max(self.led_of) + 1
        stations = layout["zones"][layout["station"]]
        self.station = bytearray(seats)
        for seat in range(seats):
            pad = stations[seat]
            self.station[seat] = self.led_of[pad if isinstance(pad, int) else pad[0]]
        self.hold = hold
        self.base = bytearray(n)     # steady colour per LED, | _FAULT: the pad's reader is down or stuck
        self.flash = bytearray(n)    # flash colour per LED (_OFF: none)
        self.since = array("i", [0] * n)
        self.shown = bytearray([255] * n)  # colour last written (255: never)
        self.awaited = -1            # awaited seats last shown
        self.over = False

    def accepted(self, reader, now, colour=_GREEN):
        """Flash the pad ``colour`` and play its sound (``rejected``: red and the reject sound)."""
        if 0 <= reader < len(self.led_of):
            i = self.led_of[reader]
            self.flash[i] = colour
            self.since[i] = now & _TICKS_MASK
            self.write_changed()
        self.buzzer.play(_PATTERN_OK if colour == _GREEN else _PATTERN_REJECT)

    def rejected(self, reader, now):
        self.accepted(reader, now, _RED)

    def prompt(self, what, seats, reader, now, command=NO_ZONE):
        """Show what the mat waits for: ``what`` (index in the gesture module's PROMPTS),
        ``seats`` (bit per awaited seat, the winners when over), ``reader`` (the awaited shared
        pad or NO_ZONE) and ``command``: the command pad's reader, lit amber while a number is
        half tapped, or NO_ZONE."""
        if self.over:
            return
        base = self.base
        for i in range(len(base)):
            base[i] &= _FAULT   # a fault stays lit whatever the mat waits for
        colour = _GOLD if what == PROMPT_OVER else _BLUE
        for seat in range(len(self.station)):
            if seats >> seat & 1:
                base[self.station[seat]] |= colour
        if reader < len(self.led_of):
            base[self.led_of[reader]] = base[self.led_of[reader]] & _FAULT | colour
        if command < len(self.led_of):
            base[self.led_of[command]] = base[self.led_of[command]] & _FAULT | _AMBER
        if what == PROMPT_OVER:
            self.over = True
            self.buzzer.play(_PATTERN_END)
        elif seats != self.awaited:
            self.buzzer.play(_PATTERN_TURN)
        self.awaited = seats
        self.write_changed()

    def show(self, mat, now):
        """``prompt`` with everything read from a ``firmware.mat.Mat``."""
        what = mat.prompt()
        self.prompt(what, mat.wait_seats, mat.wait_reader, now,
                    mat.zone_reader[mat.command] if mat.digits else NO_ZONE)

    def tick(self, now):
        """End the flashes whose time is up (call from the event loop)."""
        for i in range(len(self.flash)):
            # ms since the flash began, across a ticks_ms wrap (as time.ticks_diff)
            if self.flash[i] and (now - self.since[i]) & _TICKS_MASK >= self.hold:
                self.flash[i] = _OFF
        self.write_changed()

    def fault(self, reader, on):
        """Light (or clear) the fault colour of a pad whose reader is down or stuck."""
        if 0 <= reader < len(self.led_of):
            i = self.led_of[reader]
            self.base[i] = self.base[i] | _FAULT if on else self.base[i] & ~_FAULT
            self.write_changed()

    def write_changed(self):
        """Write the LEDs whose colour changed (a flash, else the fault colour, else the steady one)."""
        changed = False
        for i in range(len(self.base)):
            c = self.flash[i] or (_MAGENTA if self.base[i] & _FAULT else self.base[i])
            if c != self.shown[i]:
                self.shown[i] = c
                self.leds.set(i, COLOURS[3 * c], COLOURS[3 * c + 1], COLOURS[3 * c + 2])
                changed = True
        if changed:
            self.leds.show()
