"""Stores for the stream, audit and feed tests: SQLite and a real PostgreSQL.

Every application opened on one store shares its events, so a second
application stands for a second replica of the service.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from service.config import Settings, Store
from tests.audit_stream.clients import ADMIN_TOKEN
from tests.game.stores import StoreUnderTest, open_store
from tests.rates import NO_RATE_LIMITS

SHARED_STORES = [
    pytest.param(Store.SQLITE, id="sqlite"),
    pytest.param(Store.POSTGRES, id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=SHARED_STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(Store.SQLITE, tmp_path) as opened:
        yield opened


@pytest.fixture
def postgres_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(Store.POSTGRES, tmp_path) as opened:
        yield opened


def live_settings(settings: Settings, **changes: object) -> Settings:
    """`settings` with the admin token on and quick heartbeats and polls."""
    quick: dict[str, object] = {
        "admin_token": ADMIN_TOKEN,
        "stream_heartbeat_ms": 200,
        "stream_poll_ms": 50,
        **NO_RATE_LIMITS,
    }
    return replace(settings, **{**quick, **changes})  # type: ignore[arg-type]
