"""The hall under load: 50 simulated tables on one Mosquitto, a hall following them, a broker restart.

Fifty tables (``host/hall/simtable.py``: the firmware's referee in this process feeding a real
public mirror, the TV's frame published by the real ``Publisher``) play random games at human
pace, one action every 1.5-4 s, with a burst of 8 back-to-back actions now and then. A hall runs
as its own process (``tapmat hall``) and a page client here listens on its WebSocket.

- latency: from the action on the mat (just before the referee judges it) to the page getting
  that event, and to the page getting a table picture that includes it (events before the outage);
- late join: a second hall process started mid-play: from its page connecting (and from the
  process starting) until its page has every table's picture;
- broker restart: Mosquitto stopped (SIGTERM) for ``OUTAGE_S`` while play goes on, then started
  again; afterwards every table's events must have reached the first hall's page exactly once
  each (repeats dropped by the hall), numbered 1..N without a gap and in order.
"""
from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TABLES = 50
PLAY_S = 40.0        # play before the restart (the late hall joins halfway)
OUTAGE_S = 3.0       # the broker is away this long
AFTER_S = 15.0       # play after the restart
PACE_S = (1.5, 4.0)  # between two actions at a table
BURST = 8            # actions in a burst ...
BURST_EVERY = 15     # ... instead of one action, once in this many turns
GAMES = ({"game": "skull", "players": 4}, {"game": "deadmans", "players": 3}, {"game": "sheriff", "players": 4})
ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else 0.0


def ms(values: list[float]) -> dict[str, float]:
    return {"median": round(1000 * percentile(values, 0.5), 1), "p95": round(1000 * percentile(values, 0.95), 1),
            "max": round(1000 * max(values or [0.0]), 1), "count": len(values)}


class Page:
    """A hall page's WebSocket: when each (table, event number) and each picture arrived."""

    def __init__(self) -> None:
        self.events: dict[str, list[tuple[int, float]]] = {}
        self.pictures: dict[str, list[tuple[int, float]]] = {}
        self.connected = 0.0
        self.complete: float | None = None   # when every table's picture was there

    async def listen(self, url: str, stop: asyncio.Event) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as s:
            self.connected = time.monotonic()
            async with s.ws_connect(url, heartbeat=10, max_msg_size=0) as ws:
                reading = asyncio.ensure_future(stop.wait())
                while not stop.is_set():
                    receive = asyncio.ensure_future(ws.receive())
                    done, _ = await asyncio.wait([receive, reading], return_when=asyncio.FIRST_COMPLETED)
                    if receive not in done:
                        receive.cancel()
                        break
                    msg = receive.result()
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    self.take(json.loads(msg.data), time.monotonic())

    def take(self, m: dict[str, Any], now: float) -> None:
        if m["type"] == "event":
            self.events.setdefault(m["table"], []).append((m["event"]["n"], now))
            return
        for t in m["tables"] if m["type"] == "snapshot" else [m["table"]]:
            if t.get("game"):
                self.pictures.setdefault(t["table"], []).append((t["n"], now))
        if self.complete is None and len(self.pictures) >= TABLES:
            self.complete = now


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process of ours so far (Linux /proc)."""
    import os
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hall_process(port: int, secret: Path, http: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "host.cli", "hall", "--mqtt", "127.0.0.1:%d" % port,
                             "--http", str(http), "--mqtt-secret", str(secret)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


async def page_of(proc: subprocess.Popen[str], http: int, stop: asyncio.Event) -> tuple[Page, "asyncio.Task[None]"]:
    """Wait for the hall's page, then listen to it."""
    from host.hall.broker import listening
    while not listening(http):
        if proc.poll() is not None:
            raise RuntimeError("the hall stopped: %s" % (proc.stdout.read() if proc.stdout else ""))
        await asyncio.sleep(0.02)
    page = Page()
    return page, asyncio.create_task(page.listen("ws://127.0.0.1:%d/ws" % http, stop))


async def play_table(table: Any, pub: Any, stamps: dict[int, float], until: list[float], rng: random.Random) -> None:
    """Human pace with bursts; a finished game is followed by a new one."""
    seed = rng.randrange(1 << 30)
    while time.monotonic() < until[0]:
        await asyncio.sleep(rng.uniform(*PACE_S))
        for _ in range(BURST if rng.randrange(BURST_EVERY) == 0 else 1):
            at = time.monotonic()
            if table.step() is None:
                seed += 1
                table.new_game(table.header, seed)
                break
            stamps[pub.numbered] = at


