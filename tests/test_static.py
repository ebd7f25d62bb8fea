"""Static checks: mypy over firmware/ and shared_rules/ against the MicroPython stubs of the
RP2040 board, and over host/ as CPython code (config: mypy.ini). ``make check`` runs this file.

mypy treats stdlib module names (time, select, os, ...) as typeshed's; a stub package in
site-packages cannot override them. So the MicroPython run gets its own typeshed, assembled
here from the pinned packages: micropython-stdlib-stubs' ``stdlib/`` (a reduced typeshed with
MicroPython's builtins, os, sys, ...) plus every module of micropython-rp2-rpi-pico-stubs
(machine, micropython, neopixel, rp2, and the port's time, select, hashlib, ...), each added to
``stdlib/VERSIONS``. That is the layout micropython-typeshed uses; mypy reads it with
``--custom-typeshed-dir``.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MYPY = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini")]
STDLIB_STUBS = "micropython_stdlib_stubs"
PORT_STUBS = "micropython_rp2_rpi_pico_stubs"
BUILD = ROOT / "build"


def _dist(site: Path, name: str) -> Path:
    found = sorted(site.glob(name + "-*.dist-info"))
    if not found:
        pytest.fail(f"{name} is not installed: run make venv")
    return found[-1]


def micropython_typeshed() -> Path:
    """build/typeshed-rp2-<versions>: made once per pair of stub package versions."""
    site = Path(sysconfig.get_paths()["purelib"])
    stdlib_dist, port_dist = _dist(site, STDLIB_STUBS), _dist(site, PORT_STUBS)
    tag = hashlib.sha256((stdlib_dist.name + port_dist.name).encode()).hexdigest()[:10]
    dest = BUILD / f"typeshed-rp2-{tag}"
    if dest.is_dir():
        return dest
    tmp = BUILD / f".typeshed-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(site / "stdlib", tmp / "stdlib")
    shutil.copytree(site / "stubs", tmp / "stubs")  # mypy-extensions, which mypy itself needs
    modules = set()
    for line in (port_dist / "RECORD").read_text().splitlines():
        path = line.split(",")[0]
        if path.endswith(".pyi"):  # the port's stub over the reduced stdlib one, if both exist
            (tmp / "stdlib" / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(site / path, tmp / "stdlib" / path)
            modules.add(path.split("/")[0].removesuffix(".pyi"))
    versions = tmp / "stdlib" / "VERSIONS"
    listed = {ln.split(":")[0].strip() for ln in versions.read_text().splitlines()
              if ":" in ln and not ln.lstrip().startswith("#")}
    with versions.open("a") as f:
        f.writelines(f"{m}: 3.0-\n" for m in sorted(modules - listed))
    try:
        tmp.rename(dest)
    except OSError:  # another run made it first: same content
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def mypy(*args: str, cache: str) -> subprocess.CompletedProcess:
    return subprocess.run([*MYPY, "--cache-dir", str(BUILD / cache), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def micropython_mypy(*paths: str) -> subprocess.CompletedProcess:
    return mypy("--custom-typeshed-dir", str(micropython_typeshed()), *paths, cache="mypy-rp2")


def test_firmware_and_rules_against_the_micropython_stubs() -> None:
    res = micropython_mypy("firmware", "shared_rules")
    assert res.returncode == 0, res.stdout + res.stderr


def test_host_as_cpython() -> None:
    res = mypy("host", cache="mypy-host")
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_micropython_run_really_uses_the_board_stubs(tmp_path: Path) -> None:
    """A module that is fine on CPython but wrong on the board fails; one using machine passes."""
    pkg = tmp_path / "probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "good.py").write_text(
        "import machine\nimport time\nfrom micropython import const\n"
        "_N = const(3)\n"
        "def blink():\n"
        "    p = machine.Pin(25, machine.Pin.OUT)\n"
        "    p.value(1)\n"
        "    time.sleep_ms(_N)\n"
        "    return time.ticks_diff(time.ticks_ms(), 0)\n")
    (pkg / "bad.py").write_text(
        "import time\nimport machine\n"
        "def now():\n"
        "    return time.monotonic()\n"       # CPython only
        "def pin():\n"
        "    return machine.Pin(25).toggle_all()\n")
    res = micropython_mypy(str(pkg / "good.py"))
    assert res.returncode == 0, res.stdout + res.stderr
    res = micropython_mypy(str(pkg / "bad.py"))
    assert res.returncode == 1
    assert 'Module has no attribute "monotonic"' in res.stdout, res.stdout
    assert '"Pin" has no attribute "toggle_all"' in res.stdout, res.stdout
