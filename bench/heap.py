"""Heap bisection: the smallest ``-X heapsize`` with which a MicroPython run still succeeds."""
from __future__ import annotations

from typing import Callable


def smallest_heap(ok: Callable[[int], bool], lo: int, hi: int, step: int = 256) -> int:
    """Bisect on ``ok(heap)`` (assumed monotone) between ``lo`` and ``hi`` bytes, to ``step``."""
    if not ok(hi):
        raise RuntimeError("fails even with a %d-byte heap" % hi)
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi
