"""The feed: every game's events in commit order, read or followed.

Apart from the application (`service.game.application`), whose verbs act on
one game: the feed reads the notification log of the whole store. The
composition root (service/bootstrap.py) builds one over the application's store
and hands it to what reads it: `GET /feed`, the live streams' watcher and the
webhooks' sender. (Named apart from `service/api/feed.py`, the route.)
"""

from __future__ import annotations

from typing import cast
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import ApplicationRecorder, Mapper, StoredEvent, Subscription

from service.game.event_records import GameEvent
from service.game.results import FeedEntry
from service.store.postgres import read_now


class Feed:
    """Every game's events after a position, as stored by any replica."""

    def __init__(self, recorder: ApplicationRecorder, mapper: Mapper[UUID]) -> None:
        self.recorder = recorder
        self.mapper = mapper

    @classmethod
    def of(cls, store: Application[UUID]) -> Feed:
        """The feed of the store `store` (the application) writes to."""
        return cls(store.recorder, store.mapper)

    def page(self, after: int = 0, limit: int = 100, *, settle: bool = True) -> list[FeedEntry]:
        """Every game's events after position `after`, in commit order. Page with the
        last position seen: positions have gaps, so never count them. Without
        `settle`, PostgreSQL answers at once with what it can read now, rather than
        wait up to a second for events held back behind a write still in flight
        (a follower that reads again soon, as the webhooks' sender does)."""
        notifications = (
            self.recorder.select_notifications(start=after, limit=limit, inclusive_of_start=False)
            if settle
            else read_now(self.recorder, after, limit)
        )
        return [
            FeedEntry(
                position=notification.id,
                game_id=UUID(str(notification.originator_id)),
                event=self.event_of(notification),
            )
            for notification in notifications
        ]

    def event_of(self, notification: StoredEvent) -> GameEvent:
        """The event a notification of `page` or `subscribe` stores."""
        return cast(GameEvent, self.mapper.to_domain_event(notification))

    def last_position(self) -> int:
        """The position of the latest event of any game (0 before the first)."""
        return self.recorder.max_notification_id() or 0

    def subscribe(self, after: int) -> Subscription[ApplicationRecorder] | None:
        """Every game's events after position `after` as they are committed by any
        replica (LISTEN/NOTIFY on PostgreSQL), or None where the store cannot tell
        (SQLite: poll `page`). Iterating blocks; `stop()` ends it."""
        try:
            return self.recorder.subscribe(gt=after)
        except NotImplementedError:
            return None
