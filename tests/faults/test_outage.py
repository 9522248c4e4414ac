"""With PostgreSQL down, requests fail fast with 503; after it is back, they succeed.

Issue 16 measured, with the database stopped, a view that took 51.8 s and
ended in a 500, `/ready` calls of 21.8 s and 101.8 s, and after a restart a
replica whose pool had grown answering its first request with a 500. The
proxy stands in for the database: `down` (nothing listens), `blackhole`
(connections are accepted and never answered), a cut of every connection
(a restart), or `pg_terminate_backend` of the service's own sessions.

The bounds asserted are generous multiples of the settings, not speeds: what
matters is that a wait is bounded by its setting, not ten times it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from service.config import Settings
from service.store.postgres import TransactionOrderRecorder
from tests.faults.service import Proxied, proxied_service
from tests.offered import offered_actions
from tests.postgres import connect, fresh_schema

pytestmark = pytest.mark.postgres

POOL_TIMEOUT = 1
READY_TIMEOUT = 1
BOUND = 3
"""A wait may take up to this many times its setting (a loaded machine)."""
TIMEOUTS: dict[str, Any] = {
    "postgres_pool_timeout": POOL_TIMEOUT,
    "postgres_connect_timeout": 2,  # libpq's least
    "ready_timeout": READY_TIMEOUT,
}


@contextmanager
def service_with_a_game(**changes: Any) -> Iterator[tuple[Proxied, Settings, str, str]]:
    """The proxied service with one game dealt: (service, direct settings, game, and
    the token of the seat to move)."""
    with fresh_schema("rummy_faults") as settings, proxied_service(settings, **changes) as service:
        # Seat 0 deals, so seat 1 moves first.
        two = {"players": [{"name": "a"}, {"name": "b"}], "dealer": 0}
        created = service.client.post("/games", json=two)
        assert created.status_code == 201, created.text
        game = created.json()
        yield service, settings, game["game_id"], game["players"][1]["token"]


def timed(call: Any) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def view_of(service: Proxied, game_id: str, token: str) -> httpx.Response:
    return service.client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {token}"})


def draw(service: Proxied, game_id: str, token: str) -> httpx.Response:
    return service.client.post(
        f"/games/{game_id}/actions",
        json={"type": "draw", "source": "stock"},
        headers={"Authorization": f"Bearer {token}"},
    )


def assert_store_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "store_unavailable"
    assert int(response.headers["retry-after"]) >= 1


@pytest.mark.parametrize("fault", ["down", "blackhole"])
def test_with_the_database_gone_requests_answer_503_within_their_bounds(fault: str) -> None:
    with service_with_a_game(**TIMEOUTS) as (service, _, game_id, token):
        assert view_of(service, game_id, token).status_code == 200
        getattr(service.proxy, fault)()

        viewed, view_took = timed(lambda: view_of(service, game_id, token))
        acted, act_took = timed(lambda: draw(service, game_id, token))
        ready, ready_took = timed(lambda: service.client.get("/ready"))
        health = service.client.get("/health")

    assert_store_unavailable(viewed)
    assert_store_unavailable(acted)
    assert view_took < BOUND * POOL_TIMEOUT
    assert act_took < BOUND * POOL_TIMEOUT
    assert ready.status_code == 503
    assert ready.json()["code"] == "not_ready"
    assert ready_took < BOUND * READY_TIMEOUT
    assert health.status_code == 200


def test_ready_answers_within_its_timeout_while_a_check_still_waits() -> None:
    # The pool waits 5 s; /ready gives up after 1 s, and a second probe does not
    # start a second check while the first still waits.
    with service_with_a_game(**{**TIMEOUTS, "postgres_pool_timeout": 5}) as (service, *_):
        service.proxy.blackhole()
        answers = [timed(lambda: service.client.get("/ready")) for _ in range(2)]

    for ready, took in answers:
        assert ready.status_code == 503
        assert "did not answer within" in ready.json()["detail"]
        assert took < BOUND * READY_TIMEOUT


def grow_the_pool(service: Proxied, connections: int) -> None:
    """Make the pool open `connections` connections at once (as a busy replica's does)."""
    held = threading.Barrier(connections + 1)
    release = threading.Event()

    recorder = service.games.recorder
    assert isinstance(recorder, TransactionOrderRecorder)

    def hold() -> None:
        with recorder.datastore.get_connection():
            held.wait(timeout=10)
            release.wait(timeout=10)

    threads = [threading.Thread(target=hold) for _ in range(connections)]
    for thread in threads:
        thread.start()
    held.wait(timeout=10)
    release.set()
    for thread in threads:
        thread.join(timeout=10)


def terminate_sessions(settings: Settings, service: Proxied) -> int:
    """`pg_terminate_backend` every session the service holds (found by the
    proxy's ports), as a database restart ends them; how many."""
    ports = service.proxy.upstream_ports()
    with connect(settings) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY(%s)",
            (ports,),
        ).fetchall()
    return len(rows)


@pytest.mark.parametrize("restart", ["cut", "terminate"])
def test_the_first_request_after_a_restart_succeeds_even_with_a_grown_pool(restart: str) -> None:
    # 12 connections open, more than the library's 10 retries: each retry met
    # another dead connection, and the request ended in a 500.
    with service_with_a_game(**TIMEOUTS, postgres_max_overflow=12) as (
        service,
        settings,
        game_id,
        token,
    ):
        grow_the_pool(service, 12)
        if restart == "cut":
            service.proxy.cut()
        else:
            assert terminate_sessions(settings, service) >= 12
        viewed = view_of(service, game_id, token)
        moves = offered_actions(viewed.json()) if viewed.status_code == 200 else []
        acted = draw(service, game_id, token)

    assert viewed.status_code == 200, viewed.text
    assert {"type": "draw", "source": "stock"} in moves
    assert acted.status_code == 200, acted.text


def test_after_an_outage_the_service_recovers_without_a_500() -> None:
    with service_with_a_game(**TIMEOUTS) as (service, _, game_id, token):
        service.proxy.down()
        during = [view_of(service, game_id, token).status_code for _ in range(3)]
        service.proxy.up()
        first = view_of(service, game_id, token)
        answers = [first.status_code]
        deadline = time.monotonic() + 10  # the pool's reconnect window, and more
        while answers[-1] != 200 and time.monotonic() < deadline:
            answers.append(view_of(service, game_id, token).status_code)
        ready = service.client.get("/ready")

    assert during == [503, 503, 503]
    assert set(answers) <= {200, 503}, answers
    assert answers[-1] == 200
    assert ready.status_code == 200


def test_a_read_only_database_answers_503_and_ready_says_it_cannot_write() -> None:
    # As after a failover to a standby: every new session of the service reads
    # but cannot write (then the primary is back).
    with service_with_a_game(**TIMEOUTS) as (service, _, game_id, token):
        session = service.games.recorder.datastore.pool.kwargs  # type: ignore[attr-defined]
        options = session.get("options", "")
        session["options"] = f"{options} -c default_transaction_read_only=on"
        service.proxy.cut()
        refused = draw(service, game_id, token)
        viewed = view_of(service, game_id, token)
        not_ready = service.client.get("/ready")
        session["options"] = options
        service.proxy.cut()
        ready = service.client.get("/ready")
        played = draw(service, game_id, token)

    assert_store_unavailable(refused)
    assert viewed.status_code == 200
    assert not_ready.status_code == 503
    assert "cannot write" in not_ready.json()["detail"]
    assert ready.status_code == 200, ready.text
    assert played.status_code == 200, played.text
