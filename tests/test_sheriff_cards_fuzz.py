"""Property tests of the Sheriff card modules (hypothesis): any action, or any well-formed wire
record, at any point of a seeded game with laws, special orders and Merry Men (alone, and with
deputies and the Black Market) never raises; a rejected one changes nothing; an accepted one
keeps the card bookkeeping (orders' cards under the stands included) consistent."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import fuzzkit
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.sheriff.modules import expansion_layout as KM
from shared_rules.core.actions import ACTION_SIZE
from test_sheriff_fuzz import action
from test_sheriff_mm_fuzz import MM_ACTIONS

SAMPLE = json.loads((Path(__file__).parent.parent / "host" / "profiles" / "sample.json").read_text())
CARDS = ["laws", "special_orders", "merry_men"]
HEADERS = ({"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"] + CARDS, "profile": SAMPLE},
           {"game": "sheriff", "players": 4, "modules": CARDS, "profile": SAMPLE},
           {"game": "sheriff", "players": 3, "modules": ["laws", "merry_men"], "profile": SAMPLE})
small = st.integers(0, 30)
CARD_ACTIONS = dict(MM_ACTIONS, **{
    "law": action("law", {"keep": st.lists(small, max_size=3), "bottom": small}),
    "order_up": action("order_up", {"order": small}),
    "merry": action("merry", {"keep": small, "bottom": small}),
    "pass+": action("pass", {"target": st.integers(0, 6)}, {"orders": st.lists(small, max_size=2),
                                                            "give": st.lists(st.integers(0, 7), max_size=6),
                                                            "bribe": st.fixed_dictionaries({}, optional={
                                                                "gold": st.integers(0, 60)})}),
    "load+": action("load", {"cards": st.lists(st.sampled_from(["apple", "pepper", "cheese"]), max_size=5)},
                    {"merry": st.integers(0, 2)}),
})
card_actions = st.one_of(*CARD_ACTIONS.values())


def position(h: int, seed: int, steps: int) -> Any:
    return fuzzkit.position(HEADERS[h], seed, steps)


def bookkeeping_holds(g: Any) -> bool:
    """Every card of the deck is somewhere the referee counts; orders hold two cards each."""
    chest = g.modules() & KM.DEPUTIES
    for c in range(K.KINDS):
        under = sum((g.orders[3 * o] == c) + (g.orders[3 * o + 1] == c)
                    for s in range(g.seats()) for o in g.order_held(s)) if g.orders else 0
        located = (sv.pool(g, c) + sv.pile(g, 1).count(c) + sv.pile(g, 2).count(c) + g.removed(c) + under
                   + (g.stand(KM.CHEST, c) if chest else 0)
                   + sum(sv.known(g, s, c) + g.stand(s, c) + sv.bag(g, s).count(c) for s in range(g.seats())))
        if located != g._deck(c):
            return False
    return True


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2), st.integers(0, 3), st.integers(0, 220), card_actions)
def test_any_action_anywhere(h: int, seed: int, steps: int, obj: dict[str, Any]) -> None:
    fuzzkit.any_action(position(h, seed, steps), obj, bookkeeping_holds)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2), st.integers(0, 3), st.integers(0, 220),
       st.binary(min_size=ACTION_SIZE, max_size=ACTION_SIZE))
def test_well_formed_records_from_the_wire(h: int, seed: int, steps: int, raw: bytes) -> None:
    fuzzkit.wire_record(position(h, seed, steps), raw, bookkeeping_holds)
