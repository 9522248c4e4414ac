"""Fair deals with strangers (docs/fairness.md), over HTTP.

A deal someone chose (`seed` or `decks`) is only for games the admin creates
or whose every seat is filled at creation; every view and the `game_created`
event say how the deals are decided (`deal`); a joiner's `client_seed` is
mixed into the deals or refused, never ignored.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from service.domain import shuffle
from tests.api.client import ADMIN, ADMIN_TOKEN, PUBLIC, Api, Game, Json, deck, draw, meld
from tests.audit_stream.clients import sse
from tests.fairness_oracle import chain_of

ANN, BOB = 0, 1
STACKED = deck(["KD QD JD 10C 9D 2D 3D 5C 6C 8D", "AS 2S 3S 4S 4H 5H 6H 7C 8C 9C"], "KH", "5S")
"""A deck order whose every card its chooser knows."""
AS_ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def last_position(api: Api) -> int:
    """How far the store's feed of every game reaches: unchanged when nothing is stored."""
    page = api.client.get("/feed", params={"after": 0, "limit": 1}, headers=AS_ADMIN).json()
    position: int = page["last_position"]
    return position


def refused(response: httpx.Response, status: int, code: str) -> Json:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: Json = response.json()
    assert problem["code"] == code
    return problem


# --- who may choose the deal ------------------------------------------------------------------


def test_a_creator_cannot_stack_the_deck_of_a_game_a_stranger_will_join(api: Api) -> None:
    before = last_position(api)
    response = api.client.post(
        "/games", json={"players": [{"name": "Cheat"}], "seats": 2, "decks": [STACKED]}
    )
    problem = refused(response, 403, "explicit_deal_forbidden")
    # The message says what to do instead.
    assert "admin token" in problem["detail"]
    assert "decks" in problem["detail"]
    assert last_position(api) == before, "nothing was stored"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"players": [{"name": "Cheat"}], "seats": 2, "seed": "known"}, id="one named"),
        pytest.param({"seats": 3, "seed": "known"}, id="none named"),
        pytest.param(
            {
                "players": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
                "seats": 3,
                "seed": "k",
            },
            id="a bot and an open seat",
        ),
    ],
)
def test_a_chosen_seed_with_open_seats_is_refused_without_the_admin_token(
    api: Api, body: Json
) -> None:
    before = last_position(api)
    problem = refused(api.client.post("/games", json=body), 403, "explicit_deal_forbidden")
    assert "seed" in problem["detail"]
    assert last_position(api) == before


def test_the_admin_may_choose_the_deal_of_a_game_with_open_seats(api: Api) -> None:
    seeded = api.create(by_admin=True, players=[{"name": "Host"}], seats=2, seed="round-1")
    assert seeded.created["deal"] == "explicit"
    stacked = api.create(by_admin=True, players=[{"name": "Host"}], seats=2, decks=[STACKED])
    assert stacked.view(PUBLIC)["deal"] == "explicit"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": "s"}, id="seed"),
        pytest.param(
            {"players": [{"name": "Ann"}, {"name": "Bob"}], "decks": [STACKED]}, id="decks"
        ),
        pytest.param(
            {
                "players": [{"name": "Ann"}, {"name": "Robo", "bot": "basic"}],
                "seats": 2,
                "seed": "s",
            },
            id="a bot in the other seat",
        ),
    ],
)
def test_a_creator_who_fills_every_seat_may_choose_the_deal(api: Api, body: Json) -> None:
    game = api.create(**body)
    assert game.created["deal"] == "explicit"
    assert game.view(ANN)["deal"] == "explicit"


def test_a_game_without_a_chosen_deal_needs_no_token(api: Api) -> None:
    game = api.create(players=[{"name": "Ann"}], seats=3)
    assert game.created["deal"] == "commit_reveal"


def test_creating_with_a_token_that_is_not_the_admins_is_refused(api: Api) -> None:
    other = api.create(players=[{"name": "Ann"}, {"name": "Bob"}])
    before = last_position(api)
    for token in (other.tokens[ANN], "not-the-admin-token"):
        response = api.client.post(
            "/games",
            json={"seats": 2, "seed": "mine"},
            headers={"Authorization": f"Bearer {token}"},
        )
        refused(response, 401, "unauthorized")
    assert last_position(api) == before


# --- deal: in every view and in game_created --------------------------------------------------


