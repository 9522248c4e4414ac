"""Platforms, their signing keys and the players they vouched for: kept beside the
events, never in them.

Three tables in the event store's database (SQLite and PostgreSQL alike; dicts
in memory, where one process is all there is), as the stream tickets and the
webhooks' endpoints are kept, for the same reason: every replica shares that
database on every store.

    rummy_platforms       platform_id, name, token_hash (the platform's bearer
                          token is never stored, only its SHA-256)
    rummy_platform_keys   platform_id, kid, alg, material (an HS256 secret or a
                          PEM public key); several at once: key rotation
    rummy_players         pseudonym, platform_id, player, secret, name: the one
                          link between a pseudonym stored in games' events and
                          the player it stands for (service/players/pseudonyms.py)

Erasing a player deletes its `rummy_players` row: the secret, the reference and
the asserted name go together, and the pseudonyms left in the events point at
nothing (docs/privacy.md). Nothing here is an event: the hash chains of the
audit exports never covered any of it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.store.postgres_waits import reconnecting

PLATFORMS = "rummy_platforms"
KEYS = "rummy_platform_keys"
PLAYERS = "rummy_players"


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One signing key of a platform: `material` is an HS256 secret (base64url) or a
    PEM public key (EdDSA, ES256)."""

    kid: str
    alg: str
    material: str


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """What links a pseudonym to its player: deleted whole when the player is erased."""

    pseudonym: str
    platform_id: str
    player: str
    secret: str
    """Hex; the key of the HMAC that made `pseudonym` (service/players/pseudonyms.py)."""
    name: str
    """The display name of the player's latest assertion."""


class PlayerTables(Protocol):
    def add_platform(self, platform_id: str, name: str, token_hash: str, key: KeyRow) -> None: ...

    def platform_of(self, token_hash: str) -> str | None:
        """The platform whose token hashes to `token_hash`, if any."""

    def has_platform(self, platform_id: str) -> bool: ...

    def keys(self, platform_id: str) -> list[KeyRow]: ...

    def add_key(self, platform_id: str, key: KeyRow) -> bool:
        """False if the platform has a key of that `kid` already (nothing changed)."""

    def retire_key(self, platform_id: str, kid: str) -> bool:
        """False if it had no such key."""

    def player(self, platform_id: str, player: str) -> PlayerRow | None: ...

    def add_player(self, row: PlayerRow) -> PlayerRow:
        """`row`, or the row another writer stored first for the same player."""

    def rename(self, pseudonym: str, name: str) -> None: ...

    def shown(self, pseudonyms: Iterable[str]) -> dict[str, PlayerRow]:
        """The rows of those of `pseudonyms` that still have one (not erased)."""

    def erase(self, platform_id: str, player: str) -> bool:
        """Delete the player's row; False if there was none."""


def player_tables(recorder: Recorder) -> PlayerTables:
    """The tables in the database of `recorder`'s event store."""
    if isinstance(recorder, SQLiteRecorder):
        return _SQLiteTables(recorder.datastore)
    if isinstance(recorder, PostgresRecorder):
        return _PostgresTables(recorder.datastore)
    return MemoryPlayerTables()


