"""Events in words (host/screen/wording.py), checked against whole random games of the rules core."""
from __future__ import annotations

from host.sim.playout import Playout
from host.screen import views
from host.screen import wording


def public(game) -> dict:
    view = bytearray(game.PUBLIC_SIZE)
    game.public(view)
    return views.describe(type(game), view)


def said(header: dict, seed: int) -> list[tuple[dict, str, str, dict, dict]]:
    """Every action of a seeded game with its sentence, its outcome and the public dicts."""
    play = Playout(header, seed)
    out = []
    while True:
        before = public(play.game)
        action = play.step()
        if action is None:
            return out
        after = public(play.game)
        name = header["game"]
        out.append((action, wording.sentence(name, action), wording.outcome(name, action, before, after),
                    before, after))


def test_dead_mans_draw_busts_are_said_and_only_busts():
    busts = 0
    for seed in (1, 2, 3):
        for action, _text, outcome, before, after in said({"game": "deadmans", "players": 3}, seed):
            p = action["p"]
            if outcome.startswith("BUST"):
                busts += 1
                assert not after["play"] and after["turn"] != p
                lost = len(before["play"]) + (action["a"] in ("draw", "hook", "sword", "map"))
                assert "loses the %d card" % lost in outcome
                assert after["discard_pile"] > before["discard_pile"] or any(
                    len(a["bank"]) > len(b["bank"]) for a, b in zip(after["seats"], before["seats"]))
            elif action["a"] == "draw":
                assert after["play"] or after["turn"] == p or after["phase"] == "over" or \
                    len(after["seats"][p]["bank"]) > len(before["seats"][p]["bank"]), action
    assert busts > 3


def test_sheriff_events_in_words():
    lines = said({"game": "sheriff", "players": 4}, 1)
    texts = [t for _a, t, _o, _b, _c in lines]
    assert not any("=" in t for t in texts), [t for t in texts if "=" in t][:3]
    markets = [(a, t) for a, t, _o, _b, _c in lines if a["a"] == "market" and a["take"]]
    action, text = markets[0]
    piles = sorted(set(action["take"]))
    assert text.startswith("seat %d traded %d card" % (action["p"], len(action["discard"])))
    for w in piles:
        assert "%d from pile %d" % (action["take"].count(w), w) in text
    paid = [(a, o, b, c) for a, _t, o, b, c in lines if a["a"] == "inspect" and o]
    assert paid
    for action, outcome, before, after in paid:
        payer = action["target"] if "seat %d pays" % action["target"] in outcome else action["p"]
        assert after["seats"][payer]["gold"] < before["seats"][payer]["gold"]
    bribes = [t for a, t, _o, _b, _c in lines if a["a"] == "pass" and a.get("bribe", {}).get("gold")]
    assert bribes and all(" for a bribe of " in t and " gold" in t for t in bribes)


def test_unknown_actions_still_shown_field_by_field():
    assert wording.sentence("nogame", {"a": "jump", "p": 2, "n": 3}) == "seat 2: jump n=3"
    assert wording.sentence("skull", {"a": "bid", "p": 1, "n": 4}) == "seat 1 bids 4"


def test_sheriff_expansion_events_in_words_never_name_a_merry_man() -> None:
    """Every action of the five modules is phrased (no field dump); a Merry Man draw says how
    many, never which, even from the full record; a pass that moves gold says who gained what."""
    from host.board.deck_profile import SAMPLE, load
    from shared_rules.sheriff.modules import profile
    mods = ["deputies", "black_market", "laws", "special_orders", "merry_men"]
    lines = said({"game": "sheriff", "players": 6, "modules": mods, "profile": profile.for_modules(load(SAMPLE), mods)}, 2)
    kinds = {a["a"] for a, *_ in lines}
    assert {"deputy", "law", "merry", "order_up"} <= kinds, kinds
    assert wording.sentence("sheriff", {"a": "claim", "p": 2, "good": "silk"}) == "seat 2 claims a Black Market silk card"
    texts = [t for _a, t, _o, _b, _c in lines]
    assert not any("=" in t for t in texts), [t for t in texts if "=" in t][:3]
    for action, text, _o, _b, _c in lines:
        if action["a"] == "merry":
            assert text == "seat %d draws two Merry Men and keeps one" % action["p"]
            assert str(action["keep"]) not in text.replace(str(action["p"]), "")
        if action["a"] == "law":
            assert all("#%d" % n in text for n in action["keep"]) and "#%d to the bottom" % action["bottom"] in text
        if action["a"] == "pass" and action.get("orders"):
            assert "fills special order" in text and all("#%d" % n in text for n in action["orders"]), text
        if action["a"] == "pass" and any(action.get("give") or ()):
            assert "the stolen gold shared: " in text, text
    passes = [(a, o, b, c) for a, _t, o, b, c in lines if a["a"] == "pass" and o]
    assert passes
    for action, outcome, before, after in passes:
        for i, (sb, sa) in enumerate(zip(before["seats"], after["seats"])):
            if sa["gold"] != sb["gold"]:
                assert "%+d" % (sa["gold"] - sb["gold"]) in outcome, (action, outcome)


def test_goods_are_counted_as_players_say_them():
    assert [wording.goods(n, "apple") for n in (1, 2)] == ["1 apple", "2 apples"]
    assert [wording.goods(n, "chicken") for n in (1, 3)] == ["1 chicken", "3 chickens"]
    assert [wording.goods(n, "cheese") for n in (1, 3)] == ["1 cheese", "3 cheese"]
    assert [wording.goods(n, "green_apples") for n in (1, 2)] == ["1 Green Apples card", "2 Green Apples cards"]
    assert wording.goods(1, "royal_rooster") == "1 Royal Rooster card"


def test_no_sentence_of_a_sheriff_game_counts_goods_wrongly():
    """Declarations and bribes of whole games: never "1 apples", never "1 green apples"."""
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        for action, text, outcome, _before, _after in said({"game": "sheriff", "players": players}, seed):
            for words in (text, outcome):
                assert "1 apples" not in words and "1 green apples" not in words, words
                assert "_" not in words, words
            if action["a"] == "declare":
                assert text.endswith(wording.goods(action["count"], action["good"])), text


def test_a_bribe_of_one_royal_card_and_one_apple():
    text = wording.sentence("sheriff", {"a": "pass", "p": 0, "target": 2,
                                        "bribe": {"gold": 1, "bag": ["green_apples", "apple"]}})
    assert text == "Sheriff (seat 0) lets seat 2 pass for a bribe of 1 gold and 1 Green Apples card, 1 apple from the bag"
