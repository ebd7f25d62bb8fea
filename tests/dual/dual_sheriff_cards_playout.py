"""Sheriff card modules (laws, special orders, Merry Men), alone and with deputies and the Black
Market: seeded random games through the real accept path, on both interpreters.

After every action: cards are conserved (orders' cards under the stands included); no gold
underflows; the table's Merry Men are the referee's (at most one per seat); four orders are up
whenever a market runs while the deck has cards; two laws are in force once the first is chosen;
a draw naming a card the table knows lies under its deck, below the cards drawn, is refused
(``not_on_top``).
Then: logs replay to the same digest, snapshots restore mid-game, whole games are accepted under
``micropython.heap_lock()``, and a header with all five modules replays alike on both interpreters.
"""
import playkit
from dual_sheriff_playout import check_cards
from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import cards_layout as KC
from shared_rules.sheriff.modules import expansion_layout as KM
from host.sim.playout import Playout
from dual_sheriff_cards_rules import PROFILE, LPROFILE

BM = {"black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}
ALL = dict(LPROFILE)
ALL.update(BM)
CARDS = ["laws", "special_orders", "merry_men"]
NOT_ON_TOP = 61   # sheriff_cards.REASONS


def H(n, mods, prof=ALL):
    return {"game": "sheriff", "players": n, "modules": list(mods), "profile": prof}


FIVE = H(6, ["deputies", "black_market"] + CARDS)


def _under(g, c):
    n = 0
    for seat in range(g.seats()):
        for o in g.order_held(seat):
            n += (g.orders[3 * o] == c) + (g.orders[3 * o + 1] == c)
    return n


def check(po, log, probed):
    g = po.game
    t = po.table
    mods = g.modules()
    chest = (lambda c: g.stand(KM.CHEST, c)) if mods & KM.DEPUTIES else (lambda c: 0)
    check_cards(po, lambda c: chest(c) + g.removed(c) + (_under(g, c) if mods & KC.ORDERS else 0))
    for s in range(g.seats()):
        assert g.gold(s) < 5000, (s, g.gold(s))
    for draw in t.buried():   # a card put under its deck, below the cards a draw takes
        rec = bytearray(ACTION_SIZE)
        assert g.VOCAB.encode(draw, rec) == 0 and g.check(rec) == NOT_ON_TOP, (draw, g.check(rec))
        probed[draw["a"] + " under the deck"] = probed.get(draw["a"] + " under the deck", 0) + 1
    if mods & KC.MERRY_MEN:
        from shared_rules.sheriff.modules import merry_men as men
        assert [men.held(g, s) for s in range(g.seats())] == t.men_held
        assert len(t.men_deck) + len([h for h in t.men_held if h >= 0]) == 18
    if mods & KC.ORDERS and g.s[K.R_PHASE] in (K.LOAD, K.DECLARE):
        assert len(g.orders_up()) == min(4, 4 + len(t.order_deck) - len(g.orders_up())) or not t.order_deck
    if mods & KC.LAWS:
        from shared_rules.sheriff.modules import laws as lw
        from shared_rules.sheriff.modules import laws_layout as LW
        places = [lw.where(g, i) for i in range(LW.LAWS)]
        if places.count(LW.POS1) or g.s[K.R_PHASE] in (K.MARKET, K.LOAD, K.DECLARE, K.INSPECT):
            assert places.count(LW.POS1) == 1 and places.count(LW.POS2) == 1, places


def play(header, seed):
    po = Playout(header, seed)
    kinds = {}
    log = []
    while True:
        a = po.step()
        if a is None:
            break
        log.append(a)
        check(po, log, kinds)
        key = a["a"] + ("+orders" if a.get("orders") else "") + ("+merry" if a.get("merry") else "") + (
            "+give" if a.get("give") else "")
        kinds[key] = kinds.get(key, 0) + 1
    g = po.game
    assert g.over()
    s = g.summary()
    assert s["winners"]
    return [po.actions, sorted(kinds.items()), g.digest(), s["winners"], s["scores"]]


def test_each_card_module_alone_and_together():
    out = []
    for mods in (["laws"], ["special_orders"], ["merry_men"], CARDS):
        for n in (3, 4, 5):
            out.append(play(H(n, mods), n * 7 + len(mods)))
    used = {}
    for r in out:
        for k, v in r[1]:
            used[k] = used.get(k, 0) + v
    for k in ("law", "order_up", "pass+orders", "pass+give", "merry", "load+merry", "law under the deck",
              "merry under the deck"):
        assert used.get(k), (k, used)
    return out


def test_all_five_modules_with_deputies():
    return [play(FIVE, seed) for seed in range(3)]


def test_playout_logs_replay_to_the_same_digest():
    from kit import play as replay
    po = Playout(FIVE, 11)
    log = po.run()
    r = replay(FIVE, log)
    assert not r.rejected and r.game.digest() == po.game.digest()
    return r.result()


BAD = (
    {"a": "law", "p": 0, "keep": [30], "bottom": 1},
    {"a": "order_up", "p": 0, "order": 15},
    {"a": "merry", "p": 0, "keep": 18, "bottom": 0},
    {"a": "pass", "p": 0, "target": 9, "orders": [0]},
    {"a": "load", "p": 1, "cards": ["apple"] * 5, "merry": 1},
)


def test_whole_games_accepted_under_heap_lock():
    """Games that between them use every card-module action and field (checked on CPython)."""
    cases = ((FIVE, 4), (H(4, CARDS), 6), (H(5, CARDS), 1))
    used = {}
    for header, seed in cases:
        for a in Playout(header, seed).run():
            for k in ("law", "order_up", "merry", "orders", "give"):
                used[k] = used.get(k, 0) + (a["a"] == k or k in a)
    assert all(used.values()), used
    return [playkit.locked_game(header, seed, BAD) for header, seed in cases]


def test_snapshots_restore_at_random_points_and_refuse_other_games():
    from shared_rules.core.engine import CORRUPT
    from shared_rules.core.rng import Rng
    rng = Rng(9)
    out = []
    for header, seed in ((FIVE, 4), (H(3, CARDS), 1), (H(5, ["laws", "merry_men"]), 2)):
        blob, po = playkit.resumed(header, seed, rng, games.from_header(header))
        other = games.from_header(H(6, ["deputies", "black_market"]))
        assert other.restore(blob) == CORRUPT and games.from_header(header).restore(other.snapshot()) == CORRUPT
        out.append([len(blob), po.game.digest()])
    return out
