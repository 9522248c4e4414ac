"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2022 revision): a player's
rating, its deviation and its volatility after one rating period.

A rating period here is one rated game, as on lichess: ratings move after every
game. Written out rather than taken from a library: the one on PyPI (`glicko2`
2.1.0) puts the rating where the volatility step's function `f` wants the
deviation (μ² for φ²), so for every rating but 1500 its volatility is not
Glickman's (docs/players.md, "Ratings").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's scale: a rating of 1500 is μ 0, and 173.7178 rating points are 1."""
TAU = 0.5
"""The system constant τ, which bounds how fast a volatility changes (Glickman: 0.3
to 1.2; 0.5 is his example's)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility's iteration (Glickman's)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating, on the Glicko scale (a new player's: 1500, 350, 0.06)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a rating period: the opponent's rating before it, and the score
    against that opponent (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def rate(player: Rating, outcomes: Sequence[Outcome], tau: float = TAU) -> Rating:
    """`player`'s rating after a rating period of `outcomes` (none: only the
    deviation grows, as time without games makes a rating less certain)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not outcomes:
        return Rating(player.rating, math.sqrt(phi**2 + sigma**2) * SCALE, sigma)
    # Steps 3 and 4: the estimated variance of the rating from the games alone,
    # and the improvement they suggest.
    inverse_v = 0.0
    sum_scores = 0.0
    for outcome in outcomes:
        mu_j = (outcome.opponent.rating - 1500.0) / SCALE
        g_j = _g(outcome.opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        inverse_v += g_j**2 * expected * (1.0 - expected)
        sum_scores += g_j * (outcome.score - expected)
    v = 1.0 / inverse_v
    delta = v * sum_scores
    # Step 5: the new volatility (the Illinois algorithm on f).
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    # Steps 6 to 8: the pre-period deviation, the new deviation and rating.
    phi_star = math.sqrt(phi**2 + sigma_new**2)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu_new = mu + phi_new**2 * sum_scores
    return Rating(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)
