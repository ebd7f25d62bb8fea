"""Simulated players: a seeded random game played on a board, physically where the mat can sense it.

The players pick random legal moves (``--seed``: the same moves as ``Playout(header, seed)``),
and now and then make a mistake the board must refuse (a disc on another seat's pad, an
unregistered tag, an out-of-turn move). On a virtual board they act physically: tags put on and
lifted off its readers, bag clasps closed, command tokens tapped (docs/mat.md). A game without
gestures on the board, or a real board, is driven with host ACTION frames instead (the output
says so). Without ``--port`` the sim starts a virtual board of its own in a temporary folder.

After every answer the mirrored public view is checked against the rules' public view of the
same actions. ``--json`` prints the mirrored final state in the replay contract's shape;
``--log`` writes the accepted actions as an action log that ``tapmat replay`` turns into the
same scores. Exit status: 0 done, 1 the board did something the rules do not allow (or nothing),
2 bad arguments or no board.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from host.hub.mirror import header_text, newgame_body
from host.screen.monitor import SessionTimeout
from host.sim.runner import SimError, play
from host.vboard.readiness import port_ready
from shared_rules import games

NAME = "sim"
HELP = "simulated players on the (virtual) board: a seeded random game, physically where possible"
DEFAULT_PLAYERS = {"skull": 4, "deadmans": 3, "sheriff": 4}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=1, metavar="N", help="random seed (default: %(default)s)")
    add_header_arguments(p)
    add_module_arguments(p)
    p.add_argument("--until-over", action="store_true", help="play until the game is over")
    p.add_argument("--actions", type=int, default=40, metavar="N",
                   help="stop after N accepted actions unless --until-over (default: %(default)s)")
    p.add_argument("--port", metavar="PORT",
                   help="the board's serial port; a virtual board's BOARD_DIR/tty lets the players "
                        "act physically (default: start a virtual board in a temporary folder)")
    p.add_argument("--host-actions", action="store_true",
                   help="send every action as a host ACTION frame, even where the mat has sensors")
    p.add_argument("--mistakes", type=float, default=0.08, metavar="RATE",
                   help="chance of a deliberate mistake before each action, 0..1 (default: %(default)s)")
    p.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="pause after each action (default: none)")
    p.add_argument("--json", action="store_true",
                   help="print the mirrored final state as one JSON object (replay contract shape)")
    p.add_argument("--log", metavar="FILE", help="write the accepted actions as an action log")
    p.add_argument("-v", "--verbose", action="store_true", help="print every accepted action")


def add_game_arguments(p: argparse.ArgumentParser, default: str | None = None) -> None:
    """--game and --players, the same for sim, demo and flash (make GAME= PLAYERS=)."""
    p.add_argument("--game", default=default, choices=games.names(),
                   help="the game (or --header)" + (" (default: %(default)s)" if default else ""))
    p.add_argument("--players", type=int, metavar="N",
                   help="number of players (default: %s; Dead Man's Draw for 5-8 gets decks=2 by "
                        "itself)" % ", ".join("%s %d" % kv for kv in DEFAULT_PLAYERS.items()))


def add_header_arguments(p: argparse.ArgumentParser) -> None:
    """--option and --header, shared by sim, demo and flash (make demo/flash OPTIONS= HEADER=)."""
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="another header option, VALUE as JSON (e.g. decks=2, first=2, royal=false, "
                        "tribes_per_player=2, 'modules=[]'); repeatable")
    p.add_argument("--header", metavar="JSON",
                   help='the whole log header instead of --game/--players, e.g. '
                        '\'{"game": "deadmans", "players": 6, "decks": 2}\'')


def add_module_arguments(p: argparse.ArgumentParser, profile: bool = True) -> None:
    """--modules (Sheriff's Merry Men expansion), and with ``profile`` the --profile whose card
    data goes into the game header (sim, demo; flash writes its --profile as profile.bin)."""
    p.add_argument("--modules", metavar="LIST",
                   help="Sheriff expansion modules, comma-separated: deputies (6 players), black_market, laws, "
                        "special_orders, merry_men")
    if profile:
        p.add_argument("--profile", metavar="FILE",
                       help="deck profile for the modules' card data (default: host/profiles/sample.json, "
                            "placeholder values)")


def add_modules(header: dict[str, Any], modules: str | None) -> None:
    """``--modules a,b`` into the header."""
    if modules:
        header["modules"] = [m.strip() for m in modules.split(",") if m.strip()]


def add_profile(header: dict[str, Any], profile: str | None) -> None:
    """The deck profile sections the header's modules need (the sample one by default)."""
    from pathlib import Path
    from host.board.deck_profile import SAMPLE, load
    from shared_rules.sheriff.modules import profile as deck_profile
    mods = header.get("modules", [])
    needs = [m for m in mods if m in ("black_market", "laws", "special_orders", "merry_men")]
    if profile or needs and "profile" not in header:
        whole = load(Path(profile) if profile else SAMPLE)
        header["profile"] = deck_profile.for_modules(whole, mods) if mods else whole   # only what they use


def implied_options(header: dict[str, Any]) -> dict[str, Any]:
    """Options a --game/--players header gets by itself unless given: Dead Man's Draw for 5-8
    players plays with two decks (the rules core refuses such a header without "decks": 2)."""
    if header["game"] == "deadmans" and isinstance(header["players"], int) and header["players"] > 4:
        return {"decks": 2}
    return {}


def parse_header(args: argparse.Namespace, default_game: str | None = None,
                 embed_profile: bool = True) -> dict[str, Any] | None:
    """The log header of ``--header``, or ``--game``/``--players`` (and ``implied_options``),
    with every ``--option`` and ``--modules``, checked by the rules core (``ValueError`` saying
    what is wrong); None without a game. ``embed_profile``: the deck profile goes in the header."""
    options = getattr(args, "option", None) or []
    if args.header is not None:
        try:
            header = json.loads(args.header)
        except ValueError as e:
            raise ValueError("--header is not JSON: %s" % e) from None
        if not isinstance(header, dict):
            raise ValueError("--header must be a JSON object")
    else:
        game = args.game or default_game
        if game is None:
            if options:
                raise ValueError("--option needs --game")
            if getattr(args, "modules", None):
                raise ValueError("--modules needs --game sheriff")
            return None
        header = {"game": game, "players": args.players or DEFAULT_PLAYERS.get(game, 3)}
    for opt in options:
        key, sep, value = opt.partition("=")
        if not sep or not key:
            raise ValueError("--option %r: expected KEY=VALUE" % opt)
        try:
            header[key] = json.loads(value)
        except ValueError:
            header[key] = value
    if args.header is None:
        for key, value in implied_options(header).items():
            header.setdefault(key, value)
    add_modules(header, getattr(args, "modules", None))
    if embed_profile:   # sim and demo (flash writes its --profile as profile.bin instead)
        add_profile(header, getattr(args, "profile", None))
    try:
        games.from_header(header)  # the rules core says what is wrong with it
    except ValueError as e:
        raise ValueError("game header %s: %s" % (header_text(header), e)) from None
    newgame_body(header)  # and whether its link form fits a frame
    return dict(header)


def header_of(args: argparse.Namespace) -> dict[str, Any]:
    header = parse_header(args)
    assert header is not None  # --game is required or defaulted
    return header


def run(args: argparse.Namespace) -> int:
    if args.game is None and args.header is None:
        print("tapmat sim: give --game (or --header)", file=sys.stderr)
        return 2
    try:
        header = header_of(args)
    except ValueError as e:
        print("tapmat sim: bad game: %s" % e, file=sys.stderr)
        return 2
    if not 0 <= args.mistakes <= 1 or args.pace < 0 or args.actions < 1:
        print("tapmat sim: --mistakes must be 0..1, --pace >= 0, --actions >= 1", file=sys.stderr)
        return 2
    if args.log and (Path(args.log).is_dir() or not Path(args.log).resolve().parent.is_dir()):
        print("tapmat sim: --log %s: not a file in an existing folder" % args.log, file=sys.stderr)
        return 2
    if args.port and not port_ready("tapmat sim", args.port):
        return 2
    out = sys.stderr if args.json else sys.stdout

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    def show(sim: Any) -> None:
        say("  %s" % json.dumps(sim.actions[-1]))

    try:
        result = play(header, args.seed, port=args.port, host_only=args.host_actions,
                      max_actions=None if args.until_over else args.actions, pace=args.pace,
                      mistakes=args.mistakes, say=say, on_step=show if args.verbose else None)
    except (SessionTimeout, ConnectionError, OSError) as e:
        print("tapmat sim: %s" % e, file=sys.stderr)
        return 2
    except SimError as e:
        print("tapmat sim: the board went wrong: %s" % e, file=sys.stderr)
        return 1
    if args.log:
        try:
            result.write_log(args.log)
        except OSError as e:
            print("tapmat sim: --log %s: %s" % (args.log, e.strerror or e), file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(result.contract()))
        return 0
    final = result.final
    say("%d actions accepted, %d mistakes refused, mirror checked %d times (%.1f s)" % (
        len(result.actions), len(result.rejected), result.checked, result.seconds))
    say("%s, %d players, %s" % (final["game"], final["players"], "over" if final["over"] else "in progress"))
    for seat, score in enumerate(final["scores"]):
        say("  seat %d: %d%s" % (seat, score, " (winner)" if seat in final["winners"] else ""))
    return 0
