"""Sheriff card modules (laws, special orders, Merry Men): the deck profile's card sections and
effect primitives, one test per rule and per refusal of ``docs/rules-merry-men.md``, on both
interpreters through the real replay path."""
from kit import play, errors, act

from shared_rules import games
from shared_rules.sheriff.modules import profile
from shared_rules.sheriff.modules import profile_cards
from shared_rules.sheriff.modules import profile_effects as pe
from shared_rules.sheriff import layout as K
from shared_rules.sheriff.modules import cards as sc
from shared_rules.sheriff.modules import cards_layout as KC
from shared_rules.sheriff.modules import expansion_layout as KM
from shared_rules.catalogue import SHERIFF_CODES as CODES

LEGAL = ("apple", "cheese", "bread", "chicken")
CONTRA = ("pepper", "mead", "silk", "crossbow")


def laws(**change):
    out = [{"name": "law %d" % i, "effects": [{"do": "tax", "good": "apple", "gold": 1, "to": "bank"}]}
           for i in range(24)]
    out[23]["mark"] = "5"
    out[0]["mark"] = "4+"
    for k in change:
        out[int(k[1:])] = change[k]
    return out


ORDERS = [{"legal": LEGAL[i % 4], "contraband": CONTRA[i % 4], "reward": 5 + i} for i in range(15)]
ROBIN = {"name": "Robin Hood", "value": 10, "penalty": 5,
         "effects": [{"do": "steal", "from": "sheriff", "gold": 6, "keep": 3}]}
MEN = [ROBIN] + [{"name": "man %d" % i, "value": 4, "penalty": 3,
                  "effects": [{"do": "gold", "from": "bank", "to": "self", "amount": 2}]} for i in range(1, 18)]
PROFILE = {"format": 1, "name": "test values", "placeholders": True, "laws": laws(),
           "special_orders": ORDERS, "merry_men": MEN}


def H(n=3, mods=("special_orders",), prof=PROFILE):
    return {"game": "sheriff", "players": n, "modules": list(mods), "profile": prof}


