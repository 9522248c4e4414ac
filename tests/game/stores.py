"""The three event stores the application tests run on.

PostgreSQL: each test gets a schema of its own on the local test server,
dropped afterwards (tests/postgres.py); the library creates its tables in it.
Applications and services are built by the composition root
(service/bootstrap.py), as `rummy serve` builds them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from service.bootstrap import Wiring, bootstrap, open_games
from service.config import Settings, Store
from service.game.application import Now, RummyApplication, utc_now
from tests.postgres import fresh_schema


@dataclass
class StoreUnderTest:
    """One store for one test; `games()` opens an application on it, `bootstrap()`
    the whole service (HTTP app, hub, metrics) on it.

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

    def games(self, now: Now = utc_now, /, **env: str) -> RummyApplication:
        """An application on this store; `env` adds settings of the eventsourcing library,
        `now` tells the turn clocks the time."""
        opened = open_games(self.settings, env=env, now=now)
        self.all_games.append(opened)
        return opened

    def bootstrap(self, settings: Settings | None = None) -> Wiring:
        """The service on this store, with `settings` (default: the store's own)."""
        served = bootstrap(settings if settings is not None else self.settings)
        self.all_games.append(served.games)
        return served

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
