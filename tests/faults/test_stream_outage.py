"""A live stream lives through a database outage and goes on after it.

A stream whose read fails says so in a comment and reads again a heartbeat
later; once the store is back, the events committed meanwhile arrive on the
same connection. Before, the failed read ended the response with an error
mid-stream.
"""

from __future__ import annotations

import queue
import threading
import time

import httpx
import pytest

from tests.audit_stream.clients import Message, bearer, sse
from tests.faults.service import proxied_server
from tests.postgres import fresh_schema

pytestmark = pytest.mark.postgres

DRAW = {"type": "draw", "source": "stock"}


def read_into(messages: queue.Queue[Message | None], response: httpx.Response) -> None:
    try:
        for message in sse(response):
            messages.put(message)
    except httpx.HTTPError:
        pass
    messages.put(None)  # the stream ended


def next_message(messages: queue.Queue[Message | None], wanted: str, seconds: float) -> Message:
    """The first message that is the event `wanted` (a type) or a comment saying it."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = messages.get(timeout=left)
        except queue.Empty:
            break
        assert message is not None, f"the stream ended before {wanted!r}"
        if wanted in (message.comment or "") or (message.data or {}).get("type") == wanted:
            return message
    raise AssertionError(f"no {wanted!r} in {seconds} s")


def test_a_stream_stays_open_through_an_outage_and_delivers_what_follows() -> None:
    changes = {
        "postgres_pool_timeout": 1,
        "postgres_connect_timeout": 2,
        "stream_heartbeat_ms": 300,
    }
    with (
        fresh_schema("rummy_faults") as settings,
        proxied_server(settings, **changes) as service,
        httpx.Client(base_url=service.url, timeout=10) as client,
    ):
        # Seat 0 deals, so seat 1 moves first.
        two = {"players": [{"name": "a"}, {"name": "b"}], "dealer": 0}
        game = client.post("/games", json=two).json()
        path = f"/games/{game['game_id']}"
        seat_1 = bearer(game["players"][1]["token"])
        messages: queue.Queue[Message | None] = queue.Queue()
        with client.stream("GET", f"{path}/stream", headers=seat_1) as response:
            assert response.status_code == 200
            reader = threading.Thread(target=read_into, args=(messages, response), daemon=True)
            reader.start()
            next_message(messages, "hand_dealt", 10)

            service.proxy.down()
            next_message(messages, "store unavailable", 10)
            service.proxy.up()
            deadline = time.monotonic() + 10
            while client.post(f"{path}/actions", json=DRAW, headers=seat_1).status_code != 200:
                assert time.monotonic() < deadline, "the service did not recover"
                time.sleep(0.1)
            drawn = next_message(messages, "card_drawn", 10)
            response.close()
        reader.join(timeout=5)

    assert drawn.data is not None
    assert drawn.data["seat"] == 1
