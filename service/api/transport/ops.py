"""The operator's settings as litestar configuration: CORS and logging."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from litestar.config.cors import CORSConfig
from litestar.logging.config import LoggingConfig
from litestar.types.callable_types import GetLogger

from service.config import Settings

CORS_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "X-Request-ID",
]
"""What a browser client sends beyond the CORS-safelisted headers."""
CORS_EXPOSED = ["ETag", "Location", "Retry-After", "X-Request-ID"]
"""What a browser script may read of a response beyond the CORS-safelisted headers:
the version to send back (`ETag`), where a new game is (`Location`), how long to
wait (`Retry-After`), and the id to quote in a report (`X-Request-ID`)."""


def cors_config(settings: Settings) -> CORSConfig | None:
    """CORS for the configured browser origins; None (no CORS headers) when there are none.

    Tokens travel in the Authorization header, never in cookies, so credentials
    stay off and `*` is safe to offer for a public API.
    """
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=CORS_HEADERS,
        expose_headers=CORS_EXPOSED,
        allow_credentials=False,
        max_age=600,
    )


@dataclass
class LevelledLoggingConfig(LoggingConfig):
    """Litestar's logging at the operator's level.

    Litestar resets its own logger to INFO whenever debug mode is off; this
    keeps the configured level then (debug mode still logs DEBUG)."""

    level: str = "INFO"

    def configure(self) -> GetLogger:
        litestar = self.loggers.get("litestar")
        if litestar is not None and litestar.get("level") == "INFO":
            litestar["level"] = self.level
        return super().configure()

    def set_level(self, logger: Any, level: int) -> None:  # type: ignore[override]
        logger.setLevel(logging.getLevelName(self.level) if level == logging.INFO else level)


def logging_config(settings: Settings) -> LoggingConfig:
    """Litestar's logging (the root logger and `litestar`) at the configured level."""
    level = settings.log_level.python_name
    return LevelledLoggingConfig(
        level=level,
        root={"level": level, "handlers": ["queue_listener"]},
        loggers={"litestar": {"level": level, "handlers": ["queue_listener"], "propagate": False}},
    )
