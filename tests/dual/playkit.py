"""Scaffolding of the seeded-playout tests (``dual_<game>_playout.py``), on both interpreters:
refused variations that must change nothing, snapshot round trips at random points, whole games
accepted with the heap locked, and one number folding many games' digests."""
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout

try:
    import micropython
except ImportError:
    micropython = None


def attempt(g, action, rec):
    """Submit an action (usually an illegal variation of a legal one) through ``rec``: the reason
    code, 0 if accepted. A refused action must leave the state byte for byte as it was."""
    before = bytes(g.s)
    err = g.VOCAB.encode(action, rec) or g.accept(rec)
    if err:
        assert bytes(g.s) == before, action
    return err


def fold(digests, g):
    """Many games' digests in one number, equal on both interpreters only if every game is."""
    return (digests * 31 + int(g.digest(), 16)) & 0xFFFFFFF


def resumed(header, seed, rng, fresh):
    """Play a seeded game; replay it to a random point (``rng``), snapshot, restore into the
    empty game ``fresh`` and play the rest of the log there: it must end in the same state.
    Returns the snapshot and the finished playout."""
    p = Playout(header, seed)
    log = p.run()
    cut = rng.below(len(log) + 1)
    q = Playout(header, seed)
    for _ in range(cut):
        q.step()
    blob = q.game.snapshot()
    assert fresh.restore(blob) == 0 and fresh.digest() == q.game.digest()
    rec = bytearray(ACTION_SIZE)
    for a in log[cut:]:
        assert fresh.VOCAB.encode(a, rec) == 0 and fresh.accept(rec) == 0, a
    assert fresh.digest() == p.game.digest()
    return blob, p


def records(g, actions):
    """The actions encoded for ``g``'s vocabulary, one record each (before the heap is locked)."""
    out = []
    for a in actions:
        rec = bytearray(ACTION_SIZE)
        assert g.VOCAB.encode(a, rec) == 0, a
        out.append(rec)
    return out


def accept_locked(g, recs, bad=()):
    """Accept every record with the heap locked, each after the records of ``bad`` (to be
    refused), the public view updated after each. Returns [error codes summed, refusals, view]."""
    view = bytearray(g.PUBLIC_SIZE)
    errs = 0
    refused = 0
    if micropython:
        micropython.heap_lock()
    try:
        for rec in recs:
            for b in bad:
                if g.accept(b):
                    refused += 1
            errs += g.accept(rec)
            g.public(view)
    finally:
        if micropython:
            micropython.heap_unlock()
    return [errs, refused, view]


def locked_game(header, seed, bad):
    """A seeded game's records accepted again in a fresh game with the heap locked, each after
    the ``bad`` actions (all refused): it must end as the playout did. Returns [records, digest]."""
    from shared_rules import games
    po = Playout(header, seed)
    log = po.run()
    g = games.from_header(header)
    recs = records(g, log)
    refuse = records(g, bad)
    errs, refused, view = accept_locked(g, recs, refuse)
    assert errs == 0 and refused == len(recs) * len(refuse)
    assert g.over() and g.digest() == po.game.digest()
    assert __import__("shared_rules.%s.view" % g.NAME, None, None, True).describe(view)["phase"] == "over"
    return [len(recs), g.digest()]
