"""Seeded random games through the real accept path, the same on both interpreters.

Used by the random-playout tests, the simulator and the benchmarks. A game's table module
(``host/sim/tables/<game>.py``, or the one its class names in ``TABLE``) lists the legal actions; the picker first chooses an action kind,
then one of its options, so rare kinds (pass, flip) are not drowned by many bids.
"""
from shared_rules import games
from shared_rules.core.actions import ACTION_SIZE
from shared_rules.core.rng import Rng


def table_for(game, rng):
    name = getattr(game, "TABLE", None) or game.NAME   # modules bring their own
    module = __import__("host.sim.tables." + name, None, None, ("Table",))
    return module.Table(game, rng)


def pick(options, rng):
    kinds = []
    for o in options:
        if o["a"] not in kinds:
            kinds.append(o["a"])
    kinds.sort()
    kind = rng.choice(kinds)
    return rng.choice([o for o in options if o["a"] == kind])


class Playout:
    """One random game: ``step()`` plays one legal action and returns it (None when over)."""

    def __init__(self, header, seed, max_actions=20000):
        self.header = header
        self.game = games.from_header(header)
        self.rng = Rng(seed)
        self.table = table_for(self.game, self.rng)
        self.rec = bytearray(ACTION_SIZE)
        self.actions = 0
        self.max_actions = max_actions

    def step(self):
        if self.game.over() or self.actions >= self.max_actions:
            return None
        options = self.table.legal()
        if not options:
            raise AssertionError("no legal action in a running game")
        action = pick(options, self.rng)
        err = self.game.VOCAB.encode(action, self.rec)
        if not err:
            err = self.game.accept(self.rec)
        if err:
            raise AssertionError("legal action %r rejected: %s" % (action, self.game.reason(err)))
        self.table.accepted(action)
        self.actions += 1
        return action

    def run(self):
        """Play to the end; return the list of actions."""
        log = []
        while True:
            a = self.step()
            if a is None:
                return log
            log.append(a)
