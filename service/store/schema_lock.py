"""Opening the store on PostgreSQL one process at a time.

The library creates its table, type and insert function each
time an application opens (`CREATE ... IF NOT EXISTS`, `CREATE OR REPLACE
FUNCTION`). Those statements are not safe to run concurrently: replicas or
workers starting together on one database fail with `duplicate key value
violates unique constraint "pg_type_typname_nsp_index"` or `tuple concurrently
updated` (seen here in 12 of 15 rounds of three processes starting at once,
and in 11 of 15 even with the table already there). So every process opens
the store under one PostgreSQL advisory lock per schema: they take turns for
the few milliseconds it takes. The feed's migration (`feed_order.migrate`)
runs then too, and takes an advisory lock of its own as well.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from service.config import Settings
from service.game.errors import StoreUnavailable
from service.store.postgres_waits import silent_after

LOCK_WAIT_SECONDS = 60
"""How long a process waits for another to finish opening the store."""


def lock_key(settings: Settings) -> int:
    """The advisory lock of the schema the events live in, as a signed 64-bit key."""
    name = f"rummy-event-store:{settings.postgres_schema or 'public'}"
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def schema_lock(settings: Settings) -> Iterator[None]:
    """Hold the schema's advisory lock (a session lock on a connection of its own,
    whose waits for the server end after the lock's wait and the reply timeout)."""
    bound = silent_after(LOCK_WAIT_SECONDS + settings.postgres_reply_timeout)
    try:
        connection = bound.connect(
            host=settings.postgres_host,
            port=settings.postgres_port,
            user=settings.postgres_user,
            password=settings.postgres_password,
            dbname=settings.postgres_dbname,
            connect_timeout=settings.postgres_connect_timeout,
            autocommit=True,
            application_name="rummy-startup",
        )
    except psycopg.OperationalError as error:
        raise StoreUnavailable(
            f"cannot connect to {settings.describe_store()}: {str(error).strip()}"
        ) from error
    key = lock_key(settings)
    with connection:
        connection.execute(f"SET statement_timeout = '{LOCK_WAIT_SECONDS}s'")
        connection.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
