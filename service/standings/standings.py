"""Players' standings across games: recall, statistics, ratings and leaderboards.

A projection of the feed, never the source of truth: its rows
(service/store/standing_rows.py) are caught up from the feed's creations,
joins and endings (`fold`) by whoever reads them, as the lobby is, and a
`rebuild` from position 0 into another table gives the same rows. Players are
named by pseudonym here; the API turns a `platform:player` into its pseudonym
and back (service/players/).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper, Recorder
from eventsourcing.utils import get_topic

from service.ratings.tables import PROVISIONAL_DEVIATION
from service.standings.fold import RATING, SEAT, TOPICS, fold, rating_group
from service.standings.stats import Stats, stats_of
from service.store.postgres import read_now
from service.store.standing_rows import TABLE, Row, rows_for

BATCH = 500
"""Notifications read in one step of a catch-up."""
MAX_BATCHES = 20
"""Steps one read takes at most (a store with many games stored before the
standings existed is read into them over the first reads)."""
TOPIC_NAMES = tuple(get_topic(kind) for kind in TOPICS)
"""The topics of the events the standings read from the feed."""


@dataclass(frozen=True, slots=True)
class Recalled:
    """One game of a player's recall."""

    game_id: UUID
    seat: int
    variant: str
    rules: dict[str, Any]
    status: str
    result: dict[str, Any] | None
    finished_at: int | None
    """Unix milliseconds, None while the game is played."""


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating in one variant (and Indian format)."""

    pseudonym: str
    variant: str
    format: str | None
    rating: float
    deviation: float
    volatility: float
    games: int

    @property
    def provisional(self) -> bool:
        """While the deviation is above 110 (service/ratings/tables.py)."""
        return self.deviation > PROVISIONAL_DEVIATION


Cursor = tuple[float, str]
"""Where a page ended: the last row's (`sort`, `key`)."""


class Standings:
    """The standings of one application, kept in its event store's database."""

    def __init__(self, recorder: Recorder, mapper: Mapper[UUID], table: str = TABLE) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.rows = rows_for(recorder, table)

    def catch_up(self) -> None:
        """Fold the creations, joins and endings stored since the rows' position."""
        for _ in range(MAX_BATCHES):
            start = self.rows.position()
            notifications = read_now(
                cast(ApplicationRecorder, self.recorder), start, BATCH, TOPIC_NAMES
            )
            if not notifications:
                return
            events = [self.mapper.to_domain_event(note) for note in notifications]
            moved = self.rows.advance(start, notifications[-1].id, partial(fold, events=events))
            if moved and len(notifications) < BATCH:
                return
            # Not moved: another reader moved the position first; read on from there.

    def recall(
        self, pseudonym: str, limit: int, after: Cursor | None = None
    ) -> tuple[list[Recalled], Cursor | None]:
        """A player's games, newest first: one page, and where the next begins."""
        self.catch_up()
        rows = self.rows.listed(SEAT, pseudonym, limit + 1, after)
        return [_recalled(row) for row in rows[:limit]], _next(rows, limit)

    def stats(self, pseudonym: str) -> list[Stats]:
        """A player's statistics per variant (and Indian format), from every game of
        theirs the standings follow."""
        self.catch_up()
        rows: list[Row] = []
        after: Cursor | None = None
        while True:
            page = self.rows.listed(SEAT, pseudonym, BATCH, after)
            rows += page
            if len(page) < BATCH:
                break
            after = (page[-1].sort, page[-1].key)
        return stats_of([row.doc for row in reversed(rows)])

    def ratings(self, pseudonym: str) -> list[Rated]:
        """A player's ratings, one per variant (and Indian format) played rated."""
        self.catch_up()
        found = [_rated(row) for row in self.rows.keyed(RATING, pseudonym)]
        return sorted(found, key=lambda rated: (rated.variant, rated.format or ""))

    def leaderboard(
        self, variant: str, format_: str | None, limit: int, after: Cursor | None = None
    ) -> tuple[list[Rated], Cursor | None]:
        """A variant's (and format's) ratings, highest first: one page, and where the
        next begins (a page ends at a rating and a pseudonym, so a rating that moves
        meanwhile never makes another player appear twice or not at all)."""
        self.catch_up()
        rows = self.rows.listed(RATING, rating_group(variant, format_), limit + 1, after)
        return [_rated(row) for row in rows[:limit]], _next(rows, limit)


def _next(rows: Sequence[Row], limit: int) -> Cursor | None:
    if len(rows) <= limit:
        return None
    last = rows[limit - 1]
    return (last.sort, last.key)


def _recalled(row: Row) -> Recalled:
    doc = row.doc
    return Recalled(
        game_id=UUID(hex=row.key),
        seat=doc["seat"],
        variant=doc["variant"],
        rules=doc["rules"],
        status=doc["status"],
        result=doc["result"],
        finished_at=doc["finished_at"],
    )


def _rated(row: Row) -> Rated:
    doc = row.doc
    return Rated(
        pseudonym=row.key,
        variant=doc["variant"],
        format=doc["format"],
        rating=doc["rating"],
        deviation=doc["deviation"],
        volatility=doc["volatility"],
        games=doc["games"],
    )
