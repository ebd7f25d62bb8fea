"""Sheriff of Nottingham: the rulebook examples and every rejection of rules/sheriff.md, on both
interpreters (scripted logs through the real replay path; rules in docs/rules-sheriff.md)."""
import json

from kit import play, errors, last_error, act

from shared_rules.sheriff import rules as sh
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.catalogue import SHERIFF_CODES as CODES


def H(n=4, **opts):
    h = {"game": "sheriff", "players": n}
    h.update(opts)
    return h


# Bottom to top: pile 1 shows mead on top, pile 2 chicken. No bread: fits a 3-player game.
PILES = [["apple", "cheese", "chicken", "pepper", "mead"], ["apple", "apple", "silk", "cheese", "chicken"]]


def setup(piles=PILES):
    return act("setup", 0, piles=piles)


def market(p, discard=(), take=(), to=None):
    a = act("market", p, discard=list(discard), take=list(take))
    if to is not None:
        a["to"] = to
    return a


def load(p, cards):
    return act("load", p, cards=list(cards))


def declare(p, good, count):
    return act("declare", p, good=good, count=count)


def pas(sheriff, t, **bribe):
    a = act("pass", sheriff, target=t)
    if bribe:
        a["bribe"] = bribe
    return a


def inspect(sheriff, t, **opts):
    a = act("inspect", sheriff, target=t)
    a.update(opts)
    return a


def merchants(n, sheriff):
    return [(sheriff + i) % n for i in range(1, n)]


def bags(n, sheriff, bag_of, good_of):
    """Every merchant skips the market, loads ``bag_of[seat]`` (default one apple) and declares
    ``good_of[seat]`` (default apple), clockwise: the log up to the inspection phase."""
    ms = merchants(n, sheriff)
    out = [market(m) for m in ms]
    out += [load(m, bag_of.get(m, ["apple"])) for m in ms]
    out += [declare(m, good_of.get(m, "apple"), len(bag_of.get(m, ["apple"]))) for m in ms]
    return out


def round_(n, sheriff, bag_of=None, good_of=None, resolve=None):
    """A whole round: ``resolve`` lists the Sheriff's decisions (default: pass everyone)."""
    out = bags(n, sheriff, bag_of or {}, good_of or {})
    return out + (resolve if resolve is not None else [pas(sheriff, m) for m in merchants(n, sheriff)])


def stands(g, seat):
    return dict((CODES[c], g.stand(seat, c)) for c in range(K.KINDS) if g.stand(seat, c))


def golds(g):
    return [g.gold(i) for i in range(g.seats())]


# -- header and setup ------------------------------------------------------------------
def test_header_options_and_modules():
    from shared_rules import games
    bad = []
    messages = []
    for h in (H(2), H(6), H(5, first_sheriff=5), H(4, royal="yes"), H(4, royal=1), H(4, modules="laws"),
              H(4, modules=["laws"]), H(4, modules=["robin"]), H(4, colour="red")):
        try:
            games.from_header(h)
            bad.append(h)
        except ValueError as e:
            if "modules" in h and isinstance(h["modules"], list):
                messages.append(str(e))
    assert not bad, bad
    assert "needs its cards in the deck profile" in messages[0] and "unknown module" in messages[1], messages
    g = games.from_header(H(5, first_sheriff=4, royal=False, modules=[]))
    assert g.seats() == 5 and g.s[K.R_SHERIFF] == 4 and g.s[K.R_PHASE] == K.SETUP
    return messages


def test_deck_sizes_and_two_face_up_piles():
    out = []
    for n, royal, deck in ((3, True, 162), (3, False, 156), (4, True, 216), (5, False, 204)):
        r = play(H(n, royal=royal, first_sheriff=n - 1), [setup()])
        g = r.game
        assert not r.rejected
        assert g.s[K.R_DRAW] == deck - 6 * n - 10, (n, royal, g.s[K.R_DRAW])
        assert sv.pile(g, 1) == [CODES.index(c) for c in PILES[0]]
        assert g.s[K.R_PHASE] == K.MARKET and g.s[K.R_TURN] == 0  # left of the Sheriff (seat n-1)
        assert [sv.hand(g, s) for s in range(n)] == [6] * n and golds(g) == [50] * n
        out.append(g.s[K.R_DRAW])
    return out


def test_setup_rejections():
    r = play(H(3), [market(1), setup([PILES[0][:4], PILES[1]]),
                    setup([PILES[0], ["apple", "bread", "apple", "apple", "apple"]]),
                    setup([["crossbow"] * 5, ["apple", "crossbow", "apple", "apple", "apple"]]),
                    setup(), setup()])
    assert errors(r) == [[2, "wrong_phase"], [3, "bad_setup"], [4, "not_in_deck"], [5, "no_such_card"],
                         [7, "wrong_phase"]], errors(r)
    r2 = play(H(4, royal=False), [setup([PILES[0], ["apple", "gouda", "apple", "apple", "apple"]])])
    assert errors(r2) == [[2, "not_in_deck"]]
    return errors(r)


