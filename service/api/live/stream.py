"""The live stream: `GET /games/{game_id}/stream`, the caller's events as Server-Sent Events.

The event hub (service/api/live/hub.py) delivers each game's new events, read once
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
ends after `game_finished` or `game_aborted`; a reconnect after that is answered
204, which tells an EventSource to stop.

With `?view=true` the stream also sends the caller's view, as `GET
/games/{id}` shows it, in a message `event: view` whose `id` is the view's
version, each time the stream has caught up with the game: once on opening,
and after each batch of new events. A view is made once per batch, not per
event (a view at an older version would mean rebuilding the game), and only
for streams that ask.

A browser's `EventSource` cannot send `Authorization`: it opens the stream
with `?ticket=...` (service/api/routes/tickets.py), spent by opening it.

The response is this module's own (`LiveStream`): litestar's `ServerSentEvent`
gives every stream a task group, a task listening for the client's
disconnect, a thread hop on opening and an encoder per message, 40 KB a
stream in all where this one keeps about half (bench/stream.py). Its start
goes through litestar's request chain; its body runs after the chain has
returned (`StreamHandOff`, hand_off.py), so an open stream keeps nothing of litestar's
request, handler or middlewares: a third less memory again. A stream is
one task, waiting on its `Listener`; the client's disconnect is one
`receive` call waiting beside it, stepped from its future's callback
(`service.api.live.disconnect`), not a task. Streams end cleanly when the client goes,
and when the server shuts down (the hub ends them). Past the hub's cap on
open streams, a stream is refused (503 `too_many_streams`). The route that
opens a stream (`open_stream`) is service/api/routes/live_events.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import msgspec
from litestar import Response
from litestar.response.base import ASGIResponse
from litestar.types import Receive, Scope, Send

from service.api.deps import Services
from service.api.errors import STORE_FAILURES
from service.api.live.disconnect import Disconnect
from service.api.live.hand_off import LIVE
from service.api.live.hub import EventHub, Place
from service.api.live.listener import Delivery, Listener, Look
from service.api.transport.metrics import Metrics
from service.domain.events import GAME_OVER_EVENTS
from service.domain.rules import RuleSet
from service.game.results import GameState
from service.projections.event_views import event_view
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
HEARTBEAT = b": heartbeat\r\n\r\n"
_CHAINS = "chains"
"""Where a delivery's memo keeps its events' live heads, made once for every stream."""
UNAVAILABLE = b": store unavailable\r\n\r\n"


def message(version: int, name: str, data: bytes) -> bytes:
    """One SSE message, as litestar's `ServerSentEventMessage` writes it (its `data` is
    JSON on one line: msgspec escapes every line break inside a string)."""
    return b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n" % (version, name.encode(), data)


@dataclass(frozen=True, slots=True)
class _Read:
    """What one read of the store gave a stream."""

    events: list[Any]
    chains: list[str]
    """The live chain head after each event (service/projections/chain_heads.py)."""
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
        "rules",
        "seat_count",
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
        seat_count: int,
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
        self.seat_count = seat_count
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
            gone = Disconnect(receive, listener)
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
            if messages is None:
                # The head before it is not held here (the heads' cache let it go): the
                # store has these events, read off the event loop with their heads.
                if await self._catch_up(send, listener, opening=False):
                    return True
                continue
            await _write(send, b"".join(messages[self.last + 1 - item.first :]))
            self.last, sent = item.last, True
            self.ended = item.events[-1].event_type in GAME_OVER_EVENTS
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
                await _write(
                    send,
                    b"".join(
                        self._encoded(event, chain)
                        for event, chain in zip(read.events, read.chains, strict=True)
                    ),
                )
                self.last = read.events[-1].originator_version
                self.ended = read.events[-1].event_type in GAME_OVER_EVENTS
            if read.view is not None:
                await _write(send, message(read.version, VIEW_EVENT, read.view))
            if self.ended:
                return True
            if not read.more:
                return False

    def _encoded(self, event: Any, chain: str) -> bytes:
        """`event` as this stream's caller may see it, as one message (`chain`: the live
        head after it)."""
        view = event_view(event, self.viewer, self.rules, self.seat_count, chain)
        return message(event.originator_version, event.event_type, msgspec.json.encode(view))

    def _shared(self, delivery: Delivery) -> list[bytes] | None:
        """Each of `delivery`'s events as one message for this kind of caller: made by
        the first stream of the kind that sends it, shared by the others. None when the
        live head before its first event is not held without reading the store."""
        found: list[bytes] | None = delivery.memo.get(self.viewer)
        if found is None:
            chains: list[str] | None = delivery.memo.get(_CHAINS)
            if chains is None:
                chains = self.services.heads.known_after(self.game_id, delivery.events)
                if chains is None:
                    return None
                delivery.memo[_CHAINS] = chains
            found = delivery.memo[self.viewer] = [
                self._encoded(event, chain)
                for event, chain in zip(delivery.events, chains, strict=True)
            ]
        return found

    async def _read(self, after: int, opening: bool) -> _Read:
        """The events after version `after` (and, for a stream with views, the view
        once it has caught up: on `opening`, or after new events)."""
        services, game_id = self.services, self.game_id
        heavy = services.reads_many(game_id, after, BATCH)
        if not self.with_view:
            return await services.run(partial(self._read_events, after), heavy=heavy)
        work = partial(self._read_with_view, after, opening)
        return await services.run(work, heavy=heavy or services.rebuilds(game_id))

    def _read_events(self, after: int) -> _Read:
        services, game_id = self.services, self.game_id
        events = services.games.events_after(game_id, after, BATCH)
        chains = services.heads.after(services.games, game_id, events)
        return _Read(events, chains, more=len(events) == BATCH)

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
        chains = self.services.heads.after(self.services.games, self.game_id, events)
        if last != state.version or not (events or opening):
            return _Read(events, chains, more=more)
        view = self.services.views.view(state, self.viewer)
        return _Read(events, chains, more=more, view=view, version=state.version)


async def _write(send: Send, body: bytes) -> None:
    await send({"type": "http.response.body", "body": body, "more_body": True})


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


@dataclass(frozen=True, slots=True)
class StreamParts:
    """What a stream is made with, given to its handler as one dependency: litestar
    resolves several in an anyio task group, a task each, on every opening, and anyio
    then keeps an entry for the request's task as long as the stream is open."""

    services: Services
    hub: EventHub
    metrics: Metrics


def open_stream(
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
        seat_count=state.table.seat_count,
        after=after,
        place=place,
        with_view=with_view,
    )
    return LiveStream(stream)
