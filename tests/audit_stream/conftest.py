"""Settings for the stream, audit and feed tests, which run on the shared
stores (`shared_store`: SQLite and a real PostgreSQL, tests/conftest.py).

Every application opened on one store shares its events, so a second
application stands for a second replica of the service.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import httpx

from service.bootstrap import Wiring
from service.config import Settings
from tests.audit_stream.clients import ADMIN_TOKEN
from tests.game.stores import StoreUnderTest
from tests.rates import NO_RATE_LIMITS
from tests.servers import serve


def live_settings(settings: Settings, **changes: object) -> Settings:
    """`settings` with the admin token on and quick heartbeats and polls."""
    quick: dict[str, object] = {
        "admin_token": ADMIN_TOKEN,
        "stream_heartbeat_ms": 200,
        "stream_poll_ms": 50,
        **NO_RATE_LIMITS,
    }
    return replace(settings, **{**quick, **changes})  # type: ignore[arg-type]


@contextmanager
def served(store: StoreUnderTest, **changes: object) -> Iterator[tuple[Wiring, httpx.Client]]:
    """The service on `store` with `live_settings` (and `changes`), served on a real
    server for the block, and a client of it."""
    wiring = store.bootstrap(live_settings(store.settings, **changes))
    with serve(wiring.app) as url, httpx.Client(base_url=url, timeout=10) as client:
        yield wiring, client
