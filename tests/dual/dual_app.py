"""The firmware's link handling on both interpreters: host frames in, mirror frames out, abuse."""
import json

from fakeboard import FakeBoard
from shared_rules import games
from shared_rules.wire import codec
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout
from shared_rules.core.rng import Rng

from firmware.app import App

try:
    import micropython
except ImportError:
    micropython = None

HEADER = {"game": "skull", "players": 4}


class Mirror:
    """What a host keeps: the last snapshot with every delta applied."""

    def __init__(self):
        self.view = None
        self.deltas = 0
        self.rejects = []
        self.errors = []
        self.hello = None
        self.seq = None
        self.gaps = 0

    def take(self, frames):
        for t, seq, body in frames:
            if self.seq is not None and codec.seq_gap(self.seq, seq):
                self.gaps += 1
            self.seq = seq
            if t == codec.HELLO:
                self.hello = body
            elif t == codec.SNAPSHOT:
                self.view = bytearray(body[2:])
            elif t == codec.DELTA:
                alen = body[0]
                assert codec.apply_runs(self.view, body, 1 + alen) >= 0
                self.deltas += 1
            elif t == codec.REJECT:
                self.rejects.append(body[0])
            elif t == codec.ERROR:
                self.errors.append(body[0])


def started(header=HEADER):
    board = FakeBoard()
    app = App(board, sensors=None)
    app.boot()
    board.link.push(codec.encode(codec.NEWGAME, 0, json.dumps(header).encode()))
    app.step()
    m = Mirror()
    m.take(board.link.frames())
    return board, app, m


def public(game):
    v = bytearray(game.PUBLIC_SIZE)
    game.public(v)
    return v


def action_frame(action, seq, ftype=codec.ACTION):
    """An ACTION frame (or, ``ftype``, an UNDO naming that entry)."""
    rec = bytearray(ACTION_SIZE)
    assert games.game_class(HEADER["game"]).VOCAB.encode(action, rec) == 0
    n = ACTION_SIZE
    while n > 2 and rec[n - 1] == 0:
        n -= 1
    return codec.encode(ftype, seq, rec[:n])


def test_boot_without_game_says_hello_with_no_game():
    board = FakeBoard()
    app = App(board, sensors=None)
    assert app.boot() is False
    frames = board.link.frames()
    assert [f[0] for f in frames] == [codec.HELLO]
    return list(frames[0][2][:6])


def test_newgame_is_answered_by_hello_and_snapshot():
    board, app, m = started()
    assert m.hello[4] == 1 and m.hello[5] == 4
    assert json.loads(bytes(m.hello[6:]).decode()) == HEADER
    assert m.view == public(app.referee.game)
    return list(m.view)


def test_bad_newgame_is_an_error_and_keeps_the_game():
    board, app, m = started()
    digest = app.referee.game.digest()
    board.link.push(codec.encode(codec.NEWGAME, 1, b'{"game": "skull", "players": 99}'))
    board.link.push(codec.encode(codec.NEWGAME, 2, b'not json'))
    app.step()
    m.take(board.link.frames())
    assert m.errors == [codec.ERR_BODY, codec.ERR_BODY]
    assert app.referee.game.digest() == digest


def test_a_newgame_mid_game_needs_the_hosts_confirmation():
    """A game under way is never wiped by a stray NEWGAME: refused with the reason (DIAG, then
    ERROR body), the game unchanged; with ``"replace": true`` the new game starts, its header
    stored without that key, and a power cut right after brings the new game back."""
    board, app, m = started()
    log = Playout(HEADER, 5).run()
    for i, a in enumerate(log[:3]):
        board.link.push(action_frame(a, i + 1))
        app.step()
    board.link.frames()
    digest = app.referee.game.digest()
    other = {"game": "deadmans", "players": 3}
    board.link.push(codec.encode(codec.NEWGAME, 4, json.dumps(other).encode()))
    app.step()
    frames = board.link.frames()
    said = [bytes(b[1:]).decode() for t, _, b in frames if t == codec.DIAG and b[0] == 1]
    assert said == ["new game refused: a game is in progress (3 actions): confirm to end it"], said
    assert [b[0] for t, _, b in frames if t == codec.ERROR] == [codec.ERR_BODY]
    assert app.referee.game.digest() == digest
    board.link.push(codec.encode(codec.NEWGAME, 5, json.dumps(dict(other, replace=True)).encode()))
    app.step()
    m.take(board.link.frames())
    assert app.referee.game.NAME == "deadmans" and m.hello[4] == 2
    assert json.loads(bytes(m.hello[6:]).decode()) == other
    again = App(board, sensors=None)   # the power cut: the board starts from its files
    board.link.frames()
    assert again.boot() and again.referee.game.NAME == "deadmans"
    return [digest, again.referee.game.digest()]


