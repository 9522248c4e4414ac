"""Stream tickets: short-lived, single-use secrets that open one live stream.

A browser's `EventSource` cannot send an `Authorization` header, and a player
token in a URL would stay in browser history, proxy logs and `Referer`s for
as long as the token lives (the whole game). So a client exchanges its token
for a ticket (`POST /games/{id}/stream-tickets`) and opens the stream with
`?ticket=...`: the ticket opens one stream, once, within its time to live.

Where they are kept, and why there: every replica must honour a ticket
another minted, and exactly one stream may open with it, on every store and
across restarts. The event store's database is the one thing all replicas
share on every store (Redis is optional and keeps nothing on disk; a signed
ticket would need a secret shared by every replica and still a shared record
of used ones). So a ticket is one row of a table of its own in that
database (`rummy_stream_tickets`, on SQLite and PostgreSQL alike; a dict in
memory, where one process is all there is), keyed by the SHA-256 of
the ticket (the ticket itself is never stored), with its game, its seat
(NULL: the admin) and its expiry. Opening a stream deletes the row and reads
it in one statement (`DELETE ... RETURNING`, for the ticket's own game only):
of two replicas shown the same ticket at once, exactly one gets the row. A
ticket shown to another game is read but left unused (its holder may still
open its own game's stream with it). Expired rows nobody redeemed are
swept by the next ticket minted (at most once a `SWEEP_SECONDS` per process),
so the table holds about a time to live's worth of tickets.

Expiry is read from the clock of the process that redeems (replicas' clocks
agree to well under the time to live).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.game.tokens import hash_token
from service.store.postgres_waits import reconnecting

PREFIX = "st_"
"""Every ticket starts so: a ticket is told apart from a token at a glance (and
in logs, which mask it: service/api/transport/access_log.py)."""
TICKET_PATTERN = r"st_[A-Za-z0-9_-]{43}"
SWEEP_SECONDS = 60.0
"""How often a process sweeps away expired tickets, at most (when it mints one)."""
TABLE = "rummy_stream_tickets"


def new_ticket() -> str:
    """`st_` and 256 random bits, URL-safe (nothing to escape in a query string)."""
    return PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Grant:
    """What a ticket lets its bearer see: one game, as one seat (None: the admin)."""

    game_id: UUID
    seat: int | None
    expires: float
    """Unix time after which the ticket opens nothing."""


class _Table(Protocol):
    def insert(self, ticket_hash: str, grant: Grant) -> None: ...

    def take(self, ticket_hash: str, game_id: UUID) -> Grant | None:
        """The ticket's grant, removed in the same step if it is for `game_id`, else
        left as it is (None: unknown or taken)."""

    def sweep(self, now: float) -> None: ...


class StreamTickets:
    """The tickets of one application, in its event store's database."""

    def __init__(self, recorder: Recorder, now: Callable[[], float] = time.time) -> None:
        self.table = _table_for(recorder)
        self.now = now
        self._next_sweep = 0.0

    def issue(self, game_id: UUID, seat: int | None, seconds: float) -> str:
        """A new ticket for `game_id` as `seat` (None: the admin), good for `seconds`."""
        now = self.now()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_SECONDS
            self.table.sweep(now)
        ticket = new_ticket()
        self.table.insert(hash_token(ticket), Grant(game_id, seat, now + seconds))
        return ticket

    def redeem(self, ticket: str, game_id: UUID) -> Grant | None:
        """The grant of `ticket` shown to `game_id`'s stream: None if it was unknown,
        spent already or expired. It is spent by this if it is for `game_id`; a grant
        for another game is answered unspent, to be refused."""
        grant = self.table.take(hash_token(ticket), game_id)
        if grant is None or self.now() >= grant.expires:
            return None
        return grant


def _table_for(recorder: Recorder) -> _Table:
    if isinstance(recorder, SQLiteRecorder):
        return _SQLiteTable(recorder.datastore)
    if isinstance(recorder, PostgresRecorder):
        return _PostgresTable(recorder.datastore)
    return _MemoryTable()


