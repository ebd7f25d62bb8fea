"""A tiny deterministic PRNG (xorshift32) that gives the same numbers on every interpreter.

``random.seed`` differs between CPython and MicroPython, so seeded simulations and tests that
must agree across interpreters draw from this instead. Not used on the accept path.
"""


class Rng:
    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        """A number in ``0..n-1``."""
        return self.next() % n

    def choice(self, seq):
        return seq[self.next() % len(seq)]

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
