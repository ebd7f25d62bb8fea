"""Property tests of the Sheriff referee with Merry Men modules (hypothesis): any action, or any
well-formed wire record, at any point of a seeded 6-player deputies + Black Market game (or a
Black Market game with a Sheriff) never raises; a rejected one changes nothing; an accepted one
keeps the card bookkeeping (the loot chest and removed contraband included) consistent."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules import games
from shared_rules import sheriff as sh
from shared_rules import sheriff_mm as mm
from shared_rules.actions import ACTION_SIZE
from shared_rules.playout import Playout
from test_sheriff_fuzz import ACTIONS, action, clamp_field, codes

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


@lru_cache(maxsize=None)
def game_log(h: int, seed: int) -> tuple[bytes, ...]:
    g = games.from_header(HEADERS[h])
    out = []
    for a in Playout(HEADERS[h], seed).run():
        rec = bytearray(ACTION_SIZE)
        assert g.VOCAB.encode(a, rec) == 0
        out.append(bytes(rec))
    return tuple(out)


def position(h: int, seed: int, steps: int) -> Any:
    g = games.from_header(HEADERS[h])
    for rec in game_log(h, seed)[:steps]:
        assert g.accept(bytearray(rec)) == 0
    return g


def bookkeeping_holds(g: Any) -> bool:
    unseen = g.s[sh.R_DRAW]
    for s in range(g.seats()):
        unseen += g.hand(s) - sum(g.known(s, c) for c in range(sh.KINDS))
    located = [g.pool(c) + g.pile(1).count(c) + g.pile(2).count(c) + g.stand(mm.CHEST, c) + g.removed(c)
               + sum(g.known(s, c) + g.stand(s, c) + g.bag(s).count(c) for s in range(g.seats()))
               for c in range(sh.KINDS)]
    return unseen == sum(g.pool(c) for c in range(sh.KINDS)) and located == [g._deck(c) for c in range(sh.KINDS)]


def check(g: Any, rec: bytearray, err: int, before: bytes) -> None:
    if err:
        assert bytes(g.s) == before
    else:
        assert g.valid_state(g.s) and bookkeeping_holds(g)
    assert g.reason(err)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1), st.integers(0, 3), st.integers(0, 220), mm_actions)
def test_any_action_anywhere(h: int, seed: int, steps: int, obj: dict[str, Any]) -> None:
    g = position(h, seed, steps)
    rec = bytearray(ACTION_SIZE)
    before = bytes(g.s)
    err = g.VOCAB.encode(obj, rec) or g.accept(rec)
    check(g, rec, err, before)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1), st.integers(0, 3), st.integers(0, 220),
       st.binary(min_size=ACTION_SIZE, max_size=ACTION_SIZE))
def test_well_formed_records_from_the_wire(h: int, seed: int, steps: int, raw: bytes) -> None:
    g = position(h, seed, steps)
    rec = bytearray(raw)
    rec[0] %= len(mm.VOCAB.names)
    for f, at in zip(mm.VOCAB.fields[rec[0]], mm.VOCAB.offsets[rec[0]]):
        clamp_field(rec, f, at)
    rec[1] %= 8
    before = bytes(g.s)
    check(g, rec, g.accept(rec), before)
