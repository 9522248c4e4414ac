"""Appending to PostgreSQL without a lock, the feed kept in commit order.

The library's recorder appends in a transaction of several round trips:
begin, `LOCK TABLE ... IN EXCLUSIVE MODE`, `NOTIFY`, insert, read the
notification ids back, commit. The lock keeps the ids in commit order, so a
reader of the global feed never passes over an id that commits later; but
every append in the database waits for the one holding it, and that one
holds it across its round trips and its commit's flush to disk (the service
until 1.0.0 did the same in one statement: `tests/store/locked_recorder.py`).

`TransactionOrderRecorder` appends with one `INSERT` and no lock, so appends
run side by side and share their flushes. An event's position is made from
its transaction's id, and readers of the feed read only below the oldest
transaction still in flight (`service.store.feed_order` says how and why that
keeps every guarantee); events committed above it are held back for as long
as that transaction runs, a millisecond or two as a rule. A read of the feed
waits up to `SETTLE_SECONDS` for them, so an event appended before the read
is in it as before. The `NOTIFY` that tells other replicas of new events is
sent after the append, by a thread of its own (`feed_order.Wakeups`), and the
subscription also polls, fast while events are held back.
`IntegrityError` for a version already stored is as before.

`Factory` is the library's PostgreSQL store with that recorder and with
bounded waits (`postgres_waits.py`: retries only on a lost connection, a
bound on every wait for the server's reply). Processes open it one at a time
(`schema_lock.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import monotonic, sleep
from typing import Any, TypeVar

from eventsourcing.persistence import (
    ApplicationRecorder,
    Notification,
    ProgrammingError,
    ShutDown,
    StoredEvent,
    Subscription,
)
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
    PostgresSubscription,
)
from eventsourcing.utils import Environment, EnvType
from psycopg.sql import SQL

from service.config import (
    CONNECT_TIMEOUT_KEY,
    REPLY_TIMEOUT_KEY,
    STATEMENT_TIMEOUT_KEY,
)
from service.store.feed_order import MAX_PLACE, FeedSchema, Wakeups, migrate
from service.store.postgres_waits import (
    DEFAULT_REPLY_SECONDS,
    RECONNECT_SECONDS,
    reconnecting,
    silent_after,
)

SETTLE_SECONDS = 1.0
"""How long a read of the feed waits for events held back behind a transaction
older than theirs (`feed_page`): as a rule such a transaction is an append
that ends within milliseconds; one that stays open longer delays the feed."""
SETTLE_FIRST_PAUSE = 0.001
SETTLE_LONGEST_PAUSE = 0.02

WAKE_INTERVAL_SECONDS = 0.01
"""At most one `NOTIFY` this often per process (`feed_order.Wakeups`): one append
alone is told at once, a busy process's appends together."""

HELD_BACK_POLL_SECONDS = 0.005
"""How soon a subscription reads again while events are held back; the pause
doubles while they stay held back, up to `HELD_BACK_POLL_LONGEST`."""
HELD_BACK_POLL_LONGEST = 0.25
IDLE_POLL_SECONDS = 2.0
"""How long a subscription waits for a `NOTIFY` before it reads anyway."""


@dataclass(frozen=True, slots=True)
class PositionPage:
    """Events of the feed after a position, and whether more wait behind the horizon."""

    notifications: list[Notification]
    held_back: bool
    """Events were committed past this page that cannot be read yet: a transaction
    older than theirs is still in flight (`service.store.feed_order`)."""


