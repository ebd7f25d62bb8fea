"""Sheriff of Nottingham through the mat, on both interpreters: seeded games performed as the
gestures of docs/mat-sheriff.md on a simulated mat (cards on pads and in bags, clasps, tokens,
every pad scanned in poll rounds into Presence, then Mat, then the rules) end in the playout's
state; refused gestures change nothing; hidden cards are never signalled; the whole
sensor-to-rules path allocates nothing."""
import padsim
from padsim import token_uid, UNKNOWN_UID, FOREIGN_UID
from shared_rules.core import deck
from shared_rules.core import tokens
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.catalogue import SHERIFF_CODES as CODES, SHERIFF_GOODS, SHERIFF_MODULE_CARDS
from host.sim.playout import Playout
from firmware import mat_sheriff as ms


def card_uid(code, copy):
    return bytes((4, 0x5E, code, copy, 0x33, 0x80 | code, 0x1D))


def module_uid(name):
    return bytes((4, 0x5E, 0x3D, SHERIFF_MODULE_CARDS.index(name), 0x33, 0x44, 0x1D))


def pieces():
    """Every Sheriff card (all copies), every module card and a Skull disc (FOREIGN_UID)."""
    recs = [{"uid": deck.uid_hex(FOREIGN_UID), "game": "skull", "kind": "disc", "code": "flower", "seat": 0}]
    for g in range(len(CODES)):
        for c in range(SHERIFF_GOODS[g][2]):
            recs.append({"uid": deck.uid_hex(card_uid(g, c)), "game": "sheriff", "kind": "card", "code": CODES[g]})
    for name in SHERIFF_MODULE_CARDS:
        recs.append({"uid": deck.uid_hex(module_uid(name)), "game": "sheriff", "kind": "module", "code": name})
    return recs


class Table(padsim.Table):
    """The mat with Sheriff's zones and clasps; every accepted action is also kept as the public
    mirror sees it, with the prompt asked after it (as the firmware's loop does)."""
    SLOTS = 6   # one more than a bag holds, so a sixth card in a bag is seen (docs/mat-sheriff.md)

    def __init__(self, header, game=None):
        super().__init__(header, padsim.registry("sheriff", pieces), game)
        z = self.zones
        self.stand = z["stand"]
        self.dock = [d[0] for d in z["dock"]]
        self.clasp = [d[1] for d in z["dock"]]
        self.pile_pad = [z["discard1"], z.get("discard2")]   # 6 stations: one pile pad
        self.draw = z["draw"]
        self.public = []   # accepted actions as the public mirror sees them
        self.prompts = []

    def switch(self, seat, closed):
        self.outcome(self.mat.on_switch(self.clasp[seat], closed))

    def submit(self, rec):
        if not super().submit(rec):
            return False
        self.public.append(self.game.VOCAB.decode(rec, True))
        self.prompts.append(self.prompt())
        return True

    def host(self, action):
        """An ACTION frame from the host (an input the mat has no sensor for)."""
        rec = bytearray(len(self.mat.rec))
        assert self.game.VOCAB.encode(action, rec) == 0
        self.submit(rec)


class Players:
    """The physical truth of the cards (which UID lies where) and the gestures of
    docs/mat-sheriff.md for each action. Hands are not tracked card by card: a card of a kind
    "from the hand" is any copy not on a pile, in a bag or on a stand."""

    def __init__(self, table):
        self.t = table
        n = table.game.seats()
        self.free = [[card_uid(g, c) for c in range(SHERIFF_GOODS[g][2] - 1, -1, -1)] for g in range(len(CODES))]
        self.piles = [[], []]
        self.bags = [[] for _ in range(n)]
        self.declared = [0] * n

    def hand_card(self, name):
        return self.free[CODES.index(name)].pop()

    def perform(self, a):
        t = self.t
        name = a["a"]
        p = a["p"]
        if name == "setup":
            for w in range(2):
                for c in a["piles"][w]:
                    self.to_pile(w + 1, self.hand_card(c))
        elif name == "market":
            self.market(p, a)
        elif name == "load":
            uids = [self.hand_card(c) for c in a["cards"]]
            for u in uids:
                t.put(t.dock[p], u)
            self.bags[p] = uids
            t.switch(p, True)
        elif name == "declare":
            self.declared[p] = CODES.index(a["good"])
            words = [tokens.DECLARE0 + self.declared[p], tokens.DIGIT0 + a["count"]]
            if a["count"] % 2:
                words.reverse()   # "three apples" or "apples, three": both orders
            for w in words:
                t.token(w)
        elif name == "pass":
            if "bribe" in a:
                t.host(a)
            else:
                self.decide(a["target"], tokens.PASS)
            self.empty_bag(a["target"], [])
        elif name == "inspect":
            target = a["target"]
            to, order = confiscation(a, self.bag_codes(target), self.declared[target])
            if "pay_with" in a:
                t.host(a)
            else:
                self.decide(target, tokens.INSPECT)
            self.empty_bag(target, order, to, "pay_with" not in a)
        else:
            raise AssertionError(name)

    def to_pile(self, w, u):
        """Tap a card on discard pad w and put it on pile w (beside the pad)."""
        self.t.tap(self.t.pile_pad[w - 1], u)
        self.piles[w - 1].append(u)

    def market(self, p, a):
        t = self.t
        aside = [self.hand_card(c) for c in a["discard"]]
        for u in aside:                       # set aside, face down, on the stand pad
            t.put(t.stand[p], u)
        for w in a["take"]:                   # the top card of pile w, shown on its pad
            u = self.piles[w - 1].pop()
            t.tap(t.pile_pad[w - 1], u)
            self.free[u[2]].append(u)
        for u in aside:                       # onto pile `to`, in order
            t.take(t.stand[p], u)
            self.to_pile(a["to"], u)
        t.token(tokens.CONFIRM)

    def decide(self, target, verdict):
        words = [tokens.SEAT0 + target, verdict]
        if target % 2:
            words.reverse()
        for w in words:
            self.t.token(w)

    def bag_codes(self, seat):
        return [u[2] for u in self.bags[seat]]

    def empty_bag(self, seat, order, to=1, tap=False):
        """Open the bag on its dock, take every card out; confiscated cards go onto pile `to`
        in `order` (tapped on its pad unless the host sent the action), the rest to the stand."""
        t = self.t
        t.switch(seat, False)
        bag = self.bags[seat]
        for u in list(bag):
            t.take(t.dock[seat], u)
        for c in order:
            u = [v for v in bag if v[2] == c][0]
            bag.remove(u)
            if tap:
                self.to_pile(to, u)
            else:
                self.piles[to - 1].append(u)
        self.bags[seat] = []

    def follow(self, table_piles):
        """A refill took all but the top five cards of a pile back into the draw pile."""
        for w in range(2):
            pile = self.piles[w]
            cut = len(pile) - len(table_piles[w])
            for u in pile[:cut]:
                self.free[u[2]].append(u)
            del pile[:cut]
            assert [u[2] for u in pile] == table_piles[w]


