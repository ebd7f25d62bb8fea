"""The Skull table for simulations: every legal action in a position.

Skull hides nothing from the referee (each disc is tagged), so the table is just the game;
``legal()`` lists the actions a seat may take now, as action-log objects.
"""
from shared_rules import skull as k


class Table:
    def __init__(self, game, rng=None):
        self.game = game

    def legal(self):
        g = self.game
        s = g.s
        phase = s[k.R_PHASE]
        out = []
        if phase == k.PREP:
            for seat in range(s[k.R_SEATS]):
                if g._active(seat) and not g._get(seat, k.STACK):
                    self._places(seat, out)
        elif phase == k.ADD or phase == k.BIDDING:
            t = s[k.R_TURN]
            if phase == k.ADD:
                self._places(t, out)
            else:
                out.append({"a": "pass", "p": t})
            for n in range(s[k.R_BID] + 1, g._on_mats() + 1):
                out.append({"a": "bid", "p": t, "n": n})
        elif phase == k.FLIP:
            c = s[k.R_CHALLENGER]
            own_left = g._get(c, k.FLIPPED) < g._get(c, k.STACK)
            for seat in range(s[k.R_SEATS]):
                if (seat == c) if own_left else g._get(seat, k.FLIPPED) < g._get(seat, k.STACK):
                    out.append({"a": "flip", "p": c, "target": seat})
        elif phase == k.LOSE:
            c = s[k.R_CHALLENGER]
            for disc in range(2):
                if g._get(c, k.H_SKULL if disc else k.H_FLOWERS):
                    out.append({"a": "lose", "p": c, "disc": k.DISCS[disc]})
        elif phase == k.CHOOSE:
            for seat in range(s[k.R_SEATS]):
                if g._active(seat):
                    out.append({"a": "first", "p": s[k.R_CHALLENGER], "target": seat})
        return out

    def _places(self, seat, out):
        g = self.game
        if g._get(seat, k.H_FLOWERS):
            out.append({"a": "place", "p": seat, "disc": "flower"})
        if g._get(seat, k.H_SKULL):
            out.append({"a": "place", "p": seat, "disc": "skull"})

    def accepted(self, action):
        """Nothing hidden to keep in step with."""
