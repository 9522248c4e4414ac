"""The composition root: the one place that wires the rooms together.

`bootstrap(settings)` opens the event store and builds, each given what it
uses when it is made (nothing is wired afterwards):

- the application (service/game), with its bot players and the observers of
  its saves: the metrics and the live streams' channels; the feed of every
  game over its store (`Feed`) and the store's health checks (`StoreHealth`);
- the metrics and the event hub (service/api/transport/metrics.py, live/hub.py,
  live/channels.py);
- the rate limits (service/api/transport/throttle.py);
- the webhooks: their endpoints kept beside the events, the sender that delivers
  them (rung by the application's saves) and the admin's use cases
  (service/webhooks/);
- the turn clocks' keeper (service/clocks/timekeeper.py), started and stopped
  with the app (`RUMMY_CLOCKS`), which also plays the games left to bots alone
  (`RUMMY_BOT_PACE_MS`), and the bots' process pool if any
  (`RUMMY_BOT_PROCESSES`: ended with the app);
- matchmaking (service/matchmaking/): its tickets kept beside the events, rated by
  the players' standings (service/standings/), and its matcher, started and
  stopped with the app where the clocks are kept (`RUMMY_CLOCKS`); the webhooks
  send its `match_found` items;
- the litestar app (service/api/app.py), served by `rummy serve`.

Everything that runs the service builds through it: `rummy serve` (in each
worker, service/asgi.py), `rummy openapi`, the API tests and the benchmarks.
`open_games(settings)` is the same application without HTTP: the game
tests open it, and `rummy replay` through `open_store`. Tests pass their
settings (rate limits off, a short heartbeat, ...) as arguments, and nothing
else differs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from litestar import Litestar

from service.api.app import create_app
from service.api.live.channels import Channels
from service.api.live.hub import EventHub, StreamSettings
from service.api.printable import name_problem
from service.api.transport.metrics import Metrics
from service.api.transport.throttle import Throttle
from service.bots.seats import BotSeats
from service.clocks.deadlines import Due
from service.clocks.timekeeper import ClockKeeper, ClockObserver
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.application import Now, RummyApplication, utc_now
from service.game.bot_turns import BotPlayers
from service.game.errors import StoreUnavailable
from service.game.event_feed import Feed
from service.game.store_health import StoreHealth
from service.game.unit import SaveObserver
from service.matchmaking.matcher import Matcher
from service.matchmaking.tickets import Matchmaking
from service.players.identities import Identities
from service.standings.standings import Standings
from service.store.match_tickets import tickets_for
from service.store.player_tables import player_tables
from service.store.schema_lock import schema_lock
from service.webhooks.admin import WebhookAdmin
from service.webhooks.endpoint_tables import endpoints_for
from service.webhooks.reader import feed_reader
from service.webhooks.sender import Doorbell, Policy, Sender

COMPUTER_PLAYERS = BotSeats()
"""The bot seats every application plays (they keep no state), deciding in the
asking thread; `RUMMY_BOT_PROCESSES` above 0 makes a `BotSeats` with its pool."""


@dataclass(frozen=True, slots=True)
class Wiring:
    """The service's parts as `bootstrap` wired them."""

    settings: Settings
    games: RummyApplication
    feed: Feed
    """Every game's events in commit order (`GET /feed`, the hub, the webhooks)."""
    metrics: Metrics
    hub: EventHub
    sender: Sender
    """Delivers the webhooks (started and stopped with the app)."""
    app: Litestar
    clocks: ClockKeeper | None
    """None: this process keeps no turn clocks (`RUMMY_CLOCKS=off`, or no bots)."""
    matchmaking: Matchmaking
    matcher: Matcher | None
    """None: this process matches no tickets (`RUMMY_CLOCKS=off`)."""


