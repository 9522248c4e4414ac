"""Every application test runs on the three stores: in memory, SQLite, PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.config import Store
from service.game.application import RummyApplication
from tests.game.stores import StoreUnderTest, open_store

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
def app(store: StoreUnderTest) -> RummyApplication:
    return store.app()


@pytest.fixture
def postgres_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    """PostgreSQL only, for what only a shared server can show (concurrent writers)."""
    with open_store(Store.POSTGRES, tmp_path) as opened:
        yield opened
