"""Skull through the mat, on both interpreters: seeded games performed as the gestures of
docs/mat.md on a simulated mat (tags on pads, scanned round by round into Presence, then Mat,
then the rules) end in the same state as the playout; refused and meaningless gestures change
nothing; the whole sensor-to-rules path allocates nothing."""
import padsim
from padsim import token_uid, UNKNOWN_UID, FOREIGN_UID
from shared_rules.core import deck
from shared_rules.core import tokens
from shared_rules.skull import layout as K
from shared_rules.skull import view as skull_view
from shared_rules.skull.rules import on_mats
from host.sim.tables.skull import at
from host.sim.playout import Playout

SKULL_DISC = 3  # disc i of a seat: 0..2 flowers, 3 the skull


def disc_uid(seat, i):
    return bytes((4, 0x5C, seat, i, (0x11 * (seat + 1)) & 255, 0x80 | i, 0x3E))


def pieces():
    """12 seats of discs and one Dead Man's Draw card (FOREIGN_UID)."""
    recs = [{"uid": deck.uid_hex(FOREIGN_UID), "game": "deadmans", "kind": "card", "code": "anchor2"}]
    for seat in range(12):
        for i in range(4):
            recs.append({"uid": deck.uid_hex(disc_uid(seat, i)), "game": "skull", "kind": "disc",
                         "seat": seat, "code": "skull" if i == SKULL_DISC else "flower"})
    return recs


class Table(padsim.Table):
    """The mat with Skull's zones: a pad per seat, the box pad, the command pad."""

    def __init__(self, header):
        super().__init__(header, padsim.registry("skull", pieces))
        self.seat_pad = self.zones["seat"]
        self.box = self.zones["box"]


class Players:
    """Who holds which disc: turns action-log actions into the gestures of docs/mat.md."""

    def __init__(self, table):
        self.t = table
        n = table.game.seats()
        self.hand = [[disc_uid(s, i) for i in range(4)] for s in range(n)]
        self.stack = [[] for _ in range(n)]
        self.aside = []  # flipped discs, face up beside their pads: (seat, uid)

    def disc(self, seat, name):
        for u in self.hand[seat]:
            if (u[3] == SKULL_DISC) == (name == "skull"):
                return u
        raise AssertionError("seat %d holds no %s" % (seat, name))

    def perform(self, a):
        t = self.t
        name = a["a"]
        p = a["p"]
        if name == "place":
            u = self.disc(p, a["disc"])
            self.hand[p].remove(u)
            self.stack[p].append(u)
            t.put(t.seat_pad[p], u)
        elif name == "bid":
            self.number(a["n"])
        elif name == "pass":
            t.token(tokens.PASS)
        elif name == "flip":
            target = a["target"]
            u = self.stack[target].pop()
            self.aside.append((target, u))
            t.take(t.seat_pad[target], u)
            if t.game.s[K.R_PHASE] != K.FLIP:
                self.take_back()
        elif name == "lose":
            u = self.disc(p, a["disc"])
            self.hand[p].remove(u)
            t.tap(t.box, u)
        elif name == "first":
            t.token(tokens.SEAT0 + a["target"])
        else:
            raise AssertionError(name)

    def number(self, n):
        """Digits in order; confirm when one more digit could still be legal."""
        top = on_mats(self.t.game.s)
        for ch in str(n):
            self.t.token(tokens.DIGIT0 + int(ch))
        if n * 10 <= top:
            self.t.token(tokens.CONFIRM)

    def take_back(self):
        """The challenge is over: every disc goes back to its owner's hand (lifts mean nothing)."""
        t = self.t
        for s in range(len(self.stack)):
            for u in self.stack[s]:
                t.on[t.seat_pad[s]].remove(u)
                self.hand[s].append(u)
            self.stack[s] = []
        for s, u in self.aside:
            self.hand[s].append(u)
        self.aside = []
        t.settle()


def expected(a, top):
    """The action the mat reports: the playout's, plus the disc a flip reveals (``top``)."""
    if a["a"] != "flip":
        return a
    return {"a": "flip", "p": a["p"], "target": a["target"], "disc": "skull" if top[3] == SKULL_DISC else "flower"}


