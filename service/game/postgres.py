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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

FUNCTION = "rummy_insert_events_locked"


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

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
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
