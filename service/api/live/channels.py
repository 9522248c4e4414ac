"""Every live stream of this process, by game (`Channels`): one channel per game (per
event loop) fans each delivery out to all of the game's streams.

The hub's watcher (service/api/live/hub.py) publishes what other replicas
committed; this process's own saves arrive at once, their events in hand:
`Channels` is one of the application's save observers (service/bootstrap.py
wires it). One `Delivery` per batch is handed to every stream of the game (each
stream's `Listener`), so a game's new events are read once per process, not
once per stream, and the streams share what they make of them
(service/api/live/stream.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from asyncio import events as asyncio_events
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any
from uuid import UUID

from service.api.live.listener import LOOK, Delivery, Listener, Look


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
