"""Hidden information never shows in the public mirror, not even in a frame's length.

For every game and every action kind, in random states reached by random play: records that
differ only in hidden fields (a Skull disc, a lost disc, a Dead Man's Draw peek, a Sheriff bag)
are submitted to the board's referee one after the other, from the same state and the same link
sequence number, and the public frames it sends are compared byte for byte. Same outcome (both
accepted, or both refused for the same reason): identical frames, length included. Different
reasons: the REJECT echo after the reason byte is identical.
"""
from shared_rules.wire import codec
from shared_rules.core.actions import ACTION_SIZE, LIST, NAME, OBJ, U16, U8, _size
from shared_rules.core.actions_lookup import field_offsets
from shared_rules.core.engine import OK
from host.sim.playout import Playout
from shared_rules.core.rng import Rng

from firmware.link import BoardLink
from firmware.referee import Referee

FROM_HOST = 255  # firmware.referee's private _FROM_HOST and _PUBLIC (tests/test_rules_literals.py)
PUBLIC = 0

VARIANTS = 4


class Capture:
    """A link port that keeps the last bytes written."""

    def __init__(self):
        self.last = b""

    def readinto(self, buf):
        return 0

    def write(self, buf, n):
        self.last = bytes(buf[:n])


def _fill(fields, offs, rec, rng, hidden_only):
    """Random contents for ``fields`` (all of them, or only the hidden ones, list lengths kept)
    within their tables."""
    for i in range(len(fields)):
        name, kind, table, optional, cap, hidden = fields[i]
        if hidden_only and not hidden:
            continue
        at = offs[i]
        if optional:
            rec[at] = rng.below(2)
            at += 1
        if kind == U8:
            rec[at] = rng.below(8)
        elif kind == U16:
            rec[at] = rng.below(8)
            rec[at + 1] = 0
        elif kind == NAME:
            rec[at] = rng.below(len(table))
        elif kind == LIST:
            # How many cards (a bag's size, a peek of one or three) is public: the hand sizes
            # show it. Which cards is what stays hidden.
            n = rec[at] if hidden_only else rng.below(cap + 1)
            rec[at] = n
            for j in range(cap):
                rec[at + 1 + j] = (rng.below(8) if table is None else rng.below(len(table))) if j < n else 0
        elif kind == OBJ:
            sub, _ = field_offsets(table, at)
            _fill(table, sub, rec, rng, False)
        if optional and not rec[offs[i]]:
            for j in range(offs[i] + 1, offs[i] + _size(fields[i])):
                rec[j] = 0


def _body(wire):
    """The body of one encoded frame."""
    for _, _, body in codec.FrameReader().frames(wire):
        return body
    raise AssertionError("no frame in %r" % (wire,))


def _has_hidden(fields):
    for f in fields:
        if f[5]:
            return True
    return False


def _base(game, kind, legal, rng):
    """A record of ``kind``: a legal one when the table knows one, else random contents."""
    vocab = game.VOCAB
    rec = bytearray(ACTION_SIZE)
    options = [o for o in legal if o["a"] == vocab.names[kind]]
    if options and vocab.encode(rng.choice(options), rec) == OK:
        return rec
    rec[0] = kind
    rec[1] = rng.below(game.seats())
    _fill(vocab.fields[kind], vocab.offsets[kind], rec, rng, False)
    return rec


def _frame(ref, port, rec, state, old, seq):
    """Submit ``rec`` from the saved state; return (reason, frame bytes); state put back after."""
    g = ref.game
    ref.link.seq = seq
    err = ref.submit(rec, FROM_HOST)
    frame = port.last
    g.s[:] = state
    ref.old[:] = old
    return err, frame


def _check_state(ref, port, legal, rng, tally):
    g = ref.game
    vocab = g.VOCAB
    state = bytes(g.s)
    old = bytes(ref.old)
    seq = ref.link.seq
    for kind in range(len(vocab.names)):
        base = _base(g, kind, legal, rng)
        hidden = _has_hidden(vocab.fields[kind])
        seen = []
        for v in range(VARIANTS if hidden else 1):
            rec = bytearray(base)
            if v:
                _fill(vocab.fields[kind], vocab.offsets[kind], rec, rng, True)
            err, frame = _frame(ref, port, rec, state, old, seq)
            for e, f in seen:
                if e == err:
                    assert f == frame, (vocab.names[kind], e, f, frame)
                    if hidden:
                        tally[0 if err == OK else 1] += 1
                else:
                    # Different outcomes: a REJECT still echoes the same masked record.
                    if e != OK and err != OK:
                        assert _body(f)[1:] == _body(frame)[1:], (vocab.names[kind], f, frame)
            seen.append((err, frame))


def _run(header, seeds, every):
    """Random play under ``header``; every ``every`` actions, compare variants of every kind."""
    tally = [0, 0]
    for seed in seeds:
        po = Playout(header, seed, max_actions=400)
        port = Capture()
        ref = Referee(BoardLink(port), None)
        ref.view = PUBLIC
        ref.start(po.game, b"{}")
        rng = Rng(seed * 7 + 1)
        n = 0
        while True:
            if n % every == 0:
                _check_state(ref, port, po.table.legal() if not po.game.over() else [], rng, tally)
            if po.step() is None:
                break
            ref.game = po.game
            ref._fill(ref.old)
            n += 1
    return tally


def _assert_both(tally, what):
    assert tally[0] > 0 and tally[1] > 0, (what, tally)
    return tally


def test_skull_hidden_discs_never_change_a_public_frame():
    return _assert_both(_run({"game": "skull", "players": 4}, (1, 2, 3), 1), "skull")


def test_skull_two_tribes():
    return _assert_both(_run({"game": "skull", "players": 3, "tribes_per_player": 2}, (5,), 1), "skull2")


def test_deadmans_oracle_peek_never_changes_a_public_frame():
    return _assert_both(_run({"game": "deadmans", "players": 3}, (1, 2, 3, 4), 1), "deadmans")


def test_sheriff_bag_content_never_changes_a_public_frame():
    return _assert_both(_run({"game": "sheriff", "players": 4}, (1, 2), 3), "sheriff")


def test_sheriff_five_players_no_royal():
    return _assert_both(_run({"game": "sheriff", "players": 5, "royal": False}, (3,), 4), "sheriff5")


def _cards_header(players, modules):
    """A header with Sheriff's card modules and the sample profile inline (only their sections)."""
    import json
    from shared_rules.sheriff.modules import profile
    with open("host/profiles/sample.json") as f:
        whole = json.load(f)
    return {"game": "sheriff", "players": players, "modules": modules, "profile": profile.for_modules(whole, modules)}


def test_sheriff_merry_man_held_or_in_a_bag_never_changes_a_public_frame():
    """Which Merry Man a seat draws, keeps or bottoms, and whether and which one rides in a bag:
    hidden fields of ``merry`` and ``load``; laws and special orders ride along."""
    return _assert_both(_run(_cards_header(4, ["laws", "special_orders", "merry_men"]), (1, 2), 3), "sheriff-cards")


def test_sheriff_all_five_modules_with_deputies():
    return _assert_both(_run(_cards_header(6, ["deputies", "black_market", "laws", "special_orders", "merry_men"]),
                             (4,), 4), "sheriff-cards-6")
