"""Feed positions on PostgreSQL in transaction order, without a table lock.

The global feed needs positions that a follower can page through with "after
N" and never pass over an event that commits later with a lower position.
A sequence alone does not give that: two appends take numbers in one order
and may commit in the other. The library (and this service until 1.0.0)
made every append take the events table's `EXCLUSIVE` lock, so appends
committed one at a time, each waiting for the one before to flush its
commit to disk.

Here an event's position is made from the id of the transaction that
appends it and its place in that append:

    position = (transaction id + offset) << PLACE_BITS | place    (place 1..MAX_PLACE)

and a reader reads only positions below the *horizon*,

    horizon = (pg_snapshot_xmin(pg_current_snapshot()) + offset) << PLACE_BITS

the oldest transaction still in flight, as PostgreSQL's own snapshots know it.
Every transaction older than that one has ended, so every event below the
horizon that will ever exist is already visible, and every event still to
commit lies above it: a follower never passes over one. An append's events
take consecutive places in the order the library gives them (a game's
versions in order), and an append that carries a game's next version starts
after the one before it committed, so it has a higher transaction id: each
game's events are in version order. Events committed above the horizon are
held back until the transactions older than theirs end (readers wait a
little for them: `service.store.postgres`).

Functions hold the formula: `rummy_feed_position(place)`, which the
service's appends call with each event's place, `rummy_feed_position()`, the
column's default (the transaction's next place, so any other writer, the
library's recorder included, gets a position of this kind too),
`rummy_feed_horizon()`, and `rummy_feed_offset()`, which returns the offset.
The offset keeps new positions above every position already stored: 0 for a
new table; for a table the locked recorder wrote, as much as its numbers
need; raised again if the table's positions are ahead of the server's
transaction ids (a dump restored into a new cluster, whose ids start low).
`migrate` sets all of that up, idempotently, under an advisory lock, the
first time with the table locked while the default changes.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from typing import Any

from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier, Literal

log = logging.getLogger(__name__)

PLACE_BITS = 12
"""Bits of a position for the event's place in its append: up to 4,095 events
in one transaction. The rest holds the transaction id: positions stay below
2**53 (exact in JavaScript, and the API's bound on `after`) for the first
2**41 transactions of a server, 70 years at 1,000 a second."""
MAX_PLACE = (1 << PLACE_BITS) - 1

POSITION = "rummy_feed_position"
HORIZON = "rummy_feed_horizon"
OFFSET = "rummy_feed_offset"
PLACE_SETTING = "rummy.feed_place"
"""A transaction-local setting: the place of the last event the transaction appended."""

MIN_SERVER = 130000
"""`pg_current_xact_id()` and `pg_current_snapshot()` came with PostgreSQL 13."""


class FeedSchema:
    """The names and SQL of one events table's feed functions."""

    def __init__(self, schema: str, table: str, channel: str) -> None:
        self.schema = schema
        self.table = table
        self.channel = channel
        self.qualified = Identifier(schema, table)
        self.position = Identifier(schema, POSITION)
        self.horizon = Identifier(schema, HORIZON)
        self.offset = Identifier(schema, OFFSET)

    def functions(self, offset: int) -> list[Composed]:
        """CREATE OR REPLACE the functions of the formula, with `offset`:
        `position(place)` (the formula itself, inlined where it is called),
        `position()` (the column's default: the next place of the transaction),
        `horizon()` and `offset()`."""
        shift = Literal(PLACE_BITS)
        return [
            SQL(
                "CREATE OR REPLACE FUNCTION {position}(place integer) RETURNS bigint "
                "LANGUAGE sql VOLATILE AS $$ "
                "SELECT ((pg_current_xact_id()::text::bigint + {value}) << {shift}) + place $$"
            ).format(position=self.position, value=Literal(offset), shift=shift),
            SQL(
                "CREATE OR REPLACE FUNCTION {offset}() RETURNS bigint "
                "LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT {value}::bigint $$"
            ).format(offset=self.offset, value=Literal(offset)),
            SQL(
                "CREATE OR REPLACE FUNCTION {horizon}() RETURNS bigint "
                "LANGUAGE sql STABLE PARALLEL SAFE AS $$ "
                "SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint + {value}) "
                "<< {shift} $$"
            ).format(horizon=self.horizon, value=Literal(offset), shift=shift),
            SQL(
                "CREATE OR REPLACE FUNCTION {position}() RETURNS bigint "
                "LANGUAGE plpgsql VOLATILE AS $BODY$ DECLARE place integer := "
                "coalesce(nullif(current_setting({setting}, true), ''), '0')::integer + 1; "
                "BEGIN "
                "IF place > {max_place} THEN RAISE EXCEPTION "
                "'one transaction may append at most {max_place} events' "
                "USING ERRCODE = 'program_limit_exceeded'; END IF; "
                "PERFORM set_config({setting}, place::text, true); "
                "RETURN {position}(place); "
                "END $BODY$"
            ).format(
                position=self.position,
                setting=Literal(PLACE_SETTING),
                max_place=SQL(str(MAX_PLACE)),
            ),
        ]

    def lock_key(self) -> int:
        """The advisory lock of this table's migration, as a signed 64-bit key."""
        name = f"rummy-feed-order:{self.schema}.{self.table}"
        return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def migrate(datastore: PostgresDatastore, feed: FeedSchema) -> int:
    """Give `feed`'s table transaction-ordered positions, or check that it has them;
    returns the offset. Safe to run from several processes at once, and again."""
    table = feed.qualified
    with datastore.transaction(commit=True) as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::integer AS version")
        version = _one(cursor)["version"]
        if version < MIN_SERVER:
            raise RuntimeError(
                f"the event store needs PostgreSQL 13 or newer (server_version_num {version})"
            )
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (feed.lock_key(),))
        cursor.execute(
            "SELECT column_default FROM information_schema.columns "
            "WHERE table_schema = %s AND table_name = %s AND column_name = 'notification_id'",
            (feed.schema, feed.table),
        )
        default = _one(cursor)["column_default"] or ""
        migrated = POSITION in default
        offset = 0
        if migrated:
            cursor.execute(SQL("SELECT {}() AS offset").format(feed.offset))
            offset = int(_one(cursor)["offset"])
            # xmax: the first transaction id not yet given out.
            cursor.execute(
                SQL(
                    "SELECT max(notification_id) AS newest, "
                    "pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax FROM {}"
                ).format(table)
            )
            row = _one(cursor)
            if row["newest"] is None or (row["newest"] >> PLACE_BITS) - offset < row["xmax"]:
                # Every stored position is below what a new append takes. The functions
                # are made again as this code has them (the same offset, no table lock).
                for statement in feed.functions(offset):
                    cursor.execute(statement)
                return offset
            log.warning(
                "feed positions of %s are ahead of the server's transaction ids "
                "(a restored dump?): raising their offset",
                f"{feed.schema}.{feed.table}",
            )
        # No append runs while the table is locked; ALTER TABLE needs this lock anyway.
        cursor.execute(SQL("LOCK TABLE {} IN ACCESS EXCLUSIVE MODE").format(table))
        cursor.execute(
            SQL(
                "SELECT max(notification_id) AS newest, "
                "pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin FROM {}"
            ).format(table)
        )
        row = _one(cursor)
        # Every append from now on has a transaction id of at least `xmin`.
        needed = ((row["newest"] or 0) >> PLACE_BITS) + 1 - row["xmin"]
        offset = max(offset, int(needed))
        for statement in feed.functions(offset):
            cursor.execute(statement)
        if not migrated:
            cursor.execute(
                SQL("ALTER TABLE {} ALTER COLUMN notification_id SET DEFAULT {}()").format(
                    table, feed.position
                )
            )
    return offset


