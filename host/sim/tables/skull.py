"""The Skull table for simulations: every legal action in a position.

Skull hides nothing from the referee (each disc is tagged), so the table is just the game;
``legal()`` lists the actions a seat may take now, as action-log objects.
"""
from shared_rules.skull import layout as K
from shared_rules.catalogue import SKULL_CODES
from shared_rules.skull.rules import on_mats


def at(game, seat, what):
    """One of a seat's state bytes (``what``: ``skull_layout.STACK`` ...); also for the tests."""
    return game.s[K.SEAT_BASE + K.SEAT_BYTES * seat + what]


def active(game, seat):
    return not at(game, seat, K.FLAGS) & K.ELIMINATED


class Table:
    def __init__(self, game, rng=None):
        self.game = game

    def legal(self):
        g = self.game
        s = g.s
        phase = s[K.R_PHASE]
        out = []
        if phase == K.PREP:
            for seat in range(s[K.R_SEATS]):
                if active(g, seat) and not at(g, seat, K.STACK):
                    self._places(seat, out)
        elif phase == K.ADD or phase == K.BIDDING:
            t = s[K.R_TURN]
            if phase == K.ADD:
                self._places(t, out)
            else:
                out.append({"a": "pass", "p": t})
            for n in range(s[K.R_BID] + 1, on_mats(s) + 1):
                out.append({"a": "bid", "p": t, "n": n})
        elif phase == K.FLIP:
            c = s[K.R_CHALLENGER]
            own_left = at(g, c, K.FLIPPED) < at(g, c, K.STACK)
            for seat in range(s[K.R_SEATS]):
                if (seat == c) if own_left else at(g, seat, K.FLIPPED) < at(g, seat, K.STACK):
                    out.append({"a": "flip", "p": c, "target": seat})
        elif phase == K.LOSE:
            c = s[K.R_CHALLENGER]
            for disc in range(2):
                if at(g, c, K.H_SKULL if disc else K.H_FLOWERS):
                    out.append({"a": "lose", "p": c, "disc": SKULL_CODES[disc]})
        elif phase == K.CHOOSE:
            for seat in range(s[K.R_SEATS]):
                if active(g, seat):
                    out.append({"a": "first", "p": s[K.R_CHALLENGER], "target": seat})
        return out

    def _places(self, seat, out):
        g = self.game
        if at(g, seat, K.H_FLOWERS):
            out.append({"a": "place", "p": seat, "disc": "flower"})
        if at(g, seat, K.H_SKULL):
            out.append({"a": "place", "p": seat, "disc": "skull"})

    def accepted(self, action):
        """Nothing hidden to keep in step with."""