def header(i):
    """Seat counts across both Skull layouts, and the two-tribes variant."""
    if i % 4 == 3:
        return {"game": "skull", "players": 2 + i % 5, "tribes_per_player": 2, "first": i % 4}
    return {"game": "skull", "players": 3 + i % 10, "first": i % 3}


GAMES = 24


def play_through_the_mat(header, seed, used):
    playout = Playout(header, seed)
    actions = playout.run()
    table = Table(header)
    players = Players(table)
    for a in actions:
        top = players.stack[a["target"]][-1] if a["a"] == "flip" else None
        players.perform(a)
        got = table.news()
        assert got == [expected(a, top)], (a, got)
        name = "bid10+" if a["a"] == "bid" and a["n"] >= 10 else a["a"]
        used[name] = used.get(name, 0) + 1
    assert table.game.digest() == playout.game.digest()
    assert table.game.over()
    return [table.game.seats(), len(actions), table.game.digest()]


def test_seeded_games_played_through_the_mat_end_in_the_playout_state():
    used = {}
    out = [play_through_the_mat(header(i), 100 + i, used) for i in range(GAMES)]
    # Between them the games use every gesture, two-digit bids and the "first" token included.
    assert sorted(used) == ["bid", "bid10+", "first", "flip", "lose", "pass", "place"], used
    return [out, sorted(used.items())]


def started(n=3, **opts):
    """A table where every seat has placed one flower (seat 0's turn in the add phase)."""
    h = {"game": "skull", "players": n}
    h.update(opts)
    t = Table(h)
    ps = Players(t)
    for s in range(n):
        ps.perform({"a": "place", "p": s, "disc": "flower"})
    assert len(t.news()) == n and t.game.s[K.R_PHASE] == K.ADD
    return t, ps


def test_unknown_foreign_and_duplicate_tags_are_refused_and_change_nothing():
    t, ps = started()
    before = t.game.digest()
    t.put(t.seat_pad[0], UNKNOWN_UID)
    t.put(t.seat_pad[1], FOREIGN_UID)
    t.put(t.command, UNKNOWN_UID)  # the same unknown UID twice: unknown first
    clone = ps.stack[0][0]        # a copy of seat 0's disc, lying on the box pad
    t.put(t.box, clone)
    t.put(t.seat_pad[2], disc_uid(2, 1))  # ... and one more on seat 2's pad
    got = t.news()
    assert got == [["rejected", "unknown_tag", t.seat_pad[0]], ["rejected", "foreign_tag", t.seat_pad[1]],
                   ["rejected", "unknown_tag", t.command], ["rejected", "duplicate_tag", t.box],
                   ["refused", "not_your_turn"]], got
    assert t.game.digest() == before
    # Taking them away is silent, and the original disc still counts as on its stack.
    for r, u in ((t.seat_pad[0], UNKNOWN_UID), (t.seat_pad[1], FOREIGN_UID), (t.command, UNKNOWN_UID),
                 (t.box, clone)):
        t.take(r, u)
    assert t.news() == [] and t.game.digest() == before
    return got


def test_same_uid_arriving_on_two_pads_in_one_round():
    t, ps = started()
    u = ps.disc(0, "flower")
    t.on[t.seat_pad[0]].append(u)
    t.on[t.box].append(u)
    t.settle()
    got = t.news()
    # The seat pad is polled first: the place counts there, the box pad sees a duplicate.
    assert got == [{"a": "place", "p": 0, "disc": "flower"}, ["rejected", "duplicate_tag", t.box]], got
    return got


def test_discs_on_the_wrong_pad_and_tokens_on_a_seat_pad_are_not_now():
    t, ps = started()
    before = t.game.digest()
    t.put(t.seat_pad[0], ps.disc(1, "flower"))    # seat 1's disc on seat 0's pad
    t.put(t.seat_pad[2], token_uid(tokens.PASS))  # a token on a seat pad
    t.put(t.command, ps.disc(0, "skull"))         # a disc on the command pad
    t.put(1, ps.disc(0, "flower"))                # pad 1 is not used with 3 seats
    t.put(t.seat_pad[1], disc_uid(5, 0))          # a disc of a seat not in this game
    got = t.news()
    assert got == [["rejected", "not_now", t.seat_pad[0]], ["rejected", "not_now", t.seat_pad[2]],
                   ["rejected", "not_now", t.command], ["rejected", "not_now", 1],
                   ["rejected", "not_now", t.seat_pad[1]]], got
    assert t.game.digest() == before
    return got


