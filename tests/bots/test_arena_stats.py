"""The arena's statistics, checked against figures computed here another way:
closed forms and a brute-force maximum likelihood for the SPRT, the textbook
Elo table, and coverage of the Elo interval on games of a known strength."""

from __future__ import annotations

import math
from random import Random

import pytest

from service.bots.arena.stats import (
    INTERVAL_STOP_ROUNDS,
    REGULARIZE,
    Decision,
    Sprt,
    elo_for_score,
    estimate,
    interval_verdict,
    score_for_elo,
)

BOUND = math.log(0.95 / 0.05)


def test_elo_is_the_logistic_one_at_two_seats_and_luce_at_more():
    # The Elo table: 200 points is a 75.97% expected score, 0 is even.
    assert score_for_elo(200) == pytest.approx(0.7597, abs=1e-4)
    assert score_for_elo(0, players=4) == pytest.approx(0.25)
    for players in (2, 3, 5):
        for elo in (-300.0, -20.0, 0.0, 75.0, 600.0):
            assert elo_for_score(score_for_elo(elo, players), players) == pytest.approx(elo)
    assert elo_for_score(1.0) == math.inf
    assert elo_for_score(0.0) == -math.inf


def _two_point_llr(rounds: int, perfect: bool, sprt: Sprt) -> float:
    """All rounds scoring 1 (or 0): only the extremes carry weight, and a
    distribution on {0, 1} with mean s is (1-s, s), so the fitted likelihoods
    are closed forms."""
    seen = (rounds + REGULARIZE) / (rounds + 2 * REGULARIZE)
    other = REGULARIZE / (rounds + 2 * REGULARIZE)
    p1, p0 = (seen, other) if perfect else (other, seen)
    s0, s1 = score_for_elo(sprt.elo0), score_for_elo(sprt.elo1)
    return rounds * (p1 * math.log(s1 / s0) + p0 * math.log((1 - s1) / (1 - s0)))


@pytest.mark.parametrize(("perfect", "wanted"), [(True, Decision.H1), (False, Decision.H0)])
def test_all_wins_accept_h1_and_all_losses_h0_exactly_when_the_closed_form_says(
    perfect: bool, wanted: Decision
):
    sprt = Sprt(elo0=0, elo1=50)
    score = 1.0 if perfect else 0.0
    first = next(n for n in range(1, 500) if abs(_two_point_llr(n, perfect, sprt)) >= BOUND)
    for rounds in range(1, first + 3):
        llr = sprt.llr([score] * rounds)
        assert llr == pytest.approx(_two_point_llr(rounds, perfect, sprt), rel=1e-6)
        assert sprt.verdict(llr) is (wanted if rounds >= first else Decision.OPEN), rounds
    # All wins at elo1 50 take about ln(19) / ln(s1/s0) rounds: not one batch.
    assert first > 16


def _brute_force_llr(counts: dict[float, int], sprt: Sprt) -> float:
    """Pairs scoring 0, ½ or 1: a distribution (q0, q½, q1) with mean s has one
    free parameter t = q1 (q½ = 2(s - t), q0 = 1 - 2s + t); its log-likelihood
    is concave in t, maximized here by ternary search."""
    total = sum(counts.values()) + 3 * REGULARIZE
    p = {value: (counts.get(value, 0) + REGULARIZE) / total for value in (0.0, 0.5, 1.0)}

    def best(s: float) -> float:
        def loglik(t: float) -> float:
            q = {1.0: t, 0.5: 2 * (s - t), 0.0: 1 - 2 * s + t}
            return sum(p[v] * math.log(q[v]) for v in p)

        low, high = max(0.0, 2 * s - 1) + 1e-12, s - 1e-12
        for _ in range(300):
            a, b = low + (high - low) / 3, high - (high - low) / 3
            if loglik(a) < loglik(b):
                low = a
            else:
                high = b
        return loglik((low + high) / 2)

    rounds = sum(counts.values())
    return rounds * (best(score_for_elo(sprt.elo1)) - best(score_for_elo(sprt.elo0)))


