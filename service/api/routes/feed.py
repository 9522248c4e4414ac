"""The global feed: `GET /feed`, every event of every game in commit order (admin)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter

from service.api.auth import require_admin
from service.api.deps import BEARER, Authorization, Services
from service.api.docs.responses import VerbatimExample, problems
from service.projections.feed_items import FeedPage, Setups, feed_page

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
                "chain": "4f1c0b9e2d7a8c3b6e5f4a1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b",
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
                "chain": "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b",
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
                data_container=FeedPage,
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
    ) -> FeedPage:
        require_admin(authorization, services.admin_token)
        # Up to `limit` events of any games, each game's first read if not on the page.
        page = partial(
            feed_page, services.feed, Setups(services.games, services.heads), after, limit
        )
        return await services.run(page, heavy=True)
