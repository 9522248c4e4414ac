"""A frozen PostgreSQL (stopped by SIGSTOP: connections open, nothing answered)
answers 503 within the reply timeout, and the service comes back after it.

Issue 26 measured reads and creates waiting 120 s and more with the database
frozen, where a stopped one answered 503 in 3 s: the server enforces the
statement timeout, and a frozen server enforces nothing, while the client's
TCP sees a healthy connection (the kernel still acknowledges). The proxy's
`freeze` stands in for the frozen server: its open connections stay open and
carry nothing, new ones are accepted and never answered; `up` carries what
was held back, as the thawed server reads what its kernel buffered.

The bound asserted is a generous multiple of the reply timeout, not a speed:
what matters is that the request ends with a 503 instead of hanging.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any
from uuid import UUID

import httpx
import psycopg
import pytest

from service.store import schema_lock
from tests.faults.proxy import FaultProxy
from tests.faults.service import Proxied, direct
from tests.faults.test_outage import (
    TIMEOUTS,
    assert_store_unavailable,
    service_with_a_game,
    timed,
)
from tests.postgres import fresh_schema
from tests.webhooks.receiver import Receiver, receiving

pytestmark = pytest.mark.postgres

REPLY_TIMEOUT = 2
FROZEN: dict[str, Any] = {
    **TIMEOUTS,
    "postgres_statement_timeout": 1,
    "postgres_reply_timeout": REPLY_TIMEOUT,
    "admin_token": "frozen-admin-token-0123456789",
    "webhook_poll_ms": 100,
    "webhook_retry_ms": 100,
    "webhook_retry_max": 1,
}
ADMIN = {"Authorization": f"Bearer {FROZEN['admin_token']}"}
BOUND = 10 * REPLY_TIMEOUT
"""Generous: a request that hung before this change waited 120 s and more."""
TWO = {"players": [{"name": "a"}, {"name": "b"}], "dealer": 0}
DISCARD_KEY = "frozen-discard-1"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def answered_200_again(call: Any, seconds: float = 30) -> httpx.Response:
    """`call()` until it answers 2xx (the pool reopens what the freeze left)."""
    deadline = time.monotonic() + seconds
    while True:
        response: httpx.Response = call()
        if response.is_success or time.monotonic() > deadline:
            return response
        assert response.status_code == 503, response.text
        time.sleep(0.2)


def event_types(service: Proxied, game_id: str) -> list[str]:
    return [event.event_type for event in service.games.events_after(UUID(game_id))]


def discard(service: Proxied, game_id: str, token: str, card: str) -> httpx.Response:
    return service.client.post(
        f"/games/{game_id}/actions",
        json={"type": "discard", "card": card},
        headers={**bearer(token), "Idempotency-Key": DISCARD_KEY},
    )


def test_with_the_database_frozen_requests_answer_503_and_recover_after() -> None:
    receiver = Receiver(secrets={})
    with (
        receiving(receiver),
        service_with_a_game(**FROZEN) as (service, settings, game_id, token),
    ):
        client = service.client
        registered = client.post(
            "/webhooks", json={"url": f"{receiver.url}/hook"}, headers=ADMIN
        ).json()
        receiver.secrets["/hook"] = registered["secret"]
        drawn = client.post(
            f"/games/{game_id}/actions",
            json={"type": "draw", "source": "stock"},
            headers=bearer(token),
        )
        assert drawn.status_code == 200, drawn.text
        card = drawn.json()["legal"]["discard"][0]

        service.proxy.freeze()
        # Without a bound of the service's own, the first request would wait for
        # ever: the thaw comes at the latest after BOUND, and the request fails.
        thaw = threading.Timer(BOUND, service.proxy.up)
        thaw.start()
        viewed, view_took = timed(lambda: client.get(f"/games/{game_id}", headers=bearer(token)))
        created, create_took = timed(lambda: client.post("/games", json=TWO))
        acted, act_took = timed(lambda: discard(service, game_id, token, card))
        thaw.cancel()
        service.proxy.up()

        after = answered_200_again(lambda: client.get(f"/games/{game_id}", headers=bearer(token)))
        again = answered_200_again(lambda: discard(service, game_id, token, card))
        created_after = answered_200_again(lambda: client.post("/games", json={**TWO, "seats": 3}))
        new_game = created_after.json()["game_id"]
        clocked = client.post("/games", json={**TWO, "rules": {"turn_seconds": 5}}).json()[
            "game_id"
        ]
        # The threads that follow the feed came back too: the lobby lists the game
        # created after the freeze, the webhook sender delivers its creation, and
        # the clocks' keeper times out the first turn of the clocked game.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
            new_game in [g["game_id"] for g in client.get("/lobby").json()["games"]]
            and any(r.payload["game_id"] == new_game for r in receiver.of("/hook"))
            and "turn_timed_out" in event_types(service, clocked)
        ):
            time.sleep(0.2)
        timed_out = "turn_timed_out" in event_types(service, clocked)
        lobby = [g["game_id"] for g in client.get("/lobby").json()["games"]]
        delivered = {r.payload["game_id"] for r in receiver.of("/hook") if r.payload}
        ready = client.get("/ready")
        with direct(settings) as games:
            stored = [event.event_type for event in games.events_after(UUID(game_id))]

    for answer, took in ((viewed, view_took), (created, create_took), (acted, act_took)):
        assert_store_unavailable(answer)
        assert took < BOUND, took
    assert after.status_code == 200, after.text
    assert again.status_code == 200, again.text
    assert created_after.status_code == 201, created_after.text
    assert ready.status_code == 200, ready.text
    assert new_game in lobby
    assert {game_id, new_game} <= delivered
    assert timed_out
    # Nothing acknowledged was lost, and the discard sent twice with one key
    # (503 during the freeze, 200 after) was applied once.
    assert stored.count("card_drawn") == 1
    assert stored.count("card_discarded") == 1


def test_the_startup_lock_gives_up_on_a_frozen_database(monkeypatch: pytest.MonkeyPatch) -> None:
    # The lock taken while a process opens the store is held on a connection of its
    # own; its statements wait up to the lock's wait and the reply timeout, then raise.
    monkeypatch.setattr(schema_lock, "LOCK_WAIT_SECONDS", 1)
    with (
        fresh_schema("rummy_faults") as settings,
        FaultProxy((settings.postgres_host, settings.postgres_port)) as proxy,
    ):
        proxied = replace(settings, postgres_port=proxy.port, postgres_reply_timeout=1)
        thaw = threading.Timer(BOUND, proxy.up)
        thaw.start()
        try:
            with pytest.raises(psycopg.OperationalError), schema_lock.schema_lock(proxied):
                proxy.freeze()  # the unlock on leaving meets a frozen server
        finally:
            thaw.cancel()
            proxy.up()