def test_3_players_have_no_4plus_cards():
    g = play(H(3), []).game
    g5 = play(H(5, royal=False), []).game
    counts = [[sv.pool(g, c) for c in range(K.KINDS)], [sv.pool(g5, c) for c in range(K.KINDS)]]
    assert counts[0][CODES.index("bread")] == 0 and counts[0][CODES.index("pepper")] == 18
    assert counts[0][CODES.index("rye")] == 0 and counts[0][CODES.index("gouda")] == 2
    assert sum(counts[0]) == 162 and sum(counts[1]) == 204 and counts[1][CODES.index("gouda")] == 0
    return counts


# -- market ----------------------------------------------------------------------------
def test_market_clockwise_from_the_sheriffs_left():
    r = play(H(4, first_sheriff=2), [setup(), market(2), market(0), market(3), market(0), market(1),
                                     market(3)])
    g = r.game
    assert errors(r) == [[3, "not_a_merchant"], [4, "not_your_turn"], [8, "wrong_phase"]], errors(r)
    assert g.s[K.R_PHASE] == K.LOAD
    return errors(r)


def test_market_takes_pile_tops_then_draws_then_discards_onto_one_pile():
    r = play(H(4), [setup(), market(1, ["pepper", "apple", "cheese"], [1, 1, 2], to=2),
                    market(2, ["silk", "silk"], [1], to=1)])
    g = r.game
    assert not r.rejected, r.rejected
    got = [[CODES[c] for c in sv.pile(g, 1)], [CODES[c] for c in sv.pile(g, 2)]]
    assert got == [["apple", "cheese", "silk", "silk"],
                   ["apple", "apple", "silk", "cheese", "pepper", "apple", "cheese"]], got
    known = [CODES[c] for c in range(K.KINDS) for _ in range(sv.known(g, 1, c))]
    assert known == ["chicken", "pepper", "mead"], known       # seat 1 took mead, pepper, chicken
    assert [CODES[c] for c in range(K.KINDS) if sv.known(g, 2, c)] == ["chicken"]
    assert g.s[K.R_DRAW] == 216 - 24 - 10 - 1                  # seat 2: 2 set aside, 1 taken
    assert sv.hand(g, 1) == 6 and sv.hand(g, 2) == 6 and g.s[K.R_TURN] == 3
    return got


def test_market_rejections():
    r = play(H(4), [setup(),
                    market(1, ["apple"] * 6, to=1),               # more than 5 set aside
                    market(1, ["apple"], [1, 2], to=1),           # more pile draws than set aside
                    market(1, [], [1]),                           # a pile draw without setting aside
                    market(1, ["apple"], [3], to=1),              # no pile 3
                    market(1, ["apple"]),                         # set-aside cards need a pile
                    market(1, ["apple"], to=0),
                    market(1, ["apple"] * 5, [1] * 5, to=2),      # pile 1 emptied
                    market(2, ["cheese"], [1], to=2),             # empty pile
                    market(1, [], [])])                           # a second turn: out of turn
    assert errors(r) == [[3, "too_many_cards"], [4, "take_too_many"], [5, "take_too_many"], [6, "bad_pile"],
                         [7, "pile_needed"], [8, "bad_pile"], [10, "empty_pile"], [11, "not_your_turn"]], errors(r)
    assert r.game.s[K.R_PILE1] == 0 and r.game.s[K.R_PILE2] == 10
    return errors(r)


def test_market_needs_cards_the_hand_can_hold():
    # Seat 1 takes 5 known cards: one unknown card is left, so two unknown silks cannot leave.
    r = play(H(4), [setup(), market(1, ["apple"] * 5, [1, 1, 1, 1, 1], to=2), market(2), market(3),
                    load(1, ["silk", "silk"]), load(1, ["mead", "pepper", "silk", "chicken", "cheese"])])
    assert errors(r) == [[6, "not_in_hand"]], errors(r)
    assert sv.bag(r.game, 1) == [CODES.index(c) for c in ("mead", "pepper", "silk", "chicken", "cheese")]
    assert sv.hand(r.game, 1) == 1 and sum([sv.known(r.game, 1, c) for c in range(K.KINDS)]) == 1  # apple left
    return errors(r)


