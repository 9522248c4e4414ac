"""The live stream: `GET /games/{game_id}/stream`, the caller's events as Server-Sent Events.

One `EventHub` per process wakes the streams of a game when it has new
events, whichever replica committed them: on PostgreSQL one LISTEN/NOTIFY
subscription to the notification log (the library's `subscribe`); where the
store cannot push (SQLite) one shared poller reads the log every
`stream_poll_ms`. Saves of this process wake at once either way. A woken
stream reads its game's events after the last version it sent from the
store, so a wake only ever says "look"; every heartbeat it looks anyway.

While the store is unavailable, streams stay open: a stream whose read fails
sends a comment saying so and reads again a heartbeat later (not on every
wake), and the watcher retries with growing pauses, logging once per outage,
so an outage costs neither a hot loop nor a storm of reconnects.

SSE `id:` is the event's version: a client that reconnects with
`Last-Event-ID` (or `?after=N`) gets exactly the events after it. The stream
ends after `game_finished`; a reconnect after that is answered 204, which
tells an EventSource to stop. Streams end cleanly when the client goes, and
when the server shuts down (on SIGTERM or SIGINT as soon as the signal
arrives, so the server's graceful shutdown does not wait on them).

A process keeps at most `max_streams` streams open (`RUMMY_MAX_STREAMS`): each
holds a connection, buffers and a task, so past it a stream is refused (503
`too_many_streams`, with `Retry-After`) rather than the process outgrowing its
memory. A stream's place is given back when it ends, or when its response
never started (then nothing but the collector sees the stream go).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import threading
import weakref
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from functools import partial
from types import FrameType
from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
import msgspec
from eventsourcing.persistence import ApplicationRecorder, Subscription
from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.api.auth import viewer_for
from service.api.docs import problems
from service.api.errors import STORE_FAILURES, LimitExceeded, problem
from service.api.games import Authorization, Services
from service.api.metrics import Metrics
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.projections.events import event_view
from service.projections.views import Viewer

log = logging.getLogger(__name__)

BATCH = 500
"""Events read from the store at a time."""
RETRY_MS = 2000
"""How long an EventSource waits before reconnecting after a dropped stream."""
_POLL_BATCH = 500
STREAMS_RETRY_AFTER = 10
"""Seconds a client refused a stream (all places taken) is asked to wait."""
COLLECT_AFTER = 100
"""Closed streams after which their memory is collected, `COLLECT_DELAY` s later (so
streams closing together are collected together).
A stream ends in cancellations (litestar, anyio) whose tracebacks hold its frames,
transport and buffers in reference cycles: only the cycle collector frees them, and
left to itself it may not run for a long time. Measured (`bench/abuse.py streams`):
6,000 closed streams kept 220 MB until a collection, which freed half of it."""
COLLECT_DELAY = 2.0
_WATCH_RETRY_SECONDS = (1.0, 2.0, 5.0)
"""The watcher's pauses after the store failed, the last one repeated."""


@dataclass(frozen=True, slots=True)
class StreamSettings:
    heartbeat_seconds: float = 15.0
    poll_seconds: float = 0.5
    max_streams: int = 1000


class _Waiter:
    """One stream's alarm: set from any thread, awaited on the stream's loop."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout: float) -> bool:
        """True if woken, False after `timeout` seconds of silence."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        return True


