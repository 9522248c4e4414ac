"""A person plays a whole game against a `basic` bot over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.apps import bootstrap_test_app
from tests.offered import offered_actions

HUMAN, BOT = 0, 1


@pytest.fixture
def client() -> Iterator[TestClient[Any]]:
    with TestClient(bootstrap_test_app().app) as test_client:
        yield test_client


def random_offered_action(view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """One of the actions the view's `legal` offers, chosen at random."""
    choices = offered_actions(view)
    assert choices, "it is the person's turn, so there is something to do"
    return rng.choice(choices)


def test_a_person_plays_a_whole_game_against_a_basic_bot(client: TestClient[Any]):
    created = client.post(
        "/games",
        json={
            "players": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
            "seed": "http-bot",
        },
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert [player["seat"] for player in body["players"]] == [HUMAN], "no token for the bot"
    game = f"/games/{body['game_id']}"
    auth = {"Authorization": f"Bearer {body['players'][0]['token']}"}

    rng = Random(7)
    view = client.get(game, headers=auth).json()
    assert view["players"][BOT]["bot"] == "basic"
    commands = 0
    while view["status"] == "playing":
        assert view["turn"] == HUMAN, "the bot has always replied by the time a command ends"
        answer = client.post(f"{game}/actions", json=random_offered_action(view, rng), headers=auth)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert answer.headers["ETag"] == f'"{view["version"]}.seat{HUMAN}"'
        commands += 1
        assert commands < 5000, "the game ends"

    assert view["status"] == "finished"
    assert view["winner"] in (HUMAN, BOT)
    assert view["last_hand"] is not None

    events = client.get(f"{game}/events", headers=auth).json()["events"]
    by_bot = [event for event in events if event.get("seat") == BOT]
    assert {event["type"] for event in by_bot} >= {"card_drawn", "card_discarded"}
    for event in by_bot:
        if event["type"] == "card_drawn" and event["source"] == "stock":
            assert "card" not in event, "the person never learns the bot's stock draws"


def test_a_bot_that_deals_second_moves_before_the_person_sees_the_table(
    client: TestClient[Any],
):
    created = client.post(
        "/games",
        json={
            "players": [{"name": "Ann"}, {"name": "Robo", "bot": "random"}],
            "seed": "http-first",
            "dealer": HUMAN,
        },
    ).json()
    auth = {"Authorization": f"Bearer {created['players'][0]['token']}"}
    view = client.get(f"/games/{created['game_id']}", headers=auth).json()
    assert view["turn"] == HUMAN
    assert view["version"] == created["version"]
    events = client.get(f"/games/{created['game_id']}/events", headers=auth).json()["events"]
    assert events[-1]["type"] == "card_discarded"
    assert events[-1]["seat"] == BOT


def test_a_table_of_bots_only_is_refused_with_422(client: TestClient[Any]):
    answer = client.post(
        "/games",
        json={"players": [{"name": "A", "bot": "basic"}, {"name": "B", "bot": "random"}]},
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == "invalid_seating"


def test_an_unknown_bot_is_refused_with_422(client: TestClient[Any]):
    answer = client.post(
        "/games", json={"players": [{"name": "A"}, {"name": "B", "bot": "clever"}]}
    )
    assert answer.status_code == 422
