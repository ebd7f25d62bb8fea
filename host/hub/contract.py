"""The mirrored state in the replay contract's shape (docs/action-log.md, "Replay").

``tapmat replay LOG --json`` prints ``game``, ``players``, ``over``, ``winners``, ``scores``,
``rejected`` and each game's extras (Skull ``eliminated``, Dead Man's Draw ``bank_cards``,
Sheriff ``gold``). The host computes the same fields from what the board mirrors, so a simulated
game can be checked against the replay of its log, and the scoreboard shows final standings:

- a referee view is the whole rules state: load it into a game and ask ``summary()``, the very
  code the replay runs;
- a public view holds less. Skull's and Dead Man's Draw's public views still hold every scored
  fact; Sheriff's hides the face-down contraband, and goods count at the end, so its final
  standings need the referee view (``needs_referee``). At the end of a Sheriff game the
  contraband is revealed on the table anyway.
"""
from __future__ import annotations

from typing import Any, Callable

from host.screen import views
from shared_rules import games

PUBLIC = 0
REFEREE = 1


def load_state(game_cls: Any, header: dict[str, Any], state: bytes) -> Any:
    """A game object holding ``state`` (a referee view: the rules' state bytes)."""
    game = games.from_header({**header, "game": game_cls.NAME})
    if len(state) != len(game.s):
        raise ValueError("a %s state has %d bytes, not %d" % (game_cls.NAME, len(game.s), len(state)))
    game.s[:] = state
    return game


def _skull(game_cls: Any, header: dict[str, Any], view: bytes) -> dict[str, Any]:
    d = views.describe(game_cls, view)
    seats = d["seats"]
    tribes = d["players"]
    over = d["phase"] == "over"
    winner = d["winner"]
    return {
        "game": "skull", "players": tribes or len(seats), "over": over,
        "winners": [winner % tribes if tribes else winner] if over and winner is not None else [],
        "scores": [s["score"] for s in seats],
        "eliminated": [i for i, s in enumerate(seats) if s["eliminated"]],
    }


def _whole_state(game_cls: Any, header: dict[str, Any], view: bytes) -> dict[str, Any]:
    """Dead Man's Draw's public view is its state with the Oracle's peek and the draw/discard
    split blanked: nothing ``summary()`` reads."""
    return load_state(game_cls, header, view).summary()


PUBLIC_SUMMARY: dict[str, Callable[[Any, dict[str, Any], bytes], dict[str, Any]]] = {
    "skull": _skull,
    "deadmans": _whole_state,
}


def needs_referee(game_name: str) -> bool:
    """Whether the final scores of this game cannot be read from its public view."""
    return game_name not in PUBLIC_SUMMARY


def summary(game_cls: Any, header: dict[str, Any], view_kind: int, view: bytes,
            rejected: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The replay contract's fields of a mirrored view (``ValueError`` if the view cannot give
    them: a public view of a game that ``needs_referee``)."""
    if view_kind == REFEREE:
        out = load_state(game_cls, header, view).summary()
    elif game_cls.NAME in PUBLIC_SUMMARY:
        out = PUBLIC_SUMMARY[game_cls.NAME](game_cls, header, view)
    else:
        raise ValueError("%s: the public view does not hold the scores" % game_cls.NAME)
    out["rejected"] = list(rejected or [])
    return out
