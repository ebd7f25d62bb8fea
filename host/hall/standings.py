"""Tournament standings across tables: each player's placements summed (lower is better)."""
from __future__ import annotations

from typing import Any, Iterable


def standings(games: Iterable[list[tuple[str, int]]]) -> list[dict[str, Any]]:
    """``games``: per finished game, (player, place) pairs. Rows by total place, then by more
    games played, then by name; equal totals and games share a rank."""
    totals: dict[str, list[int]] = {}
    for game in games:
        for player, place in game:
            totals.setdefault(player, []).append(place)
    ordered = sorted(totals.items(), key=lambda kv: (sum(kv[1]), -len(kv[1]), kv[0]))
    rows: list[dict[str, Any]] = []
    for player, places in ordered:
        same = rows and rows[-1]["total"] == sum(places) and rows[-1]["games"] == len(places)
        rows.append({"rank": rows[-1]["rank"] if same else len(rows) + 1, "player": player,
                     "total": sum(places), "games": len(places), "places": places})
    return rows
