"""A real HTTP server for the tests that need one (streams), and an SSE reader.

`serve(app)` runs uvicorn on 127.0.0.1 in a thread of this process, on a
port the system picks; `sse(response)` reads Server-Sent Events as they
arrive.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn
from litestar import Litestar

ADMIN_TOKEN = "admin-token-for-the-tests-0123456789"


@contextlib.contextmanager
def serve(app: Litestar, **options: Any) -> Iterator[str]:
    """The base URL of `app` served by uvicorn in a thread, until the block ends;
    `options` are uvicorn's (`service.api.timeouts.server_options`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        **{
            "log_config": None,
            "lifespan": "on",
            "timeout_graceful_shutdown": 3,
            "loop": "uvloop",
            "http": "httptools",
            "ws": "none",
            **options,
        },
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@dataclass(frozen=True, slots=True)
class Message:
    """One SSE message: an event (`id`, `data`) or a comment."""

    id: int | None = None
    data: dict[str, Any] | None = None
    comment: str | None = None
    retry: int | None = None


def sse(response: httpx.Response) -> Iterator[Message]:
    """The messages of a Server-Sent Events response, as they arrive."""
    fields: dict[str, str] = {}
    comments: list[str] = []
    for line in response.iter_lines():
        if line == "":
            if fields or comments:
                yield Message(
                    id=int(fields["id"]) if "id" in fields else None,
                    data=json.loads(fields["data"]) if "data" in fields else None,
                    comment="\n".join(comments) or None,
                    retry=int(fields["retry"]) if "retry" in fields else None,
                )
            fields, comments = {}, []
        elif line.startswith(":"):
            comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def metric(client: httpx.Client, name: str) -> float:
    """The value of an unlabelled sample on /metrics (0 if absent)."""
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[1])
    return 0.0


def wait_for(check: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
