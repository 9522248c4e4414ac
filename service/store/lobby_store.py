"""The lobby kept beside the events: caught up from the feed, in memory, SQLite or
PostgreSQL (what it holds, its order and cursor: service/store/lobby_rows.py).

How it is kept (and why so): it is a projection of the global feed (the
notification log), not something the save path writes. A row set changes
only with the position it was read up to, in one transaction of the lobby's
database (`advance`: the position moves from the one read to the new one, or
nothing changes), so a process that dies between an event's save and the
lobby's write loses nothing: the next reader reads on from the stored
position. Writing it in the save path would need the event store's own
transaction (the library's recorders do not take other statements) or a
rebuild from every stored game at each start, which costs with the store's
size and still races with other replicas' saves.

Who catches it up: whoever reads it (`page` first calls `catch_up`). Only three
kinds of event change it (`GameCreated`, `PlayerJoined`, and `GameAborted`, which
takes a game still open off the list), and the feed is
read filtered by their topics, so a catch-up reads a few rows however many
moves were played since. Replicas on PostgreSQL share the table and its
position: the first reader after a change does the work once for all, and a
reader that lost the race to move the position (another replica moved it)
reads again from where that one left. On PostgreSQL the feed is read below
its horizon (service/store/feed_order.py), so a creation that commits late
is never passed over; unlike the feed's readers, a catch-up does not wait
for what is held back behind it (up to a second under steady writes): a
creation committed while an older write of any game is still in flight is
listed by the next read, milliseconds later.

Stores: a dict in memory (one process is all there is), a table in the
SQLite file, or in the PostgreSQL schema, of the event store, as the stream
tickets are kept (service/store/stream_tickets.py).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, cast
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper, Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from eventsourcing.utils import get_topic
from psycopg.sql import SQL, Identifier

from service.game.event_records import GameAborted, GameCreated, PlayerJoined
from service.store.feed_positions import PostgresPosition, SQLitePosition
from service.store.lobby_rows import LobbyPage, LobbyQuery, OpenGame, fold
from service.store.postgres import read_now
from service.store.postgres_waits import reconnecting

TABLE = "rummy_lobby"
POSITION_TABLE = "rummy_lobby_position"
TOPICS = (get_topic(GameCreated), get_topic(PlayerJoined), get_topic(GameAborted))
"""The only events that change the lobby: a game is created, a seat is taken, a game
is aborted (the caps abort only games in play; a later abort may come sooner)."""

BATCH = 500
"""Notifications read in one step of a catch-up."""

MAX_BATCHES = 20
"""Steps one listing takes at most: a store that has never had a lobby (one
upgraded with many games stored) is read into it over the first listings, a
second or two each, rather than by one listing that outlasts its client."""


class LobbyRows(Protocol):
    def position(self) -> int: ...

    def advance(self, start: int, end: int, events: Sequence[Any]) -> bool:
        """Apply `events` and move the position from `start` to `end`, all or nothing;
        False (and nothing done) if the position is no longer `start`."""

    def page(self, query: LobbyQuery) -> list[OpenGame]:
        """Up to `query.limit` + 1 games after `query.after`, newest first."""


class Lobby:
    """The lobby of one application, kept in its event store's database."""

    def __init__(self, recorder: Recorder, mapper: Mapper[UUID]) -> None:
        self.recorder = recorder
        self.mapper = mapper
        self.rows = _rows_for(recorder)

    def page(self, query: LobbyQuery) -> LobbyPage:
        """One page of listed games with open seats, as of now."""
        self.catch_up()
        found = self.rows.page(query)
        more = len(found) > query.limit
        shown = tuple(found[: query.limit])
        return LobbyPage(shown, shown[-1].cursor if more else None)

    def catch_up(self) -> None:
        """Read the creations and joins stored since the lobby's position into it, up
        to `MAX_BATCHES` steps of `BATCH`."""
        for _ in range(MAX_BATCHES):
            start = self.rows.position()
            notifications = self._read(start)
            if not notifications:
                return
            events = [self.mapper.to_domain_event(note) for note in notifications]
            moved = self.rows.advance(start, notifications[-1].id, events)
            if moved and len(notifications) < BATCH:
                return
            # Not moved: another reader moved the position first; read on from there.

    def _read(self, start: int) -> Sequence[Any]:
        """Up to `BATCH` creations and joins after position `start`. On PostgreSQL
        only those below the feed's horizon (service/store/feed_order.py), without
        waiting for the ones behind it as the feed's readers do: a listing is not
        worth a wait, and what is held back now is read by the next one."""
        return read_now(cast(ApplicationRecorder, self.recorder), start, BATCH, TOPICS)


