"""`StreamHandOff`: a live stream's body runs after litestar's request chain returns."""

from __future__ import annotations

import asyncio
from typing import Any

from service.api.stream import LIVE, StreamHandOff


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
