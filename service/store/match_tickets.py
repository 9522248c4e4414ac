"""Matchmaking tickets, kept beside the events (service/matchmaking/ is their use).

One row per ticket of `rummy_match_tickets`: who waits (a pseudonym), for what
(the variant, the canonical rules, the table size, rated or not, all folded
into its `pool`: only tickets of one pool play together), the player's rating
when the ticket was opened, its deadlines (`expires`, `bots_at`), its `status`
and, once matched, its game, seat and sealed seat token.

A ticket goes `waiting` → `matching` → `matched`, or `waiting` → `cancelled` |
`expired`. `matching` is the match in flight: the claim wrote its `match_id`,
its creation key (`match_key`, the secret the game's id and seat tokens derive
from, kept only until the match is finished), its game id and each ticket's
seat, in one transaction; then the game is created with that key, then
`finish` writes `matched`, the sealed tokens, and forgets the key. A matcher
killed in between leaves the match `matching`: the next matcher finishes it
after a lease (`in_flight`, `retake`), creating the game again with the same
key, which answers the game made the first time (service/game/idempotency.py).

Claims: on PostgreSQL a group's rows are locked `FOR UPDATE SKIP LOCKED` and
changed in that transaction, so two matchers never claim one ticket; on SQLite
(one writer) and in memory (one lock) the claim's conditional updates are
serial. Every change of status names the status it expects, so a cancel that
meets a claim loses to it (or the claim to the cancel), never both.

No player waits twice for one variant: a unique index on (pseudonym, variant)
over the rows `waiting` or `matching` (a dict in memory), so two replicas
taking two tickets of one player at once store one.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.store.postgres_waits import reconnecting

TABLE = "rummy_match_tickets"
ACTIVE = ("waiting", "matching")
"""The statuses in which a ticket holds its player's place for its variant."""


@dataclass(frozen=True, slots=True)
class TicketRow:
    ticket_id: str
    token_hash: str
    seal_key: str
    """The ticket's public sealing key (service/matchmaking/sealing.py)."""
    pseudonym: str
    variant: str
    pool: str
    rules: str
    """The canonical rules, as JSON."""
    seats: int
    rated: bool
    rating: float
    created: float
    expires: float
    bots_at: float | None
    bot: str
    status: str = "waiting"
    match_id: str | None = None
    match_key: str | None = None
    game_id: str | None = None
    seat: int | None = None
    match_bot: str | None = None
    """The bot level that fills the match's seats no ticket holds (None: none)."""
    sealed: str | None = None
    claimed: float | None = None


COLUMNS = tuple(field.name for field in fields(TicketRow))


@dataclass(frozen=True, slots=True)
class Claim:
    """One group of tickets to seat at one game."""

    match_id: str
    match_key: str
    game_id: str
    seats: Mapping[str, int]
    """Each ticket's seat."""
    bot: str | None


class TicketTable(Protocol):
    def insert(self, row: TicketRow) -> bool:
        """Store a new ticket; False if its player already waits for its variant."""

    def get(self, ticket_id: str) -> TicketRow | None: ...

    def cancel(self, ticket_id: str) -> TicketRow | None:
        """Cancel it if it waits; the ticket as it is then (None: unknown)."""

    def expire(self, now: float) -> int:
        """Expire the waiting tickets past their `expires`; how many."""

    def waiting(self) -> list[TicketRow]:
        """Every waiting ticket, oldest first."""

    def claim(self, claims: Sequence[Claim], now: float) -> list[Claim]:
        """Mark each claim's tickets `matching`, in one transaction, where every ticket
        of it still waits (and, on PostgreSQL, no other claimer holds one): the claims
        made."""

    def in_flight(self, before: float) -> list[list[TicketRow]]:
        """The matches claimed before `before` and not finished, each its tickets."""

    def retake(self, match_id: str, claimed: float, now: float) -> bool:
        """Take over a match in flight claimed at `claimed`: whether this caller did."""

    def finish(self, match_id: str, sealed: Mapping[str, str]) -> None:
        """Mark the match's tickets `matched`, each with its sealed token; the key goes."""

    def of_game(self, game_id: str) -> list[TicketRow]: ...


