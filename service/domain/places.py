"""Finishing places of a finished game, from its winner and final totals.

The winner is first. The others follow by their totals, better in the direction
the winner's total lies: the highest where points are won (Straight Rummy, gin,
500 Rum), the lowest where they are penalties (Indian Rummy's points and pools).
Tied seats share the mean of the places they span. The ratings (service/standings/)
and the bots' arena (service/bots/arena/) rank seats by it.
"""

from __future__ import annotations

from collections.abc import Sequence


def finishing_places(winner: int | None, totals: Sequence[int]) -> list[float]:
    """Each seat's place (1 the winner); in a game without a winner, every seat
    shares the mean place."""
    players = len(totals)
    if winner is None:
        return [(players + 1) / 2] * players
    won = totals[winner]
    lower_wins = won < max(totals)
    places = []
    for seat, mine in enumerate(totals):
        if seat == winner:
            places.append(1.0)
            continue
        others = [total for at, total in enumerate(totals) if at not in (seat, winner)]
        better = sum(1 for total in others if (total < mine if lower_wins else total > mine))
        tied = sum(1 for total in others if total == mine)
        # Behind the winner and those better; among the tied, the mean of their places.
        places.append(2 + better + tied / 2)
    return places
