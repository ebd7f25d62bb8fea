"""Skull random playouts on both interpreters: invariants after every action, snapshot round
trips, rejected moves that change nothing, zero allocation while accepting, equal digests."""
import playkit
from soak import count
from shared_rules.skull import layout as K
from shared_rules.skull.rules import Skull
from host.sim.tables.skull import at, active
from shared_rules.core.actions import ACTION_SIZE
from host.sim.playout import Playout
from shared_rules.core.rng import Rng

GAMES = count(150, 2000)  # make soak: every one of the 2000


def header(seed):
    if seed % 5 == 4:
        return {"game": "skull", "players": 2 + seed % 5, "tribes_per_player": 2, "first": seed % 4}
    return {"game": "skull", "players": 3 + seed % 10, "first": seed % 3}


def check_invariants(g, lost_before, action):
    s = g.s
    challengers = 0
    for seat in range(s[K.R_SEATS]):
        stacked_skull = at(g, seat, K.SKULL_AT) != K.NO_SEAT
        flowers = at(g, seat, K.H_FLOWERS) + at(g, seat, K.STACK) - stacked_skull   # hand + stack
        skulls = at(g, seat, K.H_SKULL) + stacked_skull
        assert flowers <= 3 and skulls <= 1, (seat, flowers, skulls)
        lost = 4 - flowers - skulls
        assert lost >= lost_before[seat], "a lost disc came back"
        lost_before[seat] = lost
        assert (lost == 4) == (not active(g, seat)), "eliminated iff no disc left"
        assert at(g, seat, K.FLIPPED) <= at(g, seat, K.STACK)
        assert 0 <= at(g, seat, K.SCORE) <= 2
        if at(g, seat, K.SCORE) == 2:
            assert g.over() and s[K.R_WINNER] == seat
        if s[K.R_CHALLENGER] == seat:
            challengers += 1
    assert challengers <= 1
    if action is not None and action["a"] != "first":
        assert active(g, action["p"]) or s[K.R_PHASE] in (K.CHOOSE, K.OVER, K.PREP), action


def mutate(action, rng, seats):
    """A variation of a legal action that is usually illegal."""
    bad = dict(action)
    choice = rng.below(4)
    if choice == 0:
        bad["p"] = (bad["p"] + 1 + rng.below(seats - 1)) % seats
    elif choice == 1:
        bad["a"] = rng.choice(["place", "bid", "pass", "flip", "lose", "first"])
    elif choice == 2:
        bad["n"] = rng.below(40)
        bad["target"] = rng.below(seats + 2)
    else:
        bad["disc"] = rng.choice(["flower", "skull"])
    return bad


def test_random_games_keep_the_invariants():
    rng = Rng(99)
    rec = bytearray(ACTION_SIZE)
    digests = 0
    lengths = 0
    rejected = 0
    for seed in range(GAMES):
        p = Playout(header(seed), seed)
        g = p.game
        lost = [0] * g.seats()
        check_invariants(g, lost, None)
        while True:
            a = p.step()
            if a is None:
                break
            check_invariants(g, lost, a)
            # A variation of the move just made is usually illegal now: refused, it changes nothing.
            bad = mutate(a, rng, g.seats())
            if playkit.attempt(g, bad, rec):
                rejected += 1
            else:
                check_invariants(g, lost, bad)
        assert g.over(), seed
        lengths += p.actions
        digests = playkit.fold(digests, g)
    assert rejected > GAMES  # the mutations really were tried
    return [digests, lengths]


def test_snapshot_restore_at_random_points_continues_identically():
    rng = Rng(7)
    for seed in range(200):
        _, p = playkit.resumed(header(seed), seed, rng, Skull())
    return p.game.digest()


def test_seeded_games_give_the_same_digests():
    out = []
    for seed in (1, 2, 3, 42, 1234):
        p = Playout(header(seed), seed)
        p.run()
        out.append([p.actions, p.game.digest(), p.game.summary()["winners"]])
    return out


def test_accepting_an_action_allocates_nothing():
    """Records are encoded first; then a whole game is accepted with the heap locked."""
    for players in (6, 12):
        h = {"game": "skull", "players": players}
        g = Skull.from_header(h)
        recs = playkit.records(g, Playout(h, players).run())
        errs, _, _ = playkit.accept_locked(g, recs)
        assert errs == 0 and g.over()
    return g.digest()
