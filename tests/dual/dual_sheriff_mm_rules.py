"""Sheriff with the Merry Men modules: one test per rule and per refusal of ``docs/rules-merry-men.md``
(deputies, loot chest, Black Market, deck profile), and the seed's worked example, on both
interpreters through the real replay path."""
from kit import play, errors, act

from shared_rules import games
from shared_rules.sheriff.modules import profile
from shared_rules.sheriff import rules as sh
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.sheriff.modules import expansion as mm
from shared_rules.sheriff.modules import expansion_layout as KM
from shared_rules.catalogue import SHERIFF_CODES as CODES

PROFILE = {"format": 1, "name": "test values", "placeholders": True,
           "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}
MINH, YEN, DONG, CHAU, TRUNG, MAY = range(6)   # the seed's example table, clockwise


def H6(*mods):
    h = {"game": "sheriff", "players": 6, "modules": ["deputies"] + list(mods)}
    if "black_market" in mods:
        h["profile"] = PROFILE
    return h


def HB(n=4):
    return {"game": "sheriff", "players": n, "modules": ["black_market"], "profile": PROFILE}


def market(p, discard=()):
    return act("market", p, discard=list(discard), take=[])


def stance(kind, deputy, t, **opts):
    a = act(kind, deputy, target=t)
    a.update(opts)
    return a


def reveal(a, b):
    return [act("deputy", a), act("deputy", b)]


def merchants(d1, d2, first):
    return [(first + i) % 6 for i in range(6) if (first + i) % 6 not in (d1, d2)]


def to_inspection(d1, d2, first, bags=None, good=None):
    """Reveal, an empty market opened by ``first``, bags loaded (default one apple) and declared."""
    bags = bags or {}
    good = good or {}
    ms = merchants(d1, d2, first)
    out = reveal(d1, d2) + [market(m) for m in ms]
    out += [act("load", m, cards=bags.get(m, ["apple"])) for m in ms]
    out += [act("declare", m, good=good.get(m, "apple"), count=len(bags.get(m, ["apple"]))) for m in ms]
    return out


def all_pass(d1, d2, first):
    out = []
    for m in merchants(d1, d2, first):
        out += [stance("pass", d1, m), stance("pass", d2, m)]
    return out


def golds(g):
    return [g.gold(i) for i in range(g.seats())]


def stands(g, seat):
    return dict((CODES[c], g.stand(seat, c)) for c in range(K.KINDS) if g.stand(seat, c))


def header_error(h):
    try:
        games.from_header(h)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (h,))


# -- header and deck profile --------------------------------------------------------------
def test_headers_name_what_is_wrong():
    msgs = [header_error(h) for h in (
        {"game": "sheriff", "players": 5, "modules": ["deputies"]},
        {"game": "sheriff", "players": 6, "modules": ["deputies"], "first_sheriff": 1},
        {"game": "sheriff", "players": 4, "modules": ["black_market"]},
        {"game": "sheriff", "players": 4, "modules": ["laws"]},
        {"game": "sheriff", "players": 4, "modules": ["black_market", "black_market"], "profile": PROFILE},
        {"game": "sheriff", "players": 6},
        {"game": "sheriff", "players": 4, "modules": ["black_market"], "profile": {"format": 1}},
    )]
    assert "exactly 6 players" in msgs[0] and "first_sheriff" in msgs[1], msgs
    assert "profile" in msgs[2] and "laws needs its cards in the deck profile" in msgs[3] and "twice" in msgs[4], msgs
    assert msgs[6] == "header profile: name: a text of 1 to 64 characters", msgs
    g = games.from_header({"game": "sheriff", "players": 4, "profile": PROFILE})
    assert type(g) is sh.Sheriff   # a profile alone changes nothing
    g = games.from_header(H6("black_market"))
    assert type(g) is mm.SheriffMM and g.s[K.R_PHASE] == KM.REVEAL and g.s[K.R_DRAW] == 216 - 36
    return msgs