def tickets_for(recorder: Recorder) -> TicketTable:
    """The tickets in `recorder`'s database (a dict for the memory store)."""
    if isinstance(recorder, SQLiteRecorder):
        return _SQLTable(_SQLite(recorder.datastore))
    if isinstance(recorder, PostgresRecorder):
        return _SQLTable(_Postgres(recorder.datastore))
    return _MemoryTable()


class _MemoryTable:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, TicketRow] = {}

    def insert(self, row: TicketRow) -> bool:
        with self._lock:
            if any(
                kept.pseudonym == row.pseudonym
                and kept.variant == row.variant
                and kept.status in ACTIVE
                for kept in self._rows.values()
            ):
                return False
            self._rows[row.ticket_id] = row
            return True

    def get(self, ticket_id: str) -> TicketRow | None:
        with self._lock:
            return self._rows.get(ticket_id)

    def cancel(self, ticket_id: str) -> TicketRow | None:
        with self._lock:
            row = self._rows.get(ticket_id)
            if row is not None and row.status == "waiting":
                row = self._rows[ticket_id] = replace(row, status="cancelled")
            return row

    def expire(self, now: float) -> int:
        with self._lock:
            gone = [r for r in self._rows.values() if r.status == "waiting" and r.expires <= now]
            for row in gone:
                self._rows[row.ticket_id] = replace(row, status="expired")
            return len(gone)

    def waiting(self) -> list[TicketRow]:
        with self._lock:
            found = [row for row in self._rows.values() if row.status == "waiting"]
        return sorted(found, key=lambda row: (row.created, row.ticket_id))

    def claim(self, claims: Sequence[Claim], now: float) -> list[Claim]:
        made = []
        with self._lock:
            for claim in claims:
                rows = [self._rows.get(ticket_id) for ticket_id in claim.seats]
                if any(row is None or row.status != "waiting" for row in rows):
                    continue
                for ticket_id, seat in claim.seats.items():
                    self._rows[ticket_id] = replace(
                        self._rows[ticket_id], **_claimed(claim, seat, now)
                    )
                made.append(claim)
        return made

    def in_flight(self, before: float) -> list[list[TicketRow]]:
        with self._lock:
            rows = [
                r
                for r in self._rows.values()
                if r.status == "matching" and r.claimed is not None and r.claimed <= before
            ]
        return _by_match(rows)

    def retake(self, match_id: str, claimed: float, now: float) -> bool:
        with self._lock:
            rows = [r for r in self._rows.values() if r.match_id == match_id]
            if not rows or any(r.status != "matching" or r.claimed != claimed for r in rows):
                return False
            for row in rows:
                self._rows[row.ticket_id] = replace(row, claimed=now)
            return True

    def finish(self, match_id: str, sealed: Mapping[str, str]) -> None:
        with self._lock:
            for ticket_id, seal in sealed.items():
                row = self._rows.get(ticket_id)
                if row is not None and row.match_id == match_id and row.status == "matching":
                    self._rows[ticket_id] = replace(
                        row, status="matched", sealed=seal, match_key=None
                    )

    def of_game(self, game_id: str) -> list[TicketRow]:
        with self._lock:
            found = [row for row in self._rows.values() if row.game_id == game_id]
        return sorted(found, key=lambda row: row.seat or 0)


def _claimed(claim: Claim, seat: int, now: float) -> dict[str, Any]:
    return {
        "status": "matching",
        "match_id": claim.match_id,
        "match_key": claim.match_key,
        "game_id": claim.game_id,
        "seat": seat,
        "match_bot": claim.bot,
        "claimed": now,
    }


def _by_match(rows: Sequence[TicketRow]) -> list[list[TicketRow]]:
    matches: dict[str, list[TicketRow]] = {}
    for row in rows:
        assert row.match_id is not None
        matches.setdefault(row.match_id, []).append(row)
    return list(matches.values())


