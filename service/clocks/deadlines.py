"""Turn deadlines as the clocks' keeper keeps them (service/clocks/timekeeper.py).

**Where deadlines are kept.** One row per game in a table beside the events
(`rummy_deadlines`: game, version, seat, due time; no row when the game has no
deadline), and the position in the global feed up to which the rows are
complete (`rummy_clock_position`). The keeper *follows the feed* (the
application's notification log, read as `GET /feed` reads it: on PostgreSQL
below the horizon of transactions still in flight, so it never passes over
an event that commits later with a lower position): for each game the page
touches it asks the game's deadline now and writes it, then the page's last
position, in ONE transaction. A process killed between a save and anything
after it loses nothing: the position stays where the rows are complete, and
the next keeper reads on from it. A row is only ever replaced by one of a
later version (or deleted at its version or later), so followers and firers
that race leave the newest.

**SQLite and the memory store.** One process keeps the clocks: on SQLite the
one holding an exclusive `flock` on `<database>.clocks` (with `--workers N` the
first worker to take it; the others try again every poll, so one takes over
if it dies), in memory the one process there is. It runs the same rows with
no locks, and never holds a transaction across a `time_out` (SQLite has one
writer; the keeper's own transaction would block the save it waits for).
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

DEADLINES = "rummy_deadlines"
POSITION = "rummy_clock_position"


class RulesDeadline(Protocol):
    """The rules' deadline (service/game/clock.py's `Deadline`)."""

    @property
    def game_id(self) -> UUID: ...
    @property
    def version(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def at(self) -> datetime: ...


@dataclass(frozen=True, slots=True)
class Due:
    """A game's deadline as the keeper keeps it: the seat to act at `version`, and
    when its time is up (Unix seconds)."""

    game_id: UUID
    version: int
    seat: int
    at: float

    @classmethod
    def of(cls, deadline: RulesDeadline) -> Due:
        """The keeper's row of the rules' deadline (service/game/clock.py)."""
        return cls(deadline.game_id, deadline.version, deadline.seat, deadline.at.timestamp())


@dataclass(frozen=True, slots=True)
class Page:
    """What the follower read after a position: the position it reached, the events
    read, and each game they touched with its version and deadline now."""

    position: int
    events: int
    found: list[tuple[UUID, int, Due | None]]


class DeadlineTable(Protocol):
    def keeps(self) -> bool:
        """Whether this process may keep the clocks now."""

    def follow(self, read: Callable[[int], Page]) -> int:
        """Call `read(position)` and store what it found and its position at once; the
        events read (0: none, or another replica follows now)."""

    def claim(
        self,
        now: float,
        fire: Callable[[Due], tuple[int, Due | None]],
        first: tuple[UUID, int] | None = None,
    ) -> bool:
        """Fire one row due at `now` (the game and version `first`, if it is still
        due and free) and store what `fire` returns in its place; False if none is
        due (or all are claimed elsewhere)."""

    def peek(self, now: float) -> Due | None:
        """The row a claim at `now` would fire, not claimed, where a claim holds a
        transaction across its firing (PostgreSQL): the keeper decides its searching
        bots ahead of the claim. None elsewhere (no transaction is held)."""

    def next_due(self) -> float | None: ...

    def rows(self) -> list[Due]: ...

    def close(self) -> None: ...


def table_for(recorder: Recorder, lock_path: str | None = None) -> DeadlineTable:
    """The rows of `recorder`'s database (a dict for the memory store); on SQLite
    `lock_path` is the file whose lock says which process keeps the clocks."""
    if isinstance(recorder, PostgresRecorder):
        return _PostgresTable(recorder.datastore)
    if isinstance(recorder, SQLiteRecorder):
        return _SQLiteTable(recorder.datastore, lock_path)
    table = _MEMORY_TABLES.get(recorder)
    if table is None:
        table = _MEMORY_TABLES[recorder] = _MemoryTable()
    return table


class _MemoryTable:
    """The memory store's rows: one process, a dict under a lock."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._rows: dict[UUID, Due] = {}
        self._position = 0

    def keeps(self) -> bool:
        return True

    def follow(self, read: Callable[[int], Page]) -> int:
        with self._lock:
            page = read(self._position)
            for game_id, version, due in page.found:
                self._store(game_id, version, due, claimed=False)
            self._position = page.position
            return page.events

    def claim(
        self,
        now: float,
        fire: Callable[[Due], tuple[int, Due | None]],
        first: tuple[UUID, int] | None = None,
    ) -> bool:
        with self._lock:
            due = min(
                (row for row in self._rows.values() if row.at <= now),
                key=lambda row: row.at,
                default=None,
            )
            if due is None:
                return False
            version, following = fire(due)
            self._store(due.game_id, version, following, claimed=True)
            return True

    def peek(self, now: float) -> Due | None:
        return None  # the lock is held across a firing, but no feed waits for it

    def next_due(self) -> float | None:
        with self._lock:
            return min((row.at for row in self._rows.values()), default=None)

    def rows(self) -> list[Due]:
        with self._lock:
            return list(self._rows.values())

    def close(self) -> None:
        pass

    def _store(self, game_id: UUID, version: int, due: Due | None, *, claimed: bool) -> None:
        kept = self._rows.get(game_id)
        if due is None:
            if kept is not None and kept.version <= version:
                del self._rows[game_id]
        elif (
            kept is None or kept.version < due.version or (claimed and kept.version == due.version)
        ):
            self._rows[game_id] = due


