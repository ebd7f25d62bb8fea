"""Time the accept path on this interpreter: ``speed.py HEADER_JSON GAMES``; prints JSON.
``HEADER_JSON`` may be ``@FILE`` (the unix port dies on an argument longer than 255 bytes, and a
header with a deck profile is longer).

MicroPython-compatible. Seeded playouts produce the actions (not timed); the records are encoded
beforehand, then fresh games accept them all under the clock: what a board does per action.
"""
import sys
import json

sys.path.insert(0, "")

from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout

from clock import ticks_us, ticks_diff


def main(header, count):
    runs = []
    for seed in range(count):
        g = games.from_header(header)
        recs = []
        for action in Playout(header, seed).run():
            rec = bytearray(ACTION_SIZE)
            g.VOCAB.encode(action, rec)
            recs.append(rec)
        runs.append(recs)
    actions = 0
    spent = 0
    for recs in runs:
        g = games.from_header(header)
        t0 = ticks_us()
        for rec in recs:
            g.accept(rec)
        spent += ticks_diff(ticks_us(), t0)
        actions += len(recs)
    print(json.dumps({"actions": actions, "us": spent, "state_bytes": len(g.s),
                      "snapshot_bytes": len(g.snapshot()), "public_bytes": g.PUBLIC_SIZE}))


def header_arg(arg):
    if arg[:1] != "@":
        return json.loads(arg)
    with open(arg[1:]) as f:
        return json.load(f)


main(header_arg(sys.argv[1]), int(sys.argv[2]))
