"""A request body as the app reads it (service/api/transport/bodies.py `read_body`, under
service/api/transport/timeouts.py `BodyDeadline`): whole in any number of pieces, refused
413 over the limit whether declared or not, and the deadline's timer only around
a receive that has to wait. The app is called as an ASGI callable, so each test
says exactly how the body arrives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, cast

import pytest
from litestar.types import Message, ReceiveMessage, Scope

from service.api.transport.timeouts import BodyDeadline
from service.bootstrap import bootstrap
from service.config import Settings, Store

LIMIT = 2048
NEW_GAME = json.dumps({"players": [{"name": "Ann"}, {"name": "Bob"}]}).encode()


def _scope(headers: list[tuple[bytes, bytes]]) -> Scope:
    return cast(
        "Scope",
        {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/games",
            "raw_path": b"/games",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"rummy"), (b"content-type", b"application/json"), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
            "state": {},
            "extensions": {},
        },
    )


async def _post_games(
    pieces: Sequence[bytes], headers: list[tuple[bytes, bytes]], *, pause: float = 0.0
) -> tuple[int, bytes]:
    """POST /games with a body sent in `pieces` (`pause` seconds before each one after
    the first); the status and body of the answer."""
    app = bootstrap(Settings(store=Store.MEMORY, max_body_bytes=LIMIT, create_rate=None)).app
    queue = list(pieces)
    status = 0
    answer = b""

    async def receive() -> ReceiveMessage:
        if not queue:
            await asyncio.Event().wait()  # the client stays until it is answered
        piece = queue.pop(0)
        if pause and len(queue) < len(pieces) - 1:
            await asyncio.sleep(pause)
        return {"type": "http.request", "body": piece, "more_body": bool(queue)}

    async def send(message: Message) -> None:
        nonlocal status, answer
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            answer += message.get("body", b"")

    async with app.lifespan():
        await app(_scope(headers), receive, send)
    return status, answer


def _halves(body: bytes) -> list[bytes]:
    return [body[: len(body) // 2], body[len(body) // 2 :]]


@pytest.mark.parametrize("pause", [0.0, 0.01])
def test_a_body_sent_in_pieces_is_read_whole(pause: float) -> None:
    chunked = [(b"transfer-encoding", b"chunked")]
    status, answer = asyncio.run(_post_games(_halves(NEW_GAME), chunked, pause=pause))
    assert status == 201, answer


def test_a_body_over_the_limit_is_413_whether_its_length_is_declared_or_not() -> None:
    big = json.dumps({"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "x" * LIMIT})
    body = big.encode()
    declared = asyncio.run(_post_games([body], [(b"content-length", str(len(body)).encode())]))
    streamed = asyncio.run(_post_games(_halves(body), [(b"transfer-encoding", b"chunked")]))
    assert declared[0] == streamed[0] == 413
    assert json.loads(declared[1]) == json.loads(streamed[1])
    assert json.loads(streamed[1])["code"] == "body_too_large"


def test_a_client_gone_before_the_end_of_its_body_is_not_answered_as_if_it_had_sent_it() -> None:
    app = bootstrap(Settings(store=Store.MEMORY, create_rate=None)).app
    messages: list[ReceiveMessage] = [
        {"type": "http.request", "body": NEW_GAME[:10], "more_body": True},
        {"type": "http.disconnect"},
    ]
    statuses: list[int] = []

    async def receive() -> ReceiveMessage:
        return messages.pop(0)

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    async def call() -> None:
        async with app.lifespan():
            await app(_scope([(b"transfer-encoding", b"chunked")]), receive, send)

    asyncio.run(call())
    assert statuses == [500]  # litestar's own answer: "client disconnected prematurely"


# --- the deadline's own receive ------------------------------------------------------


async def _through_deadline(receive: Any, seconds: float) -> list[ReceiveMessage]:
    """What an app under `BodyDeadline(seconds)` receives from `receive` until the end
    of the body."""
    got: list[ReceiveMessage] = []

    async def app(scope: Scope, receive_in_time: Any, send: Any) -> None:
        while True:
            message = await receive_in_time()
            got.append(message)
            if not message.get("more_body", False):
                return

    async def send(message: Message) -> None:
        raise AssertionError("nothing is sent")

    await BodyDeadline(app, seconds)(_scope([(b"content-length", b"4")]), receive, send)
    return got


def test_a_receive_that_waits_hands_on_what_arrives_within_the_deadline() -> None:
    async def run() -> list[ReceiveMessage]:
        pieces: list[ReceiveMessage] = [
            {"type": "http.request", "body": b"ab", "more_body": True},
            {"type": "http.request", "body": b"cd", "more_body": False},
        ]

        async def receive() -> ReceiveMessage:
            await asyncio.sleep(0)  # waits, and is resumed: a value sent back in
            await asyncio.sleep(0.01)
            return pieces.pop(0)

        return await _through_deadline(receive, seconds=5)

    got = asyncio.run(run())
    assert [message.get("body") for message in got] == [b"ab", b"cd"]


def test_a_cancellation_that_is_not_the_deadline_goes_through_as_a_cancellation() -> None:
    async def run() -> None:
        waiting = asyncio.get_running_loop().create_future()

        async def receive() -> ReceiveMessage:
            await waiting
            raise AssertionError("never resumed")

        task = asyncio.ensure_future(_through_deadline(receive, seconds=5))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert waiting.cancelled()  # the cancellation reached the receive itself

    asyncio.run(run())
