"""Whether a cached game is still the latest, asked as cheaply as the store allows.

Every query of the games cache (service/game/unit.py, `_current`) first asks
the store for events stored since the cached version, by any replica. The
library asks through its connection pool with a transaction around the read
(a pool checkout, `BEGIN`, the select, the end of the transaction): on SQLite
that was a third of a view GET's CPU (`bench.asgi`: 1.06-1.11 ms with it,
0.64-0.67 ms without). `SqliteFreshness` asks on a connection of the calling
thread's own, read-only and in autocommit: one indexed lookup of the next
version, which in WAL mode (the library's for a file) sees everything
committed before it starts. Only when that finds something does the
library read the new events. The refusals of idempotent requests are
looked up the same way (`first_state`): a keyed action asks for one before
it is applied, a tenth of its CPU through the library.

Elsewhere `freshness_for` gives None and the library asks: on PostgreSQL a
read is a round trip either way; the in-memory store reads no file.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping
from uuid import UUID

_MEMORY_DATABASES = (":memory:", "file::memory:")


class SqliteFreshness:
    """Answers "are there events of this game after version N?" on a per-thread,
    read-only connection to the SQLite file."""

    def __init__(self, path: str, select_events: str, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        # The library's own select of a game's events, narrowed to the first newer one.
        self.statement = select_events + "AND originator_version>? LIMIT 1"
        self._local = threading.local()
        self._lock = threading.Lock()
        self._opened: list[sqlite3.Connection] = []

    def newer(self, game_id: UUID, version: int) -> bool:
        """Whether the store holds an event of `game_id` after `version`. Raises the
        driver's error while the file cannot be read (503 `store_unavailable`)."""
        row = self._connection().execute(self.statement, (game_id.hex, version)).fetchone()
        return row is not None

    def first_state(self, select_events: str, originator_id: UUID) -> bytes | None:
        """The state of the first record of `originator_id` in the table that
        `select_events` (an aggregate recorder's own select) reads, or None: the
        refusals' lookup (service/store/refusals.py), asked on the same connection."""
        assert select_events.startswith("SELECT * "), select_events
        statement = select_events.replace("SELECT * ", "SELECT state ", 1)
        row = (
            self._connection()
            .execute(statement + "ORDER BY originator_version LIMIT 1", (originator_id.hex,))
            .fetchone()
        )
        return None if row is None else bytes(row[0])

    def close(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for connection in opened:
            connection.close()

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
            )
            connection.execute("PRAGMA query_only=1")
            with self._lock:
                self._opened.append(connection)
            self._local.connection = connection
        return connection


def freshness_for(env: Mapping[str, str], select_events: str | None) -> SqliteFreshness | None:
    """The cheap check for the store `env` configures the library with, if it has one."""
    path = env.get("SQLITE_DBNAME", "")
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.sqlite" or select_events is None:
        return None
    if not path or path.startswith(_MEMORY_DATABASES) or "mode=memory" in path:
        return None
    return SqliteFreshness(path, select_events)
