"""Replay an action log (JSON Lines) and print the resulting game state.

Runs the same rules core as the board (``shared_rules``); ``micropython -m shared_rules.replay
LOG`` prints equal JSON. Exit status: 0 done, 1 a rejected action with ``--strict``, 2 the log
cannot be replayed (missing file, bad header). Lines over 4096 bytes are refused one by one;
at most 1000 refusals are listed, ``rejected_count`` counts them all (docs/action-log.md).
"""
from __future__ import annotations

import argparse
import json
import sys

from shared_rules.replay import replay_file

NAME = "replay"
HELP = "replay an action log and print scores, winners and rejected lines"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", metavar="LOG", help="action log file (JSON Lines, see docs/action-log.md)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--strict", action="store_true", help="stop at the first rejected action (exit 1)")


def run(args: argparse.Namespace) -> int:
    try:
        result = replay_file(args.log, strict=args.strict)
    except ValueError as e:   # the log cannot be replayed at all (replay_file's message)
        print("tapmat replay: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        print_text(result)
    if args.strict and result["rejected"]:
        first = result["rejected"][0]
        print("tapmat replay: %s:%d: rejected: %s" % (args.log, first["line"], _why(first)), file=sys.stderr)
        return 1
    return 0


def print_text(result: dict) -> None:
    """A short human summary: state, scores, and every rejected line."""
    state = "over" if result["over"] else "in progress"
    print("%s, %d players, %s" % (result["game"], result["players"], state))
    for seat, score in enumerate(result["scores"]):
        mark = " (winner)" if seat in result["winners"] else ""
        print("  seat %d: %d%s" % (seat, score, mark))
    for r in result["rejected"]:
        print("  line %d rejected: %s" % (r["line"], _why(r)))
    more = result["rejected_count"] - len(result["rejected"])
    if more:
        print("  ... and %d more rejected lines (%d in all)" % (more, result["rejected_count"]))


def _why(r: dict) -> str:
    """A refusal's reason code, and what exactly was wrong when the replay says."""
    return r["error"] + (" (%s)" % r["detail"] if "detail" in r else "")
