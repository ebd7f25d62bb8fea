"""The deck profile on the link, on both interpreters: a NEWGAME naming the board's profile.bin by
digest, PROFILE frames pushing a profile, and a journalled card-module game across power cuts
(docs/protocol.md, "Deck profiles on the link")."""
import json
import os

from fakeboard import FakeBoard
from shared_rules.wire import codec
from shared_rules.sheriff.modules import profile
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout

from firmware.app import App

MODULES = ["laws", "special_orders", "merry_men"]


def sample():
    with open("host/profiles/sample.json") as f:
        return json.load(f)


def full_header():
    """A log header: the profile inline, only the sections its modules use."""
    return {"game": "sheriff", "players": 4, "modules": MODULES,
            "profile": profile.for_modules(sample(), MODULES)}


class Host:
    """Frames to the board, what came back."""

    def __init__(self, board):
        self.board = board
        self.seq = 0

    def send(self, ftype, body):
        self.board.link.push(codec.encode(ftype, self.seq, body))
        self.seq = codec.seq_next(self.seq)

    def frames(self, app, steps=4):
        for _ in range(steps):
            app.step()
        return self.board.link.frames()


def messages(frames):
    return [bytes(b[1:]).decode() for t, _, b in frames if t == codec.DIAG and b[0] == codec.DIAG_MESSAGE]


def kinds(frames):
    return [t for t, _, _ in frames]


