"""What a client can send beyond the schema: headers and bodies that schemathesis
does not reach. Each must be refused as a documented problem (never a 500) and
change nothing.

Headers go through `send_raw`, not the TestClient: the TestClient joins repeated
headers into one and re-encodes values as UTF-8, where a server (uvicorn) hands
the application every header line as the bytes that came.

The table (`table` of test_errors): Ann (seat 0) deals, so Bob (seat 1) moves first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import httpx
import msgspec
import pytest
from litestar import Litestar
from litestar.routes import HTTPRoute

from service.api.app import check_request
from service.api.transport.headers import SINGLE_VALUE_HEADERS
from tests.api.client import ADMIN, ADMIN_TOKEN, Api, Game, Json, draw, meld
from tests.api.test_errors import ANN, BOB, table

Headers = Sequence[tuple[str, str | bytes]]


def send_raw(
    app: Litestar, method: str, path: str, headers: Headers, content: bytes = b""
) -> httpx.Response:
    """One request to `app` with exactly these header lines, as a server passes them."""

    lines = [
        (name.encode("latin-1"), value if isinstance(value, bytes) else value.encode("latin-1"))
        for name, value in headers
    ]

    async def send() -> httpx.Response:
        # litestar's ASGI types are narrower TypedDicts than httpx's mappings.
        transport = httpx.ASGITransport(app=cast(Any, app))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            response = await client.request(method, path, headers=lines, content=content)
            await response.aread()
            return response

    return asyncio.run(send())


def bearer(game: Game, seat: int) -> tuple[str, str]:
    return ("Authorization", f"Bearer {game.tokens[seat]}")


def finished(api: Api) -> Game:
    """A game over in one move: a stream of it ends, whatever it is asked to resume
    from (a test of the stream never hangs, even if the header is misread)."""
    game = table(api, {"hand_size": 2, "target": 1}, ("KS QS", "2H 3H"), upcard="9D", stock="4H")
    assert game.play(BOB, [draw(), meld("2H 3H 4H")])["status"] == "finished"
    return game


def assert_problem(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert (problem["status"], problem["code"], problem["type"]) == (
        status,
        code,
        f"/problems/{code}",
    )
    assert problem["detail"]


def snapshot(game: Game) -> tuple[Json, list[Json]]:
    return game.view(ADMIN), game.events(ADMIN)


# --- Last-Event-ID ------------------------------------------------------------------


@pytest.mark.parametrize("raw", [b"\xb2", b"\xb3", b"\xb9", b"1\xb2"])
def test_a_last_event_id_of_latin1_superscript_digits_is_refused_not_a_crash(
    app: Litestar, api: Api, raw: bytes
) -> None:
    # Read as latin-1, these bytes are "²", "³", "¹": str.isdigit says yes, int says no.
    game = finished(api)
    response = send_raw(app, "GET", f"/games/{game.id}/stream", [("Last-Event-ID", raw)])
    assert_problem(response, 422, "invalid_request")


# --- bodies nested deeper than any action ---------------------------------------------


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    ("shape", "depth"),
    [
        *[(shape, depth) for shape in ("actions", "create", "join") for depth in (600, 10_000)],
        # An unknown field is refused anyway; past msgspec's own depth limit the
        # body is refused before any field is looked at.
        ("action_with_an_unknown_field", 10_000),
    ],
)
def test_a_deeply_nested_json_body_is_refused_not_a_crash(api: Api, depth: int, shape: str) -> None:
    game = table(api)
    before = snapshot(game)
    nested = _nested(depth)
    path, body = {
        "actions": (f"/games/{game.id}/actions", nested),
        "action_with_an_unknown_field": (
            f"/games/{game.id}/actions",
            b'{"type":"draw","source":"stock","x":' + nested + b"}",
        ),
        "create": ("/games", b'{"seats":2,"x":' + nested + b"}"),
        "join": (f"/games/{game.id}/players", b'{"name":"Cleo","x":' + nested + b"}"),
    }[shape]
    headers = {**game.headers(BOB), "Content-Type": "application/json"}
    response = api.client.post(path, content=body, headers=headers)
    assert_problem(response, 422, "invalid_body")
    assert snapshot(game) == before


# --- a header that may be sent once, sent twice ----------------------------------------


def test_two_authorization_headers_are_refused_for_reading(app: Litestar, api: Api) -> None:
    # Which of two tokens a request speaks for must not depend on which line a proxy
    # or the framework happens to read: Ann's hand must not come back to Bob.
    game = table(api)
    for first, second in ((ANN, BOB), (BOB, ANN)):
        headers = [bearer(game, first), bearer(game, second)]
        for path in ("", "/events", "/replay?version=1", "/audit"):
            response = send_raw(app, "GET", f"/games/{game.id}{path}", headers)
            assert_problem(response, 401, "unauthorized")
            assert response.headers["www-authenticate"].startswith("Bearer")


def test_two_authorization_headers_are_refused_for_acting_and_change_nothing(
    app: Litestar, api: Api
) -> None:
    game = table(api)
    before = snapshot(game)
    for first, second in ((BOB, ANN), (ANN, BOB)):
        headers = [bearer(game, first), bearer(game, second), ("Content-Type", "application/json")]
        path = f"/games/{game.id}/actions"
        response = send_raw(app, "POST", path, headers, msgspec.json.encode(draw()))
        assert_problem(response, 401, "unauthorized")
    assert snapshot(game) == before


def test_two_authorization_headers_are_refused_on_the_feed(app: Litestar, api: Api) -> None:
    game = table(api)
    headers = [("Authorization", f"Bearer {ADMIN_TOKEN}"), bearer(game, BOB)]
    assert_problem(send_raw(app, "GET", "/feed", headers), 401, "unauthorized")


def test_two_if_match_headers_are_refused_like_a_list_and_change_nothing(
    app: Litestar, api: Api
) -> None:
    game = table(api)
    before = snapshot(game)
    version = before[0]["version"]
    for values in ((f'"{version}"', '"1"'), ('"1"', f'"{version}"')):
        headers: list[tuple[str, str | bytes]] = [bearer(game, BOB)]
        headers += [("If-Match", value) for value in values]
        path = f"/games/{game.id}/actions"
        response = send_raw(app, "POST", path, headers, msgspec.json.encode(draw()))
        assert_problem(response, 422, "invalid_if_match")
    assert snapshot(game) == before


def test_two_idempotency_keys_are_refused_and_change_nothing(app: Litestar, api: Api) -> None:
    game = table(api)
    before = snapshot(game)
    headers = [bearer(game, BOB), ("Idempotency-Key", "first"), ("Idempotency-Key", "second")]
    path = f"/games/{game.id}/actions"
    response = send_raw(app, "POST", path, headers, msgspec.json.encode(draw()))
    assert_problem(response, 422, "invalid_request")
    assert snapshot(game) == before
    # Neither key was used up: each alone is a new request.
    assert game.act(BOB, draw(), {"Idempotency-Key": "first"}).status_code == 200


def test_two_last_event_ids_are_refused(app: Litestar, api: Api) -> None:
    game = finished(api)
    headers = [("Last-Event-ID", "1"), ("Last-Event-ID", "2")]
    response = send_raw(app, "GET", f"/games/{game.id}/stream", headers)
    assert_problem(response, 422, "invalid_request")


def test_one_header_of_each_still_works(app: Litestar, api: Api) -> None:
    game = table(api)
    version = game.view(ADMIN)["version"]
    headers = [
        bearer(game, BOB),
        ("If-Match", f'"{version}"'),
        ("Idempotency-Key", "once"),
        ("Content-Type", "application/json"),
    ]
    path = f"/games/{game.id}/actions"
    response = send_raw(app, "POST", path, headers, msgspec.json.encode(draw()))
    assert response.status_code == 200, response.text
    # Headers that may repeat are not affected, nor routes that read no token.
    repeated = [bearer(game, ANN), ("Accept", "application/json"), ("Accept", "*/*")]
    assert send_raw(app, "GET", f"/games/{game.id}", repeated).status_code == 200
    two_tokens = [bearer(game, ANN), bearer(game, BOB)]
    assert send_raw(app, "GET", "/health", two_tokens).status_code == 200


def test_the_same_line_twice_says_one_thing_and_is_taken(app: Litestar, api: Api) -> None:
    game = table(api)
    twice = [bearer(game, BOB), bearer(game, BOB), ("Content-Type", "application/json")]
    path = f"/games/{game.id}/actions"
    response = send_raw(app, "POST", path, twice, msgspec.json.encode(draw()))
    assert response.status_code == 200, response.text


def test_every_route_runs_the_request_checks(app: Litestar) -> None:
    # litestar runs only the closest layer's before_request: a controller's own hook
    # would silently drop the header and body checks for its routes.
    handlers = [
        handler
        for route in app.routes
        if isinstance(route, HTTPRoute)
        for handler in route.route_handlers
    ]
    assert len(handlers) > 10
    for handler in handlers:
        assert handler.resolve_before_request() is check_request, handler


def test_every_single_value_header_is_read_by_a_handler_under_its_name(app: Litestar) -> None:
    # A renamed parameter would otherwise turn its header's check off unnoticed.
    read = {
        parameter
        for route in app.routes
        if isinstance(route, HTTPRoute)
        for handler in route.route_handlers
        for parameter in handler.parsed_fn_signature.parameters
    }
    for header, parameter in SINGLE_VALUE_HEADERS.values():
        assert parameter in read, header
