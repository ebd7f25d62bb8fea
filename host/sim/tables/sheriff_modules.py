"""The Sheriff table with Merry Men modules (deputies, Black Market): the physical truth for
simulations and random playouts, on top of ``sheriff_table``.

Adds the shuffled deputy deck (one cycle of three rounds at a time), the open 6-player market
(face-up cards join pile 1 after the merchant's draws), every deputy stance and settling action,
the loot chest's odd remainder (agreed or discarded), and Black Market claims whenever a
merchant's stand holds three of a type. Gold discarded from the chest is counted
(``gold_discarded``) so tests can check that gold is conserved.
"""
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import black_market_layout as KB
from shared_rules.sheriff.modules import expansion_layout as KM
from host.sim.tables import sheriff as base
from shared_rules.catalogue import SHERIFF_CODES as CODES

KINDS = len(CODES)


class Table(base.Table):
    def __init__(self, game, rng):
        base.Table.__init__(self, game, rng)
        self.deputies = []            # this round's, in reveal order
        self.deputy_deck = []
        self.first = None
        self.gold_discarded = 0
        self.remainder = None         # the chest's odd remainder while the deputies agree

    def _deputy_mode(self):
        return self.game.modules() & KM.DEPUTIES

    # -- legal actions -----------------------------------------------------------------
    def legal(self):
        g = self.game
        phase = g.s[K.R_PHASE]
        if not self._deputy_mode():
            out = base.Table.legal(self)
        elif phase == KM.REVEAL:
            if not self.deputy_deck:
                self.deputy_deck = list(range(KM.SEATS6))
                self.rng.shuffle(self.deputy_deck)
            out = [{"a": "deputy", "p": self.deputy_deck[-1]}]
        elif phase == K.MARKET:
            out = []
            turn = g.s[K.R_TURN]
            for m in range(KM.SEATS6) if turn == 255 else (turn,):
                if g._is_merchant(m):
                    self._open_markets(m, out)
        elif phase == K.INSPECT:
            out = []
            for t in range(KM.SEATS6):
                if g._is_merchant(t) and not g.s[g._at(t) + K.FLAGS] & (K.DONE | K.SKIPPED):
                    self._stances(t, out)
        elif phase == KM.LOOT:
            out = self._loots()
        else:
            out = base.Table.legal(self)
        if phase == K.INSPECT and g.modules() & KM.BLACK_MARKET:
            self._claims(out)
        return out

    def _open_markets(self, m, out):
        hand = self.hands[m]
        out.append({"a": "market", "p": m, "discard": [], "take": []})
        for k in range(1, min(K.MARKET_MAX, len(hand)) + 1):
            out.append({"a": "market", "p": m, "discard": base._names(self._sample(hand, k)), "take": []})

    def _stances(self, t, out):
        """Each deputy who may act on ``t``: a bare stance, or the settling pass/inspect."""
        g = self.game
        for d in self.deputies:
            both = g.stances(d, t)
            mine, other = both >> 2, both & 3
            if mine and not (mine == 2 and other == 1):
                continue
            settles_pass = mine or other == 1
            settles_open = mine or other == 2
            if not settles_pass:
                out.append({"a": "pass", "p": d, "target": t})
            if not settles_open:
                out.append({"a": "inspect", "p": d, "target": t})
            if settles_pass or settles_open:
                options = []
                saved = self.sheriff
                self.sheriff = d
                base.Table._decisions(self, t, options)
                self.sheriff = saved
                for o in options:
                    if o["a"] == "pass" and settles_pass or o["a"] == "inspect" and settles_open:
                        if o["a"] == "inspect" and "pay_with" in o and not mine and not o["order"]:
                            del o["pay_with"]   # a shared penalty: each half by the default order
                        if o.get("to") == 2:
                            o["to"] = 1   # the 6-station mat has one discard pad
                        out.append(o)

    def _loots(self):
        g = self.game
        chest = [c for c in range(KINDS) for _ in range(g.stand(KM.CHEST, c))]
        self.remainder = (g.gold(KM.CHEST), chest)
        d = self.deputies[self.rng.below(2)]
        keep = self._sample(chest, self.rng.below(len(chest) + 1))
        keep.sort()
        agreed = {"a": "loot", "p": d, "split": "agreed", "goods": base._names(keep)}
        if g.gold(KM.CHEST):
            agreed["gold"] = self.rng.below(2)
        return [{"a": "loot", "p": self.deputies[0], "split": "discard"}, agreed]   # the mat's confirm: first deputy

    def _claims(self, out):
        g = self.game
        for m in range(g.seats()):   # any player, the Sheriff and deputies too
            for i in range(3):
                good = KB.BM_GOODS[i]
                if g.stand(m, good) >= 3 and g.black_market_left(i):
                    out.append({"a": "claim", "p": m, "good": CODES[good]})

    # -- keeping the physical truth in step --------------------------------------------
    def accepted(self, action):
        a = action["a"]
        if not self._deputy_mode() or a in ("load", "declare", "claim"):
            base.Table.accepted(self, action)
            return
        p = action["p"]
        if a == "deputy":
            self.deputy_deck.pop()
            self.deputies.append(p)
        elif a == "market":
            if self.first is None:
                self.first = p
            discard = [CODES.index(c) for c in action["discard"]]
            for c in discard:
                self.hands[p].remove(c)
            self._draw(p, len(discard))
            self.piles[0].extend(discard)
        elif a in ("pass", "inspect"):
            t = action["target"]
            if self.game.s[self.game._at(t) + K.FLAGS] & K.DONE or self.game.s[K.R_ROUND] != self.round:
                base.Table.accepted(self, action)   # the bag was settled
                return
        elif a == "loot" and action["split"] == "discard":
            gold, goods = self.remainder
            self.gold_discarded += gold
            self.piles[0].extend(goods)
        self._round_end()

    def _round_end(self):
        g = self.game
        if not self._deputy_mode():
            base.Table._round_end(self)
            return
        if g.s[K.R_ROUND] == self.round:
            return
        self.round = g.s[K.R_ROUND]
        if not g.over():
            for i in range(KM.SEATS6):
                seat = (self.first + i) % KM.SEATS6
                if seat not in self.deputies:
                    self._draw(seat, K.HAND - len(self.hands[seat]))
        self.deputies = []
        self.first = None
        self.bags = [[] for _ in range(KM.SEATS6)]
