"""The mat layer: sensor events -> action records for the rules core.

The event loop feeds three kinds of event: a tag arrived on / left a reader (from
``firmware/presence.py``), a bag clasp closed / opened at a dock. ``Mat`` names the tag (deck
registry), refuses what no game move can explain (a tag the registry does not know, a tag of
another game, one UID on two readers at once), turns command tokens on the command pad into
words and numbers, and hands the rest to the game's gesture module (``firmware/mat_<game>.py``),
which fills ``mat.rec`` with an action. The caller submits ``mat.rec`` to ``game.accept()``:
the mat never changes the game itself. Gesture tables and the interface: ``docs/mat.md``.

Every handler returns ``NOTHING`` (0: nothing to do, nothing to signal), ``READY`` (1: an action
is in ``mat.rec``) or a reason code from ``shared_rules.core.engine`` (> 1) to signal as a rejection.
No handler allocates.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules.core import deck
from shared_rules.core.actions import ACTION_SIZE

NOTHING = const(0)
READY = const(1)
NO_ZONE = const(255)
NO_SEAT = const(255)
_MAX_NUMBER = const(254)  # numbers travel in U8 action fields
_ARRIVE = const(1)  # event kinds, as firmware.presence
_LEAVE = const(2)
PROMPT_OVER = const(0)  # every gesture module's PROMPTS[0] is "over"
# Restated from shared_rules.core.deck and .tokens (tests/test_rules_literals.py): the board then keeps
# no name for them, and a game whose gestures read no token does not load ``tokens``.
_ANY_GAME = const(0)
_TOKEN = const(2)
_T_DIGIT0 = const(0)
_T_CONFIRM = const(22)
_T_CANCEL = const(23)
# shared_rules.core.engine's reasons (restated likewise).
_UNKNOWN_TAG = const(8)
_FOREIGN_TAG = const(9)
_DUPLICATE_TAG = const(10)
_NOT_NOW = const(11)


def pick_layout(doc, game, seats):
    """The zone layout for a game and seat count from the parsed ``hardware/mat_layout.json``,
    with the mat-wide ``readers``, ``switches`` and ``led_of_reader`` copied in (ValueError if none)."""
    for entry in doc["games"].get(game, ()):
        if entry["seats"][0] <= seats <= entry["seats"][1]:
            out = {"seats": entry["seats"], "station": entry["station"], "zones": entry["zones"]}
            for key in ("readers", "switches", "led_of_reader"):
                if key in doc:
                    out[key] = doc[key]
            return out
    raise ValueError("mat layout: no %s layout for %d seats" % (game, seats))


def gestures_for(name):
    """The gesture class of a game (module ``firmware.mat_<name>``); ValueError if there is none."""
    try:
        module = __import__("firmware.mat_" + name, None, None, ("Gestures",))
    except ImportError:
        raise ValueError("the mat has no gestures for %r" % (name,))
    return module.Gestures


class BaseGestures:
    """What every gesture module (``firmware/mat_<game>.py``, interface in docs/mat.md) shares:
    the mat and its game, and the answers for events a game gives no meaning, so a module
    defines only the handlers its gesture table uses. Subclasses set ``ZONES`` and ``PROMPTS``."""

    def __init__(self, mat):
        self.mat = mat
        self.game = mat.game

    def leave(self, zone, seat, tag):
        return NOTHING

    def present(self, zone, seat, tag):
        """A piece found lying on a pad when the referee started (power-on, a restored game):
        the table as it is, never a move. A module may rebuild what it remembers of the pads."""

    def switch(self, seat, closed):
        return NOTHING

    def cancel(self):
        """The ``cancel`` token with no number half tapped: drop a half-made choice (a module
        that keeps one overrides this); nothing to drop is no error."""
        return NOTHING

    def number_max(self):
        return 0   # no number can make sense: Mat refuses digits before ``number`` is asked

    def number(self, n):
        return _NOT_NOW


class Mat:
    def __init__(self, game, layout, registry, presence=None, gestures=None):
        """``layout``: from ``pick_layout``; ``registry``: ``firmware.registry.Registry``;
        ``presence``: ``firmware.presence.Presence`` (needed to detect one UID on two readers);
        ``gestures``: the gesture class (default: the game's module). ValueError for a layout
        that does not fit the game."""
        self.game = game
        self.registry = registry
        self.presence = presence
        cls = gestures or gestures_for(game.NAME)
        readers = layout.get("readers", 16)
        switches = layout.get("switches", 6)
        self.zone_of = bytearray([NO_ZONE] * readers)
        self.seat_of = bytearray([NO_SEAT] * readers)
        self.zone_reader = bytearray([NO_ZONE] * len(cls.ZONES))  # the pad of a shared zone
        self.dock_seat = bytearray([NO_SEAT] * switches)
        self.dock_reader = bytearray([NO_ZONE] * switches)
        zones = layout["zones"]
        seats = game.seats()
        for name in sorted(zones):
            if name not in cls.ZONES:
                raise ValueError("mat layout: zone %r means nothing in %s" % (name, game.NAME))
            z = cls.ZONES.index(name)
            # A zone is one shared pad (a reader number) or a pad per seat: a reader number, or
            # [reader, bag switch] for a seat's dock.
            value = zones[name]
            shared = isinstance(value, int)
            if not shared and len(value) < seats:
                raise ValueError("mat layout: zone %r has no pad for seat %d" % (name, len(value)))
            for seat in range(1 if shared else seats):
                pad = value if shared else value[seat]
                switch = -1
                if not isinstance(pad, int):
                    pad, switch = pad
                    if not 0 <= switch < len(self.dock_seat):
                        raise ValueError("mat layout: zone %r names switch %r" % (name, switch))
                if not 0 <= pad < len(self.zone_of):
                    raise ValueError("mat layout: zone %r names reader %r" % (name, pad))
                if self.zone_of[pad] != NO_ZONE:
                    raise ValueError("mat layout: reader %d serves two zones" % pad)
                self.zone_of[pad] = z
                self.seat_of[pad] = NO_SEAT if shared else seat
                if switch >= 0:
                    self.dock_seat[switch] = seat
                    self.dock_reader[switch] = pad
            if shared:
                self.zone_reader[z] = value
        self.command = cls.ZONES.index("command") if "command" in cls.ZONES else -1
        if self.command < 0 or self.zone_reader[self.command] == NO_ZONE:
            raise ValueError("mat layout: %s needs a command pad" % game.NAME)
        self.rec = bytearray(ACTION_SIZE)
        self.reader = NO_ZONE  # the reader of the last event: where to signal its outcome
        self.entry = 0         # a number being tapped digit by digit ...
        self.digits = 0        # ... and how many digits so far (0: none pending)
        self.wait_seats = 0    # set by prompt(): bit s = seat s is awaited
        self.wait_zone = NO_ZONE
        self.wait_reader = NO_ZONE  # the pad of wait_zone when it is a shared zone
        self.g = cls(self)

    # -- events -------------------------------------------------------------------------
    def on_arrive(self, reader, uid):
        """A tag (7-byte UID buffer) arrived on a reader."""
        self.reader = reader
        err = self._identify(reader, uid)
        if not err and self.presence is not None and self.presence.find(uid, reader, True) >= 0:
            err = _DUPLICATE_TAG
        if err:
            self._clear_entry()
            return err
        zone = self.zone_of[reader]
        if zone == self.command and self.registry.kind == _TOKEN:
            t = self.registry.code
            if _T_DIGIT0 <= t < _T_DIGIT0 + 10:
                # Numbers: digits in order; the number is complete as soon as one more digit would
                # exceed what the game allows now, otherwise at ``confirm``.
                d = t - _T_DIGIT0
                top = self.g.number_max()
                if top > _MAX_NUMBER:
                    top = _MAX_NUMBER
                if top <= 0 or (d == 0 and not self.digits):
                    self._clear_entry()
                    return _NOT_NOW
                n = self.entry * 10 + d
                if n * 10 <= top:
                    self.entry = n
                    self.digits += 1
                    return NOTHING
                self._clear_entry()
                return self.g.number(n) if n <= _MAX_NUMBER else _NOT_NOW
            if t == _T_CONFIRM and self.digits:
                n = self.entry
                self._clear_entry()
                return self.g.number(n)
            pending = self.digits
            self._clear_entry()
            if t == _T_CANCEL:
                return NOTHING if pending else self.g.cancel()
            return self.g.token(t)
        self._clear_entry()
        if zone == NO_ZONE:
            return _NOT_NOW
        return self.g.arrive(zone, self.seat_of[reader], self.registry)

    def on_leave(self, reader, uid):
        """A tag left a reader. Leaving is never signalled as an error: the arrival was."""
        self.reader = reader
        if self._identify(reader, uid):
            return NOTHING
        if self.presence is not None and self.presence.find(uid, reader) >= 0:
            return NOTHING  # moved to another pad (its arrival there counted), or a clone
        zone = self.zone_of[reader]
        if zone == NO_ZONE or self.registry.kind == _TOKEN:
            return NOTHING
        return self.g.leave(zone, self.seat_of[reader], self.registry)

    def on_present(self, reader, uid):
        """A tag that already lay on a reader when the referee started (``Sensors`` settles a
        whole poll round this way after boot or a new game): handed to the gesture module so
        it knows the table, never turned into an action, never refused."""
        if self._identify(reader, uid):
            return NOTHING
        zone = self.zone_of[reader]
        if zone != NO_ZONE and zone != self.command:
            self.g.present(zone, self.seat_of[reader], self.registry)
        return NOTHING

    def on_presence(self, kind, reader, uid):
        """Dispatch a ``Presence.pop()`` event."""
        if kind == _ARRIVE:
            return self.on_arrive(reader, uid)
        if kind == _LEAVE:
            return self.on_leave(reader, uid)
        return NOTHING

    def on_switch(self, switch, closed):
        """A bag clasp closed (True) or opened at the dock of hall switch ``switch``."""
        if not 0 <= switch < len(self.dock_seat) or self.dock_seat[switch] == NO_SEAT:
            return NOTHING
        self.reader = self.dock_reader[switch]
        return self.g.switch(self.dock_seat[switch], closed)

    def prompt(self):
        """What the mat waits for: returns an index in the gesture module's ``PROMPTS`` and sets
        ``wait_seats`` (bit per seat; the winners when over), ``wait_zone`` (zone index) and
        ``wait_reader`` (its pad if the zone is shared, else NO_ZONE: each seat's own pad)."""
        what = self.g.prompt()
        z = self.wait_zone
        self.wait_reader = self.zone_reader[z] if z < len(self.zone_reader) else NO_ZONE
        return what

    def start(self, kind, seat):
        """Clear ``rec`` for a new action (for gesture modules); returns ``rec``."""
        rec = self.rec
        for i in range(ACTION_SIZE):
            rec[i] = 0
        rec[0] = kind
        rec[1] = seat
        return rec

    # -- helpers ------------------------------------------------------------------------
    def _identify(self, reader, uid):
        if not 0 <= reader < len(self.zone_of):
            return _NOT_NOW
        if not self.registry.lookup(uid):
            return _UNKNOWN_TAG
        game = self.registry.game
        if game != _ANY_GAME and game != deck.game_id(self.game.NAME):
            return _FOREIGN_TAG
        return NOTHING

    def _clear_entry(self):
        self.entry = 0
        self.digits = 0
