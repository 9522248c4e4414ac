"""Matchmaking (docs/players.md, "Matchmaking"): a player a platform vouches for opens a
ticket, reads it with the ticket's token until it is matched (then it holds the
seat's token), or cancels it.

The use cases are service/matchmaking/tickets.py; the matcher that seats the
tickets runs in the background (service/matchmaking/matcher.py).
"""

from __future__ import annotations

from litestar import Controller, HttpMethod, Response, delete, get, post, route
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, JSONBody

from service.api import convert
from service.api import match_schemas as ms
from service.api.auth import bearer_token
from service.api.deps import BEARER, NO_TOKEN, Authorization, Services
from service.api.docs.responses import problems
from service.api.errors import Unauthorized
from service.matchmaking.tickets import DEFAULT_BOT, Matchmaking, Ticket, Wanted

NO_STORE = {"Cache-Control": "no-store"}
"""Answers that hold a token are kept by no cache."""


def _matchmaking(services: Services) -> Matchmaking:
    assert services.matchmaking is not None, "the composition root gives the app matchmaking"
    return services.matchmaking


def _token(authorization: str | None) -> str:
    token = bearer_token(authorization)
    if token is None:
        raise Unauthorized("Send the ticket's token: 'Authorization: Bearer <token>'.")
    return token


def _view(ticket: Ticket) -> ms.TicketView:
    return ms.TicketView(
        ticket_id=ticket.ticket_id,
        status=ms.TicketStatus(ticket.status),
        variant=ticket.variant,
        seats=ticket.seats,
        rated=ticket.rated,
        game_id=ticket.game_id,
        seat=ticket.seat,
        token=ticket.token,
    )


class MatchmakingController(Controller):
    path = "/matchmaking"
    tags = ["players"]  # noqa: RUF012 - litestar reads it as a class attribute

    # litestar 2.25 answers `OPTIONS` from a path's first handler only (see
    # routes/webhooks.py): a ticket's path has two methods, listed here (named to come
    # first: a controller registers its handlers in the order of their names).
    @route(
        "/{ticket_id:str}",
        http_method=[HttpMethod.OPTIONS],
        include_in_schema=False,
        sync_to_thread=False,
    )
    def allow_on_ticket(self) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, OPTIONS"})

    @post(
        "/",
        operation_id="openTicket",
        summary="Wait to be seated with players of about one's rating",
        status_code=201,
        security=NO_TOKEN,
        responses=problems(401, 409, 422),
        description=(
            "Opens a ticket for the player the `player_assertion` vouches for. Tickets of "
            "the same variant, canonical rules, `seats` and `rated` are matched by rating, "
            "the band widening with waiting time (docs/players.md); when a table's worth "
            "fit, a game is created and each ticket is told its seat (`getTicket`). 409 "
            "`player_already_queued` while the player waits for that variant already. "
            "The `token` is shown once."
        ),
        request_body_examples=[
            Example(
                summary="A two-player gin game, bots after a minute",
                value={
                    "player_assertion": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTE4MTUifQ.c2lnbmF0dXJl",
                    "variant": "gin",
                    "seats": 2,
                    "bots_after_seconds": 60,
                },
            )
        ],
    )
    async def open_ticket(
        self, services: NamedDependency[Services], data: JSONBody[ms.NewTicket]
    ) -> Response[ms.OpenedTicket]:
        matchmaking = _matchmaking(services)

        def work() -> Response[ms.OpenedTicket]:
            rules = convert.ticket_rules(data.variant, data.rules, data.seats, services.caps)
            assert services.players is not None, "matchmaking comes with players"
            vouched = services.players.vouch(data.player_assertion)
            opened = matchmaking.open(
                Wanted(
                    pseudonym=vouched.pseudonym,
                    rules=rules,
                    seats=data.seats,
                    rated=data.rated,
                    max_wait_seconds=data.max_wait_seconds,
                    bots_after_seconds=data.bots_after_seconds,
                    bot=data.bot.value if data.bot is not None else DEFAULT_BOT,
                )
            )
            body = ms.OpenedTicket(
                ticket_id=opened.ticket_id, token=opened.token, status=ms.TicketStatus.WAITING
            )
            return Response(body, status_code=201, headers=NO_STORE)

        return await services.run(work)

    @get(
        "/{ticket_id:str}",
        operation_id="getTicket",
        summary="A ticket's status, and once matched its game, seat and seat token",
        security=BEARER,
        responses=problems(401, 403, 404),
        description=(
            "With the ticket's token as bearer. `status` is `waiting`, `matched`, "
            "`cancelled` or `expired`; once matched, `game_id`, `seat` and the seat's "
            "`token` (for this ticket only: another ticket's token is 403)."
        ),
    )
    async def get_ticket(
        self,
        services: NamedDependency[Services],
        ticket_id: FromPath[str],
        authorization: Authorization = None,
    ) -> Response[ms.TicketView]:
        matchmaking = _matchmaking(services)

        def work() -> Response[ms.TicketView]:
            ticket = matchmaking.read(ticket_id, _token(authorization))
            return Response(_view(ticket), headers=NO_STORE)

        return await services.run(work)

    @delete(
        "/{ticket_id:str}",
        operation_id="cancelTicket",
        summary="Cancel a waiting ticket",
        status_code=200,
        security=BEARER,
        responses=problems(401, 403, 404),
        description=(
            "With the ticket's token as bearer. A waiting ticket is `cancelled`; one "
            "matched already (or expired, or cancelled) is answered as it is: read it."
        ),
    )
    async def cancel_ticket(
        self,
        services: NamedDependency[Services],
        ticket_id: FromPath[str],
        authorization: Authorization = None,
    ) -> Response[ms.TicketView]:
        matchmaking = _matchmaking(services)

        def work() -> Response[ms.TicketView]:
            ticket = matchmaking.cancel(ticket_id, _token(authorization))
            return Response(_view(ticket), headers=NO_STORE)

        return await services.run(work)