class _Dialect(Protocol):
    """What differs between SQLite and PostgreSQL for `_SQLTable`."""

    datastore: Any
    mark: str
    """The parameter placeholder."""
    lock: str
    """What locks the claimed rows (`FOR UPDATE SKIP LOCKED`; SQLite: nothing)."""

    def sql(self, text: str) -> Any:
        """`text` with `{t}` the table, as this driver takes it."""


class _SQLite:
    mark = "?"
    lock = ""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        with datastore.transaction(commit=True) as cursor:
            for statement in _schema("TEXT", "INTEGER", "REAL", TABLE):
                cursor.execute(statement)

    def sql(self, text: str) -> Any:
        return text.replace("{t}", TABLE)


class _Postgres:
    mark = "%s"
    lock = "FOR UPDATE SKIP LOCKED"

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the table.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TABLE,))
            schema = datastore.schema
            named = f'"{schema}".{TABLE}' if schema else TABLE
            for statement in _schema("text", "integer", "double precision", named):
                cursor.execute(statement)

    def sql(self, text: str) -> Any:
        return SQL(text.replace("{t}", "{}")).format(Identifier(self.datastore.schema, TABLE))


def _schema(text: str, integer: str, real: str, table: str) -> list[str]:
    base = table.split(".")[-1]
    types = {
        "seats": integer,
        "rated": integer,
        "seat": integer,
        "rating": real,
        "created": real,
        "expires": real,
        "bots_at": real,
        "claimed": real,
    }
    required = {"ticket_id", "token_hash", "seal_key", "pseudonym", "variant", "pool", "rules"}
    required |= {"seats", "rated", "rating", "created", "expires", "bot", "status"}
    columns = ", ".join(
        f"{name} {types.get(name, text)}"
        + (" PRIMARY KEY" if name == "ticket_id" else " NOT NULL" if name in required else "")
        for name in COLUMNS
    )
    return [
        f"CREATE TABLE IF NOT EXISTS {table} ({columns})",
        f"CREATE INDEX IF NOT EXISTS {base}_status ON {table} (status, created)",
        f"CREATE INDEX IF NOT EXISTS {base}_match ON {table} (match_id)",
        f"CREATE INDEX IF NOT EXISTS {base}_game ON {table} (game_id)",
        # One place per player and variant while waiting or being matched.
        f"CREATE UNIQUE INDEX IF NOT EXISTS {base}_queued ON {table} (pseudonym, variant) "
        "WHERE status IN ('waiting', 'matching')",
    ]