def confiscation(a, bag, declared):
    """An inspection's pile and order: the explicit ones, or the rules' default (pile 1, bag order)."""
    order = [CODES.index(c) for c in a["order"]] if "order" in a else [c for c in bag if c != declared]
    return a.get("to", 1), order


def expected(a, players):
    """The action the mat reports: the playout's, except that an inspection names its pile and
    order exactly when cards were confiscated (they are tapped)."""
    if a["a"] != "inspect" or "pay_with" in a:
        return a
    target = a["target"]
    to, order = confiscation(a, players.bag_codes(target), players.declared[target])
    out = {"a": "inspect", "p": a["p"], "target": target}
    if order:
        out["to"] = to
        out["order"] = [CODES[c] for c in order]
    return out


def play_through_the_mat(header, seed, used):
    playout = Playout(header, seed)
    table = Table(header)
    players = Players(table)
    n = 0
    while True:
        a = playout.step()
        if a is None:
            break
        want = expected(a, players)
        players.perform(a)
        got = table.news()
        assert got == [want], (a, got)
        players.follow(playout.table.piles)
        kind = a["a"]
        if kind == "pass" and "bribe" in a or kind == "inspect" and "pay_with" in a:
            kind += " (host)"
        elif kind == "inspect" and "order" in want:
            kind += " confiscating"
        used[kind] = used.get(kind, 0) + 1
        n += 1
    if table.game.s[K.R_REFILLS]:
        used["refill"] = 1
    assert table.game.digest() == playout.game.digest()
    assert table.game.over()
    return [table.game.seats(), n, table.game.digest()]


GAMES = (({"players": 3}, 303), ({"players": 4}, 301), ({"players": 5}, 302),
         ({"players": 3, "royal": False}, 304), ({"players": 4, "first_sheriff": 2}, 305),
         ({"players": 5, "first_sheriff": 4, "royal": False}, 302))


def test_seeded_games_played_through_the_mat_end_in_the_playout_state():
    used = {}
    out = []
    for options, seed in GAMES:
        header = {"game": "sheriff"}
        header.update(options)
        out.append(play_through_the_mat(header, seed, used))
    # Between them the games use every gesture, an honest bag inspected, both host inputs and
    # a refill of the draw pile from the discard piles.
    assert sorted(used) == ["declare", "inspect", "inspect (host)", "inspect confiscating", "load", "market",
                            "pass", "pass (host)", "refill", "setup"], used
    return [out, sorted(used.items())]


# -- hand-made positions ---------------------------------------------------------------------
SETUP = {"a": "setup", "p": 0, "piles": [["apple", "cheese", "chicken", "pepper", "mead"],
                                         ["apple", "apple", "silk", "cheese", "chicken"]]}


def after_setup(n=4, header=None):
    h = header or {"game": "sheriff", "players": n}
    t = Table(h)
    ps = Players(t)
    ps.perform(SETUP)
    assert t.news() == [SETUP]
    return t, ps


def skip_markets(t, ps):
    g = t.game
    while g.s[K.R_PHASE] == K.MARKET:
        ps.perform({"a": "market", "p": g.s[K.R_TURN], "discard": [], "take": []})
    t.news()


def loaded(bags):
    """4 seats, Sheriff 0, every market skipped; ``bags``: the cards of seats 1..3."""
    t, ps = after_setup(4)
    skip_markets(t, ps)
    for m in range(1, 4):
        ps.perform({"a": "load", "p": m, "cards": bags[m - 1]})
    assert len(t.news()) == 3 and t.game.s[K.R_PHASE] == K.DECLARE
    return t, ps


def declared(bags, goods):
    t, ps = loaded(bags)
    for m in range(1, 4):
        ps.perform({"a": "declare", "p": m, "good": goods[m - 1], "count": len(bags[m - 1])})
    assert len(t.news()) == 3 and t.game.s[K.R_PHASE] == K.INSPECT
    return t, ps


def test_the_seat_bytes_the_module_reads_are_the_rules_bag_and_declaration():
    t, ps = declared([["apple", "mead"], ["cheese"], ["silk", "chicken", "pepper"]], ["apple", "cheese", "chicken"])
    g = t.game
    out = []
    for m in range(1, 4):
        at = g._at(m)
        bag = [g.s[at + K.BAG + i] for i in range(g.s[at + K.BAG_N])]
        view = bytearray(g.PUBLIC_SIZE)
        g.public(view)
        assert bag == sv.bag(g, m) and g.s[at + K.DECL_GOOD] == view[K.PUB_REGS + K.PUB_SEAT * m + 4]
        out.append(bag)
    return out


def test_setup_taps_retaps_and_a_sixth_card():
    t = Table({"game": "sheriff", "players": 3})
    ps = Players(t)
    u = [ps.hand_card(c) for c in ("apple", "cheese", "chicken", "pepper", "mead", "apple")]
    for x in u[:5]:
        t.tap(t.pile_pad[0], x)
    t.tap(t.pile_pad[0], u[0])        # the same card again: nothing
    t.tap(t.pile_pad[0], u[5])        # a sixth card for pile 1
    got = t.news()
    assert got == [["rejected", "bad_setup", t.pile_pad[0]]], got
    # Pile 2 holds a bread, which a 3-player deck does not have: refused; tapped again, right.
    second = [ps.hand_card(c) for c in ("silk", "apple", "bread", "cheese", "chicken")]
    for x in second:
        t.tap(t.pile_pad[1], x)
    got += t.news()
    assert got[1:] == [["refused", "not_in_deck"]] and t.game.s[K.R_PHASE] == K.SETUP, got
    second[2] = ps.hand_card("apple")
    for x in u[:5] + second:
        t.tap(t.pile_pad[0] if x in u else t.pile_pad[1], x)
    got += t.news()
    assert got[2:] == [{"a": "setup", "p": 0, "piles": [["apple", "cheese", "chicken", "pepper", "mead"],
                                                       ["silk", "apple", "apple", "cheese", "chicken"]]}], got
    return got


