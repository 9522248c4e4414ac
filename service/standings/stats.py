"""A player's statistics per variant, from the seats the standings keep.

Counted over finished games (an aborted game has no result: it is counted
apart). `mean_place` is the mean finishing place (1 the winner; ties share);
`mean_points` the mean final total, in the variant's own points (won in
Straight Rummy, gin and 500 Rum, penalties in Indian Rummy). A streak is of
wins: the current one runs back from the latest finished game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Stats:
    variant: str
    format: str | None
    games: int
    """Finished games."""
    wins: int
    mean_place: float | None
    mean_points: float | None
    current_streak: int
    best_streak: int
    aborted: int
    playing: int


def stats_of(seats: Iterable[Mapping[str, Any]]) -> list[Stats]:
    """The statistics of a player's seats (`seat` rows' documents, oldest first),
    one per variant and format, sorted by them."""
    grouped: dict[tuple[str, str | None], list[Mapping[str, Any]]] = {}
    for seat in seats:
        grouped.setdefault((seat["variant"], seat["format"]), []).append(seat)
    return [
        _stats(variant, format_, kept)
        for (variant, format_), kept in sorted(
            grouped.items(), key=lambda item: (item[0][0], item[0][1] or "")
        )
    ]


def _stats(variant: str, format_: str | None, seats: list[Mapping[str, Any]]) -> Stats:
    finished = [seat["result"] for seat in seats if seat["status"] == "finished" and seat["result"]]
    streak = best = 0
    for result in finished:
        streak = streak + 1 if result["won"] else 0
        best = max(best, streak)
    games = len(finished)
    return Stats(
        variant=variant,
        format=format_,
        games=games,
        wins=sum(1 for result in finished if result["won"]),
        mean_place=sum(r["place"] for r in finished) / games if games else None,
        mean_points=sum(r["points"] for r in finished) / games if games else None,
        current_streak=streak,
        best_streak=best,
        aborted=sum(1 for seat in seats if seat["status"] == "aborted"),
        playing=sum(1 for seat in seats if seat["status"] == "playing"),
    )
