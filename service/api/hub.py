"""The event hub: what wakes the live streams (service/api/stream.py) of a game.

One `EventHub` per process wakes the streams of a game when it has new
events, whichever replica committed them: on PostgreSQL one LISTEN/NOTIFY
subscription to the notification log (the library's `subscribe`); where the
store cannot push (SQLite) one shared poller reads the log every
`stream_poll_ms`. Both run in one thread of the hub's own ("the watcher").
Saves of this process wake at once either way: `Waiters` is one of the
application's save observers (service/bootstrap.py wires it). A wake only
ever says "look": the stream then reads its game's events from the store.

While the store is unavailable the watcher retries with growing pauses,
logging once per outage, and wakes every stream meanwhile in case a wake
was lost.

A process keeps at most `max_streams` streams open (`RUMMY_MAX_STREAMS`): each
holds a connection, buffers and a task, so past it a stream is refused (503
`too_many_streams`, with `Retry-After`) rather than the process outgrowing its
memory. A stream's place is given back when it ends, or when its response
never started (then nothing but the collector sees the stream go). Closed
streams' memory is collected in batches (`COLLECT_AFTER`).

On SIGTERM or SIGINT every stream is told to end as soon as the signal
arrives, so the server's graceful shutdown does not wait on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from types import FrameType
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Subscription

from service.api.errors import LimitExceeded
from service.config import Settings
from service.game.application import RummyApplication

log = logging.getLogger(__name__)

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

    @classmethod
    def from_settings(cls, settings: Settings) -> StreamSettings:
        return cls(
            heartbeat_seconds=settings.stream_heartbeat_ms / 1000,
            poll_seconds=settings.stream_poll_ms / 1000,
            max_streams=settings.max_streams,
        )


class Waiter:
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


class Waiters:
    """The streams waiting for a game's new events. Also one of the application's
    `SaveObserver`s: this process's own saves wake their game's streams at once."""

    def __init__(self) -> None:
        # Re-entrant: the collector may run in a thread while it holds the lock.
        self._lock = threading.RLock()
        self._by_game: dict[UUID, set[Waiter]] = {}

    @contextlib.contextmanager
    def waiting(self, game_id: UUID) -> Iterator[Waiter]:
        waiter = Waiter()
        with self._lock:
            self._by_game.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                waiters = self._by_game.get(game_id, set())
                waiters.discard(waiter)
                if not waiters:
                    self._by_game.pop(game_id, None)

    def wake(self, game_id: UUID) -> None:
        with self._lock:
            waiters = list(self._by_game.get(game_id, ()))
        for waiter in waiters:
            waiter.wake()

    def wake_all(self) -> None:
        with self._lock:
            waiters = [waiter for group in self._by_game.values() for waiter in group]
        for waiter in waiters:
            waiter.wake()

    # --- SaveObserver ---------------------------------------------------------------

    def saved(self, events: Sequence[Any]) -> None:
        for game_id in {event.originator_id for event in events}:
            self.wake(game_id)

    def write_conflict(self) -> None:
        pass


class EventHub:
    """Wakes the live streams of a game when it has new events: one watcher per process.

    `waiters` must be among `games`' observers, so that this process's own saves
    wake at once (the composition root builds both)."""

    def __init__(self, games: RummyApplication, waiters: Waiters, settings: StreamSettings) -> None:
        self.games = games
        self.waiters = waiters
        self.settings = settings
        self.closed = False
        # Re-entrant: a stream's place may be given back by the collector, which can
        # run in this thread while it holds the lock.
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._subscription: Subscription[ApplicationRecorder] | None = None
        self._position = 0
        self._streams = 0
        self._closed = 0
        self._collecting = False

    @contextlib.contextmanager
    def watch(self, game_id: UUID) -> Iterator[Waiter]:
        """An alarm for `game_id`'s new events while the block runs. Enter it before
        reading the store: what is committed after the read then wakes it."""
        self.start()
        with self.waiters.waiting(game_id) as waiter:
            yield waiter

    def take_place(self) -> Place:
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
        return Place(self)

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
        self.waiters.wake_all()

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

    # --- the watcher thread -------------------------------------------------------------

    def start(self) -> None:
        """Start watching the store (once; it asks the store: see `Services.run`)."""
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
                self.waiters.wake_all()
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
                    self.waiters.wake(UUID(str(notification.originator_id)))
        finally:
            with self._lock:
                self._subscription = None

    def _poll(self) -> None:
        while not self._stop.is_set():
            entries = self.games.feed(self._position, _POLL_BATCH)
            for game_id in {entry.game_id for entry in entries}:
                self.waiters.wake(game_id)
            if entries:
                self._position = entries[-1].position
            if len(entries) < _POLL_BATCH:
                self._stop.wait(self.settings.poll_seconds)


class Place:
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
