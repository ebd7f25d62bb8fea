"""Simulated players on a real virtual board (firmware on the MicroPython unix port, in a thread).

Every simulated step already checks the mirrored public view against the rules' public view of
the same actions (``Sim.in_step``, counted in ``checked``). These tests add: ``tapmat sim --json
--log`` against ``tapmat replay --json`` of that log for each game and several seeds; a frame
lost on the line (a sequence gap) and garbage on the line, each followed by a resync; a power cut
of the board in the middle of a game; the sim's own board; ``measure()`` for make bench.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from host.cli.main import main
from host.screen.monitor import Session
from host.sim.runner import (CLOSING_SCANS, Hands, Sim, board_layout, local_board, measure, physical_player,
                      play)
from host.vboard.client import VirtualBoardClient
from host.vboard.virtual_deck import VirtualDeck
from shared_rules.core import board_files
from shared_rules.wire import codec
from shared_rules.sheriff.modules import profile as deck_profile
from host.sim.playout import Playout


@pytest.fixture(scope="module")
def board() -> Iterator[Path]:
    with local_board() as folder:
        yield folder


def cli_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


# (game, players, seed, mode): Skull's physical players here, the other games' physical players
# in test_every_physical_player_plays.
GAMES = [
    ("skull", 3, 1, "physical"), ("skull", 4, 7, "physical"),
    ("deadmans", 2, 1, "host"), ("deadmans", 3, 2, "host"),
    ("sheriff", 3, 1, "host"), ("sheriff", 4, 5, "host"),
]


@pytest.mark.parametrize("game,players,seed,mode", GAMES)
def test_sim_json_equals_the_replay_of_its_log(board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               game: str, players: int, seed: int, mode: str) -> None:
    log = tmp_path / "game.jsonl"
    sim = cli_json(["sim", "--game", game, "--players", str(players), "--seed", str(seed), "--until-over",
                    "--json", "--log", str(log), "--port", str(board / "tty")]
                   + (["--host-actions"] if mode == "host" else []), capsys)
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert sim["over"] and replay["over"] and replay["rejected"] == []
    extras = {"skull": "eliminated", "deadmans": "bank_cards", "sheriff": "gold"}[game]
    for key in ("game", "players", "scores", "winners", extras):
        assert sim[key] == replay[key], key
    lines = log.read_text().splitlines()
    assert json.loads(lines[0]) == {"game": game, "players": players}
    # the legal moves are the playout's, with the fields the board filled in (a flip's disc ...)
    playout = Playout({"game": game, "players": players}, seed).run()
    assert [{k: a[k] for k in p} for a, p in zip(map(json.loads, lines[1:]), playout)] == playout
    info = sim["sim"]
    assert info["refused"] >= 1 and len(sim["rejected"]) == info["refused"]
    assert info["checked"] == info["actions"] + info["refused"] + 1
    assert info["mode"] == mode


@pytest.mark.parametrize("game", ["deadmans", "sheriff"])
def test_every_physical_player_plays(board: Path, game: str) -> None:
    if physical_player(game) is None:
        pytest.skip("no physical %s player yet (host/sim/players_%s.py)" % (game, game))
    result = play({"game": game, "players": 3}, 11, port=str(board / "tty"), max_actions=30)
    assert result.mode == "physical" and len(result.actions) == 30
    assert result.checked == len(result.actions) + len(result.rejected) + 1


def test_the_hands_wait_for_a_bag_at_its_closing_not_for_the_cards_put_in(board: Path) -> None:
    # The firmware reads a dock only when its clasp closes (docs/nfc.md): the puts into the open
    # bag are not waited for; the closing is seen after its dock's CLOSING_SCANS scans, which are
    # all the dock gets (a closed bag is sealed), so they must be counted from before the move.
    session = Session(str(board / "tty"))
    try:
        session.connect()
        session.new_game({"game": "sheriff", "players": 3}, replace=True)
        with VirtualBoardClient(board) as client:
            layout = board_layout(board, "sheriff", 3)
            assert layout is not None
            reader, switch = layout["zones"]["dock"][0]
            hands = Hands(session, client, {switch: reader})
            hands.clear()
            hands.switch(switch, False)
            hands.settle()
            deck = VirtualDeck()
            before = client.scans()["scans"][reader]
            for copy in range(3):
                hands.put(reader, deck.card("sheriff", "apple", copy))
            assert not hands.pending
            hands.switch(switch, True)
            hands.settle()
            seen = client.scans()
            assert seen["scans"][reader] == before + CLOSING_SCANS
            steps = seen["steps"]
            while (now := client.scans())["steps"] < steps + 200:
                pass
            assert now["scans"][reader] == before + CLOSING_SCANS  # sealed
            hands.switch(switch, False)
            hands.clear()
            assert not client.status()["tags"]
    finally:
        session.close()


class Lossy:
    """A serial port that loses the ``nth`` board frame of one type, or once sends garbage."""

    def __init__(self, inner: Any, ftype: int | None, nth: int, garbage: bytes = b"") -> None:
        self.inner = inner
        self.ftype = ftype
        self.left = nth
        self.garbage = garbage
        self.partial = bytearray()
        self.dropped = 0

    def read(self, size: int, wait: float | None = None) -> bytes:
        out = bytearray()
        for b in self.inner.read(size, wait):
            self.partial.append(b)
            if b:
                continue
            frame = bytes(self.partial)
            self.partial.clear()
            kinds = [f[0] for f in codec.FrameReader().frames(frame)]
            if self.ftype in kinds:
                self.left -= 1
                if self.left == 0:
                    self.dropped += 1
                    out += self.garbage
                    continue
            out += frame
        return bytes(out)

    def write(self, data: bytes) -> Any:
        return self.inner.write(data)

    def close(self) -> None:
        self.inner.close()


def lossy_play(board: Path, header: dict, ftype: int, nth: int, garbage: bytes = b"",
               host_only: bool = False) -> tuple[Session, list]:
    ports: list[Lossy] = []
    sessions: list[Session] = []

    def hook(session: Session) -> None:
        opener = session.opener

        def open_lossy(port: str) -> Lossy:
            ports.append(Lossy(opener(port), ftype, nth, garbage))
            return ports[-1]
        session.opener = open_lossy
        sessions.append(session)

    result = play(header, 3, port=str(board / "tty"), max_actions=25, mistakes=0.0, session_hook=hook,
                  host_only=host_only)
    assert sum(p.dropped for p in ports) == 1
    assert result.checked == len(result.actions) + 1
    return sessions[0], ports


@pytest.mark.parametrize("game", ["skull", "deadmans"])
def test_a_lost_delta_is_resynchronised(board: Path, game: str) -> None:
    session, _ = lossy_play(board, {"game": game, "players": 3}, codec.DELTA, 6)
    assert session.mirror.resyncs >= 1


def test_garbage_on_the_line_is_resynchronised(board: Path) -> None:
    session, _ = lossy_play(board, {"game": "sheriff", "players": 3}, codec.DELTA, 4,
                            garbage=b"\x07\x99garbage\x00", host_only=True)
    assert session.mirror.bad_frames >= 1 and session.mirror.resyncs >= 1


def power_cut_when(safe: Any) -> tuple[Any, dict]:
    """An on_step hook that cuts the board's power once, at the first safe moment after 8 actions,
    and checks the mirror once the board is back."""
    seen: dict[str, Any] = {}

    def hook(sim: Sim) -> None:
        if seen or len(sim.actions) < 8 or not safe(sim):
            return
        m = sim.session.mirror
        hellos = m.hellos
        with VirtualBoardClient(Path(sim.session.port).parent) as client:
            seen["boots"] = client.power_cut(off_ms=150)
        sim.session.wait(lambda: m.hellos > hellos and m.in_sync, 15, "the board to come back")
        seen["equal"] = bytes(m.view) == sim.public()
        seen["at"] = len(sim.actions)
    return hook, seen


def test_a_power_cut_mid_game_is_followed(board: Path) -> None:
    # Skull, physical: cut when the pads are empty (between rounds; docs/mat.md: the gesture
    # module's memory of the stacks does not survive a reboot).
    hook, seen = power_cut_when(lambda sim: all(s["stack"] == 0 for s in sim.view()["seats"]))
    result = play({"game": "skull", "players": 3}, 2, port=str(board / "tty"), max_actions=30, on_step=hook)
    assert seen["equal"] and seen["at"] < 30 and result.checked == len(result.actions) + len(result.rejected) + 1
    # Dead Man's Draw through host actions: anywhere; the next action may meet a dark board.
    hook, seen = power_cut_when(lambda sim: True)
    result = play({"game": "deadmans", "players": 3}, 4, port=str(board / "tty"), max_actions=20, on_step=hook,
                  host_only=True)
    assert seen["equal"] and seen["at"] == 8 and len(result.actions) == 20


def test_the_sim_starts_its_own_board(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli_json(["sim", "--game", "deadmans", "--players", "2", "--seed", "5", "--actions", "12",
                    "--json"], capsys)
    assert out["game"] == "deadmans" and not out["over"] and out["sim"]["actions"] == 12


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--game", "skull", "--players", "2"]) == 2
    assert "players" in capsys.readouterr().err
    assert main(["sim", "--game", "skull", "--option", "colour"]) == 2


def test_measure_gives_lag_and_bytes() -> None:
    out = measure((("deadmans-2", {"game": "deadmans", "players": 2}),), seed=2, host_only=True)
    m = out["deadmans-2"]
    assert m["actions"] > 20 and m["rx_bytes"] > m["tx_bytes"] > 0
    assert 0 < m["lag_ms"]["median"] <= m["lag_ms"]["max"]


def test_sim_plays_sheriff_with_deputies_and_black_market(board: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """6 players with both Merry Men modules played on the virtual board's 6 stations (deputy
    cards, stances, loot discards and claims as gestures; bribes and agreed splits as host
    actions), deliberate mistakes refused; the log replays to the same end."""
    log = tmp_path / "mm.jsonl"
    sim = cli_json(["sim", "--game", "sheriff", "--players", "6", "--modules", "deputies,black_market",
                    "--seed", "3", "--until-over", "--json", "--log", str(log), "--port", str(board / "tty")], capsys)
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert sim["over"] and replay["rejected"] == []
    for key in ("scores", "winners", "gold"):
        assert sim[key] == replay[key], key
    header = json.loads(log.read_text().splitlines()[0])
    assert header["modules"] == ["deputies", "black_market"] and header["profile"]["placeholders"] is True
    kinds = {json.loads(line)["a"] for line in log.read_text().splitlines()[1:]}
    assert {"deputy", "claim", "loot"} <= kinds
    assert sim["sim"]["refused"] >= 1 and sim["sim"]["mode"] == "physical"


def test_sim_plays_black_market_claims_with_physical_players(board: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """4 players with the Black Market: cards, bags and tokens moved on the virtual board, the
    claims as gestures (three cards on the stand pad, the Black Market card tapped there), Black
    Market cards shown where no claim can be made refused; the log replays to the same end."""
    log = tmp_path / "bm.jsonl"
    assert main(["sim", "--game", "sheriff", "--players", "4", "--modules", "black_market", "--seed", "3",
                 "--mistakes", "0.2", "--until-over", "--json", "--log", str(log), "--port", str(board / "tty")]) == 0
    out, err = capsys.readouterr()
    sim = json.loads(out)
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert sim["over"] and replay["rejected"] == [] and sim["scores"] == replay["scores"]
    assert any(json.loads(line)["a"] == "claim" for line in log.read_text().splitlines()[1:])
    assert sim["sim"]["mode"] == "physical"
    refused = [line for line in err.splitlines() if line.startswith("refused as it must be") and
               ("Black Market" in line or "claims" in line or "lower" in line)]
    assert {"(wrong_phase)", "(not_now)", "(need_three)"} <= {line.split()[-1] for line in refused}, err


def test_sim_plays_all_five_modules_with_deputies_physically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """6 players, all five modules: deputies log the laws (the second one names themself with
    their seat token), orders and Merry Men as module-card gestures; the log replays equal."""
    log = tmp_path / "all5.jsonl"
    sim = cli_json(["sim", "--game", "sheriff", "--players", "6", "--modules",
                    "deputies,black_market,laws,special_orders,merry_men", "--seed", "4", "--until-over", "--json",
                    "--log", str(log)], capsys)
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert sim["over"] and replay["rejected"] == [] and sim["sim"]["mode"] == "physical"
    for key in ("scores", "winners", "gold"):
        assert sim[key] == replay[key], key
    actions = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    firsts = [a["p"] for a in actions if a["a"] == "deputy"][0::2]   # each round's first deputy
    laws = [a["p"] for a in actions if a["a"] == "law"]
    assert any(p != firsts[i] for i, p in enumerate(laws)), (laws, firsts)   # the second deputy logged one
    assert {"order_up", "merry", "law", "loot"} <= {a["a"] for a in actions}   # claims: the Black Market tests


@pytest.mark.parametrize("players, modules, seed", [
    (4, "laws,special_orders,merry_men", 1),
    (3, "laws", 2),
    (5, "special_orders,black_market", 3),
    (4, "merry_men", 4),
])
def test_sim_plays_the_card_modules_on_its_own_board(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     players: int, modules: str, seed: int) -> None:
    """Laws, special orders and Merry Men refereed by the board (its profile.bin: the sim's own
    board gets the header's profile as make flash PROFILE= writes it), played with the tagged
    module cards on the virtual board (docs/mat-sheriff.md 8c), deliberate mistakes refused; the
    log carries the profile inline and replays to the same end."""
    log = tmp_path / "cards.jsonl"
    assert main(["sim", "--game", "sheriff", "--players", str(players), "--modules", modules, "--seed", str(seed),
                 "--mistakes", "0.2", "--until-over", "--json", "--log", str(log)]) == 0
    out, err = capsys.readouterr()
    sim = json.loads(out)
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert sim["over"] and replay["rejected"] == [] and sim["sim"]["refused"] >= 1
    for key in ("scores", "winners", "gold"):
        assert sim[key] == replay[key], key
    header = json.loads(log.read_text().splitlines()[0])
    mods = modules.split(",")
    assert header["modules"] == mods and set(header["profile"]) == {"format", "name", "placeholders"} | set(mods)
    kinds = {json.loads(line)["a"] for line in log.read_text().splitlines()[1:]}
    want = {"laws": {"law"}, "special_orders": {"order_up"}, "merry_men": {"merry"}, "black_market": set()}
    assert set().union(*(want[m] for m in mods)) <= kinds, kinds
    assert sim["sim"]["mode"] == "physical"
    mistakes = {"laws": "a law on the command pad outside the laws phase (wrong_phase)",
                "special_orders": "an order that is not face up (order_not_up)"}
    for m in mods:
        assert m not in mistakes or mistakes[m] in err, (m, err)
    lines = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert "special_orders" not in mods or any("orders" in a for a in lines)   # claimed on a stand pad


def test_sim_pushes_the_deck_profile_a_board_lacks_then_plays_all_five_modules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A board without the game's profile refuses the NEWGAME naming the digests; the sim pushes
    the header's profile (PROFILE frames, STORED) and the game is refereed with all five modules
    (its first 60 actions: deputies, a law, the Black Market's loot, a Merry Man, an order; the
    whole game is the test above). The board's journal, restored with its profile.bin, ends where
    the replay of the host's log does."""
    import shutil
    from firmware.persist import Persist
    from shared_rules import games
    log = tmp_path / "five.jsonl"
    with local_board() as folder:
        assert not (folder / "fs" / "profile.bin").exists()
        sim = cli_json(["sim", "--game", "sheriff", "--players", "6", "--seed", "5", "--actions", "60", "--json",
                        "--modules", "deputies,black_market,laws,special_orders,merry_men",
                        "--log", str(log), "--port", str(folder / "tty")], capsys)
        shutil.copytree(folder / "fs", tmp_path / "fs", ignore=shutil.ignore_patterns("firmware", "shared_rules"))
    replay = cli_json(["replay", str(log), "--json"], capsys)
    assert replay["rejected"] == [] and sim["scores"] == replay["scores"]
    lines = log.read_text().splitlines()
    assert {"deputy", "law", "loot", "merry", "order_up"} <= {json.loads(line)["a"] for line in lines[1:]}
    header = json.loads(lines[0])
    assert (tmp_path / "fs" / "profile.bin").read_bytes() == deck_profile.encode(header["profile"])
    monkeypatch.setattr(board_files, "profile_path", str(tmp_path / "fs" / "profile.bin"))
    journal = Persist(str(tmp_path / "fs"))
    game, info = journal.boot()
    assert game is not None and not info["damage"], info
    assert json.loads(journal.header) == deck_profile.link_header(header)
    assert game.summary()["scores"] == replay["scores"] and game.summary()["gold"] == replay["gold"]
