"""Dead Man's Draw views for the host and for debugging (never on a board's accept path, imported
on demand): ``describe`` turns the public view bytes (``DeadMans.public``) into the scoreboard's
dict; ``referee`` adds what only the referee knows, the peek queue and the discard pile.

The rules' registers are this module's own literal ``const()``s (so a board that deploys it keeps
no names for them, and it needs no host-only layout); ``tests/test_rules_literals.py`` checks
them against ``shared_rules/deadmans/rules.py``.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
from shared_rules.catalogue import DMD_CODES, DMD_TRAITS
from shared_rules.deadmans.rules import GAME, score

_NCODES = const(60)
_NONE = const(255)
_DISCARD = const(1)
_BANK = const(8)
_R_SEATS = const(0)
_R_DECKS = const(1)
_R_PHASE = const(3)
_R_TURN = const(4)
_R_DRAW_N = const(5)
_R_DISCARD_N = const(6)
_R_PEEK_N = const(7)
_R_PEEK = const(8)
_R_PENDING = const(11)
_R_KRAKEN = const(13)
_R_SAFE = const(17)
_R_PLAY_N = const(19)
_R_PLAY = const(20)
_R_TRAIT = const(30)
_R_DJ = const(38)
_LOC = const(46)
_STATE_SIZE = const(166)


def describe(view):
    """Public view bytes -> dict for the scoreboard."""
    seats = []
    for seat in range(view[_R_SEATS]):
        bank = []
        for i in range(_NCODES * view[_R_DECKS]):
            if view[_LOC + i] == _BANK + seat:
                bank.append(DMD_CODES[i % _NCODES])
        bank.sort()
        trait = view[_R_TRAIT + seat]
        dj = view[_R_DJ + seat]
        seats.append({
            "trait": None if trait == _NONE else DMD_TRAITS[trait], "davy_jones": None if dj == _NONE else dj,
            "bank": bank, "score": score(view, seat),
        })
    pending = view[_R_PENDING]
    return {
        "game": "deadmans", "players": view[_R_SEATS], "decks": view[_R_DECKS],
        "phase": ("setup", "play", "over")[view[_R_PHASE]], "turn": view[_R_TURN],
        "pending": GAME.VOCAB.names[pending] if pending else None,
        "kraken": view[_R_KRAKEN], "draw_pile": view[_R_DRAW_N], "discard_pile": view[_R_DISCARD_N],
        "play": [DMD_CODES[view[_R_PLAY + i]] for i in range(view[_R_PLAY_N])],
        "protected": [i for i in range(view[_R_PLAY_N]) if view[_R_SAFE + (i >> 3)] & (1 << (i & 7))],
        "seats": seats,
    }


def referee(game):
    """Everything the referee knows, the peek queue and the discard pile included (debug)."""
    s = game.s
    view = bytearray(_STATE_SIZE)
    game.public(view)
    d = describe(view)
    d["peek"] = [DMD_CODES[s[_R_PEEK + i]] for i in range(s[_R_PEEK_N])]
    d["discard"] = [DMD_CODES[i % _NCODES] for i in range(_NCODES * s[_R_DECKS]) if s[_LOC + i] == _DISCARD]
    return d
