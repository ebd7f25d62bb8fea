"""Register a physical deck's tags in a deck registry (deck.bin), for ``tapmat flash --deck``.

    tapmat tags tap --port /dev/ttyACM0 --game skull --seats 0-3 --out decks/home.bin
    tapmat tags tap --port /dev/ttyACM0 --tokens --out decks/home.bin --sign decks/home.key
    tapmat tags import uids.csv --out decks/home.bin
    tapmat tags signed --port /dev/ttyACM0 --key decks/home.key --out decks/away.bin
    tapmat tags show decks/home.bin

``tap`` names each piece in turn; tap it on the reader (default: the command pad). Type ``u``
and Enter to undo the last tap, ``q`` and Enter to stop (the registry keeps what was tapped;
run the same command again to resume). With ``--sign`` the board writes a signed record into
each tag as it is tapped and reads it back. docs/provisioning.md has the details.
"""
from __future__ import annotations

import argparse
import select
import sys
from pathlib import Path
from typing import Callable

from host.board import ndef
from host.board.flash import BoardError, PortUnavailable
from host.board.tags import (COMMAND_PAD, BoardReader, Piece, ProvisionError, Session, load_registry,
                       merge, piece_of, pieces_for, read_uid_list, signed_record, write_registry)
from shared_rules import catalogue
from shared_rules.core import deck

NAME = "tags"
HELP = "register a deck's tags: tap them on the mat, import a UID list, or read signed tags"

Say = Callable[[str], None]
Typed = Callable[[], "str | None"]  # a command line typed by the user, if one is waiting


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="mode", metavar="MODE", required=True)
    tap = sub.add_parser("tap", help="tap every piece of a set, in the order the host names")
    _board_args(tap)
    what = tap.add_mutually_exclusive_group(required=True)
    what.add_argument("--game", choices=("skull", "deadmans", "sheriff"), help="the game whose pieces to tap")
    what.add_argument("--tokens", action="store_true", help="the command token set")
    tap.add_argument("--seats", default="0-5", help="skull: owner seats of the discs, e.g. 0-3 or 0,2 "
                                                    "(default: %(default)s)")
    tap.add_argument("--deck-number", type=int, default=0, help="deadmans: 0, or 1 for the second deck")
    tap.add_argument("--copies", type=int, default=1, help="tokens: tags per token (default: 1)")
    tap.add_argument("--modules", default="", help="sheriff: also the module cards of these Merry Men "
                                                   "modules, e.g. black_market (goods already tapped are skipped)")
    tap.add_argument("--sign", type=Path, metavar="KEYFILE",
                     help="write a signed record to each tag with this deck key (created if missing)")
    imp = sub.add_parser("import", help="register a UID list: CSV uid,code[,seat/deck] or JSON")
    imp.add_argument("file", type=Path, help="the UID list (CSV or JSON)")
    imp.add_argument("--out", type=Path, required=True, help="the registry to add to (deck.bin)")
    signed = sub.add_parser("signed", help="register tags by their signed records, in any order")
    _board_args(signed)
    signed.add_argument("--key", type=Path, action="append", required=True, metavar="KEYFILE",
                        help="a deck key (repeat for several decks)")
    show = sub.add_parser("show", help="list a registry")
    show.add_argument("file", type=Path, help="the registry file (deck.bin)")


def _board_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, metavar="PORT", help="the board's serial port")
    p.add_argument("--reader", type=int, default=COMMAND_PAD,
                   help="the reader to tap on (default: %(default)s, the command pad)")
    p.add_argument("--out", type=Path, required=True, help="the registry to write (deck.bin)")


def parse_seats(text: str) -> list[int]:
    seats: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            seats += range(int(lo), int(hi or lo) + 1)
    except ValueError:
        raise ProvisionError(f"--seats {text!r}: numbers and ranges like 0-3 or 0,2,5") from None
    if not seats or not all(0 <= s < deck.OWNER_SEATS for s in seats):
        raise ProvisionError(f"--seats {text!r}: seats 0..{deck.OWNER_SEATS - 1}")
    return seats


def parse_modules(text: str) -> list[str]:
    """``--modules black_market,...``: the Merry Men modules whose cards carry tags."""
    names = [m for m in text.split(",") if m]
    tagged = [m for m, _, _ in catalogue.SHERIFF_MODULE_OF]
    for m in names:
        if m not in tagged:
            raise ProvisionError(f"--modules {text!r}: {m!r} has no tagged cards (tagged: {', '.join(tagged)})")
    return names


def stdin_lines() -> Typed:
    """A line typed on the terminal, if one is waiting (never blocks)."""
    def poll() -> str | None:
        if not select.select([sys.stdin], [], [], 0)[0]:
            return None
        line = sys.stdin.readline()
        return "q" if line == "" else line.strip().lower()
    return poll


def load_or_make_key(path: Path, say: Say) -> ndef.DeckKey:
    if path.exists():
        return ndef.DeckKey.load(path)
    key = ndef.DeckKey.new()
    key.save(path)
    say(f"new deck key {key.deck_id:08x} in {path}: keep it; a mat needs it to accept this deck")
    return key


