"""The generated layout modules (``host/layout.py``) match the board modules they come from."""
from __future__ import annotations

from pathlib import Path

import pytest

from host import layout
from host.board.build import board_sources


@pytest.mark.parametrize("module", layout.MODULES)
def test_layout_module_is_current(module: str) -> None:
    path = layout.target(module)
    assert path.exists() and path.read_text() == layout.render(module), \
        "%s is stale: run python -m host.layout" % path.relative_to(layout.ROOT)


def test_constants_takes_literal_consts_public_and_private(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("A = const(1)\n_B = const(b'xy')\n_c = const(3)\nD = const(1 + E)\n"
                   "F = 4\n_G = const((1, 'a'))\ndef f():\n    _H = const(5)\n")
    assert layout.constants(src) == {"A": 1, "B": b"xy", "G": (1, "a")}


def test_a_name_declared_twice_names_the_line(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("A = const(1)\n_A = const(2)\n")
    with pytest.raises(ValueError, match=r"m\.py:2: A is declared twice"):
        layout.constants(src)


def test_layouts_never_go_to_a_board() -> None:
    assert not [p for p in board_sources() if p.name.endswith("_layout.py")]
