"""Bot levels over HTTP (docs/api.md, docs/bots.md "Levels"): a bot seat of each
level is created and shown in views and the lobby; the rule `takeover_bot` is shown
in every game's rules and names the bot that takes a seat over; a name that is no
level is a 422 naming the levels; and a leave the server's bot takes over is decided
off the event loop, whatever the level (a search may take a while)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from litestar.testing import TestClient

from service.bootstrap import bootstrap
from service.bots.seats import BotSeats
from service.config import Settings, Store
from service.domain.actions import Action
from service.domain.rule_values import BotLevel
from service.projections.views import GameSnapshot
from tests.api.client import PUBLIC, Api
from tests.rates import NO_RATE_LIMITS

LEVELS = [level.value for level in BotLevel]
THREE = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_seat_of_each_level_is_created_and_shown(api: Api, level: str) -> None:
    game = api.create(players=[{"name": "Ann"}, {"name": "Robo", "bot": level}], seats=3)
    view = game.view(0)
    assert [player["bot"] if player else None for player in view["players"]][:2] == [None, level]
    lobby = api.client.get("/lobby").json()
    (listed,) = [entry for entry in lobby["games"] if entry["game_id"] == game.id]
    assert [seat["bot"] if seat else None for seat in listed["players"]][:2] == [None, level]


def test_takeover_bot_is_shown_in_every_game_s_rules_basic_by_default(api: Api) -> None:
    assert api.create(players=THREE).view(PUBLIC)["rules"]["takeover_bot"] == "basic"
    gin = api.create(players=THREE[:2], rules={"variant": "gin", "takeover_bot": "expert"})
    assert gin.view(PUBLIC)["rules"]["takeover_bot"] == "expert"


@pytest.mark.parametrize("level", ["random", "strong"])
def test_a_leave_hands_the_seat_to_the_takeover_bot_level(api: Api, level: str) -> None:
    game = api.create(players=THREE, rules={"takeover_bot": level})
    response = game.api.client.post(
        f"/games/{game.id}/leave", json={"resign": False}, headers=game.headers(1)
    )
    assert response.status_code == 200, response.text
    bob = response.json()["players"][1]
    assert (bob["left"], bob["replaced"], bob["bot"]) == (True, True, level)


def test_a_bot_that_is_no_level_is_a_422_naming_the_levels(api: Api) -> None:
    response = api.client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Robo", "bot": "superhuman"}]}
    )
    assert (response.status_code, response.json()["code"]) == (422, "invalid_body")
    (error,) = response.json()["errors"]
    assert error["key"] == "players[1].bot"
    assert all(level in error["message"] for level in LEVELS), error["message"]


@pytest.mark.parametrize("value", ["superhuman", 3])
def test_a_takeover_bot_that_is_no_level_is_invalid_rules_naming_the_levels(
    api: Api, value: object
) -> None:
    response = api.client.post(
        "/games", json={"players": THREE[:2], "rules": {"takeover_bot": value}}
    )
    assert (response.status_code, response.json()["code"]) == (422, "invalid_rules")
    assert "takeover_bot" in response.json()["detail"]
    if isinstance(value, str):
        assert all(level in response.json()["detail"] for level in LEVELS)


class WhereBotsDecide(BotSeats):
    """The service's computer players, noting for each decision whether it was made
    on a thread running an event loop."""

    def __init__(self) -> None:
        super().__init__(processes=0)
        self.on_loop: list[bool] = []

    def next_move(self, game: GameSnapshot, seed: str) -> tuple[int, Sequence[Action]] | None:
        move = super().next_move(game, seed)
        if move is not None:
            self.on_loop.append(_on_a_loop())
        return move


def _on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def test_a_leave_the_server_s_bot_takes_over_is_decided_off_the_event_loop() -> None:
    # The in-memory store does small work on the event loop; a game of people alone
    # has no bot seat, so only the leave itself can tell that a bot will decide.
    bots = WhereBotsDecide()
    settings = Settings(store=Store.MEMORY, **{**NO_RATE_LIMITS, "webhook_senders": 0})
    with TestClient(bootstrap(settings, bots=bots).app) as client:
        api = Api(client)
        game = api.create(players=THREE, rules={"takeover_bot": "expert"})
        turn = game.view(PUBLIC)["turn"]
        response = client.post(
            f"/games/{game.id}/leave", json={"resign": False}, headers=game.headers(turn)
        )
        assert response.status_code == 200, response.text
    assert bots.on_loop, "the bot took the turn of the seat that left, in the leave"
    assert not any(bots.on_loop), "a bot decided on the event loop"
