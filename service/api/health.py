"""Liveness and readiness."""

from __future__ import annotations

from litestar import Controller, Response, get
from litestar.di import NamedDependency

from service.api.docs import problems
from service.api.errors import problem
from service.api.games import Services
from service.api.schemas import Health


class HealthController(Controller):
    tags = ["health"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get("/health", operation_id="health", summary="Liveness: the process answers")
    async def health(self) -> Health:
        return Health(status="ok")

    @get(
        "/ready",
        operation_id="ready",
        summary="Readiness: the event store answers",
        sync_to_thread=True,
        responses=problems(503),
    )
    def ready(self, services: NamedDependency[Services]) -> Response[Health]:
        try:
            services.games.check_store()
        except Exception as error:  # each store raises its own driver's errors
            raise problem(
                503, "not_ready", f"The event store does not answer: {type(error).__name__}."
            ) from error
        return Response(Health(status="ready"))
