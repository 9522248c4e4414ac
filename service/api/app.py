"""The litestar application: routes, errors as problem+json, the OpenAPI document."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

from litestar import Litestar, Request
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme, Server, Tag
from litestar.plugins.problem_details import ProblemDetailsPlugin

from service.api.deps import Services
from service.api.docs.docs_page import SCHEMA_PATH, docs_aliases, docs_pages, docs_router
from service.api.docs.openapi import finish_openapi
from service.api.docs.problem_pages import ProblemPagesController
from service.api.errors import problem_details_config
from service.api.live.hand_off import StreamHandOff
from service.api.live.hub import EventHub, end_streams_on_signals
from service.api.live.stream import StreamParts
from service.api.routes.abort import AbortController
from service.api.routes.audit import AuditController
from service.api.routes.feed import FeedController
from service.api.routes.games import GamesController
from service.api.routes.health import HealthController, Readiness
from service.api.routes.history import HistoryController
from service.api.routes.home import home
from service.api.routes.live_events import StreamController
from service.api.routes.lobby import LobbyController
from service.api.routes.matchmaking import MatchmakingController
from service.api.routes.platforms import PlatformsController
from service.api.routes.standings import LeaderboardsController, PlayersController
from service.api.routes.tickets import StreamTicketsController
from service.api.routes.webhooks import WebhooksController
from service.api.transport.access_log import RequestLog, json_logging, mask_also
from service.api.transport.bodies import strict_body
from service.api.transport.headers import refuse_repeated_headers
from service.api.transport.log_writer import flush_logs
from service.api.transport.metrics import Metrics, MetricsController, RequestMetrics
from service.api.transport.ops import cors_config, logging_config
from service.api.transport.queries import strict_query
from service.api.transport.throttle import Throttle
from service.api.transport.timeouts import BodyDeadline
from service.clocks.timekeeper import ClockKeeper
from service.config import SERVICE_NAME, Settings
from service.game.application import RummyApplication
from service.game.event_feed import Feed
from service.game.store_health import StoreHealth
from service.matchmaking.matcher import Matcher
from service.matchmaking.tickets import Matchmaking
from service.players.identities import Identities
from service.standings.standings import Standings
from service.webclient.served import play_router
from service.webhooks.admin import WebhookAdmin
from service.webhooks.sender import Sender

API_VERSION = version("straight-rummy")
"""The OpenAPI document's `info.version`: the package's own version (pyproject.toml),
so the contract a client reads and the code that serves it carry one number."""


def create_app(
    settings: Settings,
    *,
    games: RummyApplication,
    feed: Feed,
    health: StoreHealth,
    metrics: Metrics,
    hub: EventHub,
    throttle: Throttle,
    clocks: ClockKeeper | None = None,
    webhooks: WebhookAdmin | None = None,
    sender: Sender | None = None,
    players: Identities | None = None,
    standings: Standings | None = None,
    matchmaking: Matchmaking | None = None,
    matcher: Matcher | None = None,
    closing: Sequence[Callable[[], None]] = (),
) -> Litestar:
    """The HTTP service over parts made by the composition root (service/bootstrap.py):
    `games` already tells `metrics` and `hub` of its saves; `clocks`, the turn clocks'
    keeper, `sender`, which delivers the webhooks, and `matcher`, which seats the
    matchmaking tickets, run while the app does; `closing` is called when it stops (the
    bots' process pool)."""
    for secret in (settings.admin_token, settings.metrics_token):
        if secret is not None:
            mask_also(secret)
    services = Services.from_settings(
        settings, games, feed, webhooks, players, standings, matchmaking
    )
    starting: list[Any] = [lambda: end_streams_on_signals(hub), metrics.process_started]
    stopping: list[Any] = [
        hub.close,
        services.exports.cache.close,
        metrics.process_ended,
        flush_logs,
    ]
    if clocks is not None:
        starting.append(clocks.start)  # a thread of its own
        # Called without the app (litestar hands it to a hook that takes an argument).
        stopping.insert(0, lambda: clocks.stop())
    stopping.extend(closing)
    if matcher is not None:
        starting.append(matcher.start)  # a thread of its own
        stopping.insert(0, lambda: matcher.stop())
    if sender is not None:
        starting.append(sender.start)
        stopping.insert(0, sender.close)
    readiness = Readiness(health, settings.ready_timeout)
    stream_parts = StreamParts(services, hub, metrics)
    app = Litestar(
        route_handlers=[
            GamesController,
            AbortController,
            HistoryController,
            HealthController,
            StreamController,
            StreamTicketsController,
            AuditController,
            FeedController,
            WebhooksController,
            PlatformsController,
            PlayersController,
            LeaderboardsController,
            MatchmakingController,
            LobbyController,
            MetricsController,
            home,
            docs_aliases,
            ProblemPagesController,
            play_router(),
        ],
        dependencies={
            "services": Provide(lambda: services, sync_to_thread=False),
            "metrics": Provide(lambda: metrics, sync_to_thread=False),
            "readiness": Provide(lambda: readiness, sync_to_thread=False),
            "stream_parts": Provide(lambda: stream_parts, sync_to_thread=False),
        },
        before_request=check_request,
        state=State({"throttle": throttle}),
        on_startup=starting,
        on_shutdown=stopping,
        plugins=[ProblemDetailsPlugin(problem_details_config())],
        openapi_config=openapi_config(),
        request_max_body_size=settings.max_body_bytes,
        cors_config=cors_config(settings),
        logging_config=json_logging(logging_config(settings)),
    )
    # Outermost, so that every request is counted and logged, unrouted ones too:
    # litestar's `middleware=` wraps routes only, and `asgi_handler` is what its
    # `__call__` hands every request to (lifespan events stay litestar's).
    app.asgi_handler = StreamHandOff(
        RequestLog(RequestMetrics(BodyDeadline(app.asgi_handler, settings.body_timeout), metrics))
    )
    finish_openapi(app, services.caps)
    return app


async def check_request(request: Request[Any, Any, Any]) -> None:
    """Before every handler (one hook: a layer's own would replace the app's)."""
    refuse_repeated_headers(request)
    strict_query(request)
    # Before the body is read: a refused request costs a count, not a parse.
    await request.app.state.throttle.check(request)
    await strict_body(request)


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title=SERVICE_NAME,
        version=API_VERSION,
        description=(
            "Games of the rummy family (Straight Rummy and its variants, Indian Rummy) as a "
            "REST service: every game is an event-sourced "
            "aggregate. The rules of the game: docs/rules.md; the client guide (tokens, the "
            "loop, retries, every error code, versioning): docs/api.md; both in the "
            "service's repository."
        ),
        servers=[Server(url="/")],
        components=Components(
            security_schemes={
                "bearer": SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description=(
                        "A player token (acts for one seat; `createGame` and `joinGame` "
                        "return it, once) or the admin token. Each operation's `security` "
                        "says whether it needs one: `[{}, {bearer: []}]` means a token is "
                        "optional and changes what the answer shows."
                    ),
                )
            }
        ),
        tags=[
            Tag(
                name="games",
                description=(
                    "Create and join games, read them as a player, the public or the "
                    "admin, play actions, read and stream their events, replay a version."
                ),
            ),
            Tag(
                name="audit",
                description="The complete, hash-chained event log of a game (docs/audit.md).",
            ),
            Tag(name="feed", description="Every event of every game in commit order (admin)."),
            Tag(
                name="webhooks",
                description=(
                    "Signed deliveries of the feed's events to a platform's endpoints, and "
                    "their administration (admin; docs/webhooks.md)."
                ),
            ),
            Tag(
                name="players",
                description=(
                    "Players across games: the platforms that vouch for them (keys, "
                    "erasure), their recall, statistics, ratings and leaderboards, and "
                    "matchmaking by rating (docs/players.md, docs/privacy.md)."
                ),
            ),
            Tag(
                name="lobby",
                description="The listed games that have open seats, for a player to join.",
            ),
            Tag(name="health", description="Liveness and readiness probes."),
            Tag(name="operations", description="Prometheus metrics."),
            Tag(
                name="problems",
                description="What each error `code` means: the page a problem's `type` names.",
            ),
        ],
        use_handler_docstrings=False,
        path=SCHEMA_PATH,
        render_plugins=docs_pages(),
        openapi_router=docs_router(),
    )