class _MemoryTable:
    """In one process (the memory store): a dict under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._grants: dict[str, Grant] = {}

    def insert(self, ticket_hash: str, grant: Grant) -> None:
        with self._lock:
            self._grants[ticket_hash] = grant

    def take(self, ticket_hash: str, game_id: UUID) -> Grant | None:
        with self._lock:
            grant = self._grants.get(ticket_hash)
            if grant is not None and grant.game_id == game_id:
                del self._grants[ticket_hash]
            return grant

    def sweep(self, now: float) -> None:
        with self._lock:
            for ticket_hash in [h for h, grant in self._grants.items() if grant.expires <= now]:
                del self._grants[ticket_hash]


class _SQLiteTable:
    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (ticket_hash TEXT PRIMARY KEY, "
                "game_id TEXT NOT NULL, seat INTEGER, expires REAL NOT NULL)"
            )
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {TABLE}_expires ON {TABLE} (expires)")

    def insert(self, ticket_hash: str, grant: Grant) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"INSERT INTO {TABLE} (ticket_hash, game_id, seat, expires) VALUES (?, ?, ?, ?)",
                (ticket_hash, grant.game_id.hex, grant.seat, grant.expires),
            )

    def take(self, ticket_hash: str, game_id: UUID) -> Grant | None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"DELETE FROM {TABLE} WHERE ticket_hash = ? AND game_id = ? "
                "RETURNING game_id, seat, expires",
                (ticket_hash, game_id.hex),
            )
            row = cursor.fetchone()
            if row is None:
                # Another game's ticket (or none): read, not spent.
                cursor.execute(
                    f"SELECT game_id, seat, expires FROM {TABLE} WHERE ticket_hash = ?",
                    (ticket_hash,),
                )
                row = cursor.fetchone()
        return None if row is None else Grant(UUID(hex=row[0]), row[1], row[2])

    def sweep(self, now: float) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {TABLE} WHERE expires <= ?", (now,))


class _PostgresTable:
    """On PostgreSQL; its statements are tried again on a fresh connection when
    theirs was lost, as the recorders' are (service/store/postgres.py)."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        table = Identifier(datastore.schema, TABLE)
        self._insert = SQL(
            "INSERT INTO {} (ticket_hash, game_id, seat, expires) VALUES (%s, %s, %s, %s) "
            # A retry after a lost reply meets its own row: the hash is 256 random bits.
            "ON CONFLICT (ticket_hash) DO NOTHING"
        ).format(table)
        self._take = SQL(
            "DELETE FROM {} WHERE ticket_hash = %s AND game_id = %s "
            "RETURNING game_id, seat, expires"
        ).format(table)
        self._read = SQL("SELECT game_id, seat, expires FROM {} WHERE ticket_hash = %s").format(
            table
        )
        self._sweep = SQL("DELETE FROM {} WHERE expires <= %s").format(table)
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the table.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TABLE,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (ticket_hash text PRIMARY KEY, "
                    "game_id uuid NOT NULL, seat integer, expires double precision NOT NULL)"
                ).format(table)
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (expires)").format(
                    Identifier(f"{TABLE}_expires"), table
                )
            )

    @reconnecting
    def insert(self, ticket_hash: str, grant: Grant) -> None:
        self._run(self._insert, (ticket_hash, grant.game_id, grant.seat, grant.expires))

    @reconnecting
    def take(self, ticket_hash: str, game_id: UUID) -> Grant | None:
        row = self._run(self._take, (ticket_hash, game_id))
        if row is None:
            # Another game's ticket (or none): read, not spent.
            row = self._run(self._read, (ticket_hash,))
        return None if row is None else Grant(row["game_id"], row["seat"], row["expires"])

    @reconnecting
    def sweep(self, now: float) -> None:
        self._run(self._sweep, (now,))

    def _run(self, statement: Any, parameters: tuple[Any, ...]) -> Any:
        """Run one statement as its own transaction; its first row, if any."""
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, parameters)
            return cursor.fetchone() if cursor.description is not None else None
