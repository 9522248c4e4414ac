"""`StreamHandOff`: a live stream's body runs after litestar's request chain returns;
`Disconnect`: its client's disconnect watched without a task."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from service.api.live.disconnect import Disconnect
from service.api.live.hand_off import LIVE, StreamHandOff
from service.api.live.listener import Listener


async def _receive() -> dict[str, Any]:
    return {"type": "http.disconnect"}


async def _send(message: Any) -> None:
    pass


class _Body:
    """Stands for a stream's body: records what it was run with."""

    def __init__(self, scope: dict[str, Any], calls: list[str]) -> None:
        self.scope = scope
        self.calls = calls
        self.keys_at_run: set[str] = set()

    async def run(self, receive: Any, send: Any) -> None:
        assert receive is _receive
        assert send is _send, "the body is sent on the server's own send"
        self.keys_at_run = set(self.scope)
        self.calls.append("body")


def _litestar_like(calls: list[str], body: _Body | None) -> Any:
    async def chain(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert LIVE in scope, "the layer tells the response it can hand its body out"
        scope.update(
            app=object(),
            litestar_app=object(),
            state={"cached": "headers"},
            route_handler=object(),
            path_params={"game_id": "g"},
        )
        if body is not None:
            scope[LIVE] = body
        calls.append("chain returned")

    return chain


def test_a_stream_body_runs_after_the_chain_without_litestars_keys() -> None:
    calls: list[str] = []
    scope: dict[str, Any] = {"type": "http", "method": "GET", "path": "/games/g/stream"}
    body = _Body(scope, calls)
    asyncio.run(StreamHandOff(_litestar_like(calls, body))(scope, _receive, _send))  # type: ignore[arg-type]
    assert calls == ["chain returned", "body"]
    assert body.keys_at_run == {"type", "method", "path"}


def test_other_requests_pass_through_and_leave_no_key() -> None:
    calls: list[str] = []
    scope: dict[str, Any] = {"type": "http", "method": "GET", "path": "/health"}
    asyncio.run(StreamHandOff(_litestar_like(calls, None))(scope, _receive, _send))  # type: ignore[arg-type]
    assert calls == ["chain returned"]
    assert LIVE not in scope
    assert "route_handler" in scope, "only a stream's scope is cleared"


def test_lifespan_passes_through_untouched() -> None:
    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(dict(scope))

    scope: dict[str, Any] = {"type": "lifespan"}
    asyncio.run(StreamHandOff(app)(scope, _receive, _send))  # type: ignore[arg-type]
    assert seen == [{"type": "lifespan"}]


class _Client:
    """uvicorn's `receive` as far as a stream sees it: the request at once, then a
    wait on an event until the client goes."""

    def __init__(self) -> None:
        self.gone = asyncio.Event()
        self.requests = 0

    async def receive(self) -> dict[str, Any]:
        if self.requests == 0:
            self.requests += 1
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}


def test_the_disconnect_is_watched_without_a_task() -> None:
    async def test() -> None:
        client = _Client()
        listener = Listener(uuid.uuid4())
        tasks = len(asyncio.all_tasks())
        watch = Disconnect(client.receive, listener)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        assert len(asyncio.all_tasks()) == tasks, "no task of its own"
        assert not listener.hung_up
        assert len(client.gone._waiters) == 1, "one receive waits"
        client.gone.set()
        await asyncio.wait_for(listener.park(5), 1)
        assert listener.hung_up
        watch.close()

    asyncio.run(test())


def test_closing_the_watch_stops_the_waiting_receive() -> None:
    async def test() -> None:
        client = _Client()
        listener = Listener(uuid.uuid4())
        watch = Disconnect(client.receive, listener)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        watch.close()
        assert not client.gone._waiters, "the receive stopped waiting"
        client.gone.set()
        await asyncio.sleep(0.01)
        assert not listener.hung_up, "a closed watch hangs nothing up"

    asyncio.run(test())


def test_a_failing_receive_hangs_up() -> None:
    async def test() -> None:
        async def broken() -> dict[str, Any]:
            raise ConnectionError("gone")

        listener = Listener(uuid.uuid4())
        Disconnect(broken, listener)  # type: ignore[arg-type]
        assert listener.hung_up

    asyncio.run(test())


def test_a_step_due_when_the_watch_closes_starts_nothing() -> None:
    async def test() -> None:
        client = _Client()
        listener = Listener(uuid.uuid4())
        watch = Disconnect(client.receive, listener)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        client.gone.set()  # the waiting future is done: its callback is due
        watch.close()  # before the loop runs it
        await asyncio.sleep(0.01)
        assert not listener.hung_up, "no new receive was started after closing"
        assert not client.gone._waiters

    asyncio.run(test())
