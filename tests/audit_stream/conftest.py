"""Settings for the stream, audit and feed tests, which run on the shared
stores (`shared_store`: SQLite and a real PostgreSQL, tests/conftest.py).

Every application opened on one store shares its events, so a second
application stands for a second replica of the service.
"""

from __future__ import annotations

from dataclasses import replace

from service.config import Settings
from tests.audit_stream.clients import ADMIN_TOKEN
from tests.rates import NO_RATE_LIMITS


def live_settings(settings: Settings, **changes: object) -> Settings:
    """`settings` with the admin token on and quick heartbeats and polls."""
    quick: dict[str, object] = {
        "admin_token": ADMIN_TOKEN,
        "stream_heartbeat_ms": 200,
        "stream_poll_ms": 50,
        **NO_RATE_LIMITS,
    }
    return replace(settings, **{**quick, **changes})  # type: ignore[arg-type]
