"""The service's PostgreSQL recorder before 1.0.0: every append under the table lock.

Kept for what only it can show: a database as that recorder left it (the
migration to transaction-ordered positions starts from one), a replica still
running it during a rolling update, and `bench/store.py`'s comparison. It
locks the events table `IN EXCLUSIVE MODE`, sends `NOTIFY` and inserts, in one
plpgsql call run as one statement, so appends commit one at a time in the
order of their sequence numbers. On a migrated table its inserts take the
column's default, a transaction-ordered position, like any other writer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Identifier

from service.store.postgres_waits import reconnecting

FUNCTION = "rummy_insert_events_locked"


class LockedInsertRecorder(PostgresApplicationRecorder):
    """Lock, notify and insert in one statement."""

    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(datastore.schema)
        function = Identifier(FUNCTION)
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
        with self.datastore.get_connection() as connection:
            rows = connection.execute(self.append_statement, (events,), prepare=True).fetchall()
        return [row["notification_id"] for row in rows]
