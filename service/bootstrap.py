"""The composition root: the one place that wires the rooms together.

`bootstrap(settings)` opens the event store and builds, each given what it
uses when it is made (nothing is wired afterwards):

- the application (service/game), with its bot players and the observers of
  its saves: the metrics and the live streams' channels;
- the metrics and the event hub (service/api/metrics.py, hub.py);
- the rate limits (service/api/throttle.py);
- the webhooks: their endpoints kept beside the events, the sender that delivers
  them (rung by the application's saves) and the admin's use cases
  (service/webhooks/);
- the turn clocks' keeper (service/game/timekeeper.py), started and stopped
  with the app (`RUMMY_CLOCKS`);
- the litestar app (service/api/app.py), served by `rummy serve`.

Everything that runs the service builds through it: `rummy serve` (in each
worker, service/asgi.py), `rummy openapi`, the API tests and the benchmarks.
`open_games(settings)` is the same application without HTTP: the game
tests open it, and `rummy replay` through `open_store`. Tests pass their
settings (rate limits off, a short heartbeat, ...) as arguments, and nothing
else differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from litestar import Litestar

from service.api.app import create_app
from service.api.hub import Channels, EventHub, StreamSettings
from service.api.metrics import Metrics
from service.api.throttle import Throttle
from service.api.webhooks import feed_reader
from service.bots.seats import BotSeats
from service.config import Settings, Store
from service.game.application import BotPlayers, Clock, RummyApplication, utc_now
from service.game.deadlines import Due
from service.game.errors import StoreUnavailable
from service.game.postgres import schema_lock
from service.game.timekeeper import ClockKeeper, ClockObserver
from service.game.unit import SaveObserver
from service.webhooks.admin import WebhookAdmin
from service.webhooks.endpoints import endpoints_for
from service.webhooks.sender import Doorbell, Policy, Sender

COMPUTER_PLAYERS = BotSeats()
"""The bot seats every application plays (they keep no state)."""


@dataclass(frozen=True, slots=True)
class Wiring:
    """The service's parts as `bootstrap` wired them."""

    settings: Settings
    games: RummyApplication
    metrics: Metrics
    hub: EventHub
    sender: Sender
    """Delivers the webhooks (started and stopped with the app)."""
    app: Litestar
    clocks: ClockKeeper | None
    """None: this process keeps no turn clocks (`RUMMY_CLOCKS=off`, or no bots)."""


def bootstrap(
    settings: Settings | None = None,
    *,
    bots: BotPlayers | None = COMPUTER_PLAYERS,
    clock: Clock = utc_now,
) -> Wiring:
    """The whole service on the store `settings` name (default: the environment's);
    with `bots` None, games without computer players."""
    settings = settings if settings is not None else Settings.from_env()
    metrics = Metrics()
    channels = Channels()
    doorbell = Doorbell()
    games = open_games(settings, bots=bots, observers=(metrics, channels, doorbell), clock=clock)
    clocks = clock_keeper(settings, games, observer=metrics)
    hub = EventHub(games, channels, StreamSettings.from_settings(settings))
    endpoints = endpoints_for(games.recorder)
    sender = Sender(
        endpoints,
        feed_reader(games),
        games.last_position,
        Policy.from_settings(settings),
        doorbell,
        observer=metrics,
    )
    app = create_app(
        settings,
        games=games,
        metrics=metrics,
        hub=hub,
        throttle=Throttle(settings),
        clocks=clocks,
        webhooks=WebhookAdmin(endpoints, games.last_position, doorbell),
        sender=sender,
    )
    return Wiring(
        settings=settings,
        games=games,
        metrics=metrics,
        hub=hub,
        sender=sender,
        app=app,
        clocks=clocks,
    )


def clock_keeper(
    settings: Settings,
    games: RummyApplication,
    *,
    observer: ClockObserver | None = None,
) -> ClockKeeper | None:
    """The keeper of `games`' turn clocks (not started), or None when `settings` turn
    them off or the application has no bots to move for a timed-out seat."""
    if not settings.clocks or games.bots is None:
        return None

    def deadline_of(game_id: UUID) -> tuple[int, Due | None]:
        version, deadline = games.turn_clock(game_id)
        return version, None if deadline is None else Due.of(deadline)

    return ClockKeeper(
        games.recorder,
        deadline_of,
        games.time_out,
        poll_seconds=settings.clocks_poll_ms / 1000,
        observer=observer,
        clock=lambda: games.clock().timestamp(),
    )


def open_games(
    settings: Settings,
    *,
    bots: BotPlayers | None = COMPUTER_PLAYERS,
    observers: Sequence[SaveObserver] = (),
    env: Mapping[str, str] | None = None,
    clock: Clock = utc_now,
) -> RummyApplication:
    """The application on the store `settings` names, safe with other processes
    opening it at once (`schema_lock` in service/game/postgres.py); `env` adds
    settings of the eventsourcing library (tests)."""
    library = {**settings.event_store_env(), **(env or {})}
    if settings.store is not Store.POSTGRES:
        return RummyApplication(env=library, bots=bots, observers=observers, clock=clock)
    with schema_lock(settings):
        return RummyApplication(env=library, bots=bots, observers=observers, clock=clock)


def prepare_store(settings: Settings) -> None:
    """Open the store once (creating its tables) and close it, or raise
    `StoreUnavailable` saying where and why, so a bad setting fails at start."""
    open_store(settings).close()


def open_store(settings: Settings) -> RummyApplication:
    """`open_games`, or `StoreUnavailable` saying where and why in one line."""
    try:
        return open_games(settings)
    except StoreUnavailable:
        raise
    except Exception as error:  # each store raises its own driver's errors
        raise StoreUnavailable(
            f"cannot open the event store ({settings.describe_store()}): "
            f"{type(error).__name__}: {error}".strip()
        ) from error
