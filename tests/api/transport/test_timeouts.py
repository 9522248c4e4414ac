"""Connections that hold the server without sending a request are closed: a silent
one, slow headers, a slow body (408) — on a real server with the settings'
timeouts (`service.api.transport.timeouts`), short here so the tests are quick."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from service.api.transport.timeouts import server_options
from service.bootstrap import bootstrap
from service.config import Settings, Store
from tests.servers import serve

TIMEOUT = 0.5
"""The header and body timeouts of the server under test, in seconds."""
PATIENCE = 10.0
"""How long a test waits for the server to act before it fails (never reached when
the timeouts work; on a server without them, the test fails after it)."""


@pytest.fixture(scope="module")
def address() -> Iterator[tuple[str, int]]:
    settings = Settings(
        store=Store.MEMORY, header_timeout=TIMEOUT, body_timeout=TIMEOUT, create_rate=None
    )
    app = bootstrap(settings).app
    with serve(app, **server_options(settings)) as base:
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def _connect(address: tuple[str, int]) -> socket.socket:
    connection = socket.create_connection(address)
    connection.settimeout(PATIENCE)
    return connection


def _read_until_closed(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(4096):
        received += chunk
    return received


def test_a_connection_that_never_sends_a_request_is_closed(address: tuple[str, int]) -> None:
    with _connect(address) as connection:
        assert _read_until_closed(connection) == b""


def test_headers_that_trickle_in_are_cut_off_though_bytes_keep_coming(
    address: tuple[str, int],
) -> None:
    request = b"GET /health HTTP/1.1\r\nHost: rummy\r\nX-Slow: " + b"z" * 1000
    closed = False
    with _connect(address) as connection:
        for byte in request:
            try:
                connection.sendall(bytes([byte]))
            except OSError:  # the server has closed it
                closed = True
                break
            time.sleep(PATIENCE / len(request))
        if not closed:
            closed = _read_until_closed(connection) == b""
    assert closed


def test_a_body_that_does_not_arrive_in_time_is_408_and_the_connection_closed(
    address: tuple[str, int],
) -> None:
    head = (
        b"POST /games HTTP/1.1\r\nHost: rummy\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    with _connect(address) as connection:
        connection.sendall(head + b'{"players": ')
        answer = _read_until_closed(connection)

    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", answer
    headers, _, body = rest.partition(b"\r\n\r\n")
    assert b"connection: close" in headers.lower()
    assert b"application/problem+json" in headers
    assert b'"code":"body_timeout"' in body


def test_a_request_in_time_on_the_same_server_is_answered(address: tuple[str, int]) -> None:
    with _connect(address) as connection:
        connection.sendall(b"GET /health HTTP/1.1\r\nHost: rummy\r\nConnection: close\r\n\r\n")
        answer = _read_until_closed(connection)
    assert answer.startswith(b"HTTP/1.1 200 OK")
