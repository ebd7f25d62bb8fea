"""The Sheriff table with the card modules (laws, special orders, Merry Men): the physical truth
for simulations and random playouts, on top of ``sheriff_mm_table``.

Adds the three shuffled decks (laws, orders, Merry Men; top card last: a card put back goes to
index 0, the bottom), who holds which Merry Man and whether it is in the bag. Options: the law
choice of the round (the top 3 or 2 laws), the top order turned up while fewer than four are up,
Merry Man draws owed (the top two, keep one; after regaining the Merry Men's trust the top one), a
Merry Man loaded with the goods (and counted in the declaration), passes that fill face-up orders.
``buried``: draws of cards that lie under the deck below the cards a draw takes, which the
referee must refuse (the playout tests offer them to it). The
table does not model the laws' effects: options the referee refuses under the laws in force
(a declared good made contraband, a bag over the law's size, a forbidden bribe) are dropped by
asking the referee's ``check``; the playout tests check the invariants independently.
"""
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import cards_layout as KC
from shared_rules.sheriff.modules import expansion_layout as KM
from host.sim.tables import sheriff_modules as mmt
from shared_rules.core.actions import ACTION_SIZE


class Table(mmt.Table):
    def __init__(self, game, rng):
        mmt.Table.__init__(self, game, rng)
        mods = game.modules()
        n = game.seats()
        self.law_deck = []
        self.order_deck = []
        self.men_deck = []
        if mods & KC.LAWS:
            from shared_rules.sheriff.modules import laws as lw
            from shared_rules.sheriff.modules import laws_layout as LW
            self.law_deck = [i for i in range(LW.LAWS) if lw.where(game, i) == LW.DECK]
        if mods & KC.ORDERS:
            self.order_deck = list(range(15))
        if mods & KC.MERRY_MEN:
            self.men_deck = list(range(18))
        for deck in (self.law_deck, self.order_deck, self.men_deck):
            rng.shuffle(deck)
        self.law_returned = set()   # cards put under their deck since the shuffle
        self.men_returned = set()
        self.men_held = [-1] * n
        self.men_bag = [False] * n
        self.rec = bytearray(ACTION_SIZE)

    # -- legal actions -----------------------------------------------------------------
    def legal(self):
        g = self.game
        if g.s[K.R_PHASE] == KC.LAWS_PHASE:
            return self._laws()
        out = mmt.Table.legal(self)
        extra = []
        for o in out:
            a = o["a"]
            if a == "load" and self.men_held[o["p"]] >= 0:
                m = dict(o)
                m["merry"] = 1
                extra.append(m)
            elif a == "declare" and self.men_bag[o["p"]]:
                o["count"] += 1
            elif a == "pass":
                if g.modules() & KC.ORDERS:
                    for order in g.orders_up():
                        m = dict(o)
                        m["orders"] = [order]
                        extra.append(m)
                give = self._give(o["target"])
                if give:
                    m = dict(o)
                    m["give"] = give
                    extra.append(m)
        if g.modules() & KC.ORDERS and len(g.orders_up()) < 4 and self.order_deck:
            extra.append({"a": "order_up", "p": self.sheriff if self.sheriff < g.seats() else 0,
                          "order": self.order_deck[-1]})
        if g.modules() & KC.MERRY_MEN:
            from shared_rules.sheriff.modules import merry_men as men
            for seat in range(g.seats()):
                status = men.status(g, seat)
                if status & men.OWED and status & men.ONE and self.men_deck:
                    extra.append({"a": "merry", "p": seat, "keep": self.men_deck[-1]})
                elif status & men.OWED and len(self.men_deck) >= 2:
                    top, second = self.men_deck[-1], self.men_deck[-2]
                    extra.append({"a": "merry", "p": seat, "keep": top, "bottom": second})
                    extra.append({"a": "merry", "p": seat, "keep": second, "bottom": top})
        return [o for o in out + extra if self._ok(o)]

    def _give(self, t):
        """A ``give`` for a Merry Man with a ``steal`` in ``t``'s bag: the whole rest to the seat
        on the owner's right (None when there is nothing to share)."""
        if not self.men_bag[t]:
            return None
        row = 18 * self.men_held[t]
        for at in range(row + 2, row + 18, 4):
            if self.game.merry[at] == 8:   # sheriff_effects.STEAL
                give = [0] * self.game.seats()
                give[(t - 1) % len(give)] = self.game.merry[at + 2] - self.game.merry[at + 3]
                return give
        return None

    def _laws(self):
        from shared_rules.sheriff.modules import laws as lw
        from shared_rules.sheriff.modules import laws_layout as LW
        g = self.game
        first = not [i for i in range(LW.LAWS) if lw.where(g, i) == LW.POS1]
        drawn = self.law_deck[-3:] if first else self.law_deck[-2:]
        seats = [g.s[K.R_SHERIFF]] + ([g.s[KM.R_DEPUTY2]] if g.modules() & KM.DEPUTIES else [])
        out = []
        for b in drawn:
            keep = [c for c in drawn if c != b]
            for p in seats:
                out.append({"a": "law", "p": p, "keep": keep, "bottom": b})
                if first:
                    out.append({"a": "law", "p": p, "keep": keep[::-1], "bottom": b})
        return out

    def buried(self):
        """Draws the physical decks rule out: a card the referee itself put under the deck (it
        knows those), lying below the cards the draw takes, named instead of the top card."""
        g = self.game
        out = []
        if g.s[K.R_PHASE] == KC.LAWS_PHASE:
            for law in self._laws():
                drawn = len(law["keep"]) + 1
                deep = [c for c in self.law_deck[:-drawn] if c in self.law_returned]
                if deep:
                    out.append(dict(law, bottom=deep[0]))
        if g.modules() & KC.MERRY_MEN:
            from shared_rules.sheriff.modules import merry_men as men
            for seat in range(g.seats()):
                status = men.status(g, seat)
                drawn = 1 if status & men.ONE else 2
                deep = [c for c in self.men_deck[:-drawn] if c in self.men_returned]
                if status & men.OWED and deep:
                    draw = {"a": "merry", "p": seat, "keep": deep[0]}
                    if drawn == 2:
                        draw["bottom"] = self.men_deck[-1]
                    out.append(draw)
        return out

    def _ok(self, action):
        return self.game.VOCAB.encode(action, self.rec) == 0 and self.game.check(self.rec) == 0

    # -- keeping the physical truth in step --------------------------------------------
    def accepted(self, action):
        a = action["a"]
        p = action["p"]
        if a == "law":
            for c in action["keep"] + [action["bottom"]]:
                self.law_deck.remove(c)
            self.law_deck.insert(0, action["bottom"])
            self.law_returned.add(action["bottom"])
            return
        if a == "order_up":
            self.order_deck.remove(action["order"])
            return
        if a == "merry":
            self.men_deck.remove(action["keep"])
            if "bottom" in action:
                self.men_deck.remove(action["bottom"])
                self.men_deck.insert(0, action["bottom"])
                self.men_returned.add(action["bottom"])
            self.men_held[p] = action["keep"]
            return
        if a == "load" and action.get("merry"):
            self.men_bag[p] = True
        mmt.Table.accepted(self, action)
        if a in ("pass", "inspect") and self.men_bag[action["target"]]:
            from shared_rules.sheriff.modules import merry_men as men
            t = action["target"]
            if not men.in_bag(self.game, t):   # resolved: back to the bottom of the deck
                self.men_deck.insert(0, self.men_held[t])
                self.men_returned.add(self.men_held[t])
                self.men_held[t] = -1
                self.men_bag[t] = False
