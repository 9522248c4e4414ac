"""What one run of the load bench is asked to do (the command line's flags)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class BenchError(RuntimeError):
    """The benchmark cannot run: a server did not start, a port is taken, ..."""


@dataclass(frozen=True)
class Options:
    store: str
    client: str
    games: int
    seconds: float
    warmup: float
    health_seconds: float
    workers: int
    port: int
    max_actions: int
    games_per_client: int
    rules: dict[str, Any]
    timeout: float
    startup_timeout: float
    server_env: dict[str, str]
    seed: int | None
    keep_logs: bool
    keys: bool
