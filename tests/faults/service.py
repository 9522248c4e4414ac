"""The service on PostgreSQL behind a `FaultProxy`, in process, for the fault tests.

`proxied_service(settings)` builds the service on a fresh schema through the
proxy (service/bootstrap.py, as `rummy serve` does: errors, readiness, worker
threads for the store) and serves it with litestar's TestClient;
`proxied_server(settings)` serves it with uvicorn on a port (for streams).
The test breaks the proxy, never the shared server. `direct(settings)` opens
the same schema without the proxy, to read what is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import bootstrap, open_games
from service.config import Settings
from service.game.application import RummyApplication
from tests.faults.proxy import FaultProxy
from tests.rates import NO_RATE_LIMITS
from tests.servers import serve

GAME_EVENTS = b"service.game.events:"
"""In the bytes of every insert of a game's events (their topics), and of no read."""
SMALL_POOL: dict[str, Any] = {"postgres_pool_size": 2, "postgres_max_overflow": 4}


@dataclass
class Proxied:
    proxy: FaultProxy
    games: RummyApplication
    app: Litestar
    settings: Settings
    """As the service sees them: the proxy's port."""
    test_client: TestClient[Litestar] | None = None
    url: str = ""

    @property
    def client(self) -> TestClient[Litestar]:
        assert self.test_client is not None, "a proxied_service, not a proxied_server"
        return self.test_client


@contextmanager
def _proxied(settings: Settings, changes: dict[str, Any]) -> Iterator[Proxied]:
    with FaultProxy((settings.postgres_host, settings.postgres_port)) as proxy:
        served = replace(
            settings,
            postgres_port=proxy.port,
            # The tests drive many clients' load from one address.
            **{**SMALL_POOL, **NO_RATE_LIMITS, **changes},
        )
        wiring = bootstrap(served)
        try:
            yield Proxied(proxy=proxy, games=wiring.games, app=wiring.app, settings=served)
        finally:
            wiring.games.close()


@contextmanager
def proxied_service(settings: Settings, **changes: Any) -> Iterator[Proxied]:
    """The service on `settings`' schema through a fault proxy, with a TestClient;
    `changes` to its settings."""
    with _proxied(settings, changes) as service, TestClient(service.app) as client:
        service.test_client = client
        yield service


@contextmanager
def proxied_server(settings: Settings, **changes: Any) -> Iterator[Proxied]:
    """As `proxied_service`, served by uvicorn at `url`."""
    with _proxied(settings, changes) as service, serve(service.app) as url:
        service.url = url
        yield service


@contextmanager
def direct(settings: Settings) -> Iterator[RummyApplication]:
    """The application on `settings`' schema, not through any proxy."""
    games = open_games(replace(settings, postgres_pool_size=1))
    try:
        yield games
    finally:
        games.close()