_MEMORY_TABLES: weakref.WeakKeyDictionary[Recorder, _MemoryTable] = weakref.WeakKeyDictionary()
"""The memory store's rows, one table per store (its keepers share it)."""
_COLUMNS = "game_id, version, seat, due_at"


class _SQLiteTable:
    """SQLite's rows, kept by the one process that holds the lock file's lock. No
    transaction is held across a `read` or a `fire`: they save through the same
    database, which has one writer."""

    def __init__(self, datastore: SQLiteDatastore, lock_path: str | None) -> None:
        self.datastore = datastore
        database = datastore.pool.db_name
        if lock_path is None and not datastore.pool.is_sqlite_memory_mode:
            lock_path = os.path.abspath(database.removeprefix("file:").split("?")[0]) + ".clocks"
        self.lock_path = lock_path
        self._lock_file: IO[bytes] | None = None
        self._taking = threading.Lock()
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {DEADLINES} (game_id TEXT PRIMARY KEY, "
                "version INTEGER NOT NULL, seat INTEGER NOT NULL, due_at REAL NOT NULL)"
            )
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {DEADLINES}_due_at ON {DEADLINES} (due_at)")
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {POSITION} (id INTEGER PRIMARY KEY, "
                "position INTEGER NOT NULL)"
            )
            cursor.execute(f"INSERT OR IGNORE INTO {POSITION} (id, position) VALUES (1, 0)")

    def keeps(self) -> bool:
        if self._lock_file is not None or self.lock_path is None:
            return True
        with self._taking:  # the keeper's two threads ask at once
            if self._lock_file is not None:
                return True
            handle = open(self.lock_path, "ab")  # noqa: SIM115 - held open while keeping
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                return False
            self._lock_file = handle
            return True

    def follow(self, read: Callable[[int], Page]) -> int:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT position FROM {POSITION} WHERE id = 1")
            position = cursor.fetchone()[0]
        page = read(position)
        if page.events == 0:
            return 0
        with self.datastore.transaction(commit=True) as cursor:
            for game_id, version, due in page.found:
                self._store(cursor, game_id, version, due, claimed=False)
            cursor.execute(f"UPDATE {POSITION} SET position = ? WHERE id = 1", (page.position,))
        return page.events

    def claim(
        self,
        now: float,
        fire: Callable[[Due], tuple[int, Due | None]],
        first: tuple[UUID, int] | None = None,
    ) -> bool:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT {_COLUMNS} FROM {DEADLINES} WHERE due_at <= ? ORDER BY due_at LIMIT 1",
                (now,),
            )
            row = cursor.fetchone()
        if row is None:
            return False
        due = Due(UUID(hex=row[0]), row[1], row[2], row[3])
        version, following = fire(due)
        with self.datastore.transaction(commit=True) as cursor:
            self._store(cursor, due.game_id, version, following, claimed=True)
        return True

    def peek(self, now: float) -> Due | None:
        return None  # no transaction is held across a firing

    def next_due(self) -> float | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT min(due_at) FROM {DEADLINES}")
            found: float | None = cursor.fetchone()[0]
        return found

    def rows(self) -> list[Due]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT {_COLUMNS} FROM {DEADLINES}")
            return [Due(UUID(hex=r[0]), r[1], r[2], r[3]) for r in cursor.fetchall()]

    def close(self) -> None:
        handle, self._lock_file = self._lock_file, None
        if handle is not None:
            handle.close()  # releases the lock

    @staticmethod
    def _store(cursor: Any, game_id: UUID, version: int, due: Due | None, *, claimed: bool) -> None:
        if due is None:
            cursor.execute(
                f"DELETE FROM {DEADLINES} WHERE game_id = ? AND version <= ?",
                (game_id.hex, version),
            )
            return
        newer = "<=" if claimed else "<"
        cursor.execute(
            f"INSERT INTO {DEADLINES} ({_COLUMNS}) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
            "seat = excluded.seat, due_at = excluded.due_at "
            f"WHERE {DEADLINES}.version {newer} excluded.version",
            (due.game_id.hex, due.version, due.seat, due.at),
        )


