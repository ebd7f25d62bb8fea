"""Sheriff of Nottingham played with the virtual deck's cards, bags and tokens, gesture by gesture
(docs/mat-sheriff.md).

The player keeps the physical truth the mat cannot see: which card tag lies on which discard pile
(beside its pad, bottom first), which tags are in each bag on its dock, whether a clasp is shut.
Hands are not tracked tag by tag: a card "from a hand" is a free copy of that good (the virtual
deck has every copy of the full deck), i.e. one not on a pile, in a bag or on a stand, preferably
one the board has long seen gone. After every accepted action the piles are checked against the
simulation table's (a refill takes all but their top five back into the draw pile).

Inputs the mat has no sensor for go as host ACTION frames, each the whole action: a pass with a
bribe, an inspection whose debt is paid with chosen goods (``pay_with``).

A Black Market claim is a gesture: three contraband cards of the type (tags of that good already
in play, on no pile and in no bag: stand cards) put on the stand pad, then the module card the
rules hand out next tapped there; the three then leave the game (never used again).

Mistakes it makes on purpose: an unregistered tag (``unknown_tag``), a token on a discard pad
(``not_now``), a pile's top card taken before any card is set aside (``take_too_many``), an empty
bag's clasp closed in the load phase (``bag_size``), a count starting with 0 (``not_now``), a
declaration during the inspection (``wrong_phase``), an out-of-turn host action; with the Black
Market: its card tapped on an empty stand pad (``need_three``), the lower card of a pair whose
top card is still there (``not_now``), a card of an exhausted type (``market_exhausted``), a card
shown outside the inspection (``wrong_phase``).
"""
from __future__ import annotations

from typing import Any, Callable

from host.hub.mirror import Event
from host.sim.players_common import UNKNOWN_UID, PhysicalPlayer
from host.sim.runner import Attempt, Sim, SimError
from shared_rules.sheriff.modules import cards_layout as KC
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import expansion_layout as KM
from shared_rules.catalogue import SHERIFF_CODES, SHERIFF_GOODS
from shared_rules.sheriff.modules.profile import BLACK_MARKET_GOODS


