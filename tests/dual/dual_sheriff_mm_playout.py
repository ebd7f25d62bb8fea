"""Sheriff with Merry Men modules (deputies, Black Market): seeded random games through the real
accept path, on both interpreters.

After every action the referee's bytes are compared with the table's physical model
(``host.sim.tables.sheriff_modules``): cards are conserved over draw pile, discard piles, hands,
bags, stands, the loot chest and the contraband a Black Market claim removed; gold is conserved
over seats, the chest and the odd coins discarded at a loot split; each seat is deputy once per
cycle of three rounds. The last test accepts whole games under ``micropython.heap_lock()``.
"""
import playkit
from dual_sheriff_playout import check_cards
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import expansion_layout as KM
from host.sim.playout import Playout

PROFILE = {"format": 1, "name": "test values", "placeholders": True,
           "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}
BOTH = {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"], "profile": PROFILE}


def check(po, n):
    g = po.game
    gold = sum([g.gold(s) for s in range(n)]) + g.gold(KM.CHEST) + getattr(po.table, "gold_discarded", 0)
    assert gold == 50 * n, gold
    check_cards(po, lambda c: g.stand(KM.CHEST, c) + g.removed(c))


def play(header, seed):
    """One checked game: [actions, claims, loot splits, deputy rounds per seat, digest, winners]."""
    po = Playout(header, seed)
    n = po.game.seats()
    deputy = [0] * n
    claims = 0
    loots = 0
    while True:
        a = po.step()
        if a is None:
            break
        check(po, n)
        if a["a"] == "deputy":
            deputy[a["p"]] += 1
            r = po.game.s[K.R_ROUND]
            cycle_of = [deputy[s] for s in range(n)]
            assert max(cycle_of) <= r // 3 + 1, (r, cycle_of)
        claims += a["a"] == "claim"
        loots += a["a"] == "loot"
    g = po.game
    assert g.over()
    if g.modules() & KM.DEPUTIES:
        assert deputy == [3] * n and g.s[K.R_ROUND] == 9
    held = sum([len(g.black_market(s)) for s in range(n)])
    assert held == claims and sum([g.removed(c) for c in range(K.KINDS)]) == 3 * claims
    s = g.summary()
    assert s["winners"]
    return [po.actions, claims, loots, deputy, g.digest(), s["winners"], s["scores"]]


def test_six_players_deputies_and_black_market():
    return [play(BOTH, seed) for seed in range(6)]


def test_six_players_deputies_alone():
    return [play({"game": "sheriff", "players": 6, "modules": ["deputies"], "royal": seed % 2 == 0}, seed)
            for seed in range(4)]


def test_black_market_with_a_sheriff():
    out = [play({"game": "sheriff", "players": n, "modules": ["black_market"], "profile": PROFILE}, seed)
           for n in (3, 4, 5) for seed in range(3)]
    assert sum([r[1] for r in out]) > 0   # some seeds claim
    return out


def test_playout_logs_replay_to_the_same_digest():
    from kit import play as replay
    po = Playout(BOTH, 3)
    log = po.run()
    r = replay(BOTH, log)
    assert not r.rejected and r.game.digest() == po.game.digest()
    return r.result()


# Always refused, whatever the position.
BAD = (
    {"a": "inspect", "p": 0, "target": 9},
    {"a": "load", "p": 1, "cards": []},
    {"a": "setup", "p": 0, "piles": [["apple"] * 6, ["apple"] * 5]},
    {"a": "claim", "p": 2, "good": "apple"},
    {"a": "market", "p": 2, "discard": ["apple"] * 6, "take": []},
    {"a": "loot", "p": 0, "split": "discard", "gold": 1},
)


def test_whole_games_accepted_under_heap_lock():
    return [playkit.locked_game(header, seed, BAD) for header, seed in (
        (BOTH, 5), ({"game": "sheriff", "players": 4, "modules": ["black_market"], "profile": PROFILE}, 2))]


def test_snapshots_restore_mid_game_and_refuse_a_base_game_snapshot():
    from shared_rules import games
    from shared_rules.core.engine import CORRUPT
    po = Playout(BOTH, 4)
    for _ in range(120):
        po.step()
    snap = po.game.snapshot()
    g = games.from_header(BOTH)
    assert g.restore(snap) == 0 and g.digest() == po.game.digest()
    base = games.from_header({"game": "sheriff", "players": 5})
    assert base.restore(snap) == CORRUPT and g.restore(base.snapshot()) == CORRUPT
    rest = po.run()
    for a in rest:   # the restored game accepts the rest of the game alike
        rec = bytearray(128)
        assert g.VOCAB.encode(a, rec) == 0 and g.accept(rec) == 0
    assert g.digest() == po.game.digest() and g.over()
    return [len(snap), g.digest()]
