"""Property tests of the Sheriff referee with Merry Men modules (hypothesis): any action, or any
well-formed wire record, at any point of a seeded 6-player deputies + Black Market game (or a
Black Market game with a Sheriff) never raises; a rejected one changes nothing; an accepted one
keeps the card bookkeeping (the loot chest and removed contraband included) consistent."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import fuzzkit
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.sheriff.modules import expansion as mm
from shared_rules.sheriff.modules import expansion_layout as KM
from shared_rules.core.actions import ACTION_SIZE
from test_sheriff_fuzz import ACTIONS, action, codes

PROFILE = {"format": 1, "name": "test values", "placeholders": True,
           "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}
HEADERS = ({"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"], "profile": PROFILE},
           {"game": "sheriff", "players": 4, "modules": ["black_market"], "profile": PROFILE})
MM_ACTIONS = dict(ACTIONS, **{
    "deputy": action("deputy", {}),
    "loot": action("loot", {"split": st.sampled_from(mm.SPLITS)}, {"gold": st.integers(0, 3),
                                                                   "goods": st.lists(codes, max_size=4)}),
    "claim": action("claim", {"good": codes}),
    "market": action("market", {"discard": st.lists(codes, max_size=6), "take": st.just([])}, {"to": st.integers(0, 2)}),
})
mm_actions = st.one_of(*MM_ACTIONS.values())


def position(h: int, seed: int, steps: int) -> Any:
    return fuzzkit.position(HEADERS[h], seed, steps)


def bookkeeping_holds(g: Any) -> bool:
    unseen = g.s[K.R_DRAW]
    for s in range(g.seats()):
        unseen += sv.hand(g, s) - sum(sv.known(g, s, c) for c in range(K.KINDS))
    located = [sv.pool(g, c) + sv.pile(g, 1).count(c) + sv.pile(g, 2).count(c) + g.stand(KM.CHEST, c) + g.removed(c)
               + sum(sv.known(g, s, c) + g.stand(s, c) + sv.bag(g, s).count(c) for s in range(g.seats()))
               for c in range(K.KINDS)]
    return unseen == sum(sv.pool(g, c) for c in range(K.KINDS)) and located == [g._deck(c) for c in range(K.KINDS)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1), st.integers(0, 3), st.integers(0, 220), mm_actions)
def test_any_action_anywhere(h: int, seed: int, steps: int, obj: dict[str, Any]) -> None:
    fuzzkit.any_action(position(h, seed, steps), obj, bookkeeping_holds)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1), st.integers(0, 3), st.integers(0, 220),
       st.binary(min_size=ACTION_SIZE, max_size=ACTION_SIZE))
def test_well_formed_records_from_the_wire(h: int, seed: int, steps: int, raw: bytes) -> None:
    fuzzkit.wire_record(position(h, seed, steps), raw, bookkeeping_holds)
