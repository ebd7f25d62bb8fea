"""Dead Man's Draw (host only): arbitrary actions at arbitrary points of seeded games never crash
the referee; a refused one changes nothing, an accepted one keeps the state consistent."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.catalogue import DMD_CODES as CODES, DMD_TRAITS as TRAITS
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout

CODE = st.sampled_from([*CODES, "joker", "anchor1"])
SEAT = st.integers(min_value=0, max_value=9)
ACTION = st.fixed_dictionaries(
    {"a": st.sampled_from(d.GAME.VOCAB.names), "p": SEAT},
    optional={
        "card": CODE, "pick": CODE, "target": SEAT, "trait": st.sampled_from(list(TRAITS)),
        "reveal": st.lists(CODE, max_size=4), "peek": st.one_of(CODE, st.lists(CODE, max_size=4)),
        "cards": st.lists(CODE, max_size=31),
    },
)


def position(players: int, seed: int, steps: int) -> Playout:
    header: dict[str, Any] = {"game": "deadmans", "players": players}
    if players > 4:
        header["decks"] = 2
    p = Playout(header, seed)
    for _ in range(steps):
        if p.step() is None:
            break
    return p


def counted_cards(g: d.DeadMans) -> int:
    """Cards by the referee's counters and banks (each physical card is one location byte)."""
    s = g.s
    return s[K.R_DRAW_N] + s[K.R_DISCARD_N] + s[K.R_PLAY_N] + sum(d.bank_size(s, t) for t in range(g.seats()))


@settings(max_examples=300, deadline=None)
@given(players=st.integers(min_value=2, max_value=8), seed=st.integers(min_value=0, max_value=50),
       steps=st.integers(min_value=0, max_value=150), actions=st.lists(ACTION, min_size=1, max_size=6))
def test_any_action_is_refused_cleanly_or_keeps_the_state_valid(players: int, seed: int, steps: int,
                                                                 actions: list[dict[str, Any]]) -> None:
    g = position(players, seed, steps).game
    rec = bytearray(ACTION_SIZE)
    for action in actions:
        before = bytes(g.s)
        err = g.VOCAB.encode(action, rec) or g.accept(rec)
        if err:
            assert bytes(g.s) == before
        else:
            assert g.valid_state(g.s)
            assert counted_cards(g) == K.NCODES * g.s[K.R_DECKS]
        g.summary()