async def scene(folder: Path) -> dict[str, Any]:
    from host.hall import broker
    from host.hall.publisher import Publisher, follow
    from host.hall.simtable import SimTable
    from host.web.fanout import TV
    from host.web.server import Web

    names = ["t%02d" % i for i in range(TABLES)]
    port = broker.free_port()
    mosquitto = broker.Broker(broker.write(folder, names, port, broker.free_port()), port).start()
    halls: list[subprocess.Popen[str]] = []
    tasks: list[asyncio.Task[Any]] = []
    stop = asyncio.Event()
    try:
        http = broker.free_port()
        halls.append(hall_process(port, broker.secret_path(folder, "_hall"), http))
        page, listening = await page_of(halls[0], http, stop)
        tasks.append(listening)
        rng = random.Random(28)
        stamps: dict[str, dict[int, float]] = {n: {} for n in names}
        pubs = {}
        until = [time.monotonic() + PLAY_S + OUTAGE_S + AFTER_S]
        for i, name in enumerate(names):
            table = SimTable(GAMES[i % len(GAMES)], i + 1, name="sim " + name)
            view = Web(table)   # type: ignore[arg-type]
            pub = pubs[name] = Publisher(name, ("127.0.0.1", port), lambda v=view: v.fanout.current(TV),
                                         password=broker.read_secret(broker.secret_path(folder, name)))
            follow(table, pub)
            tasks.append(asyncio.create_task(pub.run()))
            tasks.append(asyncio.create_task(play_table(table, pub, stamps[name], until, rng)))
        await asyncio.sleep(PLAY_S / 2)
        # a hall that joins late
        late_http = broker.free_port()
        started = time.monotonic()
        halls.append(hall_process(port, broker.secret_path(folder, "_hall"), late_http))
        late, late_listening = await page_of(halls[1], late_http, stop)
        tasks.append(late_listening)
        await asyncio.sleep(PLAY_S / 2)
        # the broker restarts while the tables play on
        before_outage = sum(p.numbered for p in pubs.values())
        outage = [time.monotonic()]
        assert mosquitto.proc is not None
        cpu = {"broker_s": cpu_seconds(mosquitto.proc.pid), "window_s": outage[0] - (until[0] - PLAY_S - OUTAGE_S - AFTER_S)}
        cpu["hall_s"] = cpu_seconds(halls[0].pid)
        mosquitto.stop()
        await asyncio.sleep(OUTAGE_S)
        buffered = sum(len(p.pending) for p in pubs.values())
        during_outage = sum(p.numbered for p in pubs.values()) - before_outage
        mosquitto.start()
        outage.append(time.monotonic())
        await asyncio.sleep(AFTER_S)
        # quiet now: wait (bounded) for every event to reach the first page
        end = time.monotonic() + 30
        while time.monotonic() < end and any(
                (page.events.get(n) or [(0, 0)])[-1][0] < pubs[n].numbered for n in names):
            await asyncio.sleep(0.2)
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for proc in halls:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        mosquitto.stop()
    out = summary(page, late, started, stamps, {n: p.numbered for n, p in pubs.items()},
                  during_outage, buffered, (outage[0], outage[1]))
    out["cpu_before_restart"] = {k: round(v, 2) for k, v in cpu.items()}   # the first hall and the broker
    return out


def summary(page: Page, late: Page, started: float, stamps: dict[str, dict[int, float]],
            numbered: dict[str, int], during_outage: int, buffered: int,
            outage: tuple[float, float]) -> dict[str, Any]:
    """Latency over the events made before the outage (the ones made during it wait for the
    broker by design: their figure is how soon after its return the last one arrived)."""
    event_delay, picture_delay = [], []
    caught_up = outage[1]
    lost = out_of_order = repeated = 0
    for name, sent in numbered.items():
        got = [n for n, _ in page.events.get(name, [])]
        out_of_order += sum(1 for a, b in zip(got, got[1:]) if b <= a)
        repeated += len(got) - len(set(got))
        lost += len(set(range(1, sent + 1)) - set(got))
        arrived = dict((n, t) for n, t in reversed(page.events.get(name, [])))
        pictures = page.pictures.get(name, [])
        for n, at in stamps[name].items():
            if outage[0] <= at < outage[1] and n in arrived:
                caught_up = max(caught_up, arrived[n])
            if at >= outage[0]:
                continue
            if n in arrived:
                event_delay.append(arrived[n] - at)
            shown = next((t for k, t in pictures if k >= n and t >= at), None)
            if shown is not None:
                picture_delay.append(shown - at)
    return {
        "tables": len(numbered), "events": sum(numbered.values()),
        "seconds": PLAY_S + OUTAGE_S + AFTER_S, "pace_s": list(PACE_S), "burst": BURST,
        "event_to_page_ms": ms(event_delay), "picture_to_page_ms": ms(picture_delay),
        "late_hall": {"page_to_all_tables_ms": round(1000 * ((late.complete or float("nan")) - late.connected), 1),
                      "process_start_to_all_tables_ms": round(1000 * ((late.complete or float("nan")) - started), 1)},
        "broker_restart": {"outage_s": OUTAGE_S, "events_during_outage": during_outage,
                           "buffered_at_hubs": buffered,
                           "last_buffered_event_on_page_ms": round(1000 * (caught_up - outage[1]), 1), "lost": lost, "out_of_order": out_of_order,
                           "repeats_on_page": repeated},
    }


def run() -> dict[str, Any]:
    from host.hall import broker
    if broker.mosquitto() is None:
        return {"skipped": "needs the Debian package mosquitto (apt-get install mosquitto)"}
    with tempfile.TemporaryDirectory(prefix="tapmat-hall-bench-") as folder:
        return asyncio.run(scene(Path(folder)))


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
