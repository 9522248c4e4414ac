"""The streams' heartbeats share their loop's timers (service/api/live/listener.py, `_Beats`):
a parked listener wakes after its heartbeat, no sooner and at most a grain later;
one woken early leaves its tick; streams due in the same grain share one timer."""

from __future__ import annotations

import asyncio
import uuid

import uvloop

from service.api.live.listener import _BEATS, BEAT_GRAIN, LOOK, Listener


def _run(test: object) -> None:
    uvloop.run(test())  # type: ignore[operator]


def test_a_parked_listener_wakes_after_its_heartbeat() -> None:
    async def test() -> None:
        loop = asyncio.get_running_loop()
        listener = Listener(uuid.uuid4())
        started = loop.time()
        await listener.park(0.3)
        waited = loop.time() - started
        assert 0.3 <= waited < 0.3 + BEAT_GRAIN + 0.1
        assert not listener.ready(), "a heartbeat delivers nothing"

    _run(test)


def test_a_delivery_wakes_at_once_and_leaves_the_tick() -> None:
    async def test() -> None:
        loop = asyncio.get_running_loop()
        listener = Listener(uuid.uuid4())
        parked = listener.park(30)
        beats = _BEATS[loop]
        assert sum(len(due) for due in beats._due.values()) == 1
        loop.call_soon(listener.put, LOOK)
        started = loop.time()
        await parked
        assert loop.time() - started < 1
        assert listener.ready()
        assert sum(len(due) for due in beats._due.values()) == 0, "it left its tick"

    _run(test)


def test_listeners_due_together_share_one_timer() -> None:
    async def test() -> None:
        loop = asyncio.get_running_loop()
        listeners = [Listener(uuid.uuid4()) for _ in range(1000)]
        parked = [listener.park(0.5) for listener in listeners]
        ticks = _BEATS[loop]._due
        assert sum(len(due) for due in ticks.values()) == 1000
        assert len(ticks) <= 2, "1,000 heartbeats parked in a blink share a tick or two"
        await asyncio.gather(*parked)
        assert not ticks, "every tick rang and went"

    _run(test)


def test_a_listener_parked_again_is_woken_by_its_new_tick_only() -> None:
    async def test() -> None:
        loop = asyncio.get_running_loop()
        listener = Listener(uuid.uuid4())
        listener.park(0.2)
        # Parking again (as `pause` after a failed read does) leaves the first tick.
        started = loop.time()
        await listener.park(0.6)
        assert loop.time() - started >= 0.6

    _run(test)
