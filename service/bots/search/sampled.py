"""Choosing among candidate moves by their mean value over sampled deals.

Every candidate is judged on the same deals (common random numbers: the
difference between two candidates is then the difference their moves make, not
the luck of their deals), and the best mean wins; ties go to the earlier
candidate, so a family lists its candidates best-guess first (its `basic`
choice leading) and a search with nothing to tell them apart plays that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

from service.bots.search.budget import Budget, Guard
from service.bots.search.unknown import Deal, Unknown

Candidate = TypeVar("Candidate")


def best_by_samples(
    candidates: Sequence[Candidate],
    unknown: Unknown,
    rng: Random,
    samples: int,
    guard: Guard,
    value: Callable[[Candidate, Deal, Random], float],
    margin: float = 0.0,
) -> Candidate:
    """The candidate of the best mean `value` over `samples` deals of `unknown`.

    Each deal draws its own generator from `rng` (for whatever the value plays out
    at random), so a candidate's value on a deal does not depend on the others'.
    The first candidate (the family's default) keeps its place unless another's
    mean beats it by more than `margin`. The wall-clock `guard` is the server's
    only (`Budget.guard`)."""
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    taken = 0
    for _ in range(samples):
        taken += 1
        deal = unknown.sample(rng)
        seed = rng.getrandbits(32)
        for at, candidate in enumerate(candidates):
            totals[at] += value(candidate, deal, Random(seed))
        if guard.passed():
            break
    best = max(range(len(candidates)), key=lambda at: (totals[at], -at))
    if totals[best] - totals[0] <= margin * taken:
        return candidates[0]
    return candidates[best]


def samples_of(budget: Budget, weight: float) -> int:
    """A family's sample count: the level's budget times the family's own weight
    (its samples cost more or less than another family's), at least one."""
    return max(1, round(budget.samples * weight))
