"""Collects ``tests/dual/dual_*.py``: MicroPython-compatible test modules run on both interpreters.

Each module runs once under CPython and once under the ``micropython`` command (in parallel).
A test passes only if it passes on both and both return equal values.
"""
from __future__ import annotations

import ast
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MICROPYTHON = str(BIN / "micropython")
INTERPRETERS = {"cpython": [sys.executable], "micropython": [MICROPYTHON, "-X", "heapsize=8M"]}
TIMEOUT = 800   # a module's run on one interpreter; below pytest-timeout's 900 s, so it fails first, saying which
# The dual modules' scratch files (tests/dual/scratch.py): one folder per test run, so runs from
# several checkouts at once never share a file.
SCRATCH = tempfile.mkdtemp(prefix="tapmat-dual-")
atexit.register(shutil.rmtree, SCRATCH, True)
# the same for the tests that use a fake board in this process (test_mirror.py): each worker its
# own folder, never /tmp/tapmat-test-cpython shared with other workers and other checkouts
os.environ["TAPMAT_TMP"] = SCRATCH


def run_dual_module(module: str) -> dict[str, dict[str, Any]]:
    """Run one dual module on every interpreter; results per interpreter per test name."""
    procs = {
        name: subprocess.Popen(
            cmd + ["tests/run_dual.py", module],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, TAPMAT_TMP=SCRATCH),
        )
        for name, cmd in INTERPRETERS.items()
    }
    results: dict[str, dict[str, Any]] = {}
    try:
        outputs = {name: proc.communicate(timeout=TIMEOUT) for name, proc in procs.items()}
    except subprocess.TimeoutExpired as e:
        raise DualFailure("%s: no result from %s within %d s" % (module, e.cmd[0], TIMEOUT)) from None
    finally:
        for proc in procs.values():   # reaped whatever happened: none outlives its test
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for name, proc in procs.items():
        out, err = outputs[name]
        recs: dict[str, Any] = {"__stderr__": err, "__rc__": proc.returncode}
        for line in out.splitlines():
            if line.startswith("{"):
                rec = json.loads(line)
                recs[rec["t"]] = rec
        results[name] = recs
    return results


class DualFile(pytest.File):
    def collect(self):
        tree = ast.parse(self.path.read_text(), str(self.path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield DualItem.from_parent(self, name=node.name)

    def results(self) -> dict[str, dict[str, Any]]:
        if not hasattr(self, "_results"):
            self._results = run_dual_module(self.path.stem)
        return self._results


class DualFailure(Exception):
    pass


class DualItem(pytest.Item):
    def runtest(self) -> None:
        both = self.parent.results()
        values = {}
        for interp, recs in both.items():
            rec = recs.get(self.name)
            if rec is None:
                raise DualFailure(f"{interp}: no result (exit {recs['__rc__']})\n{recs['__stderr__'][-3000:]}")
            if not rec["ok"]:
                raise DualFailure(f"{interp} failed:\n{rec['e']}")
            values[interp] = rec["r"]
        if values["cpython"] != values["micropython"]:
            raise DualFailure(
                "interpreters disagree:\n  cpython:     %r\n  micropython: %r"
                % (values["cpython"], values["micropython"])
            )

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, DualFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{self.name} [cpython+micropython]"


# make test runs the suite on several xdist workers (--dist loadgroup). Each file runs whole on
# one worker (a dual module runs once, a module's boards start once, its tests keep their order),
# except these, whose tests share nothing but a board each sets up afresh and are long: their
# tests are spread one by one, and start first, so that no worker is left with all of them.
SPREAD = ("test_sim.py", "test_demo.py")


@pytest.hookimpl(tryfirst=True)   # before xdist's own, which turns the marker into the group
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name not in SPREAD:
            item.add_marker(pytest.mark.xdist_group(str(item.path.relative_to(ROOT))))
    items.sort(key=lambda item: item.path.name not in SPREAD)  # stable: files keep their order


def pytest_configure(config: pytest.Config) -> None:
    """The virtual boards' ROMFS image of today's sources, made once per test run before any
    xdist worker starts (and the compiled modules with it, build/mpy-cache): every virtual board
    of the run boots from that image and every flash reuses those modules, none compiles."""
    # Tests Ctrl-C (SIGINT) tapmat children. A run started in the background of a script (CI,
    # `make test &`) inherits SIGINT ignored, and so would every child: Python then never raises
    # KeyboardInterrupt and the child never stops. Give SIGINT its meaning back, for the children.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not hasattr(config, "workerinput"):
        from host.vboard.process import board_romfs
        board_romfs()


def pytest_pycollect_makemodule(module_path, parent):
    """``dual_*.py`` (listed in ``python_files``) are run by the harness, not imported here."""
    if module_path.name.startswith("dual_") and module_path.parent.name == "dual":
        return DualFile.from_parent(parent, path=module_path)
    return None
