"""The litestar application: routes, errors as problem+json, the OpenAPI document."""

from __future__ import annotations

from litestar import Litestar
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme, Server
from litestar.plugins.problem_details import ProblemDetailsPlugin

from service.api.errors import problem_details_config
from service.api.games import GamesController, Services
from service.api.health import HealthController
from service.config import Settings
from service.game.application import RummyApplication

API_VERSION = "1.0.0"


def create_app(
    games: RummyApplication | None = None,
    settings: Settings | None = None,
) -> Litestar:
    """The HTTP service over `games` (by default, the store `settings` name)."""
    settings = settings if settings is not None else Settings.from_env()
    if games is None:
        games = RummyApplication(env=settings.event_store_env())
    services = Services(games=games, admin_token=settings.admin_token)
    return Litestar(
        route_handlers=[GamesController, HealthController],
        dependencies={"services": Provide(lambda: services, sync_to_thread=False)},
        plugins=[ProblemDetailsPlugin(problem_details_config())],
        openapi_config=openapi_config(),
        request_max_body_size=settings.max_body_bytes,
    )


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Straight Rummy game service",
        version=API_VERSION,
        description=(
            "Straight Rummy games as a REST service: every game is an event-sourced "
            "aggregate. Rules: RULES.md; contract: API.md."
        ),
        servers=[Server(url="/")],
        components=Components(
            security_schemes={
                "bearer": SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A player token (acts for one seat) or the admin token.",
                )
            }
        ),
        use_handler_docstrings=False,
        path="/schema",
    )
