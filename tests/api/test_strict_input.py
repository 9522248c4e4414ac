"""Strict input: what a lax reader would take in a way the client did not mean is
refused, naming what is wrong and where, and changes nothing.

- a key twice in one JSON object, at any depth;
- a field an action does not have (as creation and joining already refuse);
- an integer query parameter written other than in digits, or given twice;
- a player's name that is not printable text (control, bidi, zero-width and
  other invisible characters), a client seed with control characters.

The table (`table` of test_errors): Ann (seat 0) deals, so Bob (seat 1) moves first.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
from litestar import Litestar
from litestar.routes import HTTPRoute

from service.api.transport.queries import strict_query_parameters
from tests.api.client import ADMIN, Api, Game
from tests.api.test_errors import BOB, table
from tests.api.test_robustness import assert_problem, finished, snapshot


def post(game: Game, path: str, body: bytes, seat: int | None = None) -> httpx.Response:
    headers = game.headers(seat, {"Content-Type": "application/json"})
    return game.api.client.post(path, content=body, headers=headers)


def new_game(api: Api, body: bytes) -> httpx.Response:
    return api.client.post("/games", content=body, headers={"Content-Type": "application/json"})


def assert_action_refused(api: Api, body: bytes, place: str, says: str) -> None:
    """Bob, whose turn it is, sends `body`: a 422 naming `place`, and nothing changes."""
    game = table(api)
    before = snapshot(game)
    response = post(game, f"/games/{game.id}/actions", body, BOB)
    assert_problem(response, 422, "invalid_body")
    assert_names(response, place, says)
    assert snapshot(game) == before


def assert_names(response: httpx.Response, key: str, *words: str) -> None:
    """The problem names the place (`errors[].key`), and the detail says it."""
    problem = response.json()
    assert [error["key"] for error in problem["errors"]] == [key], problem
    for word in (key, *words):
        assert word in problem["detail"], problem


# --- a key twice ------------------------------------------------------------------------


ACTIONS_WITH_A_KEY_TWICE = [
    # Read last-wins, the first is a draw although it starts as a meld.
    (b'{"type":"meld","type":"draw","source":"stock"}', "type"),
    (b'{"type":"draw","source":"discard","source":"stock"}', "source"),
    # The same key, spelled with an escape.
    (b'{"type":"draw","source":"discard","\\u0073ource":"stock"}', "source"),
    # Inside a list of actions, with colons in strings around it.
    (b'[{"type":"draw","source":"stock"},{"type":"discard","card":"5S","card":"KD"}]', "[1].card"),
]


@pytest.mark.parametrize(("body", "place"), ACTIONS_WITH_A_KEY_TWICE)
def test_an_action_with_a_key_twice_is_refused_naming_it_and_changes_nothing(
    api: Api, body: bytes, place: str
) -> None:
    assert_action_refused(api, body, place, "more than once")


CREATIONS_WITH_A_KEY_TWICE = [
    (b'{"players":[{"name":"Ann"},{"name":"Bob"}],"seats":3,"seats":2}', "seats"),
    (b'{"players":[{"name":"Ann","name":"Eve"},{"name":"Bob"}]}', "players[0].name"),
    (
        b'{"players":[{"name":"A:n"},{"name":"Bob"}],"rules":{"aces":"low","aces":"high"}}',
        "rules.aces",
    ),
]


@pytest.mark.parametrize(("body", "place"), CREATIONS_WITH_A_KEY_TWICE)
def test_a_new_game_with_a_key_twice_is_refused_naming_it(
    api: Api, body: bytes, place: str
) -> None:
    response = new_game(api, body)
    assert_problem(response, 422, "invalid_body")
    assert_names(response, place, "more than once")


def test_a_join_with_a_key_twice_is_refused_and_takes_no_seat(api: Api) -> None:
    game = api.create(seats=2)
    before = snapshot(game)
    response = post(game, f"/games/{game.id}/players", b'{"name":"Cleo","name":"Ann"}')
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "name", "more than once")
    assert snapshot(game) == before


def test_colons_inside_strings_are_no_duplicate(api: Api) -> None:
    # The quick test counts colons: one in a name must not be taken for a key.
    body = b'{"players":[{"name":"Ann: the first"},{"name":"Bob","client_seed":"a:b:c"}]}'
    response = new_game(api, body)
    assert response.status_code == 201, response.text


# --- unknown fields ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (b'{"type":"draw","source":"stock","cards":["KD"]}', "cards"),
        (b'[{"type":"draw","source":"stock"},{"type":"discard","card":"5S","also":1}]', "[1].also"),
    ],
)
def test_an_action_with_a_field_it_does_not_have_is_refused_naming_it_and_changes_nothing(
    api: Api, body: bytes, place: str
) -> None:
    assert_action_refused(api, body, place, "unknown field")


# --- a code that is no card or rank ------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (b'{"type":"discard","card":"TS"}', "card"),
        (b'[{"type":"draw","source":"stock"},{"type":"meld","cards":["AS","ts"]}]', "[1].cards[1]"),
        (b'{"type":"meld","cards":["AS","2S","JK"],"as":["3S","10s","JK"]}', "as[1]"),
    ],
)
def test_a_card_code_that_is_none_is_refused_with_the_format_of_one(
    api: Api, body: bytes, place: str
) -> None:
    # msgspec says only "Invalid enum value 'TS'", of 53 codes.
    game = table(api)
    before = snapshot(game)
    response = post(game, f"/games/{game.id}/actions", body, BOB)
    assert_problem(response, 422, "unknown_card")
    assert_names(response, place, "is not a card code", "then the suit", "10S", "JK")
    assert snapshot(game) == before


def test_a_rank_code_that_is_none_is_refused_with_the_ranks(api: Api) -> None:
    body = b'{"players":[{"name":"Ann"},{"name":"Bob"}],"rules":{"variant":"wild","wild_rank":"T"}}'
    response = new_game(api, body)
    assert_problem(response, 422, "invalid_rules")
    assert_names(response, "rules.wild_rank", "'T' is not a rank", "A 2-10 J Q K", "10, not T")


def test_another_enumeration_keeps_msgspecs_words(api: Api) -> None:
    assert_action_refused(api, b'{"type":"draw","source":"deck"}', "source", "Invalid enum value")


def test_creation_and_joining_name_the_unknown_field_itself(api: Api) -> None:
    response = new_game(api, b'{"players":[{"name":"Ann","colour":"red"},{"name":"Bob"}]}')
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "players[0].colour", "unknown field")
    game = api.create(seats=2)
    response = post(game, f"/games/{game.id}/players", b'{"name":"Cleo","age":7}')
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "age", "unknown field")


# --- integer query parameters -------------------------------------------------------------


OPENAPI = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text(encoding="utf-8")
)
INTEGER_QUERY_PARAMETERS = sorted(
    (path, parameter["name"])
    for path, item in OPENAPI["paths"].items()
    for operation in item.values()
    if isinstance(operation, dict)
    for parameter in operation.get("parameters", [])
    if parameter["in"] == "query" and parameter["schema"].get("type") == "integer"
)
NOT_DIGITS = ["1e3", "+5", " 5", "5 ", "0x10", "\u0663", "\u00b2", "5.0", "-0", "05", "1_0", ""]


def _url(game: Game, path: str) -> str:
    return (
        path.replace("{game_id}", game.id)
        .replace("{player_ref}", "platform:player")
        .replace("{variant}", "classic")
    )


def test_the_contract_has_the_integer_query_parameters_this_file_tries() -> None:
    assert {name for _, name in INTEGER_QUERY_PARAMETERS} == {
        "after",
        "limit",
        "version",
        "players",
        "min_open",
        "seat",
    }
    # With listWebhookDeliveries' `limit`, and the recall's and the leaderboards'.
    assert len(INTEGER_QUERY_PARAMETERS) == 13


@pytest.mark.parametrize(("path", "name"), INTEGER_QUERY_PARAMETERS)
@pytest.mark.parametrize("value", NOT_DIGITS, ids=repr)
def test_an_integer_query_parameter_takes_digits_only(
    api: Api, path: str, name: str, value: str
) -> None:
    # `1e3` was read as 1000, `5.0` as 5, `-0` as 0. A finished game: a stream of it
    # ends whatever it starts from, should the value be taken.
    game = finished(api)
    response = api.client.get(_url(game, path), params={name: value}, headers=game.headers(ADMIN))
    assert_problem(response, 422, "invalid_request")
    assert_names(response, name, "digits 0-9")


@pytest.mark.parametrize(("path", "name"), INTEGER_QUERY_PARAMETERS)
def test_an_integer_query_parameter_given_twice_is_refused(api: Api, path: str, name: str) -> None:
    game = finished(api)
    query = urlencode([(name, "1"), (name, "2")])
    response = api.client.get(f"{_url(game, path)}?{query}", headers=game.headers(ADMIN))
    assert_problem(response, 422, "invalid_request")
    assert_names(response, name, "once")


def test_plain_numerals_are_taken(api: Api) -> None:
    game = table(api)
    assert len(game.events(ADMIN, after=0)) == game.view(ADMIN)["version"]
    response = game.get("/events", ADMIN, after=1, limit=10)
    assert response.status_code == 200, response.text
    events = response.json()["events"]
    assert events[0]["version"] == 2
    assert len(events) <= 10
    assert game.replay(ADMIN, 1)["version"] == 1
    feed = api.client.get("/feed", params={"after": 0, "limit": 1}, headers=game.headers(ADMIN))
    assert feed.status_code == 200, feed.text


def test_every_integer_and_boolean_query_parameter_of_the_app_is_checked(app: Litestar) -> None:
    # The check finds them by type: a new one is covered, and this says which it sees.
    types = {int: "integer", bool: "boolean"}
    checked = {
        (handler.operation_id, name, types[kind])
        for route in app.routes
        if isinstance(route, HTTPRoute)
        for handler in route.route_handlers
        for name, kind in strict_query_parameters(handler)
        if isinstance(kind, type)
    }
    documented = {
        (operation["operationId"], parameter["name"], parameter["schema"].get("type"))
        for item in OPENAPI["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and parameter["schema"].get("type") in types.values()
    }
    assert checked == documented
    assert ("streamEvents", "view", "boolean") in checked


@pytest.mark.parametrize(
    ("name", "value"),
    [("variant", "null"), ("variant", "Classic"), ("after", "null"), ("after", "")],
)
def test_null_is_no_value_of_an_enumerated_or_patterned_query_parameter(
    api: Api, name: str, value: str
) -> None:
    # litestar reads `null` as None for an optional parameter: the document's enum
    # and pattern leave it out, so the service refuses it too.
    response = api.client.get("/lobby", params={name: value})
    assert_problem(response, 422, "invalid_request")
    assert_names(response, name)


@pytest.mark.parametrize("value", ["1", "0", "TRUE", "True", "yes", "", " true"], ids=repr)
def test_a_boolean_query_parameter_takes_true_or_false_only(api: Api, value: str) -> None:
    # msgspec read `1`, `0` and `TRUE` as booleans: a client meaning something else
    # would get a stream it did not ask for.
    game = finished(api)
    response = api.client.get(_url(game, "/games/{game_id}/stream"), params={"view": value})
    assert_problem(response, 422, "invalid_request")
    assert_names(response, "view", "`true` or `false`")


def test_a_boolean_query_parameter_given_twice_is_refused(api: Api) -> None:
    game = finished(api)
    query = urlencode([("view", "true"), ("view", "false")])
    response = api.client.get(f"{_url(game, '/games/{game_id}/stream')}?{query}")
    assert_problem(response, 422, "invalid_request")
    assert_names(response, "view", "once")


# --- names and client seeds ---------------------------------------------------------------


NOT_PRINTABLE = [
    "Ann\x00",  # NUL
    "Ann\n",
    "Ann\u202egnp.exe",  # reads as "Annexe.png"
    "\u2066Ann\u2069",  # a bidi isolate
    "A\u200bnn",  # zero-width space
    "A\u200dnn",  # zero-width joiner
    "A\u200cnn",  # zero-width non-joiner
    "\ufeffAnn",  # byte order mark
    "Ann\U000e0041",  # a tag character
    "\u3164",  # Hangul filler: a blank-looking name
    "Ann\u00a0",  # no-break space
    " Ann",
    "Ann ",
    "   ",
    "A\u2060nn",  # word joiner
]


@pytest.mark.parametrize("name", NOT_PRINTABLE, ids=repr)
def test_a_new_players_name_must_be_printable(api: Api, name: str) -> None:
    response = api.client.post("/games", json={"players": [{"name": "Ann"}, {"name": name}]})
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "players[1].name", "A name must")


@pytest.mark.parametrize("name", NOT_PRINTABLE, ids=repr)
def test_a_joining_players_name_must_be_printable_and_takes_no_seat(api: Api, name: str) -> None:
    game = api.create(seats=2)
    before = snapshot(game)
    response = api.client.post(f"/games/{game.id}/players", json={"name": name})
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "name", "A name must")
    assert snapshot(game) == before


def test_names_of_every_script_with_symbols_are_taken(api: Api) -> None:
    names = ['Zoë "Z"', "名前", "محمد", "O'Brien-Smith", "🂡 Ace", "❤\ufe0f"]
    game = api.create(seats=len(names))
    for name in names:
        assert game.join(name)["seat"] >= 0
    assert [seat["name"] for seat in game.view()["players"]] == names


def test_a_client_seed_holds_no_control_characters(api: Api) -> None:
    body = {"players": [{"name": "Ann", "client_seed": "seed\x00"}, {"name": "Bob"}]}
    response = api.client.post("/games", json=body)
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "players[0].client_seed", "U+0000")
    game = api.create(seats=2)
    response = api.client.post(
        f"/games/{game.id}/players", json={"name": "Cleo", "client_seed": "a\nb"}
    )
    assert_problem(response, 422, "invalid_body")
    assert_names(response, "client_seed", "control characters")
    # Anything else is entropy: spaces, symbols, any script.
    assert game.join("Cleo", client_seed=" ∑ 名前 \u202e ")["seat"] == 0