class TransactionOrderRecorder(PostgresApplicationRecorder):
    """The application recorder for PostgreSQL: appends without a lock, positions in
    transaction order, the feed read below the oldest transaction in flight."""

    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.feed = FeedSchema(datastore.schema, self.events_table_name, self.channel_name)
        table = self.feed.qualified
        # Rendered once: psycopg would compose the query again on every call.
        self._append_statements: dict[int, str] = {}
        self.newest_statement = (
            SQL(
                "SELECT max(notification_id) AS readable FROM {table} "
                "WHERE notification_id < {horizon}()"
            )
            .format(table=table, horizon=self.feed.horizon)
            .as_string()
        )
        self._page_statements: dict[tuple[bool, bool, bool], str] = {}
        # The library's insert function (no lock, positions from a sequence) is not made.
        del self.sql_create_statements[self.create_insert_function_statement_index]
        self.wakeups = Wakeups(datastore, self.channel_name, WAKE_INTERVAL_SECONDS)

    select_events = reconnecting(PostgresApplicationRecorder.select_events)

    def create_table(self) -> None:
        super().create_table()
        migrate(self.datastore, self.feed)

    @reconnecting
    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int]:
        if not stored_events:
            return []
        if len(stored_events) > MAX_PLACE:
            raise ProgrammingError(
                f"one transaction may append at most {MAX_PLACE} events, not {len(stored_events)}"
            )
        params = [
            value
            for event in stored_events
            for value in (event.originator_id, event.originator_version, event.topic, event.state)
        ]
        # The pool's connections are in autocommit: the statement is its own transaction.
        with self.datastore.get_connection() as connection:
            rows = connection.execute(
                self._append_statement(len(stored_events)), params, prepare=True
            ).fetchall()
        self.wakeups.want()
        return [row["notification_id"] for row in rows]

    def _append_statement(self, events: int) -> str:
        """An INSERT of `events` rows (plain values: cheaper to send than an array of
        the composite type), each with its position from its place in the append."""
        found = self._append_statements.get(events)
        if found is None:
            found = (
                SQL(
                    "INSERT INTO {table} "
                    "(originator_id, originator_version, topic, state, notification_id) "
                    "VALUES {rows} RETURNING notification_id"
                )
                .format(
                    table=self.feed.qualified,
                    rows=SQL(", ").join(
                        SQL("(%s, %s, %s, %s, {}({}))").format(self.feed.position, place)
                        for place in range(1, events + 1)
                    ),
                )
                .as_string()
            )
            self._append_statements[events] = found
        return found

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        """The library's page of the feed, read below the horizon; waits up to
        `SETTLE_SECONDS` for events held back behind it (a read sees what was
        appended before it, unless an older transaction stays open that long)."""
        return settled(
            lambda: self.feed_page(
                start, limit, stop, topics, inclusive_of_start=inclusive_of_start
            ),
            lambda page: page.held_back and len(page.notifications) < limit,
        ).notifications

    @reconnecting
    def feed_page(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = False,
    ) -> PositionPage:
        """Up to `limit` events after `start` (or from it, if inclusive) that no
        event still to commit can precede, in feed order."""
        params: dict[str, Any] = {"start": start or 0, "limit": limit}
        inclusive = inclusive_of_start and start is not None
        if stop is not None:
            params["stop"] = stop
        if topics:
            params["topics"] = list(topics)
        statement = self._page_statement(inclusive, stop is not None, bool(topics))
        with self.datastore.get_connection() as connection:
            rows = connection.execute(statement, params, prepare=True).fetchall()
        horizon, newest = rows[0]["horizon"], rows[0]["newest"]
        return PositionPage(
            notifications=[
                Notification(
                    id=row["notification_id"],
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in rows
                if row["notification_id"] is not None
            ],
            held_back=newest is not None
            and newest >= horizon
            and (stop is None or stop >= horizon),
        )

    @reconnecting
    def max_notification_id(self) -> int | None:
        """The newest position a reader can read now (no wait: whatever is held back
        is above it, so a follower that starts there misses nothing)."""
        with self.datastore.get_connection() as connection:
            row = connection.execute(self.newest_statement, prepare=True).fetchone()
        assert row is not None, "the query returns one row"
        readable: int | None = row["readable"]
        return readable

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return FeedSubscription(recorder=self, gt=gt, topics=topics)

    def close(self) -> None:
        """Stop sending wake-ups (the factory closes it with the pool)."""
        self.wakeups.close()

    def _page_statement(self, inclusive: bool, stop: bool, topics: bool) -> str:
        key = (inclusive, stop, topics)
        found = self._page_statements.get(key)
        if found is None:
            conditions = [
                SQL("notification_id >= %(start)s" if inclusive else "notification_id > %(start)s"),
                SQL("notification_id < h.horizon"),
            ]
            if stop:
                conditions.append(SQL("notification_id <= %(stop)s"))
            if topics:
                conditions.append(SQL("topic = ANY(%(topics)s)"))
            found = (
                SQL(
                    "SELECT h.horizon, h.newest, e.* FROM (SELECT {horizon}() AS horizon, "
                    "(SELECT max(notification_id) FROM {table}) AS newest) AS h "
                    "LEFT JOIN LATERAL (SELECT notification_id, originator_id, "
                    "originator_version, topic, state FROM {table} WHERE {conditions} "
                    "ORDER BY notification_id LIMIT %(limit)s) AS e ON true "
                    "ORDER BY e.notification_id"
                )
                .format(
                    horizon=self.feed.horizon,
                    table=self.feed.qualified,
                    conditions=SQL(" AND ").join(conditions),
                )
                .as_string()
            )
            self._page_statements[key] = found
        return found


_T = TypeVar("_T")


def read_now(
    recorder: ApplicationRecorder, after: int, limit: int, topics: Sequence[str] = ()
) -> Sequence[Notification]:
    """Up to `limit` notifications after position `after` that can be read now: on
    PostgreSQL those below the feed's horizon, without waiting (as `GET /feed` does,
    up to `SETTLE_SECONDS`) for the ones held back behind a write still in flight.
    For the feed's followers that read again soon (the lobby, the clocks' keeper,
    the webhooks' sender): what is held back now is read next time."""
    if isinstance(recorder, TransactionOrderRecorder):
        return recorder.feed_page(
            after, limit, None, topics, inclusive_of_start=False
        ).notifications
    return recorder.select_notifications(
        start=after, limit=limit, topics=topics, inclusive_of_start=False
    )


def settled(read: Callable[[], _T], held_back: Callable[[_T], bool]) -> _T:
    """`read()`, read again after short pauses while `held_back` says events wait
    behind the horizon, for up to `SETTLE_SECONDS`; the last read."""
    deadline = monotonic() + SETTLE_SECONDS
    pause = SETTLE_FIRST_PAUSE
    while True:
        found = read()
        if not held_back(found) or monotonic() + pause > deadline:
            return found
        sleep(pause)
        pause = min(2 * pause, SETTLE_LONGEST_PAUSE)


class FeedSubscription(PostgresSubscription):
    """The library's subscription (`LISTEN`, then read the feed after the last
    position), reading pages that say whether events are held back: then it
    reads again after `HELD_BACK_POLL_SECONDS`, a pause that doubles up to
    `HELD_BACK_POLL_LONGEST` while nothing new comes (the transaction holding
    them back may send no `NOTIFY`); otherwise after the next `NOTIFY`, or
    `IDLE_POLL_SECONDS` at the latest (a wake-up lost with its process)."""

    def __init__(
        self, recorder: TransactionOrderRecorder, gt: int | None = None, topics: Sequence[str] = ()
    ) -> None:
        self._feed = recorder
        self._held_back = False
        self._read_some = False
        super().__init__(recorder=recorder, gt=gt, topics=topics)

    def _loop_on_pull(self) -> None:
        try:
            self._pull()
            pause = HELD_BACK_POLL_SECONDS
            while not self._has_been_stopped:
                if self._held_back:
                    self._has_been_notified.wait(pause)
                    pause = min(2 * pause, HELD_BACK_POLL_LONGEST)
                else:
                    self._has_been_notified.wait(IDLE_POLL_SECONDS)
                self._pull()
                if self._read_some:
                    pause = HELD_BACK_POLL_SECONDS
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()

    def _pull(self) -> None:
        """Read what there is to read (the library's loop)."""
        self._read_some = False
        while not self._has_been_stopped:
            self._has_been_notified.clear()
            page = self._feed.feed_page(
                self._last_notification_id or 0, self._select_limit, topics=self._topics
            )
            self._held_back = page.held_back
            if page.notifications:
                try:
                    self._notifications_queue.put(page.notifications)
                except ShutDown:
                    break
                self._last_notification_id = page.notifications[-1].id
                self._read_some = True
            if len(page.notifications) < self._select_limit:
                break


class AggregateRecorder(PostgresAggregateRecorder):
    """The library's aggregate recorder (refusals), with the same bounded retry."""

    select_events = reconnecting(PostgresAggregateRecorder.select_events)
    insert_events = reconnecting(PostgresAggregateRecorder.insert_events)


class Factory(PostgresFactory):
    """The library's PostgreSQL store with this service's recorders and bounded waits."""

    application_recorder_class = TransactionOrderRecorder
    aggregate_recorder_class = AggregateRecorder

    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        self.datastore.pool.reconnect_timeout = RECONNECT_SECONDS
        self.datastore.pool.connection_class = silent_after(
            float(self.env.get(REPLY_TIMEOUT_KEY) or "0") or DEFAULT_REPLY_SECONDS
        )
        # Read by the pool each time it opens a connection (it opens lazily).
        session = self.datastore.pool.kwargs
        assert isinstance(session, dict), "the library gives its pool a dict"
        session["connect_timeout"] = int(self.env.get(CONNECT_TIMEOUT_KEY) or "3")
        statement_ms = int(float(self.env.get(STATEMENT_TIMEOUT_KEY) or "0") * 1000)
        if statement_ms:
            session["options"] = f"-c statement_timeout={statement_ms}"
        self._recorders: list[TransactionOrderRecorder] = []

    def application_recorder(self) -> ApplicationRecorder:
        recorder = super().application_recorder()
        if isinstance(recorder, TransactionOrderRecorder):
            self._recorders.append(recorder)
        return recorder

    def close(self) -> None:
        for recorder in self._recorders:
            recorder.close()
        super().close()
