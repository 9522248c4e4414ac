"""`POST /games/{game_id}/abort` (docs/api.md): the admin ends a game void; the
seed of every hand dealt is revealed, the export is anyone's and verifies; who
may ask, and what is refused."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from service.audit.verify import Outcome, verify_export
from service.domain.state import ABORT_REASON_LENGTH
from tests.api.client import ADMIN, PUBLIC, Api, Game, Json, discard, draw
from tests.api.test_fair_deals import refused
from tests.audit_stream.test_tampering import failure, rechain
from tests.fairness_oracle import chain_of

TWO = [{"name": "Ann"}, {"name": "Bob"}]
RULES = {"deals": 3, "exhausted": "score"}


def abort(game: Game, body: Any, who: Any = ADMIN) -> httpx.Response:
    response = game.api.client.post(f"/games/{game.id}/abort", json=body, headers=game.headers(who))
    game.log.append(response)
    return response


def one_turn(game: Game) -> None:
    seat = game.view(ADMIN)["turn"]
    legal = game.view(seat)["legal"]
    game.play(seat, draw(legal["draw"][0]))
    game.play(seat, discard(game.view(seat)["legal"]["discard"][0]))


def test_an_abort_ends_the_game_void_and_reveals_the_seed_of_the_hand_dealt(api: Api) -> None:
    game = api.create(players=TWO, rules=RULES)
    one_turn(game)
    assert game.view(PUBLIC)["hand_seeds"] == []  # hand 1 is in play: its seed is secret

    response = abort(game, {"reason": "the table caught fire"})

    assert response.status_code == 200, response.text
    view: Json = response.json()
    assert (view["status"], view["winner"]) == ("aborted", None)
    events = game.events(PUBLIC)
    assert events[-1] | {"version": 0, "at": "", "chain": ""} == {
        "type": "game_aborted",
        "version": 0,
        "at": "",
        "chain": "",
        "by": "admin",
        "reason": "the table caught fire",
    }
    export = game.get("/audit", PUBLIC).json()
    chain = chain_of(export["seed"], export["events"][0]["data"]["rules"])
    assert game.view(PUBLIC)["hand_seeds"] == chain[:1]
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    assert verdict.winner is None


def test_a_finished_or_aborted_game_is_refused_with_game_over(api: Api) -> None:
    game = api.create(players=TWO, rules=RULES)
    assert abort(game, {"reason": "first"}).status_code == 200
    refused(abort(game, {"reason": "again"}), 409, "game_over")


def test_a_waiting_game_may_be_aborted_and_has_no_hand_seed(api: Api) -> None:
    game = api.create(seats=2, players=[{"name": "Ann"}], rules=RULES)
    assert abort(game, {"reason": "nobody came"}).status_code == 200
    assert game.view(PUBLIC)["hand_seeds"] == []
    assert verify_export(game.get("/audit", PUBLIC).json()).outcome is Outcome.VERIFIED


@pytest.mark.parametrize(
    ("who", "status"),
    [(PUBLIC, 401), (0, 403)],
    ids=["no token", "a player's token"],
)
def test_only_the_admin_may_abort(api: Api, who: Any, status: int) -> None:
    game = api.create(players=TWO, rules=RULES)
    response = abort(game, {"reason": "mine"}, who)
    assert response.status_code == status, response.text
    assert game.view(PUBLIC)["status"] == "playing"


@pytest.mark.parametrize(
    "body",
    [{}, {"reason": ""}, {"reason": "x" * (ABORT_REASON_LENGTH + 1)}, {"reason": 7}],
    ids=["missing", "empty", "too long", "not a string"],
)
def test_a_reason_is_required(api: Api, body: Json) -> None:
    game = api.create(players=TWO, rules=RULES)
    response = abort(game, body)
    assert response.status_code == 422, response.text
    assert "reason" in response.text
    assert game.view(PUBLIC)["status"] == "playing"


def test_a_reason_of_the_longest_length_is_taken(api: Api) -> None:
    game = api.create(players=TWO, rules=RULES)
    assert abort(game, {"reason": "x" * ABORT_REASON_LENGTH}).status_code == 200


@pytest.fixture
def aborted_export(api: Api) -> Json:
    game = api.create(players=TWO, rules=RULES)
    one_turn(game)
    assert abort(game, {"reason": "incident"}).status_code == 200
    export: Json = game.get("/audit", PUBLIC).json()
    return export


def test_an_abort_said_to_be_a_caps_is_named(aborted_export: Json) -> None:
    export = copy.deepcopy(aborted_export)
    export["events"][-1]["data"]["by"] = "cap"
    found = failure(rechain(export))
    assert found.position == len(export["events"])
    assert "no cap of the rules is reached" in found.message


def test_an_abort_without_a_reason_is_named(aborted_export: Json) -> None:
    export = copy.deepcopy(aborted_export)
    export["events"][-1]["data"]["reason"] = ""
    found = failure(rechain(export))
    assert found.position == len(export["events"])
    assert "gives a reason" in found.message


def test_an_abort_after_the_end_is_named(aborted_export: Json) -> None:
    export = copy.deepcopy(aborted_export)
    export["events"].append(copy.deepcopy(export["events"][-1]))
    found = failure(rechain(export))
    assert found.position == len(export["events"])
    assert "game_aborted cannot happen here" in found.message


def test_an_abort_cut_from_the_log_leaves_the_seed_revealed_too_soon(aborted_export: Json) -> None:
    export = copy.deepcopy(aborted_export)
    export["events"].pop()
    found = failure(rechain(export))
    assert found.field is not None