def test_profile_validator_names_every_field():
    bad = []
    for change, where in (
            ({"format": 2}, "format"), ({"placeholders": "yes"}, "placeholders"), ({"laws": []}, "laws"),
            ({"colour": 1}, "colour"), ({"black_market": {"pepper": [10, 12], "mead": [1, 1], "silk": [1, 1]}},
                                        "black_market.pepper"),
            ({"black_market": {"pepper": [1, 1], "mead": [1, -1], "silk": [1, 1]}}, "black_market.mead[1]"),
            ({"black_market": {"pepper": [1, 1], "mead": [1, 1]}}, "black_market.silk"),
            ({"black_market": {"pepper": [1, 1], "mead": [1, 1], "silk": [1, 1], "crossbow": [1, 1]}},
             "black_market.crossbow")):
        p = dict(PROFILE)
        p.update(change)
        try:
            profile.check(p, "deck.json")
            bad.append(change)
        except ValueError as e:
            assert str(e).startswith("deck.json: %s: " % where), (str(e), where)
    assert not bad, bad
    return "ok"


def test_profile_binary_form_round_trips_and_refuses_damage():
    blob = profile.encode(PROFILE)
    assert profile.decode(blob) == PROFILE
    assert profile.black_market_values(PROFILE) == bytes([12, 10, 13, 11, 15, 13])
    damaged = bytearray(blob)
    damaged[12] ^= 1
    msgs = []
    for b in (bytes(damaged), b"XXXX" + blob[4:], blob[:5]):
        try:
            profile.decode(b, "profile.bin")
        except ValueError as e:
            msgs.append(str(e))
    assert len(msgs) == 3 and all([m.startswith("profile.bin: (file): ") for m in msgs]), msgs
    return [len(blob), msgs]


# -- the deputy deck ----------------------------------------------------------------------
def test_deputy_deck_each_seat_once_per_cycle_nine_rounds():
    log = []
    pairs = ((0, 1), (2, 3), (4, 5), (5, 0), (1, 2), (3, 4), (0, 3), (1, 4), (2, 5))
    for d1, d2 in pairs:
        first = [m for m in range(6) if m not in (d1, d2)][0]
        log += to_inspection(d1, d2, first) + all_pass(d1, d2, first)
    r = play(H6(), log)
    assert errors(r) == [] and r.game.over(), errors(r)
    # Refusals: a seat twice in one round, a seat again in the same cycle, a setup action.
    r2 = play(H6(), [act("setup", 0, piles=[["apple"] * 5] * 2), act("deputy", 0), act("deputy", 0),
                     act("deputy", 1)])
    assert errors(r2) == [[2, "wrong_phase"], [4, "deputy_twice"]], errors(r2)
    assert r2.game.deputies() == (0, 1) and r2.game.s[K.R_PHASE] == K.MARKET
    return [r.result()["scores"], errors(r2)]


def test_deputy_deck_refuses_a_repeat_in_the_cycle():
    r = play(H6(), to_inspection(0, 1, 2) + all_pass(0, 1, 2) + [act("deputy", 1), act("deputy", 2)])
    errs = errors(r)
    assert errs == [[len(to_inspection(0, 1, 2) + all_pass(0, 1, 2)) + 2, "deputy_twice"]], errs
    assert r.game.deputies() == (2, 255) and r.game.s[K.R_PHASE] == KM.REVEAL
    return errs


# -- the open market ----------------------------------------------------------------------
def test_market_named_merchant_opens_then_clockwise_draw_pile_only():
    log = reveal(MINH, YEN) + [
        market(MINH),                                             # a deputy: not a merchant
        act("market", CHAU, discard=["apple"], take=[1]),         # no discard piles to draw from
        act("market", CHAU, discard=["apple"], take=[], to=2),    # the cards form one pile
        market(DONG, ["cheese", "apple"]),                        # the deputies named Đông
        market(TRUNG),                                            # Châu is next
        market(CHAU, ["pepper"]), market(TRUNG), market(MAY),
        act("market", MAY, discard=[], take=[])]
    r = play(H6(), log)
    assert errors(r) == [[4, "not_a_merchant"], [5, "no_discard_piles"], [6, "bad_pile"], [8, "not_your_turn"],
                         [12, "wrong_phase"]], errors(r)
    g = r.game
    assert sv.pile(g, 1) == [CODES.index(c) for c in ("cheese", "apple", "pepper")] and sv.pile(g, 2) == []
    assert [sv.hand(g, s) for s in range(6)] == [6] * 6 and g.s[K.R_DRAW] == 180 - 3
    assert g.s[K.R_PHASE] == K.LOAD
    return sv.describe(_view(g))["piles"]


