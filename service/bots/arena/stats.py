"""The arena's statistics: Elo from a score, a sequential test, a bootstrap.

The unit of evidence is a *round*: one deal played once with the level under
test in each seat (two mirrored games at two players, N games at N). Rounds
are independent; the games of a round are not (they share the deal), which is
why everything here resamples and tests rounds, never single games. A round's
score is the mean of its games' scores for the level under test: 1 a win,
1/N a draw (an unfinished game), 0 a loss; at two players its values are the
pentanomial 0, ¼, ½, ¾, 1.

Elo at N seats is the Luce (Bradley-Terry) model: a level `elo` points above
each of N-1 equal opponents wins a game with chance
1 / (1 + (N-1)·10^(-elo/400)); at two players that is the usual logistic Elo.

The sequential test is the generalized SPRT Fishtest runs on pentanomial game
pairs (M. Van den Bergh, "Comments on the SPRT", 2016-2021): the log-likelihood
ratio of the round scores' distribution fitted by maximum likelihood under each
hypothesis' mean score, with a small count added to every category so that an
all-wins start cannot end the test before the evidence could (Fishtest's
"regularize").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from random import Random

REGULARIZE = 1e-3
"""The count added to every score category before fitting (as Fishtest adds)."""
BOOTSTRAP_RESAMPLES = 1000
CONFIDENCE = 0.95
INTERVAL_STOP_Z = 3.29
"""The interval that may stop a pairing early is a 99.9% one, not the printed
95%: it is looked at after every batch, and repeated looks at a 95% interval
would call a difference where there is none far more often than 5% of the time
(a Pocock-like boundary for a few dozen to a hundred looks)."""
INTERVAL_STOP_ROUNDS = 50
"""No interval stops a pairing before this many rounds (its normal
approximation needs them)."""


def score_for_elo(elo: float, players: int = 2) -> float:
    """The game score (win chance) of a level `elo` above each of `players`-1 equals."""
    return 1 / (1 + (players - 1) * 10 ** (-elo / 400))


def elo_for_score(score: float, players: int = 2) -> float:
    """The Elo difference a game score means at `players` seats (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score * (players - 1) / (1 - score))


class Decision(StrEnum):
    H1 = "H1"
    """The sequential test accepted the stronger hypothesis."""
    H0 = "H0"
    """The sequential test accepted no difference."""
    ABOVE = "above"
    """The early-stop interval lies above the baseline (H0's score, `Sprt.baseline`)."""
    BELOW = "below"
    """The early-stop interval lies below the baseline (H0's score, `Sprt.baseline`)."""
    OPEN = "open"
    """Nothing settled it within the games allowed."""
    STOPPED = "stopped"
    """Stopped by hand (Ctrl-C, or SIGTERM to the arena) before anything settled it."""


@dataclass(frozen=True, slots=True)
class Sprt:
    """H0: the level is `elo0` above the other; H1: `elo1` above; error rates
    `alpha` (accepting H1 under H0) and `beta` (accepting H0 under H1)."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def baseline(self, players: int = 2) -> float:
        """H0's game score: 1/N at the default `elo0` of 0."""
        return score_for_elo(self.elo0, players)

    def llr(self, scores: Iterable[float], players: int = 2) -> float:
        """The generalized log-likelihood ratio of H1 against H0 for these round scores."""
        counts = Counter(scores)
        rounds = sum(counts.values())
        if rounds == 0:
            return 0.0
        values, probabilities = _regularized(counts)
        s0 = score_for_elo(self.elo0, players)
        s1 = score_for_elo(self.elo1, players)
        q0 = _fit_mean(values, probabilities, s0)
        q1 = _fit_mean(values, probabilities, s1)
        return rounds * sum(
            p * (math.log(b) - math.log(a)) for p, a, b in zip(probabilities, q0, q1, strict=True)
        )

    def verdict(self, llr: float) -> Decision:
        if llr >= self.upper:
            return Decision.H1
        if llr <= self.lower:
            return Decision.H0
        return Decision.OPEN


