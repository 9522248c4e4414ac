"""Glicko-2 as Glickman published it ("Example of the Glicko-2 system")."""

from __future__ import annotations

import math
import random

import pytest

from service.ratings.glicko2 import SCALE, Outcome, Rating, _volatility, rate


def test_glickmans_worked_example_to_the_published_digits() -> None:
    # A player rated 1500 (RD 200, volatility 0.06, tau 0.5) beats a 1400 (RD 30)
    # and loses to a 1550 (RD 100) and a 1700 (RD 300).
    player = Rating(1500, 200, 0.06)
    after = rate(
        player,
        [
            Outcome(Rating(1400, 30), 1),
            Outcome(Rating(1550, 100), 0),
            Outcome(Rating(1700, 300), 0),
        ],
        tau=0.5,
    )
    # The example rounds as it goes: mu' -0.2069 and phi' 0.8722 on the Glicko-2
    # scale, hence r' 1464.06 and RD' 151.52 (the unrounded r' is 1464.0507).
    mu, phi = (after.rating - 1500) / SCALE, after.deviation / SCALE
    assert (round(mu, 4), round(phi, 4)) == (-0.2069, 0.8722)
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    # sigma' is published cut to five decimals (0.059996 is 0.05999 so written).
    assert math.floor(after.volatility * 1e5) / 1e5 == 0.05999
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1620, 80, 0.06), [])
    assert after.rating == 1620
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx(math.hypot(80 / SCALE, 0.06) * SCALE)


def _bisected(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 solved the slow, sure way: bisection of Glickman's f on a wide bracket."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low, high = a - 60.0, a + 60.0  # f falls from + to - across its one root
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    return math.exp(low / 2)


def test_the_volatility_step_agrees_with_bisection_away_from_1500() -> None:
    rng = random.Random(20261202)
    for _ in range(300):
        phi = rng.uniform(30, 350) / SCALE
        sigma = rng.uniform(0.03, 0.1)
        v = rng.uniform(0.2, 20)
        delta = rng.uniform(-3, 3)
        tau = rng.choice([0.3, 0.5, 0.75, 1.2])
        assert _volatility(phi, sigma, v, delta, tau) == pytest.approx(
            _bisected(phi, sigma, v, delta, tau), rel=1e-5
        )


def test_a_win_raises_a_rating_and_a_loss_lowers_it_by_the_odds() -> None:
    player = Rating(1700, 120, 0.06)
    weaker, stronger = Rating(1500, 120), Rating(1900, 120)
    beat_weaker = rate(player, [Outcome(weaker, 1)]).rating - player.rating
    beat_stronger = rate(player, [Outcome(stronger, 1)]).rating - player.rating
    assert 0 < beat_weaker < beat_stronger, "an upset is worth more"
    assert rate(player, [Outcome(stronger, 0)]).rating < player.rating
    assert rate(player, [Outcome(weaker, 1)]).deviation < player.deviation
