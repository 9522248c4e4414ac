"""The fence of `Disconnect` (service/api/live/disconnect.py): the client's disconnect
watched by stepping `receive` from its futures' callbacks behaves as the plain path it
replaces, a task awaiting `receive`, on asyncio's own loop and on uvloop (what the
server runs): the client going hangs the stream up, body pieces are read past, a
closed watch stops its `receive` and hangs nothing up, a failed `receive` hangs up,
and a stream cancelled or failing ends the same way. Behind a real uvicorn, a client
that drops its connection ends the stream. Should an asyncio (or uvloop) upgrade
change how a task steps the futures it awaits, this fails.
"""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvloop

from service.api.live.disconnect import Disconnect
from service.api.live.listener import Listener
from tests.servers import serve

REQUEST = {"type": "http.request", "body": b"", "more_body": False}
PIECE = {"type": "http.request", "body": b"x", "more_body": True}
GONE = {"type": "http.disconnect"}


class WatchedByATask:
    """The plain path: a task awaiting `receive` until the client goes, cancelled when
    the stream closes it. Like `Disconnect`, a `receive` that fails hangs up."""

    def __init__(self, receive: Callable[[], Any], listener: Listener) -> None:
        self._closed = False
        self._task = asyncio.ensure_future(self._watch(receive, listener))

    async def _watch(self, receive: Callable[[], Any], listener: Listener) -> None:
        try:
            while (await receive())["type"] != "http.disconnect":
                pass
        except (Exception, asyncio.CancelledError):
            if self._closed:
                raise
        listener.hang_up()

    def close(self) -> None:
        self._closed = True
        self._task.cancel()


WATCHES = [
    pytest.param(Disconnect, id="without-a-task"),
    pytest.param(WatchedByATask, id="task"),
]
LOOPS = [
    pytest.param(asyncio.new_event_loop, id="asyncio"),
    pytest.param(uvloop.new_event_loop, id="uvloop"),
]


@dataclass
class Client:
    """A server's `receive` as far as a stream sees it: `answers` in turn, each after
    waiting for `go` when it is the event (`"wait"`) or raising it when an exception."""

    answers: list[Any]
    go: asyncio.Event = field(default_factory=asyncio.Event)
    calls: int = 0
    ended: list[str] = field(default_factory=list)
    """How each call of `receive` ended: returned, raised, closed (stopped waiting)."""

    async def receive(self) -> dict[str, Any]:
        self.calls += 1
        try:
            answer = self.answers.pop(0)
            if answer == "wait":
                await self.go.wait()
                answer = self.answers.pop(0)
            elif answer == "yield":
                await asyncio.sleep(0)  # a bare yield to the loop
                answer = self.answers.pop(0)
            if isinstance(answer, BaseException):
                raise answer
        except (GeneratorExit, asyncio.CancelledError):
            self.ended.append("closed")
            raise
        except BaseException:
            self.ended.append("raised")
            raise
        self.ended.append("returned")
        return dict(answer)

    def seen(self, listener: Listener) -> tuple[Any, ...]:
        return (listener.hung_up, self.calls, tuple(self.ended), len(self.go._waiters))


def _run(
    loop_factory: Callable[[], asyncio.AbstractEventLoop], test: Coroutine[Any, Any, Any]
) -> Any:
    loop = loop_factory()
    try:
        return loop.run_until_complete(test)
    finally:
        loop.close()


async def _turns() -> None:
    """Let the loop run what is due (a cancelled task needs a turn to end)."""
    for _ in range(5):
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)


async def _scenario(watch_kind: Any, answers: list[Any], then: str) -> list[tuple[Any, ...]]:
    """What a client with `answers` sees of a watch: before and after `then` (`go`: the
    waiting receive answers; `close`: the stream closes the watch first; `go, close`:
    the receive's answer is due when the watch closes, before the loop runs on)."""
    client, listener = Client(list(answers)), Listener(uuid.uuid4())
    watch = watch_kind(client.receive, listener)
    await _turns()
    seen = [client.seen(listener)]
    if then == "close":
        watch.close()
        await _turns()
        seen.append(client.seen(listener))
    client.go.set()
    if then == "go, close":
        watch.close()
    await _turns()
    seen.append(client.seen(listener))
    watch.close()
    await _turns()
    seen.append(client.seen(listener))
    return seen


