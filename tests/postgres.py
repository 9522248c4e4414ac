"""A fresh PostgreSQL schema per test run, on the local server.

The server is the one named by POSTGRES_HOST / _PORT / _USER / _PASSWORD
(default 127.0.0.1:5432, user postgres), database RUMMY_TEST_POSTGRES_DBNAME
(default `test`, created if missing). If it cannot be reached the test is
skipped, unless RUMMY_REQUIRE_POSTGRES is set (CI sets it): then it fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from service.config import Settings, Store


def required() -> bool:
    return os.environ.get("RUMMY_REQUIRE_POSTGRES", "") not in ("", "0")


def server_settings() -> Settings:
    """The local test server, without a schema (each run makes its own)."""
    env = {name: value for name, value in os.environ.items() if name.startswith("POSTGRES_")}
    base = Settings.from_env({**env, "RUMMY_STORE": "postgres"})
    return replace(
        base,
        store=Store.POSTGRES,
        postgres_dbname=os.environ.get("RUMMY_TEST_POSTGRES_DBNAME", "test"),
        postgres_schema="",
    )


def connect(settings: Settings, dbname: str | None = None) -> psycopg.Connection[Any]:
    return psycopg.connect(
        host=settings.postgres_host,
        port=settings.postgres_port,
        user=settings.postgres_user,
        password=settings.postgres_password,
        dbname=dbname or settings.postgres_dbname,
        autocommit=True,
        connect_timeout=3,
    )


def _problem(settings: Settings) -> str | None:
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
def fresh_schema(prefix: str = "rummy_scale") -> Iterator[Settings]:
    """Settings for a new schema, dropped with everything in it afterwards."""
    settings = server_settings()
    problem = _problem(settings)
    if problem is not None:
        if required():
            pytest.fail(f"RUMMY_REQUIRE_POSTGRES is set but {problem}")
        pytest.skip(problem)
    settings = replace(settings, postgres_schema=f"{prefix}_{uuid4().hex[:12]}")
    schema = sql.Identifier(settings.postgres_schema)
    with connect(settings) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    try:
        yield settings
    finally:
        with connect(settings) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))


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
