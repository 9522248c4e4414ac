"""The feed position of a projection kept beside the events (the lobby, the players'
standings): one row of a table of its own, moved only from the position read.

`moved(cursor, start, end)` is the compare-and-set both take first in the
transaction that changes their rows: it moves the position from `start` to `end`,
or, when another reader moved it first, changes nothing and says so. The write
comes first so that the rows read after it cannot change before the commit (on
SQLite it takes the database's write lock; on PostgreSQL the row's lock, which
another replica's advance then waits for).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresDatastore
from eventsourcing.sqlite import SQLiteDatastore
from psycopg.sql import SQL, Identifier


class SQLitePosition:
    def __init__(self, table: str) -> None:
        self.table = table

    def create(self, cursor: Any) -> None:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {self.table} "
            "(id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL)"
        )
        cursor.execute(f"INSERT OR IGNORE INTO {self.table} VALUES (1, 0)")

    def read(self, datastore: SQLiteDatastore) -> int:
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT position FROM {self.table} WHERE id = 1")
            return int(cursor.fetchone()[0])

    def moved(self, cursor: Any, start: int, end: int) -> bool:
        cursor.execute(
            f"UPDATE {self.table} SET position = ? WHERE id = 1 AND position = ? RETURNING id",
            (end, start),
        )
        return cursor.fetchone() is not None


class PostgresPosition:
    def __init__(self, schema: str, table: str) -> None:
        position = Identifier(schema, table)
        self._create = SQL(
            "CREATE TABLE IF NOT EXISTS {} (id integer PRIMARY KEY CHECK (id = 1), "
            "position bigint NOT NULL)"
        ).format(position)
        self._first = SQL("INSERT INTO {} VALUES (1, 0) ON CONFLICT (id) DO NOTHING").format(
            position
        )
        self._read = SQL("SELECT position FROM {} WHERE id = 1").format(position)
        self._move = SQL(
            "UPDATE {} SET position = %s WHERE id = 1 AND position = %s RETURNING id"
        ).format(position)

    def create(self, cursor: Any) -> None:
        """Make the table and its row. Call it before `CREATE INDEX IF NOT EXISTS` on the
        table the position follows: that takes the table's SHARE lock even when the
        index is there, and a running replica's projector updates this row and then
        writes that table. Holding the lock while waiting on the row deadlocked two
        replicas opening the store (tests/scale)."""
        cursor.execute(self._create)
        cursor.execute(self._first)

    def read(self, datastore: PostgresDatastore) -> int:
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(self._read)
            return int(cursor.fetchone()["position"])  # type: ignore[index]

    def moved(self, cursor: Any, start: int, end: int) -> bool:
        cursor.execute(self._move, (end, start))
        return cursor.fetchone() is not None