def _view(g):
    v = bytearray(g.PUBLIC_SIZE)
    g.public(v)
    return v


# -- inspection: the three outcomes -------------------------------------------------------
def test_seed_example_minh_yen_dong_chau_trung_may():
    """The seed's round: Minh and Yến are deputies, Đông opens the market. Châu passes with a small
    bribe (the seed does not say what: two cheeses from her bag here); Minh wants to open Trung,
    Yến does not; both distrust Đông, who bribes both with 12 (into the loot chest); Minh would let
    Mây pass, Yến opens: Yến acts alone. Trung refuses Minh's offer, Minh opens: all legal, Minh
    pays Trung alone. Yến and Mây settle on 8, Yến's alone. The chest: 6 gold each (and a cheese)."""
    bags = {DONG: ["apple", "pepper", "pepper"], CHAU: ["cheese"] * 3, TRUNG: ["chicken"] * 3,
            MAY: ["apple", "mead"]}
    good = {CHAU: "cheese", TRUNG: "chicken"}
    log = to_inspection(MINH, YEN, DONG, bags, good) + [
        stance("pass", MINH, CHAU), stance("pass", YEN, CHAU, bribe={"bag": ["cheese", "cheese"]}),
        stance("inspect", MINH, TRUNG), stance("pass", YEN, TRUNG),
        stance("pass", YEN, DONG), stance("pass", MINH, DONG, bribe={"gold": 12}),
        stance("pass", MINH, MAY), stance("inspect", YEN, MAY),
        stance("inspect", MINH, TRUNG),
        stance("pass", YEN, MAY, bribe={"gold": 8})]
    r = play(H6(), log)
    g = r.game
    assert errors(r) == [], errors(r)
    assert golds(g) == [50 - 6 + 6, 50 + 8 + 6, 50 - 12, 50, 50 + 6, 50 - 8], golds(g)
    assert stands(g, MINH) == {"cheese": 1} and stands(g, YEN) == {"cheese": 1}
    assert stands(g, CHAU) == {"cheese": 1} and stands(g, TRUNG) == {"chicken": 3}
    assert stands(g, DONG) == {"apple": 1, "pepper": 2} and stands(g, MAY) == {"apple": 1, "mead": 1}
    assert g.gold(KM.CHEST) == 0 and g.s[K.R_PHASE] == KM.REVEAL and g.s[K.R_ROUND] == 1
    return r.result()


def test_both_open_truthful_each_deputy_pays_half():
    r = play(H6(), to_inspection(0, 1, 2, {3: ["apple"] * 3}) + [
        stance("inspect", 0, 3), stance("inspect", 1, 3)])
    assert errors(r) == [] and golds(r.game)[:4] == [47, 47, 50, 56], golds(r.game)
    # Base penalties are 2 per legal good: a truthful penalty is always even; the odd-coin rule
    # (the deputy who completes the opening pays it) is checked on the share directly.
    g = r.game
    g.s[g._at(4) + 3] |= 2 << 4   # deputy 0 said open on merchant 4
    rec = bytearray(128)
    g.VOCAB.encode(stance("inspect", 1, 4), rec)
    assert g._share(rec, 5) == 3 and g._share(rec, 6) == 3
    return golds(r.game)


def test_both_open_lying_penalty_into_the_chest_then_split():
    r = play(H6(), to_inspection(0, 1, 2, {3: ["apple", "pepper", "mead"]}) + [
        stance("inspect", 0, 3), stance("inspect", 1, 3, to=2)] + [
        stance("pass", 0, m) for m in (2, 4, 5)] + [stance("pass", 1, m) for m in (2, 4, 5)])
    g = r.game
    assert errors(r) == [], errors(r)
    assert golds(g) == [54, 54, 50, 42, 50, 50], golds(g)    # 8 into the chest, 4 each
    assert sv.pile(g, 2) == [CODES.index("pepper"), CODES.index("mead")] or sv.pile(g, 2) == [
        CODES.index("mead"), CODES.index("pepper")]
    return golds(g)