# -- load and declare ------------------------------------------------------------------
def test_load_rejections_and_conservation():
    acts = [setup(), market(1), market(2), market(3),
            load(1, []), load(1, ["apple"] * 6), load(0, ["apple"]), load(1, ["crossbow"] * 3),
            load(1, ["apple"]), load(2, ["crossbow", "crossbow"]), load(3, ["crossbow"]),
            load(3, ["pepper"] * 5)]
    r = play(H(4), [load(1, ["apple"])] + acts)
    assert errors(r) == [[2, "wrong_phase"], [7, "bag_size"], [8, "bag_size"], [9, "not_a_merchant"],
                         [11, "already_loaded"], [13, "no_such_card"]], errors(r)
    assert r.game.s[K.R_PHASE] == K.DECLARE
    r3 = play(H(3), [setup(), market(1), market(2), load(1, ["bread"]), load(1, ["pumpernickel"])])
    assert errors(r3) == [[5, "not_in_deck"], [6, "not_in_deck"]]
    return errors(r)


def test_declare_rules():
    acts = [setup(), market(1), market(2), load(1, ["apple", "mead"]), declare(1, "apple", 2),
            load(2, ["cheese"]), declare(2, "cheese", 1), declare(0, "apple", 2), declare(1, "mead", 2),
            declare(1, "apple", 3), declare(1, "bread", 2),
            '{"a": "declare", "p": 1, "good": ["apple", "cheese"], "count": 2}',
            declare(1, "chicken", 2), declare(1, "apple", 2), declare(2, "cheese", 1), declare(2, "cheese", 1)]
    r = play(H(3), acts)
    assert errors(r) == [[6, "wrong_phase"], [8, "not_your_turn"], [9, "not_a_merchant"], [10, "not_legal_good"],
                         [11, "count_mismatch"], [12, "not_in_deck"], [13, "malformed"], [15, "not_your_turn"],
                         [17, "wrong_phase"]], errors(r)
    g = r.game
    assert g.s[K.R_PHASE] == K.INSPECT
    view = bytearray(g.PUBLIC_SIZE)
    g.public(view)
    d = sv.describe(view)
    assert [s["declared"] for s in d["seats"]] == [None, ["chicken", 2], ["cheese", 1]]
    return errors(r)


# -- inspection ------------------------------------------------------------------------
def test_honest_four_chickens_sheriff_pays_8():
    r = play(H(3), [setup()] + bags(3, 0, {1: ["chicken"] * 4}, {1: "chicken"}) + [inspect(0, 1)])
    g = r.game
    assert not r.rejected, r.rejected
    assert golds(g) == [42, 58, 50] and stands(g, 1) == {"chicken": 4}
    assert sv.pile(g, 1) == [CODES.index(c) for c in PILES[0]]   # nothing confiscated
    return golds(g)


def test_lying_bag_merchant_pays_10_and_keeps_the_apple():
    bag = ["apple", "cheese", "mead", "mead"]
    log = [setup()] + bags(3, 0, {1: bag}, {1: "apple"})
    r = play(H(3), log + [inspect(0, 1)])
    g = r.game
    assert not r.rejected, r.rejected
    assert golds(g) == [60, 40, 50] and stands(g, 1) == {"apple": 1}
    assert [CODES[c] for c in sv.pile(g, 1)] == PILES[0] + ["cheese", "mead", "mead"]  # bag order, default pile
    r2 = play(H(3), log + [inspect(0, 1, to=2, order=["mead", "mead"]),
                           inspect(0, 1, to=2, order=["mead", "apple", "cheese", "mead"]),
                           inspect(0, 1, to=3), inspect(0, 1, to=2, order=["mead", "cheese", "mead"])])
    g2 = r2.game
    n = len(log) + 1
    assert errors(r2) == [[n + 1, "bad_order"], [n + 2, "bad_order"], [n + 3, "bad_pile"]], errors(r2)
    assert [CODES[c] for c in sv.pile(g2, 2)] == PILES[1] + ["mead", "cheese", "mead"]
    assert golds(g2) == [60, 40, 50]
    return [CODES[c] for c in sv.pile(g2, 2)]


def test_pass_and_inspect_rejections():
    log = [setup()] + bags(4, 0, {}, {})
    r = play(H(4), log[:-1] + [pas(0, 1)] + log[-1:] + [
        pas(1, 2), inspect(2, 2), pas(0, 0), pas(0, 7), pas(0, 1), inspect(0, 1), pas(0, 1)])
    n = len(log) + 1
    assert errors(r) == [[n, "wrong_phase"], [n + 2, "not_the_sheriff"], [n + 3, "not_the_sheriff"],
                         [n + 4, "bad_target"], [n + 5, "bad_target"], [n + 7, "already_resolved"],
                         [n + 8, "already_resolved"]], errors(r)
    return errors(r)


