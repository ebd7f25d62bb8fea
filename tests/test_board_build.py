"""host/board/build.py: what the compiled board code keeps of its sources (line numbers)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from host.board import build
from tests.conftest import MICROPYTHON

SOURCE = '''def innermost(seats):
    spare = len(seats)
    return seats[spare]


def outer():
    return innermost([0, 1])
'''


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A board source at ``pkg/where.py`` under a root of its own, with a cache of its own."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "where.py").write_text(SOURCE)
    monkeypatch.setattr(build, "ROOT", tmp_path)
    monkeypatch.setattr(build, "CACHE", tmp_path / "cache")
    return tmp_path


def traceback_of(tree: Path, lines: bool) -> str:
    """The traceback the unix port prints for ``outer()`` imported from the compiled module."""
    out = tree / ("lines" if lines else "plain") / "pkg"
    out.mkdir(parents=True)
    (out / "where.mpy").write_bytes(build.compiled_module(Path("pkg/where.py"), lines=lines))
    run = subprocess.run([MICROPYTHON, "-c", "import pkg.where\npkg.where.outer()"], cwd=out.parent,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    return run.stdout + run.stderr  # the unix port prints an uncaught exception on stdout


def test_a_board_build_names_module_and_function_without_line_numbers(tree: Path) -> None:
    text = traceback_of(tree, lines=False)
    assert 'File "pkg.where", line 1, in outer' in text
    assert 'File "pkg.where", line 1, in innermost' in text
    assert "IndexError" in text


def test_line_numbers_on_request_point_at_the_source_lines(tree: Path) -> None:
    text = traceback_of(tree, lines=True)
    assert 'File "pkg.where", line 7, in outer' in text
    assert 'File "pkg.where", line 3, in innermost' in text


def test_the_cache_keeps_both_builds_apart(tree: Path) -> None:
    rel = Path("pkg/where.py")
    plain, with_lines = build.compiled_module(rel), build.compiled_module(rel, lines=True)
    assert len(plain) < len(with_lines)
    assert build.compiled_module(rel) == plain
    assert len(list((tree / "cache").glob("*.mpy"))) == 2


@pytest.mark.parametrize("target, port", [("firmware", "rp2"), ("micropython32", "unix")])
def test_builds_from_a_micropython_tree_say_what_they_need(tmp_path: Path, target: str, port: str) -> None:
    """Without a source tree the target says so and succeeds (make bench and make test never need
    one); with a folder that is not one it names the folder and fails."""
    env = {k: v for k, v in os.environ.items() if k != "MICROPY_DIR"}
    make = ["make", "-s", "-C", str(build.ROOT), target]
    skipped = subprocess.run(make, env=env, capture_output=True, text=True, timeout=60)
    assert skipped.returncode == 0
    assert f"make {target}: skipped: no MicroPython source tree" in skipped.stdout
    wrong = subprocess.run(make + [f"MICROPY_DIR={tmp_path}"], env=env, capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2
    assert f"{tmp_path} is not a MicroPython source tree (no ports/{port}/Makefile)" in wrong.stderr
