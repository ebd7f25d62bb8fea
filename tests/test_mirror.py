"""The host mirror against the firmware's link handling (in-process, CPython)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "dual"))

from fakeboard import FakeBoard  # noqa: E402
from firmware.app import App  # noqa: E402
from host.hub.mirror import Mirror, PUBLIC, REFEREE  # noqa: E402
from host.sim.playout import Playout  # noqa: E402


def connect(view: int = PUBLIC, header: dict | None = None):
    board = FakeBoard()
    app = App(board, sensors=None)
    app.boot()
    m = Mirror(view)
    board.link.push(m.hello_bytes())
    if header:
        board.link.push(m.newgame_bytes(header))
    pump(app, board, m)
    return app, board, m


def pump(app: App, board: FakeBoard, m: Mirror, drop: int | None = None) -> None:
    """Run the board until quiet, carrying frames both ways (optionally losing one board frame)."""
    for _ in range(5):
        app.step()
        sent, board.link.sent = board.link.sent, []
        for i, chunk in enumerate(sent):
            if i != drop:
                m.feed(chunk)
        out = m.take_outbox()
        if out:
            board.link.push(out)


def public(app: App) -> bytes:
    g = app.referee.game
    v = bytearray(g.PUBLIC_SIZE)
    g.public(v)
    return bytes(v)


HEADER = {"game": "skull", "players": 5}


def test_mirror_follows_every_action():
    app, board, m = connect(header=HEADER)
    assert m.in_sync and m.header == HEADER
    for action in Playout(HEADER, 3).run():
        board.link.push(m.action_bytes(action))
        pump(app, board, m)
        assert bytes(m.view) == public(app)
    state = m.state()
    assert state["winner"] == app.referee.game.summary()["winners"][0] or state["players"]
    assert m.resyncs == 0


def test_gap_triggers_resync_and_equality_returns():
    app, board, m = connect(header=HEADER)
    notes: list[str] = []
    m.listeners.append(lambda e: notes.append(e.text))
    log = Playout(HEADER, 4).run()
    for i, action in enumerate(log):
        board.link.push(m.action_bytes(action))
        pump(app, board, m, drop=0 if i == 10 else None)  # lose the DELTA of action 10
        if i > 10:
            assert bytes(m.view) == public(app)
    assert m.resyncs == 1 and "frames lost (sequence gap)" in notes


def test_public_mirror_never_sees_discs():
    seen = []
    for disc in ("skull", "flower"):
        app, board, m = connect(header=HEADER)
        board.link.push(m.action_bytes({"a": "place", "p": 0, "disc": disc}))
        pump(app, board, m)
        accepted = [e for e in m.events if e.kind == "accepted"]
        assert accepted[-1].action == {"a": "place", "p": 0}
        seen.append(json.dumps(m.state(), sort_keys=True))
    assert seen[0] == seen[1]  # skull or flower: the scoreboard cannot tell


def test_referee_mirror_sees_everything():
    app, board, m = connect(REFEREE, header=HEADER)
    board.link.push(m.action_bytes({"a": "place", "p": 0, "disc": "skull"}))
    pump(app, board, m)
    assert m.events[-1].action == {"a": "place", "p": 0, "disc": "skull"}
    assert m.state()["seats"][0]["skull_at"] == 0


def test_rejections_are_reported_with_reason():
    app, board, m = connect(header=HEADER)
    board.link.push(m.action_bytes({"a": "bid", "p": 3, "n": 2}))
    pump(app, board, m)
    assert m.events[-1].kind == "rejected" and "wrong phase" in m.events[-1].text


def test_garbage_from_the_board_causes_resync_not_a_wrong_picture():
    app, board, m = connect(header=HEADER)
    m.feed(b"\x05\x99\x12garbage\x00")
    out = m.take_outbox()
    assert out and not m.in_sync
    board.link.push(out)
    pump(app, board, m)
    assert m.in_sync and bytes(m.view) == public(app)


def test_snapshot_of_another_view_is_not_taken():
    """A board announces itself at boot with a public snapshot; a referee mirror waits for its own."""
    from shared_rules.wire import codec
    m = Mirror(REFEREE)
    m.feed(codec.encode(codec.HELLO, 0, bytes([1, 0, 1, 0, 1, 5]) + b'{"game": "skull", "players": 5}'))
    m.feed(codec.encode(codec.SNAPSHOT, 1, bytes([PUBLIC, 1]) + bytes(69)))
    assert not m.in_sync and m.view is None


def test_board_messages_are_shown_as_events():
    from shared_rules.wire import codec
    m = Mirror()
    m.feed(codec.encode(codec.DIAG, 0, bytes([codec.DIAG_MESSAGE]) + "deck.bin: CRC mismatch".encode()))
    assert m.events[-1].kind == "error" and m.events[-1].text == "board: deck.bin: CRC mismatch"


def test_reader_health_is_mirrored_and_shown_with_its_pad_and_since_when():
    from rich.console import Console
    from shared_rules.wire import codec
    from host.screen.scoreboard import picture_of, render
    m = Mirror()
    m.feed(codec.encode(codec.DIAG, 0, bytes([codec.DIAG_READER, 4, 1, 0x92])))
    m.feed(codec.encode(codec.DIAG, 1, bytes([codec.DIAG_READER, 7, 2, 0xB2])))
    assert set(m.reader_faults) == {4, 7} and m.reader_faults[4][0] == 1
    assert m.events[-2].text == "board: reader 4 is down (not answering)"
    con = Console(width=100, record=True, color_system=None)
    con.print(render(picture_of(m), 100, 30))
    screen = con.export_text()
    assert "pad 4: reader down since " in screen and "pad 7: scans failing" in screen
    m.feed(codec.encode(codec.DIAG, 2, bytes([codec.DIAG_READER, 4, 0, 0x92])))
    assert set(m.reader_faults) == {7} and m.events[-1].text == "board: reader 4 works again"


def test_a_card_module_game_is_mirrored_with_its_profile_put_back_inline() -> None:
    """NEWGAME carries the profile's digest, the board's HELLO names it so; the mirror that sent
    it puts the profile back (the log replays anywhere). A mirror that never saw the profile says
    so, still mirrors the public view by the HELLO's game id, and shows no referee picture; told
    the profile (monitor --profile, a push through the hub), it names it again."""
    from host.board.deck_profile import SAMPLE, load
    from shared_rules.sheriff.modules import profile
    mods = ["laws", "special_orders", "merry_men"]
    owners = load(SAMPLE)
    owners["laws"][0]["name"] = "the owner's law"        # not the shipped sample, which every host knows
    header = {"game": "sheriff", "players": 4, "modules": mods, "profile": profile.for_modules(owners, mods)}
    board = FakeBoard()
    (Path(board.fs_root) / "profile.bin").write_bytes(profile.encode(owners))
    app = App(board, sensors=None)
    app.boot()
    m = Mirror(REFEREE)
    board.link.push(m.hello_bytes())
    board.link.push(m.newgame_bytes(header))
    pump(app, board, m)
    assert m.header == header and m.in_sync and m.game_cls.GAME_ID == 5
    assert m.state() is not None and m.state()["laws"] is not None
    stranger = Mirror(PUBLIC)
    board.link.push(stranger.hello_bytes())
    pump(app, board, stranger)
    assert stranger.header == profile.link_header(header) and stranger.game_cls.GAME_ID == 5
    assert stranger.state() is not None
    assert any("which this host does not know" in e.text for e in stranger.events)
    stranger.know_profile(owners)
    board.link.push(stranger.hello_bytes())
    pump(app, board, stranger)
    assert stranger.header == header
    # the shipped sample needs no introduction
    sample = dict(header, profile=profile.for_modules(load(SAMPLE), mods))
    (Path(board.fs_root) / "profile.bin").write_bytes(profile.encode(load(SAMPLE)))
    board.link.push(m.newgame_bytes(sample))
    pump(app, board, m)
    fresh = Mirror(PUBLIC)
    board.link.push(fresh.hello_bytes())
    pump(app, board, fresh)
    assert fresh.header == sample


def test_profile_pushes_passing_the_hub_are_followed() -> None:
    from host.board.deck_profile import SAMPLE, load
    from host.hub.mirror import profile_of_push
    from shared_rules.wire import codec
    from shared_rules.sheriff.modules import profile
    m = Mirror(PUBLIC)
    blob = profile.encode(load(SAMPLE))
    chunks = bytearray()
    bodies = [body for frame in m.profile_frames(blob) for _, _, body in codec.FrameReader().frames(frame)]
    got = [profile_of_push(chunks, body) for body in bodies]
    assert got[:-1] == [None] * (len(got) - 1) and got[-1] == load(SAMPLE) and len(got) > 1
    assert profile_of_push(chunks, (100).to_bytes(2, "little") + b"\x00\x10xx") is None and not chunks



def test_a_switched_subscription_shows_nothing_until_its_own_snapshot() -> None:
    """After the referee snapshot the final standings needed, a switch back to the public view
    must not read those bytes as a public view (they are the whole state): no picture until the
    public snapshot arrives."""
    app, board, m = connect(REFEREE, {"game": "sheriff", "players": 4})
    assert m.view_of == REFEREE and m.state() is not None
    m.view_kind = PUBLIC          # what Session.subscribe does first
    m.in_sync = False
    assert m.state() is None
    board.link.push(m.hello_bytes())
    pump(app, board, m)
    assert m.view_of == PUBLIC and m.state() is not None and m.state()["phase"]


def test_a_view_the_game_cannot_read_is_asked_again_not_a_crash():
    """A mirrored view out of step with its game (here: a discard pile count past the deck) makes
    the scoreboard ask for a snapshot and say why; the next snapshot puts it right."""
    from shared_rules.sheriff.layout import R_PILE1
    app, board, m = connect(header={"game": "sheriff", "players": 4})
    notes: list[str] = []
    m.listeners.append(lambda e: notes.append(e.text))
    m.view[R_PILE1] = 250
    assert m.state() is None and not m.in_sync
    assert any("does not fit sheriff" in n for n in notes)
    pump(app, board, m)
    assert m.in_sync and bytes(m.view) == public(app) and m.state()["game"] == "sheriff"


def test_a_new_hello_drops_the_last_games_view():
    app, board, m = connect(header=HEADER)
    board.link.push(m.newgame_bytes({"game": "sheriff", "players": 4}))
    app.step()
    sent, board.link.sent = board.link.sent, []
    for chunk in sent[:1]:   # the HELLO of the new game only, its snapshot not yet here
        m.feed(chunk)
    assert m.game_cls.NAME == "sheriff" and m.view is None and m.state() is None
