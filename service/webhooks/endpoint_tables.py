"""Webhook endpoints and their delivery logs in tables beside the events.

`rummy_webhooks` and `rummy_webhook_deliveries` on SQLite and on PostgreSQL:
one set of statements (`_SQLEndpoints`), each store's placeholders, table
creation and transactions. `endpoints_for` picks the keeper of a store's
recorder (in this process's memory for the memory store). What the columns
mean and why an endpoint is leased: `endpoints.py`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.store.postgres_waits import reconnecting
from service.webhooks.endpoints import LOG_KEEP, Attempt, Endpoint, Endpoints, check_changes
from service.webhooks.memory_endpoints import MemoryEndpoints

TABLE = "rummy_webhooks"
LOG_TABLE = "rummy_webhook_deliveries"

_T = TypeVar("_T")
_Run = Callable[[str, Sequence[Any]], list[Mapping[str, Any]]]
"""Runs one statement inside a transaction: its rows."""


def endpoints_for(recorder: Recorder) -> Endpoints:
    """The endpoints kept in `recorder`'s database (in this process's memory for the
    memory store)."""
    if isinstance(recorder, SQLiteRecorder):
        return SQLiteEndpoints(recorder.datastore)
    if isinstance(recorder, PostgresRecorder):
        return PostgresEndpoints(recorder.datastore)
    return MemoryEndpoints()


_COLUMNS = (
    "id",
    "url",
    "secret",
    "events",
    "description",
    "max_failures",
    "created_at",
    "position",
    "failures",
    "last_error",
    "last_attempt_at",
    "last_success_at",
    "disabled_at",
    "next_attempt_at",
    "lease_owner",
    "lease_until",
)
_LOG_COLUMNS = (
    "endpoint_id",
    "position",
    "message_id",
    "event_type",
    "attempt",
    "status",
    "error",
    "duration_ms",
    "at",
)


def _endpoint(row: Mapping[str, Any]) -> Endpoint:
    values = {name: row[name] for name in _COLUMNS}
    events = values["events"]
    values["events"] = None if events is None else tuple(json.loads(events))
    return Endpoint(**values)


def _stored(name: str, value: Any) -> Any:
    if name == "events":
        return None if value is None else json.dumps(list(value))
    return value


def _attempt(row: Mapping[str, Any]) -> Attempt:
    return Attempt(**{name: row[name] for name in _LOG_COLUMNS})


class _SQLEndpoints:
    """The statements both SQL stores share; `_rows` runs one statement as its own
    transaction (with `?` placeholders) and returns its rows as mappings."""

    mark = "?"

    def _write(self, work: Callable[[_Run], _T]) -> _T:
        """`work` in one transaction, given a function that runs a statement in it."""
        raise NotImplementedError

    def _rows(self, statement: str, params: Sequence[Any]) -> list[Mapping[str, Any]]:
        """One statement as its own transaction: its rows."""
        return self._write(lambda run: run(statement, params))

    def _sql(self, statement: str) -> str:
        return statement.replace("?", self.mark).format(t=self.table, log=self.log_table)

    table = TABLE
    log_table = LOG_TABLE
    claim_lock = ""

    def add(self, endpoint: Endpoint) -> None:
        names = ", ".join(_COLUMNS)
        marks = ", ".join("?" for _ in _COLUMNS)
        self._rows(
            self._sql(f"INSERT INTO {{t}} ({names}) VALUES ({marks})"),
            [_stored(name, getattr(endpoint, name)) for name in _COLUMNS],
        )

    def get(self, endpoint_id: str) -> Endpoint | None:
        rows = self._rows(self._sql("SELECT * FROM {t} WHERE id = ?"), [endpoint_id])
        return _endpoint(rows[0]) if rows else None

    def all(self) -> list[Endpoint]:
        rows = self._rows(self._sql("SELECT * FROM {t} ORDER BY created_at, id"), [])
        return [_endpoint(row) for row in rows]

    def change(self, endpoint_id: str, changes: Mapping[str, Any]) -> Endpoint | None:
        check_changes(changes)
        sets = "".join(f"{name} = ?, " for name in changes)
        rows = self._rows(
            self._sql(
                f"UPDATE {{t}} SET {sets}lease_owner = NULL, lease_until = 0 "
                "WHERE id = ? RETURNING *"
            ),
            [*(_stored(name, value) for name, value in changes.items()), endpoint_id],
        )
        return _endpoint(rows[0]) if rows else None

    def remove(self, endpoint_id: str) -> bool:
        self._rows(self._sql("DELETE FROM {log} WHERE endpoint_id = ?"), [endpoint_id])
        rows = self._rows(self._sql("DELETE FROM {t} WHERE id = ? RETURNING id"), [endpoint_id])
        return bool(rows)

    def claim(self, owner: str, now: float, until: float, newest: int) -> Endpoint | None:
        due = (
            "disabled_at IS NULL AND next_attempt_at <= ? AND position < ? "
            "AND (lease_owner IS NULL OR lease_until < ?)"
        )
        # A read first: on SQLite an UPDATE takes the write lock even when nothing is due.
        if not self._rows(
            self._sql(f"SELECT id FROM {{t}} WHERE {due} LIMIT 1"), [now, newest, now]
        ):
            return None
        rows = self._rows(
            self._sql(
                "UPDATE {t} SET lease_owner = ?, lease_until = ? WHERE id = ("
                f"SELECT id FROM {{t}} WHERE {due} ORDER BY next_attempt_at, id LIMIT 1"
                f"{self.claim_lock}) RETURNING *"
            ),
            [owner, until, now, newest, now],
        )
        return _endpoint(rows[0]) if rows else None

    def advance(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        now: float,
        until: float,
        attempts: Sequence[Attempt] = (),
    ) -> bool:
        succeeded = any(attempt.error is None for attempt in attempts)
        last_attempt = attempts[-1].at if attempts else None

        def work(run: _Run) -> bool:
            rows = run(
                self._sql(
                    "UPDATE {t} SET position = ?, "
                    "failures = CASE WHEN ? THEN 0 ELSE failures END, "
                    "last_error = CASE WHEN ? THEN NULL ELSE last_error END, "
                    "last_success_at = CASE WHEN ? THEN ? ELSE last_success_at END, "
                    "last_attempt_at = coalesce(?, last_attempt_at), lease_until = ? "
                    "WHERE id = ? AND lease_owner = ? RETURNING disabled_at"
                ),
                [
                    position,
                    succeeded,
                    succeeded,
                    succeeded,
                    now,
                    last_attempt,
                    until,
                    endpoint_id,
                    owner,
                ],
            )
            if not rows:
                return False
            self._log(run, endpoint_id, attempts)
            return rows[0]["disabled_at"] is None

        return self._write(work)

    def failed(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        attempts: Sequence[Attempt],
        retry_at: float,
        disable: bool,
    ) -> None:
        last = attempts[-1]
        succeeded = [attempt.at for attempt in attempts if attempt.error is None]

        def work(run: _Run) -> None:
            rows = run(
                self._sql(
                    "UPDATE {t} SET position = ?, failures = ?, last_error = ?, "
                    "last_attempt_at = ?, last_success_at = coalesce(?, last_success_at), "
                    "next_attempt_at = ?, disabled_at = CASE WHEN ? THEN ? ELSE disabled_at END, "
                    "lease_owner = NULL, lease_until = 0 WHERE id = ? AND lease_owner = ? "
                    "RETURNING id"
                ),
                [
                    position,
                    last.attempt,
                    last.error,
                    last.at,
                    succeeded[-1] if succeeded else None,
                    retry_at,
                    disable,
                    last.at,
                    endpoint_id,
                    owner,
                ],
            )
            if rows:
                self._log(run, endpoint_id, attempts)

        self._write(work)

    def release(self, endpoint_id: str, owner: str) -> None:
        self._rows(
            self._sql(
                "UPDATE {t} SET lease_owner = NULL, lease_until = 0 "
                "WHERE id = ? AND lease_owner = ?"
            ),
            [endpoint_id, owner],
        )

    def _log(self, run: _Run, endpoint_id: str, attempts: Sequence[Attempt]) -> None:
        if not attempts:
            return
        names = ", ".join(_LOG_COLUMNS)
        row = "(" + ", ".join("?" for _ in _LOG_COLUMNS) + ")"
        run(
            self._sql(f"INSERT INTO {{log}} ({names}) VALUES {', '.join(row for _ in attempts)}"),
            [getattr(attempt, name) for attempt in attempts for name in _LOG_COLUMNS],
        )
        # The newest LOG_KEEP stay: everything below the LOG_KEEP-th newest goes.
        run(
            self._sql(
                "DELETE FROM {log} WHERE endpoint_id = ? AND seq < ("
                "SELECT seq FROM {log} WHERE endpoint_id = ? "
                f"ORDER BY seq DESC LIMIT 1 OFFSET {LOG_KEEP - 1})"
            ),
            [endpoint_id, endpoint_id],
        )

    def attempts(self, endpoint_id: str, limit: int) -> list[Attempt]:
        rows = self._rows(
            self._sql("SELECT * FROM {log} WHERE endpoint_id = ? ORDER BY seq DESC LIMIT ?"),
            [endpoint_id, limit],
        )
        return [_attempt(row) for row in rows]


class SQLiteEndpoints(_SQLEndpoints):
    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (id TEXT PRIMARY KEY, url TEXT NOT NULL, "
                "secret TEXT NOT NULL, events TEXT, description TEXT NOT NULL, "
                "max_failures INTEGER, created_at REAL NOT NULL, position INTEGER NOT NULL, "
                "failures INTEGER NOT NULL DEFAULT 0, last_error TEXT, last_attempt_at REAL, "
                "last_success_at REAL, disabled_at REAL, next_attempt_at REAL NOT NULL "
                "DEFAULT 0, lease_owner TEXT, lease_until REAL NOT NULL DEFAULT 0)"
            )
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {LOG_TABLE} (seq INTEGER PRIMARY KEY "
                "AUTOINCREMENT, endpoint_id TEXT NOT NULL, position INTEGER NOT NULL, "
                "message_id TEXT NOT NULL, event_type TEXT NOT NULL, attempt INTEGER NOT NULL, "
                "status INTEGER, error TEXT, duration_ms REAL NOT NULL, at REAL NOT NULL)"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {LOG_TABLE}_endpoint ON {LOG_TABLE} (endpoint_id, seq)"
            )

    def _write(self, work: Callable[[_Run], _T]) -> _T:
        with self.datastore.transaction(commit=True) as cursor:

            def run(statement: str, params: Sequence[Any]) -> list[Mapping[str, Any]]:
                cursor.execute(statement, tuple(params))
                return list(cursor.fetchall())

            return work(run)


class PostgresEndpoints(_SQLEndpoints):
    """On PostgreSQL; statements are tried again on a fresh connection when theirs
    was lost, as the recorders' are (service/store/postgres.py)."""

    mark = "%s"
    claim_lock = " FOR UPDATE SKIP LOCKED"

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        self.table = Identifier(datastore.schema, TABLE).as_string()
        self.log_table = Identifier(datastore.schema, LOG_TABLE).as_string()
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the tables.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TABLE,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (id text PRIMARY KEY, url text NOT NULL, "
                    "secret text NOT NULL, events text, description text NOT NULL, "
                    "max_failures integer, created_at double precision NOT NULL, "
                    "position bigint NOT NULL, failures integer NOT NULL DEFAULT 0, "
                    "last_error text, last_attempt_at double precision, "
                    "last_success_at double precision, disabled_at double precision, "
                    "next_attempt_at double precision NOT NULL DEFAULT 0, lease_owner text, "
                    "lease_until double precision NOT NULL DEFAULT 0)"
                ).format(Identifier(datastore.schema, TABLE))
            )
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (seq bigserial PRIMARY KEY, "
                    "endpoint_id text NOT NULL, position bigint NOT NULL, "
                    "message_id text NOT NULL, event_type text NOT NULL, "
                    "attempt integer NOT NULL, status integer, error text, "
                    "duration_ms double precision NOT NULL, at double precision NOT NULL)"
                ).format(Identifier(datastore.schema, LOG_TABLE))
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (endpoint_id, seq)").format(
                    Identifier(f"{LOG_TABLE}_endpoint"), Identifier(datastore.schema, LOG_TABLE)
                )
            )

    @reconnecting
    def _write(self, work: Callable[[_Run], _T]) -> _T:
        with self.datastore.transaction(commit=True) as cursor:

            def run(statement: str, params: Sequence[Any]) -> list[Mapping[str, Any]]:
                cursor.execute(statement, tuple(params))
                return list(cursor.fetchall()) if cursor.description is not None else []

            return work(run)
