"""Stream tickets: `POST /games/{game_id}/stream-tickets`, for clients that cannot
send headers on the live stream (a browser's `EventSource`).

The caller's bearer token (a player's, or the admin's) buys a ticket that
opens `GET /games/{game_id}/stream?ticket=...` once, as that caller, within
`RUMMY_STREAM_TICKET_TTL` seconds; service/store/stream_tickets.py says where tickets
are kept and why. A ticket request counts as one action request of its
token for the rate limit (a client asks for one per connection it opens).
"""

from __future__ import annotations

from uuid import UUID

from litestar import Controller, Response, post
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.params import FromPath

from service.api import responses as out
from service.api.auth import ticket_holder
from service.api.deps import BEARER, Authorization, Services
from service.api.docs.responses import problems

NO_STORE = {"Cache-Control": "no-store"}
"""A ticket is a secret: no cache keeps the answer."""


class StreamTicketsController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @post(
        "/{game_id:uuid}/stream-tickets",
        operation_id="createStreamTicket",
        summary="A short-lived ticket that opens the caller's live stream once",
        status_code=200,
        throttle="action",
        security=BEARER,
        responses=problems(401, 403, 404, 429),
        response_headers=[
            ResponseHeader(name="Cache-Control", description="`no-store`", documentation_only=True)
        ],
        description=(
            "For clients that cannot send `Authorization` on the stream, such as a browser's "
            "`EventSource`: send the player's (or the admin's) bearer token here, then open "
            "`GET /games/{game_id}/stream?ticket=<ticket>` within `expires_in` seconds. The "
            "stream shows what this token would see. A ticket opens one stream, once: a "
            "reconnect with it is refused (401 `stream_ticket_invalid`), so get a new ticket "
            "for each connection and resume with `after` (or `Last-Event-ID`). No token is "
            "401: the public stream needs no ticket. Counts as an action request of the "
            "token for its rate limit."
        ),
    )
    async def create_stream_ticket(
        self,
        services: NamedDependency[Services],
        game_id: FromPath[UUID],
        authorization: Authorization = None,
    ) -> Response[out.StreamTicket]:
        def work() -> Response[out.StreamTicket]:
            state = services.games.state(game_id)
            holder = ticket_holder(state, authorization, services.admin_token)
            ttl = services.ticket_ttl
            ticket = services.games.stream_tickets.issue(game_id, holder.seat, ttl)
            return Response(out.StreamTicket(ticket=ticket, expires_in=ttl), headers=NO_STORE)

        return await services.run(work, heavy=services.rebuilds(game_id))
