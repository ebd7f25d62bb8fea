"""Scaffolding of the Sheriff module fuzz tests (hypothesis): seeded positions reached through the
real accept path, and the check every fuzzed action must pass."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout


@lru_cache(maxsize=None)
def _log(header_json: str, seed: int) -> tuple[bytes, ...]:
    header = json.loads(header_json)
    g = games.from_header(header)
    out = []
    for a in Playout(header, seed).run():
        rec = bytearray(ACTION_SIZE)
        assert g.VOCAB.encode(a, rec) == 0
        out.append(bytes(rec))
    return tuple(out)


def position(header: dict[str, Any], seed: int, steps: int) -> Any:
    """The game of ``header`` after ``steps`` actions of the seeded playout (cached per seed)."""
    g = games.from_header(header)
    for rec in _log(json.dumps(header, sort_keys=True), seed)[:steps]:
        assert g.accept(bytearray(rec)) == 0
    return g


def check(g: Any, err: int, before: bytes, bookkeeping_holds: Callable[[Any], bool]) -> None:
    """A refusal changed nothing; an acceptance leaves a valid state whose books balance."""
    if err:
        assert bytes(g.s) == before
    else:
        assert g.valid_state(g.s) and bookkeeping_holds(g)
    assert g.reason(err)


def any_action(g: Any, obj: dict[str, Any], bookkeeping_holds: Callable[[Any], bool]) -> None:
    """Submit an action object (any fields) at this position, then ``check``."""
    rec = bytearray(ACTION_SIZE)
    before = bytes(g.s)
    err = g.VOCAB.encode(obj, rec) or g.accept(rec)
    check(g, err, before, bookkeeping_holds)


def wire_record(g: Any, raw: bytes, bookkeeping_holds: Callable[[Any], bool]) -> None:
    """Submit a record as the wire could bring it: any bytes, shaped into one of the game's
    action kinds with its fields clamped to what the vocabulary can hold, then ``check``."""
    from test_sheriff_fuzz import clamp_field
    vocab = g.VOCAB
    rec = bytearray(raw)
    rec[0] %= len(vocab.names)
    for f, at in zip(vocab.fields[rec[0]], vocab.offsets[rec[0]]):
        clamp_field(rec, f, at)
    rec[1] %= 8
    before = bytes(g.s)
    check(g, g.accept(rec), before, bookkeeping_holds)
