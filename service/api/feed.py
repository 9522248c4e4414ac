"""The global feed: `GET /feed`, every event of every game in commit order (admin)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter

from service.api import schemas as s
from service.api.auth import require_admin
from service.api.deps import BEARER, Authorization, Services
from service.api.docs import VerbatimExample, problems
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.results import FeedEntry
from service.projections.events import event_view
from service.projections.views import ADMIN

_EXAMPLE = {
    "events": [
        {
            "position": 41,
            "game_id": "0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95",
            "event": {
                "type": "card_discarded",
                "version": 17,
                "at": "2026-11-29T21:47:02Z",
                "seat": 0,
                "card": "KD",
            },
        },
        {
            "position": 43,
            "game_id": "5d1f0a9e-2b7c-4e11-8a3d-6c9b0e2f4a17",
            "event": {
                "type": "game_finished",
                "version": 230,
                "at": "2026-11-29T21:47:03Z",
                "winner": 1,
                "totals": [37, 104],
            },
        },
    ],
    "next_after": 43,
    "last_position": 43,
}


class FeedController(Controller):
    path = "/feed"
    tags = ["feed"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/",
        operation_id="getFeed",
        summary="Every event of every game in commit order (admin)",
        security=BEARER,
        description=(
            "For platforms that build their own projections. Page with `after`: start at 0, "
            "then pass the `next_after` of each page. Positions only grow but skip numbers, "
            "by a lot on PostgreSQL (a position there is made from the id of the transaction "
            "that wrote it), so never compute a cursor by counting; the cursor never skips an "
            "event. An event is listed once every write that began before it has ended "
            "(milliseconds, as a rule). Events are shown as the admin sees them."
        ),
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=s.FeedPage,
                description="A page of the feed.",
                examples=[VerbatimExample(summary="Two events of two games", value=_EXAMPLE)],
            ),
            **problems(401, 403, 422),
        },
    )
    async def get_feed(
        self,
        services: NamedDependency[Services],
        after: Annotated[
            int,
            QueryParameter(ge=0, le=2**53, description="The `next_after` of the page before."),
        ] = 0,
        limit: Annotated[
            int, QueryParameter(ge=1, le=1000, description="At most this many.")
        ] = 100,
        authorization: Authorization = None,
    ) -> s.FeedPage:
        require_admin(authorization, services.admin_token)
        # Up to `limit` events of any games, each game's first read if not on the page.
        return await services.run(partial(feed_page, services.games, after, limit), heavy=True)


def feed_page(
    games: RummyApplication,
    after: int,
    limit: int,
    setups: Setups | None = None,
    *,
    settle: bool = True,
) -> s.FeedPage:
    """The feed's events after position `after`, as the admin sees them; `setups`
    may carry the games' setups over from one page to the next; `settle` as
    `RummyApplication.feed` says."""
    last_position = games.last_position()
    entries = games.feed(after, limit, settle=settle)
    setups = setups if setups is not None else Setups(games)
    return s.FeedPage(
        events=[
            s.FeedItem(
                position=entry.position,
                game_id=str(entry.game_id),
                event=event_view(entry.event, ADMIN, *setups.of(entry)),
            )
            for entry in entries
        ],
        next_after=entries[-1].position if entries else after,
        last_position=max(last_position, entries[-1].position if entries else 0),
    )


class Setups:
    """The rules and seat count of each game in a page (a view of a deal needs them),
    which never change: a game's first event is read once."""

    def __init__(self, games: RummyApplication) -> None:
        self.games = games
        self.known: dict[UUID, tuple[RuleSet, int]] = {}

    def of(self, entry: FeedEntry) -> tuple[RuleSet, int]:
        found = self.known.get(entry.game_id)
        if found is None:
            created: Any = entry.event
            if created.event_type != "game_created":
                created = self.games.events_after(entry.game_id, 0, 1)[0]
            data = created.data()
            found = (RuleSet.from_dict(data["rules"]), len(data["seats"]))
            self.known[entry.game_id] = found
        return found
