"""The least a live stream can cost on the service's server stack: the memory floor
of bench/stream.py.

An ASGI app served by the same uvicorn (uvloop, httptools) with nothing of the
service: `/ready` answers 200; any other request is an SSE stream that sends its
head and one comment, then waits for the client to go, as one task waiting on
`receive` (as a stream of the service waits for its client's disconnect). What one
open connection costs here is the server's own: no stream of the service's can
cost less.
"""

from __future__ import annotations

from typing import Any

READY = (200, [(b"content-type", b"text/plain")], b"ready")


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return  # served with `--lifespan off`
    if scope["path"] == "/ready":
        status, headers, body = READY
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/event-stream")],
        }
    )
    await send({"type": "http.response.body", "body": b": open\r\n\r\n", "more_body": True})
    while (await receive())["type"] != "http.disconnect":
        pass
