"""The live stream's route: `GET /games/{game_id}/stream` (operation `streamEvents`).

The handler finds the game and who the caller is (a token, or a stream ticket
spent by opening it: service/api/routes/tickets.py), answers 204 to a stream
of a finished game the caller has read to its end, and otherwise opens the
stream (service/api/live/stream.py says what it sends and how).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, QueryParameter

from service.api import convert
from service.api.auth import stream_viewer
from service.api.deps import OPTIONAL_BEARER, Authorization
from service.api.docs.responses import problems
from service.api.live.stream import StreamParts, open_stream

_EXAMPLE_STREAM = (
    ": events of game 0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95\r\n"
    "retry: 2000\r\n\r\n"
    'id: 5\r\nevent: card_drawn\r\ndata: {"type":"card_drawn","version":5,'
    '"at":"2026-11-29T21:46:00Z","seat":1,"source":"stock"}\r\n\r\n'
    ": heartbeat\r\n\r\n"
)


class StreamController(Controller):
    path = "/games"
    tags = ["games"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/{game_id:uuid}/stream",
        operation_id="streamEvents",
        summary="The game's events, live, as Server-Sent Events",
        description=(
            "The caller's events (redacted as in `listEvents`) as they are committed, one SSE "
            "message each: `event` is the event's type (`card_drawn`; a browser listens with "
            '`addEventListener("card_drawn", ...)`: `onmessage` sees none of them), `id` its '
            "version, `data` the event as JSON. Resume after a dropped connection with "
            "`Last-Event-ID` (or `?after=N`): the stream starts right after that version. "
            "Comment lines (`: heartbeat`) keep idle connections open. With `view=true`, a "
            "message `event: view` carries the caller's view each time the stream has caught "
            "up. The stream ends after `game_finished` or `game_aborted` (and its view); asking "
            "again after it "
            "answers 204, which stops an EventSource. Authenticate with `Authorization`, or, "
            "where headers cannot be sent (`EventSource`), with a `ticket` from "
            "`createStreamTicket`: one ticket per connection, so on a reconnect get a new one "
            "and resume with `after` the last id received."
        ),
        media_type="text/event-stream",
        security=OPTIONAL_BEARER,
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=str,
                media_type="text/event-stream",
                description="An endless stream of events and heartbeats (and views, if asked).",
                examples=[Example(summary="Three messages", value=_EXAMPLE_STREAM)],
            ),
            204: ResponseSpec(
                generate_examples=False,
                data_container=None,
                description="The game is over and the caller has every event: stop.",
            ),
            **problems(401, 403, 404, 422, 503),
        },
    )
    async def stream_events(
        self,
        stream_parts: NamedDependency[StreamParts],
        game_id: FromPath[UUID],
        after: Annotated[
            int,
            QueryParameter(
                ge=0, le=2**31, description="Start after this version (0: from the start)."
            ),
        ] = 0,
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                required=False,
                max_length=12,
                description="The `id` of the last message received; overrides `after`.",
            ),
        ] = None,
        ticket: Annotated[
            str | None,
            QueryParameter(
                max_length=128,
                description=(
                    "A stream ticket from `createStreamTicket`, instead of `Authorization` "
                    "(which a browser's `EventSource` cannot send): the stream is the "
                    "ticket's holder's. Spent by the request that shows it (one answered "
                    "403, 204 or 503 too): each connection needs a new one."
                ),
                examples=[Example(value="st_" + "x" * 43)],
            ),
        ] = None,
        view: Annotated[
            bool,
            QueryParameter(
                description=(
                    "`true`: also send the caller's view (as `getGame` shows it) in a "
                    "message `event: view`, `id` its version, each time the stream has "
                    "caught up: on opening and after each batch of new events."
                ),
            ),
        ] = False,
        authorization: Authorization = None,
    ) -> Response[Any]:
        services = stream_parts.services

        def work() -> Response[Any]:
            start = convert.stream_start(after, last_event_id)
            state = services.games.state(game_id)
            viewer = stream_viewer(
                state,
                authorization,
                ticket,
                services.admin_token,
                services.games.stream_tickets.redeem,
            )
            if state.table.over and start >= state.version:
                return Response(content=None, status_code=204)
            return open_stream(stream_parts, state, viewer, start, with_view=view)

        return await services.run(work, heavy=services.rebuilds(game_id))
