"""Search budgets, counted in iterations (samples), never in seconds.

A move is then a function of the view and the bot's seed, whatever the
machine's speed; `RUMMY_BOT_BUDGET_SCALE` (and `rummy arena --budget-scale`)
scales every budget, for a smaller server or a quicker ladder.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

SCALE_VARIABLE = "RUMMY_BOT_BUDGET_SCALE"


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one move may search."""

    samples: int
    """Deals of the unseen cards sampled for one decision."""
    cap_seconds: float
    """A guard for the server only: a search still running after this stops
    sampling and plays its best so far (never reached at the default budgets on
    the machines docs/bots.md measured)."""

    def scaled(self) -> Budget:
        """This budget times the scale in the environment (at least one sample)."""
        scale = float(os.environ.get(SCALE_VARIABLE, "1") or "1")
        if scale == 1:
            return self
        return replace(self, samples=max(1, round(self.samples * scale)))

    def guard(self) -> Guard:
        """The wall-clock guard of a search that begins now."""
        return Guard(deadline=time.perf_counter() + self.cap_seconds)


@dataclass(frozen=True, slots=True)
class Guard:
    """The server's guard on one search: past its deadline, a search stops sampling
    and plays its best so far (`Budget.cap_seconds`)."""

    deadline: float

    def passed(self) -> bool:
        return time.perf_counter() > self.deadline


STRONG = Budget(samples=24, cap_seconds=1.0)
EXPERT = Budget(samples=96, cap_seconds=3.0)
"""The guards stand well above the p99 goals (100 ms, 500 ms): on a loaded 2-core
machine (load 5) a search runs two or three times slower, and a guard at the goal
was reached there, which made the same view and seed play another move."""


def is_expert(budget: Budget) -> bool:
    """Whether a family's search runs at `expert`'s budget: more samples than
    `strong`'s, both scaled alike (`RUMMY_BOT_BUDGET_SCALE`)."""
    return budget.samples > STRONG.scaled().samples