class Player(PhysicalPlayer):
    def __init__(self, sim: Sim) -> None:
        super().__init__(sim)
        n = sim.game.seats()
        zones = self.zones
        self.stand: list[int] = zones["stand"][:n]
        self.dock: list[int] = [d[0] for d in zones["dock"][:n]]
        self.clasp: list[int] = [d[1] for d in zones["dock"][:n]]
        self.pile_pad: list[int] = [zones["discard1"], zones.get("discard2", -1)]   # 6 seats: one pile pad
        self.modules: int = getattr(sim.game, "modules", lambda: 0)()
        self.deputies = bool(self.modules & 1)
        self.black_market = bool(self.modules & KM.BLACK_MARKET)
        self.piles: list[list[str]] = [[], []]
        self.bags: list[list[str]] = [[] for _ in range(n)]
        self.used: set[str] = set()       # on a pile, in a bag or on a stand
        self.removed: set[str] = set()    # out of the game (Black Market claims)
        self.held: list[int] = [-1] * n   # the Merry Man each seat holds (the sim knows)
        self.draw: int = zones["draw"]
        self.declared = [""] * n
        self.closed = [False] * n
        self.resolved: int | None = None  # the bag to empty once its pass or inspection is in
        for sw in self.clasp:             # a game may begin with a clasp left shut
            self.hands.switch(sw, False)

    # -- pieces ---------------------------------------------------------------------------
    def code(self, uid: str) -> str:
        return str(self.sim.deck.by_uid[uid]["code"])

    def card(self, good: str) -> str:
        """A free copy of a good, taken from a hand (marked used)."""
        copies = SHERIFF_GOODS[SHERIFF_CODES.index(good)][2]
        free = [u for u in (self.sim.deck.card("sheriff", good, c) for c in range(copies))
                if u not in self.used and u not in self.hands.on]
        if not free:
            raise SimError("no free copy of %s left" % good)
        u = self.rested(free)
        self.used.add(u)
        return u

    # -- actions --------------------------------------------------------------------------
    def perform(self, a: dict[str, Any]) -> Event:
        name = a["a"]
        p = a["p"]
        if name == "setup":
            cards = [(w, self.card(c)) for w in (1, 2) for c in a["piles"][w - 1]]
            for w, u in cards:
                self.piles[w - 1].append(u)
            return self.taps([(self.pile_pad[w - 1], u) for w, u in cards])
        if name == "deputy":
            return self.word("seat%d" % p)
        if name == "loot":   # discard: confirm; an agreed split has no gesture
            if a["split"] != "discard":
                return self.sim.host_action(a)
            chest = self.sim.game.stand
            self.piles[0] += [self.spent(SHERIFF_CODES[c]) for c in range(len(SHERIFF_CODES)) if chest(6, c)]
            return self.word("confirm")
        if name == "market":
            if self.deputies and self.sim.game.s[K.R_TURN] == 255:
                self.part("seat%d" % p)   # the merchant the deputies named opens the market
            return self.market(p, a)
        if name == "load":
            uids = [self.card(c) for c in a["cards"]]
            merry = [self.merry_card(self.held[p])] if a.get("merry") else []
            for u in uids + merry:
                self.hands.put(self.dock[p], u)
            self.hands.seen((uids + merry)[-1])
            self.bags[p] = uids
            self.closed[p] = True
            self.hands.switch(self.clasp[p], True)
            return self.sim.answer()
        if name == "declare":
            self.declared[p] = a["good"]
            self.part("declare_" + a["good"])
            return self.word("digit%d" % a["count"])
        if name == "pass":
            if self.settles(a):
                self.resolved = a["target"]
            if "bribe" in a or "give" in a:   # a steal's rest shared by choice: no gesture
                return self.sim.host_action(a)
            for o in a.get("orders", []):          # claimed on the merchant's stand pad first
                self.tap(self.stand[a["target"]], self.order_card(o), False)
            self.name_deputy(p)
            self.part("seat%d" % a["target"])
            return self.word("pass")
        if name == "inspect":
            return self.inspect(a)
        if name == "claim":
            return self.claim(p, a["good"])
        if name == "order_up":
            sheriff = self.sim.game.s[K.R_SHERIFF]
            if p != (0 if sheriff == 255 else sheriff):   # the mat names the Sheriff: anyone else types it
                return self.sim.host_action(a)
            return self.answered(self.tap(self.command, self.order_card(a["order"]), True))
        if name == "law":   # kept on the command pad, the one put back on the draw pad
            if self.deputies and p != self.sim.game.s[K.R_SHERIFF]:
                self.part("seat%d" % p)   # the second deputy logs the laws both chose
            for law in a["keep"]:
                self.tap(self.command, self.law_card(law), False)
            return self.answered(self.tap(self.draw, self.law_card(a["bottom"]), True))
        if name == "merry":   # kept, then put back: both on the player's stand pad (a one-card draw: kept)
            self.held[p] = a["keep"]
            if "bottom" not in a:
                return self.answered(self.tap(self.stand[p], self.merry_card(a["keep"]), True))
            self.tap(self.stand[p], self.merry_card(a["keep"]), False)
            return self.answered(self.tap(self.stand[p], self.merry_card(a["bottom"]), True))
        raise SimError("Sheriff of Nottingham has no action %r" % name)

    def market(self, p: int, a: dict[str, Any]) -> Event:
        """Set aside on the stand pad; show each taken card on its pile's pad; tap the set-aside
        cards onto pile ``to`` in order; confirm."""
        aside = [self.card(c) for c in a["discard"]]
        for u in aside:
            self.hands.put(self.stand[p], u)
        if aside:
            self.hands.seen(aside[-1])
        for w in a["take"]:
            u = self.piles[w - 1].pop()
            self.used.discard(u)
            self.tap(self.pile_pad[w - 1], u, False)
        for u in aside:
            self.hands.lift(u)
        to = a.get("to", 1)
        for u in aside:
            self.tap(self.pile_pad[to - 1], u, False)
            self.piles[to - 1].append(u)
        return self.word("confirm")

    def inspect(self, a: dict[str, Any]) -> Event:
        """Name the merchant and inspect; a lying bag is opened and its confiscated cards tapped
        onto pile ``to`` in order (the rules' default: pile 1, bag order). With ``pay_with`` the
        whole inspection is a host action."""
        t = a["target"]
        if not self.settles(a):   # a deputy's first stance: the bag stays shut
            self.name_deputy(a["p"])
            self.part("seat%d" % t)
            return self.word("inspect")
        self.resolved = t
        bag = self.bags[t]
        if "order" in a:
            order = list(a["order"])
        else:
            order = [self.code(u) for u in bag if self.code(u) != self.declared[t]]
        to = a.get("to", 1)
        if "pay_with" in a:
            sent = self.sim.host_action(a)
            self.confiscate(t, order, to)
            return sent
        self.name_deputy(a["p"])
        self.part("seat%d" % t)
        if not order:
            return self.word("inspect")
        self.part("inspect")
        self.open_bag(t)
        return self.taps([(self.pile_pad[to - 1], u) for u in self.confiscate(t, order, to)])

    def claim(self, p: int, good: str) -> Event:
        """Three cards of the type from the stand on the stand pad, then the Black Market card the
        rules hand out next tapped there; the three leave the game."""
        shown = []
        for _ in range(3):
            u = self.spent(good)
            self.removed.add(u)
            self.hands.put(self.stand[p], u)
            shown.append(u)
        self.hands.seen(shown[-1])
        ev = self.tap(self.stand[p], self.black_market_card(good), True)
        for u in shown:
            self.hands.lift(u)
        return self.answered(ev)

    def black_market_card(self, good: str, lower: bool | None = None) -> str:
        """The tag of the Black Market card of a type: the one the rules hand out next, or the
        top (``lower`` False) or lower one."""
        if lower is None:
            lower = self.sim.game.black_market_left(BLACK_MARKET_GOODS.index(good)) < 2
        return self.sim.deck.module_card("black_market_%s_%s" % (good, "lower" if lower else "top"))

    def law_card(self, law: int) -> str:
        return self.sim.deck.module_card("law_%02d" % (law + 1))

    def order_card(self, order: int) -> str:
        return self.sim.deck.module_card("special_order_%02d" % (order + 1))

    def merry_card(self, man: int) -> str:
        return self.sim.deck.module_card("merry_man_%02d" % (man + 1))

    def spent(self, good: str) -> str:
        """A tag of ``good`` already in play but on no pile, in no bag, on no pad and still in
        the game (a chest or stand card)."""
        taken = set(self.piles[0]) | set(self.piles[1]) | {u for b in self.bags for u in b} | self.removed
        for u in sorted(self.used):
            if self.code(u) == good and u not in taken and u not in self.hands.on:
                return u
        return self.card(good)

    def settles(self, a: dict[str, Any]) -> bool:
        """Whether a pass/inspect settles the bag (deputies: not a first stance)."""
        if not self.deputies:
            return True
        both = self.sim.game.stances(a["p"], a["target"])
        return bool(both >> 2) or both & 3 == (1 if a["a"] == "pass" else 2)

    def name_deputy(self, p: int) -> None:
        if self.deputies:
            self.part("seat%d" % p)   # two deputies share the command pad

    def confiscate(self, t: int, order: list[str], to: int) -> list[str]:
        """Move the confiscated cards from the bag onto a pile (their tags, in order)."""
        out = []
        for good in order:
            u = next(v for v in self.bags[t] if self.code(v) == good)
            self.bags[t].remove(u)
            self.piles[to - 1].append(u)
            out.append(u)
        return out

    def open_bag(self, t: int) -> None:
        """Open the clasp and take every card out of the dock (to the stand or a pile)."""
        if self.closed[t]:
            self.hands.switch(self.clasp[t], False)
            self.closed[t] = False
        for u in [v for v, r in self.hands.on.items() if r == self.dock[t]]:
            self.hands.lift(u)

    def settle(self) -> None:
        """A resolved bag is emptied (goods to the stand: used for good); a refill takes all but
        the top five cards of each pile back into the draw pile."""
        if self.resolved is not None:
            self.open_bag(self.resolved)
            self.bags[self.resolved] = []
            self.resolved = None
        for w in range(2):
            pile = self.piles[w]
            truth = [SHERIFF_CODES[c] for c in self.sim.table.piles[w]]
            cut = len(pile) - len(truth)
            for u in pile[:cut]:
                self.used.discard(u)
            del pile[:cut]
            if [self.code(u) for u in pile] != truth:
                raise SimError("discard pile %d on the mat is not the table's" % (w + 1))

    # -- mistakes -------------------------------------------------------------------------
    def attempts(self) -> list[Attempt]:
        out = self.sim.out_of_turn()
        out.append(self.misplaced("an unregistered tag on the command pad", "unknown_tag", self.command, UNKNOWN_UID))
        out.append(self.misplaced("a token on discard pile 1's pad", "not_now", self.pile_pad[0],
                                  self.token("confirm")))
        g = self.sim.game
        phase = g.s[K.R_PHASE]
        if phase == K.MARKET and self.piles[0]:
            out.append(self.misplaced("seat %d shows pile 1's top card before setting any aside"
                                      % g.s[K.R_TURN], "take_too_many", self.pile_pad[0], self.piles[0][-1]))
        elif phase == K.LOAD:
            waiting = [m for m in range(g.seats()) if g._is_merchant(m)
                       and not g.s[g._at(m) + K.FLAGS] & (K.LOADED | K.SKIPPED) and not self.closed[m]]
            if waiting:
                m = waiting[0]
                out.append(Attempt("seat %d closes an empty bag" % m, "bag_size",
                                   self.clasp_move(m, True), self.clasp_move(m, False)))
        elif phase == K.DECLARE:
            out.append(self.misplaced("a count starting with 0", "not_now", self.command, self.token("digit0")))
        elif phase == K.INSPECT:
            out.append(self.misplaced("a declaration during the inspection", "wrong_phase", self.command,
                                      self.token("declare_apple")))
        if self.black_market:
            out += self.black_market_mistakes(phase)
        if self.modules & (KC.LAWS | KC.ORDERS):
            out += self.card_mistakes(phase)
        return out

    def card_mistakes(self, phase: int) -> list[Attempt]:
        """A law where no law means anything; an order that is not face up claimed."""
        g = self.sim.game
        out = []
        merchants = [m for m in range(g.seats()) if g._is_merchant(m)]
        if self.modules & KC.LAWS and phase == KC.LAWS_PHASE:
            out.append(self.misplaced("a law on seat %d's stand pad" % merchants[0], "not_now",
                                      self.stand[merchants[0]], self.law_card(0)))
        elif self.modules & KC.LAWS:
            out.append(self.misplaced("a law on the command pad outside the laws phase", "wrong_phase",
                                      self.command, self.law_card(0)))
        waiting = [m for m in merchants if not g.s[g._at(m) + K.FLAGS] & K.DONE]
        filled = set(g.orders_up()) | {o for m in range(g.seats()) for o in g.order_held(m)}
        down = [o for o in range(15) if o not in filled]
        if self.modules & KC.ORDERS and phase == K.INSPECT and waiting and down:
            out.append(self.misplaced("seat %d claims an order that is not face up" % waiting[0], "order_not_up",
                                      self.stand[waiting[0]], self.order_card(down[0])))
        return out

    def black_market_mistakes(self, phase: int) -> list[Attempt]:
        """A Black Market card where no claim can be made (refused at the stand pad)."""
        g = self.sim.game
        sheriff = g.s[K.R_SHERIFF]
        merchant = next(m for m in range(g.seats()) if g._is_merchant(m))
        good = BLACK_MARKET_GOODS[g.s[K.R_ROUND] % 3]
        left = g.black_market_left(BLACK_MARKET_GOODS.index(good))
        card = self.black_market_card(good)
        if phase != K.INSPECT:
            return [self.misplaced("seat %d shows a Black Market card outside the inspection" % merchant,
                                   "wrong_phase", self.stand[merchant], card)]
        if not left:
            return [self.misplaced("seat %d claims the exhausted %s" % (merchant, good), "market_exhausted",
                                   self.stand[merchant], card)]
        def bare(seat: int) -> list[Attempt]:   # any player may claim, the Sheriff too
            if any(r == self.stand[seat] for r in self.hands.on.values()):
                return []
            return [self.misplaced("seat %d claims %s with nothing on the stand pad" % (seat, good),
                                   "need_three", self.stand[seat], card)]
        out = bare(sheriff)
        if left == 2:
            out.append(self.misplaced("seat %d takes the lower %s card first" % (merchant, good), "not_now",
                                      self.stand[merchant], self.black_market_card(good, True)))
        return out + bare(merchant)

    def clasp_move(self, seat: int, closed: bool) -> Callable[[], None]:
        return lambda: self.hands.switch(self.clasp[seat], closed)
