"""The scoreboard drawn from real mirrors (the firmware's link handling in-process, as in
test_mirror.py): snapshots at 80 and 120 columns for each game and at game end, the 80 x 24
budget, and no hidden information on the public scoreboard.

Snapshots live in tests/test_scoreboard_snapshots/; after an intended change of the layout,
rewrite them with ``UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_scoreboard.py`` and review
the diff.
"""
from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).parent / "dual"))

from fakeboard import FakeBoard  # noqa: E402
from firmware.app import App  # noqa: E402
from host.hub import contract  # noqa: E402
from host.hub.mirror import PUBLIC, REFEREE, Event, Mirror, Prompt  # noqa: E402
from host.screen.scoreboard import picture_of, render  # noqa: E402
from shared_rules.sheriff.modules import profile as deck_profile  # noqa: E402
from host.sim.playout import Playout  # noqa: E402

SNAPSHOTS = Path(__file__).parent / "test_scoreboard_snapshots"
T0 = 1_700_000_000.0


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def mirrored(header: dict, actions: list[dict], view: int = PUBLIC) -> tuple[App, Mirror]:
    """A board that played ``actions`` (host ACTION frames, some refused) and its mirror."""
    board = FakeBoard()
    if isinstance(header.get("profile"), dict):   # the board's profile.bin, as make flash PROFILE= writes it
        (Path(board.fs_root) / "profile.bin").write_bytes(deck_profile.encode(header["profile"]))
    app = App(board, sensors=None)
    app.boot()
    m = Mirror(view, history=200)
    board.link.push(m.hello_bytes() + m.newgame_bytes(header))
    pump(app, board, m)
    for action in actions:
        board.link.push(m.action_bytes(action))
        pump(app, board, m)
    for i, ev in enumerate(m.events):
        ev.at = T0 + i
    return app, m


def pump(app: App, board: FakeBoard, m: Mirror) -> None:
    for _ in range(4):
        app.step()
        sent, board.link.sent = board.link.sent, []
        for chunk in sent:
            m.feed(chunk)
        out = m.take_outbox()
        if out:
            board.link.push(out)


def text(picture: Any, width: int, height: int = 24) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(render(picture, width, height))
    return console.export_text()


