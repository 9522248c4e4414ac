"""What every handler is given, and the one threading policy they all follow.

`Services` is the handlers' one dependency on the game service (the
application, the tokens, this deployment's caps); the header annotations are
shared by every controller that shows a game (its `ETag`: conditional.py). The app
(app.py) provides `services`, `hub`, `metrics` and `readiness` by name.

Threading policy
----------------
Every handler is `async def` and starts on the event loop. Whatever asks the
event store runs through `Services.run(work, heavy=...)`:

- on the embedded stores (memory, SQLite) small work runs inline, on the loop:
  their calls never wait on a network, and a worker thread beside the loop
  costs more in contention for the interpreter lock than it could overlap
  (measured: writes in a worker thread gave 330 actions/s, inline 420);
- on PostgreSQL every call runs in a worker thread (anyio's pool): it waits
  on the network;
- heavy work runs in a worker thread on every store: work whose cost grows
  with the game or the page (rebuilding a game this process does not hold,
  more than `INLINE_EVENTS` events, a past version, the audit export, a feed
  page), which on the loop would stall every other request, `/health` too;
  so does making a view that may take long (`projections.shared.costly`: the
  seat to move in a game with wild cards), unless it was made already;
- a command that may make a bot decide runs in a worker thread on every store
  (`RummyApplication.moves_bots`: an action, leave or join in a game with a bot
  seat, or one this process does not hold; a leave the server's bot takes over
  (`abandon: bot`); a creation that seats a bot): a
  bot's search must never hold the loop. The bots reply only up to the next
  person's turn (a bounded round); a game left to bots alone is played by the
  clocks' keeper, in its own thread, never in a request (docs/bots.md).

A live stream reads its events the same way, one read at a time. What asks
nothing of the store (`/health`, `/metrics`, the checks of `before_request`)
runs on the loop. `/ready` is heavy work with a deadline: its probe always
runs in a worker thread, one at a time, and is abandoned at
`RUMMY_READY_TIMEOUT` so the probe is answered whatever the store does
(health.py). The event hub's watcher is a thread of its own (hub.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, TypeVar
from uuid import UUID

import anyio.to_thread
from litestar.params import HeaderParameter

from service.api.caps import Caps
from service.api.routes.exports import Exports
from service.config import Settings, Store
from service.game.application import RummyApplication
from service.game.event_feed import Feed
from service.matchmaking.tickets import Matchmaking
from service.players.identities import Identities
from service.projections.chain_heads import ChainHeads
from service.projections.shared import SharedViews
from service.standings.standings import Standings
from service.webhooks.admin import WebhookAdmin

T = TypeVar("T")

INLINE_EVENTS = 100
"""The most events a read may hold and still be done on the event loop (about 2 ms)."""


@dataclass(frozen=True, slots=True)
class Services:
    """What the handlers need: the application and the feed, the admin token (None: admin off),
    this deployment's caps, the metrics token and the stream tickets' lifetime."""

    games: RummyApplication
    feed: Feed
    """Every game's events in commit order (service/game/event_feed.py)."""
    admin_token: str | None
    caps: Caps
    inline: bool = False
    """Run small store work on the event loop (the embedded stores: see above)."""
    metrics_token: str | None = None
    """None: `/metrics` is public."""
    ticket_ttl: int = 60
    """Seconds a stream ticket lives (`RUMMY_STREAM_TICKET_TTL`)."""
    webhooks: WebhookAdmin | None = None
    """The webhooks' admin use cases (None: an app without them, in some tests)."""
    players: Identities | None = None
    """Platforms and the players they vouch for (service/players/; None: an app without
    them, where a `player_assertion` is refused)."""
    standings: Standings | None = None
    """Players' recall, statistics and ratings (service/standings/; None: an app without
    them)."""
    matchmaking: Matchmaking | None = None
    """Matchmaking's tickets (service/matchmaking/; None: an app without them)."""
    views: SharedViews = field(default_factory=SharedViews)
    """The views made lately, shared by every caller of the same kind (the module
    service/projections/shared.py)."""
    exports: Exports = field(default_factory=Exports)
    """The audit exports being sent, their cap and the kept ones (exports.py)."""
    heads: ChainHeads = field(default_factory=ChainHeads)
    """The live chain heads of the events served (service/projections/chain_heads.py),
    each event hashed once per process."""

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        games: RummyApplication,
        feed: Feed,
        webhooks: WebhookAdmin | None = None,
        players: Identities | None = None,
        standings: Standings | None = None,
        matchmaking: Matchmaking | None = None,
    ) -> Services:
        return cls(
            webhooks=webhooks,
            players=players,
            standings=standings,
            matchmaking=matchmaking,
            # Views of games with vouched-for seats show who they are now (shared.py).
            views=SharedViews(lookup=players.shown) if players is not None else SharedViews(),
            games=games,
            feed=feed,
            admin_token=settings.admin_token,
            caps=Caps.from_settings(settings),
            inline=settings.store is not Store.POSTGRES,
            metrics_token=settings.metrics_token,
            ticket_ttl=settings.stream_ticket_ttl,
            exports=Exports.from_settings(settings),
        )

    async def run(self, work: Callable[[], T], *, heavy: bool = False) -> T:
        """Do blocking store work as the threading policy says: inline, or in a
        worker thread (PostgreSQL, and any `heavy` work)."""
        if not self.threaded(heavy=heavy):
            return work()
        return await anyio.to_thread.run_sync(work)

    def threaded(self, *, heavy: bool) -> bool:
        """Whether `run` does work (`heavy` or not) in a worker thread."""
        return heavy or not self.inline

    def rebuilds(self, game_id: UUID) -> bool:
        """Whether reading `game_id` means rebuilding it from the store (heavy)."""
        return self.games.cached_version(game_id) is None

    def reads_many(self, game_id: UUID, after: int, limit: int) -> bool:
        """Whether reading up to `limit` events after `after` is heavy: more than
        `INLINE_EVENTS`, or unknown."""
        version = self.games.cached_version(game_id)
        return version is None or min(limit, version - after) > INLINE_EVENTS


SecurityRequirements = list[dict[str, list[str]]]

BEARER: SecurityRequirements = [{"bearer": []}]
"""A route that needs a token (`Authorization: Bearer <token>`), the `bearer` scheme."""
OPTIONAL_BEARER: SecurityRequirements = [{}, {"bearer": []}]
"""A route anyone may call, whom a token makes someone (a player, the admin)."""
NO_TOKEN: SecurityRequirements = []
"""A public route that reads no token."""

# The token is read from the header but documented as the `bearer` security scheme
# of each route (`security=`): OpenAPI tools ignore a header parameter named
# Authorization, so clients and Swagger UI's "Authorize" send only what the scheme says.
Authorization = Annotated[
    str | None,
    HeaderParameter(name="Authorization", required=False, include_in_schema=False),
]
"""`Bearer <token>`: a player token, the admin token, or none (public)."""