def error_of(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def with_change(section, j, card):
    p = dict(PROFILE)
    cards = list(p[section])
    cards[j] = card
    p[section] = cards
    return p


# -- deck profile: card sections and effect primitives --------------------------------------
def test_profile_card_sections_round_trip_through_the_binary_form():
    blob = profile.encode(PROFILE)
    assert profile.decode(blob) == PROFILE
    stored = profile.load(PROFILE, profile_cards.SECTIONS)
    assert len(profile_cards.table(stored, "laws")) == 24 * profile_cards.LAW_ROW
    assert profile_cards.table(stored, "special_orders")[:3] == bytes((CODES.index("apple"), CODES.index("pepper"), 5))
    steal = bytes((pe.NAMES.index("steal"), pe.PARTIES.index("sheriff")))
    assert profile_cards.table(stored, "merry_men")[:6] == bytes((10, 5)) + steal + bytes((6, 3))
    return len(blob)


def test_validator_names_file_card_and_field():
    cases = (
        ("laws", 2, {"name": "x", "effects": [{"do": "teleport"}]}, "deck.json: laws[2] (x).effects[0].do: 'teleport'"),
        ("laws", 3, {"name": "x", "effects": [{"do": "tax", "good": "apple", "gold": 12, "to": "bank"}]},
         "deck.json: laws[3] (x).effects[0].gold: a whole number from 0 to 9"),
        ("laws", 4, {"name": "x", "effects": [{"do": "contraband", "good": "pepper"}]},
         "deck.json: laws[4] (x).effects[0].good: one of apple"),
        ("laws", 5, {"name": "x", "effects": [{"do": "gold", "from": "self", "to": "bank", "amount": 1}]},
         "deck.json: laws[5] (x).effects[0].from: one of bank, sheriff, each_merchant"),
        ("laws", 6, {"name": "x", "effects": [{"do": "steal", "from": "sheriff", "gold": 2, "keep": 1}]},
         "deck.json: laws[6] (x).effects[0].do: 'steal' is not a primitive this deck may use"),
        ("laws", 7, {"name": "x", "effects": [{"do": "bag_max", "cards": 4, "extra": 1}]},
         "deck.json: laws[7] (x).effects[0].extra: not a parameter of bag_max"),
        ("laws", 8, {"name": "x"}, "deck.json: laws[8] (x): either \"effects\""),
        ("laws", 9, {"name": "x", "mark": "6", "effects": [{"do": "bag_max", "cards": 4}]}, "deck.json: laws[9] (x).mark"),
        ("laws", 10, {"name": "", "effects": []}, "deck.json: laws[10].name"),
        ("laws", 23, {"name": "x", "effects": [{"do": "bag_max", "cards": 4}]}, "deck.json: laws: exactly one card"),
        ("merry_men", 1, {"name": "y", "value": 51, "penalty": 1, "effects": []}, "deck.json: merry_men[1] (y).value"),
        ("merry_men", 2, {"name": "y", "value": 5, "penalty": 1, "effects": [{"do": "tax", "good": "apple", "gold": 1, "to": "bank"}]},
         "deck.json: merry_men[2] (y).effects[0].do: 'tax' is not a primitive"),
        ("merry_men", 3, {"name": "y", "value": 5, "penalty": 1, "effects": [{"do": "steal", "from": "sheriff", "gold": 2, "keep": 3}]},
         "deck.json: merry_men[3] (y).effects[0].keep: at most the gold taken"),
        ("merry_men", 4, {"name": "y", "value": 5, "penalty": 1, "effects": [{"do": "gold", "from": "self", "to": "self", "amount": 3}]},
         "deck.json: merry_men[4] (y).effects[0].to: gold moves between two different parties"),
        ("special_orders", 5, {"legal": "pepper", "contraband": "silk", "reward": 3}, "deck.json: special_orders[5].legal"),
        ("special_orders", 6, {"legal": "apple", "contraband": "cheese", "reward": 3}, "deck.json: special_orders[6].contraband"),
        ("special_orders", 7, {"legal": "apple", "contraband": "silk", "reward": 300}, "deck.json: special_orders[7].reward"),
    )
    got = []
    for section, j, card, want in cases:
        msg = error_of(profile.check, with_change(section, j, card), "deck.json")
        assert msg.startswith(want), (msg, want)
        got.append(msg)
    short = dict(PROFILE)
    short["special_orders"] = ORDERS[:14]
    assert error_of(profile.check, short, "deck.json") == "deck.json: special_orders: a list of exactly 15 cards"
    return got


def test_unsupported_card_refuses_its_module_with_a_clear_message():
    odd = {"name": "Odd law", "unsupported": "swaps hands between players"}
    prof = with_change("laws", 4, odd)
    assert profile.decode(profile.encode(prof)) == prof
    msg = error_of(games.from_header, H(4, ("laws",), prof))
    assert msg.startswith("laws: card 4 (Odd law) cannot be expressed with the effect primitives (swaps hands"), msg
    # The same profile still plays the modules it can express.
    g = games.from_header(H(4, ("special_orders",), prof))
    assert isinstance(g, sc.SheriffCards)
    missing = dict(PROFILE)
    del missing["special_orders"]
    msg2 = error_of(games.from_header, H(4, ("special_orders",), missing))
    assert "special_orders needs its cards in the deck profile" in msg2, msg2
    return [msg, msg2]


def test_seed_robin_hood_is_expressible():
    """Robin Hood (seed): value 10 from the bank; takes 6 gold from the Sheriff, keeps 3, gives
    the rest away: one ``steal`` primitive."""
    row = profile_cards.table(profile.load(PROFILE, ("merry_men",)), "merry_men")[:profile_cards.MERRY_ROW]
    steal = bytes((pe.NAMES.index("steal"), pe.PARTIES.index("sheriff")))
    assert row[0] == 10 and row[2:6] == steal + bytes((6, 3)) and not any(row[6:])
    return list(row[:6])


# -- special orders -------------------------------------------------------------------------
SETUP = act("setup", 0, piles=[["apple"] * 5, ["cheese"] * 5])


def up(*orders):
    return [act("order_up", 0, order=o) for o in orders]


def to_inspect(bags, good=None):
    """3 players, Sheriff 0: merchants 1 and 2 skip the market, load ``bags`` and declare."""
    good = good or {}
    out = [act("market", 1, discard=[], take=[]), act("market", 2, discard=[], take=[])]
    out += [act("load", m, cards=bags[m]) for m in (1, 2)]
    out += [act("declare", m, good=good.get(m, "apple"), count=len(bags[m])) for m in (1, 2)]
    return out


def test_four_orders_face_up_before_the_market():
    r = play(H(), [SETUP, act("market", 1, discard=[], take=[])] + up(0, 1, 2, 0, 3, 4, 99)
             + [act("market", 1, discard=[], take=[])])
    assert errors(r) == [[3, "reveal_orders"], [7, "order_not_in_deck"], [9, "orders_full"], [10, "no_such_order"]], errors(r)
    assert r.game.orders_up() == [0, 1, 2, 3] and r.game.s[K.R_PHASE] == K.MARKET and r.game.s[K.R_TURN] == 2
    r2 = play(H(), [act("order_up", 0, order=15)])
    assert errors(r2) == [[2, "no_such_order"]], errors(r2)
    r3 = play({"game": "sheriff", "players": 3}, [act("order_up", 0, order=1)])
    assert errors(r3) == [[2, "malformed"]], errors(r3)   # base Sheriff has no such action
    return errors(r)


def test_a_bag_that_gets_through_fills_an_order():
    """Order 0 asks an apple and a pepper (reward 5): both go under the stand with the order;
    the apple no longer counts for King/Queen; the goods' values and the reward score."""
    bags = {1: ["apple", "pepper", "apple"], 2: ["cheese"]}
    log = [SETUP] + up(0, 1, 2, 3) + to_inspect(bags) + [
        act("pass", 0, target=1, orders=[0]), act("order_up", 1, order=4)]
    r = play(H(), log)
    assert errors(r) == [], errors(r)
    g = r.game
    assert g.order_held(1) == [0] and g.orders_up() == [1, 2, 3, 4]
    assert g.stand(1, CODES.index("apple")) == 1 and g.stand(1, CODES.index("pepper")) == 0
    res = r.result()
    assert res["scores"][1] == 50 + 2 + (2 + 6 + 5) + 20, res["scores"]   # King of apples with 1 on the stand
    return res["scores"]


def test_order_refusals_opened_bag_missing_goods_not_face_up_bribe_first():
    bags = {1: ["apple", "pepper"], 2: ["cheese", "mead"]}
    log = [SETUP] + up(0, 1, 2, 3) + to_inspect(bags) + [
        act("inspect", 0, target=1, orders=[0]),                          # opened: nothing to fill
        act("pass", 0, target=1, orders=[5]),                             # not face up
        act("pass", 0, target=1, orders=[0, 0]),                          # the same order twice
        act("pass", 0, target=2, orders=[1]),                             # cheese + mead: filled
        act("pass", 0, target=1, orders=[0], bribe={"bag": ["pepper"]}),  # the bribe takes the pepper
        act("pass", 0, target=1, orders=[2]),                             # bread + silk: not in the bag
        act("pass", 1, target=1, orders=[0]),                             # not the Sheriff
        act("pass", 0, target=1, orders=[0])]
    r = play(H(), log)
    assert errors(r) == [[13, "bag_opened"], [14, "order_not_up"], [15, "order_not_up"], [17, "goods_missing"],
                         [18, "goods_missing"], [19, "not_the_sheriff"]], errors(r)
    g = r.game
    assert g.order_held(1) == [0] and g.order_held(2) == [1] and g.over() is False
    return [errors(r), r.result()["scores"]]


def test_orders_with_deputies_settle_with_the_bag():
    """With deputies a bare stance cannot fill an order; the pass that settles the bag can."""
    h = H(6, ("deputies", "special_orders"))
    log = up(0, 1, 2, 3) + [act("deputy", 0), act("deputy", 1)]
    log += [act("market", m, discard=[], take=[]) for m in (2, 3, 4, 5)]
    log += [act("load", m, cards=["apple", "pepper"] if m == 2 else ["cheese"]) for m in (2, 3, 4, 5)]
    log += [act("declare", m, good="apple" if m == 2 else "cheese", count=2 if m == 2 else 1) for m in (2, 3, 4, 5)]
    log += [act("pass", 0, target=2, orders=[0]), act("pass", 0, target=2), act("pass", 1, target=2, orders=[0])]
    r = play(h, log)
    n = len(log)
    assert errors(r) == [[n - 1, "decide_first"]], errors(r)
    assert r.game.order_held(2) == [0]
    return errors(r)


def test_snapshot_restores_and_public_view_shows_orders():
    bags = {1: ["apple", "pepper"], 2: ["cheese"]}
    r = play(H(), [SETUP] + up(0, 1, 2, 3) + to_inspect(bags) + [act("pass", 0, target=1, orders=[0])])
    g = r.game
    blob = g.snapshot()
    g2 = games.from_header(H())
    assert g2.restore(blob) == 0 and g2.digest() == g.digest()
    assert games.from_header({"game": "sheriff", "players": 3}).restore(blob) != 0
    bad = bytearray(blob)
    bad[4 + KM.STATE_END] = 9   # an order under a seat that does not exist
    assert g2.restore(bytes(bad)) != 0 and g2.digest() == g.digest()
    view = bytearray(g.PUBLIC_SIZE)
    g.public(view)
    assert list(view[KC.PUB_ORD:KC.PUB_ORD + 5]) == [3, 1, 1, 1, 0]
    return [g.digest(), len(blob)]


# -- Merry Men --------------------------------------------------------------------------------
DONG, MINH, YEN, TRUNG = range(4)   # the seed's Robin Hood example: Đông is the Sheriff


def HM(n=4, mods=("merry_men",)):
    return H(n, mods)


def draws(pairs):
    """Setup: each seat keeps the first card of its pair and bottoms the second."""
    return [act("merry", seat, keep=k, bottom=b) for seat, (k, b) in enumerate(pairs)]


SETUP4 = act("setup", 0, piles=[["apple"] * 5, ["cheese"] * 5])
PAIRS = ((1, 2), (0, 3), (4, 5), (6, 7))   # Minh keeps Robin Hood (card 0)


def round4(bags, good=None, merry=()):
    """Sheriff Đông; the three merchants skip the market, load and declare (apple by default)."""
    good = good or {}
    out = [act("market", m, discard=[], take=[]) for m in (1, 2, 3)]
    for m in (1, 2, 3):
        a = act("load", m, cards=bags[m])
        if m in merry:
            a["merry"] = 1
        out.append(a)
    out += [act("declare", m, good=good.get(m, "apple"), count=len(bags[m]) + (m in merry)) for m in (1, 2, 3)]
    return out


def test_merry_men_setup_draws_and_refusals():
    log = draws(PAIRS) + [
        act("merry", 0, keep=8, bottom=9),     # already drew
        act("merry", 4 - 4, keep=8, bottom=9)]
    r = play(HM(), [SETUP4] + log + [act("merry", 1, keep=0, bottom=9)])
    assert errors(r) == [[7, "no_draw_owed"], [8, "no_draw_owed"], [9, "no_draw_owed"]], errors(r)
    r2 = play(HM(), [act("merry", 0, keep=0, bottom=0), act("merry", 0, keep=18, bottom=1),
                     act("merry", 0, keep=0, bottom=1), act("merry", 1, keep=0, bottom=2)])   # card 0 is held
    assert errors(r2) == [[2, "merry_not_in_deck"], [3, "merry_not_in_deck"], [5, "merry_not_in_deck"]], errors(r2)
    from shared_rules.sheriff.modules import merry_men as men
    g = r.game
    assert [men.held(g, s) for s in range(4)] == [1, 0, 4, 6] and [men.status(g, s) for s in range(4)] == [0] * 4
    r3 = play(H(4), [act("merry", 0, keep=0, bottom=1)])
    assert errors(r3) == [[2, "module_off"]], errors(r3)
    # The deal: two each, one put back under the deck; nobody can keep a card put back.
    r4 = play(HM(), [act("merry", 0, keep=1), act("merry", 0, keep=1, bottom=2), act("merry", 1, keep=2, bottom=3),
                     act("merry", 1, keep=4, bottom=2)])
    assert errors(r4) == [[2, "draw_count"], [4, "not_on_top"], [5, "not_on_top"]], errors(r4)
    return errors(r) + errors(r2) + errors(r4)


def test_seed_robin_hood_smuggled_past_a_bribe_of_8():
    """Minh smuggles Robin Hood past Đông with a bribe of 8: +10 gold from the bank; he takes 6
    from Đông, keeps 3 and gives Yến 2 and Trung 1; Robin Hood goes to the bottom and Minh draws
    again at once."""
    bags = {MINH: ["apple"], YEN: ["cheese"], TRUNG: ["apple"]}
    log = [SETUP4] + draws(PAIRS) + round4(bags, {YEN: "cheese"}, merry=(MINH,)) + [
        act("pass", DONG, target=MINH, bribe={"gold": 8}, give=[0, 0, 2, 1])]
    r = play(HM(), log)
    assert errors(r) == [], errors(r)
    g = r.game
    from shared_rules.sheriff.modules import merry_men as men
    assert [g.gold(s) for s in range(4)] == [50 + 8 - 6, 50 - 8 + 10 + 3, 52, 51]
    # Robin Hood (card 0) lies under the deck, below the four cards the deal put back.
    assert men.held(g, MINH) == -1 and men.status(g, MINH) == men.OWED and g.s[KM.STATE_END + 15] == 8 + 4   # sheriff_merry _MEN_UNDER + its rank
    # Robin Hood went under the deck: the two new cards come from the top, not Robin Hood again.
    n = len(log)
    r2 = play(HM(), log + [act("merry", MINH, keep=0, bottom=8), act("merry", MINH, keep=9, bottom=0),
                           act("merry", MINH, keep=9), act("merry", MINH, keep=9, bottom=8)])
    assert errors(r2) == [[n + 2, "not_on_top"], [n + 3, "not_on_top"], [n + 4, "draw_count"]], errors(r2)
    assert men.held(r2.game, MINH) == 9
    # Without `give`: one coin at a time clockwise from Minh's left (Yến, Trung, Đông).
    r3 = play(HM(), log[:-1] + [act("pass", DONG, target=MINH, bribe={"gold": 8})])
    assert [r3.game.gold(s) for s in range(4)] == [53, 55, 51, 51], [r3.game.gold(s) for s in range(4)]
    return [g.gold(s) for s in range(4)]


def test_merry_man_give_refusals():
    bags = {MINH: ["apple"], YEN: ["cheese"], TRUNG: ["apple"]}
    base = [SETUP4] + draws(PAIRS) + round4(bags, {YEN: "cheese"}, merry=(MINH,))
    n = len(base)
    r = play(HM(), base + [
        act("pass", DONG, target=MINH, give=[0, 0, 2, 2]),    # 4 given: the rest is 3
        act("pass", DONG, target=MINH, give=[0, 3, 0, 0]),    # not to the owner
        act("pass", DONG, target=MINH, give=[0, 0, 3]),       # one amount per seat
        act("pass", DONG, target=YEN, give=[0, 0, 0, 0]),     # no Merry Man in Yến's bag
        act("pass", DONG, target=MINH, give=[3, 0, 0, 0])])   # back to the Sheriff: fine
    assert errors(r) == [[n + 2, "bad_give"], [n + 3, "bad_give"], [n + 4, "bad_give"], [n + 5, "bad_give"]], errors(r)
    assert r.game.gold(DONG) == 50 - 6 + 3
    return errors(r)


def test_merry_man_found_pays_its_penalty_then_waits_for_contraband():
    """Robin Hood (penalty 5) found among truthful apples: the apples reach the stand, Minh pays
    5 to the Sheriff and holds none; his next contraband through lets him draw at once."""
    from shared_rules.sheriff.modules import merry_men as men
    bags = {MINH: ["apple", "apple"], YEN: ["cheese"], TRUNG: ["apple"]}
    log = [SETUP4] + draws(PAIRS) + round4(bags, {YEN: "cheese"}, merry=(MINH,)) + [
        act("inspect", DONG, target=MINH), act("pass", DONG, target=YEN), act("pass", DONG, target=TRUNG)]
    r = play(HM(), log)
    assert errors(r) == [], errors(r)
    g = r.game
    assert g.gold(MINH) == 45 and g.gold(DONG) == 55 and g.stand(MINH, CODES.index("apple")) == 2
    assert men.held(g, MINH) == -1 and men.status(g, MINH) == men.WAIT
    r2 = play(HM(), log + [act("merry", MINH, keep=0, bottom=8)])   # no draw while he waits
    assert [e[1] for e in errors(r2)] == ["no_draw_owed"], errors(r2)
    # Lying with a Merry Man: the penalty adds to the confiscated goods'.
    bags3 = {MINH: ["pepper"], YEN: ["cheese"], TRUNG: ["apple"]}
    r3 = play(HM(), [SETUP4] + draws(PAIRS) + round4(bags3, {YEN: "cheese"}, merry=(MINH,))
              + [act("inspect", DONG, target=MINH)])
    assert errors(r3) == [] and r3.game.gold(MINH) == 50 - 4 - 5
    return [g.gold(s) for s in range(4)]


def test_contraband_through_ends_the_wait():
    from shared_rules.sheriff.modules import merry_men as men
    bags = {MINH: ["apple"], YEN: ["cheese"], TRUNG: ["apple"]}
    log = [SETUP4] + draws(PAIRS) + round4(bags, {YEN: "cheese"}, merry=(MINH,)) + [
        act("inspect", DONG, target=MINH), act("pass", DONG, target=YEN), act("pass", DONG, target=TRUNG)]
    # Round 2: Sheriff Minh. Round 3: Sheriff Yến; Minh smuggles a pepper through.
    r2 = [act("market", m, discard=[], take=[]) for m in (YEN, TRUNG, DONG)]
    r2 += [act("load", m, cards=["apple"]) for m in (YEN, TRUNG, DONG)]
    r2 += [act("declare", m, good="apple", count=1) for m in (YEN, TRUNG, DONG)]
    r2 += [act("pass", MINH, target=m) for m in (YEN, TRUNG, DONG)]
    r3 = [act("market", m, discard=[], take=[]) for m in (TRUNG, DONG, MINH)]
    r3 += [act("load", TRUNG, cards=["apple"]), act("load", DONG, cards=["apple"]),
           act("load", MINH, cards=["pepper"], merry=1), act("load", MINH, cards=["pepper"])]
    r3 += [act("declare", m, good="apple", count=1) for m in (TRUNG, DONG, MINH)]
    r3 += [act("pass", YEN, target=MINH)]
    r = play(HM(), log + r2 + r3)
    assert [e[1] for e in errors(r)] == ["no_merry_man"], errors(r)   # he holds none while he waits
    assert men.status(r.game, MINH) == men.OWED | men.ONE
    # Trust regained: he "may at once draw one new card" (rút một thẻ), none put back.
    n = len(log + r2 + r3)
    r4 = play(HM(), log + r2 + r3 + [act("merry", MINH, keep=8, bottom=9), act("merry", MINH, keep=0),
                                     act("merry", MINH, keep=8)])
    assert errors(r4)[1:] == [[n + 2, "draw_count"], [n + 3, "not_on_top"]], errors(r4)
    assert men.held(r4.game, MINH) == 8 and men.status(r4.game, MINH) == 0
    v = bytearray(r.game.PUBLIC_SIZE)
    r.game.public(v)
    assert v[KC.PUB_MEN + MINH] == 2 | 8   # owed a draw, of one card: public (trust regained in the open)
    return [r.game.digest(), r4.game.digest()]


def test_declared_count_includes_the_merry_man_and_bag_limit():
    bags = {MINH: ["apple"], YEN: ["cheese"], TRUNG: ["apple"]}
    log = [SETUP4] + draws(PAIRS) + [act("market", m, discard=[], take=[]) for m in (1, 2, 3)] + [
        act("load", MINH, cards=["apple"] * 5, merry=1),   # 6 cards
        act("load", MINH, cards=["apple"], merry=2),
        act("load", MINH, cards=["apple"], merry=1), act("load", YEN, cards=["cheese"]),
        act("load", TRUNG, cards=["apple"]),
        act("declare", MINH, good="apple", count=1), act("declare", MINH, good="apple", count=2)]
    r = play(HM(), log)
    n = len(log) + 1
    assert errors(r) == [[n - 6, "bag_size"], [n - 5, "bag_size"], [n - 1, "count_mismatch"]], errors(r)
    return errors(r)


def test_which_merry_man_is_hidden():
    """The public view and the public form of the actions say who holds one, never which, nor
    whether it travels in a bag."""
    views = []
    for pairs in (PAIRS, ((1, 2), (5, 3), (4, 0), (6, 7))):
        g = play(HM(), [SETUP4] + draws(pairs)).game
        v = bytearray(g.PUBLIC_SIZE)
        g.public(v)
        views.append(bytes(v))
    assert views[0] == views[1]
    assert list(views[0][KC.PUB_MEN:KC.PUB_MEN + 4]) == [1, 1, 1, 1]
    rec = bytearray(128)
    for a in (act("merry", 0, keep=3, bottom=4), act("load", 1, cards=["apple"], merry=1)):
        assert sc.VOCAB.encode(a, rec) == 0
        assert sc.VOCAB.decode(rec, public=True) == {"a": a["a"], "p": a["p"]}
        masked = bytearray(rec)
        sc.VOCAB.mask_into(masked)
        assert not any(masked[2:]), list(masked[:16])
    return list(views[0][KC.PUB_MEN:KC.PUB_MEN + 6])


# -- Laws -------------------------------------------------------------------------------------
def _law(name, *effects, **mark):
    c = {"name": name, "effects": list(effects)}
    c.update(mark)
    return c


LAWS_T = [_law("apples contraband", {"do": "contraband", "good": "apple"}, mark="4+"),
          _law("cheese tax", {"do": "tax", "good": "cheese", "gold": 1, "to": "bank"}),
          _law("chicken reward", {"do": "reward", "good": "chicken", "gold": 2, "from": "bank"}),
          _law("liars pay double", {"do": "penalty", "on": "lying", "times": 2}),
          _law("honest bags free", {"do": "penalty", "on": "truthful", "times": 0}),
          _law("no gold bribes", {"do": "no_bribe", "kind": "gold"}),
          _law("no goods bribes", {"do": "no_bribe", "kind": "goods"}),
          _law("small bags", {"do": "bag_max", "cards": 3}),
          _law("toll", {"do": "gold", "from": "each_merchant", "to": "sheriff", "amount": 1}),
          _law("cheese tax to sheriff", {"do": "tax", "good": "cheese", "gold": 2, "to": "sheriff"},
               {"do": "gold", "from": "bank", "to": "sheriff", "amount": 3})]
LAWS_T += [_law("filler %d" % i, {"do": "tax", "good": "bread", "gold": 1, "to": "bank"}) for i in range(10, 23)]
LAWS_T.append(_law("sheriff's own", {"do": "bag_max", "cards": 5}, mark="5"))
LPROFILE = dict(PROFILE)
LPROFILE["laws"] = LAWS_T


def HL(n=3, mods=("laws",)):
    return H(n, mods, LPROFILE)


def skip_round(sheriff, n, bags, good=None, law=None, decide=None):
    """One round: the law choice (if given), empty markets, loads, declarations, then each bag
    passed unless ``decide`` says otherwise (a dict seat -> action)."""
    good = good or {}
    decide = decide or {}
    ms = [(sheriff + i) % n for i in range(1, n)]
    out = [law] if law else []
    out += [act("market", m, discard=[], take=[]) for m in ms]
    out += [act("load", m, cards=bags[m]) for m in ms]
    out += [act("declare", m, good=good.get(m, "apple"), count=len(bags[m])) for m in ms]
    out += [decide.get(m, act("pass", sheriff, target=m)) for m in ms]
    return out


def law(p, keep, bottom):
    return act("law", p, keep=list(keep), bottom=bottom)


def test_laws_removed_by_player_count():
    from shared_rules.sheriff.modules import laws as lw
    from shared_rules.sheriff.modules import laws_layout as LW
    got = []
    for n in (3, 4, 5):
        g = games.from_header(HL(n))
        got.append([lw.where(g, 0), lw.where(g, 23)])
    assert got == [[LW.OUT, LW.DECK], [LW.DECK, LW.DECK], [LW.DECK, LW.OUT]], got
    r = play(HL(3), [SETUP, law(0, (0, 1), 2)])
    assert errors(r) == [[3, "law_not_in_deck"]], errors(r)
    return got


def test_first_sheriff_keeps_two_later_sheriffs_one():
    from shared_rules.sheriff.modules import laws as lw
    from shared_rules.sheriff.modules import laws_layout as LW
    bags = {0: ["cheese"], 1: ["cheese"], 2: ["cheese"]}
    log = [SETUP, act("market", 1, discard=[], take=[]),   # the laws come first
           law(1, (10, 11), 12),                            # not the Sheriff
           law(0, (10,), 12),                               # the first Sheriff keeps two
           law(0, (10, 10), 12), law(0, (10, 11), 11), law(0, (10, 11), 24),
           ] + skip_round(0, 3, bags, {1: "cheese", 2: "cheese"}, law(0, (10, 11), 12)) + [
           law(1, (14, 13), 15)] + skip_round(1, 3, bags, {0: "cheese", 2: "cheese"}, law(1, (13,), 14))
    r = play(HL(), log)
    assert errors(r) == [[3, "wrong_phase"], [4, "not_the_sheriff"], [5, "keep_count"], [6, "law_not_in_deck"],
                         [7, "law_not_in_deck"], [8, "no_such_law"], [18, "keep_count"]], errors(r)
    g = r.game
    assert [lw.where(g, i) for i in (10, 11, 12, 13)] == [LW.POS2, LW.OUT, LW.LAW_UNDER, LW.POS1]
    assert g.s[K.R_PHASE] == KC.LAWS_PHASE and g.s[K.R_SHERIFF] == 2   # round 3 opens with its law
    v = bytearray(g.PUBLIC_SIZE)
    g.public(v)
    assert list(v[KC.PUB_LAWS:KC.PUB_LAWS + 2]) == [13, 10]
    return [g.gold(s) for s in range(3)]


def test_law_contraband_tax_and_gold_on_coming_into_force():
    """Apples are contraband (4 players: the card is in), cheese pays 1 per declared card to the
    bank, and each merchant pays the Sheriff 1 when the laws come into force."""
    bags = {1: ["cheese", "cheese"], 2: ["apple"], 3: ["cheese"]}
    log = [SETUP, law(0, (0, 1), 2), act("market", 1, discard=[], take=[]),
           act("market", 2, discard=[], take=[]), act("market", 3, discard=[], take=[])]
    log += [act("load", m, cards=bags[m]) for m in (1, 2, 3)]
    log += [act("declare", 1, good="cheese", count=2), act("declare", 2, good="apple", count=1),
            act("declare", 2, good="cheese", count=1), act("declare", 3, good="cheese", count=1),
            act("inspect", 0, target=2)]
    r = play(HL(4), log)
    assert errors(r) == [[11, "not_legal_good"]], errors(r)
    g = r.game
    # Seat 2 declared cheese, holds an apple (contraband today): confiscated, penalty 2.
    assert [g.gold(s) for s in range(4)] == [52, 48, 50 - 1 - 2, 49]
    r2 = play(HL(4), [SETUP, law(0, (8, 9), 2)])   # toll: each merchant pays 1; the bank pays 3
    assert [r2.game.gold(s) for s in range(4)] == [56, 49, 49, 49]
    return [g.gold(s) for s in range(4)]


def test_law_penalties_rewards_bribes_and_bag_size():
    bags = {1: ["chicken", "chicken"], 2: ["apple", "pepper"]}
    base = [SETUP, law(0, (2, 3), 4)] + [act("market", m, discard=[], take=[]) for m in (1, 2)]
    r = play(HL(), base + [act("load", 1, cards=bags[1]), act("load", 2, cards=bags[2]),
                           act("declare", 1, good="chicken", count=2), act("declare", 2, good="apple", count=2),
                           act("pass", 0, target=1), act("inspect", 0, target=2)])
    assert errors(r) == [], errors(r)
    g = r.game
    assert g.gold(1) == 54 and g.gold(2) == 50 - 8 and g.gold(0) == 58   # reward 2 x 2; pepper 4 x 2
    # Truthful bags cost the Sheriff nothing; no gold bribes; bags of 3 at most.
    r2 = play(HL(), [SETUP, law(0, (4, 5), 6)] + [act("market", m, discard=[], take=[]) for m in (1, 2)] + [
        act("load", 1, cards=["chicken", "chicken"]), act("load", 2, cards=["apple"]),
        act("declare", 1, good="chicken", count=2), act("declare", 2, good="apple", count=1),
        act("inspect", 0, target=1), act("pass", 0, target=2, bribe={"gold": 1})])
    assert errors(r2) == [[11, "bribe_forbidden"]] and r2.game.gold(0) == 50 and r2.game.gold(1) == 50, errors(r2)
    r3 = play(HL(), [SETUP, law(0, (6, 7), 8)] + [act("market", m, discard=[], take=[]) for m in (1, 2)] + [
        act("load", 1, cards=["chicken"] * 4), act("load", 1, cards=["chicken"] * 3), act("load", 2, cards=["apple"]),
        act("declare", 1, good="chicken", count=3), act("declare", 2, good="apple", count=1),
        act("pass", 0, target=1, bribe={"bag": ["chicken"]}), act("pass", 0, target=1, bribe={"gold": 2})])
    assert errors(r3) == [[6, "bag_size"], [11, "bribe_forbidden"]], errors(r3)
    return [g.gold(s) for s in range(3)]


def test_laws_phase_skipped_when_the_deck_runs_short():
    """A profile marking 21 laws 4+ leaves 3 at 3 players: the first Sheriff keeps 2, one stays;
    no later choice is possible (2 cards needed), so the laws in force stay for the game."""
    from shared_rules.sheriff.modules import laws as lw
    from shared_rules.sheriff.modules import laws_layout as LW
    prof = dict(LPROFILE)
    prof["laws"] = [dict(c, mark="4+") if 2 < i < 23 and "mark" not in c else c for i, c in enumerate(LAWS_T)]
    prof["laws"][0] = dict(LAWS_T[0], mark="4+")
    bags = {0: ["cheese"], 1: ["cheese"], 2: ["cheese"]}
    log = [SETUP] + skip_round(0, 3, bags, {1: "cheese", 2: "cheese"}, law(0, (1, 2), 23))
    log += skip_round(1, 3, bags, {0: "cheese", 2: "cheese"})
    r = play(H(3, ("laws",), prof), log)
    assert errors(r) == [], errors(r)
    g = r.game
    assert [lw.where(g, i) for i in (1, 2, 23)] == [LW.POS1, LW.POS2, LW.LAW_UNDER] and g.s[K.R_PHASE] == K.MARKET
    return g.digest()


def test_a_law_put_back_comes_up_only_when_the_laws_above_it_are_used():
    """A deck of 6 laws at 3 players (the others marked 4+). Put back, a law goes under the deck:
    "Lá bài bị loại bỏ được đặt úp xuống vào vị trí cuối cùng của chồng bài"; the next Sheriff draws
    the top two ("rút 2 lá bài trên cùng"), so it comes up only once the laws above it are used."""
    from shared_rules.sheriff.modules import laws as lw
    from shared_rules.sheriff.modules import laws_layout as LW
    prof = dict(LPROFILE)
    prof["laws"] = [c if 10 <= i <= 14 or i == 23 else dict(c, mark="4+") for i, c in enumerate(LAWS_T)]
    bags = {0: ["cheese"], 1: ["cheese"], 2: ["cheese"]}
    cheese = {0: "cheese", 1: "cheese", 2: "cheese"}
    log = [SETUP] + skip_round(0, 3, bags, cheese, law(0, (10, 11), 12))       # 12 under: 13 14 23 on top
    log += [law(1, (12,), 13)] + skip_round(1, 3, bags, cheese, law(1, (13,), 14))   # 14 under 12: 23 on top
    log += [law(2, (14,), 23)] + skip_round(2, 3, bags, cheese, law(2, (12,), 23))   # 23, then 12 come up
    log += [law(0, (23,), 14)]                                                  # only 14 and 23 are left
    r = play(H(3, ("laws",), prof), log)
    n1 = 1 + len(skip_round(0, 3, bags, cheese, law(0, (10, 11), 12)))
    n2 = n1 + 1 + len(skip_round(1, 3, bags, cheese, law(1, (13,), 14)))
    assert errors(r) == [[n1 + 2, "not_on_top"], [n2 + 2, "not_on_top"]], errors(r)
    g = r.game
    assert [lw.where(g, i) for i in (10, 11, 12, 13, 14, 23)] == [
        LW.OUT, LW.OUT, LW.POS2, LW.OUT, LW.LAW_UNDER, LW.POS1], [lw.where(g, i) for i in (10, 11, 12, 13, 14, 23)]
    return g.digest()


def test_laws_with_deputies_either_deputy_chooses_and_the_chest_collects():
    """With deputies the two choose together: either may log the choice, nobody else; a law's
    "sheriff" is the loot chest (split at the end of the inspection)."""
    h = H(6, ("deputies", "laws"), LPROFILE)
    log = [act("deputy", 0), act("deputy", 1), act("market", 2, discard=[], take=[]),
           law(2, (9, 10), 11), law(1, (9, 10), 11)]   # law 9: cheese tax 2 to the Sheriff, bank pays 3
    log += [act("market", m, discard=[], take=[]) for m in (2, 3, 4, 5)]
    log += [act("load", m, cards=["cheese"]) for m in (2, 3, 4, 5)]
    log += [act("declare", m, good="cheese", count=1) for m in (2, 3, 4, 5)]
    r = play(h, log)
    assert errors(r) == [[4, "wrong_phase"], [5, "not_the_sheriff"]], errors(r)
    g = r.game
    assert g.gold(KM.CHEST) == 3 + 4 * 2 and [g.gold(s) for s in range(6)] == [50, 50, 48, 48, 48, 48]
    log += [act(k, d, target=m) for m in (2, 3, 4, 5) for k, d in (("pass", 0), ("pass", 1))]
    r2 = play(h, log)
    g2 = r2.game
    assert errors(r2) == errors(r) and g2.gold(0) == g2.gold(1) == 55   # 11 in the chest: 5 each,
    assert g2.gold(KM.CHEST) == 1 and g2.s[K.R_PHASE] == KM.LOOT               # the odd coin awaits them
    return [g2.gold(s) for s in range(6)]


def test_merry_men_with_deputies_steal_from_the_settling_deputy_penalty_to_the_chest():
    h = H(6, ("deputies", "merry_men"))
    draws6 = [act("merry", s, keep=k, bottom=10 + s) for s, k in enumerate((1, 2, 0, 3, 4, 5))]
    rnd = [act("deputy", 0), act("deputy", 1)] + [act("market", m, discard=[], take=[]) for m in (2, 3, 4, 5)]
    rnd += [act("load", 2, cards=["apple"], merry=1), act("load", 3, cards=["apple"], merry=1)]
    rnd += [act("load", m, cards=["apple"]) for m in (4, 5)]
    rnd += [act("declare", m, good="apple", count=2 if m in (2, 3) else 1) for m in (2, 3, 4, 5)]
    rnd += [act("pass", 0, target=2), act("pass", 1, target=2),          # Robin Hood through
            act("inspect", 0, target=3), act("inspect", 1, target=3)]    # man 3 (penalty 3) found
    r = play(h, draws6 + rnd)
    assert errors(r) == [], errors(r)
    g = r.game
    # Seat 2: +10 from the bank, 6 from deputy 1 (whose pass settled the bag), keeps 3, the rest
    # one coin each clockwise: seats 3, 4, 5. Seat 3 pays 3 into the chest (both deputies opened).
    assert [g.gold(s) for s in range(6)] == [50, 44, 63, 51 - 3, 51, 51], [g.gold(s) for s in range(6)]
    return [g.gold(s) for s in range(7)]
