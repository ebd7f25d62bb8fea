"""Generate a board module's layout twin (``shared_rules/<game>/layout.py``, ``<module>_layout.py``): its ``const()`` values, by name.

A board module keeps its registers, phases, action kinds and reasons as private ``const()``s
(``_R_PHASE = const(3)``): MicroPython inlines them and keeps neither a name nor a dictionary
slot for them (docs/performance.md). Tests, simulation tables and host tools still want those
values by name, on both interpreters. So each listed module gets a generated twin that is never
part of a board image (``host/board/build.py`` ``HOST_ONLY``): every top-level ``NAME = const(literal)``
and ``_NAME = const(literal)`` of the module, as ``NAME = literal``. ``tests/test_layout.py``
checks the committed files against the sources.

    python -m host.layout          (rewrite them all)
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Board modules with a generated layout, by dotted name.
MODULES: tuple[str, ...] = (
    "firmware.mfrc522",
    "firmware.presence",
    "firmware.sensors",
    "shared_rules.deadmans.rules",
    "shared_rules.sheriff.rules",
    "shared_rules.sheriff.modules.cards",
    "shared_rules.sheriff.modules.laws",
    "shared_rules.sheriff.modules.expansion",
    "shared_rules.sheriff.modules.black_market",
    "shared_rules.skull.rules",
)
_NAME = re.compile(r"^_?([A-Z][A-Z0-9_]*)$")


def source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def target(module: str) -> Path:
    """``layout.py`` beside a game's ``rules.py``, ``<name>_layout.py`` beside another
    ``shared_rules`` module; in ``host/board/`` for a ``firmware`` one (host tools read those too,
    and the host package does not ship ``firmware/``)."""
    path = source(module)
    if module.startswith("firmware."):
        return ROOT / "host" / "board" / (path.stem + "_layout.py")
    return path.with_name("layout.py" if path.stem == "rules" else path.stem + "_layout.py")


def constants(path: Path) -> dict[str, object]:
    """``NAME -> value`` of a module's top-level literal ``const()``s, in source order; a name
    declared twice (public and private) is an error naming the file and line."""
    out: dict[str, object] = {}
    for node in ast.parse(path.read_text(), str(path)).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "const"
                and len(node.value.args) == 1):
            continue
        m = _NAME.match(node.targets[0].id)
        if not m:
            continue
        try:
            value = ast.literal_eval(node.value.args[0])
        except ValueError:
            continue
        name = m.group(1)
        if name in out:
            raise ValueError("%s:%d: %s is declared twice" % (path, node.lineno, name))
        out[name] = value
    return out


def render(module: str) -> str:
    lines = ['"""Generated from %s by ``python -m host.layout``: do not edit.' % source(module).relative_to(ROOT),
             "",
             "The module's ``const()`` values by name, for tests and host tools; never on a board.",
             '"""']
    lines += ["%s = %r" % (name, value) for name, value in constants(source(module)).items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    for module in MODULES:
        path = target(module)
        text = render(module)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print("wrote", path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
