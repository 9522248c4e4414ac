"""The HTTP/1.1 protocol `rummy serve` runs: uvicorn's httptools one, with a
limit on the size of a request's head.

uvicorn bounds a head only for its h11 protocol
(`h11_max_incomplete_event_size`); with httptools it takes headers of any
size, and httptools gathers a long header value by copying it anew for each
piece that arrives. So here the bytes of a head (the request line and the
headers, up to the blank line that ends them) are counted as they arrive,
and the parser is never handed more than the limit: a request whose head is
larger is answered 431 problem+json (`headers_too_large`) and its connection
closed, before the application sees anything of it. (Exact for a request
whose head starts a read from the socket; see `on_message_complete`.)

The limit travels in uvicorn's own `h11_max_incomplete_event_size`, the same
meaning under the other protocol's name, so it reaches every worker process
with the rest of uvicorn's configuration (`service/cli.py` sets it from
`RUMMY_MAX_HEADER_BYTES`).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from http import HTTPStatus
from typing import Any

import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.api.docs.problem_types import type_uri
from service.api.errors import PROBLEM_MEDIA_TYPE, Problem, ProblemCode, problem_title
from service.config import DEFAULT_MAX_HEADER_BYTES

HEADERS_TOO_LARGE = "headers_too_large"


class HeadLimitedProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        configured = self.config.h11_max_incomplete_event_size
        self.head_limit = DEFAULT_MAX_HEADER_BYTES if configured is None else configured
        self._in_head = True
        """Whether the bytes arriving now belong to a request's head."""
        self._head_bytes = 0
        self._heads = 0
        """Heads read to their end on this connection."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A response goes out in more than one write (its head, then its body). Left
        # to Nagle's algorithm, the body waits for the client's ACK of the head, which
        # the client delays by up to 40 ms: every request after a connection's first
        # took 44 ms instead of 0.2 ms. uvloop sets TCP_NODELAY itself, but not on
        # the connections of the socket `rummy serve` binds and hands over (`fd=`):
        # uvicorn wraps that as a Unix socket, so the socket's family cannot be
        # trusted here. Where the option means nothing (a real Unix socket), it fails.
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        if not self._in_head:
            super().data_received(data)
            return
        room = self.head_limit - self._head_bytes
        if len(data) <= room:
            self._head_bytes += len(data)
            super().data_received(data)
            return
        # Only what still fits: if the head has not ended within it, it is too large.
        self._head_bytes = self.head_limit
        heads = self._heads
        super().data_received(data[:room])
        if self._in_head and self._heads == heads:
            self._refuse_head()
        elif not self.transport.is_closing():
            self.data_received(data[room:])

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._heads += 1
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        # What comes next on this connection is the head of the next request. Where it
        # began inside the piece being parsed is not known, so that piece's part of it
        # goes uncounted: a request sent in the same read as the end of the one before
        # (pipelined) may have a head of up to twice the limit.
        self._in_head = True
        self._head_bytes = 0
        super().on_message_complete()

    def _refuse_head(self) -> None:
        self.logger.warning("Request head over %d bytes: answered 431.", self.head_limit)
        status = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
        body = msgspec.json.encode(
            Problem(
                type=type_uri(HEADERS_TOO_LARGE),
                title=problem_title(status, HEADERS_TOO_LARGE),
                status=status,
                detail=(
                    f"The request line and headers take more than {self.head_limit} bytes; "
                    "send fewer or shorter headers."
                ),
                code=ProblemCode(HEADERS_TOO_LARGE),
            )
        )
        head = (
            f"HTTP/1.1 {status.value} {status.phrase}\r\n"
            f"content-type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"content-length: {len(body)}\r\n"
            "connection: close\r\n\r\n"
        )
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()