def test_market_gestures_and_their_refusals():
    t, ps = after_setup(4)
    before = t.game.digest()
    hand = [ps.hand_card(c) for c in ("pepper", "apple", "bread", "cheese", "silk", "apple")]
    t.tap(t.pile_pad[0], ps.piles[0][-1])   # a take before anything is set aside
    t.put(t.stand[1], hand[0])               # seat 1 (on turn) sets aside a pepper ...
    t.put(t.stand[2], hand[1])               # ... seat 2's stand pad means nothing now
    t.tap(t.pile_pad[0], ps.piles[0][-2])   # not the top card of pile 1
    t.tap(t.pile_pad[1], ps.piles[1][-1])   # the top of pile 2 (chicken): a take
    t.tap(t.pile_pad[1], ps.piles[1][-1])   # shown twice: nothing
    t.tap(t.pile_pad[0], ps.piles[0][-1])   # a second take, one card set aside: too many
    got = t.news()
    assert got == [["rejected", "take_too_many", t.pile_pad[0]], ["rejected", "not_now", t.pile_pad[0]],
                   ["rejected", "take_too_many", t.pile_pad[0]]], got
    for x in hand[2:]:
        t.put(t.stand[1], x)
    t.take(t.stand[1], hand[0])
    t.tap(t.pile_pad[1], hand[0])           # the pepper goes onto pile 2 ...
    t.take(t.stand[1], hand[2])
    t.tap(t.pile_pad[0], hand[2])           # ... so the bread cannot go onto pile 1
    for x in hand[2:]:
        if x != hand[2]:
            t.take(t.stand[1], x)
        t.tap(t.pile_pad[1], x)
    t.take(t.stand[2], hand[1])
    t.tap(t.pile_pad[1], hand[1])           # seat 2's apple was never set aside: a take, not the top
    got += t.news()
    assert got[3:] == [["rejected", "bad_pile", t.pile_pad[0]], ["rejected", "not_now", t.pile_pad[1]]], got
    assert t.game.digest() == before
    # Five set aside, one taken: confirm.
    t.token(tokens.CONFIRM)
    got += t.news()
    assert got[5:] == [{"a": "market", "p": 1, "discard": ["pepper", "bread", "cheese", "silk", "apple"],
                        "take": [2], "to": 2}], got
    return got


def test_a_sixth_set_aside_card_and_an_empty_pile():
    t, ps = after_setup(3)
    hand = [ps.hand_card(c) for c in ("apple", "cheese", "cheese", "chicken", "apple", "mead")]
    for x in hand:
        t.put(t.stand[1], x)
    for i in range(5):                       # all five cards of pile 1
        t.tap(t.pile_pad[0], ps.piles[0].pop())
    for x in hand:
        t.take(t.stand[1], x)
        t.tap(t.pile_pad[1], x)
    t.token(tokens.CONFIRM)
    got = t.news()
    assert got == [["rejected", "too_many_cards", t.pile_pad[1]],
                   {"a": "market", "p": 1, "discard": ["apple", "cheese", "cheese", "chicken", "apple"],
                    "take": [1, 1, 1, 1, 1], "to": 2}], got
    # Seat 2: pile 1 is empty now; the pepper set aside is never placed: a skip.
    t.put(t.stand[2], ps.hand_card("pepper"))
    t.tap(t.pile_pad[0], ps.hand_card("apple"))
    t.token(tokens.CONFIRM)
    got += t.news()
    assert got[2:] == [["rejected", "empty_pile", t.pile_pad[0]], {"a": "market", "p": 2, "discard": [], "take": []}]
    return got


def test_a_refused_market_keeps_what_was_tapped():
    t, ps = after_setup(4)
    a = ps.hand_card("apple")
    t.put(t.stand[1], a)
    t.tap(t.pile_pad[0], ps.piles[0][-1])  # a take ...
    t.token(tokens.CONFIRM)                # ... without a set-aside card placed: refused
    t.take(t.stand[1], a)
    t.tap(t.pile_pad[0], a)                # place it, confirm again
    t.token(tokens.CONFIRM)
    got = t.news()
    assert got == [["refused", "take_too_many"], {"a": "market", "p": 1, "discard": ["apple"], "take": [1], "to": 1}]
    return got


def test_set_aside_cards_put_down_before_the_turn_count():
    t, ps = after_setup(4)
    early = ps.hand_card("silk")
    t.put(t.stand[2], early)               # seat 2 sets aside during seat 1's turn
    t.token(tokens.CONFIRM)                # seat 1 skips
    t.take(t.stand[2], early)
    t.tap(t.pile_pad[0], early)
    t.token(tokens.CONFIRM)
    got = t.news()
    assert got == [{"a": "market", "p": 1, "discard": [], "take": []},
                   {"a": "market", "p": 2, "discard": ["silk"], "take": [], "to": 1}], got
    return got


def test_clasps_load_bags_and_refuse_impossible_ones():
    t, ps = after_setup(4)
    six = [ps.hand_card(c) for c in ("apple", "apple", "cheese", "cheese", "chicken", "mead")]
    for x in six:
        t.put(t.dock[1], x)
    t.switch(1, True)                      # during the market: wrong phase
    t.switch(2, True)                      # an empty bag closing: nothing
    got = t.news()
    assert got == [["refused", "wrong_phase"]], got
    skip_markets(t, ps)
    before = t.game.digest()
    t.switch(1, False)
    t.switch(1, True)                      # six cards in the bag
    t.switch(2, True)                      # an empty bag in the load phase
    t.take(t.dock[1], six[5])
    ps.bags[1] = six[:5]
    t.put(t.dock[0], ps.hand_card("pepper"))
    t.switch(0, True)                      # the Sheriff's bag
    got += t.news()
    assert got[1:] == [["refused", "bag_size"], ["refused", "bag_size"], ["refused", "not_a_merchant"]], got
    assert t.game.s[K.R_PHASE] == K.LOAD and t.game.digest() == before
    t.switch(1, False)
    t.switch(1, True)
    t.switch(1, False)                     # lifted out of the dock and put back unchanged
    t.switch(1, True)
    t.take(t.dock[1], six[4])
    t.switch(1, False)
    t.switch(1, True)                      # a loaded bag changed
    got += t.news()
    assert got[4:] == [{"a": "load", "p": 1, "cards": ["apple", "apple", "cheese", "cheese", "chicken"]},
                       ["refused", "already_loaded"]], got
    return got


def test_hidden_cards_are_never_signalled():
    t, ps = after_setup(4)
    skip_markets(t, ps)
    cards = [ps.hand_card(c) for c in ("silk", "mead", "crossbow", "pepper")]
    t.put(t.dock[1], cards[0])             # loading, not closed yet
    t.put(t.stand[1], cards[1])            # outside the market
    t.put(t.draw, cards[2])
    t.put(t.command, cards[3])
    t.put(t.stand[0], token_uid(tokens.PASS))  # a token on a card pad is public: refused
    got = t.news()
    assert got == [["rejected", "not_now", t.stand[0]]], got
    return got


