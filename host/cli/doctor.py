"""Bring-up check of a mat's readers, on a real board or the virtual one.

    tapmat doctor --port /dev/ttyACM0
    tapmat doctor --port /dev/ttyACM0 --collision-reader 15

For every reader: the MFRC522's VersionReg (NXP 91h/92h or a clone's value), whether it is
healthy (init and its CRC self-test passed, TModeReg holds its configuration), the time from
switching the field on to the first answered request (the 5.1 ms power-up guard plus one
exchange), and the tags it sees. Then a guided collision test: put exactly three tags on one
reader (default: the command pad) and press Enter; it is scanned 10 times, every scan must find
the same three UIDs, and the CollPos reading the driver learnt is shown (docs/nfc.md). The
firmware is stopped while the doctor runs and restarted after. Exit status 0 when everything
passed.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from host.board.mfrc522_layout import STATUS_NAMES
from host.board.flash import BoardError, Connection
from host.board.tags import COMMAND_PAD

NAME = "doctor"
HELP = "bring-up check: every reader's version and health, field guard, a three-tag collision test"
SCANS = 10
VERSIONS = {0x91: "NXP MFRC522 v1.0", 0x92: "NXP MFRC522 v2.0", 0x88: "clone (FM17522)"}
COLLPOS = {1: "FIFO bit 0 (RxAlign included)", 2: "UID CLn (Arduino reading)", 4: "first received bit"}

# The driver's status names, defined in the scripts (the board holds only the codes).
_NAMES = "STATUS_NAMES = %r\n" % (STATUS_NAMES,)
READERS_SCRIPT = _NAMES + """\
import time
from firmware import boards
_b = boards.load()
_u = bytearray(42)
for _i in range(len(_b.readers)):
    _r = _b.readers[_i]
    _st = _r.init()
    _h = _st == 0 and _r.healthy()
    _g = -1
    _n = 0
    if _h:
        _t = time.ticks_us()
        _r.antenna_on()
        _r.request(True)
        _g = time.ticks_diff(time.ticks_us(), _t)
        _r.antenna_off()
        _r.antenna_on()
        _n = _r.scan(_u)
        _r.antenna_off()
        _st = _r.status
    print('R', _i, STATUS_NAMES[_st], _r.version, 1 if _h else 0, _g, _n)
"""

COLLISION_SCRIPT = _NAMES + """\
import binascii
from firmware import boards
_b = boards.load()
_r = _b.readers[%(reader)d]
_u = bytearray(42)
_idle = getattr(_b, 'idle', None) or (lambda: _b.sleep_ms(5))
_st = _r.init()
for _k in range(%(scans)d):
    _idle()  # the board's housekeeping (the virtual board applies its control commands here)
    _r.antenna_on()
    _n = _r.scan(_u)
    _r.antenna_off()
    print('C', _k, STATUS_NAMES[_r.status], _r.errors, _r.collpos,
          *[binascii.hexlify(_u[7 * i:7 * i + 7]).decode() for i in range(_n)])
"""


@dataclass
class ReaderCheck:
    reader: int
    status: str
    version: int
    healthy: bool
    guard_us: int
    tags: int

    @property
    def chip(self) -> str:
        if self.version in (0x00, 0xFF):
            return "none (%02Xh)" % self.version
        return "%02Xh %s" % (self.version, VERSIONS.get(self.version, "clone"))


def check_readers(board: Connection) -> list[ReaderCheck]:
    out = []
    for line in board.run(READERS_SCRIPT, timeout=60).splitlines():
        w = line.split()
        if len(w) == 7 and w[0] == "R":
            out.append(ReaderCheck(int(w[1]), w[2], int(w[3]), w[4] == "1", int(w[5]), int(w[6])))
    return out


def collision_test(board: Connection, reader: int) -> tuple[bool, list[str], str]:
    """Scan ``reader`` SCANS times: (passed, lines to show, CollPos reading learnt)."""
    scans = []
    collpos = 7
    for line in board.run(COLLISION_SCRIPT % {"reader": reader, "scans": SCANS}, timeout=60).splitlines():
        w = line.split()
        if len(w) >= 5 and w[0] == "C":
            collpos = int(w[4])
            scans.append((w[2], int(w[3]), sorted(w[5:])))
    first = scans[0][2] if scans else []
    passed = len(scans) == SCANS and len(first) == 3 and all(s == "ok" and u == first for s, _, u in scans)
    lines = ["scan %d: %s, %d retries, %s" % (k, s, e, " ".join(u) or "no tag")
             for k, (s, e, u) in enumerate(scans)]
    learnt = " or ".join(v for bit, v in COLLPOS.items() if collpos & bit)
    return passed, lines, learnt


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True, metavar="PORT", help="the board's serial port (or a virtual board's)")
    p.add_argument("--collision-reader", type=int, default=COMMAND_PAD, metavar="N",
                   help="reader for the three-tag collision test (default: the command pad, %(default)s)")
    p.add_argument("--no-collision", action="store_true", help="skip the collision test")
    p.add_argument("--yes", action="store_true", help="do not wait for Enter: the tags are already there")


def run(args: argparse.Namespace) -> int:
    console = Console()
    try:
        with Connection(args.port) as board:
            try:
                return _doctor(console, board, args)
            finally:
                board.reset(hard=False)
    except BoardError as e:
        console.print("[red]%s[/]" % e)
        return 2


def _doctor(console: Console, board: Connection, args: argparse.Namespace) -> int:
    console.print("checking every reader ...")
    checks = check_readers(board)
    t = Table(title="readers")
    for col in ("reader", "chip (VersionReg)", "health", "field on -> first answer", "tags"):
        t.add_column(col)
    for c in checks:
        t.add_row(str(c.reader), c.chip, "[green]ok[/]" if c.healthy and c.status == "ok" else "[red]%s[/]" % c.status,
                  "%.1f ms (5.1 ms guard + one exchange)" % (c.guard_us / 1000) if c.guard_us >= 0 else "-",
                  str(c.tags))
    console.print(t)
    good = bool(checks) and all(c.healthy and c.status == "ok" for c in checks)
    if args.no_collision:
        return 0 if good else 1
    if not 0 <= args.collision_reader < len(checks):
        console.print("[red]reader %d: the board has readers 0..%d[/]" % (args.collision_reader, len(checks) - 1))
        return 1
    if not args.yes:
        console.print("collision test: put exactly three tags on reader %d, then press Enter" % args.collision_reader)
        sys.stdin.readline()
    passed, lines, learnt = collision_test(board, args.collision_reader)
    for line in lines:
        console.print("  " + line)
    console.print("collision test: %s; CollPos reading: %s" % ("[green]passed[/]" if passed else "[red]failed[/]", learnt))
    return 0 if good and passed else 1