class _SQLTable:
    """The table on SQLite or PostgreSQL: the same statements, each dialect's marks.
    Statements are tried again on a fresh connection when theirs was lost."""

    def __init__(self, dialect: _Dialect) -> None:
        self.dialect = dialect
        self.datastore = dialect.datastore
        m, listed = dialect.mark, ", ".join(COLUMNS)
        conflict = " ON CONFLICT DO NOTHING" if m == "%s" else ""
        verb = "INSERT" if m == "%s" else "INSERT OR IGNORE"
        sql = dialect.sql
        self._insert = sql(
            f"{verb} INTO {{t}} ({listed}) VALUES ({', '.join([m] * len(COLUMNS))}){conflict}"
        )
        self._get = sql(f"SELECT {listed} FROM {{t}} WHERE ticket_id = {m}")
        self._cancel = sql(
            f"UPDATE {{t}} SET status = 'cancelled' WHERE ticket_id = {m} AND status = 'waiting'"
        )
        self._expire = sql(
            f"UPDATE {{t}} SET status = 'expired' WHERE status = 'waiting' AND expires <= {m}"
        )
        self._waiting = sql(
            f"SELECT {listed} FROM {{t}} WHERE status = 'waiting' ORDER BY created, ticket_id"
        )
        self._lock_one = sql(
            f"SELECT ticket_id FROM {{t}} WHERE ticket_id = {m} AND status = 'waiting' "
            f"{dialect.lock}"
        )
        self._claim = sql(
            f"UPDATE {{t}} SET status = 'matching', match_id = {m}, match_key = {m}, "
            f"game_id = {m}, seat = {m}, match_bot = {m}, claimed = {m} "
            f"WHERE ticket_id = {m} AND status = 'waiting'"
        )
        self._in_flight = sql(
            f"SELECT {listed} FROM {{t}} WHERE status = 'matching' AND claimed <= {m} "
            "ORDER BY match_id, seat"
        )
        self._retake = sql(
            f"UPDATE {{t}} SET claimed = {m} WHERE match_id = {m} AND status = 'matching' "
            f"AND claimed = {m}"
        )
        self._finish = sql(
            f"UPDATE {{t}} SET status = 'matched', sealed = {m}, match_key = NULL "
            f"WHERE ticket_id = {m} AND match_id = {m} AND status = 'matching'"
        )
        self._of_game = sql(f"SELECT {listed} FROM {{t}} WHERE game_id = {m} ORDER BY seat")

    @reconnecting
    def insert(self, row: TicketRow) -> bool:
        values = tuple(_stored(getattr(row, name)) for name in COLUMNS)
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._insert, values)
            return _changed(cursor) == 1

    @reconnecting
    def get(self, ticket_id: str) -> TicketRow | None:
        rows = self._rows(self._get, (ticket_id,))
        return rows[0] if rows else None

    @reconnecting
    def cancel(self, ticket_id: str) -> TicketRow | None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._cancel, (ticket_id,))
            cursor.execute(self._get, (ticket_id,))
            found = cursor.fetchall()
        return _row(found[0]) if found else None

    @reconnecting
    def expire(self, now: float) -> int:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._expire, (now,))
            return _changed(cursor)

    @reconnecting
    def waiting(self) -> list[TicketRow]:
        return self._rows(self._waiting, ())

    @reconnecting
    def claim(self, claims: Sequence[Claim], now: float) -> list[Claim]:
        made = []
        with self.datastore.transaction(commit=True) as cursor:
            for claim in claims:
                # Lock every row of the group first (PostgreSQL: skipping rows another
                # claimer holds); a group missing one is left to the others.
                locked = 0
                for ticket_id in claim.seats:
                    cursor.execute(self._lock_one, (ticket_id,))
                    locked += len(cursor.fetchall())
                if locked != len(claim.seats):
                    continue
                for ticket_id, seat in claim.seats.items():
                    cursor.execute(
                        self._claim,
                        (
                            claim.match_id,
                            claim.match_key,
                            claim.game_id,
                            seat,
                            claim.bot,
                            now,
                            ticket_id,
                        ),
                    )
                made.append(claim)
        return made

    @reconnecting
    def in_flight(self, before: float) -> list[list[TicketRow]]:
        return _by_match(self._rows(self._in_flight, (before,)))

    @reconnecting
    def retake(self, match_id: str, claimed: float, now: float) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._retake, (now, match_id, claimed))
            return _changed(cursor) > 0

    @reconnecting
    def finish(self, match_id: str, sealed: Mapping[str, str]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            for ticket_id, seal in sealed.items():
                cursor.execute(self._finish, (seal, ticket_id, match_id))

    @reconnecting
    def of_game(self, game_id: str) -> list[TicketRow]:
        return self._rows(self._of_game, (game_id,))

    def _rows(self, statement: Any, parameters: tuple[Any, ...]) -> list[TicketRow]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, parameters)
            return [_row(found) for found in cursor.fetchall()]


def _changed(cursor: Any) -> int:
    """The rows the last statement changed (eventsourcing's SQLite cursor hides its
    driver's `rowcount`)."""
    counted = getattr(cursor, "sqlite_cursor", cursor)
    return int(counted.rowcount)


def _stored(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def _row(found: Any) -> TicketRow:
    values = list(found.values()) if isinstance(found, dict) else list(found)
    row = dict(zip(COLUMNS, values, strict=True))
    row["rated"] = bool(row["rated"])
    return TicketRow(**row)
