"""How long a connection may take: idle between requests, sending its headers,
sending its body.

uvicorn closes a connection idle after a response (`timeout_keep_alive`), but
has no timeout for a connection that never sends a request, nor for headers
or a body that trickle in (its issue 157 lists both, unbuilt). So:

- `HeaderTimeoutProtocol`, uvicorn's own httptools protocol (`http=` takes a
  class) with the limit on the size of a head (`service/api/transport/protocol.py`) and
  one timer more: from the moment a connection opens, or the first
  byte of its next request arrives, the headers must be complete within
  `RUMMY_HEADER_TIMEOUT` seconds, or the connection is closed. This covers a
  silent connection too.
- `BodyDeadline`, ASGI around the app: the body must have arrived within
  `RUMMY_BODY_TIMEOUT` seconds of the headers, or the request is answered 408
  `body_timeout` and the connection closed. It counts from the headers, not
  per chunk, so a byte a second does not keep a request alive.

A proxy in front (deploy/nginx.conf) sets the same limits at its edge.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Generator
from typing import Any, cast

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send

from service.api.errors import LimitExceeded
from service.api.transport.protocol import HeadLimitedProtocol
from service.config import Settings

log = logging.getLogger(__name__)


class HeaderTimeoutProtocol(HeadLimitedProtocol):
    """uvicorn's httptools protocol with a limit on heads, closing a connection whose
    request headers do not arrive within `header_timeout` seconds (None:
    `RUMMY_HEADER_TIMEOUT`)."""

    header_timeout: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = (
            _header_timeout_from_env() if self.header_timeout is None else self.header_timeout
        )
        self._headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_clock()

    def data_received(self, data: bytes) -> None:
        # Between requests (after a response, or a body nobody read), a byte starts
        # the clock for the next request's headers.
        if self._headers_due is None and (self.cycle is None or self.cycle.response_complete):
            self._start_header_clock()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._stop_header_clock()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_clock()
        super().connection_lost(exc)

    def _start_header_clock(self) -> None:
        self._headers_due = self.loop.call_later(self._seconds, self._headers_too_slow)

    def _stop_header_clock(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _headers_too_slow(self) -> None:
        self._headers_due = None
        if not self.transport.is_closing():
            log.info(
                "closed a connection from %s: no complete request headers within %g s",
                self.client[0] if self.client else "?",
                self._seconds,
            )
            self.transport.close()


def protocol_with_header_timeout(seconds: float) -> type[HeaderTimeoutProtocol]:
    """`HeaderTimeoutProtocol` with its timeout given, for a server run in process."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})


@functools.cache
def _header_timeout_from_env() -> float:
    # `rummy serve` checked the settings before any worker started.
    return Settings.from_env().header_timeout


class BodyDeadline:
    """ASGI: a request's body must have arrived `seconds` after its headers, or it is
    answered 408 `body_timeout` and its connection closed."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or not _has_body(scope):
            # Nothing to wait for (a GET, a live stream): the request as it is.
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        whole = False

        async def receive_in_time() -> ReceiveMessage:
            nonlocal whole
            if whole:  # the body is in: what follows is a disconnect, whenever it comes
                return await receive()
            # The first step of the receive, without a timer: a body that came with
            # its headers (nearly every one) is handed over without waiting, and the
            # timer would only be armed and cancelled: `asyncio.timeout_at` costs ~6 µs,
            # the receive itself 0.2 (docs/performance.md, the action POST). Only a
            # receive that has to wait is awaited under the deadline, from the moment
            # it starts waiting, before the loop runs anything else.
            steps = receive().__await__()
            try:
                waiting = steps.send(None)
            except StopIteration as arrived:
                message: ReceiveMessage = arrived.value
            else:
                try:
                    async with asyncio.timeout_at(deadline):
                        message = await _Resumed(steps, waiting)
                except TimeoutError:
                    raise LimitExceeded(
                        408,
                        "body_timeout",
                        f"The request body did not arrive within {self.seconds:g} s.",
                        {"Connection": "close"},
                    ) from None
            whole = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, receive_in_time, send)


class _Resumed:
    """Awaits the rest of an awaitable whose first step (`steps.send(None)`) has been
    taken and yielded `waiting`: what `await` would have done from there. Every value
    sent or exception thrown in (the deadline's cancellation) goes on to `steps`."""

    __slots__ = ("_steps", "_waiting")

    def __init__(self, steps: Generator[Any, Any, ReceiveMessage], waiting: Any) -> None:
        self._steps = steps
        self._waiting = waiting

    def __await__(self) -> Generator[Any, Any, ReceiveMessage]:
        steps, waiting = self._steps, self._waiting
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                steps.close()
                raise
            except BaseException as thrown:  # handed on, as `await` would
                try:
                    waiting = steps.throw(thrown)
                except StopIteration as done:
                    return cast("ReceiveMessage", done.value)
            else:
                try:
                    waiting = steps.send(sent)
                except StopIteration as done:
                    return cast("ReceiveMessage", done.value)


def _has_body(scope: Scope) -> bool:
    """Whether the request says a body follows (HTTP/1.1: a length or chunks)."""
    for name, value in scope["headers"]:
        name = name.lower()
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return True
    return False


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the connection timeouts of `settings`, for a server in
    this process (`rummy serve` passes the class, which reads the environment)."""
    return {
        "http": protocol_with_header_timeout(settings.header_timeout),
        "timeout_keep_alive": settings.keepalive_timeout,
    }