def test_declarations_in_either_order_and_out_of_phase_tokens():
    t, ps = loaded([["apple", "apple"], ["cheese"], ["mead", "chicken", "chicken"]])
    before = t.game.digest()
    t.token(tokens.PASS)                   # no inspection before every bag is declared
    t.token(tokens.SEAT0 + 2)
    t.token(tokens.CONFIRM)
    t.token(tokens.COLLECT)
    t.token(tokens.DECLARE0 + 0)           # seat 1 is on turn: apple ...
    t.token(tokens.DIGIT0 + 3)             # ... three: the bag holds two
    t.token(tokens.DIGIT0)                 # a leading zero
    got = t.news()
    assert got == [["rejected", "wrong_phase", t.command], ["rejected", "wrong_phase", t.command],
                   ["rejected", "not_now", t.command], ["rejected", "not_now", t.command],
                   ["refused", "count_mismatch"], ["rejected", "not_now", t.command]], got
    assert t.game.digest() == before
    t.token(tokens.DIGIT0 + 2)
    t.token(tokens.DECLARE0 + 0)           # two, apples
    t.token(tokens.DECLARE0 + 2)           # seat 2: bread ...
    t.token(tokens.DECLARE0 + 1)           # ... no, cheese
    t.token(tokens.DIGIT0 + 1)
    got += t.news()
    assert got[6:] == [{"a": "declare", "p": 1, "good": "apple", "count": 2},
                       {"a": "declare", "p": 2, "good": "cheese", "count": 1}], got
    t.token(tokens.DIGIT0 + 1)             # seat 3 changes the count before the good
    t.token(tokens.DIGIT0 + 3)
    t.token(tokens.DECLARE0 + 3)
    got += t.news()
    assert got[8:] == [{"a": "declare", "p": 3, "good": "chicken", "count": 3}], got
    t.token(tokens.DECLARE0 + 0)           # declaring is over
    t.token(tokens.DIGIT0 + 1)
    got += t.news()
    assert got[9:] == [["rejected", "wrong_phase", t.command], ["rejected", "not_now", t.command]], got
    return got


def test_cancel_drops_a_half_tapped_declaration_and_verdict_but_not_an_open_bag():
    bags = [["apple", "mead", "silk"], ["cheese", "cheese"], ["pepper", "chicken"]]
    t, ps = loaded(bags)
    t.token(tokens.DECLARE0 + 2)           # seat 1: bread ...
    t.token(tokens.CANCEL)                 # ... no
    t.token(tokens.DIGIT0 + 3)             # three of what? nothing yet
    t.token(tokens.DECLARE0 + 0)           # apples: now complete
    got = t.news()
    assert got == [{"a": "declare", "p": 1, "good": "apple", "count": 3}], got
    t, ps = declared(bags, ["apple", "cheese", "chicken"])
    t.token(tokens.SEAT0 + 2)              # the Sheriff names seat 2 ...
    t.token(tokens.CANCEL)                 # ... thinks again
    t.token(tokens.INSPECT)                # inspect whom? nobody named now
    t.token(tokens.SEAT0 + 1)              # seat 1: the bag lies, the wait is binding
    t.token(tokens.CANCEL)
    got += t.news()
    assert got[1:] == [["rejected", "not_now", t.command]], got
    assert t.mat.prompt() == ms.Gestures.PROMPTS.index("confiscate")
    return got


def test_pass_inspect_and_confiscation():
    bags = [["apple", "mead", "silk"], ["cheese", "cheese"], ["pepper", "chicken"]]
    t, ps = declared(bags, ["apple", "cheese", "chicken"])
    before = t.game.digest()
    stranger = ps.hand_card("mead")        # a mead from a hand, not from seat 1's bag
    t.token(tokens.SEAT0 + 0)              # the Sheriff names himself ...
    t.token(tokens.INSPECT)
    t.token(tokens.SEAT0 + 7)              # ... a seat not in the game
    t.token(tokens.PASS)
    t.token(tokens.INSPECT)                # seat 1: its bag lies (mead, silk)
    t.token(tokens.SEAT0 + 1)
    got = t.news()
    assert got == [["refused", "bad_target"], ["refused", "bad_target"]], got
    assert t.mat.prompt() == ms.Gestures.PROMPTS.index("confiscate") and t.game.digest() == before
    t.token(tokens.PASS)                   # the inspection is binding
    t.switch(1, False)
    apple, mead, silk = ps.bags[1]
    for u in ps.bags[1]:
        t.take(t.dock[1], u)
    t.tap(t.pile_pad[1], apple)            # the declared apple goes to the stand
    t.tap(t.pile_pad[1], stranger)         # not in that bag
    t.tap(t.pile_pad[1], silk)
    t.token(tokens.SEAT0 + 2)              # still binding
    t.tap(t.pile_pad[0], mead)             # the same pile for all
    t.tap(t.pile_pad[1], silk)             # tapped twice: nothing
    t.tap(t.pile_pad[1], mead)
    got += t.news()
    assert got[2:] == [["rejected", "not_now", t.command], ["rejected", "bad_order", t.pile_pad[1]],
                       ["rejected", "bad_order", t.pile_pad[1]], ["rejected", "not_now", t.command],
                       ["rejected", "bad_pile", t.pile_pad[0]],
                       {"a": "inspect", "p": 0, "target": 1, "to": 2, "order": ["silk", "mead"]}], got
    t.token(tokens.SEAT0 + 2)              # honest: inspected at once
    t.token(tokens.INSPECT)
    t.token(tokens.PASS)                   # seat 3 passes
    t.token(tokens.SEAT0 + 3)
    got += t.news()
    assert got[8:] == [{"a": "inspect", "p": 0, "target": 2}, {"a": "pass", "p": 0, "target": 3}], got
    assert t.game.s[K.R_ROUND] == 1 and t.game.s[K.R_PHASE] == K.MARKET
    return [got, t.game.summary()["gold"]]


