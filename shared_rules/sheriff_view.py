"""Sheriff of Nottingham views for the host and for debugging (never on the board's accept path).

``describe`` turns the public view bytes (``Sheriff.public``) into the scoreboard's dict: gold,
hand sizes, legal goods per kind, the face-down count, declarations, both discard piles (public:
anyone may look through them). ``referee`` adds what only the referee knows.
"""
from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_LEGAL_KINDS
from shared_rules.engine import NO_SEAT
from shared_rules.sheriff import (
    KINDS, MAX_SEATS, PILE_CAP, PUB_REGS, PUB_SEAT, PUB_PILES, LOADED, DECLARED, DONE, SKIPPED, R_SEATS, R_PHASE,
    R_SHERIFF, R_TURN, R_ROUND, R_ROUNDS, R_ROYAL, R_DRAW, R_PILE1, R_PILE2, PHASES,
)

MM_PHASES = PHASES + ("reveal", "loot")   # phases only the deputies module reaches


def _seat(view, o):
    flags = view[o + 3]
    return {
        "gold": view[o] | (view[o + 1] << 8), "hand": view[o + 2],
        "loaded": bool(flags & LOADED), "resolved": bool(flags & DONE) and not flags & SKIPPED,
        "sits_out": bool(flags & SKIPPED),
        "declared": [CODES[view[o + 4]], view[o + 5]] if flags & DECLARED else None,
        "stand": dict((CODES[g], view[o + 6 + g]) for g in range(SHERIFF_LEGAL_KINDS)),
        "contraband": view[o + 10],
    }


def describe(view):
    """Public view bytes -> dict (no hand card, no closed bag, no face-down identity)."""
    seats = [_seat(view, PUB_REGS + PUB_SEAT * seat if seat < MAX_SEATS else PUB_PILES + PILE_CAP)
             for seat in range(view[R_SEATS])]
    n1 = view[R_PILE1]
    n2 = view[R_PILE2]
    d = {
        "game": "sheriff", "seats": seats, "phase": MM_PHASES[view[R_PHASE]],
        "sheriff": view[R_SHERIFF], "turn": None if view[R_TURN] == NO_SEAT else view[R_TURN],
        "round": view[R_ROUND], "rounds": view[R_ROUNDS], "royal": bool(view[R_ROYAL]),
        "draw": view[R_DRAW],
        "piles": [[CODES[view[PUB_PILES + i]] for i in range(n1)],
                  [CODES[view[PUB_PILES + n1 + i]] for i in range(n2)]],
    }
    if len(view) > PUB_PILES + PILE_CAP:
        _modules(view, d)
    return d


def _modules(view, d):
    """The Merry Men part of a view (``sheriff_mm.public``): deputies and the loot chest, the
    Black Market piles and cards held. Its fields are absent from a base game's dict."""
    from shared_rules import sheriff_mm as mm
    mods = view[mm.PUB_MM]
    d["modules"] = [mm.MODULES[i] for i in range(len(mm.MODULES)) if mods & (1 << i)]
    if mods & mm.DEPUTIES:
        pair = [view[R_SHERIFF], view[mm.PUB_MM + 1]]
        d["deputies"] = [x for x in pair if x != NO_SEAT]
        d["sheriff"] = None
        chest = _seat(view, mm.PUB_CHEST)
        d["loot_chest"] = {"gold": chest["gold"], "stand": chest["stand"], "contraband": chest["contraband"]}
        first = view[mm.PUB_MM + 3]
        d["first_merchant"] = None if first == NO_SEAT else first
        for seat in range(len(d["seats"])):
            flags = view[PUB_REGS + PUB_SEAT * seat + 3] if seat < MAX_SEATS else view[mm.PUB_SEAT6 + 3]
            d["seats"][seat]["stances"] = [_STANCES[(flags >> 4) & 3], _STANCES[(flags >> 6) & 3]]
    if mods & mm.BLACK_MARKET:
        b = mm.PUB_BM
        piles = {}
        for i in range(3):
            left = view[b + 6 + i]
            piles[CODES[mm.BM_GOODS[i]]] = [view[b + 2 * i + 2 - left + j] for j in range(left)]
        d["black_market"] = piles
        for seat in range(len(d["seats"])):
            held = view[b + 9 + seat]
            d["seats"][seat]["black_market"] = [[CODES[mm.BM_GOODS[i >> 1]], view[b + i]]
                                                for i in range(6) if held & (1 << i)]


_STANCES = (None, "pass", "open", None)


def referee(game):
    """The public dict plus the unidentified copies per good, known hand cards, every stand
    good (face-down ones too) and the bags (debug view, never mirrored by default)."""
    view = bytearray(game.PUBLIC_SIZE)
    game.public(view)
    d = describe(view)
    d["pool"] = _goods(game.pool)
    for seat in range(game.seats()):
        d["seats"][seat]["known_hand"] = _goods(lambda g: game.known(seat, g))
        d["seats"][seat]["stand_all"] = _goods(lambda g: game.stand(seat, g))
        d["seats"][seat]["bag"] = [CODES[g] for g in game.bag(seat)]
    return d


def _goods(count):
    """{code: n} for the goods with a non-zero count."""
    d = {}
    for g in range(KINDS):
        if count(g):
            d[CODES[g]] = count(g)
    return d
