"""A game's views for the host: the scoreboard's public dict and the referee's debug dict.

They live in ``shared_rules/<game>/view.py`` (``describe(view)``, ``referee(game)``), found by the
game class's ``NAME``: the rules modules a board loads hold no trace of them.
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any


def view_module(game_cls: Any) -> ModuleType:
    """``shared_rules.<NAME>_view`` for a game class."""
    return import_module("shared_rules.%s.view" % game_cls.NAME)


def describe(game_cls: Any, view: bytes | bytearray) -> dict[str, Any]:
    """Public view bytes (``game.public``) -> the scoreboard's dict (nothing hidden in it)."""
    return view_module(game_cls).describe(view)


def referee(game: Any) -> dict[str, Any]:
    """Everything the referee knows of ``game``, hidden information included (debug view)."""
    return view_module(type(game)).referee(game)
