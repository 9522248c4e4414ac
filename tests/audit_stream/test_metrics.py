"""`GET /metrics` in the Prometheus format, and the request ids and masking of the logs."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

import service.api.transport.access_log
from service.api.transport.access_log import (
    JsonFormatter,
    RequestIdFilter,
    mask_secrets,
    request_id,
)
from service.bootstrap import Wiring, bootstrap
from service.config import Settings, Store
from service.domain.cards import Card
from service.domain.errors import WrongPhase
from service.game.application import RummyApplication
from tests.apps import bootstrap_test_app
from tests.audit_stream.clients import ADMIN_TOKEN, bearer
from tests.audit_stream.games import new_game, next_move, play
from tests.audit_stream.test_stream import _action_body


@pytest.fixture
def served() -> Wiring:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN)


@pytest.fixture
def games(served: Wiring) -> RummyApplication:
    return served.games


@pytest.fixture
def client(served: Wiring) -> Iterator[TestClient[Litestar]]:
    with TestClient(served.app) as test_client:
        yield test_client


def samples(client: TestClient[Litestar]) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_counted_by_route_and_status(client: TestClient[Litestar]) -> None:
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    game_id = created["game_id"]
    for _ in range(3):
        client.get(f"/games/{game_id}")
    client.get("/games/00000000-0000-4000-8000-000000000000")
    client.get("/nowhere")
    found = samples(client)
    route = "/games/{game_id}"
    assert value(found, "rummy_http_requests_total", method="GET", route=route, status="200") == 3
    assert value(found, "rummy_http_requests_total", method="GET", route=route, status="404") == 1
    assert (
        value(found, "rummy_http_requests_total", method="POST", route="/games", status="201") == 1
    )
    assert (
        value(found, "rummy_http_requests_total", method="GET", route="unmatched", status="404")
        == 1
    )
    assert value(found, "rummy_http_request_duration_seconds_count", method="GET", route=route) == 4


def test_actions_are_timed_and_games_counted_as_they_start_and_finish(
    games: RummyApplication, client: TestClient[Litestar]
) -> None:
    created = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": {"deals": 1}}
    ).json()
    game_id, tokens = UUID(created["game_id"]), [p["token"] for p in created["players"]]
    open_seats = client.post("/games", json={"seats": 2}).json()
    moves = 0
    while games.state(game_id).table.winner is None:
        seat, action = next_move(games.state(game_id).table)
        response = client.post(
            f"/games/{game_id}/actions", json=_action_body(action), headers=bearer(tokens[seat])
        )
        assert response.status_code == 200
        moves += 1
    client.post(
        f"/games/{game_id}/actions",
        json={"type": "draw", "source": "stock"},
        headers=bearer(tokens[0]),
    )
    found = samples(client)
    assert value(found, "rummy_action_duration_seconds_count", status="200") == moves
    assert value(found, "rummy_action_duration_seconds_count", status="409") == 1
    assert value(found, "rummy_action_duration_seconds_bucket", status="200", le="+Inf") == moves
    assert value(found, "rummy_games_created_total") == 2
    assert value(found, "rummy_games_started_total") == 1, "the open game has not started"
    assert value(found, "rummy_games_finished_total") == 1
    client.post(f"/games/{open_seats['game_id']}/players", json={"name": "Cy"})
    client.post(f"/games/{open_seats['game_id']}/players", json={"name": "Di"})
    assert value(samples(client), "rummy_games_started_total") == 2


def test_a_write_that_lost_the_race_is_counted(
    games: RummyApplication, client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = new_game(games)
    seat, action = next_move(games.state(game_id).table)  # reading it caches this version
    stale: Any = games._cached(game_id)
    play(games, game_id, moves=1)  # another writer got there first
    cached = games._cached
    served_stale: list[bool] = []

    def cached_stale_once(wanted: UUID) -> Any:
        # As a replica's cache that missed the move holds the game.
        if not served_stale:
            served_stale.append(True)
            return stale
        return cached(wanted)

    monkeypatch.setattr(games, "_cached", cached_stale_once)
    with pytest.raises(WrongPhase):  # reloaded after the lost race, the draw is no longer legal
        games.play(game_id, seat, [action])
    assert served_stale
    assert value(samples(client), "rummy_write_conflicts_total") == 1


def test_the_json_formatter_stamps_the_request_id_and_masks_secrets() -> None:
    record = logging.LogRecord("service.test", logging.INFO, __file__, 1, "%s", None, None)
    token = "0123456789abcdef0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd"
    record.msg = f"got Authorization: Bearer s3cret-admin and {token}"
    record.args = ()
    with request_id("req-7"):
        RequestIdFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-7"
    assert "s3cret-admin" not in line["message"]
    assert "AbCdEfGh" not in line["message"]
    assert line["message"] == "got Authorization: Bearer *** and ***"
    assert mask_secrets("bearer abc") == "bearer ***"
    assert mask_secrets("seat 1 chose Discard(card=Card(10H)) over KD") == (
        "seat 1 chose Discard(card=Card([card])) over [card]"
    )


def test_the_admin_token_is_masked_wherever_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    # What building the app registers lasts for the process: undone after this test.
    monkeypatch.setattr(service.api.transport.access_log, "_secrets", ())
    admin_token = "pasted-into-a-path-0123456789"
    line = f"GET /games/{admin_token}/events 404"
    assert mask_secrets(line) == line, "no pattern finds it"

    settings = Settings(store=Store.MEMORY, admin_token=admin_token)
    bootstrap(settings)

    assert mask_secrets(line) == "GET /games/***/events 404"


def test_every_string_of_a_line_is_masked_wherever_it_sits() -> None:
    record = logging.LogRecord("service.test", logging.INFO, __file__, 1, "%s", None, None)
    record.msg = "Authorization: Bearer s3cret-admin"
    record.args = ()
    record.hands = [["10H", "KD"], ("AS",)]
    record.by_card = {"QC": {"note": "Bearer abc"}}
    record.card = Card.parse("7S")
    record.count = 3
    with request_id("2C"):
        RequestIdFilter().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "Authorization: Bearer ***"
    assert line["request_id"] == "[card]"
    assert line["hands"] == [["[card]", "[card]"], ["[card]"]]
    assert line["by_card"] == {"[card]": {"note": "Bearer ***"}}
    assert line["card"] == "[card]"
    assert line["count"] == 3


def test_a_request_id_comes_back_and_a_bad_one_is_replaced(client: TestClient[Litestar]) -> None:
    assert (
        client.get("/health", headers={"X-Request-ID": "abc-123"}).headers["x-request-id"]
        == "abc-123"
    )
    replaced = client.get("/health", headers={"X-Request-ID": "no spaces, please"})
    assert replaced.headers["x-request-id"] != "no spaces, please"
    assert len(replaced.headers["x-request-id"]) == 32


METRICS_TOKEN = "metrics-token-for-the-tests-0123"


def test_with_a_metrics_token_only_it_or_the_admin_token_reads_the_metrics() -> None:
    settings = Settings(store=Store.MEMORY, admin_token=ADMIN_TOKEN, metrics_token=METRICS_TOKEN)
    with TestClient(bootstrap(settings).app) as client:
        created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        player = created.json()["players"][0]["token"]
        for headers in ({}, bearer("not-the-metrics-token-0123456789"), bearer(player)):
            refused = client.get("/metrics", headers=headers)
            assert refused.status_code == 401, headers
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["code"] == "unauthorized"
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert "rummy_" not in refused.text
        for token in (METRICS_TOKEN, ADMIN_TOKEN):
            response = client.get("/metrics", headers=bearer(token))
            assert response.status_code == 200
            assert "rummy_games_created_total 1.0" in response.text


def test_the_metrics_token_is_masked_in_the_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service.api.transport.access_log, "_secrets", ())
    line = f"GET /metrics/{METRICS_TOKEN} 404"
    settings = Settings(store=Store.MEMORY, metrics_token=METRICS_TOKEN)
    bootstrap(settings)
    assert mask_secrets(line) == "GET /metrics/*** 404"
