"""Sheriff of Nottingham views for the host and for debugging (never on the board's accept path).

``describe`` turns the public view bytes (``Sheriff.public``) into the scoreboard's dict: gold,
hand sizes, legal goods per kind, the face-down count, declarations, both discard piles (public:
anyone may look through them). ``referee`` adds what only the referee knows.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_LEGAL_KINDS
from shared_rules.core.engine import NO_SEAT

# The referee's layout (private consts there: restated, checked by tests/test_rules_literals.py).
_KINDS = const(15)
_MAX_SEATS = const(5)
_PILE_CAP = const(216)
_PUB_REGS = const(12)
_PUB_SEAT = const(11)
_PUB_PILES = const(67)
_LOADED = const(1)
_DECLARED = const(2)
_DONE = const(4)
_SKIPPED = const(8)
_R_SEATS = const(0)
_R_PHASE = const(1)
_R_SHERIFF = const(2)
_R_TURN = const(6)
_R_ROUND = const(4)
_R_ROUNDS = const(5)
_R_ROYAL = const(7)
_R_DRAW = const(8)
_R_PILE1 = const(9)
_R_PILE2 = const(10)
_POOL = const(16)
_HAND_N = const(2)
_KNOWN = const(12)
_BAG_N = const(4)
_BAG = const(5)
_PILES = const(241)
_PILES_END = const(457)

# The Merry Men layout (deputies: private consts there, restated and checked the same way).
_PUB_SEAT6 = const(283)
_PUB_CHEST = const(294)
_PUB_MM = const(305)
_PUB_BM = const(309)
_MM_PUB_SIZE = const(324)
_DEPUTIES = const(1)
_BLACK_MARKET = const(2)
_BM_GOODS = const(b"\x04\x05\x06")
# ... and the card modules' (cards).
_LAWS = const(4)
_ORDERS = const(8)
_MERRY_MEN = const(16)
_PUB_ORD = const(324)
_PUB_MEN = const(339)
_PUB_LAWS = const(345)

# Phase names; the last three only the modules reach (deputies, laws).
PHASES = ("setup", "market", "load", "declare", "inspect", "over", "reveal", "loot", "laws")


def _seat(view, o):
    flags = view[o + 3]
    return {
        "gold": view[o] | (view[o + 1] << 8), "hand": view[o + 2],
        "loaded": bool(flags & _LOADED), "resolved": bool(flags & _DONE) and not flags & _SKIPPED,
        "sits_out": bool(flags & _SKIPPED),
        "declared": [CODES[view[o + 4]], view[o + 5]] if flags & _DECLARED else None,
        "stand": dict((CODES[g], view[o + 6 + g]) for g in range(SHERIFF_LEGAL_KINDS)),
        "contraband": view[o + 10],
    }


def describe(view):
    """Public view bytes -> dict (no hand card, no closed bag, no face-down identity)."""
    seats = [_seat(view, _PUB_REGS + _PUB_SEAT * seat if seat < _MAX_SEATS else _PUB_PILES + _PILE_CAP)
             for seat in range(view[_R_SEATS])]
    n1 = view[_R_PILE1]
    n2 = view[_R_PILE2]
    d = {
        "game": "sheriff", "seats": seats, "phase": PHASES[view[_R_PHASE]],
        "sheriff": view[_R_SHERIFF], "turn": None if view[_R_TURN] == NO_SEAT else view[_R_TURN],
        "round": view[_R_ROUND], "rounds": view[_R_ROUNDS], "royal": bool(view[_R_ROYAL]),
        "draw": view[_R_DRAW],
        "piles": [[CODES[view[_PUB_PILES + i]] for i in range(n1)],
                  [CODES[view[_PUB_PILES + n1 + i]] for i in range(n2)]],
    }
    if len(view) > _PUB_PILES + _PILE_CAP:
        _modules(view, d)
    return d


def _modules(view, d):
    """The Merry Men part of a view (``deputies.public``): deputies and the loot chest, the
    Black Market piles and cards held. Its fields are absent from a base game's dict."""
    from shared_rules.sheriff.modules import MODULES
    mods = view[_PUB_MM]
    d["modules"] = [MODULES[i] for i in range(len(MODULES)) if mods & (1 << i)]
    if mods & _DEPUTIES:
        pair = [view[_R_SHERIFF], view[_PUB_MM + 1]]
        d["deputies"] = [x for x in pair if x != NO_SEAT]
        d["sheriff"] = None
        chest = _seat(view, _PUB_CHEST)
        d["loot_chest"] = {"gold": chest["gold"], "stand": chest["stand"], "contraband": chest["contraband"]}
        first = view[_PUB_MM + 3]
        d["first_merchant"] = None if first == NO_SEAT else first
        for seat in range(len(d["seats"])):
            flags = view[_PUB_REGS + _PUB_SEAT * seat + 3] if seat < _MAX_SEATS else view[_PUB_SEAT6 + 3]
            d["seats"][seat]["stances"] = [_STANCES[(flags >> 4) & 3], _STANCES[(flags >> 6) & 3]]
    if mods & _BLACK_MARKET:
        b = _PUB_BM
        piles = {}
        for i in range(3):
            left = view[b + 6 + i]
            piles[CODES[_BM_GOODS[i]]] = [view[b + 2 * i + 2 - left + j] for j in range(left)]
        d["black_market"] = piles
        for seat in range(len(d["seats"])):
            held = view[b + 9 + seat]
            d["seats"][seat]["black_market"] = [[CODES[_BM_GOODS[i >> 1]], view[b + i]]
                                                for i in range(6) if held & (1 << i)]
    if len(view) > _MM_PUB_SIZE:   # issue 11: laws, special orders, Merry Men
        _cards(view, d)


