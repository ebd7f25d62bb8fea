"""The hub's fan-out under load: 50 WebSocket clients on the web page for 60 s of Sheriff play.

A virtual board plays random Sheriff games (host ACTION frames, ``PACE_S`` apart) through a real
hub and web page; ``CLIENTS`` clients (a TV and phones of every seat) stay attached. Every
change of the board is stamped when the hub sees it (``Hub.version``); every frame a client
gets carries the version it shows. Per client: the versions must only grow (never a stale
frame after a newer one) and the last frame must show the final version (coalesced frames
skip versions, never the newest). The delay of a change for a client is the time from the hub
seeing it to the client receiving a frame of that version or newer.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

CLIENTS = 50
SECONDS = 60.0
PACE_S = 0.3  # one action every 0.3 s: about the 113 updates a minute the issue measured
SHERIFF = {"game": "sheriff", "players": 5}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else 0.0


def play(hub: Any, port: str, until: float, stop: threading.Event) -> int:
    """Random Sheriff games through the hub until ``until``; the number of actions sent."""
    from host.screen.monitor import Session
    from host.sim.playout import Playout

    sent, seed = 0, 1
    while time.monotonic() < until and not stop.is_set():
        session = Session(port)
        session.connect()
        session.new_game(SHERIFF)
        session.close()
        game = Playout(SHERIFF, seed)
        seed += 1
        while time.monotonic() < until and not stop.is_set():
            action = game.step()
            if action is None:
                break
            hub.send_action(action)
            sent += 1
            time.sleep(PACE_S)
    return sent


async def client(url: str, end: float, seen: list[tuple[float, int]]) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as s:
        async with s.ws_connect(url, heartbeat=10) as ws:
            while time.monotonic() < end:
                try:
                    msg = await ws.receive(timeout=max(0.1, end - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                seen.append((time.monotonic(), json.loads(msg.data)["version"]))



def paired(pairing: Any, seat: int) -> str:
    """A phone paired with ``seat`` as at the table: it asks, the host confirms its code."""
    asked = pairing.ask(seat, pairing.claims[seat])
    pairing.confirm(seat, asked.code)
    return str(pairing.collect(seat, asked.ask))

def run(clients: int = CLIENTS, seconds: float = SECONDS) -> dict[str, Any]:
    from host.hub.hub import Hub
    from host.sim.runner import local_board
    from host.web.server import Web, serving

    with local_board() as folder:
        port = str(folder / "tty")
        hub = Hub(port).start()
        stamps: dict[int, float] = {}
        hub.listeners.append(lambda version: stamps.__setitem__(version, time.monotonic()))
        stop = threading.Event()
        try:
            with serving(Web(hub, port=0)) as page:
                base = "ws://127.0.0.1:%d/ws" % page.port
                tokens = {seat: paired(page.pairing, seat) for seat in range(1, 5)}
                urls = [base if i % 5 == 0 else "%s?seat=%d&t=%s" % (base, i % 5, tokens[i % 5])
                        for i in range(clients)]
                seen: list[list[tuple[float, int]]] = [[] for _ in urls]
                end = time.monotonic() + seconds
                sent: list[int] = []
                player = threading.Thread(target=lambda: sent.append(play(hub, port, end - 1.0, stop)))
                player.start()

                async def everyone() -> None:
                    await asyncio.gather(*(client(u, end, s) for u, s in zip(urls, seen)))
                try:
                    asyncio.run(everyone())
                finally:
                    stop.set()
                    player.join(30)
                final = hub.version
        finally:
            hub.close()
    return summary(stamps, seen, final, sent[0] if sent else 0, page.fanout.builds, seconds)


def summary(stamps: dict[int, float], seen: list[list[tuple[float, int]]], final: int, sent: int,
            builds: int, seconds: float) -> dict[str, Any]:
    delays: list[float] = []
    stale = 0
    missed_final = 0
    versions = sorted(stamps)
    for frames in seen:
        got = [v for _, v in frames]
        stale += sum(1 for a, b in zip(got, got[1:]) if b < a)
        if not got or got[-1] != final:
            missed_final += 1
        # each change's delay: the first frame of that version or newer
        i = 0
        for v in versions:
            while i < len(frames) and frames[i][1] < v:
                i += 1
            if i == len(frames):
                break
            delays.append(frames[i][0] - stamps[v])
    changes = len(versions)
    return {
        "clients": len(seen), "seconds": seconds, "actions": sent, "changes": changes,
        "view_builds": builds,
        "frames_per_client": {"min": min(len(f) for f in seen), "max": max(len(f) for f in seen)},
        "stale_frames": stale, "clients_missing_final_state": missed_final,
        "delay_ms": {"median": round(1000 * percentile(delays, 0.5), 1),
                     "p95": round(1000 * percentile(delays, 0.95), 1),
                     "max": round(1000 * max(delays or [0.0]), 1)},
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
