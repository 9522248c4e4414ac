"""The live stream: `GET /games/{game_id}/stream`, the caller's events as Server-Sent Events.

The event hub (service/api/hub.py) delivers each game's new events, read once
per process, to every stream of the game; a stream sends those after the
last version it sent. Streams of the same kind of caller (a seat, the
public, the admin) share each event's redaction and encoding (`Delivery.memo`).
A stream reads the store itself only to catch up: on opening (the events
after the version it starts from), after a gap in what it was delivered, and
when the hub says `LOOK`. A silent stream sends a heartbeat comment every
`stream_heartbeat_ms` and reads nothing. Reads follow the threading policy of
service/api/deps.py.

While the store is unavailable, streams stay open: a stream whose read fails
sends a comment saying so and reads again a heartbeat later (not on every
delivery), so an outage costs neither a hot loop nor a storm of reconnects.

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

The response is this module's own (`LiveStream`): litestar's `ServerSentEvent`
gives every stream a task group, a task listening for the client's
disconnect, a thread hop on opening and an encoder per message, 40 KB a
stream in all where this one keeps about half (bench/stream.py). Its start
goes through litestar's request chain; its body runs after the chain has
returned (`StreamHandOff`), so an open stream keeps nothing of litestar's
request, handler or middlewares: a third less memory again. A stream is
one task, waiting on its `Listener`; the client's disconnect is one
`receive` call waiting beside it, stepped from its future's callback
(`_Disconnect`), not a task. Streams end cleanly when the client goes,
and when the server shuts down (the hub ends them). Past the hub's cap on
open streams, a stream is refused (503 `too_many_streams`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, cast
from uuid import UUID

import msgspec
from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.enums import ScopeType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response.base import ASGIResponse
from litestar.types import ASGIApp, Receive, Scope, Send

from service.api import convert
from service.api.auth import stream_viewer
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs import problems
from service.api.errors import STORE_FAILURES
from service.api.hub import Delivery, EventHub, Listener, Look, Place
from service.api.metrics import Metrics
from service.domain.rules import RuleSet
from service.game.results import GameState
from service.projections.events import event_view
from service.projections.views import Viewer

if TYPE_CHECKING:
    from litestar import Litestar, Request
    from litestar.background_tasks import BackgroundTask, BackgroundTasks
    from litestar.datastructures import Cookie
    from litestar.enums import MediaType
    from litestar.types import TypeEncodersMap

BATCH = 500
"""Events read from the store at a time."""
RETRY_MS = 2000
"""How long an EventSource waits before reconnecting after a dropped stream."""
VIEW_EVENT = "view"
"""The SSE event name of a view message (no event type is named so)."""
MEDIA_TYPE = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}
"""What litestar's `ServerSentEvent` sends, kept: no cache, and no buffering by a proxy."""
LIVE = "rummy.live_stream"
"""The scope key through which a stream's response hands its body to `StreamHandOff`."""
_LITESTAR_KEYS = ("app", "litestar_app", "state", "route_handler", "path_params")
HEARTBEAT = b": heartbeat\r\n\r\n"
UNAVAILABLE = b": store unavailable\r\n\r\n"


def message(version: int, name: str, data: bytes) -> bytes:
    """One SSE message, as litestar's `ServerSentEventMessage` writes it (its `data` is
    JSON on one line: msgspec escapes every line break inside a string)."""
    return b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n" % (version, name.encode(), data)


@dataclass(frozen=True, slots=True)
class _Read:
    """What one read of the store gave a stream."""

    events: list[Any]
    more: bool
    """Whether the store has more events already: read again without waiting."""
    view: bytes | None = None
    """The caller's view (JSON) at the last event's version, when the stream asks for
    views and has caught up with the game."""
    version: int = 0
    """The game's version the view shows."""


