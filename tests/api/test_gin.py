"""Gin Rummy over HTTP (docs/api.md, "Gin Rummy"): creation, the upcard offer, the
view's new fields and `legal`'s keys, the knock with and without an arrangement,
its redaction (the knock card hidden from the players until the hand ends), the
result with its lay-offs, and the game's end with its bonuses."""

from __future__ import annotations

from typing import Any

from tests.api.client import ADMIN, PUBLIC, Api, Game, Json, deck, draw, knock

ANN, BOB = 0, 1
# The rules page's example: Bob (offered first: Ann deals) knocks with 4C after
# drawing 2D; Ann melds the fives and lays 10S off on his spades.
BOB_HAND = "3C 3D 3H 7S 8S 9S JH QH KH 4C"
ANN_HAND = "10S 5D 5C 5H AC AD 4H 6D 8D 9D"
PASS: Json = {"type": "pass"}


def gin_game(api: Api, **rules: Any) -> Game:
    return api.create(
        players=[{"name": "Ann"}, {"name": "Bob"}],
        rules={"variant": "gin", **rules},
        dealer=ANN,
        decks=[deck([ANN_HAND, BOB_HAND], "KC", "2D", dealer=ANN)],
    )


def problem(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def test_the_view_offers_the_upcard_to_the_non_dealer(api: Api) -> None:
    game = gin_game(api)
    bob = game.view(BOB)
    assert (bob["phase"], bob["turn"]) == ("upcard_offer", BOB)
    assert (bob["knock_limit"], bob["doubled"]) == (10, False)
    assert [player["hands_won"] for player in bob["players"]] == [0, 0]
    legal = bob["legal"]
    assert legal["draw"] == ["discard"]
    assert legal["can_pass"] is True
    assert legal["knock"] == []
    assert legal["big_gin"] is False
    assert legal["deadwood"] == 4  # 4C: the threes, the spades and the hearts meld
    ann = game.view(ANN)["legal"]
    assert ann["draw"] == []
    assert ann["can_pass"] is False
    assert problem(game.act(BOB, draw("stock"))) == (409, "wrong_phase")


def test_the_rules_page_example_over_http(api: Api) -> None:
    game = gin_game(api, target=500)
    game.play(BOB, PASS)
    game.play(ANN, PASS)
    assert problem(game.act(BOB, draw("discard"))) == (409, "upcard_declined")
    bob = game.play(BOB, draw("stock"))
    assert "4C" in bob["legal"]["knock"]
    assert bob["legal"]["deadwood"] == 6
    done = game.play(BOB, knock("4C"))
    last = done["last_hand"]
    assert (last["how"], last["knocker"], last["knock_card"], last["hand_winner"]) == (
        "knock",
        BOB,
        "4C",
        BOB,
    )
    ann, bob_seat = last["players"]
    assert bob_seat["melds"] == [["3C", "3D", "3H"], ["7S", "8S", "9S"], ["JH", "QH", "KH"]]
    assert (bob_seat["deadwood"], bob_seat["count"], bob_seat["laid_off"]) == (["2D"], 2, [])
    assert ann["melds"] == [["5C", "5D", "5H"]]
    assert ann["laid_off"] == [{"card": "10S", "meld": 1}]
    assert (ann["deadwood"], ann["count"]) == (["AC", "AD", "4H", "6D", "8D", "9D"], 29)
    assert (ann["points"], bob_seat["points"]) == (0, 27)
    assert [player["hands_won"] for player in done["players"]] == [0, 1]


def test_the_knock_card_is_hidden_until_the_hand_ends(api: Api) -> None:
    game = gin_game(api, target=500)
    game.play(BOB, PASS)
    game.play(ANN, PASS)
    game.play(BOB, draw("stock"))
    game.play(
        BOB,
        {
            "type": "knock",
            "card": "4C",
            "melds": [["3C", "3D", "3H"], ["7S", "8S", "9S"], ["JH", "QH", "KH"]],
        },
    )
    for who in (ANN, BOB, PUBLIC):
        knocked = next(event for event in game.events(who) if event["type"] == "knocked")
        assert "card" not in knocked
        assert knocked["kind"] == "knock"
        assert len(knocked["melds"]) == 3
    admin = next(event for event in game.events(ADMIN) if event["type"] == "knocked")
    assert admin["card"] == "4C"
    passed = [event["seat"] for event in game.events(PUBLIC) if event["type"] == "upcard_passed"]
    assert passed == [BOB, ANN]


def test_the_finished_view_shows_the_bonuses(api: Api) -> None:
    game = gin_game(api, target=10)
    game.play(BOB, PASS)
    game.play(ANN, PASS)
    game.play(BOB, draw("stock"))
    done = game.play(BOB, knock("4C"))
    assert done["status"] == "finished"
    assert done["winner"] == BOB
    result = done["result"]
    assert result[BOB] == {
        "seat": BOB,
        "hands_won": 1,
        "box": 25,
        "game_bonus": 100,
        "shutout": True,
        "total": (27 + 25 + 100) * 2,
    }
    assert [player["score"] for player in done["players"]] == [0, (27 + 25 + 100) * 2]
    finished = game.events(PUBLIC)[-1]
    assert finished["type"] == "game_finished"
    assert finished["result"] == result


def test_big_gin_null_is_kept_and_other_options_are_refused(api: Api) -> None:
    game = gin_game(api, big_gin_bonus=None)
    assert game.view(PUBLIC)["rules"]["big_gin_bonus"] is None
    response = api.client.post(
        "/games", json={"seats": 2, "rules": {"variant": "gin", "recycles": 2}}
    )
    assert problem(response) == (422, "invalid_rules")
    response = api.client.post(
        "/games",
        json={"seats": 2, "rules": {"variant": "gin", "oklahoma": True, "knock_limit": 5}},
    )
    assert problem(response) == (422, "invalid_rules")
