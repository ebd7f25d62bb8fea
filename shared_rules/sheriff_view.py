"""Sheriff of Nottingham views for the host and for debugging (never on the board's accept path).

``describe`` turns the public view bytes (``Sheriff.public``) into the scoreboard's dict: gold,
hand sizes, legal goods per kind, the face-down count, declarations, both discard piles (public:
anyone may look through them). ``referee`` adds what only the referee knows.
"""
from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_LEGAL_KINDS
from shared_rules.engine import NO_SEAT
from shared_rules.sheriff import (
    KINDS, PHASES, PUB_REGS, PUB_SEAT, PUB_PILES, LOADED, DECLARED, DONE, SKIPPED, R_SEATS, R_PHASE,
    R_SHERIFF, R_TURN, R_ROUND, R_ROUNDS, R_ROYAL, R_DRAW, R_PILE1, R_PILE2,
)


def describe(view):
    """Public view bytes -> dict (no hand card, no closed bag, no face-down identity)."""
    seats = []
    for seat in range(view[R_SEATS]):
        o = PUB_REGS + PUB_SEAT * seat
        flags = view[o + 3]
        seats.append({
            "gold": view[o] | (view[o + 1] << 8), "hand": view[o + 2],
            "loaded": bool(flags & LOADED), "resolved": bool(flags & DONE) and not flags & SKIPPED,
            "sits_out": bool(flags & SKIPPED),
            "declared": [CODES[view[o + 4]], view[o + 5]] if flags & DECLARED else None,
            "stand": dict((CODES[g], view[o + 6 + g]) for g in range(SHERIFF_LEGAL_KINDS)),
            "contraband": view[o + 10],
        })
    n1 = view[R_PILE1]
    n2 = view[R_PILE2]
    return {
        "game": "sheriff", "seats": seats, "phase": PHASES[view[R_PHASE]],
        "sheriff": view[R_SHERIFF], "turn": None if view[R_TURN] == NO_SEAT else view[R_TURN],
        "round": view[R_ROUND], "rounds": view[R_ROUNDS], "royal": bool(view[R_ROYAL]),
        "draw": view[R_DRAW],
        "piles": [[CODES[view[PUB_PILES + i]] for i in range(n1)],
                  [CODES[view[PUB_PILES + n1 + i]] for i in range(n2)]],
    }


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
