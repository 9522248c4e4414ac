"""Ending a game that cannot go on: the admin's `POST /games/{game_id}/abort`.

The game ends void with `game_aborted` (`by: "admin"`, the reason given): no
winner, nothing counted, every dealt hand's seed revealed, the audit export
anyone's (docs/rules.md "Aborted games", docs/fairness.md "A seed per hand").
"""

from __future__ import annotations

from uuid import UUID

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, JSONBody

from service.api import schemas as s
from service.api.auth import require_admin
from service.api.deps import BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.projections.views import ADMIN, GameView, game_view


class AbortController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @post(
        "/{game_id:uuid}/abort",
        operation_id="abortGame",
        summary="End a game void (admin)",
        description=(
            "The admin ends a game that cannot go on (a table abandoned, an incident): the "
            'event `game_aborted` (`by: "admin"`, the `reason` given), `status` `aborted`, '
            '`winner` null; no score, pool or rating counts (docs/rules.md "Aborted '
            "games\"). The seed of every hand dealt is revealed (views' `hand_seeds`) and "
            "the audit export becomes anyone's. The answer is the admin view. A game "
            "already finished or aborted: 409 `game_over`. Only the admin token: 401 "
            "without it, 403 with a player's."
        ),
        status_code=200,
        responses=problems(401, 403, 404, 409, 422),
        security=BEARER,
        request_body_examples=[
            Example(summary="Abort a deserted table", value={"reason": "table abandoned"}),
        ],
    )
    async def abort_game(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        data: JSONBody[s.Abort],
        authorization: Authorization = None,
    ) -> GameView:
        require_admin(authorization, services.admin_token, "aborting a game")

        def work() -> GameView:
            state = services.games.abort(game_id, data.reason)
            return game_view(state, ADMIN, services.views.shown(state))

        return await services.run(work, heavy=services.rebuilds(game_id))
