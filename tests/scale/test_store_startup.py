"""Many processes opening one PostgreSQL store at once, as replicas and
workers do when a Deployment starts.

Without the advisory lock (`service.store.schema_lock.schema_lock`) the
library's table set-up races: four threads opening a fresh schema at once
failed in 10 of 10 rounds here
(`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`,
`tuple concurrently updated`), and so did three processes in 12 of 15 rounds
(11 of 15 with the table already there). With the lock: none.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from service.bootstrap import open_games
from service.config import Settings
from service.game.store_health import StoreHealth
from tests.postgres import fresh_schema

pytestmark = pytest.mark.postgres

OPENERS = 4


@pytest.fixture
def store_settings() -> Iterator[Settings]:
    with fresh_schema("rummy_startup") as settings:
        yield settings


def _open_at_once(store_settings: Settings) -> list[BaseException]:
    barrier = threading.Barrier(OPENERS)
    errors: list[BaseException] = []

    def open_one() -> None:
        barrier.wait(timeout=30)
        try:
            open_games(store_settings).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(OPENERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_replicas_opening_a_new_store_at_once_all_start(store_settings: Settings) -> None:
    for _ in range(3):  # a fresh schema, then tables already there
        assert _open_at_once(store_settings) == []
    games = open_games(store_settings)
    try:
        StoreHealth(games).check_store()
    finally:
        games.close()
