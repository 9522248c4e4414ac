"""Indian Rummy over HTTP (docs/api.md, "Indian Rummy"): the deal's public wild
indicator, the flags of `legal`, a declaration and the show, drops never shown,
`not_in_deal`, and the events that tell it.

Two-seat games are dealt from an explicit pack of 52 and one `JK`: Ann (seat 0)
deals, Bob (seat 1) moves first; the indicator `7C` makes sevens wild.
"""

from __future__ import annotations

from typing import Any

from tests.api.client import ADMIN, PUBLIC, Api, Game, Json, draw, pack_deck

ANN, BOB = 0, 1
TWO = [{"name": "Ann"}, {"name": "Bob"}]
BOB_HAND = "5S 6S 7S 9H 10H JK QC QD QS 2C 2D 2H KD"
ANN_HAND = "AC 3D 4D 5D 6C 8C 9C KC KH 4S 10S JS AD"
VALID = [["5S", "6S", "7S"], ["8H", "9H", "10H", "JK"], ["QC", "QD", "QS"], ["2C", "2D", "2H"]]
"""Bob's groups once he has drawn 8H, finishing with KD: a pure sequence (the 7S
stands for itself), a sequence with the joker, two sets."""


def indian_game(api: Api, **rules: Any) -> Game:
    return api.create(
        players=TWO,
        rules={"variant": "indian", **rules},
        dealer=ANN,
        # The upcard KS, then the indicator 7C, then the stock from 8H.
        decks=[pack_deck([ANN_HAND, BOB_HAND], "KS", "7C 8H 4C", dealer=ANN, jokers=1)],
    )


def declare(card: str, groups: list[list[str]]) -> Json:
    return {"type": "declare", "card": card, "groups": groups}


def submit(groups: list[list[str]]) -> Json:
    return {"type": "submit_groups", "groups": groups}


