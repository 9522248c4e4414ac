"""`GET /games/{id}/replay?version=N&seat=K`: any seat's view of a finished game.

Once a game is over, nothing in it is secret (its audit export shows every card),
so anyone may step through it from any seat's view; before that a seat's view is
its own player's and the admin's only. Each seat's view is redacted as that
player saw it then: its own hand, no other.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api.client import ADMIN, PUBLIC, Api, Game, Who, check_etag, deck

ANN, BOB = 0, 1
HANDS = {ANN: "AH 2D 3S 4C 5C 6D 7H", BOB: "8H 9S 10D JC QH KS KD"}
DEALT = 2
"""The version at which the hands are dealt (the game created, then the deal)."""


def new_game(api: Api) -> Game:
    return api.create(
        players=[{"name": "Ann"}, {"name": "Bob"}],
        rules={"hand_size": 7},
        dealer=BOB,
        decks=[deck([HANDS[ANN], HANDS[BOB]], upcard="9C", dealer=BOB)],
    )


def replay(game: Game, who: Who, version: int, seat: int | None = None) -> Any:
    params: dict[str, Any] = {"version": version}
    if seat is not None:
        params["seat"] = seat
    return game.get("/replay", who, **params)


def seat_view(game: Game, who: Who, version: int, seat: int) -> Any:
    answer = replay(game, who, version, seat)
    assert answer.status_code == 200, answer.text
    check_etag(answer, seat)  # the seat's view, whoever asked
    return answer.json()


def finish(game: Game) -> None:
    """Ann resigns: one seat left in, the game is over."""
    answer = game.api.client.post(
        f"/games/{game.id}/leave", json={"resign": True}, headers=game.headers(ANN)
    )
    assert answer.status_code == 200, answer.text
    assert game.view()["status"] == "finished"


def test_a_finished_game_shows_anyone_each_seats_own_hand_and_no_other(api: Api) -> None:
    game = new_game(api)
    finish(game)
    for seat, other in ((ANN, BOB), (BOB, ANN)):
        for who in (PUBLIC, ANN, BOB, ADMIN):
            view = seat_view(game, who, DEALT, seat)
            assert (view["version"], view["my_seat"], view["status"]) == (DEALT, seat, "playing")
            assert sorted(view["my_hand"]) == sorted(HANDS[seat].split())
            # The other seat's cards appear nowhere in the view (its count does).
            text = json.dumps(view)
            assert not [code for code in HANDS[other].split() if f'"{code}"' in text], (seat, who)
            assert view["players"][other]["hand_count"] == 7


def test_without_seat_a_replay_is_the_callers_own_view_as_before(api: Api) -> None:
    game = new_game(api)
    finish(game)
    public = replay(game, PUBLIC, DEALT)
    assert public.status_code == 200
    check_etag(public)
    assert public.json().get("my_hand") in (None, [])
    assert public.json().get("my_seat") is None
    own = replay(game, BOB, DEALT)
    check_etag(own, BOB)
    assert sorted(own.json()["my_hand"]) == sorted(HANDS[BOB].split())


def test_before_the_end_a_seats_view_is_its_players_and_the_admins_only(api: Api) -> None:
    game = new_game(api)
    assert seat_view(game, ANN, DEALT, ANN)["my_seat"] == ANN
    assert seat_view(game, ADMIN, DEALT, BOB)["my_seat"] == BOB
    refused = replay(game, BOB, DEALT, ANN)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    anonymous = replay(game, PUBLIC, DEALT, ANN)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "unauthorized")
    assert "once it is finished" in anonymous.json()["detail"]


@pytest.mark.parametrize("seat", ["2", "5", "6", "-1", "one", "1.0"])
def test_a_seat_the_game_does_not_have_is_422(api: Api, seat: str) -> None:
    game = new_game(api)
    finish(game)
    answer = game.get("/replay", PUBLIC, version=DEALT, seat=seat)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "invalid_request"


def test_a_bad_token_is_refused_whatever_seat_is_asked(api: Api) -> None:
    game = new_game(api)
    finish(game)
    answer = api.client.get(
        f"/games/{game.id}/replay",
        params={"version": DEALT, "seat": ANN},
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert answer.status_code == 401
