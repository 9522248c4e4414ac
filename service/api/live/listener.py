"""One stream's inbox (`Listener`): what its game's channel delivers, on the loop serving it.

What arrives is a `Delivery` (a batch of the game's new events, shared by every
stream of the game in this process) or `LOOK` (read the store yourself). Nothing
runs for an idle stream: no task, no read, no poll; it waits on one future, and
its heartbeat is a place in a timer its loop shares among the streams due in the
same tenth of a second (`_Beats`). A stream whose client reads slowly is told to
`LOOK` rather than let deliveries pile up.
"""

from __future__ import annotations

import asyncio
import math
import weakref
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

BEAT_GRAIN = 0.1
"""Heartbeats due within the same tenth of a second share one timer (`_Beats`)."""
MAX_PENDING = 1000
"""Deliveries a stream may have waiting (its client reads slowly) before they are
replaced by one `LOOK`: it then reads what it missed from the store."""


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
