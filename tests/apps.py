"""The service as the tests build it: by the composition root (service/bootstrap.py)
that `rummy serve` and `rummy openapi` use, the tests' settings given as arguments
(cosmicpython's `bootstrap_test_app`). Nothing is built or wired another way."""

from __future__ import annotations

from typing import Any

from service import bootstrap
from service.config import Settings, Store
from tests.rates import NO_RATE_LIMITS


def bootstrap_test_app(**settings: Any) -> bootstrap.Wiring:
    """The whole service on the in-memory store with the rate limits off (one client
    makes many games here; tests/api/transport/test_limits.py turns them on), no webhook sender
    (a webhook registered by a test is never sent anywhere: tests/webhooks send them)
    and games left to bots played out unpaced (`bot_pace_ms` 0), `settings` (keyword
    arguments of `Settings`) on top."""
    return bootstrap.bootstrap(
        Settings(
            store=Store.MEMORY,
            **{**NO_RATE_LIMITS, "webhook_senders": 0, "bot_pace_ms": 0, **settings},
        )
    )
