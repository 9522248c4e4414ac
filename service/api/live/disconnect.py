"""Replaces a task per stream watching for the disconnect: ~1 KB less an open stream (tracemalloc).

The figures are docs/performance.md's "The client's disconnect watched without a
task" (10,000 streams: +149-150 MB over the floor, from +156-161 MB). A task
waiting on `receive` beside each open stream was a task, its entry in asyncio's set
of tasks and a coroutine: `Disconnect` takes `receive`'s steps itself, as a task
would, from the done-callback of the future each step waits on (asyncio's own
protocol between a task and the futures it awaits: `_asyncio_future_blocking`).
tests/api/live/test_disconnect.py holds it to the plain path, a task awaiting `receive`,
on asyncio's loop and uvloop and behind a real uvicorn: the same hang-up when the
client goes, the same end when closed, the same failures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

from litestar.types import Receive

from service.api.live.listener import Listener


class Disconnect:
    """Hangs `listener` up once the client goes (or the response is complete), without
    a task of its own. For a bodyless request the first `receive` answers at once;
    the next waits until the client goes. A `receive` that fails hangs up too: the
    connection is no use any more."""

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