def test_a_finished_game_gives_way_to_a_newgame_without_confirmation():
    board, app, m = started()
    for i, a in enumerate(Playout(HEADER, 5).run()):
        board.link.push(action_frame(a, i + 1))
        app.step()
    assert app.referee.game.over()
    board.link.push(codec.encode(codec.NEWGAME, 999, json.dumps(HEADER).encode()))
    app.step()
    m.take(board.link.frames())
    assert not app.referee.game.over() and m.errors == []
    return app.referee.game.digest()


def test_host_actions_are_mirrored_by_deltas():
    board, app, m = started()
    log = Playout(HEADER, 5).run()
    for i, a in enumerate(log):
        board.link.push(action_frame(a, i + 1))
        app.step()
        m.take(board.link.frames())
        assert m.view == public(app.referee.game), i
    assert m.deltas == len(log) and app.referee.game.over() and m.gaps == 0
    return app.referee.game.digest()


def test_delta_hides_the_disc():
    board, app, m = started()
    board.link.push(action_frame({"a": "place", "p": 0, "disc": "skull"}, 1))
    app.step()
    (t, seq, body), = board.link.frames()
    assert t == codec.DELTA
    alen = body[0]
    rec = bytearray(ACTION_SIZE)
    rec[0:alen] = body[1:1 + alen]
    assert games.game_class("skull").VOCAB.decode(rec) == {"a": "place", "p": 0, "disc": "flower"}
    return list(body)


def test_peek_answers_the_whole_state_once_and_keeps_the_public_subscription():
    """PEEK (the hub, for each phone's own side): one SEEN with the referee's state; the next
    DELTA is public again and hides the disc as before."""
    board, app, m = started()
    board.link.push(action_frame({"a": "place", "p": 0, "disc": "skull"}, 1))
    board.link.push(codec.encode(codec.PEEK, 2, b""))
    app.step()
    frames = board.link.frames()
    assert [f[0] for f in frames] == [codec.DELTA, codec.SEEN]
    body = frames[1][2]
    assert body[0] == 1 and body[1] == app.referee.game.GAME_ID and bytes(body[2:]) == bytes(app.referee.game.s)
    m.take(frames[:1])
    board.link.push(action_frame({"a": "place", "p": 1, "disc": "skull"}, 3))
    app.step()
    (t, _seq, delta), = board.link.frames()
    assert t == codec.DELTA and m.view is not None
    rec = bytearray(ACTION_SIZE)
    rec[0:delta[0]] = delta[1:1 + delta[0]]
    assert games.game_class("skull").VOCAB.decode(rec)["disc"] == "flower"
    return list(body)


def test_illegal_host_action_is_rejected_with_its_reason():
    board, app, m = started()
    board.link.push(action_frame({"a": "bid", "p": 0, "n": 1}, 1))
    app.step()
    m.take(board.link.frames())
    assert [app.referee.game.reason(r) for r in m.rejects] == ["wrong_phase"]


def test_ping_pong_and_resync():
    board, app, m = started()
    board.link.push(codec.encode(codec.PING, 1, b"hello"))
    board.link.push(codec.encode(codec.RESYNC, 2))
    app.step()
    frames = board.link.frames()
    assert [f[0] for f in frames] == [codec.PONG, codec.SNAPSHOT]
    assert frames[0][2] == b"hello"