def _rows_for(recorder: Recorder) -> LobbyRows:
    if isinstance(recorder, SQLiteRecorder):
        return _SQLiteRows(recorder.datastore)
    if isinstance(recorder, PostgresRecorder):
        return _PostgresRows(recorder.datastore)
    return _MemoryRows()


def _page(games: Iterable[OpenGame], query: LobbyQuery) -> list[OpenGame]:
    """The page in memory: the same filters and order as the SQL below."""
    after = None if query.after is None else (query.after.created_at, query.after.game_id.hex)
    chosen = sorted(
        (
            game
            for game in games
            if (query.variant is None or game.variant == query.variant)
            and (query.players is None or game.seats == query.players)
            and game.open_seats >= query.min_open
            and (after is None or (game.created_at, game.game_id.hex) < after)
        ),
        key=lambda game: (game.created_at, game.game_id.hex),
        reverse=True,
    )
    return chosen[: query.limit + 1]


class _MemoryRows:
    """In one process (the memory store): a dict under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._position = 0
        self._games: dict[UUID, OpenGame] = {}

    def position(self) -> int:
        return self._position

    def advance(self, start: int, end: int, events: Sequence[Any]) -> bool:
        with self._lock:
            if self._position != start:
                return False
            for game_id, row in fold(self._games, events).items():
                if row is None:
                    self._games.pop(game_id, None)
                else:
                    self._games[game_id] = row
            self._position = end
            return True

    def page(self, query: LobbyQuery) -> list[OpenGame]:
        with self._lock:
            games = list(self._games.values())
        return _page(games, query)


_COLUMNS = "game_id, variant, rules, players, seats, open_seats, created_at"


def _where(query: LobbyQuery, mark: str) -> tuple[str, list[Any]]:
    """The conditions and their parameters of `query` (`mark`: the driver's `?`/`%s`)."""
    conditions = [f"open_seats >= {mark}"]
    parameters: list[Any] = [query.min_open]
    if query.variant is not None:
        conditions.append(f"variant = {mark}")
        parameters.append(query.variant)
    if query.players is not None:
        conditions.append(f"seats = {mark}")
        parameters.append(query.players)
    return " AND ".join(conditions), parameters


class _SQLiteRows:
    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        self._position = SQLitePosition(POSITION_TABLE)
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (game_id TEXT PRIMARY KEY, "
                "variant TEXT NOT NULL, rules TEXT NOT NULL, players TEXT NOT NULL, "
                "seats INTEGER NOT NULL, open_seats INTEGER NOT NULL, "
                "created_at INTEGER NOT NULL)"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {TABLE}_order ON {TABLE} (created_at, game_id)"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {TABLE}_variant "
                f"ON {TABLE} (variant, created_at, game_id)"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {TABLE}_seats ON {TABLE} (seats, created_at, game_id)"
            )
            self._position.create(cursor)

    def position(self) -> int:
        return self._position.read(self.datastore)

    def advance(self, start: int, end: int, events: Sequence[Any]) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            if not self._position.moved(cursor, start, end):
                return False
            joined = list({event.originator_id.hex for event in events})
            rows = {}
            for chunk in range(0, len(joined), 500):
                part = joined[chunk : chunk + 500]
                cursor.execute(
                    f"SELECT {_COLUMNS} FROM {TABLE} "
                    f"WHERE game_id IN ({', '.join('?' * len(part))})",
                    part,
                )
                rows.update({row.game_id: row for row in map(_sqlite_row, cursor.fetchall())})
            for game_id, row in fold(rows, events).items():
                if row is None:
                    cursor.execute(f"DELETE FROM {TABLE} WHERE game_id = ?", (game_id.hex,))
                else:
                    cursor.execute(
                        f"INSERT OR REPLACE INTO {TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (game_id.hex, *row.columns()),
                    )
            return True

    def page(self, query: LobbyQuery) -> list[OpenGame]:
        where, parameters = _where(query, "?")
        if query.after is not None:
            where += " AND (created_at, game_id) < (?, ?)"
            parameters += [query.after.created_at, query.after.game_id.hex]
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT {_COLUMNS} FROM {TABLE} WHERE {where} "
                "ORDER BY created_at DESC, game_id DESC LIMIT ?",
                [*parameters, query.limit + 1],
            )
            return [_sqlite_row(row) for row in cursor.fetchall()]


