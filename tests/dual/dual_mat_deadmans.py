"""Dead Man's Draw through the mat, on both interpreters: seeded games performed as the gestures
of docs/mat-deadmans.md on a simulated mat (cards tapped on pads, scanned into Presence, then Mat,
then the rules) give exactly the playout's actions and end in its state; refused gestures are
signalled with a clear reason and change nothing; the whole sensor-to-rules path allocates
nothing."""
import padsim
from padsim import token_uid, UNKNOWN_UID
from shared_rules.core import deck
from shared_rules.core import tokens
from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.catalogue import DMD_CODES as CODES, DMD_TRAITS as TRAITS
from host.sim.playout import Playout

HAND = 99  # a card in a player's hand, on its way to where the rules send it


def card_uid(code, number):
    return bytes((4, 0xD3, code, number, 0x21, 0x80 | number, 0x5B))


def trait_uid(code, number):
    return bytes((4, 0xD7, code, number, 0x42, 0x40 | number, 0x5C))


SKULL_UID = bytes((4, 0x5C, 0, 0, 0x11, 0x80, 0x3E))


def pieces():
    """Two decks of cards and traits, one Skull disc."""
    recs = [{"uid": deck.uid_hex(SKULL_UID), "game": "skull", "kind": "disc", "code": "flower", "seat": 0}]
    for number in range(2):
        for c in range(K.NCODES):
            recs.append({"uid": deck.uid_hex(card_uid(c, number)), "game": "deadmans", "kind": "card",
                         "code": CODES[c], "deck": number})
        for c in range(len(TRAITS)):
            recs.append({"uid": deck.uid_hex(trait_uid(c, number)), "game": "deadmans", "kind": "trait",
                         "code": TRAITS[c], "deck": number})
    return recs


def header(players, **opts):
    h = {"game": "deadmans", "players": players}
    if players > 4:
        h["decks"] = 2
    h.update(opts)
    return h


class Table(padsim.Table):
    """The mat with Dead Man's Draw's zones. A changed pad alone is polled until Presence
    reports the change; ``steps`` records each change for the locked replay."""

    def __init__(self, h):
        super().__init__(h, padsim.registry("deadmans", pieces))
        z = self.zones
        self.bank = z["bank"]
        self.draw = z["draw"]
        self.play = z["play"]
        self.discard = z["discard"]
        self.steps = []

    def changed(self, reader):
        self.steps.append((reader, list(self.on[reader])))
        for _ in range(self.presence.misses + 1):
            self.scan(reader)