def test_link_abuse_never_crashes_and_never_changes_the_game():
    """10 000 frames: garbage, truncated, bad CRC, oversized, nonsense records, wrong types.

    Subscribed to the referee view, every DELTA carries the whole record: replaying exactly
    those on a reference game must give the board's state, so nothing else changed it."""
    board, app, m = started()
    board.link.push(codec.encode(codec.SUBSCRIBE, 1, bytes([1])))
    app.step()
    m.take(board.link.frames())
    rng = Rng(2024)
    reference = games.from_header(HEADER)
    rec = bytearray(ACTION_SIZE)
    replayed = 0
    for i in range(10000):
        kind = rng.below(8)
        seq = i + 2
        if kind == 0:
            data = bytes([rng.below(256) for _ in range(rng.below(40))])
        elif kind == 1:
            f = action_frame({"a": "pass", "p": rng.below(4)}, seq)
            data = f[:rng.below(len(f))] + b"\x00"
        elif kind == 2:
            f = bytearray(codec.encode(codec.PING, seq, b"abcdef"))
            f[2] ^= 1 << rng.below(8)
            data = bytes(f)
        elif kind == 3:
            data = b"\x01" * (1100 + rng.below(100)) + b"\x00"
        elif kind == 4:
            data = codec.encode(rng.choice([0x41, 0x43, 0x90, 0x7F]), seq, b"x")
        elif kind == 5:
            # Well-formed frames carrying nonsense records (unknown kind, bad seat, bad name index).
            body = bytes([rng.choice([6, 7, 200]), rng.below(256)] + [rng.below(256) for _ in range(6)])
            data = codec.encode(codec.ACTION, seq, body)
        elif kind == 6:
            data = codec.encode(codec.ACTION, seq, bytes([0, 0, 2 + rng.below(250)]))
        else:
            # Random short records: mostly illegal, sometimes a legal move (then mirrored).
            data = codec.encode(codec.ACTION, seq, bytes([rng.below(6), rng.below(6), rng.below(4), rng.below(3)]))
        board.link.push(data)
        app.step()
        for t, _, body in board.link.frames():
            m.take([(t, _, body)])
            if t == codec.DELTA:
                for j in range(ACTION_SIZE):
                    rec[j] = body[1 + j] if j < body[0] else 0
                assert reference.accept(rec) == 0
                replayed += 1
    assert app.referee.game.digest() == reference.digest()
    assert bytes(m.view) == bytes(app.referee.game.s)
    assert len(m.errors) > 3000 and codec.ERR_TYPE in m.errors and codec.ERR_CRC in m.errors
    assert replayed > 5
    return [replayed, len(m.rejects), sorted(set(m.errors)), reference.digest()]


def test_idle_step_allocates_nothing():
    board, app, m = started()
    if micropython:
        micropython.heap_lock()
    try:
        for _ in range(1000):
            app.step()
    finally:
        if micropython:
            micropython.heap_unlock()
    assert board.link.sent == []


def test_accepting_a_host_action_allocates_nothing():
    """Frames already in the line are decoded, accepted, journalled and mirrored in place (the
    snapshot every 32 actions is written between steps by ``Persist.tidy``, outside this)."""
    board, app, m = started()
    log = Playout(HEADER, 9).run()
    frames = [action_frame(a, i + 1) for i, a in enumerate(log)]
    port = board.link

    sent = [0]

    def count_only(buf, n):
        sent[0] += 1

    port.write = count_only
    for f in frames:
        port.push(f)
    for _ in range(len(frames)):
        if micropython:
            micropython.heap_lock()
        try:
            app.service_link()
        finally:
            if micropython:
                micropython.heap_unlock()
        app.persist.tidy()
    assert app.referee.game.over() and app.referee.accepted == len(log) and sent[0] == len(log)
    assert app.persist.snapshots > 1
    return app.referee.game.digest()