class EventHub:
    """Wakes the live streams of a game when it has new events: one watcher per process."""

    def __init__(self, games: RummyApplication, settings: StreamSettings) -> None:
        self.games = games
        self.settings = settings
        self.closed = False
        # Re-entrant: a stream's place may be given back by the collector, which can
        # run in this thread while it holds the lock.
        self._lock = threading.RLock()
        self._waiters: dict[UUID, set[_Waiter]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._subscription: Subscription[ApplicationRecorder] | None = None
        self._position = 0
        self._streams = 0
        self._closed = 0
        self._collecting = False
        games.observers = (*games.observers, self)

    @property
    def watching(self) -> int:
        with self._lock:
            return sum(len(waiters) for waiters in self._waiters.values())

    @contextlib.contextmanager
    def watch(self, game_id: UUID) -> Iterator[_Waiter]:
        """An alarm for `game_id`'s new events while the block runs. Enter it before
        reading the store: what is committed after the read then wakes it."""
        self.start()
        waiter = _Waiter()
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                waiters = self._waiters.get(game_id, set())
                waiters.discard(waiter)
                if not waiters:
                    self._waiters.pop(game_id, None)

    def take_place(self) -> _Place:
        """A place for one more stream; `LimitExceeded` (503) when all are taken."""
        with self._lock:
            if self._streams >= self.settings.max_streams:
                raise LimitExceeded(
                    503,
                    "too_many_streams",
                    f"This server has {self.settings.max_streams} live streams open, as many "
                    f"as it keeps: try again in {STREAMS_RETRY_AFTER} s, or read "
                    "`/games/{game_id}/events?after=N` meanwhile.",
                    {"Retry-After": str(STREAMS_RETRY_AFTER)},
                )
            self._streams += 1
        return _Place(self)

    def _give_back(self) -> None:
        with self._lock:
            self._streams -= 1
            self._closed += 1

    def collect_closed(self) -> None:
        """Free the memory of closed streams soon, once enough have closed (on the loop)."""
        with self._lock:
            if self._closed < COLLECT_AFTER or self._collecting:
                return
            self._collecting = True
        asyncio.get_running_loop().call_later(COLLECT_DELAY, self._collect)

    def _collect(self) -> None:
        with self._lock:
            self._closed, self._collecting = 0, False
        gc.collect()

    def end_streams(self) -> None:
        """Let every stream finish now (the server is going down); safe from any thread."""
        self.closed = True
        self._wake_all()

    def close(self) -> None:
        """End every stream and stop watching the store."""
        self.end_streams()
        with self._lock:
            self._stop.set()
            subscription, thread = self._subscription, self._thread
        if subscription is not None:
            subscription.stop()
        if thread is not None:
            thread.join(timeout=5)

    # --- SaveObserver: this process's own saves wake at once ------------------------

    def saved(self, events: Any) -> None:
        for game_id in {event.originator_id for event in events}:
            self._wake(game_id)

    def write_conflict(self) -> None:
        pass

    # --- the watcher thread -------------------------------------------------------------

    def start(self) -> None:
        """Start watching the store (once; it asks the store, so call it off the event loop)."""
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
            # Read before any stream reads the store: whatever is committed later is
            # past this position, so the watcher sees it.
            self._position = self.games.last_position()
            self._thread = threading.Thread(target=self._run, name="rummy-event-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                subscription = self.games.subscribe(self._position)
                if subscription is None:
                    self._poll()
                else:
                    self._follow(subscription)
            except Exception as error:
                # The store went away: look again after a pause, and let every stream
                # read its game meanwhile in case a wake was lost.
                if failures == 0:
                    log.warning("the live event watcher lost the store, retrying: %r", error)
                pause = _WATCH_RETRY_SECONDS[min(failures, len(_WATCH_RETRY_SECONDS) - 1)]
                failures += 1
                self._wake_all()
                self._stop.wait(pause)
            else:
                failures = 0

    def _follow(self, subscription: Subscription[ApplicationRecorder]) -> None:
        with self._lock:
            self._subscription = subscription
        try:
            with subscription:
                if self._stop.is_set():
                    subscription.stop()
                for notification in subscription:
                    self._position = notification.id
                    self._wake(UUID(str(notification.originator_id)))
        finally:
            with self._lock:
                self._subscription = None

    def _poll(self) -> None:
        while not self._stop.is_set():
            entries = self.games.feed(self._position, _POLL_BATCH)
            for game_id in {entry.game_id for entry in entries}:
                self._wake(game_id)
            if entries:
                self._position = entries[-1].position
            if len(entries) < _POLL_BATCH:
                self._stop.wait(self.settings.poll_seconds)

    def _wake(self, game_id: UUID) -> None:
        with self._lock:
            waiters = list(self._waiters.get(game_id, ()))
        for waiter in waiters:
            waiter.wake()

    def _wake_all(self) -> None:
        with self._lock:
            waiters = [waiter for group in self._waiters.values() for waiter in group]
        for waiter in waiters:
            waiter.wake()


class _Place:
    """One stream's place among the `max_streams`: given back once, by whoever is first
    (the stream's end, or the collector when the response never started)."""

    def __init__(self, hub: EventHub) -> None:
        self._hub: EventHub | None = hub

    def give_back(self) -> None:
        hub, self._hub = self._hub, None
        if hub is not None:
            hub._give_back()


def end_streams_on_signals(hub: EventHub) -> None:
    """Chain SIGTERM and SIGINT to end the streams first, so a server's graceful
    shutdown (which waits for open responses) does not wait on them. Only where a
    server installed Python handlers, and only in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if callable(previous):
            signal.signal(signum, partial(_ending_streams, hub, previous))


def _ending_streams(hub: EventHub, previous: Any, signum: int, frame: FrameType | None) -> None:
    hub.end_streams()
    previous(signum, frame)


@dataclass(frozen=True, slots=True)
class _Stream:
    games: RummyApplication
    hub: EventHub
    metrics: Metrics
    game_id: UUID
    viewer: Viewer
    rules: RuleSet
    players: int
    after: int
    place: _Place

    async def messages(self) -> AsyncIterator[ServerSentEventMessage]:
        self.metrics.stream_opened()
        try:
            with self.hub.watch(self.game_id) as waiter:
                yield ServerSentEventMessage(
                    data=None, comment=f"events of game {self.game_id}", retry=RETRY_MS
                )
                last = self.after
                while not self.hub.closed:
                    waiter.event.clear()
                    try:
                        events = await anyio.to_thread.run_sync(
                            partial(self.games.events_after, self.game_id, last, BATCH)
                        )
                    except STORE_FAILURES:
                        yield ServerSentEventMessage(data=None, comment="store unavailable")
                        await self._pause(waiter)
                        continue
                    for event in events:
                        view = event_view(event, self.viewer, self.rules, self.players)
                        last = event.originator_version
                        yield ServerSentEventMessage(
                            id=last, data=msgspec.json.encode(view).decode()
                        )
                        if event.event_type == "game_finished":
                            return
                    if len(events) == BATCH:
                        continue
                    if not await waiter.wait(self.hub.settings.heartbeat_seconds):
                        yield ServerSentEventMessage(data=None, comment="heartbeat")
        finally:
            self.place.give_back()
            self.metrics.stream_closed()
            self.hub.collect_closed()

    async def _pause(self, waiter: _Waiter) -> None:
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
    'id: 5\r\ndata: {"type":"card_drawn","version":5,"at":"2026-11-29T21:46:00Z",'
    '"seat":1,"source":"stock"}\r\n\r\n'
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
            "message each: `id` is the event's version, `data` the event as JSON. Resume after "
            "a dropped connection with `Last-Event-ID` (or `?after=N`): the stream starts "
            "right after that version. Comment lines (`: heartbeat`) keep idle connections "
            "open. The stream ends after `game_finished`; asking again after it answers 204, "
            "which stops an EventSource."
        ),
        media_type="text/event-stream",
        sync_to_thread=True,
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=str,
                media_type="text/event-stream",
                description="An endless stream of events and heartbeats.",
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
    def stream_events(
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
        authorization: Authorization = None,
    ) -> Response[Any]:
        state = services.games.state(game_id)
        viewer = viewer_for(state, authorization, services.admin_token)
        start = after if last_event_id is None else _last_event_id(last_event_id)
        if state.table.finished and start >= state.version:
            return Response(content=None, status_code=204)
        hub.start()
        stream = _Stream(
            games=services.games,
            hub=hub,
            metrics=metrics,
            game_id=game_id,
            viewer=viewer,
            rules=state.table.rules,
            players=state.table.players,
            after=start,
            place=hub.take_place(),
        )
        messages = stream.messages()
        # A stream that never starts never runs its `finally`: its place is given
        # back when the collector takes it.
        weakref.finalize(messages, stream.place.give_back)
        return ServerSentEvent(messages)


def _last_event_id(raw: str) -> int:
    value = raw.strip()
    # ASCII digits only: `str.isdigit` also says yes to "²" (a latin-1 byte), which
    # `int` refuses.
    if not (value.isascii() and value.isdigit()) or len(value) > 10:
        raise problem(
            422,
            "invalid_request",
            f"Last-Event-ID must be the id of a message of this stream (a version), not {raw!r}.",
        )
    return int(value)
