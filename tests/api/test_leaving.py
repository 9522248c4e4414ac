"""Leaving and turn clocks over HTTP (docs/api.md "Leaving and turn clocks"): the
leave and the resignation, `seat_left`, a left player's token still reading the
game, idempotency and `If-Match`, the views' `turn_deadline` and `players[]`
fields, and a forfeiter's set-aside hand never shown to anyone but the admin."""

from __future__ import annotations

import re
from datetime import datetime

import httpx

from tests.api.client import ADMIN, PUBLIC, Api, Game, check_etag, deck, draw
from tests.api.test_indian import ANN, BOB, indian_game, problem

THREE = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
TWO = THREE[:2]


def leave(
    game: Game, seat: int, resign: bool = False, headers: dict[str, str] | None = None
) -> httpx.Response:
    response = game.api.client.post(
        f"/games/{game.id}/leave", json={"resign": resign}, headers=game.headers(seat, headers)
    )
    game.log.append(response)
    return response


def test_a_leave_answers_the_leaver_s_view_with_the_bot_in_its_seat(api: Api) -> None:
    game = api.create(players=THREE)
    response = leave(game, 1)
    assert response.status_code == 200, response.text
    check_etag(response, 1)
    view = response.json()
    assert view["my_seat"] == 1
    bob = view["players"][1]
    assert (bob["left"], bob["replaced"], bob["bot"]) == (True, True, "basic")
    assert "forfeited" not in bob
    assert "left" not in view["players"][0], "absent while false"
    left = next(event for event in game.events(PUBLIC) if event["type"] == "player_left")
    assert (left["seat"], left["reason"], left["replaced"]) == (1, "left", True)


def test_a_seat_that_left_acts_and_leaves_no_more_but_still_reads(api: Api) -> None:
    game = api.create(players=THREE)
    leave(game, 2)
    assert problem(leave(game, 2)) == (409, "seat_left")
    assert problem(game.act(2, {"type": "draw", "source": "stock"})) == (409, "seat_left")
    assert game.view(2)["my_seat"] == 2
    assert game.events(2)


def test_a_resignation_at_two_seats_ends_the_game_for_the_other(api: Api) -> None:
    game = api.create(players=TWO)
    response = leave(game, 0, resign=True)
    view = response.json()
    assert (view["status"], view["winner"]) == ("finished", 1)
    assert view["players"][0]["forfeited"] is True
    assert problem(leave(game, 1)) == (409, "game_over")


def test_a_leave_is_idempotent_by_key_and_conditional_by_if_match(api: Api) -> None:
    game = api.create(players=THREE)
    version = game.view(PUBLIC)["version"]
    stale = leave(game, 0, headers={"If-Match": f'"{version - 1}"'})
    assert problem(stale) == (412, "version_conflict")
    first = leave(game, 0, headers={"Idempotency-Key": "bye-1"})
    again = leave(game, 0, headers={"Idempotency-Key": "bye-1"})
    assert first.json()["version"] == again.json()["version"]
    other = game.api.client.post(
        f"/games/{game.id}/leave",
        json={"resign": True},
        headers=game.headers(0, {"Idempotency-Key": "bye-1"}),
    )
    assert problem(other) == (422, "idempotency_key_reused")


def test_a_leave_needs_a_player_token(api: Api) -> None:
    game = api.create(players=THREE)
    response = game.api.client.post(f"/games/{game.id}/leave", json={"resign": False})
    assert response.status_code == 401


def test_views_carry_the_turn_deadline_and_the_rules_show_the_three_options(api: Api) -> None:
    game = api.create(players=TWO, rules={"turn_seconds": 45})
    views = [game.view(who) for who in (0, 1, PUBLIC, ADMIN)]
    deadlines = {view["turn_deadline"] for view in views}
    assert len(deadlines) == 1
    (deadline,) = deadlines
    assert datetime.fromisoformat(deadline).utcoffset() is not None, "an absolute UTC time"
    assert views[0]["rules"]["turn_seconds"] == 45
    assert views[0]["rules"]["timeouts_before_takeover"] == 3
    assert views[0]["rules"]["abandon"] == "bot"


def test_a_game_without_a_clock_has_no_deadline(api: Api) -> None:
    game = api.create(players=TWO)
    view = game.view(PUBLIC)
    assert "turn_deadline" not in view
    assert view["rules"]["turn_seconds"] is None


def test_bad_leaving_rules_are_invalid_rules(api: Api) -> None:
    for rules in ({"turn_seconds": 3}, {"timeouts_before_takeover": 0}, {"abandon": "quit"}):
        response = api.client.post("/games", json={"players": TWO, "rules": rules})
        assert problem(response) == (422, "invalid_rules"), rules


def test_an_indian_forfeiter_s_hand_is_never_shown_to_the_others(api: Api) -> None:
    game = indian_game(api, abandon="forfeit")
    response = leave(game, BOB, resign=True)
    assert response.status_code == 200, response.text
    left = next(event for event in game.events(ANN) if event["type"] == "player_left")
    assert (left["seat"], left["reason"], left["drop"], left["points"]) == (
        BOB,
        "resigned",
        "first",
        20,
    )
    view = game.view(ANN)
    assert (view["status"], view["winner"]) == ("finished", ANN)
    for who in (ANN, PUBLIC):
        shown = str(game.events(who)) + str(game.view(who))
        # KD is Bob's alone: set aside face down, it is shown to nobody but the admin.
        assert "KD" not in shown
    assert "KD" in str(game.events(ADMIN))


def test_a_western_forfeiter_s_hand_is_counted_at_the_hand_s_end_but_never_shown(
    api: Api,
) -> None:
    # Ann deals; Bob moves first and goes out with his run; Cy resigns first.
    game = api.create(
        players=THREE,
        rules={"hand_size": 3, "rummy_bonus": "none", "deals": 1},
        dealer=0,
        decks=[deck(["KD QD JD", "AS 2S 3S", "KC QC 9H"], upcard="5H", stock="7D 8D")],
    )
    assert leave(game, 2, resign=True).status_code == 200
    ended = game.play(
        1,
        [draw(), {"type": "meld", "cards": ["AS", "2S", "3S"]}, {"type": "discard", "card": "7D"}],
    )
    last = ended["last_hand"]
    assert last["players"][2]["cards"] == []
    assert last["players"][1]["points"] == 30 + 29, "Bob collects Ann's 30 and Cy's 29"
    assert ended["winner"] == 1
    for who in (0, 1, PUBLIC):
        shown = str(game.events(who)) + str(game.view(who))
        assert not {"KC", "QC", "9H"} & set(_codes(shown)), who
    assert {"KC", "QC", "9H"} <= set(_codes(str(game.events(ADMIN)))), "the admin sees all"


def _codes(text: str) -> list[str]:
    """Every quoted string in `text` (a printed list of JSON values)."""
    return re.findall(r"'([^']*)'", text)
