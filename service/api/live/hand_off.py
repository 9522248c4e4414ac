"""`StreamHandOff`, the outermost ASGI layer: a live stream's body runs there, after
litestar's request chain has returned (service/api/live/stream.py hands it over).

It replaces litestar's own path, the chain kept suspended for the stream's life;
its fence is tests/audit_stream/test_stream_hand_off.py (docs/performance.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    from service.api.live.stream import _Stream

LIVE = "rummy.live_stream"
"""The scope key through which a stream's response hands its body to `StreamHandOff`."""
_LITESTAR_KEYS = ("app", "litestar_app", "state", "route_handler", "path_params")


class StreamHandOff:
    """The outermost ASGI layer: a live stream's body runs here, after litestar's
    request chain (routing, the handler, the middlewares) has returned.

    A stream lasts hours and each layer kept suspended beside it costs memory and
    objects the cycle collector walks: litestar's request and its state, the
    handler's frames, the access log's and metrics' wrappers, about a third of an
    idle stream (docs/performance.md). So the stream's response sends its start
    through the chain (headers, CORS, the request id; the access line and the
    request's metrics are written when the stream opens), leaves itself in the
    scope and returns; its body is then sent from here, on the server's own
    `send` and `receive`."""

    __slots__ = ("app",)

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        keys = cast("dict[str, Any]", scope)  # ASGI's type names the standard keys only
        keys[LIVE] = None
        await self.app(scope, receive, send)
        stream: _Stream | None = keys.pop(LIVE, None)
        if stream is not None:
            # What litestar left in the scope lives as long as the connection does.
            for key in _LITESTAR_KEYS:
                keys.pop(key, None)
            await stream.run(receive, send)
