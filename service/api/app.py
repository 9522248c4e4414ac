"""The litestar application: routes, errors as problem+json, the OpenAPI document."""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Request
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme, Server
from litestar.plugins.problem_details import ProblemDetailsPlugin

from service.api.audit import AuditController
from service.api.bodies import strict_body
from service.api.errors import problem_details_config
from service.api.feed import FeedController
from service.api.games import GamesController, Services
from service.api.headers import refuse_repeated_headers
from service.api.health import HealthController, Readiness
from service.api.log_writer import flush_logs
from service.api.logging import RequestLog, json_logging, mask_also
from service.api.metrics import Metrics, MetricsController, RequestMetrics
from service.api.openapi import finish_openapi
from service.api.ops import cors_config, logging_config
from service.api.stream import EventHub, StreamController, StreamSettings, end_streams_on_signals
from service.config import Settings, Store
from service.game.application import RummyApplication
from service.store import open_games

API_VERSION = "1.0.0"


def create_app(
    games: RummyApplication | None = None,
    settings: Settings | None = None,
) -> Litestar:
    """The HTTP service over `games` (by default, the store `settings` name)."""
    settings = settings if settings is not None else Settings.from_env()
    if settings.admin_token is not None:
        mask_also(settings.admin_token)
    if games is None:
        games = open_games(settings)
    services = Services(
        games=games,
        admin_token=settings.admin_token,
        inline=settings.store is not Store.POSTGRES,
    )
    metrics = Metrics()
    games.observers = (*games.observers, metrics)
    readiness = Readiness(games, settings.ready_timeout)
    hub = EventHub(
        games,
        StreamSettings(
            heartbeat_seconds=settings.stream_heartbeat_ms / 1000,
            poll_seconds=settings.stream_poll_ms / 1000,
        ),
    )
    app = Litestar(
        route_handlers=[
            GamesController,
            HealthController,
            StreamController,
            AuditController,
            FeedController,
            MetricsController,
        ],
        dependencies={
            "services": Provide(lambda: services, sync_to_thread=False),
            "hub": Provide(lambda: hub, sync_to_thread=False),
            "metrics": Provide(lambda: metrics, sync_to_thread=False),
            "readiness": Provide(lambda: readiness, sync_to_thread=False),
        },
        before_request=check_request,
        on_startup=[lambda: end_streams_on_signals(hub)],
        on_shutdown=[hub.close, flush_logs],
        plugins=[ProblemDetailsPlugin(problem_details_config())],
        openapi_config=openapi_config(),
        request_max_body_size=settings.max_body_bytes,
        cors_config=cors_config(settings),
        logging_config=json_logging(logging_config(settings)),
    )
    # Outermost, so that every request is counted and logged, unrouted ones too.
    app.asgi_handler = RequestLog(RequestMetrics(app.asgi_handler, metrics))
    finish_openapi(app)
    return app


async def check_request(request: Request[Any, Any, Any]) -> None:
    """Before every handler (one hook: a layer's own would replace the app's)."""
    refuse_repeated_headers(request)
    await strict_body(request)


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
