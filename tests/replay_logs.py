"""Writes action logs from seeded playouts (with comments and refused lines mixed in)."""
from __future__ import annotations

import json
from pathlib import Path

from host.sim.playout import Playout
from shared_rules.core.rng import Rng

NOISE = ['{"a": "dance", "p": 0}', "not json at all", '{"a": "bid", "p": 0}', '{"a": "pass", "p": 99}']


def write_log(path: Path, header: dict, seed: int, noise: bool = True) -> list[int]:
    """Write a finished game's log; return the line numbers of the lines the referee must refuse."""
    rng = Rng(seed)
    lines = ["# tapmat test log, seed %d" % seed, json.dumps(header)]
    refused: list[int] = []
    for action in Playout(header, seed).run():
        if noise and rng.below(10) == 0:
            lines.append(rng.choice(NOISE))
            refused.append(len(lines))
        if rng.below(20) == 0:
            lines.append("")
        lines.append(json.dumps(action))
    lines.append(json.dumps({"a": "pass", "p": 0}))  # after the game: refused (game over)
    refused.append(len(lines))
    path.write_text("\n".join(lines) + "\n")
    return refused