def test_passed_goods_go_to_the_stand_contraband_face_down():
    def view_after(bag):
        r = play(H(3), [setup()] + bags(3, 0, {1: bag}, {1: "apple"}) + [pas(0, 1)])
        v = bytearray(r.game.PUBLIC_SIZE)
        r.game.public(v)
        return r.game, v
    g, pepper = view_after(["apple", "apple", "pepper"])
    _, silk = view_after(["apple", "apple", "silk"])
    _, cheese = view_after(["apple", "apple", "cheese"])
    assert stands(g, 1) == {"apple": 2, "pepper": 1}
    assert pepper == silk and pepper != cheese   # contraband is public only as a count
    d = sv.describe(pepper)["seats"][1]
    assert d["stand"]["apple"] == 2 and d["contraband"] == 1
    return d


def test_bribes():
    log = [setup()] + bags(4, 0, {1: ["apple", "apple", "pepper"], 2: ["cheese"]}, {})
    r = play(H(4), log + [
        pas(0, 1, gold=7, bag=["pepper", "silk", "pepper"]),
        pas(0, 2, gold=51), pas(0, 2, stand=["apple"]), pas(0, 2, gold=50, bag=["bread"]), pas(0, 3)])
    g = r.game
    n = len(log) + 1
    assert errors(r) == [[n + 2, "not_enough_gold"], [n + 3, "not_on_stand"]], errors(r)
    assert golds(g) == [107, 43, 0, 50]
    assert stands(g, 0) == {"pepper": 1} and stands(g, 1) == {"apple": 2} and stands(g, 2) == {"cheese": 1}
    # Round 2 (Sheriff 1): seat 0 bribes with the pepper on its stand; a stand good it lacks is refused.
    r2 = play(H(4), log + [pas(0, 1, gold=7, bag=["pepper"]), pas(0, 2), pas(0, 3)] + bags(4, 1, {}, {}) + [
        pas(1, 0, stand=["pepper", "pepper"]), pas(1, 0, stand=["pepper"], gold=3)])
    assert errors(r2) == [[len(log) + 14, "not_on_stand"]], errors(r2)
    assert stands(r2.game, 1) == {"apple": 2, "pepper": 1} and stands(r2.game, 0) == {"apple": 1}
    r3 = play(H(3), [setup()] + bags(3, 0, {}, {}) + [pas(0, 1, bag=["bread"])])
    assert last_error(r3) == "not_in_deck"
    return golds(g)


def test_bribe_promising_more_bag_goods_than_a_bag_holds():
    """repros/sheriff-bribe-bag-promise-6: six promised apples, one in the bag: accepted, the one
    apple goes to the Sheriff, the other promises are simply not kept (no list capacity)."""
    piles = [["cheese"] * 5, ["chicken"] * 5]
    r = play(H(3), [setup(piles)] + bags(3, 0, {}, {}) + [pas(0, 1, bag=["apple"] * 6)])
    assert errors(r) == [], errors(r)
    s = r.result()
    assert s["scores"] == [72, 50, 50] and s["gold"] == [50, 50, 50], s
    assert stands(r.game, 0) == {"apple": 1} and stands(r.game, 1) == {}
    return s["scores"]


def test_bribe_of_seventeen_stand_goods():
    """repros/sheriff-bribe-stand-17: a bribe of 17 of the 20 stand apples is accepted; 18 (of 20)
    as well, 21 is refused as not_on_stand, never malformed."""
    apples5 = dict((m, ["apple"] * 5) for m in (1, 2, 3, 4))
    round1 = bags(5, 0, apples5, {}) + [pas(0, m, bag=["apple"] * 5) for m in (1, 2, 3, 4)]
    round2 = bags(5, 1, {0: ["cheese"]}, {0: "cheese"})
    r = play(H(5), [setup()] + round1 + round2 + [pas(1, 0, stand=["apple"] * 21), pas(1, 0, stand=["apple"] * 17)])
    n = 1 + len(round1) + len(round2) + 1
    assert errors(r) == [[n + 1, "not_on_stand"]], errors(r)
    s = r.result()
    assert s["scores"][:2] == [84, 104] and s["gold"] == [50] * 5, s
    assert stands(r.game, 1) == {"apple": 17}
    assert r.game.VOCAB.decode(_rec(r, pas(1, 0, stand=["apple"] * 3, bag=["mead", "apple"])))["bribe"] == {
        "stand": ["apple"] * 3, "bag": ["apple", "mead"]}
    return s["scores"]


def _rec(r, a):
    rec = bytearray(len(r.rec))
    assert r.game.VOCAB.encode(a, rec) == 0
    return rec


