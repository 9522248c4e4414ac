"""A test write to the event store's database, for `/ready` after a write failed.

Reads can work while writes fail: a full disk (SQLite's `database or disk is
full`), a read-only file or mount, a PostgreSQL server turned read-only. The
application remembers a save that failed; until one succeeds, `/ready` asks
for this probe, and a probe that succeeds clears it (`docs/storage.md`).

The probe does what an append needs: it inserts `PROBE_BYTES` of fresh random
data into a table of its own in the same database (new pages, or free ones
an append could use as well), deletes it again, and commits, all in one
transaction, so nothing is left behind and the events are never touched.
"""

from __future__ import annotations

import os

from eventsourcing.persistence import Recorder
from eventsourcing.postgres import PostgresRecorder
from eventsourcing.sqlite import SQLiteRecorder
from psycopg.sql import SQL, Identifier

TABLE = "rummy_write_probe"
PROBE_BYTES = 8192
"""Two pages of SQLite's, one of PostgreSQL's: more than one event takes."""


def probe_write(recorder: Recorder) -> None:
    """Write to and clear the probe table in `recorder`'s database; raises what the
    store's driver raises (as the library's errors) if it cannot."""
    data = os.urandom(PROBE_BYTES)  # random: nothing to compress away
    if isinstance(recorder, SQLiteRecorder):
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (data BLOB NOT NULL)")
            cursor.execute(f"INSERT INTO {TABLE} (data) VALUES (?)", (data,))
            cursor.execute(f"DELETE FROM {TABLE}")
    elif isinstance(recorder, PostgresRecorder):
        table = Identifier(recorder.datastore.schema, TABLE)
        with recorder.datastore.transaction(commit=True) as cursor:
            # Replicas probing at once would race to create the table otherwise.
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TABLE,))
            cursor.execute(SQL("CREATE TABLE IF NOT EXISTS {} (data bytea NOT NULL)").format(table))
            cursor.execute(SQL("INSERT INTO {} (data) VALUES (%s)").format(table), (data,))
            cursor.execute(SQL("DELETE FROM {}").format(table))
    # In memory, a write cannot fail for want of room.