def problem(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def test_the_deal_shows_the_wild_indicator_to_everyone_and_two_seats_use_one_pack(
    api: Api,
) -> None:
    game = indian_game(api)
    view = game.view(PUBLIC)
    assert (view["rules"]["packs"], view["rules"]["jokers"]) == (1, 1)
    assert view["wild"] == {"jokers": 1, "rank": "7", "indicator": "7C"}
    assert (view["discard_top"], view["stock_count"]) == ("KS", 53 - 26 - 2)
    assert [player["status"] for player in view["players"]] == ["in", "in"]
    assert (view["shows"], view["melds"]) == ([], [])
    assert view["out_of_play_count"] == 1  # the indicator
    [dealt] = [event for event in game.events(BOB) if event["type"] == "hand_dealt"]
    assert (dealt["seats"], dealt["wild_rank"], dealt["wild_indicator"]) == ([0, 1], "7", "7C")
    assert sorted(dealt["my_cards"]) == sorted(BOB_HAND.split())


def test_legal_offers_the_draw_and_the_drop_then_the_declaration(api: Api) -> None:
    game = indian_game(api)
    legal = game.view(BOB)["legal"]
    assert legal["draw"] == ["stock", "discard"]
    assert (legal["can_drop"], legal["drop_points"], legal["can_declare"]) == (True, 20, False)
    assert game.view(ANN)["legal"]["can_drop"] is False
    assert "drop_points" not in game.view(ANN)["legal"]
    bob = game.play(BOB, draw())
    assert (bob["legal"]["can_declare"], bob["legal"]["can_drop"]) == (True, False)
    assert "meld_readings" not in bob["legal"]
    assert bob["legal"]["melds"] == []
    assert problem(game.act(BOB, {"type": "drop"})) == (409, "wrong_phase")


def test_a_declaration_must_show_exactly_the_other_thirteen_cards(api: Api) -> None:
    game = indian_game(api)
    game.play(BOB, draw())
    short = declare("KD", VALID[:3])
    response = game.act(BOB, short)
    assert problem(response) == (409, "incomplete_declaration")
    assert "2C 2D 2H" in response.json()["detail"]
    assert problem(game.act(BOB, declare("KD", [*VALID, ["KD"]]))) == (
        409,
        "incomplete_declaration",
    )
    assert problem(game.act(BOB, {"type": "meld", "cards": ["QC", "QD", "QS"]})) == (
        409,
        "not_in_variant",
    )


def test_a_valid_declaration_opens_the_show_and_the_last_submission_ends_the_deal(
    api: Api,
) -> None:
    game = indian_game(api)
    game.play(BOB, draw())
    bob = game.play(BOB, declare("KD", VALID))
    assert (bob["phase"], bob["turn"]) == ("show", None)
    assert [player["status"] for player in bob["players"]] == ["to_submit", "declared"]
    [shown] = bob["shows"]
    assert (shown["seat"], shown["card"], shown["valid"], shown["points"]) == (BOB, "KD", True, 0)
    assert [group["kind"] for group in shown["groups"]] == [
        "pure_sequence",
        "sequence",
        "set",
        "set",
    ]
    assert game.view(ANN)["legal"]["can_submit"] is True
    assert problem(game.act(ANN, draw())) == (409, "wrong_phase")
    assert problem(game.act(BOB, submit([]))) == (409, "wrong_phase")
    assert problem(game.act(ANN, submit([["KS", "KC"]]))) == (409, "card_not_in_hand")
    # Ann shows a pure sequence but no second sequence: all 13 count, at most 80.
    ann = game.play(ANN, submit([["3D", "4D", "5D"]]))
    assert (ann["status"], ann["winner"]) == ("finished", BOB)
    last = ann["last_hand"]
    assert (last["how"], last["out_seat"]) == ("declared", BOB)
    assert [(seat["points"], seat["total"]) for seat in last["players"]] == [(80, -80), (0, 80)]
    assert last["players"][ANN]["groups"] == [
        {"cards": ["3D", "4D", "5D"], "kind": "pure_sequence"}
    ]
    assert [seat["status"] for seat in last["players"]] == ["submitted", "declared"]
    kinds = [event["type"] for event in game.events(PUBLIC)][-4:]
    assert kinds == ["declared", "groups_submitted", "hand_ended", "game_finished"]


def test_a_wrong_declaration_is_a_result_and_the_last_player_in_wins(api: Api) -> None:
    game = indian_game(api)
    game.play(BOB, draw())
    wrong = [["5S", "6S", "7S"], ["8H", "9H", "10H", "JK"], ["QC", "QD", "2C"], ["QS", "2D", "2H"]]
    bob = game.play(BOB, declare("KD", wrong))
    assert (bob["status"], bob["winner"]) == ("finished", ANN)
    last = bob["last_hand"]
    assert (last["how"], last["out_seat"]) == ("last_standing", ANN)
    assert [(seat["points"], seat["total"]) for seat in last["players"]] == [(0, 80), (80, -80)]
    event = next(event for event in game.events(PUBLIC) if event["type"] == "declared")
    assert (event["valid"], event["points"]) == (False, 80)
    # The winner by last standing never shows its hand.
    assert last["players"][ANN]["cards"] == []


def test_a_dropped_hand_is_never_shown_to_players(api: Api) -> None:
    game = indian_game(api)
    bob = game.play(BOB, {"type": "drop"})
    last = bob["last_hand"]
    assert (last["how"], last["out_seat"]) == ("last_standing", ANN)
    assert [(seat["points"], seat["cards"]) for seat in last["players"]] == [(0, []), (20, [])]
    dropped = next(event for event in game.events(ANN) if event["type"] == "player_dropped")
    assert (dropped["seat"], dropped["kind"], dropped["points"]) == (BOB, "first", 20)
    for who in (ANN, PUBLIC):
        shown = str(game.events(who)) + str(game.view(who))
        # Of Bob's cards only what he showed anyone (none) may appear; KD is his alone.
        assert "KD" not in shown
    assert "KD" in str(game.events(ADMIN))


def test_a_seat_out_of_the_deal_cannot_act(api: Api) -> None:
    game = api.create(
        players=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}],
        rules={"variant": "indian", "format": "pool_101"},
        dealer=ANN,
    )
    view = game.view(PUBLIC)
    assert (view["rules"]["packs"], view["rules"]["jokers"]) == (2, 2)
    game.play(BOB, {"type": "drop"})
    assert problem(game.act(BOB, draw())) == (409, "not_in_deal")
    cleo = game.view(2)
    assert (cleo["turn"], cleo["legal"]["drop_points"]) == (2, 20)
    assert [player["status"] for player in cleo["players"]] == ["in", "dropped", "in"]
    assert [player["hand_count"] for player in cleo["players"]] == [13, 0, 13]


def test_a_variant_without_the_indian_actions_refuses_them(api: Api) -> None:
    game = api.create(players=TWO, rules={"variant": "knock"})
    seat = game.view(PUBLIC)["turn"]
    for action in ({"type": "drop"}, submit([]), declare("AS", [])):
        assert problem(game.act(seat, action)) == (409, "not_in_variant")