class MemoryPlayerTables:
    """In one process (the memory store): dicts under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._platforms: dict[str, tuple[str, str]] = {}
        self._keys: dict[str, dict[str, KeyRow]] = {}
        self._players: dict[str, PlayerRow] = {}

    def add_platform(self, platform_id: str, name: str, token_hash: str, key: KeyRow) -> None:
        with self._lock:
            self._platforms[platform_id] = (name, token_hash)
            self._keys[platform_id] = {key.kid: key}

    def platform_of(self, token_hash: str) -> str | None:
        with self._lock:
            found = [pid for pid, (_, kept) in self._platforms.items() if kept == token_hash]
        return found[0] if found else None

    def has_platform(self, platform_id: str) -> bool:
        return platform_id in self._platforms

    def keys(self, platform_id: str) -> list[KeyRow]:
        with self._lock:
            return list(self._keys.get(platform_id, {}).values())

    def add_key(self, platform_id: str, key: KeyRow) -> bool:
        with self._lock:
            kept = self._keys.setdefault(platform_id, {})
            if key.kid in kept:
                return False
            kept[key.kid] = key
            return True

    def retire_key(self, platform_id: str, kid: str) -> bool:
        with self._lock:
            return self._keys.get(platform_id, {}).pop(kid, None) is not None

    def player(self, platform_id: str, player: str) -> PlayerRow | None:
        with self._lock:
            return next(
                (
                    row
                    for row in self._players.values()
                    if (row.platform_id, row.player) == (platform_id, player)
                ),
                None,
            )

    def add_player(self, row: PlayerRow) -> PlayerRow:
        with self._lock:
            for kept in self._players.values():
                if (kept.platform_id, kept.player) == (row.platform_id, row.player):
                    return kept
            self._players[row.pseudonym] = row
            return row

    def rename(self, pseudonym: str, name: str) -> None:
        with self._lock:
            row = self._players.get(pseudonym)
            if row is not None:
                self._players[pseudonym] = PlayerRow(
                    row.pseudonym, row.platform_id, row.player, row.secret, name
                )

    def shown(self, pseudonyms: Iterable[str]) -> dict[str, PlayerRow]:
        with self._lock:
            return {p: self._players[p] for p in pseudonyms if p in self._players}

    def erase(self, platform_id: str, player: str) -> bool:
        with self._lock:
            for pseudonym, row in list(self._players.items()):
                if (row.platform_id, row.player) == (platform_id, player):
                    del self._players[pseudonym]
                    return True
            return False


_COLUMNS = "pseudonym, platform_id, player, secret, name"

_CREATE = (
    f"CREATE TABLE IF NOT EXISTS {PLATFORMS} (platform_id TEXT PRIMARY KEY, "
    "name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE)",
    f"CREATE TABLE IF NOT EXISTS {KEYS} (platform_id TEXT NOT NULL, kid TEXT NOT NULL, "
    "alg TEXT NOT NULL, material TEXT NOT NULL, PRIMARY KEY (platform_id, kid))",
    f"CREATE TABLE IF NOT EXISTS {PLAYERS} (pseudonym TEXT PRIMARY KEY, "
    "platform_id TEXT NOT NULL, player TEXT NOT NULL, secret TEXT NOT NULL, "
    "name TEXT NOT NULL, UNIQUE (platform_id, player))",
)
"""The same statements on both databases (plain types both understand)."""


class _SqlTables:
    """The statements both databases run alike (`?` marks; each subclass runs them)."""

    def _rows(
        self, statement: str, parameters: tuple[Any, ...] = (), *, write: bool = True
    ) -> list[tuple[Any, ...]]:
        """Run one statement as its own transaction; the rows it returns. A read
        (`write=False`) takes a reader's connection (SQLite: not the one writer's)."""
        raise NotImplementedError

    def _many(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run `statements` in one transaction."""
        raise NotImplementedError

    def add_platform(self, platform_id: str, name: str, token_hash: str, key: KeyRow) -> None:
        self._many(
            [
                (
                    f"INSERT INTO {PLATFORMS} (platform_id, name, token_hash) VALUES (?, ?, ?) "
                    # A retry after a lost reply meets its own row (a random id).
                    "ON CONFLICT DO NOTHING",
                    (platform_id, name, token_hash),
                ),
                (
                    f"INSERT INTO {KEYS} (platform_id, kid, alg, material) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (platform_id, key.kid, key.alg, key.material),
                ),
            ]
        )

    def platform_of(self, token_hash: str) -> str | None:
        rows = self._rows(
            f"SELECT platform_id FROM {PLATFORMS} WHERE token_hash = ?", (token_hash,), write=False
        )
        return rows[0][0] if rows else None

    def has_platform(self, platform_id: str) -> bool:
        found = self._rows(
            f"SELECT 1 FROM {PLATFORMS} WHERE platform_id = ?", (platform_id,), write=False
        )
        return bool(found)

    def keys(self, platform_id: str) -> list[KeyRow]:
        rows = self._rows(
            f"SELECT kid, alg, material FROM {KEYS} WHERE platform_id = ? ORDER BY kid",
            (platform_id,),
            write=False,
        )
        return [KeyRow(*row) for row in rows]

    def add_key(self, platform_id: str, key: KeyRow) -> bool:
        added = self._rows(
            f"INSERT INTO {KEYS} (platform_id, kid, alg, material) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING kid",
            (platform_id, key.kid, key.alg, key.material),
        )
        return bool(added)

    def retire_key(self, platform_id: str, kid: str) -> bool:
        gone = self._rows(
            f"DELETE FROM {KEYS} WHERE platform_id = ? AND kid = ? RETURNING kid",
            (platform_id, kid),
        )
        return bool(gone)

    def player(self, platform_id: str, player: str) -> PlayerRow | None:
        rows = self._rows(
            f"SELECT {_COLUMNS} FROM {PLAYERS} WHERE platform_id = ? AND player = ?",
            (platform_id, player),
            write=False,
        )
        return PlayerRow(*rows[0]) if rows else None

    def add_player(self, row: PlayerRow) -> PlayerRow:
        self._rows(
            f"INSERT INTO {PLAYERS} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (row.pseudonym, row.platform_id, row.player, row.secret, row.name),
        )
        kept = self.player(row.platform_id, row.player)
        assert kept is not None, "inserted, or another writer's row"
        return kept

    def rename(self, pseudonym: str, name: str) -> None:
        self._rows(f"UPDATE {PLAYERS} SET name = ? WHERE pseudonym = ?", (name, pseudonym))

    def shown(self, pseudonyms: Iterable[str]) -> dict[str, PlayerRow]:
        wanted = list(dict.fromkeys(pseudonyms))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = self._rows(
            f"SELECT {_COLUMNS} FROM {PLAYERS} WHERE pseudonym IN ({marks})",
            tuple(wanted),
            write=False,
        )
        return {row[0]: PlayerRow(*row) for row in rows}

    def erase(self, platform_id: str, player: str) -> bool:
        gone = self._rows(
            f"DELETE FROM {PLAYERS} WHERE platform_id = ? AND player = ? RETURNING pseudonym",
            (platform_id, player),
        )
        return bool(gone)


