"""The three event stores the application tests run on.

PostgreSQL: the server named by POSTGRES_HOST / _PORT / _USER / _PASSWORD
(default 127.0.0.1:5432, user postgres), database RUMMY_TEST_POSTGRES_DBNAME
(default `test`, created if missing). Each test gets a schema of its own,
dropped afterwards: the library creates its tables in it. If the server
cannot be reached the PostgreSQL tests are skipped, unless
RUMMY_REQUIRE_POSTGRES=1 (CI sets it): then they fail.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from psycopg import sql

from service.config import Settings, Store
from service.game.application import RummyApplication

REQUIRE_POSTGRES = os.environ.get("RUMMY_REQUIRE_POSTGRES") == "1"


def postgres_settings() -> Settings:
    """Where the PostgreSQL tests run (without a schema: each test adds its own)."""
    settings = Settings.from_env()
    return replace(
        settings,
        store=Store.POSTGRES,
        postgres_dbname=os.environ.get("RUMMY_TEST_POSTGRES_DBNAME", "test"),
        postgres_schema="",
        postgres_pool_size=2,
    )


def _connect(settings: Settings, dbname: str | None = None) -> psycopg.Connection[Any]:
    return psycopg.connect(
        host=settings.postgres_host,
        port=settings.postgres_port,
        user=settings.postgres_user,
        password=settings.postgres_password,
        dbname=dbname or settings.postgres_dbname,
        autocommit=True,
        connect_timeout=3,
    )


@functools.cache
def postgres_problem() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None if they can."""
    settings = postgres_settings()
    try:
        with _connect(settings):
            return None
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            return f"PostgreSQL is unreachable: {error}"
    try:
        with _connect(settings, "postgres") as conn:
            conn.execute(
                sql.SQL("CREATE DATABASE {}").format(sql.Identifier(settings.postgres_dbname))
            )
    except psycopg.Error as error:
        return f"cannot create database {settings.postgres_dbname!r}: {error}"
    return None


def require_postgres() -> None:
    """Skip (or, with RUMMY_REQUIRE_POSTGRES=1, fail) when PostgreSQL is not usable."""
    problem = postgres_problem()
    if problem is None:
        return
    if REQUIRE_POSTGRES:
        pytest.fail(f"RUMMY_REQUIRE_POSTGRES=1 but {problem}")
    pytest.skip(problem)


@contextmanager
def postgres_schema() -> Iterator[Settings]:
    """Settings for a fresh schema, dropped with everything in it afterwards."""
    require_postgres()
    settings = replace(postgres_settings(), postgres_schema=f"rummy_test_{uuid4().hex[:16]}")
    schema = sql.Identifier(settings.postgres_schema)
    with _connect(settings) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    try:
        yield settings
    finally:
        with _connect(settings) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))


@dataclass
class StoreUnderTest:
    """One store for one test; `app()` opens an application on it.

    On SQLite and PostgreSQL every application opened shares the same
    stored events; the in-memory store belongs to a single application.
    """

    settings: Settings
    apps: list[RummyApplication] = field(default_factory=list)

    @property
    def kind(self) -> Store:
        return self.settings.store

    @property
    def shared(self) -> bool:
        return self.kind is not Store.MEMORY

    def app(self, **env: str) -> RummyApplication:
        opened = RummyApplication(env={**self.settings.event_store_env(), **env})
        self.apps.append(opened)
        return opened

    def close(self) -> None:
        for opened in self.apps:
            opened.close()


@contextmanager
def open_store(kind: Store, tmp_path: Path) -> Iterator[StoreUnderTest]:
    if kind is Store.POSTGRES:
        with postgres_schema() as settings:
            store = StoreUnderTest(settings)
            try:
                yield store
            finally:
                store.close()
        return
    settings = Settings(store=kind, sqlite_path=str(tmp_path / "rummy.sqlite"))
    store = StoreUnderTest(settings)
    try:
        yield store
    finally:
        store.close()
