"""What the per-call benchmarks share (bench/knock.py, gin.py, rummy500.py,
indian.py): each call timed on its own, and the percentiles of the times."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any


def timed(work: Callable[..., object], cases: Iterable[tuple[Any, ...]]) -> list[float]:
    """The wall time of `work(*case)` for each case, in microseconds, sorted."""
    spent = []
    clock = time.perf_counter
    for case in cases:
        began = clock()
        work(*case)
        spent.append((clock() - began) * 1e6)
    return sorted(spent)


def percentile(ordered: Sequence[float], share: float) -> float:
    """The value at `share` (0.99: p99) of sorted times: the nearest rank below."""
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