class Players:
    """Where every card lies, and the gestures of docs/mat-deadmans.md for each action. After an
    action the cards go where the rules sent them (a bust to the discard pile, a collect to the
    bank ...) without touching a pad."""

    def __init__(self, table):
        self.t = table
        s = table.game.s
        self.decks = s[K.R_DECKS]
        self.where = {}
        for c in range(K.NCODES):
            for k in range(self.decks):
                self.where[card_uid(c, k)] = s[K.LOC + c + K.NCODES * k]
        self.top = []       # tags an Oracle saw on top of the draw pile, top first
        self.traits = []    # trait tags in front of the players
        self.used = {}
        self.collects = 0

    def note(self, what):
        self.used[what] = self.used.get(what, 0) + 1

    def at(self, code, loc, avoid=()):
        """A tag of that card lying at ``loc`` (not one of ``avoid``)."""
        for k in range(self.decks):
            u = card_uid(CODES.index(code), k)
            if self.where[u] == loc and u not in avoid:
                return u
        raise AssertionError("no %s at %d" % (code, loc))

    def several(self, codes, loc):
        out = []
        for code in codes:
            out.append(self.at(code, loc, out))
        return out

    def perform(self, a):
        t = self.t
        name = a["a"]
        p = a["p"]
        if name == "trait":
            u = self.trait_tag(a["trait"])
            t.tap(t.bank[p], u)
            if "target" in a:
                t.token(tokens.SEAT0 + a["target"])
        elif name == "draw":
            if self.top and self.top[0][2] == CODES.index(a["card"]):
                u = self.top.pop(0)
            else:
                u = self.at(a["card"], K.DRAW, self.top)
            self.play_card(u)
        elif name == "collect":
            self.collect(p)
        elif name == "hook":
            self.play_card(self.at(a["card"], K.BANK + p))
        elif name == "sword" or name == "cannon":
            u = self.at(a["card"], K.BANK + a["target"])
            if self.ambiguous(a):
                t.token(tokens.SEAT0 + a["target"])
                self.note("named")
            self.where[u] = HAND
            t.tap(t.play if name == "sword" else t.discard, u)
        elif name == "map":
            self.map(a)
        elif name == "oracle":
            peek = a["peek"] if isinstance(a["peek"], list) else [a["peek"]]
            tags = self.top[:len(peek)]
            tags += self.several(peek[len(tags):], K.DRAW)
            for u in tags:
                t.tap(t.draw, u)
            self.top = tags
        elif name == "bonus":
            self.bonus(a)
        else:
            raise AssertionError(name)

    def trait_tag(self, name):
        for k in range(2):
            u = trait_uid(TRAITS.index(name), k)
            if u not in self.traits:
                self.traits.append(u)
                return u
        raise AssertionError(name)

    def play_card(self, u):
        self.where[u] = HAND
        self.t.tap(self.t.play, u)

    def collect(self, p):
        """Every other collect by tapping the play area's cards on the bank pad, one after the
        other (only the first counts), else with the collect token."""
        t = self.t
        cards = [u for u in self.where if self.where[u] == K.PLAY]
        self.collects += 1
        if cards and self.collects % 2:
            cards.sort()
            for u in cards[:2]:
                t.tap(t.bank[p], u)
            self.note("collect_by_card")
        else:
            t.token(tokens.COLLECT)

    def map(self, a):
        t = self.t
        if "reveal" in a:
            shown = self.several(a["reveal"], K.DISCARD)
            for u in shown:
                t.tap(t.discard, u)
            u = shown[a["reveal"].index(a["pick"])]
        else:
            u = self.at(a["pick"], K.DISCARD)
            self.note("navigator")
        self.play_card(u)

    def bonus(self, a):
        t = self.t
        src = K.DISCARD if "target" not in a else K.BANK + a["target"]
        tags = self.several(a["cards"], src)
        if "target" in a:
            self.note("plunderer")
            s = t.game.s
            first = CODES.index(a["cards"][0])
            others = [o for o in range(s[K.R_SEATS])
                      if o not in (a["p"], a["target"]) and d.top(s, o, first // K.VALUES) == first]
            if others:
                t.token(tokens.SEAT0 + a["target"])
                self.note("named")
        for u in tags:
            self.where[u] = HAND
            t.tap(t.bank[a["p"]], u)

    def ambiguous(self, a):
        """Another seat from which the rules would accept the same card."""
        g = self.t.game
        rec = bytearray(128)
        for other in range(g.seats()):
            if other != a["target"]:
                b = dict(a)
                b["target"] = other
                g.VOCAB.encode(b, rec)
                if g.check(rec) == 0:
                    return True
        return False

    def settle(self):
        """Cards go where the rules put them; a tag keeps its place if the rules have a copy
        of its card there (two decks: identity is kept wherever the rules allow)."""
        s = self.t.game.s
        for c in range(K.NCODES):
            locs = [s[K.LOC + c + K.NCODES * k] for k in range(self.decks)]
            loose = []
            for k in range(self.decks):
                u = card_uid(c, k)
                if self.where[u] in locs:
                    locs.remove(self.where[u])
                else:
                    loose.append(u)
            for u in loose:
                self.where[u] = locs.pop(0)


def play_through_the_mat(h, seed, used, record=False):
    playout = Playout(h, seed)
    actions = playout.run()
    table = Table(h)
    players = Players(table)
    for a in actions:
        players.perform(a)
        got = table.news()
        assert got == [a], (a, got)
        players.settle()
        used[a["a"]] = used.get(a["a"], 0) + 1
    for k in players.used:
        used[k] = used.get(k, 0) + players.used[k]
    assert table.game.digest() == playout.game.digest()
    assert table.game.over()
    if record:
        return table.steps, playout.game.digest()
    return [h["players"], seed, len(actions), len(table.steps), table.game.digest()]


GAMES = ((2, 1), (2, 8), (3, 1), (4, 5), (4, 12), (6, 10), (8, 2), (8, 3))


def test_seeded_games_played_through_the_mat_end_in_the_playout_state():
    used = {}
    out = [play_through_the_mat(header(n), seed, used) for n, seed in GAMES]
    # Between them: every action, Navigator, Mystic, Plunderer, Davy Jones with a target, both
    # ways to collect, and seat tokens naming a target two decks left ambiguous.
    for kind in ("trait", "draw", "collect", "hook", "cannon", "sword", "map", "oracle", "bonus",
                 "navigator", "plunderer", "collect_by_card", "named"):
        assert used.get(kind), (kind, used)
    return [out, sorted(used.items())]


# -- scripted situations ---------------------------------------------------------------------
def seated(n=2, traits=()):
    """A fresh table; ``traits``: (seat, name[, target]) tapped before the first draw."""
    t = Table(header(n))
    ps = Players(t)
    for tr in traits:
        a = {"a": "trait", "p": tr[0], "trait": tr[1]}
        if len(tr) > 2:
            a["target"] = tr[2]
        run(ps, [a])
    return t, ps


def run(ps, actions):
    """Perform actions that must all be accepted as they are."""
    for a in actions:
        ps.perform(a)
        got = ps.t.news()
        assert got == [a], (a, got)
        ps.settle()


def draw(p, card):
    return {"a": "draw", "p": p, "card": card}


def collect(p):
    return {"a": "collect", "p": p}


def test_pieces_on_the_wrong_pad_are_refused_and_change_nothing():
    t, ps = seated(2)
    run(ps, [draw(0, "anchor5")])
    before = t.game.digest()
    t.tap(t.play, trait_uid(K.MYSTIC, 0))           # a trait card on the play pad
    t.tap(t.command, card_uid(10, 0))               # a card on the command pad
    t.tap(t.bank[1], token_uid(tokens.COLLECT))     # a token on a bank pad
    t.tap(0, card_uid(10, 0))                       # pad 0 has no zone with 2 seats
    t.tap(t.play, UNKNOWN_UID)
    t.tap(t.discard, SKULL_UID)
    t.tap(t.command, token_uid(tokens.DIGIT0 + 3))  # no numbers in Dead Man's Draw
    t.tap(t.command, token_uid(tokens.PASS))
    t.tap(t.command, token_uid(tokens.SEAT0 + 1))   # no target to name now
    # The same card read on two pads at once: the second pad refuses it.
    u = card_uid(CODES.index("hook4"), 0)
    t.put(t.bank[0], u)
    t.put(t.bank[1], u)
    t.take(t.bank[0], u)
    t.take(t.bank[1], u)
    got = t.news()
    assert got == [["rejected", "not_now", t.play], ["rejected", "not_now", t.command],
                   ["rejected", "not_now", t.bank[1]], ["rejected", "not_now", 0],
                   ["rejected", "unknown_tag", t.play], ["rejected", "foreign_tag", t.discard],
                   ["rejected", "not_now", t.command], ["rejected", "not_now", t.command],
                   ["rejected", "not_now", t.command],
                   ["refused", "wrong_choice"], ["rejected", "duplicate_tag", t.bank[1]]], got
    # hook4 on seat 0's bank pad meant a bonus card: no bonus is due (the rules say so).
    assert t.game.digest() == before
    return got


def test_a_card_must_come_from_the_draw_pile():
    t, ps = seated(5)  # two decks: two tags per card
    run(ps, [draw(0, "anchor5"), collect(0)])
    drawn = card_uid(CODES.index("anchor5"), 0)
    before = t.game.digest()
    # Seat 1 taps seat 0's anchor5 as if drawn: the rules alone would take it (the other copy
    # is still in the draw pile), the mat knows this tag was drawn already.
    rec = bytearray(128)
    d.GAME.VOCAB.encode(draw(1, "anchor5"), rec)
    assert t.game.check(rec) == 0
    t.tap(t.play, drawn)
    t.tap(t.play, card_uid(0, 1))                   # anchor2 starts in the discard pile
    t.tap(t.draw, card_uid(CODES.index("key4"), 0))  # the draw pad: only an Oracle's peek
    got = t.news()
    assert got == [["rejected", "not_in_draw_pile", t.play], ["refused", "not_in_draw_pile"],
                   ["refused", "wrong_choice"]], got
    assert t.game.digest() == before
    # The other copy is in the draw pile: drawn.
    t.tap(t.play, card_uid(CODES.index("anchor5"), 1))
    got += t.news()
    assert got[3:] == [draw(1, "anchor5")], got
    return got


def test_out_of_turn_and_out_of_phase_taps_are_refused_by_the_rules():
    t, ps = seated(3, [(0, "miser")])
    before = t.game.digest()
    t.token(tokens.COLLECT)                         # before the first draw
    t.tap(t.bank[1], trait_uid(K.MISER, 0))          # seat 1 taps seat 0's (single) Miser
    t.tap(t.bank[0], trait_uid(K.MYSTIC, 0))         # a second trait for seat 0
    got = t.news()
    assert got == [["refused", "wrong_phase"], ["refused", "trait_taken"], ["refused", "trait_chosen"]], got
    assert t.game.digest() == before
    run(ps, [draw(0, "sword4")])  # nobody banks anything: the Sword asks nothing
    before = t.game.digest()
    t.tap(t.bank[1], card_uid(CODES.index("sword4"), 0))   # seat 1 collects seat 0's play area
    t.tap(t.bank[2], trait_uid(K.MYSTIC, 0))                  # a trait after the first draw
    t.tap(t.discard, card_uid(CODES.index("anchor5"), 0))  # a Cannon nobody placed
    got += t.news()
    assert got[3:] == [["refused", "not_your_turn"], ["refused", "wrong_phase"],
                       ["refused", "wrong_choice"]], got
    assert t.game.digest() == before
    run(ps, [collect(0)])
    t.token(tokens.COLLECT)                         # seat 1 has not drawn yet
    got += t.news()
    assert got[6:] == [["refused", "must_draw"]], got
    return got


def test_a_map_reveals_on_the_discard_pad_and_picks_on_the_play_pad():
    t, ps = seated(2)
    run(ps, [draw(0, "map3")])
    assert t.prompt() == ["reveal", 1, t.discard]
    u = [card_uid(CODES.index(c), 0) for c in ("anchor2", "cannon2", "hook2", "key2", "kraken5")]
    before = t.game.digest()
    t.tap(t.discard, u[0])
    t.tap(t.discard, u[0])        # the same card again: still one reveal
    t.tap(t.discard, u[4])        # kraken5 lies in the draw pile
    t.tap(t.play, u[0])           # a pick before the three reveals
    t.tap(t.discard, u[1])
    t.tap(t.discard, u[2])
    assert t.prompt() == ["pick", 1, t.play]
    t.tap(t.discard, u[3])        # a fourth reveal
    t.tap(t.play, u[3])           # a pick that was not revealed
    got = t.news()
    assert got == [["rejected", "not_in_discard", t.discard], ["refused", "wrong_reveal_count"],
                   ["rejected", "wrong_reveal_count", t.discard], ["refused", "pick_not_revealed"]], got
    assert t.game.digest() == before
    t.tap(t.play, u[1])
    got += t.news()
    assert got[4:] == [{"a": "map", "p": 0, "reveal": ["anchor2", "cannon2", "hook2"],
                        "pick": "cannon2"}], got
    return got


def test_navigator_picks_and_mystic_peeks_three():
    t, ps = seated(2, [(0, "navigator"), (1, "mystic")])
    run(ps, [draw(0, "map4")])
    anchor2 = card_uid(0, 0)
    t.tap(t.discard, anchor2)     # Navigator reveals nothing
    t.tap(t.play, anchor2)
    got = t.news()
    assert got == [["rejected", "reveal_not_wanted", t.discard], {"a": "map", "p": 0, "pick": "anchor2"}], got
    ps.settle()
    run(ps, [collect(0), draw(1, "oracle5")])
    assert t.prompt() == ["oracle", 2, t.draw]
    peek = [card_uid(CODES.index(c), 0) for c in ("kraken6", "key5", "anchor5")]
    t.tap(t.draw, peek[0])
    t.tap(t.draw, peek[0])         # again: still one
    t.tap(t.draw, anchor2)         # in seat 0's play area... now its bank: not in the draw pile
    t.tap(t.draw, peek[1])
    t.tap(t.draw, peek[2])
    got += t.news()
    assert got[2:] == [["rejected", "not_in_draw_pile", t.draw],
                       {"a": "oracle", "p": 1, "peek": ["kraken6", "key5", "anchor5"]}], got
    t.tap(t.play, card_uid(CODES.index("key5"), 0))  # the top card is kraken6
    t.tap(t.play, peek[0])
    got += t.news()
    assert got[4:] == [["refused", "not_peeked_card"], draw(1, "kraken6")], got
    return got


def test_collect_by_card_then_a_bonus_from_the_discard_pile():
    t, ps = seated(2)
    run(ps, [draw(0, "key3"), draw(0, "chest3")])
    key = card_uid(CODES.index("key3"), 0)
    chest = card_uid(CODES.index("chest3"), 0)
    t.tap(t.bank[1], key)          # seat 1's bank pad: not seat 1's turn
    t.tap(t.bank[0], key)          # collect
    t.tap(t.bank[0], chest)        # the other collected card: nothing more
    assert t.prompt() == ["bonus", 1, 255]
    bonus = [card_uid(c, 0) for c in (0, 6, 18)]  # anchor2, cannon2, hook2
    t.tap(t.bank[0], bonus[0])
    t.tap(t.bank[0], bonus[0])     # the same card again
    t.tap(t.bank[0], card_uid(CODES.index("kraken5"), 0))  # from the draw pile
    t.tap(t.bank[1], bonus[1])     # seat 1 is not owed a bonus
    t.tap(t.bank[0], bonus[1])
    got = t.news()
    assert got == [["refused", "not_your_turn"], collect(0), ["rejected", "not_in_discard", t.bank[0]],
                   ["refused", "not_your_turn"], {"a": "bonus", "p": 0, "cards": ["anchor2", "cannon2"]}], got
    assert t.game.s[K.R_TURN] == 1 and d.bank_size(t.game.s, 0) == 4
    return got


def test_two_decks_a_card_on_two_stacks_needs_a_seat_token():
    t, ps = seated(5)
    run(ps, [draw(0, "anchor3"), collect(0), draw(1, "anchor7"), collect(1), draw(2, "anchor7"),
             collect(2), draw(3, "hook5"), collect(3), draw(4, "cannon5")])
    before = t.game.digest()
    u = ps.at("anchor7", K.BANK + 2)
    t.tap(t.discard, u)            # seats 1 and 2 both show anchor7
    t.token(tokens.SEAT0 + 7)      # no seat 7 with 5 players
    got = t.news()
    assert got == [["rejected", "target_required", t.discard], ["rejected", "bad_target", t.command]], got
    assert t.game.digest() == before
    t.token(tokens.SEAT0 + 2)
    t.tap(t.discard, u)
    got += t.news()
    assert got[2:] == [{"a": "cannon", "p": 4, "target": 2, "card": "anchor7"}], got
    return got


def test_davy_jones_waits_for_a_seat_token_with_three_players():
    t, ps = seated(3)
    dj = trait_uid(K.DAVY_JONES, 0)
    t.tap(t.bank[1], dj)
    assert t.news() == [] and t.prompt() == ["target", 2, t.command]
    t.token(tokens.SEAT0 + 2)
    got = t.news()
    assert got == [{"a": "trait", "p": 1, "trait": "davy_jones", "target": 2}], got
    assert t.prompt() == ["trait", 5, 255]
    t.token(tokens.SEAT0 + 2)      # no Davy Jones waits any more
    t2, _ = seated(2)
    t2.tap(t2.bank[0], dj)         # two players: the opponent, no token
    got += t.news() + t2.news()
    assert got[1:] == [["rejected", "not_now", t.command], {"a": "trait", "p": 0, "trait": "davy_jones"}], got
    return got


def test_cancel_drops_a_davy_jones_waiting_for_its_target():
    t, ps = seated(3)
    dj = trait_uid(K.DAVY_JONES, 0)
    t.tap(t.bank[1], dj)
    t.token(tokens.CANCEL)             # changed their mind: no target follows
    t.token(tokens.SEAT0 + 2)          # so a seat token now means nothing
    got = t.news()
    assert got == [["rejected", "not_now", t.command]], got
    t.tap(t.bank[1], dj)               # the trait again, with its target
    t.token(tokens.SEAT0 + 0)
    got += t.news()
    assert got[1:] == [{"a": "trait", "p": 1, "trait": "davy_jones", "target": 0}], got
    t.token(tokens.CANCEL)             # nothing half made: no error
    assert t.news() == []
    return got


def test_prompts_follow_the_game():
    t, ps = seated(2)
    seen = [t.prompt()]
    run(ps, [draw(0, "kraken5")])
    seen.append(t.prompt())
    run(ps, [draw(0, "anchor4"), draw(0, "hook3")])
    seen.append(t.prompt())
    run(ps, [collect(0), draw(1, "cannon3")])
    seen.append(t.prompt())
    assert seen == [["trait", 3, 255], ["draw", 1, t.play], ["draw_or_collect", 1, t.play],
                    ["cannon", 2, t.discard]], seen
    return seen


def test_sensor_to_rules_path_allocates_nothing():
    """A whole seeded game (Mystic, Hooks, Maps, Cannons ...) replayed from its recorded pad
    changes, plus refused tags, under heap_lock."""
    steps, digest = play_through_the_mat(header(2), 1, {}, record=True)
    steps = [(13, [UNKNOWN_UID]), (12, [UNKNOWN_UID]), (13, []), (12, [])] + steps
    t = Table(header(2))
    rounds = []
    for reader, tags in steps:
        buf = bytearray(35)
        rounds.append((reader, padsim.fill(buf, tags), buf))
    accepted, other = t.run_locked(rounds, t.presence.misses + 1)
    game = t.game
    assert game.digest() == digest and game.over() and other == 2
    return [accepted, game.digest()]
