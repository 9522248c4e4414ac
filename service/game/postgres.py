"""Appending to PostgreSQL in one statement, in commit order.

The library's recorder appends in a transaction of several round trips:
begin, `LOCK TABLE ... IN EXCLUSIVE MODE`, `NOTIFY`, insert, read the
notification ids back, commit. The lock keeps the ids in commit order, so a
reader of the global feed never passes over an id that commits later; but
every append in the database waits for the one holding it, and that one
holds it across its round trips and its Python thread's turn at the
interpreter lock. Its optional insert function (`POSTGRES_ENABLE_DB_FUNCTIONS`)
is one statement but takes no lock, so ids could commit out of order.

`LockedInsertRecorder` keeps every guarantee of the library's recorder (the
same lock, the same `NOTIFY`, `IntegrityError` for a version already stored)
and does it all in one server-side function, run as one statement that
commits at once. The function has a name of its own, so the library's
function, which any process of the library may recreate, is left as it is;
and replicas on either recorder may share a database (during a rolling
update), as both take the same lock.

`Factory` is the library's PostgreSQL store with that recorder and with
bounded waits. The library retries every statement up to ten times, 0.2 s
apart, on any operational error, and each try may wait its whole pool
timeout: with the database down, one request waited 100 s and then failed.
Here a statement is tried again only if its connection was lost (a database
restart leaves every pooled connection dead: the pool is checked, its dead
connections dropped, and the statement runs on a fresh one), at most `TRIES`
times in all; a wait that timed out is not tried again. A write tried again
may meet its own commit, whose reply was lost: the application recognises it
by its command id (`service.game.unit`). New connections give up after
the connect timeout, statements after the statement timeout (lock waits
included), and a lost connection is reopened for `RECONNECT_SECONDS`.

Not bounded: a statement already sent to a server that stops answering while
its connection stays open (frozen, or packets dropped silently): the server
enforces the statement timeout, so the client waits until TCP gives up.

`schema_lock`: the library creates its table, type and insert function each
time an application opens (`CREATE ... IF NOT EXISTS`, `CREATE OR REPLACE
FUNCTION`). Those statements are not safe to run concurrently: replicas or
workers starting together on one database fail with `duplicate key value
violates unique constraint "pg_type_typname_nsp_index"` or `tuple concurrently
updated` (seen here in 12 of 15 rounds of three processes starting at once,
and in 11 of 15 even with the table already there). So every process opens
the store under one PostgreSQL advisory lock per schema: they take turns for
the few milliseconds it takes.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from eventsourcing.utils import Environment, EnvType
from psycopg.sql import SQL, Identifier
from psycopg_pool import PoolTimeout, TooManyRequests

from service.config import CONNECT_TIMEOUT_KEY, STATEMENT_TIMEOUT_KEY, Settings
from service.game.errors import StoreUnavailable

FUNCTION = "rummy_insert_events_locked"

_F = TypeVar("_F", bound=Callable[..., Any])

TRIES = 3
"""How often a statement is tried while its connection is lost. Each new try
follows a failure that took no waiting (a broken connection fails at once), and
none follows a wait that timed out, so the bound of a request stays the pool's
wait; three ride out a connection lost again on its retry (a flaky network)."""

LOCK_WAIT_SECONDS = 60
"""How long a process waits for another to finish opening the store."""

RECONNECT_SECONDS = 5.0
"""How long the pool keeps trying to reopen one lost connection (its waits double:
1, 2, 4 s, ...) before it gives that up and opens one afresh when a request needs
it. The library leaves psycopg's 5 minutes, so after an outage of a minute the
pool could wait half a minute more before it tried again."""

_CONNECTION_GONE = ("08", "57P01", "57P02", "57P03")
"""SQLSTATEs of a lost connection: connection exceptions (class 08), and the
server shutting down or starting up (admin/crash shutdown, cannot connect now)."""


def connection_lost(error: Exception) -> bool:
    """True if `error` (the library's, from a driver's) says the connection broke,
    not that a wait ran out or the server refused the statement."""
    cause = error.__cause__
    if isinstance(cause, PoolTimeout | TooManyRequests):
        return False
    if isinstance(cause, psycopg.Error) and cause.sqlstate is not None:
        return cause.sqlstate.startswith(_CONNECTION_GONE)
    return True  # the driver's own: "server closed the connection unexpectedly", ...


def reconnecting(method: _F) -> _F:
    """The library's `method` without its retries, tried again on a fresh
    connection (up to `TRIES` in all) while its connection is lost."""
    bare = inspect.unwrap(method)

    @functools.wraps(bare)
    def call(self: PostgresAggregateRecorder, *args: Any, **kwargs: Any) -> Any:
        for _ in range(TRIES - 1):
            try:
                return bare(self, *args, **kwargs)
            except (InterfaceError, OperationalError) as error:
                if not connection_lost(error):
                    raise
            # Drop every dead connection at once (after a restart they all are),
            # rather than meeting them one request at a time.
            self.datastore.pool.check()
        return bare(self, *args, **kwargs)

    return cast(_F, call)


class LockedInsertRecorder(PostgresApplicationRecorder):
    """The application recorder for PostgreSQL: lock, notify and insert in one statement."""

    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(datastore.schema)
        function = Identifier(FUNCTION)
        # Rendered once: psycopg would compose the query again on every append.
        self.append_statement = (
            SQL("SELECT notification_id FROM {schema}.{function}(%s) AS appended(notification_id)")
            .format(schema=schema, function=function)
            .as_string()
        )
        self.sql_create_statements[self.create_insert_function_statement_index] = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t "
            "(originator_id, originator_version, topic, state) "
            "SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "RETURNING notification_id; "
            "END; $BODY$"
        ).format(
            schema=schema,
            function=function,
            event=Identifier(self.stored_event_type_name),
            lock_timeout=datastore.lock_timeout,
            table=Identifier(self.events_table_name),
            channel=Identifier(self.channel_name),
        )

    select_events = reconnecting(PostgresApplicationRecorder.select_events)
    select_notifications = reconnecting(PostgresApplicationRecorder.select_notifications)
    max_notification_id = reconnecting(PostgresApplicationRecorder.max_notification_id)

    @reconnecting
    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int]:
        if not stored_events:
            return []
        events = [
            self.construct_pg_stored_event(
                event.originator_id, event.originator_version, event.topic, event.state
            )
            for event in stored_events
        ]
        # The pool's connections are in autocommit: the statement is its own transaction.
        with self.datastore.get_connection() as connection:
            rows = connection.execute(self.append_statement, (events,), prepare=True).fetchall()
        return [row["notification_id"] for row in rows]


class AggregateRecorder(PostgresAggregateRecorder):
    """The library's aggregate recorder (refusals), with the same bounded retry."""

    select_events = reconnecting(PostgresAggregateRecorder.select_events)
    insert_events = reconnecting(PostgresAggregateRecorder.insert_events)