def test_a_bag_the_host_resolves_ends_the_wait_for_its_cards():
    t, ps = declared([["mead"], ["cheese"], ["chicken"]], ["apple", "cheese", "chicken"])
    t.token(tokens.SEAT0 + 1)
    t.token(tokens.INSPECT)                # seat 1 lies: the mat waits for the mead
    t.host({"a": "pass", "p": 0, "target": 1, "bribe": {"gold": 5}})
    t.token(tokens.SEAT0 + 2)
    t.token(tokens.PASS)
    t.take(t.dock[1], ps.bags[1][0])
    t.tap(t.pile_pad[0], ps.bags[1][0])    # the mead no longer means anything
    got = t.news()
    assert got == [{"a": "pass", "p": 0, "target": 1, "bribe": {"gold": 5}}, {"a": "pass", "p": 0, "target": 2},
                   ["rejected", "not_now", t.pile_pad[0]]], got
    return got


def test_after_a_reboot_confiscated_cards_are_checked_by_kind():
    bags = [["mead", "mead", "apple"], ["cheese"], ["chicken"]]
    t, ps = declared(bags, ["cheese", "cheese", "chicken"])
    fresh = Table(None, t.game)             # the restored game, a new mat that never saw the bags
    fresh.token(tokens.SEAT0 + 1)
    fresh.token(tokens.INSPECT)
    mead1, mead2, apple = ps.bags[1]
    fresh.tap(fresh.pile_pad[0], ps.hand_card("silk"))
    fresh.tap(fresh.pile_pad[0], mead2)
    fresh.tap(fresh.pile_pad[0], ps.hand_card("mead"))  # any mead: the UIDs are not known
    fresh.tap(fresh.pile_pad[0], mead1)                 # a third mead
    fresh.tap(fresh.pile_pad[0], apple)
    got = fresh.news()
    assert got == [["rejected", "bad_order", fresh.pile_pad[0]], ["rejected", "bad_order", fresh.pile_pad[0]],
                   {"a": "inspect", "p": 0, "target": 1, "to": 1, "order": ["mead", "mead", "apple"]}], got
    return got


def test_two_bags_that_differ_only_inside_look_the_same_until_opened():
    """Outcome codes, LEDs' prompts and public records are equal for an honest and a lying bag
    until the Sheriff decides."""
    seen = []
    for bag in (["apple", "apple"], ["apple", "crossbow"]):
        t, ps = after_setup(3)
        skip_markets(t, ps)
        for u in [ps.hand_card(c) for c in bag]:
            t.put(t.dock[1], u)
            ps.bags[1].append(u)
        t.switch(1, True)
        ps.perform({"a": "load", "p": 2, "cards": ["cheese"]})
        ps.perform({"a": "declare", "p": 1, "good": "apple", "count": 2})
        ps.perform({"a": "declare", "p": 2, "good": "cheese", "count": 1})
        t.token(tokens.SEAT0 + 1)
        seen.append([[x for x in t.news() if isinstance(x, list)], t.public, t.prompts])
    assert seen[0] == seen[1], seen
    return seen[0]


def test_prompts_follow_the_game():
    t = Table({"game": "sheriff", "players": 3})
    t.prompts = [t.prompt()]
    ps = Players(t)
    ps.perform(SETUP)
    ps.perform({"a": "market", "p": 1, "discard": ["pepper"], "take": [], "to": 1})
    ps.perform({"a": "market", "p": 2, "discard": [], "take": []})
    ps.perform({"a": "load", "p": 2, "cards": ["mead"]})
    ps.perform({"a": "load", "p": 1, "cards": ["apple"]})
    ps.perform({"a": "declare", "p": 1, "good": "apple", "count": 1})
    ps.perform({"a": "declare", "p": 2, "good": "cheese", "count": 1})
    t.token(tokens.INSPECT)
    t.token(tokens.SEAT0 + 2)
    t.prompts.append(t.prompt())
    assert t.prompts == [["setup", 7, 12], ["market", 2, 255], ["market", 4, 255], ["load", 6, 255],
                         ["load", 2, 255], ["declare", 2, 15], ["declare", 4, 15], ["decide", 1, 15],
                         ["confiscate", 1, 12]], t.prompts
    return t.prompts


def test_game_over_lights_the_winners():
    t = Table({"game": "sheriff", "players": 3})
    playout = Playout({"game": "sheriff", "players": 3}, 7)
    for a in playout.run():
        t.host(a)
    assert t.game.over() and t.prompts[-1][0] == "over"
    winners = playout.game.summary()["winners"]
    mask = 0
    for w in winners:
        mask |= 1 << w
    assert t.prompts[-1][1] == mask
    return [winners, t.prompts[-1]]


def tap(reader, uid):
    return [("put", reader, uid), ("take", reader, uid)]


def test_sensor_to_rules_path_allocates_nothing():
    t = Table({"game": "sheriff", "players": 3})
    ps = Players(t)
    steps = []
    for w in range(2):
        for c in SETUP["piles"][w]:
            u = ps.hand_card(c)
            ps.piles[w].append(u)
            steps += tap(t.pile_pad[w], u)
    aside = ps.hand_card("mead")
    steps += [("put", t.stand[1], aside)] + tap(t.pile_pad[0], ps.piles[0][-1])
    steps += [("take", t.stand[1], aside)] + tap(t.pile_pad[1], aside) + tap(t.command, token_uid(tokens.CONFIRM))
    steps += tap(t.command, token_uid(tokens.CONFIRM))            # seat 2 skips
    bag1 = [ps.hand_card(c) for c in ("apple", "silk")]
    bag2 = [ps.hand_card("cheese")]
    steps += [("put", t.dock[1], u) for u in bag1] + [("clasp", t.clasp[1], True)]
    steps += [("put", t.dock[2], u) for u in bag2] + [("clasp", t.clasp[2], True)]
    steps += tap(t.stand[0], UNKNOWN_UID)                         # refused by the mat
    for w in (tokens.DECLARE0, tokens.DIGIT0 + 2, tokens.DIGIT0 + 1, tokens.DECLARE0 + 1):
        steps += tap(t.command, token_uid(w))
    steps += tap(t.command, token_uid(tokens.SEAT0 + 1)) + tap(t.command, token_uid(tokens.INSPECT))
    steps += [("clasp", t.clasp[1], False)] + [("take", t.dock[1], u) for u in bag1] + tap(t.pile_pad[0], bag1[1])
    steps += tap(t.command, token_uid(tokens.PASS)) + tap(t.command, token_uid(tokens.SEAT0 + 2))
    accepted, other = t.run_locked(t.schedule(steps))
    game = t.game
    # setup, 2 markets, 2 loads, 2 declarations, the inspection (silk confiscated), the pass.
    assert accepted == 9 and other == 1 and game.s[K.R_ROUND] == 1, [accepted, other]
    assert sv.pile(game, 1)[-1] == CODES.index("silk") and game.stand(0, CODES.index("apple")) == 0
    return [accepted, game.digest()]