def test_a_peek_at_your_own_disc_means_nothing():
    t, ps = started()
    u = ps.stack[1][0]
    t.take(t.seat_pad[1], u)
    t.put(t.seat_pad[1], u)
    assert t.news() == []
    ps.perform({"a": "place", "p": 0, "disc": "skull"})
    assert t.news() == [{"a": "place", "p": 0, "disc": "skull"}]
    # Put back on top after looking at the bottom one: still nothing, still 2 discs for seat 0.
    u = ps.stack[0][0]
    t.take(t.seat_pad[0], u)
    t.put(t.seat_pad[0], u)
    assert t.news() == [] and at(t.game, 0, K.STACK) == 2
    return skull_view.referee(t.game)["seats"][0]


def test_flip_lifts_count_once_and_refused_lifts_can_be_put_back():
    t, ps = started()
    ps.perform({"a": "place", "p": 0, "disc": "skull"})
    ps.perform({"a": "bid", "p": 1, "n": 2})
    ps.perform({"a": "pass", "p": 2})
    ps.perform({"a": "pass", "p": 0})
    assert len(t.news()) == 4 and t.game.s[K.R_PHASE] == K.FLIP and t.game.s[K.R_CHALLENGER] == 1
    # The challenger lifts seat 0's skull before their own stack: refused; put back: silent.
    skull = ps.stack[0][-1]
    t.take(t.seat_pad[0], skull)
    t.put(t.seat_pad[0], skull)
    got = t.news()
    assert got == [["refused", "own_stack_first"]], got
    # Own disc: flipped. Put back face up and lifted again: nothing more.
    own = ps.stack[1][0]
    t.take(t.seat_pad[1], own)
    t.put(t.seat_pad[1], own)
    t.take(t.seat_pad[1], own)
    got += t.news()
    assert got[1:] == [{"a": "flip", "p": 1, "target": 1, "disc": "flower"}], got
    # Seat 2's flower: the bid of 2 is reached, a new round starts; the discs go home silently.
    ps.stack[1] = []
    ps.perform({"a": "flip", "p": 1, "target": 2})
    got += t.news()
    assert got[2:] == [{"a": "flip", "p": 1, "target": 2, "disc": "flower"}], got
    assert t.game.s[K.R_PHASE] == K.PREP and at(t.game, 1, K.SCORE) == 1
    return got


def test_a_lost_disc_never_comes_back():
    t, ps = started()
    ps.perform({"a": "bid", "p": 0, "n": 1})
    ps.perform({"a": "pass", "p": 1})
    ps.perform({"a": "pass", "p": 2})
    ps.perform({"a": "flip", "p": 0, "target": 0})  # own flower: the bid of 1 is reached
    assert t.game.s[K.R_PHASE] == K.PREP and len(t.news()) == 4
    # Next round: seat 0 places its skull, bids everything and flips its own skull.
    ps.perform({"a": "place", "p": 0, "disc": "skull"})
    ps.perform({"a": "place", "p": 1, "disc": "flower"})
    ps.perform({"a": "place", "p": 2, "disc": "flower"})
    ps.perform({"a": "bid", "p": 0, "n": 3})
    ps.perform({"a": "flip", "p": 0, "target": 0})
    assert t.game.s[K.R_PHASE] == K.LOSE
    lost = ps.disc(0, "flower")
    ps.perform({"a": "lose", "p": 0, "disc": "flower"})
    got = t.news()
    assert got[-1] == {"a": "lose", "p": 0, "disc": "flower"}, got
    before = t.game.digest()
    t.put(t.seat_pad[0], lost)
    t.take(t.seat_pad[0], lost)
    t.tap(t.box, lost)
    # Another seat's disc on the box pad outside the lose phase: refused by the rules.
    t.tap(t.box, ps.disc(1, "flower"))
    got = t.news()
    assert got == [["rejected", "not_now", t.seat_pad[0]], ["rejected", "not_now", t.box],
                   ["refused", "wrong_phase"]], got
    assert t.game.digest() == before
    return got


