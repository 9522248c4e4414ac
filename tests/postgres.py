"""A fresh PostgreSQL schema per test run, on the local server.

The server is the one named by POSTGRES_HOST / _PORT / _USER / _PASSWORD
(default 127.0.0.1:5432, user postgres), database RUMMY_TEST_POSTGRES_DBNAME
(default `test`, created if missing); under pytest-xdist each worker has a
database of its own, that name and the worker's (`test_gw0`, `test_gw1`, ...):
advisory locks and `NOTIFY` channels are per database, so one worker's
replicas never wait for, or wake, another's. If it cannot be reached the test
is skipped, unless RUMMY_REQUIRE_POSTGRES is set (CI sets it): then it fails.

The benches take their stores here too (`new_schema`, which raises
`Unreachable` instead of skipping): one way to make and drop a schema.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from service.config import Settings, Store


def required() -> bool:
    return os.environ.get("RUMMY_REQUIRE_POSTGRES", "") not in ("", "0")


def worker_database() -> str:
    """The database of the tests: RUMMY_TEST_POSTGRES_DBNAME (`test`), one per
    pytest-xdist worker (`test_gw0`, ...)."""
    name = os.environ.get("RUMMY_TEST_POSTGRES_DBNAME", "test")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}_{worker}" if worker else name


def server_settings() -> Settings:
    """The local test server, without a schema (each run makes its own)."""
    env = {name: value for name, value in os.environ.items() if name.startswith("POSTGRES_")}
    base = Settings.from_env({**env, "RUMMY_STORE": "postgres"})
    return replace(
        base,
        store=Store.POSTGRES,
        postgres_dbname=worker_database(),
        postgres_schema="",
    )


def conninfo(settings: Settings, dbname: str | None = None) -> str:
    """The connection string of `settings`' server, in its database or `dbname`."""
    return psycopg.conninfo.make_conninfo(
        host=settings.postgres_host,
        port=settings.postgres_port,
        user=settings.postgres_user,
        password=settings.postgres_password,
        dbname=dbname or settings.postgres_dbname,
        connect_timeout=3,
    )


def connect(settings: Settings, dbname: str | None = None) -> psycopg.Connection[Any]:
    return psycopg.connect(conninfo(settings, dbname), autocommit=True)


def scalar(conn: psycopg.Connection[Any], statement: sql.Composed | str, params: Any = ()) -> Any:
    """The first value of the first row `statement` returns."""
    row = conn.execute(statement, params).fetchone()
    assert row is not None, "the statement returns a row"
    return row[0]


class Unreachable(RuntimeError):
    """The PostgreSQL server cannot be used: the message says why."""


def _problem(settings: Settings) -> str | None:
    """Why the server of `settings` cannot be used, or None; creates the database
    if it is missing."""
    try:
        with connect(settings):
            return None
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            return f"PostgreSQL is unreachable: {str(error).strip()}"
    try:
        with connect(settings, "postgres") as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {}").format(sql.Identifier(settings.postgres_dbname))
            )
    except psycopg.errors.DuplicateDatabase:
        return None
    except psycopg.Error as error:
        return f"cannot create database {settings.postgres_dbname!r}: {error}"
    return None


@contextmanager
def new_schema(prefix: str, settings: Settings | None = None) -> Iterator[Settings]:
    """`settings` (default: the local test server's) for a new schema named
    `prefix_<random>`, dropped with everything in it afterwards. Raises
    `Unreachable` if the server cannot be used."""
    settings = settings or server_settings()
    problem = _problem(settings)
    if problem is not None:
        raise Unreachable(problem)
    settings = replace(settings, postgres_schema=f"{prefix}_{uuid4().hex[:12]}")
    schema = sql.Identifier(settings.postgres_schema)
    with connect(settings) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    try:
        yield settings
    finally:
        with connect(settings) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))


@contextmanager
def fresh_schema(prefix: str = "rummy_scale") -> Iterator[Settings]:
    """For a test: `new_schema`, or the test skipped if the server cannot be used
    (failed under RUMMY_REQUIRE_POSTGRES)."""
    with ExitStack() as stack:
        try:
            settings = stack.enter_context(new_schema(prefix))
        except Unreachable as error:
            if required():
                pytest.fail(f"RUMMY_REQUIRE_POSTGRES is set but {error}")
            pytest.skip(str(error))
        yield settings


def service_environment(settings: Settings) -> dict[str, str]:
    """The environment variables that point a service process at `settings`' store."""
    return {
        "RUMMY_STORE": "postgres",
        "POSTGRES_HOST": settings.postgres_host,
        "POSTGRES_PORT": str(settings.postgres_port),
        "POSTGRES_USER": settings.postgres_user,
        "POSTGRES_PASSWORD": settings.postgres_password,
        "POSTGRES_DBNAME": settings.postgres_dbname,
        "POSTGRES_SCHEMA": settings.postgres_schema,
    }