def test_the_collector_runs_often_only_while_a_game_is_set_up():
    """Making the app, boot, a new game and a refused one turn the frequent collection on; the
    loop's step that set a game up turns it off at its end: a game is played with the collector
    as MicroPython sets it (a collection when the heap is full; ``gc.threshold()`` -1), not
    every few KB."""
    import gc
    from firmware import app as app_module
    calls = []
    real = app_module.collect_often

    def recorded(on):
        calls.append(on)
        real(on)

    app_module.collect_often = recorded
    try:
        board = FakeBoard()
        app = App(board, sensors=None)
        app.boot()   # no game stored
        booted = app.collecting
        board.link.push(codec.encode(codec.NEWGAME, 0, json.dumps(HEADER).encode()))
        app.step()
        board.link.push(codec.encode(codec.NEWGAME, 1, b'{"game": "chess"}'))
        app.step()
        board.link.push(action_frame({"a": "place", "p": 0, "disc": "flower"}, 2))
        app.step()   # play: nothing set up, nothing switched
    finally:
        app_module.collect_often = real
    assert calls == [True, False, True, False], calls
    assert booted and not app.collecting
    assert not hasattr(gc, "threshold") or gc.threshold() == -1
    return calls


def test_undo_takes_back_the_last_host_entry_until_a_move_on_the_mat():
    """UNDO naming the last host entry (its hidden fields need not be known) puts the game back
    as it was before it: UNDONE with the entry, a SNAPSHOT, and the journal agrees after a power
    cut. Refused, with the reason and nothing changed: an entry that is not the last, a second
    undo, an entry followed by a move on the mat; a short body is an ERROR."""
    board, app, m = started()
    skull = {"a": "place", "p": 0, "disc": "skull"}
    board.link.push(action_frame(skull, 1))
    app.step()
    m.take(board.link.frames())
    view, digest = bytearray(m.view), app.referee.game.digest()
    entry = {"a": "place", "p": 1, "disc": "skull"}
    board.link.push(action_frame(entry, 2))
    board.link.push(action_frame(skull, 3, codec.UNDO))    # not the last entry
    app.step()
    frames = board.link.frames()
    assert [(t, list(b)) for t, _, b in frames[1:]] == [(codec.UNDONE, [codec.UNDO_OTHER, 0])]
    m.take(frames)
    changed = app.referee.game.digest()
    assert changed != digest
    board.link.push(action_frame({"a": "place", "p": 1, "disc": "flower"}, 4, codec.UNDO))   # as the public view saw it
    app.step()
    frames = board.link.frames()
    assert [t for t, _, _ in frames] == [codec.UNDONE, codec.SNAPSHOT]
    said = frames[0][2]
    rec = bytearray(ACTION_SIZE)
    rec[0:said[1]] = said[2:2 + said[1]]
    assert said[0] == 0 and games.game_class("skull").VOCAB.decode(rec) == dict(entry, disc="flower")
    m.take(frames)
    assert m.view == view and app.referee.game.digest() == digest
    board.link.push(action_frame(skull, 5, codec.UNDO))    # once only
    board.link.push(codec.encode(codec.UNDO, 6, b"\x01"))  # too short for a record
    app.step()
    frames = board.link.frames()
    assert [(t, list(b)[:1]) for t, _, b in frames] == [(codec.UNDONE, [codec.UNDO_NONE]), (codec.ERROR, [codec.ERR_BODY])]
    again = App(board, sensors=None)   # a power cut after the undo: the entry stays undone
    assert again.boot() and again.referee.game.digest() == digest and again.persist.count == 1
    board.link.frames()
    board.link.push(action_frame(entry, 8))
    again.step()
    sent = [0]

    def count_only(buf, n):
        sent[0] += 1

    board.link.write = count_only
    board.link.push(action_frame(skull, 9, codec.UNDO))    # not the last entry: refused, allocating nothing
    if micropython:
        micropython.heap_lock()
    try:
        again.step()
    finally:
        if micropython:
            micropython.heap_unlock()
    del board.link.write
    assert sent[0] == 1 and again.referee.undo_why == 0 and again.persist.count == 2
    rec = bytearray(ACTION_SIZE)
    assert games.game_class("skull").VOCAB.encode({"a": "place", "p": 2, "disc": "flower"}, rec) == 0
    again.referee.submit(rec, 0)    # a move on the mat (reader 0) after the host entry
    board.link.push(action_frame(entry, 10, codec.UNDO))
    again.step()
    frames = board.link.frames()
    assert [(t, list(b)) for t, _, b in frames[-1:]] == [(codec.UNDONE, [codec.UNDO_MAT, 0])]
    assert again.persist.count == 3
    return [digest, changed, again.referee.game.digest()]
