"""The global feed: `GET /feed`, every event of every game in commit order (admin)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import QueryParameter

from service.api.auth import bearer_token, is_admin
from service.api.docs import problems
from service.api.errors import Forbidden, Unauthorized
from service.api.games import Authorization, Services
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.results import FeedEntry
from service.game.tokens import token_game
from service.projections.events import EventView, event_view
from service.projections.views import ADMIN


class FeedItem(msgspec.Struct, kw_only=True):
    position: int
    """The event's place in the commit order of all games: grows, may skip numbers."""
    game_id: str
    event: EventView
    """The event as the admin sees it in `listEvents` (`version` is its place in its game)."""


class FeedPage(msgspec.Struct, kw_only=True):
    events: list[FeedItem]
    next_after: int
    """Ask for `after=next_after` next: the position of the last event here (or `after`
    if there is none). Positions have gaps, so never compute a cursor by counting."""
    last_position: int
    """The newest position now; you have read to the end when `next_after` reaches it."""


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
        description=(
            "For platforms that build their own projections. Page with `after`: start at 0, "
            "then pass the `next_after` of each page. Positions only grow but may skip "
            "numbers (a write that was rolled back uses one up); the cursor never skips an "
            "event. Events are shown as the admin sees them."
        ),
        sync_to_thread=True,
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=FeedPage,
                description="A page of the feed.",
                examples=[Example(summary="Two events of two games", value=_EXAMPLE)],
            ),
            **problems(401, 403, 422),
        },
    )
    def get_feed(
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
    ) -> FeedPage:
        require_admin(authorization, services.admin_token)
        games = services.games
        last_position = games.last_position()
        entries = games.feed(after, limit)
        setups = _Setups(games)
        return FeedPage(
            events=[
                FeedItem(
                    position=entry.position,
                    game_id=str(entry.game_id),
                    event=event_view(entry.event, ADMIN, *setups.of(entry)),
                )
                for entry in entries
            ],
            next_after=entries[-1].position if entries else after,
            last_position=max(last_position, entries[-1].position if entries else 0),
        )


def require_admin(authorization: str | None, admin_token: str | None) -> None:
    """Only the admin token passes: 401 without a token (or with a bad one), 403 for a
    player's token."""
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("The feed is for the admin: send the admin token.")
    if is_admin(token, admin_token):
        return
    if token_game(token) is not None:
        raise Forbidden("A player's token reads its own game; the feed is for the admin.")
    raise Unauthorized("The token is not the admin token.")


class _Setups:
    """The rules and seat count of each game in a page (a view of a deal needs them)."""

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
