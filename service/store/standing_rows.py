"""The rows of players' standings, kept beside the events: one generic table.

A projection of the feed (service/standings/) keeps three kinds of row here:
the games it follows, each vouched-for seat's game (a recall), and each
player's rating per variant and format. A row is a JSON document under a
`kind`, a `grp` (the group it is listed in: a pseudonym's games, a variant's
ratings), a `key` unique in its group, and a number `sort` it is listed by.
One table in every store (memory, the SQLite file, the PostgreSQL schema of
the event store, as the lobby is kept: service/store/lobby_store.py), so a new
kind of standing is a new `kind`, not a new table in three dialects.

Rows change only with the position they were read up to, in one transaction
(`advance`: the position moves from the one read to the new one, or nothing
changes, as the lobby's). A process that dies between an event's save and the
standings' write loses nothing, and of replicas that read the same events one
applies them: a finished game is rated exactly once.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.store.feed_positions import PostgresPosition, SQLitePosition
from service.store.postgres_waits import reconnecting

TABLE = "rummy_standings"


@dataclass(frozen=True, slots=True)
class Row:
    kind: str
    grp: str
    key: str
    sort: float
    doc: dict[str, Any] = field(hash=False)


class Access(Protocol):
    """What a change reads and writes inside `advance`'s transaction."""

    def get(self, kind: str, grp: str, key: str) -> Row | None: ...

    def put(self, row: Row) -> None: ...


Change = Callable[[Access], None]


class StandingRows(Protocol):
    def position(self) -> int: ...

    def advance(self, start: int, end: int, change: Change) -> bool:
        """Move the position from `start` to `end` and apply `change`, at once; False
        (and nothing changed) when another reader moved the position first."""

    def listed(
        self, kind: str, grp: str, limit: int, after: tuple[float, str] | None = None
    ) -> list[Row]:
        """Up to `limit` rows of a group, highest `sort` first (then `key`), after
        the row (`sort`, `key`) a page ended with."""

    def keyed(self, kind: str, key: str) -> list[Row]:
        """The rows of `kind` with `key`, in every group."""


def rows_for(recorder: Recorder, table: str = TABLE) -> StandingRows:
    """The standings' rows in `recorder`'s database (`table` another name: a rebuild
    beside the live rows)."""
    if isinstance(recorder, SQLiteRecorder):
        return _SQLiteRows(recorder.datastore, table)
    if isinstance(recorder, PostgresRecorder):
        return _PostgresRows(recorder.datastore, table)
    tables = _MEMORY.setdefault(recorder, {})
    return tables.setdefault(table, _MemoryRows())


class _DictAccess:
    """A change's access to the memory rows: what it writes is applied at its end."""

    def __init__(self, rows: dict[tuple[str, str, str], Row]) -> None:
        self.rows = rows
        self.written: dict[tuple[str, str, str], Row] = {}

    def get(self, kind: str, grp: str, key: str) -> Row | None:
        found = self.written.get((kind, grp, key))
        return found if found is not None else self.rows.get((kind, grp, key))

    def put(self, row: Row) -> None:
        self.written[(row.kind, row.grp, row.key)] = row


class _CursorAccess:
    """A change's access to the rows through its transaction's cursor, each row read
    once (the transaction holds the position's lock: no one else changes them)."""

    def __init__(self, cursor: Any, get: Any, put: Any, row_of: Callable[[Any], Row]) -> None:
        self.cursor = cursor
        self._get = get
        self._put = put
        self._row_of = row_of
        self._known: dict[tuple[str, str, str], Row | None] = {}

    def get(self, kind: str, grp: str, key: str) -> Row | None:
        if (kind, grp, key) not in self._known:
            self.cursor.execute(self._get, (kind, grp, key))
            found = self.cursor.fetchone()
            self._known[(kind, grp, key)] = None if found is None else self._row_of(found)
        return self._known[(kind, grp, key)]

    def put(self, row: Row) -> None:
        self._known[(row.kind, row.grp, row.key)] = row
        self.cursor.execute(self._put, (row.kind, row.grp, row.key, row.sort, json.dumps(row.doc)))


def _after(row: Row, after: tuple[float, str] | None) -> bool:
    return after is None or (row.sort, row.key) < after


class _MemoryRows:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._position = 0
        self._rows: dict[tuple[str, str, str], Row] = {}

    def position(self) -> int:
        with self._lock:
            return self._position

    def advance(self, start: int, end: int, change: Change) -> bool:
        with self._lock:
            if self._position != start:
                return False
            access = _DictAccess(self._rows)
            change(access)
            self._rows.update(access.written)
            self._position = end
            return True

    def listed(
        self, kind: str, grp: str, limit: int, after: tuple[float, str] | None = None
    ) -> list[Row]:
        with self._lock:
            rows = [r for r in self._rows.values() if r.kind == kind and r.grp == grp]
        rows = [r for r in rows if _after(r, after)]
        return sorted(rows, key=lambda r: (r.sort, r.key), reverse=True)[:limit]

    def keyed(self, kind: str, key: str) -> list[Row]:
        with self._lock:
            return [r for r in self._rows.values() if r.kind == kind and r.key == key]


_MEMORY: weakref.WeakKeyDictionary[Recorder, dict[str, _MemoryRows]] = weakref.WeakKeyDictionary()
"""The memory store's rows, per store and table (the store's applications share them)."""
_COLUMNS = "kind, grp, key, sort, doc"