def test_lone_deputy_who_opens_keeps_the_bribe_or_pays_alone():
    log = to_inspection(0, 1, 2, {3: ["apple"] * 2}) + [
        stance("inspect", 0, 3), stance("pass", 1, 3),
        stance("pass", 1, 3),                          # Yến let it through: only the opener acts
        stance("inspect", 0, 3)]
    r = play(H6(), log)
    assert errors(r) == [[len(log), "already_decided"]], errors(r)
    assert golds(r.game)[:4] == [46, 50, 50, 54]
    r2 = play(H6(), log[:-2] + [stance("pass", 0, 3, bribe={"gold": 5, "bag": ["apple"]})])
    assert golds(r2.game)[:4] == [55, 50, 50, 45] and stands(r2.game, 0) == {"apple": 1}
    assert stands(r2.game, 3) == {"apple": 1}
    return [golds(r.game), golds(r2.game)]


def test_stance_refusals_and_two_merchants_at_once():
    base = to_inspection(0, 1, 2)
    n = len(base)
    r = play(H6(), base + [
        stance("pass", 0, 3, bribe={"gold": 1}),       # a bribe before both have spoken
        stance("inspect", 0, 3, order=["apple"]),      # inspection details before the bag opens
        stance("pass", 2, 3),                          # a merchant is no deputy
        stance("pass", 0, 1),                          # a deputy is no target
        stance("pass", 0, 3), stance("pass", 0, 3),    # a stance is said once
        stance("inspect", 1, 4), stance("pass", 1, 5),  # two merchants at once
        stance("inspect", 0, 4), stance("pass", 0, 5, bribe={"gold": 60}),
        stance("pass", 1, 3, bribe={"gold": 2}), stance("pass", 1, 3)])
    assert errors(r) == [[n + 2, "decide_first"], [n + 3, "decide_first"], [n + 4, "not_the_sheriff"],
                         [n + 5, "bad_target"], [n + 7, "already_decided"], [n + 11, "not_enough_gold"],
                         [n + 13, "already_resolved"]], errors(r)
    return golds(r.game)


# -- the loot chest -----------------------------------------------------------------------
def chest_of_three():
    """Round 1 (deputies 0 and 1): seat 3 bribes 3 gold and two bag goods into the chest."""
    log = to_inspection(0, 1, 2, {3: ["apple", "cheese", "cheese"]}, {3: "cheese"}) + [
        stance("pass", 0, 3), stance("pass", 1, 3, bribe={"gold": 3, "bag": ["apple", "cheese"]})]
    return log + [stance("pass", d, m) for m in (2, 4, 5) for d in (0, 1)]


def test_loot_chest_split_evenly_remainder_needs_an_action():
    log = chest_of_three()
    r = play(H6(), log + [market(2)])
    g = r.game
    assert errors(r) == [[len(log) + 2, "wrong_phase"]] and g.s[K.R_PHASE] == KM.LOOT
    assert golds(g)[:2] == [51, 51] and g.gold(KM.CHEST) == 1
    assert stands(g, KM.CHEST) == {"apple": 1, "cheese": 1} and stands(g, 0) == {} and stands(g, 1) == {}
    d = sv.describe(_view(g))
    assert d["loot_chest"]["gold"] == 1 and d["loot_chest"]["stand"]["apple"] == 1 and d["deputies"] == [0, 1]
    return d["loot_chest"]


