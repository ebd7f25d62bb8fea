"""Sheriff of Nottingham: seeded random games through the real accept path, on both interpreters.

After every action the referee's bytes are compared with the table's independent physical model
(``host.sim.tables.sheriff``): card conservation over draw pile, discard piles, hands, bags
and stands; the referee's unidentified-copy counts; gold. The digests each test returns must be
equal on CPython and MicroPython. The last test accepts whole games under
``micropython.heap_lock()``: zero allocation per action, refills, rejections and the public view
included.
"""
import playkit
from shared_rules import games
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from host.sim.playout import Playout


def check(po):
    """Everything the referee tracks agrees with the physical truth at the table."""
    g = po.game
    assert sum([g.gold(s) for s in range(g.seats())]) == 50 * g.seats()   # every payment is a transfer
    check_cards(po, lambda c: 0)


def check_cards(po, elsewhere):
    """Cards: piles, draw pile, hands, bags, stands (plus ``elsewhere(good)``: a Merry Men loot
    chest, cards removed from the game) hold the deck; the referee's unknown counts are right."""
    g = po.game
    t = po.table
    n = g.seats()
    assert t.piles[0] == sv.pile(g, 1) and t.piles[1] == sv.pile(g, 2)
    assert len(t.deck) == g.s[K.R_DRAW]
    for s in range(n):
        assert len(t.hands[s]) == sv.hand(g, s) <= K.HAND
        assert g.over() or t.bags[s] == sv.bag(g, s)
    for c in range(K.KINDS):
        unknown = t.deck.count(c)
        total = unknown + t.piles[0].count(c) + t.piles[1].count(c) + elsewhere(c)
        for s in range(n):
            held = t.hands[s].count(c)
            assert sv.known(g, s, c) <= held
            unknown += held - sv.known(g, s, c)
            total += held + sv.bag(g, s).count(c) + g.stand(s, c)
        assert total == g._deck(c), (c, total)
        assert unknown == sv.pool(g, c), (c, unknown, sv.pool(g, c))


def play(header, seed):
    """One checked random game; returns [actions, refills, Sheriffs per seat, digest, winners]."""
    po = Playout(header, seed)
    sheriffs = [po.game.s[K.R_SHERIFF]]
    rounds = 0
    while po.step() is not None:
        check(po)
        if po.game.s[K.R_ROUND] != rounds:
            rounds = po.game.s[K.R_ROUND]
            if not po.game.over():
                sheriffs.append(po.game.s[K.R_SHERIFF])
    g = po.game
    n = g.seats()
    assert g.over() and rounds == (9 if n == 3 else 2 * n)
    per_seat = [sheriffs.count(s) for s in range(n)]
    assert per_seat == [3 if n == 3 else 2] * n, sheriffs
    s = g.summary()
    assert s["winners"] and s["gold"] == [g.gold(i) for i in range(n)]
    return [po.actions, g.s[K.R_REFILLS], per_seat, g.digest(), s["winners"]]


def test_three_players():
    return [play({"game": "sheriff", "players": 3, "royal": seed % 2 == 0, "first_sheriff": seed % 3}, seed)
            for seed in range(6)]


def test_four_players():
    return [play({"game": "sheriff", "players": 4, "royal": seed % 2 == 0}, seed) for seed in range(6)]


def test_five_players():
    out = [play({"game": "sheriff", "players": 5}, seed) for seed in range(6)]
    refill = play({"game": "sheriff", "players": 5, "royal": False}, 4)
    assert refill[1] >= 1   # this seed empties the draw pile once
    return out + [refill]


def test_playout_logs_replay_to_the_same_digest():
    from kit import play as replay
    header = {"game": "sheriff", "players": 5}
    po = Playout(header, 11)
    log = po.run()
    r = replay(header, log)
    assert not r.rejected and r.game.digest() == po.game.digest()
    return r.result()


# Always rejected, whatever the position: out-of-range target, empty bag, contraband declared,
# 6 cards set aside, a sixth crossbow at setup, a bribe beyond any purse.
BAD = (
    {"a": "inspect", "p": 0, "target": 9},
    {"a": "load", "p": 1, "cards": []},
    {"a": "declare", "p": 1, "good": "silk", "count": 1},
    {"a": "market", "p": 2, "discard": ["apple"] * 6, "take": [], "to": 1},
    {"a": "setup", "p": 0, "piles": [["crossbow"] * 5, ["crossbow"] + ["apple"] * 4]},
    {"a": "pass", "p": 3, "target": 4, "bribe": {"gold": 60000, "stand": ["crossbow"] * 16}},
)


def test_whole_games_accepted_under_heap_lock():
    out = []
    for header, seed in (({"game": "sheriff", "players": 5}, 7), ({"game": "sheriff", "players": 5, "royal": False}, 4),
                         ({"game": "sheriff", "players": 3}, 2)):
        g = games.from_header(header)
        recs = playkit.records(g, Playout(header, seed).run())
        bad = playkit.records(g, BAD)
        errs, refused, view = playkit.accept_locked(g, recs, bad)
        assert errs == 0 and refused == len(recs) * len(bad)
        po = Playout(header, seed)
        po.run()
        assert g.over() and g.digest() == po.game.digest()
        assert sv.describe(view)["phase"] == "over"
        out.append([len(recs), g.digest()])
    return out