def _regularized(counts: Mapping[float, int]) -> tuple[list[float], list[float]]:
    """The score categories (those seen, and the extremes 0 and 1) and their
    frequencies with `REGULARIZE` added to each."""
    values = sorted({0.0, 1.0, *counts})
    weights = [counts.get(value, 0) + REGULARIZE for value in values]
    total = sum(weights)
    return values, [weight / total for weight in weights]


def _fit_mean(values: list[float], probabilities: list[float], mean: float) -> list[float]:
    """The distribution on `values` closest to `probabilities` (maximum likelihood)
    whose mean is `mean`: q_i = p_i / (1 + λ(x_i - mean)), λ found by bisection on
    the interval where every q_i is positive (Van den Bergh's `MLE_expected`)."""
    shifts = [value - mean for value in values]
    low = -1 / max(shifts)
    high = -1 / min(shifts)

    def excess(lam: float) -> float:
        # Decreasing in λ: the fitted mean less the wanted one, times a positive factor.
        return sum(p * x / (1 + lam * x) for p, x in zip(probabilities, shifts, strict=True))

    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    return [p / (1 + lam * x) for p, x in zip(probabilities, shifts, strict=True)]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean score with its bootstrap interval, and the Elo both mean."""

    score: float
    low: float
    high: float
    elo: float
    elo_low: float
    elo_high: float


def estimate(
    scores: list[float],
    players: int,
    games: int,
    seed: str,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> Estimate:
    """The mean of the round scores, a 95% percentile bootstrap interval over rounds
    (resampled with a generator seeded by `seed`), and their Elo.

    Where every round scored 1 (or 0) the bootstrap has nothing to resample, so
    the interval's far end is the Clopper-Pearson bound on the share of perfect
    rounds, tail^(1/rounds), which the mean score cannot be below. The point Elo
    of a score of 0 or 1 is taken ½ game from it (the least the games could tell
    apart from a perfect score); the interval's ends may be infinite."""
    if not scores:
        return Estimate(math.nan, math.nan, math.nan, math.nan, math.nan, math.nan)
    rng = Random(seed)
    rounds = len(scores)
    tail = (1 - CONFIDENCE) / 2
    mean = sum(scores) / rounds
    if all(score == 1 for score in scores):
        low, high = tail ** (1 / rounds), 1.0
    elif all(score == 0 for score in scores):
        low, high = 0.0, 1 - tail ** (1 / rounds)
    else:
        means = sorted(sum(rng.choices(scores, k=rounds)) / rounds for _ in range(resamples))
        low = means[int(tail * resamples)]
        high = means[min(resamples - 1, int((1 - tail) * resamples))]
    edge = 0.5 / games
    point = elo_for_score(min(1 - edge, max(edge, mean)), players)
    return Estimate(
        mean, low, high, point, elo_for_score(low, players), elo_for_score(high, players)
    )


def interval_verdict(scores: list[float], baseline: float) -> Decision:
    """`ABOVE` or `BELOW` once a 99.9% normal interval of the mean round score lies
    wholly on one side of `baseline` (after `INTERVAL_STOP_ROUNDS`), else `OPEN`.
    The baseline is H0's score (`Sprt.baseline`): 1/N at the default `elo0` of 0;
    a run against 60% asks whether the level is above 60%, not above 50%."""
    rounds = len(scores)
    if rounds < INTERVAL_STOP_ROUNDS:
        return Decision.OPEN
    mean = sum(scores) / rounds
    variance = sum((score - mean) ** 2 for score in scores) / (rounds - 1)
    half = INTERVAL_STOP_Z * math.sqrt(variance / rounds)
    if mean - half > baseline:
        return Decision.ABOVE
    if mean + half < baseline:
        return Decision.BELOW
    return Decision.OPEN
