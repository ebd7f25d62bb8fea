"""The Sheriff table for simulations: the physical truth the referee never sees.

The referee knows each hand only by its size (plus cards taken from the face-up piles) and the
draw pile only by its size; the table keeps the real shuffled draw pile and the real hands,
drawn from the seeded ``rng``. It mirrors the discard piles and the bags with plain lists (a
refill must know which cards leave the piles), which also makes it an independent second model
the playout tests compare with the referee's bytes.

``legal()`` lists legal actions as action-log objects. Setup, declarations and the
pass/inspect choice are listed in full; the combinatorial ones (which cards to set aside or
load, which bribe) are sampled from ``rng``, with the useful extremes always present (skip the
market, an honest bag, a bribe of all gold, an explicit ``pay_with``).
"""
from shared_rules.sheriff import layout as K
from shared_rules.catalogue import (
    SHERIFF_CODES as CODES, SHERIFF_KIND, SHERIFF_VALUE, SHERIFF_PENALTY, SHERIFF_LEGAL_KINDS, LEGAL,
)

KINDS = len(CODES)
PAY_DESC = sorted(range(KINDS), key=lambda g: (SHERIFF_KIND[g] != LEGAL, -SHERIFF_VALUE[g], g))


def _names(cards):
    return [CODES[c] for c in cards]