def _cards(view, d):
    """Laws in force, orders face up and filled, and per seat whether they hold a Merry Man (never
    which: the view does not carry it)."""
    from shared_rules.sheriff.modules import cards as sc
    mods = view[_PUB_MM]
    seats = d["seats"]
    if mods & _LAWS:
        d["laws"] = [view[_PUB_LAWS + i] for i in range(2) if view[_PUB_LAWS + i] != NO_SEAT]
    if mods & _ORDERS:
        d["orders_up"] = [i for i in range(15) if view[_PUB_ORD + i] == 1]
        for seat in range(len(seats)):
            seats[seat]["orders"] = [i for i in range(15) if view[_PUB_ORD + i] == 2 + seat]
    if mods & _MERRY_MEN:
        for seat in range(len(seats)):
            bits = view[_PUB_MEN + seat]
            seats[seat]["merry_men"] = bits & 1
            seats[seat]["merry_draw"] = "owed" if bits & 2 else ("waiting" if bits & 4 else None)


_STANCES = (None, "pass", "open", None)


def referee(game):
    """The public dict plus the unidentified copies per good, known hand cards, every stand
    good (face-down ones too) and the bags (debug view, never mirrored by default)."""
    view = bytearray(game.PUBLIC_SIZE)
    game.public(view)
    d = describe(view)
    d["pool"] = _goods(lambda g: pool(game, g))
    for seat in range(game.seats()):
        d["seats"][seat]["known_hand"] = _goods(lambda g: known(game, seat, g))
        d["seats"][seat]["stand_all"] = _goods(lambda g: game.stand(seat, g))
        d["seats"][seat]["bag"] = [CODES[g] for g in bag(game, seat)]
    men = getattr(game, "_merry_men", None)
    if men:   # issue 11: which Merry Man each seat holds, and whether it travels in the bag
        for seat in range(game.seats()):
            d["seats"][seat]["merry_man_held"] = men.held(game, seat) if men.held(game, seat) >= 0 else None
            d["seats"][seat]["merry_man_in_bag"] = bool(men.in_bag(game, seat))
    return d


def _goods(count):
    """{code: n} for the goods with a non-zero count."""
    d = {}
    for g in range(_KINDS):
        if count(g):
            d[CODES[g]] = count(g)
    return d


# What the referee knows of hands, read from its state (debug views and tests; the rules
# themselves read the bytes inline). ``game._at`` places a seat's region (6 seats: deputies).
def hand(game, seat):
    """How many cards a seat holds."""
    return game.s[game._at(seat) + _HAND_N]


def known(game, seat, good):
    """Copies of ``good`` the referee saw enter that hand from a face-up pile."""
    return game.s[game._at(seat) + _KNOWN + good]


def pool(game, good):
    """Copies of ``good`` not yet identified anywhere (draw pile and unknown hand cards)."""
    return game.s[_POOL + good]


def bag(game, seat):
    """A closed bag's cards in loading order."""
    at = game._at(seat)
    return [game.s[at + _BAG + i] for i in range(game.s[at + _BAG_N])]


def pile(game, which):
    """Discard pile 1 or 2, bottom to top (pile 1 grows up from its start, pile 2 down from the
    region's end)."""
    s = game.s
    if which == 1:
        return [s[_PILES + i] for i in range(s[_R_PILE1])]
    return [s[_PILES_END - 1 - i] for i in range(s[_R_PILE2])]