class _SQLiteTables(_SqlTables):
    def __init__(self, datastore: SQLiteDatastore) -> None:
        self.datastore = datastore
        self._many([(statement, ()) for statement in _CREATE])

    def _rows(
        self, statement: str, parameters: tuple[Any, ...] = (), *, write: bool = True
    ) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=write) as cursor:
            cursor.execute(statement, parameters)
            return [tuple(row) for row in cursor.fetchall()]

    def _many(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            for statement, parameters in statements:
                cursor.execute(statement, parameters)

    def erase(self, platform_id: str, player: str) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            # SQLite leaves a deleted row's bytes in the file's free pages unless told
            # to overwrite them (docs/privacy.md; PostgreSQL: until VACUUM).
            cursor.execute("PRAGMA secure_delete = ON")
            cursor.execute(
                f"DELETE FROM {PLAYERS} WHERE platform_id = ? AND player = ? RETURNING pseudonym",
                (platform_id, player),
            )
            return bool(cursor.fetchall())


class _PostgresTables(_SqlTables):
    """On PostgreSQL; each transaction is tried again on a fresh connection when its
    own was lost (service/store/postgres_waits.py)."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        self.datastore = datastore
        self._names = {
            name: Identifier(datastore.schema, name) for name in (PLATFORMS, KEYS, PLAYERS)
        }
        with datastore.transaction(commit=True) as cursor:
            # Replicas opening the store together would race to create the tables.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (PLAYERS,))
            for statement in _CREATE:
                cursor.execute(self._sql(statement))

    def _sql(self, statement: str) -> Any:
        """`statement` with the tables named in this store's schema and `%s` marks."""
        text = statement.replace("?", "%s")
        for name in (PLATFORMS, KEYS, PLAYERS):
            text = text.replace(f" {name} ", " {" + name + "} ")
        return SQL(text).format(**self._names)

    @reconnecting
    def _rows(
        self, statement: str, parameters: tuple[Any, ...] = (), *, write: bool = True
    ) -> list[tuple[Any, ...]]:
        with self.datastore.transaction(commit=write) as cursor:
            cursor.execute(self._sql(statement), parameters)
            if cursor.description is None:
                return []
            return [tuple(row.values()) for row in cursor.fetchall()]

    @reconnecting
    def _many(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            for statement, parameters in statements:
                cursor.execute(self._sql(statement), parameters)
