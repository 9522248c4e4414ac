"""A finished table's effect on its seats' ratings (service/ratings/tables.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from service.ratings.glicko2 import Outcome, Rating, rate
from service.ratings.tables import provisional, rate_table


def test_two_seats_are_plain_glicko2() -> None:
    ann, bob = Rating(1550, 90, 0.06), Rating(1480, 200, 0.07)
    assert rate_table([ann, bob], [1, 2]) == [
        rate(ann, [Outcome(bob, 1)]),
        rate(bob, [Outcome(ann, 0)]),
    ]


def test_a_draw_between_equals_moves_no_rating() -> None:
    after = rate_table([Rating(), Rating()], [1, 1])
    assert [r.rating for r in after] == pytest.approx([1500, 1500])


def test_seats_are_rated_by_finishing_order_from_the_ratings_before_the_game() -> None:
    rng = random.Random(7)
    ratings = [Rating(rng.uniform(1300, 1700), rng.uniform(50, 350)) for _ in range(5)]
    places = [3, 1, 5, 2, 4]
    after = rate_table(ratings, places)
    for seat, rating in enumerate(ratings):
        expected = rate(
            rating,
            [
                Outcome(ratings[other], 1.0 if places[seat] < places[other] else 0.0)
                for other in range(5)
                if other != seat
            ],
        )
        assert after[seat] == expected
    # Whoever sits where: the same result for the same player.
    for order in itertools.permutations(range(5)):
        moved = rate_table([ratings[i] for i in order], [places[i] for i in order])
        for seat, i in enumerate(order):
            assert (moved[seat].rating, moved[seat].deviation, moved[seat].volatility) == (
                pytest.approx((after[i].rating, after[i].deviation, after[i].volatility))
            )


def test_among_equals_the_winner_gains_the_last_loses_and_the_middle_stays() -> None:
    after = rate_table([Rating()] * 3, [1, 2, 3])
    assert after[0].rating > 1500 > after[2].rating
    assert after[1].rating == pytest.approx(1500)


def test_a_table_needs_two_seats_with_places() -> None:
    with pytest.raises(ValueError, match="two seats or more"):
        rate_table([Rating()], [1])
    with pytest.raises(ValueError, match="two seats or more"):
        rate_table([Rating(), Rating()], [1])


def test_a_rating_is_provisional_while_its_deviation_is_above_110() -> None:
    assert provisional(Rating(deviation=110.5))
    assert not provisional(Rating(deviation=110))
