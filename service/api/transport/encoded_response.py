"""Replaces litestar's `Response` for encoded views: view GET 1.58-1.61 → 1.42-1.44x `/health`.

The figures are docs/performance.md's "The view GET made cheaper". `EncodedView` sends
what `Response(view, media_type=MediaType.JSON, headers=etag(tag))` sends, the same
status, headers in the same order and body, by an ASGI callable of its own, without
litestar's general path: its `Response` and `ASGIResponse` merge headers, cookies and
encoders, and check media types and statuses, for every view (a seventh of a cached
view GET's CPU under cProfile). Anything a route adds (headers, cookies, a background
task, a status) goes the general way. tests/api/transport/test_encoded_response.py holds it to
litestar's own `Response` through real requests: the same status, headers and body.
"""

from __future__ import annotations

from typing import Any, cast

from litestar import Litestar, Request, Response
from litestar.enums import MediaType
from litestar.types import ASGIApp, Receive, Scope, Send

from service.api.transport.conditional import etag
from service.projections.views import GameView


class EncodedView(Response[GameView]):
    """A view already encoded, with its tag, sent by `SendEncodedView`."""

    __slots__ = ("tag",)

    def __init__(self, view: bytes, tag: str) -> None:
        # Response's own fields, as its __init__ sets them for these arguments.
        self.content = view  # type: ignore[assignment]
        self.background = None
        self.cookies = []
        self.encoding = "utf-8"
        self.headers = etag(tag)
        self.media_type = MediaType.JSON
        self.status_code = None
        self.response_type_encoders = {}
        self.tag = tag

    def to_asgi_response(  # type: ignore[override]
        self, app: Litestar | None, request: Request[Any, Any, Any], **given: Any
    ) -> ASGIApp:
        if any(given.get(name) for name in ROUTE_ADDS) or given.get("status_code") not in (
            None,
            200,
        ):
            return super().to_asgi_response(app, request, **given)
        return SendEncodedView(cast("bytes", self.content), self.tag)


ROUTE_ADDS = ("background", "cookies", "encoded_headers", "headers", "is_head_response")
"""What a route may add to a response: any of them sends it the general way."""


class SendEncodedView:
    """ASGI: 200 with an encoded view, its `ETag`, `Content-Type` and `Content-Length`."""

    __slots__ = ("tag", "view")

    def __init__(self, view: bytes, tag: str) -> None:
        self.view = view
        self.tag = tag

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"etag", self.tag.encode("latin-1")),
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(self.view)).encode("latin-1")),
                ],
            }
        )
        await send({"type": "http.response.body", "body": self.view, "more_body": False})