def bootstrap(
    settings: Settings | None = None,
    *,
    bots: BotPlayers | None = COMPUTER_PLAYERS,
    now: Now = utc_now,
) -> Wiring:
    """The whole service on the store `settings` name (default: the environment's);
    with `bots` None, games without computer players."""
    settings = settings if settings is not None else Settings.from_env()
    if bots is COMPUTER_PLAYERS and settings.bot_processes > 0:
        bots = BotSeats(settings.bot_processes)
    metrics = Metrics()
    channels = Channels()
    doorbell = Doorbell()
    games = open_games(settings, bots=bots, observers=(metrics, channels, doorbell), now=now)
    feed = Feed.of(games)
    clocks = clock_keeper(settings, games, observer=metrics)
    hub = EventHub(feed, channels, StreamSettings.from_settings(settings))
    endpoints = endpoints_for(games.recorder)
    identities = Identities(player_tables(games.recorder), name_problem)
    standings = Standings(games.recorder, games.mapper)
    matchmaking = open_matchmaking(games, identities, standings)
    matcher = matcher_for(settings, games, matchmaking, told=doorbell.ring)
    sender = Sender(
        endpoints,
        feed_reader(feed, games, matchmaking.found),
        feed.last_position,
        Policy.from_settings(settings),
        doorbell,
        observer=metrics,
    )
    app = create_app(
        settings,
        games=games,
        feed=feed,
        health=StoreHealth(games),
        metrics=metrics,
        hub=hub,
        throttle=Throttle(settings),
        clocks=clocks,
        webhooks=WebhookAdmin(endpoints, feed.last_position, doorbell),
        sender=sender,
        players=identities,
        standings=standings,
        matchmaking=matchmaking,
        matcher=matcher,
        closing=[bots.close] if isinstance(bots, BotSeats) and bots.processes > 0 else [],
    )
    return Wiring(
        settings=settings,
        games=games,
        feed=feed,
        metrics=metrics,
        hub=hub,
        sender=sender,
        app=app,
        clocks=clocks,
        matchmaking=matchmaking,
        matcher=matcher,
    )


def open_matchmaking(
    games: RummyApplication, identities: Identities, standings: Standings
) -> Matchmaking:
    """Matchmaking's tickets in `games`' store, each rated by the players' standings."""

    def rating_of(pseudonym: str, rules: RuleSet) -> float | None:
        wanted = (rules.variant.value, None if rules.format is None else rules.format.value)
        for rated in standings.ratings(pseudonym):
            if (rated.variant, rated.format) == wanted:
                return rated.rating
        return None

    def shown(pseudonyms: Iterable[str]) -> dict[str, tuple[str | None, str]]:
        return {key: (seen.player, seen.name) for key, seen in identities.shown(pseudonyms).items()}

    return Matchmaking(
        tickets_for(games.recorder), rating_of, shown, now=lambda: games.now().timestamp()
    )


def matcher_for(
    settings: Settings,
    games: RummyApplication,
    matchmaking: Matchmaking,
    *,
    told: Callable[[], None] = lambda: None,
) -> Matcher | None:
    """The matcher of `matchmaking`'s tickets (not started), where the clocks are kept;
    on SQLite the one process holding `<database>.matchmaking`'s lock matches."""
    if not settings.clocks:
        return None
    lock_path = None
    if settings.store is Store.SQLITE and ":memory:" not in settings.sqlite_path:
        lock_path = os.path.abspath(os.path.expanduser(settings.sqlite_path)) + ".matchmaking"
    return Matcher(
        matchmaking.table,
        games,
        poll_seconds=settings.matchmaking_poll_ms / 1000,
        lock_path=lock_path,
        told=told,
        now=lambda: games.now().timestamp(),
    )


def clock_keeper(
    settings: Settings,
    games: RummyApplication,
    *,
    observer: ClockObserver | None = None,
) -> ClockKeeper | None:
    """The keeper of `games`' turn clocks and of its games left to bots alone (not
    started), or None when `settings` turn them off or the application has no bots."""
    if not settings.clocks or games.bots is None:
        return None

    pace = timedelta(milliseconds=settings.bot_pace_ms)

    def deadline_of(game_id: UUID) -> tuple[int, Due | None]:
        version, deadline = games.keeper_row(game_id, pace)
        return version, None if deadline is None else Due.of(deadline)

    return ClockKeeper(
        games.recorder,
        deadline_of,
        games.fire,
        poll_seconds=settings.clocks_poll_ms / 1000,
        observer=observer,
        now=lambda: games.now().timestamp(),
        deciding=games,
    )


def open_games(
    settings: Settings,
    *,
    bots: BotPlayers | None = COMPUTER_PLAYERS,
    observers: Sequence[SaveObserver] = (),
    env: Mapping[str, str] | None = None,
    now: Now = utc_now,
) -> RummyApplication:
    """The application on the store `settings` names, safe with other processes
    opening it at once (`schema_lock` in service/store/postgres.py); `env` adds
    settings of the eventsourcing library (tests)."""
    library = {**settings.event_store_env(), **(env or {})}
    if settings.store is not Store.POSTGRES:
        return RummyApplication(env=library, bots=bots, observers=observers, now=now)
    with schema_lock(settings):
        return RummyApplication(env=library, bots=bots, observers=observers, now=now)


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