def game_picture(header: dict, seed: int, actions: int | None, mistakes: list[dict],
                 prompt: Prompt | None, view: int = PUBLIC) -> Any:
    log = Playout(header, seed).run()
    log = log if actions is None else log[:actions]
    app, m = mirrored(header, mistakes + log[:len(log) // 2] + mistakes + log[len(log) // 2:], view)
    game = app.referee.game
    final = contract.summary(type(game), header, REFEREE, bytes(game.s)) if game.over() else None
    pic = picture_of(m, port="/dev/ttyACM0", connected=True, final=final, rx_bytes=4321, tx_bytes=987)
    pic.prompt = prompt if not game.over() else Prompt(0, 1 << final["winners"][0], 255, 255)
    pic.events.append(Event("rejected", "", at=T0 + 500, reason="not_now", reader=2))
    pic.events.append(Event("link", "lost the board on /dev/ttyACM0; reconnecting", at=T0 + 501))
    return pic


CASES = {
    "skull": ({"game": "skull", "players": 4}, 5, 28, [{"a": "bid", "p": 2, "n": 1}],
              Prompt(3, 1 << 3, 2, 15)),
    "deadmans": ({"game": "deadmans", "players": 3}, 5, 40, [{"a": "collect", "p": 2}],
                 Prompt(4, 1 << 1, 2, 13)),
    "sheriff": ({"game": "sheriff", "players": 4}, 5, 40, [{"a": "declare", "p": 0, "good": "apple", "count": 9}],
                Prompt(3, 0b0111, 1, 255)),
}


def check_snapshot(name: str, got: str) -> None:
    path = SNAPSHOTS / (name + ".txt")
    if os.environ.get("UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(got)
    assert path.exists(), "no snapshot %s: run with UPDATE_SNAPSHOTS=1 and review it" % path
    assert got == path.read_text(), "scoreboard %s changed (UPDATE_SNAPSHOTS=1 to accept)" % name


@pytest.mark.parametrize("game", sorted(CASES))
@pytest.mark.parametrize("end", [False, True], ids=["playing", "over"])
def test_snapshots_at_80_and_120_columns(game: str, end: bool) -> None:
    header, seed, n, mistakes, prompt = CASES[game]
    pic = game_picture(header, seed, None if end else n, mistakes, prompt)
    for width in (80, 120):
        out = text(pic, width)
        lines = out.splitlines()
        assert len(lines) <= 24 and max(len(line) for line in lines) <= width
        check_snapshot("%s-%s-%d" % (game, "over" if end else "playing", width), out)
        if end:
            assert "Final standings" in out and "WINNER" in out
        assert "refused" in out  # the mistakes are shown with their reason


def test_twelve_skull_seats_still_fit_80_by_24() -> None:
    header = {"game": "skull", "players": 12}
    pic = game_picture(header, 2, 40, [], Prompt(2, 1 << 3, 0, 255))
    lines = text(pic, 80).splitlines()
    assert len(lines) <= 24
    assert sum(1 for line in lines if line.lstrip().startswith(("seat 10 ", "seat 11 "))) == 2  # every seat row
    assert "last events" in text(pic, 80)


def test_skull_discs_never_appear() -> None:
    """Two tables that differ only in which disc each seat put down look the same; the referee
    view (debugging) shows the difference, so the comparison can fail."""
    places = [[{"a": "place", "p": s, "disc": d} for s, d in enumerate(discs)]
              for discs in (("skull", "flower", "flower"), ("flower", "skull", "skull"))]
    header = {"game": "skull", "players": 3}
    public = [text(picture_of(mirrored(header, p)[1]), 80) for p in places]
    assert public[0] == public[1]
    assert "skull" not in public[0].replace("Skull", "") and "flower" not in public[0]
    referee = [text(picture_of(mirrored(header, p, REFEREE)[1]), 120) for p in places]
    assert referee[0] != referee[1] and "REFEREE VIEW" in referee[0]


def two_loads(header: dict | None = None) -> tuple[dict, list[dict], dict, dict]:
    """A Sheriff game up to a load, and two loads of the same seat with different cards."""
    header = header or {"game": "sheriff", "players": 4}
    p = Playout(header, 7)
    done: list[dict] = []
    while True:
        loads = [o for o in p.table.legal() if o["a"] == "load"]
        for a in loads:
            other = [b for b in loads if b["p"] == a["p"] and len(b["cards"]) == len(a["cards"])
                     and sorted(b["cards"]) != sorted(a["cards"])]
            if other:
                return header, done, a, other[0]
        done.append(p.step())


def test_bag_contents_never_appear() -> None:
    header, done, a, b = two_loads()
    public = [text(picture_of(mirrored(header, done + [load])[1]), 120) for load in (a, b)]
    assert public[0] == public[1]
    assert "bag closed" in public[0]
    referee = [text(picture_of(mirrored(header, done + [load], REFEREE)[1]), 120) for load in (a, b)]
    assert referee[0] != referee[1]


def test_a_game_the_scoreboard_does_not_know_is_drawn_generically() -> None:
    state = {"game": "tictactoe", "phase": "play", "seats": [{"marks": 2, "hand": ["x", "o"]}, {"marks": 1}]}
    out = text(picture_of(Mirror(), connected=True, port="p"), 80)
    assert "no game" in out
    pic = picture_of(Mirror(), connected=True, port="p")
    pic.state = state
    out = text(pic, 80)
    assert "marks" in out and "phase: play" in out and "x o" in out


def test_link_status_is_plain() -> None:
    pic = picture_of(Mirror(), port="/dev/ttyACM0")
    assert "no board: waiting for /dev/ttyACM0" in text(pic, 80)


MM_HEADER = {"game": "sheriff", "players": 6, "modules": ["deputies", "black_market"],
             "profile": {"format": 1, "name": "test values", "placeholders": True,
                         "black_market": {"pepper": [12, 10], "mead": [13, 11], "silk": [15, 13]}}}


def test_merry_men_rows_deputies_loot_chest_black_market_and_hidden_bags() -> None:
    header, done, a, b = two_loads(MM_HEADER)
    public = [text(picture_of(mirrored(header, done + [load])[1]), 120) for load in (a, b)]
    assert public[0] == public[1]   # a closed bag's content never shows
    screen = public[0]
    assert "deputies: seat" in screen and "Deputy" in screen
    assert "loot chest: 0 gold" in screen and "Black Market left: pepper 12/10 · mead 13/11 · silk 15/13" in screen


CARDS_PROFILE = json.loads((Path(__file__).parent.parent / "host" / "profiles" / "sample.json").read_text())


def test_card_module_rows_laws_orders_and_merry_men_counts_never_which() -> None:
    """Rows for laws in force, orders face up and filled, Merry Men held (a count): the lines
    come from the public view, which is equal whichever Merry Men the seats hold."""
    from host.screen import views
    from host.screen.scoreboard import card_module_lines
    from shared_rules import games

    header = {"game": "sheriff", "players": 3, "modules": ["laws", "special_orders", "merry_men"],
              "profile": CARDS_PROFILE}
    g0 = games.from_header(header)
    rec = bytearray(128)
    setup = {"a": "setup", "p": 0, "piles": [["apple"] * 5, ["cheese"] * 5]}
    assert g0.VOCAB.encode(setup, rec) == 0 and g0.accept(rec) == 0
    view = bytearray(g0.PUBLIC_SIZE)
    g0.public(view)
    d = views.describe(type(g0), view)
    assert d["phase"] == "laws" and card_module_lines(d)[0] == "laws in force: none yet"
    screens = []
    for keeps in ((0, 1, 2), (5, 6, 7)):
        g = games.from_header(header)
        rec = bytearray(128)
        log = [{"a": "merry", "p": p, "keep": k, "bottom": 10 + p} for p, k in enumerate(keeps)]
        log += [{"a": "order_up", "p": 0, "order": o} for o in (3, 1, 4, 0)]
        log += [{"a": "setup", "p": 0, "piles": [["apple"] * 5, ["cheese"] * 5]},
                {"a": "law", "p": 0, "keep": [8, 12], "bottom": 13}]
        for a in log:
            assert g.VOCAB.encode(a, rec) == 0 and g.accept(rec) == 0, a
        view = bytearray(g.PUBLIC_SIZE)
        g.public(view)
        screens.append(card_module_lines(views.describe(type(g), view)))
    assert screens[0] == screens[1]
    ref = views.referee(g)   # the debug view (never mirrored by default) does say which
    assert [s["merry_man_held"] for s in ref["seats"]] == [5, 6, 7] and "merry_man_held" not in views.describe(type(g), view)["seats"][0]
    assert screens[0] == ["laws in force: 1. #8 · 2. #12",
                          "special orders face up: #0 · #1 · #3 · #4",
                          "Merry Men held: seat 0 1, seat 1 1, seat 2 1"], screens[0]
    # on the screens the header's profile names the laws and orders, never a Merry Man
    from host.screen.scoreboard import Picture, model
    m = model(Picture(connected=True, in_sync=True, header=header, state=views.describe(type(g), view)))
    info = "\n".join(m["info"])
    assert "1. #8 placeholder law 09 · 2. #12 placeholder law 13" in info, info
    assert "#0 apple+pepper → 4 · #1 cheese+pepper → 5" in info, info
    assert "Robin Hood" not in info and "placeholder man" not in info


def test_standings_follow_the_rules_order() -> None:
    """Winners first, then score (Dead Man's Draw: then bank cards), eliminated Skull seats
    last whatever their score; equal seats share a rank."""
    from host.screen.scoreboard import standings_rows

    skull = {"game": "skull", "players": 4, "winners": [2], "scores": [1, 1, 2, 0], "eliminated": [0]}
    rows = standings_rows(skull)
    assert [r["seat"] for r in rows] == [2, 1, 3, 0]
    assert rows[-1]["notes"] == ["eliminated"] and rows[0]["won"]
    dmd = {"game": "deadmans", "players": 3, "winners": [1], "scores": [20, 20, 9], "bank_cards": [5, 8, 3]}
    assert [(r["rank"], r["seat"]) for r in standings_rows(dmd)] == [(1, 1), (2, 0), (3, 2)]
    shared = {"game": "deadmans", "players": 3, "winners": [0, 1], "scores": [20, 20, 9], "bank_cards": [5, 5, 3]}
    assert [r["rank"] for r in standings_rows(shared)] == [1, 1, 3]
