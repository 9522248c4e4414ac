"""Settings and fixtures for the whole suite.

A fixture name means one thing in every folder: `store` is a store under test
(in memory, SQLite, PostgreSQL: a test runs on each), `shared_store` one that
several applications (replicas) can share (SQLite, PostgreSQL), `sqlite_store`
and `postgres_store` one of them; `games` is a RummyApplication (tests/game
opens it on `store`), `app` the litestar app, `client` an HTTP client of it
(litestar's TestClient or httpx), `api` tests/api/client.py's `Api`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from service.config import Store
from tests.game.stores import StoreUnderTest, open_store

# No per-example deadline: on a shared two-core machine a slow example is
# load, not a bug. In CI the property tests are derandomized, so a red run is
# a regression in the code, not a new random draw; locally they explore.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")

STORES = [
    pytest.param(Store.MEMORY, id="memory"),
    pytest.param(Store.SQLITE, id="sqlite"),
    pytest.param(Store.POSTGRES, id="postgres", marks=pytest.mark.postgres),
]
SHARED_STORES = STORES[1:]
"""The stores several applications (replicas) can share."""


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture(params=SHARED_STORES)
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(Store.SQLITE, tmp_path) as opened:
        yield opened


@pytest.fixture
def postgres_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    """PostgreSQL only, for what only a shared server can show (concurrent writers)."""
    with open_store(Store.POSTGRES, tmp_path) as opened:
        yield opened
