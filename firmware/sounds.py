"""The buzzer's vocabulary: one id per situation, and the notes each plays.

Shared by the feedback (which picks an id) and every board profile (which plays it), so an id
means the same sound on the Pico, on the virtual board and in the tests.
"""
try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:
    def const(x):
        return x
OK = const(0)  # action accepted
REJECT = const(1)  # gesture or action refused
TURN = const(2)  # a seat's turn begins
PROMPT = const(3)  # the mat waits for an input
END = const(4)  # game over

# Notes by id, flat (hz, ms) pairs; hz 0 is a rest.
PATTERNS = (
    (2093, 40),
    (220, 120, 0, 60, 220, 160),
    (880, 60, 1319, 80),
    (1760, 30, 0, 40, 1760, 30),
    (523, 120, 659, 120, 784, 120, 1047, 320),
)