def _one(cursor: Any) -> Any:
    row = cursor.fetchone()
    assert row is not None, "the query returns one row"
    return row


class Wakeups:
    """Sends the table's `NOTIFY` after appends, from a thread of its own.

    A `NOTIFY` inside an append would serialise appends again: PostgreSQL holds
    one lock per database from a notifying transaction's pre-commit until after
    its commit, flush included. So the append commits without it and asks for
    a wake-up, and this thread sends one `NOTIFY` for every append that asked
    since the one before, each sent after the appends it stands for committed:
    at once if none was sent in the last `interval` seconds, else when that
    interval is up (at most one per interval and process, however busy). Listeners
    poll as well (`FeedSubscription`), so a wake-up lost with a process is late,
    not lost.
    """

    def __init__(self, datastore: PostgresDatastore, channel: str, interval: float) -> None:
        self._datastore = datastore
        self._statement = SQL("NOTIFY {}").format(Identifier(channel)).as_string()
        self._interval = interval
        self._wanted = threading.Event()
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def want(self) -> None:
        """Ask for a `NOTIFY` (after the append that asks has committed)."""
        if self._thread is None:
            with self._lock:
                if self._thread is None and not self._closed.is_set():
                    self._thread = threading.Thread(
                        target=self._run, name="rummy-feed-wakeups", daemon=True
                    )
                    self._thread.start()
        self._wanted.set()

    def close(self) -> None:
        with self._lock:
            self._closed.set()
            thread = self._thread
        self._wanted.set()
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        failing = False
        while True:
            self._wanted.wait()
            if self._closed.is_set():
                return
            self._wanted.clear()
            try:
                with self._datastore.get_connection() as connection:
                    connection.execute(self._statement)
            except Exception as error:
                if not failing:
                    log.warning("could not send the feed's NOTIFY: %r", error)
                failing = True
            else:
                failing = False
            if self._closed.wait(self._interval):
                return
