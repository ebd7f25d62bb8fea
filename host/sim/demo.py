"""``make demo``: a virtual board, simulated players and the live scoreboard in one terminal.

The board runs in a thread of this process (``host.sim.local_board``), the players in another
(``host.sim.Sim``, paced so a person can follow: ``speed`` 1 is about one action a second), and
the main thread draws the scoreboard of the one mirrored session they share. When the game is
over (or on Ctrl-C) everything stops and the final standings stay on the screen.
"""
from __future__ import annotations

import threading
from typing import Any

from rich.console import Console
from rich.live import Live

from host.screen.monitor import Session
from host.screen.scoreboard import render
from host.sim.runner import Sim, SimResult, local_board

PACE_S = 0.8  # pause after each action at speed 1


def run_demo(header: dict[str, Any], seed: int, speed: float = 1.0, console: Console | None = None,
             screen: bool = True, mistakes: float = 0.08) -> SimResult | None:
    """Play one game on a fresh virtual board with the scoreboard live; returns the result
    (None if interrupted). Errors of the simulation are raised after the screen is restored."""
    console = console or Console()
    with local_board(header=header) as folder:
        session = Session(str(folder / "tty"))
        session.name = "the demo's virtual board"
        try:
            session.connect()
            sim = Sim(session, header, seed, board_dir=folder, pace=PACE_S / speed, mistakes=mistakes)
            note = "sim seed %d, %s" % (   # short: the title line is cut at 80 columns
                seed, "tags moved on the mat" if sim.mode == "physical" else "host actions")
            outcome: dict[str, Any] = {}

            def play() -> None:
                try:
                    outcome["result"] = sim.run()
                except BaseException as e:  # shown by the main thread
                    outcome["error"] = e

            worker = threading.Thread(target=play, name="sim", daemon=True)
            worker.start()
            try:
                with Live(console=console, screen=screen, auto_refresh=False, transient=True) as live:
                    while worker.is_alive():
                        size = console.size
                        live.update(render(session.picture(note), size.width, size.height - 1), refresh=True)
                        worker.join(0.1)
            except KeyboardInterrupt:
                sim.cancel()
                worker.join(5)
                size = console.size  # the table as it stood stays on the screen
                console.print(render(session.picture(note + " · stopped"), size.width, size.height - 1))
                return None
            if "error" in outcome:
                raise outcome["error"]
            session.standings()
            size = console.size
            console.print(render(session.picture(note), size.width, size.height - 1))
            return outcome["result"]
        finally:
            session.close()


def say_result(console: Console, result: SimResult) -> None:
    console.print("%d actions, %d mistakes refused, %.0f s; the mirror matched the rules %d times."
                  % (len(result.actions), len(result.rejected), result.seconds, result.checked))
