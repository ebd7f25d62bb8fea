"""The Sheriff standings' breakdown (host/hub/standings.py) adds up to the rules' scores, for
base games and with every Merry Men module, over whole seeded games."""
from __future__ import annotations

import pytest

from host.hub.standings import sheriff_breakdown
from host.sim.playout import Playout


def played(header: dict, seed: int):
    play = Playout(header, seed)
    while play.step() is not None:
        pass
    return play.game


def modules_header(mods: list[str], players: int) -> dict:
    from host.board.deck_profile import SAMPLE, load
    from shared_rules.sheriff.modules import profile
    return {"game": "sheriff", "players": players, "modules": mods,
            "profile": profile.for_modules(load(SAMPLE), mods)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_parts_add_up_to_each_score_in_a_base_game(seed: int) -> None:
    game = played({"game": "sheriff", "players": 4}, seed)
    summary = game.summary()
    rows = sheriff_breakdown(game)
    assert [r["total"] for r in rows] == summary["scores"]
    for row in rows:
        parts = sum(v for _n, v in row["goods"].values()) + sum(row["bonuses"].values()) + row["gold"] \
            + row["black_market"] + row["orders"]
        assert parts == row["total"], row
        assert row["black_market"] == 0 and row["orders"] == 0
    assert any(r["bonuses"] for r in rows), "nobody was King or Queen of a good"
    assert sorted(summary["gold"]) == sorted(r["gold"] for r in rows)


def test_the_parts_add_up_with_the_merry_men_modules() -> None:
    mods = ["deputies", "black_market", "laws", "special_orders", "merry_men"]
    game = played(modules_header(mods, 6), 2)
    rows = sheriff_breakdown(game)
    assert [r["total"] for r in rows] == game.summary()["scores"]
    for row in rows:
        parts = sum(v for _n, v in row["goods"].values()) + sum(row["bonuses"].values()) + row["gold"] \
            + row["black_market"] + row["orders"]
        assert parts == row["total"], row