class _Stream(ASGIResponse):
    """One live stream: litestar's response headers, then this class's body.

    One coroutine (`__call__`) while the stream is open: with 10,000 streams each
    frame and object kept costs, so the loop is not split into layers that would
    all stay suspended beside it."""

    __slots__ = (
        "after",
        "ended",
        "game_id",
        "hub",
        "last",
        "metrics",
        "place",
        "players",
        "rules",
        "services",
        "viewer",
        "with_view",
    )
    _should_set_content_length = False

    def __init__(
        self,
        *,
        services: Services,
        hub: EventHub,
        metrics: Metrics,
        game_id: UUID,
        viewer: Viewer,
        rules: RuleSet,
        players: int,
        after: int,
        place: Place,
        with_view: bool = False,
    ) -> None:
        super().__init__(headers=HEADERS, media_type=MEDIA_TYPE)
        self.services = services
        self.hub = hub
        self.metrics = metrics
        self.game_id = game_id
        self.viewer = viewer
        self.rules = rules
        self.players = players
        self.after = after
        self.place = place
        self.with_view = with_view
        self.last = after
        """The version of the last event sent."""
        self.ended = False
        """Whether the last event sent ended the game."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The response's start, through litestar's request chain; then its body, handed
        out of the chain (`StreamHandOff`) or, without that layer, here."""
        try:
            await self.start_response(send)
        except BaseException:
            self.place.give_back()
            raise
        del self.headers  # sent: not kept for the stream's life
        keys = cast("dict[str, Any]", scope)
        if LIVE in keys:
            keys[LIVE] = self
            return
        await self.run(receive, send)

    async def run(self, receive: Receive, send: Send) -> None:
        """The body, until the game ends, the client goes or the server stops."""
        hub = self.hub
        self.metrics.stream_opened()
        try:
            listener = hub.listen(self.game_id)
            gone = _Disconnect(receive, listener)
            try:
                opening = f": events of game {self.game_id}\r\nretry: {RETRY_MS}\r\n\r\n"
                await _write(send, opening.encode())
                # Catch up from the store; new events meanwhile wait in the listener.
                ended = await self._catch_up(send, listener, opening=True)
                while not (ended or hub.closed or listener.hung_up):
                    if not listener.ready():
                        await listener.park(hub.settings.heartbeat_seconds)
                        if not listener.ready():
                            await _write(send, HEARTBEAT)
                            continue
                    ended = await self._take(send, listener)
            finally:
                gone.close()
                hub.channels.leave(listener)
            # The end of the body (the server drops it if the client is gone).
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.place.give_back()
            self.metrics.stream_closed()
            hub.collect_closed()

    async def _take(self, send: Send, listener: Listener) -> bool:
        """Send what was delivered (reading what it skips); True once the game ended."""
        sent = look = False
        for item in listener.take():
            if isinstance(item, Look):
                look = True
                continue
            if item.last <= self.last:
                continue  # sent already (this process's save, then the watcher's)
            if item.first > self.last + 1 or look:
                # An earlier delivery is late, or missed: the store has it.
                if await self._catch_up(send, listener, opening=False):
                    return True
                look = False
                if item.last <= self.last:
                    continue
            messages = self._shared(item)
            await _write(send, b"".join(messages[self.last + 1 - item.first :]))
            self.last, sent = item.last, True
            self.ended = item.events[-1].event_type == "game_finished"
            if self.ended and not self.with_view:
                return True
        if look or (sent and self.with_view):
            return await self._catch_up(send, listener, opening=False, view_due=sent)
        return False

    async def _catch_up(
        self, send: Send, listener: Listener, *, opening: bool, view_due: bool = False
    ) -> bool:
        """Send what the store has after the last event sent (and the view, for a stream
        that asks, once caught up); True once the game ended."""
        while True:
            try:
                read = await self._read(self.last, opening or view_due)
            except STORE_FAILURES:
                await _write(send, UNAVAILABLE)
                await listener.pause(self.hub.settings.heartbeat_seconds)
                if self.hub.closed or listener.hung_up:
                    return True
                continue
            opening = view_due = False
            if read.events:
                await _write(send, b"".join(self._encoded(event) for event in read.events))
                self.last = read.events[-1].originator_version
                self.ended = read.events[-1].event_type == "game_finished"
            if read.view is not None:
                await _write(send, message(read.version, VIEW_EVENT, read.view))
            if self.ended:
                return True
            if not read.more:
                return False

    def _encoded(self, event: Any) -> bytes:
        """`event` as this stream's caller may see it, as one message."""
        view = event_view(event, self.viewer, self.rules, self.players)
        return message(event.originator_version, event.event_type, msgspec.json.encode(view))

    def _shared(self, delivery: Delivery) -> list[bytes]:
        """Each of `delivery`'s events as one message for this kind of caller: made by
        the first stream of the kind that sends it, shared by the others."""
        found: list[bytes] | None = delivery.memo.get(self.viewer)
        if found is None:
            found = delivery.memo[self.viewer] = [self._encoded(e) for e in delivery.events]
        return found

    async def _read(self, after: int, opening: bool) -> _Read:
        """The events after version `after` (and, for a stream with views, the view
        once it has caught up: on `opening`, or after new events)."""
        services, game_id = self.services, self.game_id
        heavy = services.reads_many(game_id, after, BATCH)
        if not self.with_view:
            read = partial(services.games.events_after, game_id, after, BATCH)
            events = await services.run(read, heavy=heavy)
            return _Read(events, more=len(events) == BATCH)
        work = partial(self._read_with_view, after, opening)
        return await services.run(work, heavy=heavy or services.rebuilds(game_id))

    def _read_with_view(self, after: int, opening: bool) -> _Read:
        # The game first, then its events up to its version: the view then shows
        # exactly the last event sent, whatever is committed meanwhile.
        state = self.services.games.state(self.game_id)
        read = []
        if state.version > after:
            read = self.services.games.events_after(self.game_id, after, BATCH)
        events = [event for event in read if event.originator_version <= state.version]
        last = events[-1].originator_version if events else after
        more = len(events) < len(read) or len(read) == BATCH
        if last != state.version or not (events or opening):
            return _Read(events, more=more)
        view = self.services.views.view(state, self.viewer)
        return _Read(events, more=more, view=view, version=state.version)