def sign_tag(reader: BoardReader, uid: str, piece: Piece, key: ndef.DeckKey) -> None:
    """Write the signed record naming ``piece`` into tag ``uid`` through the board, then check
    what the board read back: the record must verify with ``key`` and name that piece."""
    back = reader.write(uid, ndef.encode(bytes.fromhex(uid), piece.name, key))
    if piece_of(signed_record(uid, back, [key])) != piece:
        raise ProvisionError(f"tag {uid}: the record read back names another piece")


def tap_loop(session: Session, reader: BoardReader, out: Path, typed: Typed, say: Say,
             sign: ndef.DeckKey | None = None) -> bool:
    """Ask for each pending piece until all are tapped or ``q``; True when the set is complete.

    With ``sign`` (a deck key) each tapped tag gets its signed record before the tap counts.
    The registry file is rewritten after every tap and undo, so nothing is lost on a stop.
    """
    def ask() -> None:
        done, total = session.progress()
        if session.expected is not None:
            say(f"[{done}/{total}] tap: {session.expected}")

    ask()
    while not session.done:
        key = typed()
        if key in ("q", "quit"):
            say("stopped; run the same command again to go on")
            return False
        if key in ("u", "undo"):
            try:
                uid, piece = session.undo()
                write_registry(out, session.records())
                say(f"undone: tag {uid} is no longer {piece}")
            except ProvisionError as e:
                say(f"refused: {e}")
            ask()
        elif key:
            say("keys: u + Enter = undo the last tap, q + Enter = stop")
        event = reader.next(0.1)
        if event is None or event.kind != "arrive":
            continue
        try:
            piece = session.tap(event.uid)
        except ProvisionError as e:
            say(f"refused: {e}")
            ask()
            continue
        try:
            if sign is not None:
                sign_tag(reader, event.uid, piece, sign)
            write_registry(out, session.records())
        except ProvisionError as e:
            session.undo()  # not signed or not saved: the tap does not count
            say(f"refused: {e}")
            ask()
            continue
        say(f"ok: tag {event.uid} = {piece}" + (" (signed, read back)" if sign else ""))
        ask()
    done, total = session.progress()
    say(f"complete: {done}/{total} pieces registered in {out}")
    return True


def signed_loop(reader: BoardReader, deck_keys: list[ndef.DeckKey], out: Path, typed: Typed,
                say: Say) -> int:
    """Register each tapped tag by its signed record until ``q``; returns how many were added."""
    records = load_registry(out)
    added = 0
    say("tap the signed tags in any order; q + Enter when done")
    while typed() not in ("q", "quit"):
        event = reader.next(0.1)
        if event is None or event.kind != "arrive":
            continue
        try:
            rec = signed_record(event.uid, event.memory or b"", deck_keys)
            merged = merge(records, [rec], str(out))
            if len(merged) > len(records):
                write_registry(out, merged)
                added += 1
                say(f"ok: tag {event.uid} = {piece_of(rec)}")
            else:
                say(f"known: tag {event.uid} = {piece_of(rec)}")
            records = merged
        except ProvisionError as e:
            say(f"refused: {e}")
    say(f"{added} tags added to {out} ({len(records)} in all)")
    return added


def run(args: argparse.Namespace, typed: Typed | None = None) -> int:
    def say(text: str) -> None:
        print(text, flush=True)

    typed = typed or stdin_lines()
    try:
        if args.mode == "show":
            if not args.file.is_file():
                print(f"tapmat tags: {args.file}: no such registry file", file=sys.stderr)
                return 2
            for r in load_registry(args.file):
                print(r["uid"], piece_of(r))
            return 0
        if args.mode == "import":
            new = read_uid_list(args.file)
            records = merge(load_registry(args.out), new, str(args.out))
            size = write_registry(args.out, records)
            say(f"{len(new)} tags read, {len(records)} in {args.out} ({size} B)")
            return 0
        if args.mode == "signed":
            deck_keys = [ndef.DeckKey.load(k) for k in args.key]
            with BoardReader(args.port, args.reader, memory=True) as reader:
                signed_loop(reader, deck_keys, args.out, typed, say)
            return 0
        game = None if args.tokens else args.game
        pieces = pieces_for(game, parse_seats(args.seats) if game == "skull" else (),
                            args.deck_number, args.copies, parse_modules(args.modules))
        session = Session(pieces, load_registry(args.out))
        if session.already:
            say(f"{session.already} of {len(pieces)} pieces are in {args.out} already")
        with BoardReader(args.port, args.reader, memory=False) as reader:
            sign = load_or_make_key(args.sign, say) if args.sign else None
            complete = tap_loop(session, reader, args.out, typed, say, sign)
        return 0 if complete else 3
    except PortUnavailable as e:
        print(f"tapmat tags: {e}", file=sys.stderr)
        return 2
    except (ProvisionError, BoardError, ndef.NdefError, OSError) as e:
        print(f"tapmat tags: {e}", file=sys.stderr)
        return 1