class Factory(PostgresFactory):
    """The library's PostgreSQL store with this service's recorders and bounded waits."""

    application_recorder_class = LockedInsertRecorder
    aggregate_recorder_class = AggregateRecorder

    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        self.datastore.pool.reconnect_timeout = RECONNECT_SECONDS
        # Read by the pool each time it opens a connection (it opens lazily).
        session = self.datastore.pool.kwargs
        assert isinstance(session, dict), "the library gives its pool a dict"
        session["connect_timeout"] = int(self.env.get(CONNECT_TIMEOUT_KEY) or "3")
        statement_ms = int(float(self.env.get(STATEMENT_TIMEOUT_KEY) or "0") * 1000)
        if statement_ms:
            session["options"] = f"-c statement_timeout={statement_ms}"


def lock_key(settings: Settings) -> int:
    """The advisory lock of the schema the events live in, as a signed 64-bit key."""
    name = f"rummy-event-store:{settings.postgres_schema or 'public'}"
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def schema_lock(settings: Settings) -> Iterator[None]:
    """Hold the schema's advisory lock (a session lock on a connection of its own)."""
    try:
        connection = psycopg.connect(
            host=settings.postgres_host,
            port=settings.postgres_port,
            user=settings.postgres_user,
            password=settings.postgres_password,
            dbname=settings.postgres_dbname,
            connect_timeout=settings.postgres_connect_timeout,
            autocommit=True,
            application_name="rummy-startup",
        )
    except psycopg.OperationalError as error:
        raise StoreUnavailable(
            f"cannot connect to {settings.describe_store()}: {str(error).strip()}"
        ) from error
    key = lock_key(settings)
    with connection:
        connection.execute(f"SET statement_timeout = '{LOCK_WAIT_SECONDS}s'")
        connection.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
