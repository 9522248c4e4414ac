"""The three event stores the application tests run on.

PostgreSQL: each test gets a schema of its own on the local test server,
dropped afterwards (tests/postgres.py); the library creates its tables in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from service.config import Settings, Store
from service.game.application import RummyApplication
from tests.postgres import fresh_schema


@dataclass
class StoreUnderTest:
    """One store for one test; `games()` opens an application on it.

    On SQLite and PostgreSQL every application opened shares the same
    stored events; the in-memory store belongs to a single application.
    """

    settings: Settings
    all_games: list[RummyApplication] = field(default_factory=list)

    @property
    def kind(self) -> Store:
        return self.settings.store

    @property
    def shared(self) -> bool:
        return self.kind is not Store.MEMORY

    def games(self, **env: str) -> RummyApplication:
        opened = RummyApplication(env={**self.settings.event_store_env(), **env})
        self.all_games.append(opened)
        return opened

    def close(self) -> None:
        for opened in self.all_games:
            opened.close()


@contextmanager
def open_store(kind: Store, tmp_path: Path) -> Iterator[StoreUnderTest]:
    if kind is Store.POSTGRES:
        with fresh_schema("rummy_test") as settings:
            store = StoreUnderTest(replace(settings, postgres_pool_size=2))
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
