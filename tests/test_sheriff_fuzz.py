"""Property tests of the Sheriff referee on the host (hypothesis): any well-formed action at any
point of a seeded game never raises; a rejected one changes nothing; an accepted one keeps the
referee's card bookkeeping consistent. The rule-by-rule tests run on both interpreters in
tests/dual/dual_sheriff_*.py."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_rules import games
from shared_rules.sheriff import rules as sh
from shared_rules.sheriff import layout as K
from shared_rules.sheriff import view as sv
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.catalogue import SHERIFF_CODES
from host.sim.playout import Playout

codes = st.sampled_from(SHERIFF_CODES)
seats = st.integers(0, 5)
cards = st.lists(codes, max_size=8)
piles = st.integers(0, 3)


def action(name: str, required: dict[str, Any], optional: dict[str, Any] | None = None) -> Any:
    return st.fixed_dictionaries({"a": st.just(name), "p": seats, **required}, optional=optional or {})


ACTIONS = {
    "setup": action("setup", {"piles": st.lists(st.lists(codes, min_size=4, max_size=6), min_size=2, max_size=2)}),
    "market": action("market", {"discard": st.lists(codes, max_size=6), "take": st.lists(piles, max_size=6)},
                     {"to": piles}),
    "load": action("load", {"cards": cards}),
    "declare": action("declare", {"good": codes, "count": st.integers(0, 6)}),
    "pass": action("pass", {"target": seats}, {"bribe": st.fixed_dictionaries({}, optional={
        "gold": st.integers(0, 300), "stand": st.lists(codes, max_size=16), "bag": st.lists(codes, max_size=5)})}),
    "inspect": action("inspect", {"target": seats}, {"to": piles, "order": st.lists(codes, max_size=6),
                                                     "pay_with": st.lists(codes, max_size=16)}),
}
actions = st.one_of(*ACTIONS.values())


@lru_cache(maxsize=None)
def game_log(players: int, seed: int) -> tuple[tuple[dict[str, Any], bytes], ...]:
    """A seeded game: each action with its record."""
    header = {"game": "sheriff", "players": players, "royal": seed % 2 == 0}
    g = games.from_header(header)
    out = []
    for a in Playout(header, seed).run():
        rec = bytearray(ACTION_SIZE)
        assert g.VOCAB.encode(a, rec) == 0
        out.append((a, bytes(rec)))
    return tuple(out)


def position(players: int, seed: int, steps: int) -> tuple[sh.Sheriff, dict[str, Any]]:
    """The game after ``steps`` actions of a seeded game, and the action that came next."""
    g = games.from_header({"game": "sheriff", "players": players, "royal": seed % 2 == 0})
    log = game_log(players, seed)
    steps = min(steps, len(log) - 1)
    for _, rec in log[:steps]:
        assert g.accept(bytearray(rec)) == 0
    return g, log[steps][0]


def attempt(g: sh.Sheriff, obj: dict[str, Any]) -> int:
    """Feed one action; a rejection must leave the state as it was, an acceptance must keep the
    bookkeeping consistent."""
    rec = bytearray(ACTION_SIZE)
    before = bytes(g.s)
    err = g.VOCAB.encode(obj, rec) or g.accept(rec)
    if err:
        assert bytes(g.s) == before
    else:
        assert g.valid_state(g.s) and bookkeeping_holds(g)
    assert g.reason(err)
    return err


def bookkeeping_holds(g: sh.Sheriff) -> bool:
    """Unidentified copies = draw pile + hand cards the referee has not seen; nothing beyond a deck."""
    unseen = g.s[K.R_DRAW]
    for s in range(g.seats()):
        unseen += sv.hand(g, s) - sum(sv.known(g, s, c) for c in range(K.KINDS))
    located = [sv.pool(g, c) + sv.pile(g, 1).count(c) + sv.pile(g, 2).count(c)
               + sum(sv.known(g, s, c) + g.stand(s, c) + sv.bag(g, s).count(c) for s in range(g.seats()))
               for c in range(K.KINDS)]
    return unseen == sum(sv.pool(g, c) for c in range(K.KINDS)) and located == [g._deck(c) for c in range(K.KINDS)]


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 5), st.integers(0, 5), st.integers(0, 200), actions)
def test_any_action_anywhere(players: int, seed: int, steps: int, obj: dict[str, Any]) -> None:
    attempt(position(players, seed, steps)[0], obj)


@settings(max_examples=400, deadline=None)
@given(st.integers(3, 5), st.integers(0, 5), st.integers(0, 200), st.data())
def test_mutants_of_the_next_legal_action(players: int, seed: int, steps: int, data: st.DataObject) -> None:
    """The action the game really took next, with some fields replaced or dropped: near-legal
    input that reaches the deep checks (conservation, payments, bribes, orders)."""
    g, real = position(players, seed, steps)
    other = data.draw(ACTIONS[real["a"]])
    obj = dict(real)
    for key in data.draw(st.sets(st.sampled_from(sorted(set(real) | set(other))))):
        if key in other:
            obj[key] = other[key]
        else:
            del obj[key]
    attempt(g, obj)


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 5), st.integers(0, 5), st.integers(0, 200), st.binary(min_size=ACTION_SIZE, max_size=ACTION_SIZE))
def test_well_formed_records_from_the_wire(players: int, seed: int, steps: int, raw: bytes) -> None:
    """A record is only trusted as far as its kind and presence bytes go: names and list counts
    are clamped into range like a record that passed the codec's checks."""
    g = position(players, seed, steps)[0]
    rec = bytearray(raw)
    rec[0] %= len(sh.Sheriff.VOCAB.names)
    clamp(rec)
    before = bytes(g.s)
    err = g.accept(rec)
    if err:
        assert bytes(g.s) == before
    else:
        assert bookkeeping_holds(g)


def clamp(rec: bytearray) -> None:
    """Make a random record well formed: flags 0/1, codes inside their tables, counts within caps."""
    k = rec[0]
    for f, at in zip(sh.Sheriff.VOCAB.fields[k], sh.Sheriff.VOCAB.offsets[k]):
        clamp_field(rec, f, at)


def clamp_field(rec: bytearray, f: tuple[Any, ...], at: int) -> None:
    from shared_rules.core.actions import LIST, NAME, OBJ
    from shared_rules.core.actions_lookup import field_offsets
    name, kind, table, optional, cap, _ = f
    if optional:
        rec[at] &= 1
        at += 1
    if kind == NAME:
        rec[at] %= len(table)
    elif kind == LIST:
        rec[at] %= cap + 1
        for i in range(rec[at]):
            rec[at + 1 + i] = rec[at + 1 + i] % len(table) if table is not None else rec[at + 1 + i] % 255
    elif kind == OBJ:
        offs, _ = field_offsets(table, at)
        for sub, o in zip(table, offs):
            clamp_field(rec, sub, o)
