"""Dead Man's Draw random playouts on both interpreters: invariants after every action, refused
variations that change nothing, nothing accepted after the end, snapshot round trips, zero
allocation while accepting, and equal digests for seeded games with random traits."""
import playkit
from soak import count
from shared_rules.deadmans import rules as d
from shared_rules.deadmans import layout as K
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.catalogue import DMD_CODES as CODES, DMD_TRAITS as TRAITS
from shared_rules.core.engine import GAME_OVER
from host.sim.playout import Playout
from shared_rules.core.rng import Rng

GAMES = count(40, 200)  # make soak: every one of the 200
KINDS = ("trait", "draw", "collect", "hook", "cannon", "sword", "map", "oracle", "bonus")


def header(seed):
    n = 2 + seed % 7
    h = {"game": "deadmans", "players": n, "first": seed % n}
    if n > 4:
        h["decks"] = 2
    return h


def recount_score(s, seat):
    """Scores recomputed from the card locations, independently of the game's own helpers."""
    tops = {}
    for i in range(K.NCODES * s[K.R_DECKS]):
        if s[K.LOC + i] == K.BANK + seat:
            code = i % K.NCODES
            suit = code // 6
            tops[suit] = max(tops.get(suit, 0), int(CODES[code][-1]))
    total = 0
    for suit in tops:
        total += tops[suit]
    if K.MERMAID in tops and s[K.R_TRAIT + seat] == K.GOLDEN_SCALES:
        total += 5
    return total


