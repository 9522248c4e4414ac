"""One finished game's effect on its seats' ratings, whatever the table's size.

Two seats: Glicko-2 as Glickman wrote it, the game one rating period. Three or
more: the same, each seat's period holding one game against each other seat,
scored by the finishing order (ahead 1, level 0.5, behind 0), every seat rated
from the ratings before the game. Chosen over a multiplayer model such as
openskill's so that every table size of a variant moves one rating on one scale
(one leaderboard a variant, its deviation and volatility Glicko-2's); the price
is that a table of N counts as N - 1 games for the deviation, so a big table
makes a rating surer than one two-player game does.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.ratings.glicko2 import TAU, Outcome, Rating, rate

PROVISIONAL_DEVIATION = 110.0
"""A rating is provisional while its deviation is above this (lichess's bound)."""


def rate_table(
    ratings: Sequence[Rating], places: Sequence[float], tau: float = TAU
) -> list[Rating]:
    """Each seat's rating after one game in which seat `i`, rated `ratings[i]`
    before it, finished in place `places[i]` (1 the winner; equal places a tie)."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a rated game has two seats or more, each with its place")
    return [
        rate(
            rating,
            [
                Outcome(ratings[other], _score(places[seat], places[other]))
                for other in range(len(ratings))
                if other != seat
            ],
            tau,
        )
        for seat, rating in enumerate(ratings)
    ]


def provisional(rating: Rating) -> bool:
    """Whether a rating is still provisional (its deviation above 110)."""
    return rating.deviation > PROVISIONAL_DEVIATION


def _score(mine: float, theirs: float) -> float:
    if mine < theirs:
        return 1.0
    return 0.5 if mine == theirs else 0.0