# -- running out of gold ---------------------------------------------------------------
BROKE_STAND = ["chicken", "cheese", "apple", "apple", "pepper"]


def broke(gold_left, confiscated):
    """4 players. Round 1: seat 1 brings BROKE_STAND through with a bribe that leaves
    ``gold_left``; round 2 quiet; round 3: seat 1 is caught with ``confiscated``."""
    return ([setup()] + round_(4, 0, {1: BROKE_STAND}, {}, [pas(0, 1, gold=50 - gold_left), pas(0, 2), pas(0, 3)])
            + round_(4, 1) + bags(4, 2, {1: confiscated}, {1: "cheese"}))


def test_out_of_gold_default_legal_goods_by_value_then_contraband_then_forgiven():
    r = play(H(4), broke(0, ["crossbow", "silk", "mead", "pepper", "pepper"]) + [inspect(2, 1)])
    g = r.game
    assert not r.rejected, r.rejected
    # Owes 20, has 0: the whole stand (17) goes, 3 are forgiven.
    assert g.gold(1) == 0 and stands(g, 1) == {}
    assert stands(g, 2) == {"apple": 4, "cheese": 1, "chicken": 1, "pepper": 1}
    r2 = play(H(4), broke(5, ["crossbow", "silk", "mead"]) + [inspect(2, 1)])
    g2 = r2.game
    # Owes 12: 5 gold, then apple, apple, cheese (7): chicken and pepper stay.
    assert g2.gold(1) == 0 and g2.gold(2) == 55 and stands(g2, 1) == {"chicken": 1, "pepper": 1}
    r3 = play(H(4), broke(5, ["pepper", "silk", "pepper"]) + [inspect(2, 1)])
    # Owes 12 again; the chosen default is cheapest first, so no change is lost.
    assert stands(r3.game, 1) == stands(g2, 1)
    return [golds(g), golds(g2)]


def test_out_of_gold_explicit_pay_with():
    log = broke(5, ["crossbow", "silk", "mead"])
    n = len(log) + 2
    r = play(H(4), log + [
        inspect(2, 1, pay_with=["pepper"]),                    # contraband while legal goods remain
        inspect(2, 1, pay_with=["chicken", "cheese", "apple"]),  # the apple comes after the debt is covered
        inspect(2, 1, pay_with=["chicken"]),                   # does not cover, stand not exhausted
        inspect(2, 1, pay_with=["silk"]),                      # not on the stand
        inspect(2, 1, pay_with=["chicken", "cheese"])])
    assert errors(r) == [[n, "bad_payment"], [n + 1, "bad_payment"], [n + 2, "bad_payment"],
                         [n + 3, "bad_payment"]], errors(r)
    g = r.game
    assert stands(g, 1) == {"apple": 2, "pepper": 1} and g.gold(2) == 55
    assert stands(g, 2)["chicken"] == 1 and stands(g, 2)["cheese"] == 1
    # Whole stand when it cannot cover; contraband allowed once every legal good is given.
    r2 = play(H(4), broke(0, ["crossbow", "silk", "mead", "pepper", "pepper"]) + [
        inspect(2, 1, pay_with=["apple", "apple", "cheese", "chicken"]),
        inspect(2, 1, pay_with=["chicken", "cheese", "apple", "apple", "pepper"])])
    assert errors(r2) == [[n, "bad_payment"]] and stands(r2.game, 1) == {}
    # Gold enough: nothing to choose.
    r3 = play(H(4), broke(20, ["crossbow", "silk", "mead"]) + [inspect(2, 1, pay_with=["apple"])])
    assert last_error(r3) == "bad_payment"
    return errors(r)


def test_sheriff_short_of_gold_pays_an_honest_merchant_in_goods():
    log = ([setup()] + round_(4, 0, {1: BROKE_STAND}, {}, [pas(0, 1, gold=50), pas(0, 2), pas(0, 3)])
           + bags(4, 1, {2: ["apple"] * 4}, {}))
    r = play(H(4), log + [inspect(1, 2)])
    g = r.game
    assert not r.rejected, r.rejected
    # Owes 8 with no gold: apple, apple, cheese (7), chicken (11), no change; the pepper stays.
    assert g.gold(1) == 0 and stands(g, 1) == {"pepper": 1}
    assert stands(g, 2) == {"apple": 7, "cheese": 1, "chicken": 1}
    r2 = play(H(4), log + [inspect(1, 2, pay_with=["chicken", "cheese", "apple"])])
    assert not r2.rejected and stands(r2.game, 1) == {"apple": 1, "pepper": 1}
    return stands(g, 2)