def check_invariants(g, table):
    s = g.s
    seats = s[K.R_SEATS]
    decks = s[K.R_DECKS]
    assert g.valid_state(s)
    where = {}
    for i in range(2 * K.NCODES):
        loc = s[K.LOC + i]
        if i >= K.NCODES * decks:
            assert loc == 0
            continue
        assert loc in (K.DRAW, K.DISCARD, K.PLAY) or K.BANK <= loc < K.BANK + seats, loc
        where[loc] = where.get(loc, 0) + 1
    total = 0
    for loc in where:
        total += where[loc]
    assert total == K.NCODES * decks  # every card in exactly one place
    assert where.get(K.DRAW, 0) == s[K.R_DRAW_N] == len(table.draw)
    assert where.get(K.DISCARD, 0) == s[K.R_DISCARD_N]
    assert where.get(K.PLAY, 0) == s[K.R_PLAY_N] <= K.SUITS
    drawn = sorted(i % K.NCODES for i in range(K.NCODES * decks) if s[K.LOC + i] == K.DRAW)
    assert drawn == sorted(table.draw), "the referee's draw pile is the physical one"
    for i in range(s[K.R_PEEK_N]):
        assert s[K.R_PEEK + i] == table.draw[-1 - i], "the peek queue is the top of the pile"
    suits = [s[K.R_PLAY + i] // 6 for i in range(s[K.R_PLAY_N])]
    for suit in suits:
        assert suits.count(suit) == 1
    summary = g.summary()
    for seat in range(seats):
        assert summary["scores"][seat] == recount_score(s, seat)
    assert sum(summary["bank_cards"]) == where_banks(where)
    if g.over():
        assert s[K.R_DRAW_N] == 0 and s[K.R_PLAY_N] == 0 and summary["winners"]
    else:
        assert s[K.R_PHASE] == K.SETUP or s[K.R_DRAW_N] or s[K.R_STARTED]


def where_banks(where):
    n = 0
    for loc in where:
        if loc >= K.BANK:
            n += where[loc]
    return n


def mutate(action, rng, seats):
    """A variation of a legal action that is usually illegal."""
    bad = dict(action)
    choice = rng.below(5)
    if choice == 0:
        bad["p"] = (bad["p"] + 1 + rng.below(seats - 1)) % seats
    elif choice == 1:
        bad = {"a": rng.choice(KINDS), "p": bad["p"], "card": rng.choice(CODES)}
    elif choice == 2:
        if "card" in bad:
            bad["card"] = rng.choice(CODES)
        elif "pick" in bad:
            bad["pick"] = rng.choice(CODES)
        else:
            bad["target"] = rng.below(seats + 1)
    elif choice == 3:
        if "reveal" in bad:
            bad["reveal"] = [rng.choice(CODES) for _ in range(rng.below(4))]
        elif "cards" in bad:
            bad["cards"] = bad["cards"][:-1] if rng.below(2) and bad["cards"] else bad["cards"] + ["key2"]
        elif "peek" in bad:
            bad["peek"] = rng.choice(CODES)
        else:
            bad["target"] = rng.below(seats + 1)
    else:
        bad["a"] = rng.choice(KINDS)
    return bad


def test_random_games_keep_the_invariants():
    rng = Rng(4242)
    rec = bytearray(ACTION_SIZE)
    digests = 0
    lengths = 0
    refused = 0
    kinds = {}
    for seed in range(GAMES):
        p = Playout(header(seed), seed)
        g = p.game
        check_invariants(g, p.table)
        while True:
            options = p.table.legal()
            if options:
                # Try an illegal variation first: when refused, nothing may change; when the
                # referee finds it possible after all, the table's truth follows it.
                bad = mutate(rng.choice(options), rng, g.seats())
                if playkit.attempt(g, bad, rec):
                    refused += 1
                else:
                    p.table.accepted(bad)
                    check_invariants(g, p.table)
            a = p.step()
            if a is None:
                break
            kinds[a["a"]] = kinds.get(a["a"], 0) + 1
            check_invariants(g, p.table)
        assert g.over(), seed
        lengths += p.actions
        digests = playkit.fold(digests, g)
    assert refused > GAMES * 20
    assert sorted(kinds) == sorted(KINDS), kinds  # every choice happened
    return [digests, lengths, [kinds[k] for k in KINDS]]


def test_nothing_is_accepted_after_the_game_ends():
    rng = Rng(5)
    rec = bytearray(ACTION_SIZE)
    tried = 0
    for seed in range(30):
        p = Playout(header(seed), seed)
        p.run()
        g = p.game
        before = bytes(g.s)
        for kind in KINDS:
            for _ in range(3):
                a = {"a": kind, "p": rng.below(g.seats()), "card": rng.choice(CODES)}
                if kind in ("cannon", "sword"):
                    a["target"] = rng.below(g.seats())
                elif kind == "trait":
                    a = {"a": kind, "p": a["p"], "trait": rng.choice(TRAITS)}
                elif kind == "map":
                    a = {"a": kind, "p": a["p"], "pick": a["card"]}
                elif kind == "oracle":
                    a = {"a": kind, "p": a["p"], "peek": a["card"]}
                elif kind == "bonus":
                    a = {"a": kind, "p": a["p"], "cards": [a["card"]]}
                elif kind == "collect":
                    del a["card"]
                assert g.VOCAB.encode(a, rec) == 0, a
                assert g.accept(rec) == GAME_OVER
                tried += 1
        assert bytes(g.s) == before
    return tried


def test_snapshot_restore_at_random_points_continues_identically():
    rng = Rng(7)
    for seed in range(60):
        blob, p = playkit.resumed(header(seed), seed, rng, d.DeadMans())
    return [len(blob), p.game.digest()]


def test_seeded_games_with_random_traits_give_the_same_digests():
    out = []
    for seed in (1, 2, 3, 42, 1234, 9999, 31337):
        for n in (2, 4, 6, 8):
            h = {"game": "deadmans", "players": n}
            if n > 4:
                h["decks"] = 2
            p = Playout(h, seed)
            p.run()
            traits = [p.game.s[K.R_TRAIT + i] for i in range(n)]
            out.append([n, seed, p.actions, p.game.digest(), p.game.summary()["winners"], traits])
    return out


def test_accepting_an_action_allocates_nothing():
    """Records are encoded first; then whole games are accepted with the heap locked."""
    for h, seed in (({"game": "deadmans", "players": 4}, 4), ({"game": "deadmans", "players": 8, "decks": 2}, 8),
                    ({"game": "deadmans", "players": 3}, 11)):
        g = d.DeadMans.from_header(h)
        recs = playkit.records(g, Playout(h, seed).run())
        bad = playkit.records(g, [{"a": "draw", "p": 0, "card": "anchor2"}])
        errs, refused, _ = playkit.accept_locked(g, recs, bad)
        assert errs == 0 and refused == len(recs) and g.over()
    return g.digest()