SCENARIOS: dict[str, tuple[list[Any], str]] = {
    "the client goes": ([REQUEST, "wait", GONE], "go"),
    "body pieces are read past": ([PIECE, "yield", PIECE, REQUEST, "wait", GONE], "go"),
    "closed while waiting": ([REQUEST, "wait", GONE], "close"),
    "closed as the client goes": ([REQUEST, "wait", GONE, REQUEST, "wait", GONE], "go, close"),
    "receive fails at once": ([ConnectionError("reset")], "go"),
    "receive fails while waiting": ([REQUEST, "wait", ConnectionError("reset")], "go"),
    "receive's wait is cancelled": ([REQUEST, "wait", asyncio.CancelledError()], "go"),
}


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_watch_without_a_task_behaves_as_a_task(loop: Any, scenario: str) -> None:
    answers, then = SCENARIOS[scenario]
    ours = _run(loop, _scenario(Disconnect, answers, then))
    tasks = _run(loop, _scenario(WatchedByATask, answers, then))
    assert ours == tasks
    hung_up_at_last = ours[-1][0]
    assert hung_up_at_last is (then == "go"), "the client going (or failing) hangs up"
    assert ours[-1][3] == 0, "no receive is left waiting"


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("watch_kind", WATCHES)
def test_the_watch_takes_no_task(loop: Any, watch_kind: Any) -> None:
    async def tasks_taken() -> int:
        before = len(asyncio.all_tasks())
        watch = watch_kind(Client([REQUEST, "wait", GONE]).receive, Listener(uuid.uuid4()))
        await _turns()
        taken = len(asyncio.all_tasks()) - before
        watch.close()
        return taken

    assert _run(loop, tasks_taken()) == (0 if watch_kind is Disconnect else 1)


async def _stream(watch_kind: Any, ending: str) -> tuple[str, tuple[Any, ...]]:
    """A stream as `_Stream.run` holds its watch (closed in `finally`), ended by
    `ending`: cancelled (the server stops it), or failing (a send that fails)."""
    client, listener = Client([REQUEST, "wait", GONE]), Listener(uuid.uuid4())

    async def stream() -> None:
        gone = watch_kind(client.receive, listener)
        try:
            if ending == "fails":
                await _turns()
                raise OSError("send failed")
            await listener.park(30)
        finally:
            gone.close()

    task = asyncio.ensure_future(stream())
    await _turns()
    if ending == "cancelled":
        task.cancel()
    try:
        await task
    except BaseException as error:  # what ends the stream is the result
        outcome = type(error).__name__
    else:
        outcome = "returned"
    await _turns()
    return outcome, client.seen(listener)


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("ending", ["cancelled", "fails"])
def test_a_stream_ends_alike_with_either_watch(loop: Any, ending: str) -> None:
    ours = _run(loop, _stream(Disconnect, ending))
    tasks = _run(loop, _stream(WatchedByATask, ending))
    assert ours == tasks
    assert ours[0] == ("CancelledError" if ending == "cancelled" else "OSError")
    assert ours[1] == (False, 2, ("returned", "closed"), 0), "the watch stopped, nobody hung up"


def _streaming_app(watch_kind: Any, ended: list[str]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        listener = Listener(uuid.uuid4())
        watch = watch_kind(receive, listener)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"open\n", "more_body": True})
        try:
            await asyncio.wait_for(listener.park(10), 5)
            ended.append("hung up" if listener.hung_up else "woken")
        except TimeoutError:
            ended.append("still open after 5 s")
        finally:
            watch.close()

    return app


@pytest.mark.parametrize("watch_kind", WATCHES)
def test_behind_uvicorn_a_client_that_goes_ends_the_stream(watch_kind: Any) -> None:
    ended: list[str] = []
    with serve(_streaming_app(watch_kind, ended), lifespan="off") as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as client:
            client.sendall(b"GET /stream HTTP/1.1\r\nHost: test\r\n\r\n")
            # The headers and the first chunk may come in separate segments.
            received = b""
            while b"open" not in received:
                chunk = client.recv(4096)
                assert chunk, f"closed before the stream opened: {received!r}"
                received += chunk
        deadline = time.monotonic() + 5
        while not ended and time.monotonic() < deadline:
            time.sleep(0.01)
    assert ended == ["hung up"]