def test_numbers_are_tapped_digit_by_digit():
    t, ps = started(12)
    # 12 discs on the mats: "1" waits (10..12 still possible), "1" again makes 11.
    t.token(tokens.DIGIT0 + 1)
    assert t.news() == [] and t.mat.entry == 1 and t.mat.digits == 1
    t.token(tokens.DIGIT0 + 1)
    got = t.news()
    assert got == [{"a": "bid", "p": 0, "n": 11}], got
    # Seat 1: "1" then confirm is a bid of 1: too low now, refused by the rules.
    t.token(tokens.DIGIT0 + 1)
    t.token(tokens.CONFIRM)
    # A leading zero means nothing; "cancel" drops a half number; "9" alone is too low.
    t.token(tokens.DIGIT0)
    t.token(tokens.DIGIT0 + 1)
    t.token(tokens.CANCEL)
    t.token(tokens.DIGIT0 + 9)
    # "1" then "3": 13 is more than the 12 discs on the mats.
    t.token(tokens.DIGIT0 + 1)
    t.token(tokens.DIGIT0 + 3)
    # "1", "2": the highest bid, the challenge starts at once.
    t.token(tokens.DIGIT0 + 1)
    t.token(tokens.DIGIT0 + 2)
    got += t.news()
    assert got[1:] == [["refused", "bid_too_low"], ["rejected", "not_now", t.command], ["refused", "bid_too_low"],
                       ["refused", "bid_out_of_range"], {"a": "bid", "p": 1, "n": 12}], got
    assert t.game.s[K.R_PHASE] == K.FLIP
    # No number means anything during the flips.
    t.token(tokens.DIGIT0 + 1)
    got += t.news()
    assert got[-1] == ["rejected", "not_now", t.command]
    return got


def test_word_tokens():
    t, ps = started()
    t.token(tokens.PASS)         # seat 0 cannot pass in the add phase: the rules say so
    t.token(tokens.COLLECT)      # a Dead Man's Draw word: nothing in Skull
    t.token(tokens.SEAT0 + 1)    # no challenger yet: nothing to name
    t.token(tokens.CONFIRM)      # no number pending
    got = t.news()
    assert got == [["refused", "wrong_phase"], ["rejected", "not_now", t.command],
                   ["rejected", "not_now", t.command], ["rejected", "not_now", t.command]], got
    return got


def test_prompts_follow_the_game():
    t, ps = started()
    seen = [t.prompt()]
    ps.perform({"a": "bid", "p": 0, "n": 1})
    seen.append(t.prompt())
    ps.perform({"a": "pass", "p": 1})
    ps.perform({"a": "pass", "p": 2})
    seen.append(t.prompt())
    t.news()
    seen.append(Table({"game": "skull", "players": 4}).prompt())
    assert seen == [["place_or_bid", 1, 255], ["bid_or_pass", 2, t.command], ["flip", 1, 255],
                    ["place", 15, 255]], seen
    return seen


def test_sensor_to_rules_path_allocates_nothing():
    t = Table({"game": "skull", "players": 3})
    pads = t.seat_pad
    # Refusals on the way: an unknown tag, a foreign card, seat 1's disc on seat 0's pad.
    steps = [("put", pads[0], UNKNOWN_UID), ("put", t.box, FOREIGN_UID), ("put", pads[0], disc_uid(1, 2))]
    steps += [("take", pads[0], UNKNOWN_UID), ("take", t.box, FOREIGN_UID), ("take", pads[0], disc_uid(1, 2))]
    steps += [("put", pads[s], disc_uid(s, 0)) for s in range(3)]
    # A clone of seat 0's disc on the box pad: a duplicate; removed again: silent.
    steps += [("put", t.box, disc_uid(0, 0)), ("take", t.box, disc_uid(0, 0))]
    steps += [("put", t.command, token_uid(tokens.DIGIT0 + 3)), ("take", t.command, token_uid(tokens.DIGIT0 + 3))]
    steps += [("take", pads[s], disc_uid(s, 0)) for s in range(3)]
    accepted, other = t.run_locked(t.schedule(steps))
    game = t.game
    # 3 places, the bid of 3 (the most: the challenge starts), 3 flips: the first success.
    assert accepted == 7 and other == 4 and at(game, 0, K.SCORE) == 1
    return [accepted, game.digest()]
