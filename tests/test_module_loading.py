"""A Sheriff game loads only the Merry Men modules its header names (issue 22: one file per
module, so that a board's heap holds no code its game does not use), on both interpreters.
The expansion's game class that every module game builds on is in ``expansion.py``, loaded with
any module; the deputies' rules are a module like the others."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared_rules.sheriff.modules.profile import for_modules

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = str(Path(sys.executable).parent / "micropython")
SAMPLE = json.loads((ROOT / "host" / "profiles" / "sample.json").read_text())
MODULES = ("deputies", "black_market", "laws", "special_orders", "merry_men")
# What a header needs as well as its modules: deputies play with 6, the others read the profile.
PLAYERS = {"deputies": 6}
PROBE = """import sys, json
sys.path.insert(0, '')
from shared_rules import games
with open(sys.argv[1]) as f:
    games.from_header(json.load(f))
print(json.dumps(sorted(m for m in sys.modules if m.startswith('shared_rules.sheriff.modules.'))))
"""


def loaded(interpreter: list[str], modules: list[str], folder: Path) -> set[str]:
    header = {"game": "sheriff", "players": max(PLAYERS.get(m, 4) for m in modules), "modules": modules}
    needs_profile = [m for m in modules if m != "deputies"]
    if needs_profile:
        header["profile"] = for_modules(SAMPLE, needs_profile)
    path = folder / "header.json"   # a file: the unix port's argv holds no word over 255 bytes
    path.write_text(json.dumps(header))
    out = subprocess.run(interpreter + ["-c", PROBE, str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return {name.rsplit(".", 1)[1] for name in json.loads(out)}


@pytest.mark.parametrize("interpreter", [[sys.executable], [MICROPYTHON, "-X", "heapsize=4M"]],
                         ids=["cpython", "micropython"])
@pytest.mark.parametrize("module", MODULES)
def test_a_game_loads_only_the_modules_its_header_names(interpreter: list[str], module: str, tmp_path: Path) -> None:
    got = loaded(interpreter, [module], tmp_path)
    assert module in got and "expansion" in got   # the game class
    assert not (got & set(MODULES)) - {module}, got
