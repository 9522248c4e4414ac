"""Who may play whom: the rating band, widening with waiting time, and the groups it
allows (pure: no store, no clock but the `now` given).

A ticket's band is ±`band(waited)` rating points around its player's rating:

    band(waited) = min(BAND_START + BAND_STEP * floor(waited / STEP_SECONDS), BAND_MOST)
                 = min(100 + 50 * floor(waited / 10 s), 1000)

Two tickets may share a table when their ratings differ by at most the wider
of their two bands (the one who has waited longer accepts the other); a group
is a table's worth of tickets every two of which may share a table. So a 1500
and a 2200 (700 apart) meet once one of them has waited 120 s.

Groups are formed oldest ticket first: each still free ticket, in the order
they were opened, takes the free tickets nearest its rating that fit the
group, until the table is full (a table's worth), or, once its bots deadline
has passed, whatever fits and bots for the rest (`bot_groups`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

BAND_START = 100.0
BAND_STEP = 50.0
STEP_SECONDS = 10.0
BAND_MOST = 1000.0


def band(waited: float) -> float:
    """The rating points either side a ticket accepts after `waited` seconds."""
    steps = math.floor(max(0.0, waited) / STEP_SECONDS)
    return min(BAND_START + BAND_STEP * steps, BAND_MOST)


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the grouping knows of a waiting ticket."""

    ticket_id: str
    rating: float
    created: float
    bots_at: float | None = None
    bot: str = "basic"


def fits(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether `a` and `b` may share a table at `now`."""
    wider = max(band(now - a.created), band(now - b.created))
    return abs(a.rating - b.rating) <= wider


def groups(tickets: Sequence[Waiting], size: int, now: float) -> list[list[Waiting]]:
    """Full tables of `size` from `tickets` (one pool), each ticket in one at most."""
    return _grouped(tickets, size, now, bots=False)


def bot_groups(tickets: Sequence[Waiting], size: int, now: float) -> list[list[Waiting]]:
    """Tables of fewer than `size` from the tickets whose bots deadline has passed
    (one pool, one bot level), whose empty seats bots fill."""
    due = [ticket for ticket in tickets if ticket.bots_at is not None and ticket.bots_at <= now]
    return _grouped(due, size, now, bots=True)


def _grouped(
    tickets: Sequence[Waiting], size: int, now: float, *, bots: bool
) -> list[list[Waiting]]:
    by_rating = sorted(tickets, key=lambda ticket: (ticket.rating, ticket.ticket_id))
    ratings = [ticket.rating for ticket in by_rating]
    taken: set[str] = set()
    made: list[list[Waiting]] = []
    for anchor in sorted(tickets, key=lambda ticket: (ticket.created, ticket.ticket_id)):
        if anchor.ticket_id in taken:
            continue
        group = [anchor]
        at = bisect.bisect_left(ratings, anchor.rating)
        for other in _nearest(by_rating, ratings, at, anchor.rating):
            if len(group) == size:
                break
            if abs(other.rating - anchor.rating) > BAND_MOST:
                break  # nearest first: no one further fits either
            if other.ticket_id in taken or other is anchor:
                continue
            if all(fits(other, member, now) for member in group):
                group.append(other)
        if len(group) == size or (bots and len(group) < size):
            taken.update(ticket.ticket_id for ticket in group)
            made.append(group)
    return made


def _nearest(
    by_rating: Sequence[Waiting], ratings: Sequence[float], at: int, rating: float
) -> Iterator[Waiting]:
    """The tickets in order of their distance from `rating` (`at` where it falls in
    `ratings`), walking out both ways; nearest first."""
    low, high = at - 1, at
    while low >= 0 or high < len(by_rating):
        if low < 0 or (high < len(by_rating) and ratings[high] - rating <= rating - ratings[low]):
            yield by_rating[high]
            high += 1
        else:
            yield by_rating[low]
            low -= 1
