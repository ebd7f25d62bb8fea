"""Skull views for the host and for debugging (never on the board's accept path).

``describe`` turns the public view bytes (``Skull.public``) into the scoreboard's dict: per seat
the stack, how much of it is flipped, discs in hand, score, eliminated/passed; no disc is named.
``referee`` adds what only the referee knows: each seat's hand and where its skull lies. Kept out
of ``skull.py`` so that a board never holds these names; the layout values below are literal
``const()``s, checked against ``skull_layout.py`` by ``tests/test_rules_literals.py``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x

_NO_SEAT = const(255)
_PUB_REGS = const(9)
_PUB_SEAT = const(5)
_ELIMINATED = const(1)
_PASSED = const(2)
_SEAT_BASE = const(16)
_SEAT_BYTES = const(7)
_H_FLOWERS = const(0)
_H_SKULL = const(1)
_SKULL_AT = const(3)

PHASES = ("prep", "add", "bidding", "flip", "lose", "choose_first", "over")


def _seat(v):
    return None if v == _NO_SEAT else v


def describe(view):
    """Public view bytes -> dict for the scoreboard (no hidden disc anywhere)."""
    seats = []
    for seat in range(view[0]):
        at = _PUB_REGS + _PUB_SEAT * seat
        seats.append({
            "stack": view[at], "flipped": view[at + 1], "hand": view[at + 2],
            "score": view[at + 3], "eliminated": bool(view[at + 4] & _ELIMINATED),
            "passed": bool(view[at + 4] & _PASSED),
        })
    return {
        "game": "skull", "seats": seats, "players": view[1], "phase": PHASES[view[2]],
        "turn": view[3], "lead": view[4], "bid": view[5], "challenger": _seat(view[6]),
        "skull_owner": _seat(view[7]), "winner": _seat(view[8]),
    }


def referee(game):
    """``describe`` of the game's public view, plus each seat's hand and where its skull lies."""
    view = bytearray(game.PUBLIC_SIZE)
    game.public(view)
    d = describe(view)
    s = game.s
    for seat in range(game.seats()):
        o = _SEAT_BASE + _SEAT_BYTES * seat
        d["seats"][seat]["hand_flowers"] = s[o + _H_FLOWERS]
        d["seats"][seat]["hand_skull"] = s[o + _H_SKULL]
        d["seats"][seat]["skull_at"] = _seat(s[o + _SKULL_AT])
    return d
