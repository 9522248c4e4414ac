"""Turn clocks: the keeper that finds every turn's deadline and fires it once.

A game with `turn_seconds` has a deadline whenever a seat must act: the time
of the event that made it that seat's turn, plus `turn_seconds`
(`turn_deadline`, computed from the game's stored state). When it passes, the
application's `time_out(game_id, version)` records the timeout and the bot's
move for the seat, if the game is still at that version and the time is up by
its clock; otherwise it records nothing. So a late or duplicate firing is
harmless by the game's own version check: exactly once is the aggregate's
promise, and the keeper only has to fire every deadline at least once, soon
after it passes, and rarely twice.

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

**Firing.** A loop claims a due row, calls `time_out`, asks the game's
deadline again and writes it in the row (the next seat's turn) or deletes
it. On PostgreSQL the claim is `SELECT ... WHERE due_at <= now ... FOR UPDATE
SKIP LOCKED LIMIT 1`, and the row is changed in the transaction that claimed
it: two replicas never fire one row at once, and a replica killed mid-fire
holds the row only until its connection dies (at once for a killed process:
the kernel closes its socket). A firing whose `time_out` did record (a save
the claim's commit never followed) is met again by the next claimer, whose
`time_out` finds the version moved and records nothing. One claim per
transaction: a claim takes a transaction id, which holds back the feed's
horizon (every reader's, the live streams' included) until it commits, so
it is kept as short as one firing.

The follower on PostgreSQL runs in one replica at a time: it takes
`pg_try_advisory_xact_lock` (no transaction id: it holds back nothing) and a
replica that does not get it leaves the following to the one that did. Every
replica fires.

**SQLite and the memory store.** One process keeps the clocks: on SQLite the
one holding an exclusive `flock` on `<database>.clocks` (with `--workers N` the
first worker to take it; the others try again every poll, so one takes over
if it dies), in memory the one process there is. It runs the same rows with
no locks, and never holds a transaction across a `time_out` (SQLite has one
writer; the keeper's own transaction would block the save it waits for).

**Threads and waiting.** The follower and the firer run in a thread each (a
slow page never holds up a due firing; a page waits, up to a poll, while the
firer is busy with rows due: a burst of firings goes first). The follower reads the feed once a
`poll` (at most 2 s, so a clock of 5 s, the shortest, is in the table well
before it runs out; a page of a second's saves costs one deadline read per
game however many events it moved); on PostgreSQL below the horizon without
waiting for what is held back (the next poll reads it). The firer sleeps
until the next row is due, at most a `poll`, woken when the follower wrote
rows. Idle, a process reads the position, one page of the feed and the
earliest due time once a poll.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import IO, Any, Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.game.postgres import TransactionOrderRecorder

log = logging.getLogger(__name__)

DEADLINES = "rummy_deadlines"
POSITION = "rummy_clock_position"
PAGE = 500
"""Events of the feed read at once by the follower."""
PAGES_PER_ROUND = 20
"""Pages the follower reads in one round (a long backlog: then a poll's rest)."""
FIRES_PER_ROUND = 1000
"""Rows the firer fires in one round before it looks at the next due time again."""
RETRY_SECONDS = 0.25
"""When `time_out` found a row not yet due that this process's clock calls due
(clocks that disagree), the row is tried again this much later."""
SKIP_AFTER_FAILURES = 3
"""Reads of a game's deadline that may fail in a row before the follower passes
over it (its clock then starts again with its next event)."""
BACKOFF_SECONDS = 5.0
"""A row whose firing raised is tried again this much later."""


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


DeadlineOf = Callable[[UUID], tuple[int, Due | None]]
"""A game's version now and its deadline at that version (None: no clock running)."""
TimeOut = Callable[[UUID, int], bool]
"""The application's `time_out(game_id, version)`."""


class ClockObserver(Protocol):
    """Told of each timeout this process recorded (the metrics)."""

    def timed_out(self, lag_seconds: float) -> None: ...


@dataclass(frozen=True, slots=True)
class Page:
    """What the follower read after a position: the position it reached, the events
    read, and each game they touched with its version and deadline now."""

    position: int
    events: int
    found: list[tuple[UUID, int, Due | None]]


class _Table(Protocol):
    def keeps(self) -> bool:
        """Whether this process may keep the clocks now."""

    def follow(self, read: Callable[[int], Page]) -> int:
        """Call `read(position)` and store what it found and its position at once; the
        events read (0: none, or another replica follows now)."""

    def claim(self, now: float, fire: Callable[[Due], tuple[int, Due | None]]) -> bool:
        """Fire one row due at `now` and store what `fire` returns in its place;
        False if none is due (or all are claimed elsewhere)."""

    def next_due(self) -> float | None: ...

    def rows(self) -> list[Due]: ...

    def close(self) -> None: ...


class ClockKeeper:
    """Keeps the turn clocks of one application (see the module docstring).

    `start()` runs the follower and the firer in a thread each and `stop()` ends
    them; tests and benches call `follow()`, `fire_due()` or `run_once()` (both)
    in the calling thread.
    """

    def __init__(
        self,
        recorder: Recorder,
        deadline_of: DeadlineOf,
        time_out: TimeOut,
        *,
        poll_seconds: float = 1.0,
        observer: ClockObserver | None = None,
        clock: Callable[[], float] = time.time,
        lock_path: str | None = None,
    ) -> None:
        if not isinstance(recorder, ApplicationRecorder):
            raise TypeError("the clocks follow an application recorder's feed")
        self.recorder = recorder
        self.table = table_for(recorder, lock_path)
        self.deadline_of = deadline_of
        self.time_out = time_out
        self.poll_seconds = poll_seconds
        self.observer = observer
        self.clock = clock
        self._stopped = threading.Event()
        self._rows_changed = threading.Event()
        self._firer_resting = threading.Event()
        self._firer_resting.set()
        self._threads: list[threading.Thread] = []
        self._failures: Counter[UUID] = Counter()

    # --- running ------------------------------------------------------------------

    def start(self) -> None:
        """Run the follower and the firer, each in a thread of its own (a slow page of
        the feed never holds up a due firing)."""
        if not self._threads:
            self._stopped.clear()
            self._threads = [
                threading.Thread(target=loop, name=f"rummy-clocks-{name}", daemon=True)
                for name, loop in (("follow", self._following), ("fire", self._firing))
            ]
            for thread in self._threads:
                thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the loops; waits up to `timeout` for a firing in progress (a bounded
        store call), never longer."""
        self._stopped.set()
        self._rows_changed.set()
        threads, self._threads = self._threads, []
        until = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, until - time.monotonic()))
        self.table.close()

    @property
    def running(self) -> bool:
        return any(thread.is_alive() for thread in self._threads)

    def run_once(self) -> tuple[int, int]:
        """Follow the feed to its end, then fire every row due: (events read, rows
        fired); nothing if another process keeps the clocks."""
        read = self.follow()
        return read, self.fire_due()

    def rows(self) -> list[Due]:
        """The deadlines kept now, earliest first (tests, benches)."""
        return sorted(self.table.rows(), key=lambda due: due.at)

    def _following(self) -> None:
        """Follow the feed once a poll; tell the firer when rows changed (one may be
        due sooner than it sleeps)."""
        failing = False
        while not self._stopped.is_set():
            try:
                if self.follow():
                    self._rows_changed.set()
            except Exception as error:  # the store is down: try again after a poll
                if not failing:
                    log.warning("the turn clocks could not read the feed: %r", error)
                failing = True
            else:
                failing = False
            self._stopped.wait(self.poll_seconds)

    def _firing(self) -> None:
        """Fire what is due, then sleep until the next row is due (at most a poll)."""
        failing = False
        while not self._stopped.is_set():
            self._rows_changed.clear()
            wait = self.poll_seconds
            self._firer_resting.clear()
            try:
                self.fire_due()
                if self.table.keeps():
                    due = self.table.next_due()
                    if due is not None:
                        wait = min(wait, max(0.0, due - self.clock()))
            except Exception as error:  # the store is down: try again after a poll
                if not failing:
                    log.warning("the turn clocks could not fire: %r", error)
                failing = True
            else:
                failing = False
            self._firer_resting.set()
            if wait > 0:
                self._rows_changed.wait(wait)

    # --- following and firing -----------------------------------------------------

    def follow(self) -> int:
        """Read the feed on from the stored position (a few pages at most) and store
        the deadlines of the games it touched: the events read (none if another
        process keeps the clocks)."""
        total = 0
        if not self.table.keeps():
            return 0
        for _ in range(PAGES_PER_ROUND):
            # Firing goes first: a page waits while rows due are being fired (at most
            # a poll, so a firer that is never done cannot starve the follower).
            self._firer_resting.wait(self.poll_seconds)
            read = self.table.follow(self._read)
            total += read
            if read < PAGE or self._stopped.is_set():
                break
        return total

    def _read(self, position: int) -> Page:
        if isinstance(self.recorder, TransactionOrderRecorder):
            # Below the horizon, without waiting for what is held back behind it:
            # the next poll reads it.
            notifications = self.recorder.feed_page(position, PAGE).notifications
        else:
            notifications = list(
                self.recorder.select_notifications(
                    start=position, limit=PAGE, inclusive_of_start=False
                )
            )
        if not notifications:
            return Page(position, 0, [])
        games = dict.fromkeys(UUID(str(n.originator_id)) for n in notifications)
        found = []
        for game_id in games:
            try:
                found.append((game_id, *self.deadline_of(game_id)))
            except Exception as error:
                # The page is read again next time (a store gone for a moment); a game
                # that fails every time is passed over, not left to stop every clock.
                self._failures[game_id] += 1
                if self._failures[game_id] < SKIP_AFTER_FAILURES:
                    raise
                log.error("turn clock of game %s passed over: %r", game_id, error)
            else:
                self._failures.pop(game_id, None)
        return Page(notifications[-1].id, len(notifications), found)

    def fire_due(self) -> int:
        """Fire the rows due now, one claim at a time: how many were fired."""
        fired = 0
        if not self.table.keeps():
            return 0
        while fired < FIRES_PER_ROUND and not self._stopped.is_set():
            if not self.table.claim(self.clock(), self._fire):
                break
            fired += 1
        return fired

    def _fire(self, due: Due) -> tuple[int, Due | None]:
        try:
            return self._time_out(due)
        except Exception as error:
            # One game that cannot be timed out (or a store gone for a moment) must
            # not hold up the rows behind it: its row is tried again later.
            log.warning("turn clock of game %s (version %s): %r", due.game_id, due.version, error)
            return due.version, replace(due, at=self.clock() + BACKOFF_SECONDS)

    def _time_out(self, due: Due) -> tuple[int, Due | None]:
        recorded = self.time_out(due.game_id, due.version)
        version, following = self.deadline_of(due.game_id)
        now = self.clock()
        if not recorded and _still_due(due, following, now):
            # This process's copy of the game was older than the row (the row came
            # from another replica's save): asking the deadline read it fresh.
            recorded = self.time_out(due.game_id, due.version)
            version, following = self.deadline_of(due.game_id)
            now = self.clock()
        if recorded and self.observer is not None:
            self.observer.timed_out(max(0.0, now - due.at))
        if not recorded and following is not None and _still_due(due, following, now):
            # Due by this clock, not by the application's: try again a little later.
            following = replace(following, at=now + RETRY_SECONDS)
        return version, following


def _still_due(due: Due, following: Due | None, now: float) -> bool:
    return following is not None and following.version == due.version and following.at <= now


def table_for(recorder: Recorder, lock_path: str | None = None) -> _Table:
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

    def claim(self, now: float, fire: Callable[[Due], tuple[int, Due | None]]) -> bool:
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

    def claim(self, now: float, fire: Callable[[Due], tuple[int, Due | None]]) -> bool:
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

    def claim(self, now: float, fire: Callable[[Due], tuple[int, Due | None]]) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._claim, (now,))
            row = cursor.fetchone()
            if row is None:
                return False
            due = Due(row["game_id"], row["version"], row["seat"], row["due_at"])
            version, following = fire(due)
            self._store(cursor, due.game_id, version, following, claimed=True)
            return True

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