# -- rounds and game end ---------------------------------------------------------------
def test_round_ends_by_itself_merchants_draw_back_to_six():
    r = play(H(3), [setup()] + bags(3, 0, {1: ["apple"] * 5, 2: ["cheese", "mead"]}, {}) + [pas(0, 2)])
    g = r.game
    assert [sv.hand(g, s) for s in range(3)] == [6, 1, 4] and g.s[K.R_PHASE] == K.INSPECT
    draw = g.s[K.R_DRAW]
    r.feed(json.dumps(pas(0, 1)).encode())
    assert [sv.hand(g, s) for s in range(3)] == [6, 6, 6] and g.s[K.R_DRAW] == draw - 7
    assert g.s[K.R_PHASE] == K.MARKET and g.s[K.R_SHERIFF] == 1 and g.s[K.R_TURN] == 2 and g.s[K.R_ROUND] == 1
    return [g.s[K.R_DRAW], g.summary()["gold"]]


def test_game_ends_after_each_player_was_sheriff_twice_three_times_at_3():
    out = []
    for n, first in ((3, 1), (4, 0), (5, 3)):
        acts = [setup()]
        sheriffs = []
        for i in range(3 * n if n == 3 else 2 * n):
            sheriffs.append((first + i) % n)
            acts += round_(n, (first + i) % n)
        r = play(H(n, first_sheriff=first), acts + [market((first + 1) % n)])
        s = r.game.summary()
        assert errors(r) == [[len(acts) + 2, "game_over"]], errors(r)
        assert s["over"] and [sheriffs.count(x) for x in range(n)] == [3 if n == 3 else 2] * n
        assert sorted(s["winners"]) == s["winners"] and len(s["winners"]) >= 1
        out.append([len(sheriffs), s["scores"], s["winners"]])
    return out


def test_empty_draw_pile_refill_keeps_top_five_of_each_pile():
    # 3 players, no royals: 128 cards in the draw pile after setup. Each round both merchants
    # set 5 aside onto pile 1 and draw 5, then bring 5 through and draw 5 back: 20 a round.
    r = play(H(3, royal=False), [setup()])
    g = r.game
    for rnd in range(6):
        _quiet_round(r, g, 5)
    assert g.s[K.R_DRAW] == 8 and g.s[K.R_PILE1] == 65 and g.s[K.R_REFILLS] == 0
    a, b = merchants(3, g.s[K.R_SHERIFF])
    first = _unknown(g, 5)
    _feed(r, market(a, first, to=1))
    assert g.s[K.R_DRAW] == 3 and g.s[K.R_PILE1] == 70
    pool_before = sum([sv.pool(g, c) for c in range(K.KINDS)])
    second = _unknown(g, 5)
    _feed(r, market(b, second, to=1))
    # 3 drawn, then all but the top 5 of pile 1 (65 cards; pile 2 has only 5) make the new draw
    # pile, 2 more are drawn; then the 5 set-aside cards go on pile 1.
    assert g.s[K.R_REFILLS] == 1 and g.s[K.R_DRAW] == 63
    assert [CODES[c] for c in sv.pile(g, 1)] == first + second and g.s[K.R_PILE2] == 5
    assert sum([sv.pool(g, c) for c in range(K.KINDS)]) == pool_before - 5 + 65
    assert not r.rejected, r.rejected
    return [g.s[K.R_DRAW], g.digest()]


def test_deck_running_dry_skips_draws_and_empty_hands_sit_out():
    # 5 players, no royals: every merchant sets 1 card aside onto pile 1 and brings 5 through
    # (20 cards a round leave for the stands), until not even a refill can feed the draws.
    r = play(H(5, royal=False), [setup()])
    g = r.game
    hands = []
    sitters = []
    while not g.over():
        sitters.append(_quiet_round(r, g, 1))
        hands.append([sv.hand(g, s) for s in range(5)])
        if min(hands[-1]) < 6 and not g.over():
            # draws were skipped only because the refill found no more than 5 cards per pile
            assert g.s[K.R_DRAW] == 0 and g.s[K.R_PILE1] <= 5 and g.s[K.R_PILE2] <= 5
    assert not r.rejected, r.rejected
    short = [i for i in range(len(hands)) if min(hands[i]) < 6]
    assert short == [8, 9] and hands[8][3] == 6, hands   # seat 3, Sheriff of round 9, kept 6
    # Round 10 (Sheriff 4): seat 0 sets its last card aside while pile 1 holds only 5, so the
    # refill finds nothing and it sits out; seats 1 and 2 then each draw the card set aside just
    # before them (pile 1 holds 6: a refill of 1).
    assert [sv.hand(g, s) for s in range(3)] == [0, 0, 0] and sitters == [[]] * 9 + [[0]], sitters
    last = short[0]
    total = sum([g.stand(s, c) for s in range(5) for c in range(K.KINDS)])
    assert total + sum([sv.hand(g, s) for s in range(5)]) + g.s[K.R_PILE1] + g.s[K.R_PILE2] + g.s[K.R_DRAW] == 204
    return [hands[last], sitters, g.s[K.R_REFILLS], total]


