"""Liveness and readiness.

`/health` says the process answers and never touches the store, so an outage
of the database does not restart every pod. `/ready` says whether this
process can serve games now: the event store answers a read, and, if a write
failed since the last one that succeeded, a test write succeeds too (a store
can read while it cannot write: a full disk, a read-only file). It answers
within `RUMMY_READY_TIMEOUT` seconds whatever the store does, and runs one
check at a time: a probe that arrives while the last check still waits on the
store is answered 503 at its own timeout instead of starting another.
"""

from __future__ import annotations

import logging

import anyio
import anyio.to_thread
from litestar import Controller, Response, get
from litestar.di import NamedDependency

from service.api.deps import NO_TOKEN
from service.api.docs.responses import problems
from service.api.errors import problem
from service.api.responses import Health
from service.game.store_health import StoreHealth

log = logging.getLogger("service.api")


class Readiness:
    """`/ready`'s check of the event store: bounded in time, one at a time."""

    def __init__(self, store: StoreHealth, timeout: float) -> None:
        self.store = store
        self.timeout = timeout
        self._limiter: anyio.CapacityLimiter | None = None

    async def problem(self) -> str | None:
        """What keeps this process from serving games now, or None."""
        if self._limiter is None:  # made on the server's event loop
            self._limiter = anyio.CapacityLimiter(1)
        with anyio.move_on_after(self.timeout):
            return await anyio.to_thread.run_sync(
                self._check, limiter=self._limiter, abandon_on_cancel=True
            )
        return f"The event store did not answer within {self.timeout:g} s."

    def _check(self) -> str | None:
        try:
            self.store.check_store()
        except Exception as error:  # each store raises its own driver's errors
            log.warning("not ready: the event store does not answer: %s", _named(error))
            return f"The event store does not answer ({type(error).__name__})."
        try:
            self.store.check_writes()
        except Exception as error:
            log.warning("not ready: the event store cannot write: %s", _named(error))
            return f"The event store answers but cannot write ({type(error).__name__})."
        return None


def _named(error: Exception) -> str:
    # Only in the log: a driver's message may name hosts and paths.
    return f"{type(error).__name__}: {str(error).strip()}"


class HealthController(Controller):
    tags = ["health"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/health",
        operation_id="health",
        summary="Liveness: the process answers",
        description=(
            "Always 200 while the process serves requests; never asks the event store, so "
            "an outage of the database does not restart every replica."
        ),
        security=NO_TOKEN,
    )
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/ready",
        operation_id="ready",
        summary="Readiness: the event store answers, and writes if a write failed",
        description=(
            "200 when this process can serve games now: the event store answers a read "
            "and, if a write failed since the last one that succeeded, a test write. "
            "Answered within `RUMMY_READY_TIMEOUT` seconds whatever the store does; 503 "
            "`not_ready` says why not."
        ),
        responses=problems(503),
        security=NO_TOKEN,
    )
    async def ready(self, readiness: NamedDependency[Readiness]) -> Response[Health]:
        reason = await readiness.problem()
        if reason is not None:
            raise problem(503, "not_ready", reason)
        return Response(Health(status="ready"))