def game_of_each_mode(api: Api) -> dict[str, Game]:
    """A commit_reveal game and an explicit one, each with a player joined from the lobby."""
    one_hand = {"deals": 1}
    committed = api.create(players=[{"name": "Ann"}], seats=2, rules=one_hand)
    committed.join("Bob", client_seed="bob's own")
    chosen = api.create(
        by_admin=True, players=[{"name": "Ann"}], seats=2, rules=one_hand, seed="tournament-7"
    )
    chosen.join("Bob", client_seed="bob's own")
    return {"commit_reveal": committed, "explicit": chosen}


@pytest.mark.parametrize("mode", ["commit_reveal", "explicit"])
def test_every_view_says_how_the_deals_are_decided(api: Api, mode: str) -> None:
    game = game_of_each_mode(api)[mode]
    assert game.created["deal"] == mode
    for who in (ANN, BOB, PUBLIC, ADMIN):
        assert game.view(who)["deal"] == mode, who
        assert game.replay(who, 1)["deal"] == mode, who
    moved = game.play(game.view(ADMIN)["turn"], draw())
    assert moved["deal"] == mode


@pytest.mark.parametrize("mode", ["commit_reveal", "explicit"])
def test_every_callers_game_created_event_says_how_the_deals_are_decided(
    api: Api, mode: str
) -> None:
    game = game_of_each_mode(api)[mode]
    for who in (ANN, BOB, PUBLIC, ADMIN):
        created = game.events(who)[0]
        assert (created["type"], created["deal"]) == ("game_created", mode), who
    feed: list[Json] = []
    after = 0
    while page := api.client.get("/feed", params={"after": after}, headers=AS_ADMIN).json()[
        "events"
    ]:
        feed.extend(item["event"] for item in page if item["game_id"] == game.id)
        after = page[-1]["position"]
    assert (feed[0]["type"], feed[0]["deal"]) == ("game_created", mode)
    audit = game.get("/audit", ADMIN).json()
    assert audit["deal"] == mode


def test_the_live_stream_shows_the_deal_in_game_created(api: Api) -> None:
    game = api.create(
        players=[{"name": "Ann"}, {"name": "Bob"}],
        rules={"hand_size": 2, "target": 1},
        dealer=ANN,
        decks=[deck(["KS QS", "2H 3H"], "9D", "4H")],
    )
    assert game.play(BOB, [draw(), meld("2H 3H 4H")])["status"] == "finished"
    with api.client.stream("GET", f"/games/{game.id}/stream") as response:
        first = next(message for message in sse(response) if message.data is not None)
    assert first.data is not None
    assert (first.data["type"], first.data["deal"]) == ("game_created", "explicit")


# --- a joiner's client seed: mixed in, or refused ---------------------------------------------


def test_joining_a_game_dealt_from_chosen_decks_with_a_client_seed_is_refused(api: Api) -> None:
    game = api.create(by_admin=True, players=[{"name": "Host"}], seats=2, decks=[STACKED])
    before = game.events(ADMIN)
    response = api.client.post(
        f"/games/{game.id}/players", json={"name": "Stranger", "client_seed": "my entropy"}
    )
    problem = refused(response, 409, "client_seed_not_used")
    assert "client_seed" in problem["detail"]
    assert game.events(ADMIN) == before, "nothing was stored"
    assert game.view(ADMIN)["version"] == before[-1]["version"]
    # Without one, the stranger joins what its view told it: deal explicit.
    assert game.view(PUBLIC)["deal"] == "explicit"
    game.join("Stranger")
    assert game.view(ADMIN)["status"] == "playing"


def test_naming_a_player_with_a_client_seed_beside_chosen_decks_is_refused(api: Api) -> None:
    before = last_position(api)
    response = api.client.post(
        "/games",
        json={
            "players": [{"name": "Ann", "client_seed": "my entropy"}, {"name": "Bob"}],
            "decks": [STACKED],
        },
    )
    refused(response, 409, "client_seed_not_used")
    assert last_position(api) == before


def test_a_joiners_client_seed_is_mixed_into_a_chosen_seeds_first_deal(api: Api) -> None:
    """A chosen seed is known to its chooser, but the joiner's client seed still makes
    the deals its own business (tests/game/test_fair_deals.py: with the server's seed)."""
    game = game_of_each_mode(api)["explicit"]
    audit = game.get("/audit", ADMIN).json()
    assert audit["client_seeds"] == ["", "bob's own"]
    dealt = next(event for event in audit["events"] if event["type"] == "hand_dealt")
    first = chain_of("tournament-7", audit["events"][0]["data"]["rules"])[0]
    assert dealt["data"]["deck"] == _codes(shuffle.deck_order(first, ["", "bob's own"], 1))
    assert dealt["data"]["deck"] != _codes(shuffle.deck_order(first, ["", ""], 1))


def _codes(cards: list[Any]) -> list[str]:
    return [card.code for card in cards]