class _PostgresTable:
    """PostgreSQL's rows, shared by every replica: the follower runs under a
    transaction-level advisory lock, each firing in the transaction whose
    `FOR UPDATE SKIP LOCKED` claimed its row."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        deadlines = Identifier(datastore.schema, DEADLINES)
        position = Identifier(datastore.schema, POSITION)
        self.follow_key = f"{datastore.schema}.{POSITION}"
        # Rendered once: psycopg would compose a query again on every call.
        self._position = SQL("SELECT position FROM {} WHERE id = 1").format(position).as_string()
        self._advance = SQL("UPDATE {} SET position = %s WHERE id = 1").format(position).as_string()
        self._claim = (
            SQL(
                "SELECT {columns} FROM {table} WHERE due_at <= %s ORDER BY due_at "
                "LIMIT 1 FOR UPDATE SKIP LOCKED"
            )
            .format(columns=SQL(_COLUMNS), table=deadlines)
            .as_string()
        )
        self._peek = (
            SQL("SELECT {columns} FROM {table} WHERE due_at <= %s ORDER BY due_at LIMIT 1")
            .format(columns=SQL(_COLUMNS), table=deadlines)
            .as_string()
        )
        self._claim_first = (
            SQL(
                "SELECT {columns} FROM {table} WHERE game_id = %s AND version = %s "
                "AND due_at <= %s FOR UPDATE SKIP LOCKED"
            )
            .format(columns=SQL(_COLUMNS), table=deadlines)
            .as_string()
        )
        self._delete = (
            SQL("DELETE FROM {} WHERE game_id = %s AND version <= %s").format(deadlines).as_string()
        )
        self._upserts = {
            claimed: SQL(
                "INSERT INTO {table} AS d ({columns}) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                "seat = excluded.seat, due_at = excluded.due_at "
                "WHERE d.version {newer} excluded.version"
            )
            .format(table=deadlines, columns=SQL(_COLUMNS), newer=SQL("<=" if claimed else "<"))
            .as_string()
            for claimed in (False, True)
        }
        self._next = SQL("SELECT min(due_at) AS due FROM {}").format(deadlines).as_string()
        self._rows = SQL("SELECT {} FROM {}").format(SQL(_COLUMNS), deadlines).as_string()
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the tables.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (DEADLINES,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (game_id uuid PRIMARY KEY, "
                    "version integer NOT NULL, seat integer NOT NULL, "
                    "due_at double precision NOT NULL)"
                ).format(deadlines)
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (due_at)").format(
                    Identifier(f"{DEADLINES}_due_at"), deadlines
                )
            )
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (id integer PRIMARY KEY, "
                    "position bigint NOT NULL)"
                ).format(position)
            )
            cursor.execute(
                SQL("INSERT INTO {} (id, position) VALUES (1, 0) ON CONFLICT DO NOTHING").format(
                    position
                )
            )

    def keeps(self) -> bool:
        return True

    def follow(self, read: Callable[[int], Page]) -> int:
        with self.datastore.transaction(commit=True) as cursor:
            # No transaction id until the writes at the end: the feed's horizon
            # is not held back while the page is read.
            cursor.execute(
                "SELECT pg_try_advisory_xact_lock(hashtext(%s)) AS got", (self.follow_key,)
            )
            if not _first(cursor)["got"]:
                return 0
            cursor.execute(self._position)
            page = read(_first(cursor)["position"])
            if page.events == 0:
                return 0
            for game_id, version, due in page.found:
                self._store(cursor, game_id, version, due, claimed=False)
            cursor.execute(self._advance, (page.position,))
            return page.events

    def claim(
        self,
        now: float,
        fire: Callable[[Due], tuple[int, Due | None]],
        first: tuple[UUID, int] | None = None,
    ) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            row = None
            if first is not None:
                cursor.execute(self._claim_first, (*first, now))
                row = cursor.fetchone()
            if row is None:
                cursor.execute(self._claim, (now,))
                row = cursor.fetchone()
            if row is None:
                return False
            due = Due(row["game_id"], row["version"], row["seat"], row["due_at"])
            version, following = fire(due)
            self._store(cursor, due.game_id, version, following, claimed=True)
            return True

    def peek(self, now: float) -> Due | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._peek, (now,))
            row = cursor.fetchone()
        if row is None:
            return None
        return Due(row["game_id"], row["version"], row["seat"], row["due_at"])

    def next_due(self) -> float | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._next)
            found: float | None = _first(cursor)["due"]
            return found

    def rows(self) -> list[Due]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._rows)
            return [
                Due(r["game_id"], r["version"], r["seat"], r["due_at"]) for r in cursor.fetchall()
            ]

    def close(self) -> None:
        pass

    def _store(
        self, cursor: Any, game_id: UUID, version: int, due: Due | None, *, claimed: bool
    ) -> None:
        if due is None:
            cursor.execute(self._delete, (game_id, version))
        else:
            cursor.execute(self._upserts[claimed], (due.game_id, due.version, due.seat, due.at))


def _first(cursor: Any) -> Any:
    row = cursor.fetchone()
    assert row is not None, "the query returns one row"
    return row
