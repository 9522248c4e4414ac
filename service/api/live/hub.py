"""The event hub: brings each game's new events to its live streams (service/api/live/stream.py).

One `EventHub` per process learns of every game's new events, whichever
replica committed them, with the events in hand: on PostgreSQL from one
LISTEN/NOTIFY subscription to the notification log (the library's
`subscribe`); where the store cannot push (SQLite) from one shared poller
reading the log every `stream_poll_ms`. Both run in one thread of the hub's
own ("the watcher"), which hands them to `Channels` (channels.py) to fan out
to the game's streams (each stream's `Listener`, listener.py); this process's
own saves reach `Channels` at once, as a save observer. A stream reads the
store itself only to catch up: on opening, after a gap in what it was
delivered (its delivery came before an earlier one), and when told to `LOOK`.

While the store is unavailable the watcher retries with growing pauses,
logging once per outage, and tells every stream to `LOOK` meanwhile in case
an event was missed.

A process keeps at most `max_streams` streams open (`RUMMY_MAX_STREAMS`): each
holds a connection and its buffers, so past it a stream is refused (503
`too_many_streams`, with `Retry-After`) rather than the process outgrowing its
memory. A stream's place is given back when it ends, or when its response
never started (then nothing but the collector sees the stream go). Closed
streams' memory is collected in batches (`COLLECT_AFTER`) and the C heap's
free pages handed back to the system.

On SIGTERM or SIGINT every stream is told to end as soon as the signal
arrives, so the server's graceful shutdown does not wait on them.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import threading
from dataclasses import dataclass
from functools import partial
from types import FrameType
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Notification, Subscription

from service.api.errors import LimitExceeded
from service.api.live.channels import Channels
from service.api.live.heap import give_memory_back
from service.api.live.listener import Listener
from service.config import Settings
from service.game.event_feed import Feed

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


class EventHub:
    """Brings every game's new events to its live streams: one watcher per process.

    `channels` must be among the observers of the application whose store `feed`
    reads, so that this process's own saves reach the streams at once (the
    composition root builds both)."""

    def __init__(self, feed: Feed, channels: Channels, settings: StreamSettings) -> None:
        self.feed = feed
        self.channels = channels
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

    def listen(self, game_id: UUID) -> Listener:
        """`game_id`'s new events, delivered until `channels.leave`. Listen before
        reading the store: what is committed after the read is then delivered."""
        self.start()
        return self.channels.join(game_id)

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

    @property
    def open_streams(self) -> int:
        """Streams holding a place now."""
        return self._streams

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
        give_memory_back()

    def end_streams(self) -> None:
        """Let every stream finish now (the server is going down); safe from any thread."""
        self.closed = True
        self.channels.hang_up_all()

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
            self._position = self.feed.last_position()
            self._thread = threading.Thread(target=self._run, name="rummy-event-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                subscription = self.feed.subscribe(self._position)
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
                self.channels.look_all()
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
                    game_id = UUID(str(notification.originator_id))
                    # Read back only for the games someone follows here.
                    if self.channels.listened(game_id):
                        self._publish(game_id, notification)
        finally:
            with self._lock:
                self._subscription = None

    def _publish(self, game_id: UUID, notification: Notification) -> None:
        try:
            event = self.feed.event_of(notification)
        except Exception:
            # Not for this watcher to judge a stored event: the streams read it
            # themselves, and each answers what it finds.
            log.exception("a notification of game %s could not be read back", game_id)
            self.channels.look(game_id)
        else:
            self.channels.publish(game_id, [event])

    def _poll(self) -> None:
        while not self._stop.is_set():
            entries = self.feed.page(self._position, _POLL_BATCH)
            by_game: dict[UUID, list[Any]] = {}
            for entry in entries:
                by_game.setdefault(entry.game_id, []).append(entry.event)
            for game_id, events in by_game.items():
                self.channels.publish(game_id, events)
            if entries:
                self._position = entries[-1].position
            if len(entries) < _POLL_BATCH:
                self._stop.wait(self.settings.poll_seconds)


class Place:
    """One stream's place among the `max_streams`: given back once, by whoever is first
    (the stream's end, or the collector when the response never started)."""

    __slots__ = ("_hub",)

    def __init__(self, hub: EventHub) -> None:
        self._hub: EventHub | None = hub

    def give_back(self) -> None:
        hub, self._hub = self._hub, None
        if hub is not None:
            hub._give_back()

    # Only the stream holds its place: a response made and never started is given
    # back when it is collected. (A `weakref.finalize` per stream did the same and
    # kept two more objects and a registry entry for every open stream.)
    __del__ = give_back


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