def test_deputies_reveal_open_market_stances_and_loot_discard():
    """6 stations (docs/mat-sheriff.md 8b): seat tokens reveal the deputies, name the opening
    merchant and the acting deputy; a first stance opens nothing; confirm discards the loot."""
    t = Table({"game": "sheriff", "players": 6, "modules": ["deputies"]})
    for seat in (0, 1):
        t.token(tokens.SEAT0 + seat)               # deputy cards revealed
    t.token(tokens.CONFIRM)                        # nobody named to open the market
    t.token(tokens.SEAT0 + 1)                      # a deputy cannot open it
    t.token(tokens.SEAT0 + 2)
    t.token(tokens.CONFIRM)                        # seat 2 opens (skips), then 3, 4, 5
    for _ in range(3):
        t.token(tokens.CONFIRM)
    got = t.news()
    assert got == [{"a": "deputy", "p": 0}, {"a": "deputy", "p": 1}, ["rejected", "not_now", t.command],
                   ["rejected", "not_a_merchant", t.command]] + [
        {"a": "market", "p": m, "discard": [], "take": []} for m in (2, 3, 4, 5)], got
    for m in (2, 3, 4, 5):
        t.host({"a": "load", "p": m, "cards": ["apple"]})
    for m in (2, 3, 4, 5):
        t.host({"a": "declare", "p": m, "good": "apple", "count": 1})
    t.news()
    for d, m, verdict in ((0, 2, tokens.INSPECT), (1, 2, tokens.INSPECT), (0, 3, tokens.PASS)):
        t.token(tokens.SEAT0 + d)
        t.token(tokens.SEAT0 + m)
        t.token(verdict)
    t.token(tokens.SEAT0 + 4)                      # no deputy named: the verdict waits
    t.token(tokens.PASS)
    t.token(tokens.SEAT0 + 1)                      # now deputy 1 passes seat 4
    got = t.news()
    assert got == [{"a": "inspect", "p": 0, "target": 2}, {"a": "inspect", "p": 1, "target": 2},
                   {"a": "pass", "p": 0, "target": 3}, {"a": "pass", "p": 1, "target": 4}], got
    assert t.game.gold(0) == 49 and t.game.gold(1) == 49 and t.game.gold(2) == 52
    t.host({"a": "pass", "p": 1, "target": 3, "bribe": {"gold": 3}})
    t.host({"a": "pass", "p": 0, "target": 4})
    t.host({"a": "pass", "p": 0, "target": 5})
    t.host({"a": "pass", "p": 1, "target": 5})
    assert t.game.s[K.R_PHASE] == 7 and t.game.gold(0) == 50   # the odd coin waits in the chest
    t.token(tokens.CONFIRM)
    got = t.news()
    assert got[-1] == {"a": "loot", "p": 0, "split": "discard"} and t.game.s[K.R_PHASE] == 6, got
    return [got, t.prompts[-3:]]


