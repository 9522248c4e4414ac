"""What the tests of a served app read it with: `sse(response)` reads
Server-Sent Events as they arrive; the bearer header, a value on /metrics,
waiting for a condition; and the admin token those apps are given.

The server itself, for the tests that need a real one (streams), is
tests/servers.py's `serve(app)`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, get_args

import httpx

from service.projections.event_views import EventView

ADMIN_TOKEN = "admin-token-for-the-tests-0123456789"
EVENT_TYPES = sorted(kind.__struct_config__.tag for kind in get_args(EventView))
"""Every event type a client may receive: the SSE event names of the stream's events."""


@dataclass(frozen=True, slots=True)
class Message:
    """One SSE message: an event (`id`, `event` its name, `data`) or a comment."""

    id: int | None = None
    data: dict[str, Any] | None = None
    comment: str | None = None
    retry: int | None = None
    event: str | None = None


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
                    event=fields.get("event"),
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
