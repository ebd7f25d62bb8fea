"""Power cuts on the virtual board: SIGKILL at 200 random points of play, then boot again.

Actions go to the board as host ACTION frames in bursts; the board is killed a random moment
later, mid-burst or mid-journal-write. After each boot the restored state (referee view) must be
the state after some prefix of what was sent — never anything else — and never before the last
action the host saw accepted (a DELTA): nothing accepted is lost, nothing half-written counts.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import serial  # type: ignore[import-untyped]

from host.board.image import board_image, install_dir
from host.hub.mirror import Mirror, REFEREE
from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.core.engine import crc32
from host.sim.playout import Playout
from vboards import frames_until, running_board

KILLS = 200
HEADER = {"game": "skull", "players": 4}


def prefix_digests(actions: list[dict]) -> list[str]:
    """digest of the game after 0, 1, ... len(actions) actions."""
    g = games.from_header(HEADER)
    rec = bytearray(ACTION_SIZE)
    out = [g.digest()]
    for a in actions:
        assert g.VOCAB.encode(a, rec) == 0 and g.accept(rec) == 0
        out.append(g.digest())
    return out


def test_power_cut_at_200_random_points_restores_the_last_accepted_state(tmp_path: Path) -> None:
    board_dir = tmp_path / "vboard"
    install_dir(board_dir, board_image("virtual", game=HEADER))
    rng = random.Random(2026)
    with running_board(board_dir) as b:
        b.wait_firmware(0)
        port = serial.Serial(b.port, timeout=0.01)
        mirror = Mirror(REFEREE)
        seed = 0
        actions = Playout(HEADER, seed).run()
        digests = prefix_digests(actions)
        done = 0           # actions the restored board holds
        kills = 0
        outcomes = {"none": 0, "part": 0, "all": 0}
        while kills < KILLS:
            if done == len(actions):
                seed += 1
                port.write(mirror.newgame_bytes(HEADER, replace=True))
                actions = Playout(HEADER, seed).run()
                digests = prefix_digests(actions)
                done = 0
            port.write(mirror.hello_bytes())
            frames_until(mirror, port, lambda: mirror.in_sync and mirror.view is not None and
                         "%08x" % crc32(bytes(mirror.view)) == digests[done], "the fresh game")
            acked_before = sum(1 for e in mirror.events if e.kind == "accepted")
            burst = actions[done:done + rng.randint(1, 40)]
            port.write(b"".join(mirror.action_bytes(a) for a in burst))
            # Let a random part of the burst through before the power goes.
            end = time.monotonic() + rng.uniform(0, 0.015)
            while time.monotonic() < end:
                mirror.feed(port.read(4096))
            acked = sum(1 for e in mirror.events if e.kind == "accepted") - acked_before
            boots = b.client.power_cut(off_ms=0)
            kills += 1
            b.wait_firmware(boots)
            mirror = Mirror(REFEREE)
            port.reset_input_buffer()
            port.write(mirror.hello_bytes())
            frames_until(mirror, port, lambda: mirror.in_sync and mirror.view is not None, "a snapshot after boot")
            restored = "%08x" % crc32(bytes(mirror.view))
            candidates = digests[done:done + len(burst) + 1]
            assert restored in candidates, "kill %d: restored state is no prefix of what was sent (game %d, done %d of %d, burst %d, at %s)" % (
                kills, seed, done, len(actions), len(burst), digests.index(restored) if restored in digests else None)
            kept = candidates.index(restored)
            assert kept >= acked, "kill %d: an action the host saw accepted was lost" % kills
            outcomes["none" if kept == 0 else "all" if kept == len(burst) else "part"] += 1
            done += kept
        port.close()
    # The cuts really landed at different points: inside bursts (mid-journal) and after them.
    print("power cuts:", outcomes)
    assert outcomes["part"] >= 10 and outcomes["all"] >= 10, outcomes
