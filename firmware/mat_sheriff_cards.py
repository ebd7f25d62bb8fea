"""Sheriff's module cards on the mat (the Merry Men expansion's tagged cards, deck registry kind
``module``): gestures of ``docs/mat-sheriff.md`` §8c. ``firmware.mat_sheriff`` imports this only
when a header enables a module, so a base game carries none of it.

- Black Market: a merchant puts three contraband cards of one type on their stand pad and taps
  the Black Market card of that type there: the claim. The mat reads the cards on the pad (a
  claim shows the cards it removes), and the card tapped must be the one the rules hand out next
  (the top card of the pair, then the lower one): the player keeps the card they tapped.
- Laws: in the laws phase the Sheriff taps each kept law on the command pad (position 1 first),
  then the law put back on the draw pad (the law deck's bottom): that tap is the ``law`` action.
- Special orders: an order card tapped on the command pad turns it face up (``order_up``); in the
  inspection, a merchant taps face-up orders on their stand pad before the Sheriff's decision on
  their bag: a pass that lets the bag through then fills them (``pass`` ``orders``); an inspection
  lets the claim lapse.
- Merry Men: a player owed a draw taps the card they keep on their stand pad, then the one they
  put back: ``merry`` (both hidden fields). A Merry Man in a bag on its dock when the clasp closes
  is the ``load``'s hidden ``merry`` flag.

Privacy: module cards other than Merry Men are public, so refusing them reveals nothing. A Merry
Man card is never refused by the mat (silent where it means nothing, as a hidden goods card): a
refusal would say that a Merry Man was read there. Its identity only reaches the rules, in hidden
fields; the rules' own refusals of a ``merry`` or ``load`` carry those fields masked.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.core import deck

# The base referee's registers, phases and flags (private there: restated, checked by
# tests/test_rules_literals.py).
_R_PHASE = const(1)
_INSPECT = const(4)
_R_SHERIFF = const(2)
_DONE = const(4)
_FLAGS = const(3)         # a seat's flags byte (shared_rules.sheriff.rules)

# catalogue.SHERIFF_MODULE_OF: where each module's cards start (tests/dual/dual_mat_sheriff.py)
BM_CARDS = const(6)
LAW0 = const(6)
ORDER0 = const(30)
MERRY0 = const(45)
_CLAIM_CARDS = const(3)
_ORDERS_PER_BAG = const(2)
_ORD = const(559)      # cards' order places: 0 in the deck, 1 face up, 2 + seat filled
_O_UP = const(1)

# Reasons (sheriff, deputies), the engine's and the mat's codes, and the zones and phases of
# ``firmware.mat_sheriff``: the same names as there (tests/test_rules_literals.py).
_TOO_MANY_CARDS = const(22)
_NOT_A_MERCHANT = const(20)
_ALREADY_RESOLVED = const(32)
_MODULE_OFF = const(37)
_MARKET_EXHAUSTED = const(44)
_NEED_THREE = const(45)
_ORDER_NOT_UP = const(50)   # cards
_BAG_OPENED = const(52)
_LAW_NOT_IN_DECK = const(58)   # laws
_KEEP_COUNT = const(59)
_BLACK_MARKET = const(2)      # deputies
_BM_GOODS = const(b"\x04\x05\x06")
_NOT_NOW = const(11)
_NO_SEAT = const(255)
_NOTHING = const(0)
_READY = const(1)
_Z_STAND = const(0)
_Z_DRAW = const(3)
_Z_COMMAND = const(5)
_SEATS = const(6)
_LAWS_PHASE = const(8)
# The module actions' kinds and the record offsets written here (deputies, cards'
# vocabulary; tests/test_rules_literals.py).
_A_CLAIM = const(8)
_F_CLAIM_GOOD = const(2)
_A_ORDER_UP = const(9)
_A_MERRY = const(10)
_A_LAW = const(11)
_F_LAW_KEEP = const(2)
_F_LAW_BOTTOM = const(5)
_F_ORDER_UP = const(2)
_F_MERRY_KEEP = const(2)
_F_MERRY_BOTTOM = const(4)   # optional: its presence byte before it
_MSEAT = const(592)     # merry_men: per seat the Merry Men status; ONE: the draw owed is one card
_ONE = const(8)
_F_LOAD_MERRY = const(12)
_F_PASS_ORDERS = const(42)


class Gestures:
    """The module-card half of the Sheriff gestures (``g``: ``firmware.mat_sheriff.Gestures``)."""

    def __init__(self, g):
        self.g = g
        game = g.game
        self.mods = game.modules()
        self.keep = bytearray(2)            # laws kept so far this laws phase
        self.keep_n = 0
        self.drawn = bytearray([_NO_SEAT] * _SEATS)   # per seat: the Merry Man kept, its pair to come
        self.orders = bytearray([_NO_SEAT] * (_SEATS * _ORDERS_PER_BAG))   # per seat: orders to fill
        self.opened = 0                     # seats whose bag the mat saw opened this round

    def _on_pad(self, reader, kind, code):
        """How many cards lie on a pad: goods cards of good ``code``, or module cards numbered
        ``code`` or above (the registry's fields are reused)."""
        g = self.g
        reg = g.registry
        n = 0
        for slot in range(g.presence.slots):
            if g.lookup(reader, slot, kind) and (reg.code >= code if kind == deck.MODULE else reg.code == code):
                n += 1
        return n

    def drop_choices(self):
        """The rules moved on (round, phase or turn): drop half-made choices."""
        self.keep_n = 0
        for i in range(_SEATS):
            self.drawn[i] = _NO_SEAT
        if self.g.game.s[_R_PHASE] != _INSPECT:
            for i in range(len(self.orders)):
                self.orders[i] = _NO_SEAT
            self.opened = 0

    def arrive(self, zone, seat, code):
        """A module card arrived on a pad (``code``: its number in SHERIFF_MODULE_CARDS)."""
        if code < BM_CARDS:
            return self._claim(zone, seat, code)
        if code >= MERRY0:
            return self._merry(zone, seat, code - MERRY0)
        if not self.mods & (4 if code < ORDER0 else 8):   # cards.LAWS, ORDERS
            return _MODULE_OFF
        if code < ORDER0:
            return self._law(zone, code - LAW0)
        return self._order(zone, seat, code - ORDER0)

    # -- Black Market ---------------------------------------------------------------------
    def _claim(self, zone, seat, code):
        g = self.g
        game = g.game
        if zone != _Z_STAND:
            return _NOT_NOW
        if not self.mods & _BLACK_MARKET:
            return _MODULE_OFF
        err = g.check(_INSPECT)
        if err:
            return err
        i = code >> 1
        left = game.black_market_left(i)
        if not left:
            return _MARKET_EXHAUSTED
        if code & 1 != 2 - left:
            return _NOT_NOW   # the top card of the pair goes first, then the lower one
        good = _BM_GOODS[i]
        if self._on_pad(g.stand[seat], deck.CARD, good) < _CLAIM_CARDS:
            return _NEED_THREE
        rec = g.mat.start(_A_CLAIM, seat)
        rec[_F_CLAIM_GOOD] = good
        return _READY

    # -- laws -----------------------------------------------------------------------------
    def _law(self, zone, law):
        """Kept laws on the command pad, then the one put back on the draw pad."""
        g = self.g
        err = g.check(_LAWS_PHASE)
        if err:
            return err
        if zone != _Z_COMMAND and zone != _Z_DRAW:
            return _NOT_NOW
        for i in range(self.keep_n):
            if self.keep[i] == law:
                return _NOTHING if zone == _Z_COMMAND else _LAW_NOT_IN_DECK   # tapped twice
        if zone == _Z_COMMAND:
            if self.keep_n >= 2:
                return _KEEP_COUNT
            self.keep[self.keep_n] = law
            self.keep_n += 1
            return _NOTHING
        p = g.game.s[_R_SHERIFF] if g.actor == _NO_SEAT else g.actor   # deputies: either may log it
        rec = g.mat.start(_A_LAW, p)
        f = _F_LAW_KEEP
        rec[f] = self.keep_n
        for i in range(self.keep_n):
            rec[f + 1 + i] = self.keep[i]
        rec[_F_LAW_BOTTOM] = law
        self.keep_n = 0   # refused: the choice is tapped again
        return _READY

    # -- special orders ---------------------------------------------------------------------
    def _order(self, zone, seat, order):
        g = self.g
        game = g.game
        if zone == _Z_COMMAND:
            sheriff = game.s[_R_SHERIFF]
            rec = g.mat.start(_A_ORDER_UP, 0 if sheriff == _NO_SEAT else sheriff)
            rec[_F_ORDER_UP] = order
            return _READY   # the rules say order_not_in_deck, orders_full ...
        if zone != _Z_STAND:
            return _NOT_NOW
        err = g.check(_INSPECT)
        if err:
            return err
        if not game._is_merchant(seat):
            return _NOT_A_MERCHANT
        if game.s[game._at(seat) + _FLAGS] & _DONE:
            return _BAG_OPENED if self.opened >> seat & 1 else _ALREADY_RESOLVED
        if game.s[_ORD + order] != _O_UP:
            return _ORDER_NOT_UP
        at = seat * _ORDERS_PER_BAG
        free = -1
        for i in range(at, at + _ORDERS_PER_BAG):
            if self.orders[i] == order:
                return _NOTHING   # tapped twice
            if self.orders[i] == _NO_SEAT and free < 0:
                free = i
        if free < 0:
            return _TOO_MANY_CARDS   # a bag of 5 cards fills at most two orders
        self.orders[free] = order
        return _NOTHING   # waits for the Sheriff's pass

    def pass_orders(self, rec, t):
        """A pass the mat makes for merchant ``t``: the orders tapped for that bag, if this pass
        lets it through (a deputy's first stance does not)."""
        settles = self._settles(rec[1], t, 1)
        at = t * _ORDERS_PER_BAG
        f = _F_PASS_ORDERS
        n = 0
        for i in range(at, at + _ORDERS_PER_BAG):
            if self.orders[i] != _NO_SEAT and settles:
                rec[f + 1 + n] = self.orders[i]
                n += 1
        if n:
            rec[f - 1] = 1
            rec[f] = n
            self.drop_orders(t)   # refused (goods_missing ...): the next pass goes without them

    def drop_orders(self, t):
        for i in range(t * _ORDERS_PER_BAG, (t + 1) * _ORDERS_PER_BAG):
            self.orders[i] = _NO_SEAT

    def _settles(self, p, t, want):
        """Whether inspector ``p``'s decision (``want`` 2: inspect, 1: pass) settles merchant ``t``'s
        bag now: always in a game without deputies; with them, once both agree or when the lone
        deputy who wanted to open acts (a first stance settles nothing)."""
        if not self.g.deputies:
            return True
        both = self.g.game.stances(p, t)
        return bool(both >> 2) or both & 3 == want

    def inspect(self, rec, t):
        """The mat makes an inspection ``rec`` of ``t``'s bag, accepted by the rules: whether it
        settles the bag (``_settles``); if so the bag is opened: its order claims lapse."""
        if not self._settles(rec[1], t, 2):
            return False
        self.drop_orders(t)
        self.opened |= 1 << t
        return True

    # -- Merry Men --------------------------------------------------------------------------
    def _merry(self, zone, seat, card):
        """Never refused (which Merry Man a player holds is hidden): silent unless it completes a
        draw on the player's own stand pad: the kept card then the one put back, or the one card
        of a draw after regaining the Merry Men's trust."""
        if not self.mods & 16 or zone != _Z_STAND or seat >= _SEATS:   # cards.MERRY_MEN
            return _NOTHING
        one = self.g.game.s[_MSEAT + seat] & _ONE
        kept = self.drawn[seat]
        if not one and (kept == _NO_SEAT or kept == card):
            self.drawn[seat] = card
            return _NOTHING
        self.drawn[seat] = _NO_SEAT
        rec = self.g.mat.start(_A_MERRY, seat)
        rec[_F_MERRY_KEEP] = card if one else kept
        if not one:
            rec[_F_MERRY_BOTTOM - 1] = 1
            rec[_F_MERRY_BOTTOM] = card
        return _READY

    def merry_in_bag(self, rec, reader):
        """A clasp closing on a bag: a Merry Man card on the dock is the load's hidden flag (two
        make the rules refuse the load: ``bag_size``)."""
        if not self.mods & 16:
            return
        n = self._on_pad(reader, deck.MODULE, MERRY0)
        if n:
            rec[_F_LOAD_MERRY - 1] = 1
            rec[_F_LOAD_MERRY] = n
