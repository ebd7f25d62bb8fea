"""Events in words (host/wording.py), checked against whole random games of the rules core."""
from __future__ import annotations

from shared_rules.playout import Playout
from host import wording


def public(game) -> dict:
    view = bytearray(game.PUBLIC_SIZE)
    game.public(view)
    return game.describe(view)


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
