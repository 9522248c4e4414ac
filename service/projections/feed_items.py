"""The feed's items: every game's events in commit order, each as the admin sees it.

`GET /feed` answers a page of them (service/api/routes/feed.py) and the webhooks'
sender reads the same pages (service/webhooks/reader.py), so a webhook carries
exactly what the feed shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol
from uuid import UUID

import msgspec

from service.domain.rules import RuleSet
from service.projections.chain_heads import ChainHeads, GameEvents
from service.projections.event_views import EventView, StoredEvent, event_view
from service.projections.views import ADMIN


class FeedItem(msgspec.Struct, kw_only=True):
    position: int
    """The event's place in the commit order of all games: grows, skips numbers (by a
    lot on PostgreSQL), stays below 2**53."""
    game_id: str
    event: EventView
    """The event as the admin sees it in `listEvents` (`version` is its place in its game)."""


class FeedPage(msgspec.Struct, kw_only=True):
    events: list[FeedItem]
    next_after: int
    """Ask for `after=next_after` next: the position of the last event here (or `after`
    if there is none). Positions have gaps, so never compute a cursor by counting."""
    last_position: int
    """The newest position now; you have read to the end when `next_after` reaches it."""


class FeedEntry(Protocol):
    """One event of the feed as the application reads it (`game.results.FeedEntry`)."""

    @property
    def position(self) -> int: ...
    @property
    def game_id(self) -> UUID: ...
    @property
    def event(self) -> StoredEvent: ...


class FeedSource(Protocol):
    """What the feed is read from (`game.event_feed.Feed`)."""

    def last_position(self) -> int: ...
    def page(
        self, after: int = 0, limit: int = 100, *, settle: bool = True
    ) -> Sequence[FeedEntry]: ...


def feed_page(
    feed: FeedSource, setups: Setups, after: int, limit: int, *, settle: bool = True
) -> FeedPage:
    """The feed's events after position `after`, as the admin sees them; `setups`
    may carry the games' setups over from one page to the next; `settle` as
    `Feed.page` says."""
    last_position = feed.last_position()
    entries = feed.page(after, limit, settle=settle)
    return FeedPage(
        events=[
            FeedItem(
                position=entry.position,
                game_id=str(entry.game_id),
                event=event_view(entry.event, ADMIN, *setups.of(entry), setups.chain(entry)),
            )
            for entry in entries
        ],
        next_after=entries[-1].position if entries else after,
        last_position=max(last_position, entries[-1].position if entries else 0),
    )


class Setups:
    """The rules and seat count of each game in a page (a view of a deal needs them),
    which never change: a game's first event is read once."""

    def __init__(self, games: GameEvents, heads: ChainHeads | None = None) -> None:
        self.games = games
        self.known: dict[UUID, tuple[RuleSet, int]] = {}
        self.heads = heads if heads is not None else ChainHeads()
        """The live heads (service/projections/chain_heads.py): the process's, or the
        reader's own, kept from one page to the next."""

    def chain(self, entry: FeedEntry) -> str:
        """The live chain head after the entry's event."""
        return self.heads.after(self.games, entry.game_id, [entry.event])[0]

    def of(self, entry: FeedEntry) -> tuple[RuleSet, int]:
        found = self.known.get(entry.game_id)
        if found is None:
            created: Any = entry.event
            if created.event_type != "game_created":
                created = self.games.events_after(entry.game_id, 0, 1)[0]
            data = created.data()
            found = (RuleSet.from_dict(data["rules"]), len(data["seats"]))
            self.known[entry.game_id] = found
        return found
