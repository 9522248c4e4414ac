"""The time bank over HTTP (docs/api.md "Leaving and turn clocks"), on a service whose
time the test sets (the clocks' keeper off: the test fires the deadline itself, as
the keeper would): the rule at creation, `players[].time_bank_left` in every view,
`turn_deadline` with the bank, `time_bank_used` in the events, each as the OpenAPI
document describes it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import jsonschema_rs
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring, bootstrap
from service.config import Settings, Store
from tests.api.client import ADMIN, ADMIN_TOKEN, PUBLIC, Api
from tests.api.test_indian import problem
from tests.rates import NO_RATE_LIMITS
from tests.set_time import SetTime

TWO = [{"name": "Ann"}, {"name": "Bob"}]
BANKED = {"turn_seconds": 30, "time_bank_seconds": 60}


@pytest.fixture(scope="module")
def time() -> SetTime:
    return SetTime()


@pytest.fixture(scope="module")
def wiring(time: SetTime) -> Wiring:
    settings = Settings(
        store=Store.MEMORY,
        admin_token=ADMIN_TOKEN,
        clocks=False,
        **{**NO_RATE_LIMITS, "webhook_senders": 0, "bot_pace_ms": 0},
    )
    return bootstrap(settings, now=time)


@pytest.fixture(scope="module")
def client(wiring: Wiring) -> Iterator[TestClient[Litestar]]:
    with TestClient(wiring.app) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient[Litestar]) -> Api:
    return Api(client)


@pytest.fixture(scope="module")
def document(client: TestClient[Litestar]) -> dict[str, Any]:
    served: dict[str, Any] = client.get("/schema/openapi.json").json()
    return served


def conforms(document: dict[str, Any], schema: str, value: Any) -> None:
    """`value` is valid by the document's component `schema`."""
    wrapped = {"$ref": f"#/components/schemas/{schema}", "components": document["components"]}
    jsonschema_rs.validator_for(wrapped).validate(value)


def test_the_rule_is_in_every_variant_s_rules_and_a_bank_needs_a_clock(
    api: Api, document: dict[str, Any]
) -> None:
    schemas = document["components"]["schemas"]
    for variant in ("Classic", "Wild", "Boathouse", "Knock", "Wrotham", "Indian"):
        bounds = schemas[f"{variant}Rules"]["properties"]["time_bank_seconds"]["anyOf"][0]
        assert (bounds["minimum"], bounds["maximum"]) == (0, 600), variant
    for rules in ({"time_bank_seconds": 30}, {"turn_seconds": 30, "time_bank_seconds": 601}):
        response = api.client.post("/games", json={"players": TWO, "rules": rules})
        assert problem(response) == (422, "invalid_rules"), rules
        assert "time_bank_seconds" in response.json()["detail"]
    plain = api.create(players=TWO, rules={"turn_seconds": 30}).view(PUBLIC)
    assert plain["rules"]["time_bank_seconds"] == 0
    assert all("time_bank_left" not in player for player in plain["players"])


def test_views_show_every_seat_s_bank_and_the_deadline_with_it(
    api: Api, wiring: Wiring, time: SetTime, document: dict[str, Any]
) -> None:
    game = api.create(players=TWO, rules=BANKED)
    view = game.view(PUBLIC)
    conforms(document, "GameView", view)
    assert view["rules"]["time_bank_seconds"] == 60
    assert [player["time_bank_left"] for player in view["players"]] == [60, 60]
    started = wiring.games.events_after(UUID(game.id))[-1].timestamp
    deadline = datetime.fromisoformat(view["turn_deadline"])
    assert deadline == started + timedelta(seconds=90), "the turn's clock, then the bank"

    seat = view["turn"]
    time.now = started + timedelta(seconds=30 + 6.2)
    answer = game.act(seat, {"type": "draw", "source": "stock"})
    assert answer.status_code == 200, answer.text
    mine = answer.json()
    conforms(document, "GameView", mine)
    assert mine["players"][seat]["time_bank_left"] == 53
    for who in (0, 1, PUBLIC, ADMIN):
        assert game.view(who)["players"][seat]["time_bank_left"] == 53, who
        assert game.view(who)["turn_deadline"] == view["turn_deadline"], "one deadline a turn"
    spent = [event for event in game.events(PUBLIC) if event["type"] == "time_bank_used"]
    assert [(event["seat"], event["seconds"]) for event in spent] == [(seat, 7)]
    conforms(document, "TimeBankUsedView", spent[0])


def test_the_deadline_fired_spends_what_is_left_then_times_out(
    api: Api, wiring: Wiring, time: SetTime
) -> None:
    game = api.create(players=TWO, rules=BANKED)
    view = game.view(PUBLIC)
    seat = view["turn"]
    deadline = datetime.fromisoformat(view["turn_deadline"])
    time.now = deadline - timedelta(seconds=1)
    assert not wiring.games.time_out(UUID(game.id), view["version"])
    time.now = deadline
    assert wiring.games.time_out(UUID(game.id), view["version"])
    kinds = [(event["type"], event["seat"]) for event in game.events(PUBLIC, view["version"])]
    assert kinds[:2] == [("time_bank_used", seat), ("turn_timed_out", seat)]
    after = game.view(PUBLIC)
    assert after["players"][seat]["time_bank_left"] == 0
    assert after["players"][seat]["timeouts"] == 1
