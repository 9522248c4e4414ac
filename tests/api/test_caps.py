"""The caps on a game's length over HTTP (docs/rules.md "Caps", docs/api.md): a new
game over a cap is 422 `invalid_rules` naming the option; a game that reaches one
ends as `game_aborted` (`by: "cap"`), with `status` `aborted` and no winner, and
then refuses moves, joins and leaves (409 `game_over`) while its audit export is
anyone's, seed and all."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from service.api.transport.metrics import Metrics
from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from tests.api.client import ADMIN, PUBLIC, Api, Game, draw
from tests.api.test_indian import problem

TWO = [{"name": "Ann"}, {"name": "Bob"}]


def _over_caps() -> list[Any]:
    """One case per variant and capped option: the variant's cap, plus one."""
    cases = []
    for variant, preset in VARIANTS.items():
        for option, (_, high) in preset.caps.items():
            rules: dict[str, Any] = {"variant": variant.value, option: high + 1}
            if option == "deals" and variant is not Variant.INDIAN:
                rules["target"] = None
            if variant is Variant.INDIAN and option == "deals":
                rules["format"] = "deals"
            # Three seats, or fewer where the variant seats fewer (Boathouse, Gin: 2).
            players = min(3, preset.players[1])
            cases.append(pytest.param(rules, players, option, id=f"{variant.value}-{option}"))
    return cases


@pytest.mark.parametrize(("rules", "players", "option"), _over_caps())
def test_a_new_game_over_a_cap_is_refused_naming_the_option(
    api: Api, rules: dict[str, Any], players: int, option: str
) -> None:
    response = api.client.post(
        "/games", json={"players": TWO[:1], "seats": players, "rules": rules}
    )
    assert problem(response) == (422, "invalid_rules"), response.text
    assert option in response.json()["detail"]


def test_a_new_game_at_its_caps_is_made_and_shows_them(api: Api) -> None:
    preset = VARIANTS[Variant.CLASSIC]
    rules = {name: high for name, (_, high) in preset.caps.items() if name != "deals"}
    game = api.create(players=TWO, rules=rules)
    shown = game.view(PUBLIC)["rules"]
    assert {name: shown[name] for name in rules} == rules


def test_a_new_game_is_given_the_default_caps(api: Api) -> None:
    shown = api.create(players=TWO).view(PUBLIC)["rules"]
    assert (shown["max_hands"], shown["max_events"]) == (200, 20_000)


def _play_to_the_cap(game: Game) -> Any:
    """Two turns of a draw and a discard: `max_turns` 2 ends the hand, and `max_hands`
    1 leaves no other to deal."""
    for _ in range(2):
        seat = game.view(PUBLIC)["turn"]
        hand = game.play(seat, draw())["my_hand"]
        view = game.play(seat, {"type": "discard", "card": hand[0]})
    return view


def test_a_game_at_its_last_hand_without_a_winner_is_aborted(api: Api) -> None:
    game = api.create(
        players=TWO, rules={"deals": 2, "target": None, "max_hands": 1, "max_turns": 2}
    )
    view = _play_to_the_cap(game)

    assert (view["status"], view["winner"], view["turn"]) == ("aborted", None, None)
    assert view["legal"] is None or not any(view["legal"].values())
    events = game.events(PUBLIC)
    assert [event["type"] for event in events[-2:]] == ["hand_ended", "game_aborted"]
    aborted = events[-1]
    assert aborted["by"] == "cap"
    assert aborted["reason"].startswith("max_hands")
    assert "seat" not in aborted, "the system's event"
    assert events[-2]["how"] == "turn_cap", "max_turns ends the hand (docs/rules.md)"
    assert not [event for event in events if event["type"] == "hand_dealt"][1:]


def test_an_aborted_game_refuses_moves_joins_and_leaves(api: Api) -> None:
    game = api.create(
        players=TWO, rules={"deals": 2, "target": None, "max_hands": 1, "max_turns": 2}
    )
    _play_to_the_cap(game)

    for seat in (0, 1):
        assert problem(game.act(seat, draw())) == (409, "game_over")
        left = api.client.post(
            f"/games/{game.id}/leave", json={"resign": True}, headers=game.headers(seat)
        )
        assert problem(left) == (409, "game_over")
    joined = api.client.post(f"/games/{game.id}/players", json={"name": "Cy"})
    assert problem(joined) == (409, "game_over")


def test_an_aborted_game_s_stream_is_over_and_the_abort_is_counted(api: Api) -> None:
    metrics = Metrics()
    game = api.create(
        players=TWO, rules={"deals": 2, "target": None, "max_hands": 1, "max_turns": 2}
    )
    _play_to_the_cap(game)
    version = game.view(PUBLIC)["version"]

    assert game.get("/stream", PUBLIC, after=version).status_code == 204
    metrics.saved([SimpleNamespace(event_type=event["type"]) for event in game.events(PUBLIC)])
    assert metrics.registry.get_sample_value("rummy_games_aborted_total") == 1
    assert metrics.registry.get_sample_value("rummy_games_finished_total") == 0


def test_an_aborted_game_s_export_is_public_with_its_seed(api: Api) -> None:
    game = api.create(
        players=TWO, rules={"deals": 2, "target": None, "max_hands": 1, "max_turns": 2}
    )
    played = api.create(players=TWO)
    assert game.get("/audit", PUBLIC).status_code == 401, "in play: the admin's"
    _play_to_the_cap(game)

    response = game.get("/audit", PUBLIC)

    assert response.status_code == 200, response.text
    export = response.json()
    assert (export["status"], export["winner"]) == ("aborted", None)
    assert isinstance(export["seed"], str)
    assert export["events"][-1]["type"] == "game_aborted"
    assert played.get("/audit", PUBLIC).status_code == 401
    assert played.get("/audit", ADMIN).json()["seed"] is None


def test_the_document_names_the_aborted_status_the_event_and_the_caps(api: Api) -> None:
    document = api.client.get("/schema/openapi.json").json()
    schemas = document["components"]["schemas"]
    status = schemas["GameView"]["properties"]["status"]["$ref"].rsplit("/", 1)[-1]
    assert "aborted" in schemas[status]["enum"]
    aborted = schemas["GameAbortedView"]
    assert {"by", "reason"} <= set(aborted["required"])
    assert "game_aborted" in schemas["KnownEvent"]["discriminator"]["mapping"]
    for variant, preset in VARIANTS.items():
        properties = schemas[f"{variant.value.capitalize()}Rules"]["properties"]
        for option, (low, high) in preset.caps.items():
            bounds = properties[option]["anyOf"][0]
            assert (bounds["minimum"], bounds["maximum"]) == (low, high), (variant, option)


def test_an_aborted_game_s_replay_shows_anyone_any_seat(api: Api) -> None:
    game = api.create(
        players=TWO, rules={"deals": 2, "target": None, "max_hands": 1, "max_turns": 2}
    )
    dealt = 2  # created, then dealt
    assert game.get("/replay", PUBLIC, version=dealt, seat=1).status_code == 401, "in play"
    _play_to_the_cap(game)

    for seat in (0, 1):
        answer = game.get("/replay", PUBLIC, version=dealt, seat=seat)
        assert answer.status_code == 200, answer.text
        assert answer.json()["my_seat"] == seat
        assert len(answer.json()["my_hand"]) == answer.json()["players"][seat]["hand_count"]
