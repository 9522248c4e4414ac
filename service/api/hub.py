"""The event hub: brings each game's new events to its live streams (service/api/stream.py).

One `EventHub` per process learns of every game's new events, whichever
replica committed them, with the events in hand: on PostgreSQL from one
LISTEN/NOTIFY subscription to the notification log (the library's
`subscribe`); where the store cannot push (SQLite) from one shared poller
reading the log every `stream_poll_ms`. Both run in one thread of the hub's
own ("the watcher"). Saves of this process arrive at once either way:
`Channels` is one of the application's save observers (service/bootstrap.py
wires it), told of the events it saved.

`Channels` fans the events out: one `Delivery` per batch is handed to every
stream of the game in this process (each stream's `Listener`), so a game's
new events are read once per process, not once per stream, and the streams
share what they make of them (service/api/stream.py). Nothing runs for an
idle stream: no task of the hub's, no read, no poll; its heartbeat is a place
in a timer its loop shares among the streams due in the same tenth of a
second. A stream reads the store itself only to catch up: on opening, after a
gap in what it was delivered (its delivery came before an earlier one), and
when told to `LOOK`.

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
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import math
import signal
import threading
import weakref
from asyncio import events as asyncio_events
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import FrameType
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Notification, Subscription

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
BEAT_GRAIN = 0.1
"""Heartbeats due within the same tenth of a second share one timer (`_Beats`)."""
MAX_PENDING = 1000
"""Deliveries a stream may have waiting (its client reads slowly) before they are
replaced by one `LOOK`: it then reads what it missed from the store."""


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 - glibc has it; musl does not
    except (OSError, AttributeError, TypeError):
        return None
    return libc


_LIBC = _libc()


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


class Look:
    """Told to a stream instead of events: read the store after your last version (the
    watcher lost the store and a wake may have been lost, or the stream fell behind)."""


LOOK = Look()


@dataclass(eq=False, slots=True)
class Delivery:
    """A game's new events, handed as one object to every stream of the game in this
    process. `memo` is the streams' to share what they make of them (one redaction
    and encoding per kind of viewer, not per stream); only touched on their loop."""

    events: Sequence[Any]
    """Stored events of one game, in version order."""
    memo: dict[Hashable, Any] = field(default_factory=dict)

    @property
    def first(self) -> int:
        return int(self.events[0].originator_version)

    @property
    def last(self) -> int:
        return int(self.events[-1].originator_version)


class _Beats:
    """The heartbeat timers of one event loop's parked streams: one timer per
    `BEAT_GRAIN` seconds in which some stream's heartbeat falls, not one per stream.
    A timer of its own cost a stream 608 bytes (uvloop's handle, libuv's timer, the
    bound method), measured; a place in a shared tick's set costs a few dozen."""

    # Not the loop: `_BEATS` is keyed by it weakly, and a value holding its key
    # would keep both for ever.
    __slots__ = ("_due",)

    def __init__(self) -> None:
        self._due: dict[int, set[Listener]] = {}

    def add(self, listener: Listener, timeout: float) -> int:
        """Wake `listener` `timeout` seconds from now (or up to a grain later), on its
        loop; its tick."""
        loop = listener.loop
        tick = math.ceil((loop.time() + timeout) / BEAT_GRAIN)
        due = self._due.get(tick)
        if due is None:
            due = self._due[tick] = set()
            loop.call_at(tick * BEAT_GRAIN, self._ring, tick)
        due.add(listener)
        return tick

    def remove(self, listener: Listener, tick: int) -> None:
        due = self._due.get(tick)
        if due is not None:
            due.discard(listener)

    def _ring(self, tick: int) -> None:
        for listener in self._due.pop(tick, ()):
            listener._resolve()


_BEATS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Beats] = weakref.WeakKeyDictionary()
"""Each event loop's `_Beats` (a process serves from one loop per worker; tests make many)."""


def _beats_of(loop: asyncio.AbstractEventLoop) -> _Beats:
    beats = _BEATS.get(loop)
    if beats is None:
        beats = _BEATS[loop] = _Beats()
    return beats


