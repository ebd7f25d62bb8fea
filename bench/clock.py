"""Microsecond ticks on both interpreters, for the benchmark scripts."""
try:
    from time import ticks_us, ticks_diff  # noqa: F401  (MicroPython)
except ImportError:
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b