class StreamHandOff:
    """The outermost ASGI layer: a live stream's body runs here, after litestar's
    request chain (routing, the handler, the middlewares) has returned.

    A stream lasts hours and each layer kept suspended beside it costs memory and
    objects the cycle collector walks: litestar's request and its state, the
    handler's frames, the access log's and metrics' wrappers, about a third of an
    idle stream (docs/performance.md). So the stream's response sends its start
    through the chain (headers, CORS, the request id; the access line and the
    request's metrics are written when the stream opens), leaves itself in the
    scope and returns; its body is then sent from here, on the server's own
    `send` and `receive`."""

    __slots__ = ("app",)

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        keys = cast("dict[str, Any]", scope)  # ASGI's type names the standard keys only
        keys[LIVE] = None
        await self.app(scope, receive, send)
        stream: _Stream | None = keys.pop(LIVE, None)
        if stream is not None:
            # What litestar left in the scope lives as long as the connection does.
            for key in _LITESTAR_KEYS:
                keys.pop(key, None)
            await stream.run(receive, send)


async def _write(send: Send, body: bytes) -> None:
    await send({"type": "http.response.body", "body": body, "more_body": True})


class _Disconnect:
    """Hangs `listener` up once the client goes (or the response is complete), without
    a task of its own.

    A task waiting on `receive` beside each open stream cost ~1 KB (the task, its
    entry in asyncio's set of tasks, its coroutine; measured with `tracemalloc`,
    docs/performance.md): this takes `receive`'s steps itself, as a task would, from
    the done-callback of the future each step waits on. For a bodyless request the
    first `receive` answers at once; the next waits until the client goes."""

    __slots__ = ("_closed", "_listener", "_receive", "_steps")

    def __init__(self, receive: Receive, listener: Listener) -> None:
        self._receive = receive
        self._listener = listener
        self._steps: Generator[Any, None, Any] | None = None
        self._closed = False
        self._step(None)

    def _step(self, _done: object) -> None:
        # Closed: a step already scheduled (its future done just before) starts nothing.
        while not (self._closed or self._listener.hung_up):
            steps = self._steps
            if steps is None:
                steps = self._steps = self._receive().__await__()
            try:
                waiting = steps.send(None)
            except StopIteration as received:
                self._steps = None
                if received.value["type"] != "http.disconnect":
                    continue  # a body's piece (none for a stream's GET): read on
            except (Exception, asyncio.CancelledError):
                self._steps = None  # the connection is no use any more
            else:
                if waiting is None:  # a bare `yield`: step again on the next turn
                    self._listener.loop.call_soon(self._step, None)
                else:  # a future: step again once it is done (what a task does)
                    waiting._asyncio_future_blocking = False
                    waiting.add_done_callback(self._step)
                return
            self._listener.hang_up()
            return

    def close(self) -> None:
        """Stop watching: the waiting `receive` is closed (it stops waiting)."""
        self._closed = True
        steps, self._steps = self._steps, None
        if steps is not None:
            steps.close()


class LiveStream(Response[None]):
    """What the handler answers with: litestar hands over to the stream itself."""

    __slots__ = ("stream",)

    def __init__(self, stream: _Stream) -> None:
        super().__init__(content=None, media_type=MEDIA_TYPE)
        self.stream = stream

    def to_asgi_response(
        self,
        app: Litestar | None,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: MediaType | str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        for name, value in (headers or {}).items():
            self.stream.headers.setdefault(name, value)
        return self.stream


_EXAMPLE_STREAM = (
    ": events of game 0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95\r\n"
    "retry: 2000\r\n\r\n"
    'id: 5\r\nevent: card_drawn\r\ndata: {"type":"card_drawn","version":5,'
    '"at":"2026-11-29T21:46:00Z","seat":1,"source":"stock"}\r\n\r\n'
    ": heartbeat\r\n\r\n"
)


@dataclass(frozen=True, slots=True)
class StreamParts:
    """What a stream is made with, given to its handler as one dependency: litestar
    resolves several in an anyio task group, a task each, on every opening, and anyio
    then keeps an entry for the request's task as long as the stream is open."""

    services: Services
    hub: EventHub
    metrics: Metrics


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
            if state.table.finished and start >= state.version:
                return Response(content=None, status_code=204)
            return _open(stream_parts, state, viewer, start, with_view=view)

        return await services.run(work, heavy=services.rebuilds(game_id))


def _open(
    parts: StreamParts,
    state: GameState,
    viewer: Viewer,
    after: int,
    *,
    with_view: bool,
) -> LiveStream:
    """The stream of `state`'s game after version `after`, holding one of the hub's
    places (503 when none is left). It keeps what its views need, not the state."""
    services, hub, metrics = parts.services, parts.hub, parts.metrics
    hub.start()
    place = hub.take_place()
    stream = _Stream(
        services=services,
        hub=hub,
        metrics=metrics,
        game_id=state.game_id,
        viewer=viewer,
        rules=state.table.rules,
        players=state.table.players,
        after=after,
        place=place,
        with_view=with_view,
    )
    return LiveStream(stream)
