"""The live stream: `GET /games/{game_id}/stream`, the caller's events as Server-Sent Events.

The event hub (service/api/hub.py) wakes a stream when its game has new
events; the stream then reads the events after the last version it sent
from the store, so a wake only ever says "look"; every heartbeat it looks
anyway. Reads follow the threading policy of service/api/deps.py.

While the store is unavailable, streams stay open: a stream whose read fails
sends a comment saying so and reads again a heartbeat later (not on every
wake), so an outage costs neither a hot loop nor a storm of reconnects.

Each event is one message: `event:` its type (`card_drawn`), so a browser
listens with `addEventListener("card_drawn", ...)`; `id:` its version;
`data:` the event as `listEvents` shows it. A client that reconnects with
`Last-Event-ID` (or `?after=N`) gets exactly the events after it. The stream
ends after `game_finished`; a reconnect after that is answered 204, which
tells an EventSource to stop.

With `?view=true` the stream also sends the caller's view, as `GET
/games/{id}` shows it, in a message `event: view` whose `id` is the view's
version, each time the stream has caught up with the game: once on opening,
and after each batch of new events. A view is made once per batch, not per
event (a view at an older version would mean rebuilding the game), and only
for streams that ask.

A browser's `EventSource` cannot send `Authorization`: it opens the stream
with `?ticket=...` (service/api/tickets.py), spent by opening it.

Streams end cleanly when the client goes, and when the server shuts down
(the hub ends them). Past the hub's cap on open streams, a stream is refused
(503 `too_many_streams`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.api import convert
from service.api.auth import stream_viewer
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs import problems
from service.api.errors import STORE_FAILURES
from service.api.hub import EventHub, Place, Waiter
from service.api.metrics import Metrics
from service.domain.rules import RuleSet
from service.game.results import GameState
from service.projections.events import event_view
from service.projections.views import Viewer, game_view

BATCH = 500
"""Events read from the store at a time."""
RETRY_MS = 2000
"""How long an EventSource waits before reconnecting after a dropped stream."""
VIEW_EVENT = "view"
"""The SSE event name of a view message (no event type is named so)."""


@dataclass(frozen=True, slots=True)
class _Batch:
    """What one read of the store gave a stream."""

    events: list[Any]
    more: bool
    """Whether the store has more events already: read again without waiting."""
    view: str | None = None
    """The caller's view (JSON) at the last event's version, when the stream asks for
    views and has caught up with the game."""
    version: int = 0
    """The game's version the view shows."""


@dataclass(frozen=True, slots=True)
class _Stream:
    services: Services
    hub: EventHub
    metrics: Metrics
    game_id: UUID
    viewer: Viewer
    rules: RuleSet
    players: int
    after: int
    place: Place
    with_view: bool = False

    async def messages(self) -> AsyncIterator[ServerSentEventMessage]:
        self.metrics.stream_opened()
        try:
            with self.hub.watch(self.game_id) as waiter:
                yield ServerSentEventMessage(
                    data=None, comment=f"events of game {self.game_id}", retry=RETRY_MS
                )
                last = self.after
                opening = True
                while not self.hub.closed:
                    waiter.event.clear()
                    try:
                        batch = await self._read(last, opening)
                    except STORE_FAILURES:
                        yield ServerSentEventMessage(data=None, comment="store unavailable")
                        await self._pause(waiter)
                        continue
                    opening = False
                    for event in batch.events:
                        view = event_view(event, self.viewer, self.rules, self.players)
                        last = event.originator_version
                        yield ServerSentEventMessage(
                            id=last, event=event.event_type, data=msgspec.json.encode(view).decode()
                        )
                    if batch.view is not None:
                        yield ServerSentEventMessage(
                            id=batch.version, event=VIEW_EVENT, data=batch.view
                        )
                    if batch.events and batch.events[-1].event_type == "game_finished":
                        return
                    if batch.more:
                        continue
                    if not await waiter.wait(self.hub.settings.heartbeat_seconds):
                        yield ServerSentEventMessage(data=None, comment="heartbeat")
        finally:
            self.place.give_back()
            self.metrics.stream_closed()
            self.hub.collect_closed()

    async def _read(self, after: int, opening: bool) -> _Batch:
        """The events after version `after` (and, for a stream with views, the view
        once it has caught up: on `opening`, or after new events)."""
        services, game_id = self.services, self.game_id
        heavy = services.reads_many(game_id, after, BATCH)
        if not self.with_view:
            read = partial(services.games.events_after, game_id, after, BATCH)
            events = await services.run(read, heavy=heavy)
            return _Batch(events, more=len(events) == BATCH)
        work = partial(self._read_with_view, after, opening)
        return await services.run(work, heavy=heavy or services.rebuilds(game_id))

    def _read_with_view(self, after: int, opening: bool) -> _Batch:
        # The game first, then its events up to its version: the view then shows
        # exactly the last event sent, whatever is committed meanwhile.
        state = self.services.games.state(self.game_id)
        read = self.services.games.events_after(self.game_id, after, BATCH)
        events = [event for event in read if event.originator_version <= state.version]
        last = events[-1].originator_version if events else after
        more = len(events) < len(read) or len(read) == BATCH
        if last != state.version or not (events or opening):
            return _Batch(events, more=more)
        view = msgspec.json.encode(game_view(state, self.viewer)).decode()
        return _Batch(events, more=more, view=view, version=state.version)

    async def _pause(self, waiter: Waiter) -> None:
        """A heartbeat's wait after a failed read, woken only to end: every stream
        reading again on each wake of an outage would only queue on the store."""
        deadline = asyncio.get_running_loop().time() + self.hub.settings.heartbeat_seconds
        while not self.hub.closed:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            waiter.event.clear()
            await waiter.wait(left)


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
            "up. The stream ends after `game_finished` (and its view); asking again after it "
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
                description="The game is finished and the caller has every event: stop.",
            ),
            **problems(401, 403, 404, 422, 503),
        },
    )
    async def stream_events(
        self,
        services: NamedDependency[Services],
        hub: NamedDependency[EventHub],
        metrics: NamedDependency[Metrics],
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
            if state.table.finished and start >= state.version:
                return Response(content=None, status_code=204)
            return _open(services, hub, metrics, state, viewer, start, with_view=view)

        return await services.run(work, heavy=services.rebuilds(game_id))


def _open(
    services: Services,
    hub: EventHub,
    metrics: Metrics,
    state: GameState,
    viewer: Viewer,
    after: int,
    *,
    with_view: bool,
) -> ServerSentEvent:
    """The stream of `state`'s game after version `after`, holding one of the hub's
    places (503 when none is left). It keeps what its views need, not the state."""
    hub.start()
    stream = _Stream(
        services=services,
        hub=hub,
        metrics=metrics,
        game_id=state.game_id,
        viewer=viewer,
        rules=state.table.rules,
        players=state.table.players,
        after=after,
        place=hub.take_place(),
        with_view=with_view,
    )
    messages = stream.messages()
    # A stream that never starts never runs its `finally`: its place is given
    # back when the collector takes it.
    weakref.finalize(messages, stream.place.give_back)
    return ServerSentEvent(messages)