def test_loot_agreed_split_or_discarded():
    log = chest_of_three()
    n = len(log)
    r = play(H6(), log + [act("loot", 2, split="agreed"), act("loot", 0, split="agreed", gold=2),
                          act("loot", 0, split="agreed", goods=["cheese", "cheese"]),
                          act("loot", 0, split="discard", gold=1),
                          act("loot", 1, split="agreed", goods=["apple"])])
    g = r.game
    assert errors(r) == [[n + 2, "not_the_sheriff"], [n + 3, "bad_split"], [n + 4, "bad_split"],
                         [n + 5, "bad_split"]], errors(r)
    assert golds(g)[:2] == [52, 51] and stands(g, 1) == {"apple": 1} and stands(g, 0) == {"cheese": 1}
    assert g.s[K.R_PHASE] == KM.REVEAL and g.gold(KM.CHEST) == 0 and stands(g, KM.CHEST) == {}
    r2 = play(H6(), log + [act("loot", 0, split="discard")])
    g2 = r2.game
    assert golds(g2)[:2] == [51, 51] and sv.pile(g2, 1) == [CODES.index("apple"), CODES.index("cheese")]
    assert g2.gold(KM.CHEST) == 0 and stands(g2, 0) == {} and g2.s[K.R_PHASE] == KM.REVEAL
    return [golds(g), golds(g2)]


# -- the Black Market ---------------------------------------------------------------------
def three_peppers(n=4, seats=(1, 2)):
    """Round 1 (Sheriff 0): the given merchants smuggle 3 pepper each through."""
    from dual_sheriff_rules import setup
    ms = list(range(1, n))
    log = [setup()] + [act("market", m, discard=[], take=[]) for m in ms]
    log += [act("load", m, cards=["pepper"] * 3 if m in seats else ["apple"]) for m in ms]
    log += [act("declare", m, good="apple", count=3 if m in seats else 1) for m in ms]
    return log + [act("pass", 0, target=m) for m in seats]


def test_black_market_claims_top_card_then_lower():
    log = three_peppers(4, (1, 2))
    r = play(HB(), log + [act("claim", 3, good="pepper"), act("claim", 1, good="pepper"),
                          act("claim", 2, good="pepper"), act("claim", 0, good="mead"),   # the Sheriff has none
                          act("claim", 2, good="apple"), act("claim", 2, good="pepper")])
    g = r.game
    n = len(log)
    assert errors(r) == [[n + 2, "need_three"], [n + 5, "need_three"], [n + 6, "not_black_market"],
                         [n + 7, "market_exhausted"]], errors(r)
    pepper = CODES.index("pepper")
    assert g.black_market(1) == [(pepper, 12)] and g.black_market(2) == [(pepper, 10)]
    assert g.stand(1, pepper) == 0 and g.removed(pepper) == 6
    assert r.result()["scores"][:3] == [50, 62, 60], r.result()
    d = sv.describe(_view(g))
    assert d["black_market"]["pepper"] == [] and d["seats"][1]["black_market"] == [["pepper", 12]]
    return r.result()


def test_the_sheriff_may_claim_during_the_inspection():
    """"Trong giai đoạn kiểm tra, người chơi có thể nhận và lấy thẻ chợ đen": players, not only
    merchants (docs/rules-merry-men.md, Black Market 1). Seat 1 smuggled 3 pepper in round 1 and
    claims as round 2's Sheriff."""
    log = three_peppers(4, (1, 2, 3))
    ms = (2, 3, 0)
    log += [act("market", m, discard=[], take=[]) for m in ms]
    log += [act("load", m, cards=["apple"]) for m in ms]
    log += [act("declare", m, good="apple", count=1) for m in ms]
    r = play(HB(), log + [act("claim", 1, good="pepper")])
    assert errors(r) == [], errors(r)
    pepper = CODES.index("pepper")
    assert r.game.black_market(1) == [(pepper, 12)] and r.game.stand(1, pepper) == 0
    return r.result()


def test_black_market_one_player_may_hold_both_and_tie_breaks_count_them():
    log = three_peppers(3, (1,))
    r = play(HB(3), log + [act("claim", 1, good="pepper")])
    d = sv.describe(_view(r.game))
    assert d["black_market"]["pepper"] == [10] and r.game.extra_contraband(1) == 1
    r2 = play(HB(3), [act("claim", 1, good="pepper")] + log[1:])
    assert errors(r2)[0] == [2, "wrong_phase"]
    r3 = play(H6(), [act("claim", 0, good="pepper")])
    assert errors(r3) == [[2, "module_off"]]
    r4 = play(HB(3), [act("deputy", 0)])
    assert errors(r4) == [[2, "module_off"]]
    return d["black_market"]