def push(host, app, blob, step=200):
    for at in range(0, len(blob), step):
        part = blob[at:at + step]
        host.send(codec.PROFILE, bytes((at & 255, at >> 8, len(blob) & 255, len(blob) >> 8)) + part)
    return host.frames(app, 2 + len(blob) // step * 2)


def newgame(host, app, header):
    host.send(codec.NEWGAME, json.dumps(profile.link_header(header)).encode())
    return host.frames(app)


def fresh():
    board = FakeBoard()
    app = App(board, sensors=None)
    app.boot()
    board.link.frames()
    return board, app, Host(board)


def test_newgame_without_the_profile_is_refused_naming_it_then_a_push_lets_it_start():
    board, app, host = fresh()
    header = full_header()
    digest = profile.link_header(header)["profile"]
    out = newgame(host, app, header)
    said = messages(out)
    assert codec.ERROR in kinds(out) and app.referee.game is None, out
    assert len(said) == 1 and "deck profile: this game needs " + digest in said[0] and "no profile.bin" in said[0], said
    blob = profile.encode(sample())
    out = push(host, app, blob)
    stored = [b for t, _, b in out if t == codec.STORED]
    assert stored == [blob[-4:] + bytes((len(blob) & 255, len(blob) >> 8))], out
    assert os.stat(board.fs_root + "/profile.bin")[6] == len(blob)
    out = newgame(host, app, header)
    hello = [b for t, _, b in out if t == codec.HELLO][-1]
    assert json.loads(bytes(hello[6:]).decode()) == profile.link_header(header)
    assert app.referee.game.GAME_ID == 5 and len(hello) < 200
    return [len(blob), digest]


def test_a_board_profile_that_serves_the_game_differently_is_refused_with_both_digests():
    board, app, host = fresh()
    other = sample()
    other["laws"][5]["effects"] = [{"do": "bag_max", "cards": 3}]
    push(host, app, profile.encode(other))
    header = full_header()
    out = newgame(host, app, header)
    said = messages(out)
    mine = profile.digest(other, MODULES)
    assert app.referee.game is None and len(said) == 1, said
    assert profile.link_header(header)["profile"] in said[0] and mine in said[0], said
    # a profile that differs only in sections this game does not use serves it
    other = sample()
    other["black_market"]["silk"] = [20, 19]
    push(host, app, profile.encode(other))
    newgame(host, app, header)
    assert app.referee.game is not None and app.referee.game.GAME_ID == 5
    return said


def test_a_push_never_changes_the_running_game():
    board, app, host = fresh()
    push(host, app, profile.encode(sample()))
    newgame(host, app, full_header())
    before = bytes(app.referee.game.s)
    with open(board.fs_root + "/profile.bin", "rb") as f:
        kept = f.read()
    other = sample()
    other["merry_men"][0]["value"] = 9
    out = push(host, app, profile.encode(other))
    said = messages(out)
    assert codec.ERROR in kinds(out) and "the running game uses deck profile" in said[0], said
    # damaged, out of order, or longer than announced: refused too
    blob = profile.encode(sample())
    out = push(host, app, blob[:-1] + bytes((blob[-1] ^ 1,)))
    assert "damaged (checksum)" in messages(out)[0]
    host.send(codec.PROFILE, bytes((200, 0, 0, 4)) + b"x" * 10)
    assert "expected 0" in messages(host.frames(app))[0]
    host.send(codec.PROFILE, bytes((0, 0, 5, 0)) + b"x" * 10)
    assert "more bytes than" in messages(host.frames(app))[0]
    with open(board.fs_root + "/profile.bin", "rb") as f:
        assert f.read() == kept
    assert bytes(app.referee.game.s) == before
    # the same profile again (or one serving the game alike) is fine
    out = push(host, app, blob)
    assert codec.STORED in kinds(out)
    # once the game is over, another profile may come (for the next game)
    play_some(host, app, full_header(), 10000)
    assert app.referee.game.over()
    out = push(host, app, profile.encode(other))
    assert codec.STORED in kinds(out), messages(out)
    return len(said)


def play_some(host, app, header, count):
    po = Playout(header, 7)
    rec = bytearray(ACTION_SIZE)
    for _ in range(count):
        a = po.step()
        if a is None:
            break
        app.referee.game.VOCAB.encode(a, rec)
        n = ACTION_SIZE
        while n > 2 and rec[n - 1] == 0:
            n -= 1
        host.send(codec.ACTION, bytes(rec[:n]))
        host.frames(app, 1)
    return bytes(po.game.s)


def test_a_restore_reads_the_profile_and_lets_its_code_go_before_the_rules_load():
    """After a power cut the game is built from its stored header as a new one is: the deck
    profile's card tables first, then ``between`` (the app lets go of that code), then the
    rules; never both at once (all five on a mat from .mpy: 187.7 -> 166.2 KB)."""
    import sys
    from firmware.app import let_go
    board, app, host = fresh()
    push(host, app, profile.encode(sample()))
    header = full_header()
    newgame(host, app, header)
    truth = play_some(host, app, header, 10)
    let_go(("shared_rules.sheriff",))   # a board after a power cut has none of it loaded
    again = App(FakeBoard(root=board.fs_root), sensors=None)
    seen = []
    set_up = again.set_up

    def recorded():
        seen.append(("shared_rules.sheriff.modules.profile_cards" in sys.modules,
                     "shared_rules.sheriff.rules" in sys.modules))
        set_up()

    again.set_up = recorded
    again.boot()
    assert bytes(again.referee.game.s) == truth
    assert seen and seen[0] == (True, False), seen
    return seen[0]


def test_power_cut_restores_the_game_from_journal_and_profile_and_waits_for_a_missing_profile():
    board, app, host = fresh()
    blob = profile.encode(sample())
    push(host, app, blob)
    header = full_header()
    newgame(host, app, header)
    truth = play_some(host, app, header, 60)
    assert bytes(app.referee.game.s) == truth
    # power cut: a new App on the same filesystem
    again = App(FakeBoard(root=board.fs_root), sensors=None)
    again.boot()
    assert bytes(again.referee.game.s) == truth
    # profile.bin gone: the stored game is kept, not restored, and the board says why
    os.remove(board.fs_root + "/profile.bin")
    board3 = FakeBoard(root=board.fs_root)
    third = App(board3, sensors=None)
    assert third.boot() is False and third.referee.game is None
    said = messages(board3.link.frames())
    assert "has no profile.bin" in said[0] and "the stored game is kept, not restored" in said[0], said
    assert os.stat(board.fs_root + "/snap.bin")[6] > 0
    # the profile pushed back: the board starts as at power-on, and the game comes back
    out = push(Host(board3), third, blob)
    assert codec.STORED in kinds(out) and third.referee.game is not None
    assert bytes(third.referee.game.s) == truth
    return said[0]
