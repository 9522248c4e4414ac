"""Every application test runs on the three stores: in memory, SQLite, PostgreSQL
(the `store` fixtures are tests/conftest.py's)."""

from __future__ import annotations

import pytest

from service.game.application import RummyApplication
from tests.game.stores import StoreUnderTest


@pytest.fixture
def games(store: StoreUnderTest) -> RummyApplication:
    return store.games()
