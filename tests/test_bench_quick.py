"""bench/quick.py: the micropython command it measures with runs from the runs' own folders."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from bench.quick import command
from tests.conftest import MICROPYTHON


def test_a_relative_path_becomes_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "build").mkdir()
    port = tmp_path / "build" / "micropython32"
    port.symlink_to(MICROPYTHON)
    monkeypatch.chdir(tmp_path)
    assert command("build/micropython32") == str(Path(MICROPYTHON).resolve())


def test_a_bare_name_is_looked_up_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(Path(MICROPYTHON).parent) + os.pathsep + os.environ.get("PATH", ""))
    assert command("micropython") == str(Path(MICROPYTHON).resolve())


def test_a_missing_command_says_how_to_build_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(argparse.ArgumentTypeError, match="no such command: build/micropython32 .*make micropython32"):
        command("build/micropython32")