class _SQLiteRows:
    def __init__(self, datastore: SQLiteDatastore, table: str) -> None:
        self.datastore = datastore
        self.table = table
        self._position = SQLitePosition(f"{table}_position")
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {table} (kind TEXT NOT NULL, grp TEXT NOT NULL, "
                "key TEXT NOT NULL, sort REAL NOT NULL, doc TEXT NOT NULL, "
                "PRIMARY KEY (kind, grp, key))"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {table}_listed ON {table} (kind, grp, sort, key)"
            )
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {table}_keyed ON {table} (kind, key)")
            self._position.create(cursor)

    def position(self) -> int:
        return self._position.read(self.datastore)

    def advance(self, start: int, end: int, change: Change) -> bool:
        table = self.table
        with self.datastore.transaction(commit=True) as cursor:
            # The write first: the rows read below cannot change before the commit.
            if not self._position.moved(cursor, start, end):
                return False

            change(
                _CursorAccess(
                    cursor,
                    f"SELECT {_COLUMNS} FROM {table} WHERE kind = ? AND grp = ? AND key = ?",
                    f"INSERT OR REPLACE INTO {table} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                    lambda found: _row(*found),
                )
            )
            return True

    def listed(
        self, kind: str, grp: str, limit: int, after: tuple[float, str] | None = None
    ) -> list[Row]:
        where, parameters = "kind = ? AND grp = ?", list[Any]([kind, grp])
        if after is not None:
            where += " AND (sort, key) < (?, ?)"
            parameters += [after[0], after[1]]
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT {_COLUMNS} FROM {self.table} WHERE {where} "
                "ORDER BY sort DESC, key DESC LIMIT ?",
                [*parameters, limit],
            )
            return [_row(*found) for found in cursor.fetchall()]

    def keyed(self, kind: str, key: str) -> list[Row]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT {_COLUMNS} FROM {self.table} WHERE kind = ? AND key = ?", (kind, key)
            )
            return [_row(*found) for found in cursor.fetchall()]


def _row(kind: str, grp: str, key: str, sort: float, doc: Any) -> Row:
    return Row(kind, grp, key, float(sort), json.loads(doc) if isinstance(doc, str) else doc)


class _PostgresRows:
    """On PostgreSQL; its statements are tried again on a fresh connection when
    theirs was lost, as the lobby's are."""

    def __init__(self, datastore: PostgresDatastore, table: str) -> None:
        self.datastore = datastore
        rows = Identifier(datastore.schema, table)
        self._position = PostgresPosition(datastore.schema, f"{table}_position")
        self._get = SQL("SELECT {} FROM {} WHERE kind = %s AND grp = %s AND key = %s").format(
            SQL(_COLUMNS), rows
        )
        self._put = SQL(
            "INSERT INTO {} ({}) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (kind, grp, key) "
            "DO UPDATE SET sort = EXCLUDED.sort, doc = EXCLUDED.doc"
        ).format(rows, SQL(_COLUMNS))
        self._listed = {
            paged: SQL(
                "SELECT {} FROM {} WHERE kind = %s AND grp = %s"
                + (" AND (sort, key) < (%s, %s)" if paged else "")
                + " ORDER BY sort DESC, key DESC LIMIT %s"
            ).format(SQL(_COLUMNS), rows)
            for paged in (False, True)
        }
        self._keyed = SQL("SELECT {} FROM {} WHERE kind = %s AND key = %s").format(
            SQL(_COLUMNS), rows
        )
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the tables.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (table,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (kind text NOT NULL, grp text NOT NULL, "
                    "key text NOT NULL, sort double precision NOT NULL, doc jsonb NOT NULL, "
                    "PRIMARY KEY (kind, grp, key))"
                ).format(rows)
            )
            # Before the indexes: PostgresPosition.create says why.
            self._position.create(cursor)
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (kind, grp, sort, key)").format(
                    Identifier(f"{table}_listed"), rows
                )
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (kind, key)").format(
                    Identifier(f"{table}_keyed"), rows
                )
            )

    @reconnecting
    def position(self) -> int:
        return self._position.read(self.datastore)

    @reconnecting
    def advance(self, start: int, end: int, change: Change) -> bool:
        # A retry after a lost reply finds the position moved (by its own commit) and
        # does nothing: the reader then reads on from the position as stored.
        with self.datastore.transaction(commit=True) as cursor:
            # The row lock this takes is held to the commit: another replica's advance
            # waits for it, then finds the position moved and changes nothing.
            if not self._position.moved(cursor, start, end):
                return False

            change(_CursorAccess(cursor, self._get, self._put, lambda found: _row(**found)))
            return True

    @reconnecting
    def listed(
        self, kind: str, grp: str, limit: int, after: tuple[float, str] | None = None
    ) -> list[Row]:
        parameters: Sequence[Any] = (
            (kind, grp, limit) if after is None else (kind, grp, after[0], after[1], limit)
        )
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._listed[after is not None], parameters)
            return [_row(**found) for found in cursor.fetchall()]

    @reconnecting
    def keyed(self, kind: str, key: str) -> list[Row]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._keyed, (kind, key))
            return [_row(**found) for found in cursor.fetchall()]