def _sqlite_row(row: Any) -> OpenGame:
    return OpenGame(
        game_id=UUID(hex=row[0]),
        variant=row[1],
        rules=json.loads(row[2]),
        players=OpenGame.players_from_plain(json.loads(row[3])),
        created_at=row[6],
    )


class _PostgresRows:
    """On PostgreSQL; its statements are tried again on a fresh connection when
    theirs was lost, as the recorders' are (service/store/postgres.py)."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        table = Identifier(datastore.schema, TABLE)
        self.table = table
        self._position = PostgresPosition(datastore.schema, POSITION_TABLE)
        self._rows = SQL(
            "SELECT game_id, variant, rules, players, created_at FROM {} WHERE game_id = ANY(%s)"
        ).format(table)
        self._delete = SQL("DELETE FROM {} WHERE game_id = ANY(%s)").format(table)
        self._upsert = SQL(
            "INSERT INTO {} (game_id, variant, rules, players, seats, open_seats, created_at) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE SET "
            "players = EXCLUDED.players, open_seats = EXCLUDED.open_seats"
        ).format(table)
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the tables.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TABLE,))
            cursor.execute(
                SQL(
                    "CREATE TABLE IF NOT EXISTS {} (game_id uuid PRIMARY KEY, "
                    "variant text NOT NULL, rules jsonb NOT NULL, players jsonb NOT NULL, "
                    "seats integer NOT NULL, open_seats integer NOT NULL, "
                    "created_at bigint NOT NULL)"
                ).format(table)
            )
            # Before the indexes: PostgresPosition.create says why.
            self._position.create(cursor)
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (created_at, game_id)").format(
                    Identifier(f"{TABLE}_order"), table
                )
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (variant, created_at, game_id)").format(
                    Identifier(f"{TABLE}_variant"), table
                )
            )
            cursor.execute(
                SQL("CREATE INDEX IF NOT EXISTS {} ON {} (seats, created_at, game_id)").format(
                    Identifier(f"{TABLE}_seats"), table
                )
            )

    @reconnecting
    def position(self) -> int:
        return self._position.read(self.datastore)

    @reconnecting
    def advance(self, start: int, end: int, events: Sequence[Any]) -> bool:
        # A retry after a lost reply finds the position moved (by its own commit) and
        # does nothing: the reader then reads on from the position as stored.
        with self.datastore.transaction(commit=True) as cursor:
            # The row lock this takes is held to the commit: another replica's advance
            # waits for it, then finds the position moved and changes nothing.
            if not self._position.moved(cursor, start, end):
                return False
            cursor.execute(self._rows, (list({event.originator_id for event in events}),))
            rows = {row["game_id"]: _postgres_row(row) for row in cursor.fetchall()}
            changes = fold(rows, events)
            gone = [game_id for game_id, row in changes.items() if row is None]
            if gone:
                cursor.execute(self._delete, (gone,))
            for game_id, row in changes.items():
                if row is not None:
                    cursor.execute(
                        self._upsert,
                        (game_id, *row.columns()),
                    )
            return True

    @reconnecting
    def page(self, query: LobbyQuery) -> list[OpenGame]:
        where, parameters = _where(query, "%s")
        if query.after is not None:
            where += " AND (created_at, game_id) < (%s, %s)"
            parameters += [query.after.created_at, query.after.game_id]
        statement = SQL(
            "SELECT game_id, variant, rules, players, created_at FROM {} WHERE "
            + where
            + " ORDER BY created_at DESC, game_id DESC LIMIT %s"
        ).format(self.table)
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, [*parameters, query.limit + 1])
            return [_postgres_row(row) for row in cursor.fetchall()]


def _postgres_row(row: dict[str, Any]) -> OpenGame:
    return OpenGame(
        game_id=row["game_id"],
        variant=row["variant"],
        rules=row["rules"],
        players=OpenGame.players_from_plain(row["players"]),
        created_at=row["created_at"],
    )
