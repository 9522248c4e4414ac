"""The server protocol of `rummy serve` (service/api/transport/protocol.py): a request
whose head (request line and headers) is larger than the limit is answered
431 problem+json and never reaches the application; any other is served,
however its bytes are split into the pieces a socket delivers.

The protocol is driven directly, with a transport that records what it is
sent: every byte boundary can be tried, and nothing waits on a network.
tests/deploy/test_entrypoint.py tries the real `rummy serve`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import socket
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.server import ServerState

from service.api.transport.protocol import HeadLimitedProtocol

LIMIT = 1024


@dataclass
class Transport:
    """What the protocol writes, and whether it closed the connection."""

    written: bytes = b""
    closed: bool = False

    def get_extra_info(self, name: str) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name)

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


@dataclass
class App:
    """Answers 200 with the size of the body it read; remembers every request."""

    bodies: list[bytes] = field(default_factory=list)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        answer = str(len(body)).encode()
        headers = [(b"content-length", str(len(answer)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})


def head(size: int, body: bytes = b"") -> bytes:
    """A POST whose head (up to and with the blank line) is exactly `size` bytes."""
    start = b"POST /games HTTP/1.1\r\nHost: test\r\n"
    start += b"Content-Length: " + str(len(body)).encode() + b"\r\n"
    pad = size - len(start) - len(b"X-Pad: \r\n\r\n")
    assert pad >= 0
    return start + b"X-Pad: " + b"a" * pad + b"\r\n\r\n"


def serve(pieces: list[bytes], limit: int = LIMIT) -> tuple[Transport, App]:
    """Hand `pieces` to a fresh connection one by one; what it answered."""
    app = App()

    async def run() -> Transport:
        config = uvicorn.Config(
            app, http=HeadLimitedProtocol, h11_max_incomplete_event_size=limit, log_config=None
        )
        config.load()
        state = ServerState()
        protocol = HeadLimitedProtocol(
            config=config, server_state=state, app_state={}, _loop=asyncio.get_running_loop()
        )
        transport = Transport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        for piece in pieces:
            if transport.closed:
                break
            protocol.data_received(piece)
            await asyncio.sleep(0)
        while state.tasks:
            await asyncio.sleep(0)
        protocol.connection_lost(None)
        return transport

    return asyncio.run(run()), app


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(cut % (len(data) + 1) for cut in cuts)})
    return [data[start:end] for start, end in itertools.pairwise(points)]


def statuses(written: bytes) -> list[int]:
    return [int(status) for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", written)]


def test_a_head_of_the_limit_is_served_and_one_byte_more_is_431() -> None:
    transport, app = serve([head(LIMIT, b"{}") + b"{}"])
    assert statuses(transport.written) == [200]
    assert app.bodies == [b"{}"]
    transport, app = serve([head(LIMIT + 1, b"{}") + b"{}"])
    assert statuses(transport.written) == [431]
    assert transport.closed
    assert app.bodies == [], "the application never saw it"


def test_the_431_is_a_problem_that_says_the_limit() -> None:
    transport, _ = serve([head(LIMIT + 1)])
    response_head, _, body = transport.written.partition(b"\r\n\r\n")
    assert b"content-type: application/problem+json" in response_head
    assert b"connection: close" in response_head
    problem = json.loads(body)
    assert problem["status"] == 431
    assert problem["code"] == "headers_too_large"
    assert problem["type"] == "/problems/headers_too_large"
    assert str(LIMIT) in problem["detail"]


def test_a_megabyte_of_headers_is_cut_off_at_the_limit() -> None:
    # Sent in one piece or in many, the parser is never handed more than the limit.
    huge = head(1_000_000)
    for pieces in ([huge], split(huge, list(range(0, len(huge), 1500)))):
        transport, app = serve(pieces)
        assert statuses(transport.written) == [431]
        assert app.bodies == []


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(min_value=LIMIT - 40, max_value=LIMIT + 40),
    body=st.binary(max_size=300),
    cuts=st.lists(st.integers(min_value=0), max_size=6),
)
def test_431_exactly_when_the_head_is_over_the_limit_however_it_arrives(
    size: int, body: bytes, cuts: list[int]
) -> None:
    transport, app = serve(split(head(size, body) + body, cuts))
    if size > LIMIT:
        assert statuses(transport.written) == [431]
        assert app.bodies == []
    else:
        assert statuses(transport.written) == [200]
        assert app.bodies == [body]


@settings(max_examples=100, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0), max_size=6))
def test_each_request_of_a_connection_has_the_limit_to_itself(cuts: list[int]) -> None:
    # Three heads of the limit in a row: more than the limit together, each within it,
    # however the reads split them (several in one read: pipelined requests).
    requests = b"".join(head(LIMIT, b"ab") + b"ab" for _ in range(3))
    transport, app = serve(split(requests, cuts))
    assert statuses(transport.written) == [200, 200, 200]
    assert app.bodies == [b"ab"] * 3


def test_a_huge_head_behind_another_request_in_the_same_read_is_cut_off_too() -> None:
    # Pipelined: the part of its head in the first read goes uncounted, no more. (The
    # 431 closes the connection, and may overtake the answer to the request before it,
    # as uvicorn's own 400 for a malformed request does.)
    first = head(200, b"ab") + b"ab"
    transport, app = serve([first + head(1_000_000)[: 2 * LIMIT], b"a" * 100_000])
    assert 431 in statuses(transport.written)
    assert transport.closed
    assert app.bodies == [b"ab"]


@dataclass
class SocketTransport(Transport):
    """A transport over a real accepted connection, as the server hands it over."""

    sock: Any = None

    def get_extra_info(self, name: str) -> Any:
        return self.sock if name == "socket" else super().get_extra_info(name)


def test_a_connection_sends_without_delay_even_from_a_socket_handed_over_by_fd() -> None:
    """A response is written in pieces (head, body): with Nagle's algorithm on, each
    piece after the first waits for the client's delayed ACK (40 ms). `rummy serve`
    hands uvicorn its bound socket by file descriptor, which uvicorn wraps as a Unix
    socket, so uvloop leaves TCP_NODELAY off: the protocol turns it on."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        with client, accepted:
            # What uvicorn does with `fd=`: the same descriptor, said to be AF_UNIX.
            handed = socket.fromfd(accepted.fileno(), socket.AF_UNIX, socket.SOCK_STREAM)
            with handed:
                assert not accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)

                async def connect() -> None:
                    config = uvicorn.Config(App(), http=HeadLimitedProtocol, log_config=None)
                    config.load()
                    protocol = HeadLimitedProtocol(
                        config=config,
                        server_state=ServerState(),
                        app_state={},
                        _loop=asyncio.get_running_loop(),
                    )
                    protocol.connection_made(SocketTransport(sock=handed))  # type: ignore[arg-type]
                    protocol.connection_lost(None)

                asyncio.run(connect())
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