# -- module cards (docs/mat-sheriff.md 8c) --------------------------------------------------
BM_PROFILE = {"format": 1, "name": "test values", "placeholders": True,
              "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}


def black_market_inspection():
    """4 seats, Sheriff 0, the Black Market: seat 1 smuggled 5 pepper and seat 2 four, both let
    through; seat 3's bag still waits, so the inspection goes on."""
    t, ps = after_setup(header={"game": "sheriff", "players": 4, "modules": ["black_market"], "profile": BM_PROFILE})
    skip_markets(t, ps)
    bags = [["pepper"] * 5, ["pepper"] * 4, ["apple"]]
    for m in range(1, 4):
        ps.perform({"a": "load", "p": m, "cards": bags[m - 1]})
    t.put(t.stand[1], module_uid("black_market_mead_top"))   # not in the inspection yet
    for m in range(1, 4):
        ps.perform({"a": "declare", "p": m, "good": "apple", "count": len(bags[m - 1])})
    for m in (1, 2):
        ps.perform({"a": "pass", "p": 0, "target": m})
    got = t.news()
    assert got[3] == ["rejected", "wrong_phase", t.stand[1]] and len(got) == 9, got
    t.take(t.stand[1], module_uid("black_market_mead_top"))
    assert t.game.stand(1, CODES.index("pepper")) == 5 and t.game.s[K.R_PHASE] == K.INSPECT
    return t, ps


def test_black_market_claims_and_their_refusals():
    t, ps = black_market_inspection()
    g = t.game
    pepper = CODES.index("pepper")
    top, lower = module_uid("black_market_pepper_top"), module_uid("black_market_pepper_lower")
    t.tap(t.stand[1], top)                                  # nothing shown on the stand pad
    shown = [ps.hand_card(c) for c in ("pepper", "pepper", "mead")]
    for u in shown:
        t.put(t.stand[1], u)
    t.tap(t.stand[1], top)                                  # two pepper and a mead
    third = ps.hand_card("pepper")
    t.put(t.stand[1], third)
    t.tap(t.stand[1], lower)                                # the top card goes first
    t.tap(t.stand[0], top)                                  # the Sheriff may claim too: nothing shown
    t.tap(t.pile_pad[0], top)                               # not a stand pad
    digest = g.digest()
    got = t.news()
    assert got == [["rejected", "need_three", t.stand[1]], ["rejected", "need_three", t.stand[1]],
                   ["rejected", "not_now", t.stand[1]], ["rejected", "need_three", t.stand[0]],
                   ["rejected", "not_now", t.pile_pad[0]]], got
    t.tap(t.stand[1], top)                                  # seat 1 claims the top pepper card
    for u in shown + [third]:
        t.take(t.stand[1], u)
    assert t.news() == [{"a": "claim", "p": 1, "good": "pepper"}] and g.digest() != digest
    assert g.black_market(1) == [(pepper, 12)] and g.stand(1, pepper) == 2
    cards = [ps.hand_card("pepper") for _ in range(3)]
    for u in cards:
        t.put(t.stand[2], u)
    t.tap(t.stand[2], top)                                  # already claimed
    t.tap(t.stand[2], lower)                                # seat 2 gets the lower card
    for u in cards:
        t.take(t.stand[2], u)
        t.put(t.stand[1], u)                                # seat 1 has 2 pepper left, shows 3
    t.tap(t.stand[1], lower)                                # pepper exhausted
    for u in cards:
        t.take(t.stand[1], u)
    meads = [ps.hand_card("mead") for _ in range(3)]
    for u in meads:
        t.put(t.stand[3], u)                                # shown, but not on seat 3's stand
    t.tap(t.stand[3], module_uid("black_market_mead_top"))
    got = t.news()
    assert got == [["rejected", "not_now", t.stand[2]], {"a": "claim", "p": 2, "good": "pepper"},
                   ["rejected", "market_exhausted", t.stand[1]], ["refused", "need_three"]], got
    assert g.black_market(2) == [(pepper, 10)] and g.stand(2, pepper) == 1 and g.black_market_left(0) == 0
    return [got, g.digest()]


def test_module_cards_in_a_base_game_and_with_the_black_market_off():
    t, ps = after_setup(4)
    t.tap(t.stand[1], module_uid("black_market_silk_top"))
    t6 = Table({"game": "sheriff", "players": 6, "modules": ["deputies"]})
    t6.tap(t6.stand[2], module_uid("black_market_silk_top"))
    got = [t.news(), t6.news()]
    assert got == [[["rejected", "not_now", t.stand[1]]], [["rejected", "module_off", t6.stand[2]]]], got
    return got


def test_a_black_market_claim_allocates_nothing():
    t, ps = black_market_inspection()
    cards = [ps.hand_card("pepper") for _ in range(3)]
    top = module_uid("black_market_pepper_top")
    steps = [("put", t.stand[1], u) for u in cards] + tap(t.stand[2], top) + tap(t.stand[1], top)
    accepted, other = t.run_locked(t.schedule(steps))
    assert [accepted, other] == [1, 1] and t.game.black_market(1) == [(CODES.index("pepper"), 12)]
    return [accepted, other, t.game.digest()]


def test_module_card_numbers_are_the_catalogues():
    from firmware import mat_sheriff_cards as mc
    from shared_rules.catalogue import SHERIFF_MODULE_OF
    starts = [mc.BM_CARDS, mc.ORDER0, mc.MERRY0, len(SHERIFF_MODULE_CARDS)]
    assert [[m[0], m[1], m[1] + m[2]] for m in SHERIFF_MODULE_OF] == [
        ["black_market", 0, mc.LAW0], ["laws", mc.LAW0, starts[1]], ["special_orders", mc.ORDER0, starts[2]],
        ["merry_men", mc.MERRY0, starts[3]]]
    return starts


def cards_game():
    """4 seats, Sheriff 0, laws + special orders + Merry Men (the rules tests' profile)."""
    from dual_sheriff_cards_rules import PROFILE
    return Table({"game": "sheriff", "players": 4, "modules": ["laws", "special_orders", "merry_men"],
                  "profile": PROFILE})


def law(i):
    return module_uid("law_%02d" % (i + 1))


def order(i):
    return module_uid("special_order_%02d" % (i + 1))


def merry(i):
    return module_uid("merry_man_%02d" % (i + 1))


def test_orders_turned_up_laws_chosen_and_merry_men_drawn():
    t = cards_game()
    ps = Players(t)
    for o in (0, 4, 8, 12, 1):
        t.tap(t.command, order(o))                 # the fifth: four are up already
    t.tap(t.stand[1], order(0))                    # a claim outside the inspection
    ps.perform(SETUP)
    got = t.news()
    assert got == [{"a": "order_up", "p": 0, "order": o} for o in (0, 4, 8, 12)] + [
        ["refused", "orders_full"], ["rejected", "wrong_phase", t.stand[1]], SETUP], got
    assert t.game.s[K.R_PHASE] == 8 and t.prompts[-1] == ["laws", 1, t.command], t.prompts[-1]
    t.tap(t.stand[0], law(2))                      # a law on a stand pad
    t.tap(t.command, law(2))
    t.tap(t.command, law(2))                       # tapped twice: counts once
    t.tap(t.command, law(0))
    t.tap(t.command, law(7))                       # a third law kept
    t.tap(t.draw, law(4))                          # put back: the choice is made
    t.tap(t.command, law(9))                       # the laws phase is over
    got = t.news()
    assert got == [["rejected", "not_now", t.stand[0]], ["rejected", "keep_count", t.command],
                   {"a": "law", "p": 0, "keep": [2, 0], "bottom": 4}, ["rejected", "wrong_phase", t.command]], got
    for seat, keep, bottom in ((1, 4, 7), (2, 0, 9)):
        t.tap(t.stand[seat], merry(keep))          # kept, then put back
        t.tap(t.stand[seat], merry(bottom))
    t.tap(t.stand[1], merry(11))                   # seat 1 owes no draw any more ...
    t.tap(t.stand[1], merry(12))
    t.tap(t.pile_pad[0], merry(13))                # Merry Men are never refused by the mat
    t.tap(t.command, merry(13))
    got = t.news()
    assert got == [{"a": "merry", "p": 1, "keep": 4, "bottom": 7}, {"a": "merry", "p": 2, "keep": 0, "bottom": 9},
                   ["refused", "no_draw_owed"]], got
    assert t.public[-2:] == [{"a": "merry", "p": 1}, {"a": "merry", "p": 2}], t.public[-2:]
    return [got, t.game.digest()]


def test_special_order_claims_and_merry_men_in_bags():
    t = cards_game()
    ps = Players(t)
    for o in (0, 4, 8, 12):                        # apple and pepper orders
        t.tap(t.command, order(o))
    ps.perform(SETUP)
    t.tap(t.command, law(2))
    t.tap(t.draw, law(4))
    t.tap(t.command, law(0))                       # 2 kept: a law action needs both first
    t.tap(t.command, law(1))
    t.tap(t.draw, law(5))
    for seat, keep, bottom in ((1, 4, 7), (2, 0, 9)):
        t.tap(t.stand[seat], merry(keep))
        t.tap(t.stand[seat], merry(bottom))
    news = t.news()
    assert news[5] == ["refused", "keep_count"] and news[6]["a"] == "law" and len(news) == 9, news
    skip_markets(t, ps)
    bags = {1: ["pepper", "apple"], 2: ["apple", "apple"], 3: ["cheese"]}
    for m in (1, 2, 3):
        uids = [ps.hand_card(c) for c in bags[m]]
        for u in uids:
            t.put(t.dock[m], u)
        if m == 1:
            t.put(t.dock[1], merry(4))             # seat 1's Merry Man travels in the bag
        ps.bags[m] = uids
        t.switch(m, True)
    got = t.news()
    assert got[0] == {"a": "load", "p": 1, "cards": ["pepper", "apple"], "merry": 1}, got
    assert t.public[-3] == {"a": "load", "p": 1}, t.public[-3]
    for m, good, n in ((1, "apple", 3), (2, "apple", 2), (3, "cheese", 1)):
        ps.perform({"a": "declare", "p": m, "good": good, "count": n})
    t.news()
    t.tap(t.stand[1], order(1))                    # not face up
    t.tap(t.stand[1], order(0))
    t.tap(t.stand[1], order(4))
    t.tap(t.stand[1], order(8))                    # a bag fills at most two orders
    t.tap(t.stand[0], order(0))                    # the Sheriff has no bag
    ps.decide(1, tokens.PASS)                      # two orders, one pepper in the bag
    t.tap(t.stand[1], order(0))
    ps.decide(1, tokens.PASS)                      # one order: filled
    got = t.news()
    assert got == [["rejected", "order_not_up", t.stand[1]], ["rejected", "too_many_cards", t.stand[1]],
                   ["rejected", "not_a_merchant", t.stand[0]], ["refused", "goods_missing"],
                   {"a": "pass", "p": 0, "target": 1, "orders": [0]}], got
    ps.empty_bag(1, [])
    t.take(t.dock[1], merry(4))                    # revealed, to the bottom of the deck
    t.tap(t.stand[2], order(4))
    ps.perform({"a": "inspect", "p": 0, "target": 2})   # an honest bag, opened: the claim lapses
    t.tap(t.stand[2], order(4))
    t.tap(t.stand[1], order(4))                    # seat 1's bag went through already
    t.tap(t.stand[1], merry(4))                    # smuggled: seat 1 draws again at once, two new cards:
    t.tap(t.stand[1], merry(10))                   # not the one just put under the deck
    t.tap(t.stand[1], merry(10))
    t.tap(t.stand[1], merry(11))
    got = t.news()
    assert got == [{"a": "inspect", "p": 0, "target": 2}, ["rejected", "bag_opened", t.stand[2]],
                   ["rejected", "already_resolved", t.stand[1]], ["refused", "not_on_top"],
                   {"a": "merry", "p": 1, "keep": 10, "bottom": 11}], got
    assert t.game.order_held(1) == [0]
    return [got, t.game.digest()]


def test_module_card_gestures_allocate_nothing():
    t = cards_game()
    steps = []
    for o in (0, 4, 8, 12):
        steps += tap(t.command, order(o))
    accepted, other = t.run_locked(t.schedule(steps))
    ps = Players(t)
    ps.perform(SETUP)
    steps = tap(t.command, law(2)) + tap(t.command, law(0)) + tap(t.draw, law(4))
    steps += tap(t.stand[1], merry(4)) + tap(t.stand[1], merry(7)) + tap(t.pile_pad[0], merry(3))
    steps += tap(t.stand[2], order(0))
    more = t.run_locked(t.schedule(steps))
    # 4 orders up; the law; the Merry Man draw; the claim outside the inspection refused.
    assert [accepted, other] == [4, 0] and more == [2, 1], [accepted, other, more]
    skip_markets(t, ps)
    bags = [[ps.hand_card(c) for c in cards] for cards in (("pepper", "apple"), ("cheese",), ("cheese",))]
    steps = [("put", t.dock[1], merry(4))]
    for m in (1, 2, 3):
        steps += [("put", t.dock[m], u) for u in bags[m - 1]] + [("clasp", t.clasp[m], True)]
    for good, n in ((0, 3), (1, 1), (1, 1)):
        steps += tap(t.command, token_uid(tokens.DECLARE0 + good)) + tap(t.command, token_uid(tokens.DIGIT0 + n))
    steps += tap(t.stand[1], order(0)) + tap(t.command, token_uid(tokens.SEAT0 + 1)) + tap(t.command, token_uid(tokens.PASS))
    last = t.run_locked(t.schedule(steps))
    # 3 loads (seat 1's with its Merry Man), 3 declarations, the pass filling order 0.
    assert last == [7, 0] and t.game.order_held(1) == [0], last
    return [more, last, t.game.digest()]


def test_with_deputies_either_deputy_logs_the_laws():
    from dual_sheriff_cards_rules import PROFILE
    t = Table({"game": "sheriff", "players": 6, "modules": ["deputies", "laws"], "profile": PROFILE})
    for seat in (0, 1):
        t.token(tokens.SEAT0 + seat)               # deputy cards revealed: the laws phase
    assert t.game.s[K.R_PHASE] == 8 and t.prompts[-1] == ["laws", 3, t.command], t.prompts[-1]
    t.token(tokens.SEAT0 + 4)                      # a merchant cannot log the laws
    t.token(tokens.SEAT0 + 1)                      # the second deputy logs them
    t.tap(t.command, law(3))
    t.tap(t.command, law(6))
    t.tap(t.draw, law(8))
    got = t.news()
    assert got == [{"a": "deputy", "p": 0}, {"a": "deputy", "p": 1}, ["rejected", "not_the_sheriff", t.command],
                   {"a": "law", "p": 1, "keep": [3, 6], "bottom": 8}], got
    return got


def merry_men_round(keep, bottom, stray):
    """Orders up, setup, laws, seat 1 draws ``keep``/``bottom`` and taps ``stray`` around the
    mat, markets, seat 1 loads its Merry Man with an apple: the public records, prompts and
    mat refusals."""
    t = cards_game()
    ps = Players(t)
    for o in (0, 4, 8, 12):
        t.tap(t.command, order(o))
    ps.perform(SETUP)
    t.tap(t.command, law(2))
    t.tap(t.command, law(0))
    t.tap(t.draw, law(4))
    t.tap(t.stand[1], merry(keep))
    t.tap(t.stand[1], merry(bottom))
    for pad in (t.pile_pad[0], t.pile_pad[1], t.command, t.draw, t.dock[2], t.stand[3], t.stand[1]):
        t.tap(pad, merry(stray))
    skip_markets(t, ps)
    t.put(t.dock[1], ps.hand_card("apple"))
    t.put(t.dock[1], merry(keep))
    t.switch(1, True)
    for m in (2, 3):
        ps.perform({"a": "load", "p": m, "cards": ["cheese"]})
    ps.perform({"a": "declare", "p": 1, "good": "apple", "count": 2})
    assert t.game.s[K.R_PHASE] == K.DECLARE and t.public[-4:] == [
        {"a": "load", "p": 1}, {"a": "load", "p": 2}, {"a": "load", "p": 3}, {"a": "declare", "p": 1, "good": "apple",
                                                                              "count": 2}], t.public[-4:]
    mat = [x for x in t.news() if isinstance(x, list)]
    return [t.public, t.prompts, mat]


def test_which_merry_man_is_drawn_held_or_bagged_never_shows():
    a = merry_men_round(4, 7, 13)
    b = merry_men_round(16, 2, 5)
    assert a == b and a[2] == [], a   # no Merry Man ever refused
    return a