class Table:
    """Built on a new game (before ``setup``): shuffles the deck and deals the hands."""

    def __init__(self, game, rng):
        self.game = game
        self.rng = rng
        deck = []
        for g in range(KINDS):
            deck += [g] * game._deck(g)
        rng.shuffle(deck)
        self.deck = deck                      # the draw pile, top card last
        n = game.seats()
        self.hands = [[deck.pop() for _ in range(K.HAND)] for _ in range(n)]
        self.piles = [[], []]                 # bottom to top, as the referee's
        self.bags = [[] for _ in range(n)]
        self.declared = [0] * n
        self.round = 0
        self.sheriff = game.s[K.R_SHERIFF]

    # -- legal actions -----------------------------------------------------------------
    def legal(self):
        g = self.game
        phase = g.s[K.R_PHASE]
        out = []
        if phase == K.SETUP:
            top = self.deck[-2 * K.PILE_START:]
            top.reverse()
            out.append({"a": "setup", "p": self.sheriff,
                        "piles": [_names(top[:K.PILE_START]), _names(top[K.PILE_START:])]})
        elif phase == K.MARKET:
            self._markets(g.s[K.R_TURN], out)
        elif phase == K.LOAD:
            for m in range(g.seats()):
                if g._is_merchant(m) and not g.s[g._at(m) + K.FLAGS] & (K.LOADED | K.SKIPPED):
                    self._loads(m, out)
        elif phase == K.DECLARE:
            d = g.s[K.R_TURN]
            for good in range(SHERIFF_LEGAL_KINDS):
                if g._deck(good):
                    out.append({"a": "declare", "p": d, "good": CODES[good], "count": len(self.bags[d])})
        elif phase == K.INSPECT:
            for t in range(g.seats()):
                if g._is_merchant(t) and not g.s[g._at(t) + K.FLAGS] & K.DONE:
                    self._decisions(t, out)
        return out

    def _sample(self, items, k):
        """``k`` items from distinct positions of ``items``, in random order."""
        items = list(items)
        self.rng.shuffle(items)
        return items[:k]

    def _markets(self, m, out):
        hand = self.hands[m]
        out.append({"a": "market", "p": m, "discard": [], "take": []})
        for k in range(1, min(K.MARKET_MAX, len(hand)) + 1):
            sizes = [len(self.piles[0]), len(self.piles[1])]
            take = []
            for _ in range(self.rng.below(k + 1)):
                open_piles = [w for w in (1, 2) if sizes[w - 1]]
                if not open_piles:
                    break
                w = self.rng.choice(open_piles)
                sizes[w - 1] -= 1
                take.append(w)
            out.append({"a": "market", "p": m, "discard": _names(self._sample(hand, k)),
                        "take": take, "to": 1 + self.rng.below(2)})

    def _loads(self, m, out):
        hand = self.hands[m]
        for k in range(1, min(K.BAG_MAX, len(hand)) + 1):
            out.append({"a": "load", "p": m, "cards": _names(self._sample(hand, k))})
        best = max(range(SHERIFF_LEGAL_KINDS), key=lambda good: (hand.count(good), -good))
        if hand.count(best):
            out.append({"a": "load", "p": m, "cards": [CODES[best]] * min(K.BAG_MAX, hand.count(best))})

    def _decisions(self, t, out):
        g = self.game
        s = self.sheriff
        out.append({"a": "pass", "p": s, "target": t})
        gold = g.gold(t)
        bribe = {"gold": gold if self.rng.below(3) == 0 else self.rng.below(gold + 1)}
        stand = [c for c in range(KINDS) for _ in range(g.stand(t, c))]
        if stand:
            bribe["stand"] = _names(sorted(self._sample(stand, 1 + self.rng.below(3))))
        promised = [c for c in range(KINDS) if g._deck(c)]
        bribe["bag"] = _names(sorted(self._sample(promised, self.rng.below(3))))   # as a record decodes
        out.append({"a": "pass", "p": s, "target": t, "bribe": bribe})
        out.append({"a": "inspect", "p": s, "target": t})
        explicit = {"a": "inspect", "p": s, "target": t, "to": 2}
        bag = self.bags[t]
        decl = self.declared[t]
        confiscated = [c for c in bag if c != decl]
        confiscated.reverse()
        explicit["order"] = _names(confiscated)
        if confiscated:
            pay = self._payment(t, sum([SHERIFF_PENALTY[c] for c in confiscated]), decl, len(bag) - len(confiscated))
        else:
            pay = self._payment(s, len(bag) * SHERIFF_PENALTY[decl], decl, 0)
        if pay is not None:
            explicit["pay_with"] = _names(pay)
        out.append(explicit)

    def _payment(self, debtor, owed, plus_good, plus_n):
        """A valid explicit payment unlike the default: dearest goods first (legal, then
        contraband); None when gold covers the debt."""
        rest = owed - self.game.gold(debtor)
        if rest <= 0:
            return None
        pay = []
        for c in PAY_DESC:
            have = self.game.stand(debtor, c) + (plus_n if c == plus_good else 0)
            while have and rest > 0:
                pay.append(c)
                have -= 1
                rest -= SHERIFF_VALUE[c]
        return pay

    # -- keeping the physical truth in step --------------------------------------------
    def accepted(self, action):
        a = action["a"]
        p = action["p"]
        if a == "setup":
            for pile in self.piles:
                for _ in range(K.PILE_START):
                    pile.append(self.deck.pop())
        elif a == "market":
            hand = self.hands[p]
            discard = [CODES.index(c) for c in action["discard"]]
            for c in discard:
                hand.remove(c)
            for w in action["take"]:
                hand.append(self.piles[w - 1].pop())
            self._draw(p, len(discard) - len(action["take"]))
            if discard:
                self.piles[action["to"] - 1].extend(discard)
        elif a == "load":
            for c in action["cards"]:
                self.hands[p].remove(CODES.index(c))
                self.bags[p].append(CODES.index(c))
        elif a == "declare":
            self.declared[p] = CODES.index(action["good"])
        elif a == "inspect":
            t = action["target"]
            if "order" in action:
                confiscated = [CODES.index(c) for c in action["order"]]
            else:
                confiscated = [c for c in self.bags[t] if c != self.declared[t]]
            self.piles[action.get("to", 1) - 1].extend(confiscated)
            self.bags[t] = []
        elif a == "pass":
            self.bags[action["target"]] = []
        self._round_end()

    def _round_end(self):
        g = self.game
        if g.s[K.R_ROUND] == self.round:
            return
        self.round = g.s[K.R_ROUND]
        old = self.sheriff
        n = g.seats()
        if not g.over():
            for i in range(1, n):
                seat = (old + i) % n
                self._draw(seat, K.HAND - len(self.hands[seat]))
        self.sheriff = g.s[K.R_SHERIFF]
        self.bags = [[] for _ in range(n)]

    def _draw(self, seat, n):
        for _ in range(n):
            if not self.deck:
                for pile in self.piles:
                    if len(pile) > K.PILE_START:
                        self.deck.extend(pile[:-K.PILE_START])
                        del pile[:-K.PILE_START]
                self.rng.shuffle(self.deck)
                if not self.deck:
                    return
            self.hands[seat].append(self.deck.pop())