class Listener:
    """One stream's inbox: what its game's channel delivered, on the loop serving it.

    Costs nothing while nothing arrives: no task, no thread, no read; `park` leaves
    the stream on one future and a place in its loop's heartbeat tick (`_Beats`)."""

    __slots__ = (
        "_beats",
        "_items",
        "_tick",
        "_waiter",
        "_woken_by_items",
        "game_id",
        "hung_up",
        "loop",
    )

    def __init__(self, game_id: UUID) -> None:
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self._beats = _beats_of(self.loop)
        self._items: list[Delivery | Look] = []
        self._waiter: asyncio.Future[None] | None = None
        self._tick: int | None = None
        self._woken_by_items = True
        self.hung_up = False
        """The client went away (or the server is ending the stream)."""

    def put(self, item: Delivery | Look) -> None:
        """On the loop: queue `item` and wake the stream. A stream that cannot keep up
        (its client reads slowly) is told to read the store instead of piling up."""
        items = self._items
        if len(items) >= MAX_PENDING:
            items[:] = [LOOK]
        else:
            items.append(item)
        if self._woken_by_items:
            self._resolve()

    def hang_up(self) -> None:
        """On the loop: end the stream at its next step."""
        self.hung_up = True
        self._resolve()

    def take(self) -> list[Delivery | Look]:
        items, self._items = self._items, []
        return items

    def ready(self) -> bool:
        """Whether something was delivered, or the stream is to end."""
        return bool(self._items) or self.hung_up

    def park(self, timeout: float) -> asyncio.Future[None]:
        """Done when something arrives, the stream is to end, or after `timeout`
        seconds: a future and a timer, no coroutine to keep while parked."""
        return self._park(timeout, woken_by_items=True)

    async def pause(self, timeout: float) -> None:
        """`timeout` seconds, or less if the stream is to end: deliveries wait meanwhile."""
        if not self.hung_up:
            await self._park(timeout, woken_by_items=False)

    def _park(self, timeout: float, *, woken_by_items: bool) -> asyncio.Future[None]:
        self._resolve()
        waiter = self._waiter = self.loop.create_future()
        self._woken_by_items = woken_by_items
        self._tick = self._beats.add(self, timeout)
        return waiter

    def _resolve(self) -> None:
        """Wake the stream if it is parked, and leave its future and heartbeat tick."""
        waiter, tick = self._waiter, self._tick
        self._waiter = self._tick = None
        self._woken_by_items = True
        if tick is not None:
            self._beats.remove(self, tick)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class _Channel:
    """The listeners of one game on one event loop; touched only on that loop."""

    __slots__ = ("listeners", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listeners: set[Listener] = set()

    def deliver(self, item: Delivery | Look) -> None:
        for listener in self.listeners:
            listener.put(item)

    def hang_up(self) -> None:
        for listener in self.listeners:
            listener.hang_up()

    def send(self, call: Callable[[], None]) -> None:
        """Run `call` on this channel's loop, from any thread."""
        if asyncio_events._get_running_loop() is self.loop:
            self.loop.call_soon(call)
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody listens
            self.loop.call_soon_threadsafe(call)


class Channels:
    """Every live stream of this process, by game: one channel per game (per event loop)
    fans each delivery out to all of the game's streams. Also one of the application's
    `SaveObserver`s: this process's own saves are delivered at once, their events in
    hand, without a read."""

    def __init__(self) -> None:
        # Re-entrant: a signal handler (`end_streams_on_signals`) runs on the loop's
        # thread, perhaps while it holds the lock.
        self._lock = threading.RLock()
        self._by_game: dict[UUID, list[_Channel]] = {}

    def join(self, game_id: UUID) -> Listener:
        """A new listener of `game_id`, on the running loop, until it `leave`s. (Not a
        context manager: with 10,000 streams open, its frame would cost 1 KB each.)"""
        listener = Listener(game_id)
        with self._lock:
            channels = self._by_game.setdefault(game_id, [])
            for channel in channels:
                if channel.loop is listener.loop:
                    break
            else:
                channel = _Channel(listener.loop)
                channels.append(channel)
            channel.listeners.add(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        """On the listener's loop: deliver it nothing more."""
        game_id = listener.game_id
        with self._lock:
            channels = self._by_game.get(game_id, [])
            for channel in channels:
                if channel.loop is listener.loop:
                    channel.listeners.discard(listener)
                    if not channel.listeners:
                        channels.remove(channel)
                    break
            if not channels:
                self._by_game.pop(game_id, None)

    def listened(self, game_id: UUID) -> bool:
        """Whether any stream of this process follows `game_id` now."""
        return game_id in self._by_game

    def publish(self, game_id: UUID, events: Sequence[Any]) -> None:
        """Deliver `events` (stored events of `game_id`, in version order) to each of
        its streams; from any thread."""
        if not events:
            return
        with self._lock:
            channels = list(self._by_game.get(game_id, ()))
        if channels:
            delivery = Delivery(events)
            for channel in channels:
                channel.send(partial(channel.deliver, delivery))

    def look(self, game_id: UUID) -> None:
        """Tell `game_id`'s streams to read the store after their last version."""
        with self._lock:
            channels = list(self._by_game.get(game_id, ()))
        for channel in channels:
            channel.send(partial(channel.deliver, LOOK))

    def look_all(self) -> None:
        """Tell every stream to read the store after its last version; from any thread."""
        for channel in self._all():
            channel.send(partial(channel.deliver, LOOK))

    def hang_up_all(self) -> None:
        """End every stream; from any thread."""
        for channel in self._all():
            channel.send(channel.hang_up)

    def _all(self) -> list[_Channel]:
        with self._lock:
            return [channel for group in self._by_game.values() for channel in group]

    # --- SaveObserver ---------------------------------------------------------------

    def saved(self, events: Sequence[Any]) -> None:
        by_game: dict[UUID, list[Any]] = {}
        for event in events:
            by_game.setdefault(event.originator_id, []).append(event)
        for game_id, found in by_game.items():
            self.publish(game_id, found)

    def write_conflict(self) -> None:
        pass


class EventHub:
    """Brings every game's new events to its live streams: one watcher per process.

    `channels` must be among `games`' observers, so that this process's own saves
    reach the streams at once (the composition root builds both)."""

    def __init__(
        self, games: RummyApplication, channels: Channels, settings: StreamSettings
    ) -> None:
        self.games = games
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
        _give_memory_back()

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
            event = self.games.event_of(notification)
        except Exception:
            # Not for this watcher to judge a stored event: the streams read it
            # themselves, and each answers what it finds.
            log.exception("a notification of game %s could not be read back", game_id)
            self.channels.look(game_id)
        else:
            self.channels.publish(game_id, [event])

    def _poll(self) -> None:
        while not self._stop.is_set():
            entries = self.games.feed(self._position, _POLL_BATCH)
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


def _give_memory_back() -> None:
    """Hand the C heap's free pages back to the system (glibc only): the objects of
    10,000 closed streams leave holes that `free` alone keeps (measured, bench/stream.py)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


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
