"""500 Rum over HTTP (docs/api.md "500 Rum"): the draw's `count` (422 below 1,
409 `not_in_variant` where it is not allowed), a called card taken and used in one
request, and what each caller sees of it: the taker's `called_card`, the whole pile
and the taken cards for everyone."""

from __future__ import annotations

from typing import Any

from tests.api.client import ADMIN, PUBLIC, Api, Game, deck, discard, draw, meld

HANDS = ["2C 3C 7D 8D KS KH 6C", "5H 6H 7H JS JH 2D 9S", "AD AC 3H 3S 8C 10C 5C"]
THREE = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]


def deep(count: int) -> dict[str, Any]:
    return {"type": "draw", "source": "discard", "count": count}


def called_game(api: Api) -> Game:
    """Ann (seat 0) to draw from a pile of 9D 4S QC 10H 2D 8C (tests/domain/test_rummy500)."""
    game = api.create(
        players=THREE,
        rules={"variant": "rummy500"},
        dealer=0,
        decks=[deck(HANDS, "9D", "4S QC 10H 2S 4D", dealer=0)],
    )
    for seat, code in ((1, "4S"), (2, "QC"), (0, "10H"), (1, "2D"), (2, "8C")):
        game.play(seat, [draw(), discard(code)])
    return game


def problem(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def test_a_count_below_one_is_an_invalid_body(api: Api) -> None:
    game = called_game(api)
    assert problem(game.act(0, deep(0))) == (422, "invalid_body")


def test_a_count_where_it_is_not_allowed_is_not_in_variant(api: Api) -> None:
    game = called_game(api)
    stock = {"type": "draw", "source": "stock", "count": 2}
    assert problem(game.act(0, stock)) == (409, "not_in_variant")
    classic = api.create(players=THREE[:2])
    assert problem(classic.act(1, deep(2))) == (409, "not_in_variant")
    assert problem(game.act(0, deep(7))) == (409, "pile_too_short")
    assert problem(game.act(0, deep(5))) == (409, "pile_card_unusable")


def test_a_called_card_is_the_takers_to_see_until_used(api: Api) -> None:
    game = called_game(api)
    ann = game.view(0)
    assert ann["legal"]["pile_counts"] == [1, 6]
    assert ann["discard_pile"] == ["9D", "4S", "QC", "10H", "2D", "8C"]
    ann = game.play(0, deep(6))
    assert ann["called_card"] == "9D"
    assert ann["legal"]["discard"] == []
    for who in (1, 2, PUBLIC, ADMIN):
        seen = game.view(who)
        assert "called_card" not in seen, who
        assert seen["discard_pile"] == [], who
    assert problem(game.act(0, discard("KS"))) == (409, "taken_card_unused")
    ann = game.play(0, [meld("7D 8D 9D"), discard("KS")])
    assert "called_card" not in ann
    assert [player["melded_points"] for player in ann["players"]] == [24, 0, 0]
    drawn = [event for event in game.events(1) if event["type"] == "card_drawn"][-1]
    assert (drawn["seat"], drawn["count"], drawn["card"]) == (0, 6, "9D")
    assert drawn["cards"] == ["9D", "4S", "QC", "10H", "2D", "8C"]
