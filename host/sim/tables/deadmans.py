"""The Dead Man's Draw table for simulations: the physical truth, and every legal action.

The referee knows neither the order of the draw pile nor what a shuffle of the discard pile
turns up; the table does: it shuffles the draw pile from the seeded ``rng``, deals traits
(two per seat, keep one; in one game out of four nobody plays with traits) and draws the Map's
revealed cards and Key & Chest bonus cards at random from the real discard pile. ``legal()`` then
lists every action a player could take, with every choice (hook, cannon and sword targets, the
Map pick, collect or draw; Plunderer: one random sequence of top cards per opponent).
"""
from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.catalogue import DMD_CODES as CODES, DMD_TRAITS as TRAITS


class Table:
    def __init__(self, game, rng):
        self.game = game
        self.rng = rng
        s = game.s
        self.draw = [i % K.NCODES for i in range(K.NCODES * s[K.R_DECKS]) if s[K.LOC + i] == K.DRAW]
        rng.shuffle(self.draw)
        for i in range(s[K.R_PEEK_N] - 1, -1, -1):  # what an Oracle saw stays on top
            self.draw.remove(s[K.R_PEEK + i])
            self.draw.append(s[K.R_PEEK + i])
        self.dealt = []
        if s[K.R_PHASE] == K.SETUP and rng.below(4):
            pool = list(range(len(TRAITS))) * s[K.R_DECKS]
            rng.shuffle(pool)
            self.dealt = [pool[2 * seat:2 * seat + 2] for seat in range(s[K.R_SEATS])]
        self.chance = None  # the cards chance shows for the pending Map or bonus

    def legal(self):
        g = self.game
        s = g.s
        p = s[K.R_TURN]
        if g.over():
            return []
        if s[K.R_PHASE] == K.SETUP:
            out = self._traits()
            if out:
                return out
        pending = s[K.R_PENDING]
        if pending == K.NO_CHOICE:
            out = []
            if s[K.R_DRAW_N]:
                out.append({"a": "draw", "p": p, "card": CODES[self.draw[-1]]})
            if s[K.R_STARTED] and not s[K.R_KRAKEN]:
                out.append({"a": "collect", "p": p})
            return out
        if pending == K.A_HOOK:
            return [{"a": "hook", "p": p, "card": CODES[c]} for c in self._tops(p)]
        if pending == K.A_CANNON or pending == K.A_SWORD:
            return self._targets(p, d.GAME.VOCAB.names[pending])
        if pending == K.A_MAP:
            return self._maps(p)
        if pending == K.A_ORACLE:
            n = d.peek_size(s, p)
            peek = [CODES[self.draw[-1 - i]] for i in range(n)]
            return [{"a": "oracle", "p": p, "peek": peek[0] if n == 1 else peek}]
        return self._bonuses(p)

    def _traits(self):
        s = self.game.s
        seats = s[K.R_SEATS]
        out = []
        for seat in range(len(self.dealt)):
            if s[K.R_TRAIT + seat] != K.NONE:
                continue
            for trait in self.dealt[seat]:
                if [s[K.R_TRAIT + x] for x in range(seats)].count(trait) >= s[K.R_DECKS]:  # once per deck
                    continue
                name = TRAITS[trait]
                if trait == K.DAVY_JONES and seats > 2:
                    for t in range(seats):
                        if t != seat:
                            out.append({"a": "trait", "p": seat, "trait": name, "target": t})
                else:
                    out.append({"a": "trait", "p": seat, "trait": name})
        return out

    def _tops(self, seat):
        tops = []
        for suit in range(K.SUITS):
            t = d.top(self.game.s, seat, suit)
            if t != K.NONE:
                tops.append(t)
        return tops

    def _targets(self, p, kind):
        s = self.game.s
        out = []
        if kind == "cannon" and d.opponent_has(s, p, K.MISFIRE):
            seats = [p]
        else:
            seats = [t for t in range(s[K.R_SEATS]) if t != p]
        forced = kind == "sword" and d.opponent_has(s, p, K.PARRY) and d.top(s, p, K.KRAKEN) == K.NONE
        for t in seats:
            for c in self._tops(t):
                suit = c // K.VALUES
                if kind == "sword":
                    if forced and (s[K.R_TRAIT + t] != K.PARRY or suit != K.KRAKEN):
                        continue
                    if not forced and s[K.R_TRAIT + p] != K.SWORDSMAN and d.top(s, p, suit) != K.NONE:
                        continue
                out.append({"a": kind, "p": p, "target": t, "card": CODES[c]})
        return out

    def _discard(self):
        s = self.game.s
        return [i % K.NCODES for i in range(K.NCODES * s[K.R_DECKS]) if s[K.LOC + i] == K.DISCARD]

    def _shown(self, n):
        """``n`` cards at random from the discard pile, drawn once per pending choice."""
        if self.chance is None:
            pile = self._discard()
            self.rng.shuffle(pile)
            self.chance = pile[:n]
        return self.chance

    def _maps(self, p):
        s = self.game.s
        if s[K.R_TRAIT + p] == K.NAVIGATOR:
            picks = self._discard()
            reveal = None
        else:
            n = s[K.R_DISCARD_N]
            reveal = [CODES[c] for c in self._shown(3 if n > 3 else n)]
            picks = self.chance
        out = []
        for c in sorted(set(picks)):
            a = {"a": "map", "p": p, "pick": CODES[c]}
            if reveal is not None:
                a["reveal"] = reveal
            out.append(a)
        return out

    def _bonuses(self, p):
        s = self.game.s
        if s[K.R_TRAIT + p] != K.PLUNDERER:
            cards = self._shown(d.bonus_due(s, K.NONE))
            return [{"a": "bonus", "p": p, "cards": [CODES[c] for c in cards]}]
        out = []
        for t in range(s[K.R_SEATS]):
            if t != p and d.bank_size(s, t):
                out.append({"a": "bonus", "p": p, "target": t, "cards": self._plunder(t)})
        return out

    def _plunder(self, t):
        """A random sequence of top cards taken one by one from seat ``t``'s bank."""
        s = self.game.s
        left = [d.count(s, c, K.BANK + t) for c in range(K.NCODES)]
        taken = []
        for _ in range(d.bonus_due(s, t)):
            suits = [u for u in range(K.SUITS) if sum(left[u * K.VALUES:(u + 1) * K.VALUES])]
            u = self.rng.choice(suits)
            c = (u + 1) * K.VALUES - 1
            while not left[c]:
                c -= 1
            left[c] -= 1
            taken.append(CODES[c])
        return taken

    def accepted(self, action):
        """Keep the physical truth in step with what the mat saw: the drawn card leaves the draw
        pile (the top one, unless the log drew another), peeked cards are the top ones; chance
        for the next Map or bonus is drawn anew."""
        kind = action["a"]
        if kind == "draw":
            self._take(action["card"])
        elif kind == "oracle":
            peek = action["peek"]
            peek = [peek] if isinstance(peek, str) else peek
            if [CODES[self.draw[-1 - i]] for i in range(len(peek))] != peek:
                for i in range(len(peek) - 1, -1, -1):
                    self.draw.append(self._take(peek[i]))
        self.chance = None

    def _take(self, name):
        """Remove the topmost copy of a card from the draw pile; return its code."""
        code = CODES.index(name)
        for i in range(len(self.draw) - 1, -1, -1):
            if self.draw[i] == code:
                return self.draw.pop(i)
        raise ValueError("%s is not in the draw pile" % name)
