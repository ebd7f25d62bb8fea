"""The ``tapmat`` command line: one sub-command per module of ``host/cli/`` (this one builds the parser).

Each command module exposes ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``,
so commands are added without touching this file's logic.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

import host.cli


def command_modules() -> list:
    """Every command module of ``host.cli``, sorted by command name."""
    mods = [
        importlib.import_module("host.cli." + info.name)
        for info in pkgutil.iter_modules(host.cli.__path__)
        if info.name not in ("main", "__main__")
    ]
    return sorted(mods, key=lambda m: m.NAME)


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tapmat")
    except PackageNotFoundError:
        return "(not installed: run make venv)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tapmat",
        description="tapmat: the NFC play mat that referees card games (host tool).",
    )
    parser.add_argument("--version", action="version", version="tapmat %s" % version(),
                        help="print the host tool's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; Ctrl-C at any moment, loading the commands included, ends with status
    130 and never a traceback (a command that must tidy up does so on its way out)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130

