"""What a phase of the load bench saw: latencies by kind of request, errors,
games; and percentiles of them."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

KINDS = ("action", "view", "create", "health")
"""The kinds of request, each timed on its own: action POSTs, view GETs, game creation, /health."""


@dataclass
class Stats:
    """What one phase saw, counted only inside its window [start, end]."""

    start: float
    end: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    expected: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    games_finished: int = 0
    games_unfinished: int = 0
    actions_in_finished: int = 0

    def counts(self, began: float, ended: float) -> bool:
        return began >= self.start and ended <= self.end

    def error(self, kind: str, what: str) -> None:
        # Errors count wherever they fall, warm-up included: there should be none at all.
        self.errors[kind] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {what}")

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def rate(self, kind: str) -> float:
        return len(self.latencies[kind]) / self.seconds

    @property
    def requests(self) -> int:
        return sum(len(values) for values in self.latencies.values())


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of `values` (sorted), or NaN if there are none."""
    if not values:
        return float("nan")
    rank = max(1, min(len(values), math.ceil(fraction * len(values))))
    return values[rank - 1]


@dataclass(frozen=True)
class Latency:
    count: int
    p50: float
    p95: float
    p99: float
    worst: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        ordered = sorted(seconds)
        return cls(
            count=len(ordered),
            p50=percentile(ordered, 0.50) * 1000,
            p95=percentile(ordered, 0.95) * 1000,
            p99=percentile(ordered, 0.99) * 1000,
            worst=(ordered[-1] if ordered else float("nan")) * 1000,
        )