@pytest.mark.parametrize(
    "counts",
    [{0.0: 10, 0.5: 30, 1.0: 20}, {0.0: 25, 0.5: 50, 1.0: 25}, {0.5: 40, 1.0: 3}],
)
def test_the_llr_is_the_maximum_likelihood_ratio_found_by_brute_force(counts: dict[float, int]):
    sprt = Sprt(elo0=0, elo1=40)
    scores = [value for value, count in counts.items() for _ in range(count)]
    assert sprt.llr(scores) == pytest.approx(_brute_force_llr(counts, sprt), abs=1e-6)


def test_pairs_that_always_split_are_no_difference():
    sprt = Sprt(elo0=0, elo1=50)
    # Each deal won once each way: the score is exactly even, with no noise at all.
    assert sprt.verdict(sprt.llr([0.5] * 40)) is Decision.H0


def test_a_level_at_h1_is_accepted_and_one_at_h0_rejected_most_of_the_time():
    sprt = Sprt(elo0=0, elo1=100)
    rng = Random("sprt")
    # Looked at every 8 rounds, as the arena looks after each batch.

    def run(elo: float) -> Decision:
        chance = score_for_elo(elo)
        scores: list[float] = []
        while True:
            scores += [sum(rng.random() < chance for _ in range(2)) / 2 for _ in range(8)]
            verdict = sprt.verdict(sprt.llr(scores))
            if verdict is not Decision.OPEN:
                return verdict

    at_h1 = [run(100) for _ in range(40)]
    at_h0 = [run(0) for _ in range(40)]
    # alpha = beta = 5%: wrong verdicts are rare (6 of 40 is beyond 99.9% here).
    assert at_h1.count(Decision.H0) <= 6
    assert at_h0.count(Decision.H1) <= 6


def test_the_elo_interval_covers_the_true_elo_about_95_percent_of_the_time():
    rng = Random("coverage")
    truth = 120.0
    chance = score_for_elo(truth)
    covered = 0
    trials = 100
    for trial in range(trials):
        scores = [sum(rng.random() < chance for _ in range(2)) / 2 for _ in range(150)]
        found = estimate(scores, 2, 300, seed=f"coverage/{trial}", resamples=300)
        assert found.elo_low <= found.elo <= found.elo_high
        covered += found.elo_low <= truth <= found.elo_high
    # 95% nominal; with 100 trials anything from 87 up is within the binomial's noise.
    assert covered >= 87, covered


def test_all_wins_give_a_one_sided_interval_never_a_point():
    found = estimate([1.0] * 24, 2, 48, seed="edge")
    assert found.high == 1
    assert found.elo_high == math.inf
    assert found.low == pytest.approx(0.025 ** (1 / 24))
    assert math.isfinite(found.elo)
    assert found.elo > found.elo_low > 0


def test_the_interval_stop_waits_for_enough_rounds_and_is_strict():
    assert interval_verdict([1.0, 0.5] * 20, 0.5) is Decision.OPEN  # too few rounds yet
    many = [1.0, 0.5] * INTERVAL_STOP_ROUNDS
    assert interval_verdict(many, 0.5) is Decision.ABOVE
    assert interval_verdict([0.0, 0.5] * INTERVAL_STOP_ROUNDS, 0.5) is Decision.BELOW
    # Barely above even: a 95% interval would clear 50%, the 99.9% one does not.
    slight = [1.0] * 60 + [0.0] * 40
    assert interval_verdict(slight, 0.5) is Decision.OPEN


def test_the_interval_stop_compares_with_h0_s_score():
    # 63% of 150 rounds is clearly above 50% but not clearly above 60%: a run
    # asking about 60% (`--elo0 70`) must not stop on it.
    scores = [1.0] * 95 + [0.0] * 55
    assert interval_verdict(scores, Sprt().baseline()) is Decision.ABOVE
    sixty = Sprt(elo0=70, elo1=120)
    assert sixty.baseline() == pytest.approx(0.599, abs=0.001)
    assert interval_verdict(scores, sixty.baseline()) is Decision.OPEN
    assert interval_verdict([1.0] * 90 + [0.0] * 10, sixty.baseline()) is Decision.ABOVE
    assert interval_verdict([1.0] * 30 + [0.0] * 70, sixty.baseline()) is Decision.BELOW
    # At four seats and elo0 0, H0's score is the 1/N baseline.
    assert Sprt().baseline(4) == pytest.approx(0.25)