def _feed(r, action):
    err = r.feed(json.dumps(action).encode())
    assert not err, (action, r.rejected)


def _unknown(g, n):
    """``n`` card codes that may still be unidentified (the most plentiful goods first)."""
    left = [sv.pool(g, c) for c in range(K.KINDS)]
    out = []
    for _ in range(n):
        c = left.index(max(left))
        left[c] -= 1
        out.append(CODES[c])
    return out


def _quiet_round(r, g, discard):
    """Merchants set ``discard`` unknown cards aside onto pile 1, load 5 (or their whole hand),
    declare apples and are passed. Returns the merchants who sat the round out."""
    n = g.seats()
    sheriff = g.s[K.R_SHERIFF]
    for m in merchants(n, sheriff):
        k = min(discard, sv.hand(g, m))
        _feed(r, market(m, _unknown(g, k), to=1) if k else market(m))
    sitters = [m for m in merchants(n, sheriff) if g.s[g._at(m) + K.FLAGS] & K.SKIPPED]
    for m in merchants(n, sheriff):
        if sv.hand(g, m):
            _feed(r, load(m, _unknown(g, min(5, sv.hand(g, m)))))
    for m in merchants(n, sheriff):
        if g.s[K.R_PHASE] == K.DECLARE and not g.s[g._at(m) + K.FLAGS] & K.SKIPPED:
            _feed(r, declare(m, "apple", len(sv.bag(g, m))))
    for m in merchants(n, sheriff):
        if g.s[K.R_PHASE] == K.INSPECT and not g.s[g._at(m) + K.FLAGS] & K.DONE:
            _feed(r, pas(sheriff, m))
    return sitters


# -- scoring ---------------------------------------------------------------------------
class Stands:
    """A hand-built end position for the scoring functions."""

    def __init__(self, gold, goods):
        self.golds = gold
        self.goods = goods

    def seats(self):
        return len(self.golds)

    def gold(self, seat):
        return self.golds[seat]

    def stand(self, seat, good):
        return self.goods[seat].get(CODES[good], 0)


def test_rulebook_125_points():
    from shared_rules.sheriff import score as sheriff_score
    tai = {"apple": 4, "cheese": 6, "bread": 1, "chicken": 4, "pepper": 2, "crossbow": 1}
    pos = Stands([42, 0, 0], [tai, {"apple": 10, "bread": 3, "chicken": 6}, {"apple": 8, "bread": 2, "chicken": 4}])
    b = sheriff_score.bonuses(pos)
    assert b[0] == 15 + 2       # Cheese King, half the Chicken Queen (5 // 2)
    assert sheriff_score.scores(pos)[0] == 125
    return [b, sheriff_score.scores(pos)]


def test_king_and_queen_ties_split_rounded_down():
    from shared_rules.sheriff import score as sheriff_score
    kings = Stands([0, 0, 0], [{"apple": 5}, {"apple": 5}, {"apple": 3}])
    assert sheriff_score.bonuses(kings) == [15, 15, 0]          # (20 + 10) // 2, no Queen
    three = Stands([0, 0, 0], [{"cheese": 2}, {"cheese": 2}, {"cheese": 2}])
    assert sheriff_score.bonuses(three) == [8, 8, 8]            # (15 + 10) // 3
    queens = Stands([0, 0, 0, 0], [{"chicken": 6}, {"chicken": 2}, {"chicken": 2}, {}])
    assert sheriff_score.bonuses(queens) == [10, 2, 2, 0]       # 5 // 2
    alone = Stands([0, 0, 0], [{"bread": 1}, {}, {}])
    assert sheriff_score.bonuses(alone) == [15, 0, 0]           # a Queen needs at least one good
    return [sheriff_score.bonuses(kings), sheriff_score.bonuses(queens)]


def test_royal_goods_count_for_king_and_queen():
    from shared_rules.sheriff import score as sheriff_score
    gouda = Stands([0, 0, 0], [{"cheese": 11}, {"cheese": 10, "gouda": 1}, {}])
    assert sheriff_score.bonuses(gouda) == [10, 15, 0]         # 10 + 2 = 12 beats 11
    royal = Stands([0, 0, 0], [{"golden_apples": 1}, {"apple": 2, "green_apples": 1}, {"royal_rooster": 1}])
    assert sheriff_score.bonuses(royal) == [10, 20, 10]
    assert sheriff_score.scores(royal) == [16, 28, 18]          # golden 6, 2 apples + green 4 + 4, rooster 8
    return sheriff_score.scores(gouda)


