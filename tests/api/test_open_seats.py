"""Open seats: a game waits until every seat is taken, then deals at once."""

from __future__ import annotations

from tests.api.client import ADMIN, PUBLIC, Api, draw


def test_the_first_hand_is_dealt_when_the_last_seat_fills(api: Api) -> None:
    game = api.create(players=[{"name": "Ann"}], seats=3)
    assert game.created["players"] == [{"seat": 0, "name": "Ann", "token": game.tokens[0]}]
    assert game.created["version"] == 1

    waiting = game.view(0)
    assert waiting["status"] == "waiting"
    assert [(p["seat"], p["name"], p["hand_count"]) for p in waiting["players"]] == [
        (0, "Ann", 0),
        (1, None, 0),
        (2, None, 0),
    ]
    assert (waiting["hand_number"], waiting["turn"], waiting["phase"]) == (0, None, None)
    assert (waiting["my_hand"], waiting["stock_count"], waiting["discard_top"]) == ([], 0, None)
    assert waiting["legal"] == {"draw": [], "melds": [], "lay_offs": [], "discard": []}

    bob = game.join("Bob", client_seed="bob's own entropy")
    assert (bob["game_id"], bob["seat"], bob["version"]) == (game.id, 1, 2)
    assert game.view(PUBLIC)["status"] == "waiting"

    cleo = game.join("Cleo")
    assert cleo["seat"] == 2
    assert cleo["version"] == 4  # her seat, then the deal

    dealt = game.view(2)
    assert dealt["status"] == "playing"
    assert dealt["hand_number"] == 1
    assert [(p["name"], p["hand_count"]) for p in dealt["players"]] == [
        ("Ann", 7),
        ("Bob", 7),
        ("Cleo", 7),
    ]
    assert len(dealt["my_hand"]) == 7
    assert dealt["stock_count"] == 52 - 21 - 1
    mover = dealt["turn"]
    assert mover == (dealt["dealer"] + 1) % 3
    assert game.play(mover, draw())["phase"] == "play"

    events = game.events(ADMIN)
    assert [event["type"] for event in events[:4]] == [
        "game_created",
        "player_joined",
        "player_joined",
        "hand_dealt",
    ]
    assert [(event["seat"], event["name"]) for event in events[1:3]] == [(1, "Bob"), (2, "Cleo")]
    assert [seat["name"] for seat in events[0]["players"]] == ["Ann", None, None]


def test_all_seats_open_and_tokens_only_for_those_who_join(api: Api) -> None:
    game = api.create(seats=2, rules={"deals": 1})
    assert game.created["players"] == []
    assert game.join("Ann")["seat"] == 0
    assert game.join("Bob")["seat"] == 1
    assert game.view(0)["status"] == "playing"
    assert game.view(PUBLIC)["rules"]["deals"] == 1


def test_joining_a_full_game_is_refused(api: Api) -> None:
    game = api.create(players=[{"name": "Ann"}, {"name": "Bob"}])
    before = game.view(ADMIN)["version"]
    response = api.client.post(f"/games/{game.id}/players", json={"name": "Cleo"})
    assert response.status_code == 409
    assert response.json()["code"] == "game_full"
    assert game.view(ADMIN)["version"] == before


def test_a_whole_number_written_as_a_float_counts_as_that_number(api: Api) -> None:
    game = api.create(seats=3.0, rules={"deals": 1.0})
    assert len(game.view(PUBLIC)["players"]) == 3
    assert game.view(PUBLIC)["rules"]["deals"] == 1
