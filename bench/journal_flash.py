"""The journal's flash work per accepted action on a real littlefs (MicroPython's ``VfsLfs2`` with
the rp2 port's geometry, on ``firmware.emu.nor_flash.Flash``): ``journal_flash.py GAMES``; prints
JSON. MicroPython only (CPython has no littlefs).

Seeded playouts of each game go through ``firmware.persist.Persist`` as the board's loop drives
it: ``accepted(rec)`` (the commit after the light) then ``tidy()`` (a snapshot every ``every``
actions). For each call: the journal file's ``write`` and ``flush`` (fsync) calls, the flash
page programs and 4 KiB sector erases it caused, as rows ``[call, writes, fsyncs, pages, erases,
how many]`` per game. bench/timing.py turns them into time.
"""
import sys
import json

sys.path.insert(0, "")
sys.path.insert(0, "tests/dual")

import vfs

from firmware.emu.nor_flash import Flash
from firmware.persist import Persist
from shared_rules import games
from host.sim.playout import Playout

HEADERS = ({"game": "skull", "players": 6}, {"game": "deadmans", "players": 4},
           {"game": "sheriff", "players": 5})
ROOT = "/lfs"
EVERY = 32  # firmware.persist's default


class Counted:
    """The journal file, its ``write`` and ``flush`` calls counted."""

    def __init__(self, f, calls):
        self.f = f
        self.calls = calls

    def seek(self, at):
        return self.f.seek(at)

    def write(self, buf, n=None):
        self.calls[0] += 1
        return self.f.write(buf) if n is None else self.f.write(buf, n)

    def flush(self):
        self.calls[1] += 1
        return self.f.flush()

    def close(self):
        return self.f.close()


def play(header, seed, out):
    blank = Flash(bytearray(64 * 4096))
    vfs.VfsLfs2.mkfs(blank, progsize=256)   # the rp2 port's settings
    flash = Flash(blank.data)
    vfs.mount(vfs.VfsLfs2(flash, progsize=256), ROOT)
    try:
        per = Persist(ROOT, EVERY)
        p = Playout(header, seed)
        per.new_game(json.dumps(header), games.from_header(header))
        calls = [0, 0]
        per._jf = Counted(per._jf, calls)
        while p.step() is not None:
            for what in ("accepted", "tidy"):
                before = (calls[0], calls[1], flash.pages, flash.erased)
                snaps = per.snapshots
                if what == "accepted":
                    per.accepted(p.rec)
                else:
                    per.tidy()
                    if per.snapshots == snaps:
                        continue
                    per._jf = Counted(per._jf, calls)
                key = (what, calls[0] - before[0], calls[1] - before[1],
                       flash.pages - before[2], flash.erased - before[3])
                out[key] = out.get(key, 0) + 1
        per.close()
    finally:
        vfs.umount(ROOT)


def main(count):
    res = {}
    for header in HEADERS:
        out = {}
        for seed in range(count):
            play(header, seed, out)
        res[header["game"]] = [list(k) + [n] for k, n in sorted(out.items())]
    print(json.dumps(res))


main(int(sys.argv[1]))