def test_winner_tie_breaks():
    from shared_rules.sheriff import score as sheriff_score
    # 34 each: seat 0 (2 apples, Apple King), seat 1 (1 chicken, Chicken King), seat 2 (gold only).
    legal = Stands([10, 20, 34], [{"apple": 2}, {"chicken": 1}, {}])
    assert sheriff_score.scores(legal) == [34, 34, 34] and sheriff_score.winners(legal) == [0]
    contraband = Stands([28, 34, 20], [{"pepper": 1}, {}, {}])
    assert sheriff_score.winners(contraband) == [0]
    # Rye counts as 2 bread for the King, but it is a contraband card for the tie-break.
    royal = Stands([13, 21, 0], [{"rye": 1}, {"bread": 1}, {}])
    assert sheriff_score.scores(royal) == [34, 34, 0] and sheriff_score.winners(royal) == [1]
    shared = Stands([34, 20, 34], [{}, {}, {}])
    assert sheriff_score.winners(shared) == [0, 2]
    return sheriff_score.winners(shared)


# -- robustness and hidden information -------------------------------------------------
def test_malformed_lines_change_nothing():
    r = play(H(3), ['{"a": "setup", "p": 0, "piles": [["apple"]]}',
                    '{"a": "setup", "p": 0, "pile1": [], "pile2": [], "piles": [[], []]}',
                    '{"a": "setup", "p": 0, "piles": "apple"}',
                    '{"a": "setup", "p": 0, "piles": [["apple", "rose", "apple", "apple", "apple"], []]}',
                    '{"a": "market", "p": 1, "discard": []}', '{"a": "smuggle", "p": 1}',
                    '{"a": "market", "p": 1, "discard": [], "take": [], "extra": 1}'])
    assert r.game.s[K.R_PHASE] == K.SETUP and r.game.s[K.R_DRAW] == 162 - 18
    r2 = play(H(3), [setup()] + bags(3, 0, {}, {}) + ['{"a": "pass", "p": 0, "target": 1, "bribe": {"promise": 1}}',
                                                       '{"a": "pass", "p": 0, "target": 1, "bribe": {"gold": -1}}'])
    assert errors(r2) == [[9, "malformed"], [10, "malformed"]], errors(r2)
    return errors(r)


def test_rejected_actions_leave_the_state_identical():
    r = play(H(4), [setup()] + bags(4, 0, {1: ["apple", "mead"]}, {}))
    before = bytes(r.game.s)
    for a in (market(1), load(1, ["apple"]), declare(1, "apple", 2), pas(1, 1), pas(0, 1, gold=99),
              inspect(0, 1, order=["apple"]), inspect(0, 1, pay_with=["apple"]), inspect(0, 1, to=5),
              setup(), pas(0, 1, stand=["crossbow"])):
        r.feed(json.dumps(a).encode())
        assert bytes(r.game.s) == before, a
    assert len(r.rejected) == 10
    return errors(r)


def test_public_view_hides_bags_and_hands_until_passed():
    def view(bag, good):
        r = play(H(3), [setup()] + bags(3, 0, {1: bag}, {1: good}))
        v = bytearray(r.game.PUBLIC_SIZE)
        r.game.public(v)
        return v
    a = view(["apple", "apple", "silk"], "apple")
    assert a == view(["apple", "apple", "apple"], "apple") and a != view(["apple", "apple", "apple"], "cheese")
    rec = bytearray(128)
    sh.Sheriff.VOCAB.encode(load(1, ["silk", "apple"]), rec)
    assert sh.Sheriff.VOCAB.decode(rec, public=True) == {"a": "load", "p": 1}
    sh.Sheriff.VOCAB.encode(setup(), rec)
    assert sh.Sheriff.VOCAB.decode(rec) == setup()
    return sv.describe(a)


def test_snapshot_round_trip_and_sizes():
    r = play(H(5), [setup()] + bags(5, 0, {1: ["apple", "crossbow"]}, {}) + [inspect(0, 1)])
    blob = r.game.snapshot()
    g = sh.Sheriff(3)
    assert g.restore(blob) == 0 and g.digest() == r.game.digest() and sv.bag(g, 2) == [0]
    bad = bytearray(blob)
    bad[40] ^= 1
    assert sh.Sheriff(3).restore(bytes(bad)) == 7
    assert len(r.game.s) <= 768
    return [len(r.game.s), len(blob), r.game.PUBLIC_SIZE, r.game.digest()]
