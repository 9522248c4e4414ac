"""HTTP conventions a client meets (docs/api.md, "HTTP conventions"): `Location` on
201, conditional GETs (`If-None-Match` → 304), `Idempotency-Key` on creating and
joining, and CORS that lets a browser read what it needs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import bootstrap
from service.config import Settings, Store
from service.game.application import RummyApplication
from service.projections import shared as shared_views
from tests.api.client import ADMIN, ADMIN_TOKEN, PUBLIC, Api, Game, Who, draw, tag
from tests.game.stores import StoreUnderTest
from tests.rates import NO_RATE_LIMITS

TWO = [{"name": "Ann"}, {"name": "Bob"}]
KEY = "0b9e4a5c-1f2d-4e6b-8a7c-9d3e2f1a0b4c"
ANN, BOB = 0, 1


def keyed(key: str = KEY) -> dict[str, str]:
    return {"Idempotency-Key": key}


# --- Location -----------------------------------------------------------------------


def test_a_created_game_is_at_its_location(api: Api) -> None:
    created = api.client.post("/games", json={"players": TWO})
    body = created.json()

    location = created.headers["location"]
    shown = api.client.get(urljoin(str(created.url), location))

    assert created.status_code == 201
    assert location == f"/games/{body['game_id']}"
    assert shown.status_code == 200
    assert shown.json()["game_id"] == body["game_id"]
    assert shown.headers["etag"] == created.headers["etag"] == tag(body["version"])


def test_a_joined_player_reads_its_own_view_at_the_location(api: Api) -> None:
    game = api.create(players=TWO[:1], seats=3)
    joined = api.client.post(f"/games/{game.id}/players", json={"name": "Cleo"})
    body = joined.json()

    auth = {"Authorization": f"Bearer {body['token']}"}
    shown = api.client.get(urljoin(str(joined.url), joined.headers["location"]), headers=auth)

    assert joined.status_code == 201
    assert joined.headers["location"] == f"/games/{game.id}"
    assert shown.json()["my_seat"] == body["seat"]
    assert shown.headers["etag"] == joined.headers["etag"] == tag(body["version"], body["seat"])


# --- If-None-Match ------------------------------------------------------------------


def conditional(game: Game, path: str, who: Who, etag: str, **params: Any) -> httpx.Response:
    headers = game.headers(who, {"If-None-Match": etag})
    return game.api.client.get(f"/games/{game.id}{path}", headers=headers, params=params)


RESOURCES = [
    pytest.param("", {}, id="view"),
    pytest.param("/events", {"after": 0}, id="events"),
    pytest.param("/events", {"after": 1, "limit": 2}, id="events-page"),
    pytest.param("/replay", {"version": 1}, id="replay"),
]


@pytest.mark.parametrize(("path", "params"), RESOURCES)
@pytest.mark.parametrize("who", [PUBLIC, ANN, BOB, ADMIN])
def test_an_unchanged_resource_is_answered_304_with_its_etag_and_no_body(
    api: Api, path: str, params: dict[str, int], who: Who
) -> None:
    game = api.create(players=TWO, dealer=ANN)
    first = game.get(path, who, **params)

    again = conditional(game, path, who, first.headers["etag"], **params)

    assert first.status_code == 200
    assert again.status_code == 304
    assert again.headers["etag"] == first.headers["etag"]
    assert again.content == b""


@pytest.mark.parametrize(("path", "params"), RESOURCES)
def test_another_callers_etag_gets_the_whole_answer(
    api: Api, path: str, params: dict[str, int]
) -> None:
    game = api.create(players=TWO, dealer=ANN)
    shown = {who: game.get(path, who, **params) for who in (PUBLIC, ANN, BOB, ADMIN)}

    for who, response in shown.items():
        for other, seen in shown.items():
            again = conditional(game, path, who, seen.headers["etag"], **params)
            assert again.status_code == (304 if other == who else 200), (who, other)
            if other != who:
                assert again.content == response.content


def test_a_view_or_page_the_game_moved_past_is_answered_in_full(api: Api) -> None:
    game = api.create(players=TWO, dealer=ANN)
    view, page = game.get("", BOB), game.get("/events", BOB, after=0)
    replay = game.get("/replay", BOB, version=2)
    game.play(BOB, draw())

    new_view = conditional(game, "", BOB, view.headers["etag"])
    new_page = conditional(game, "/events", BOB, page.headers["etag"], after=0)
    old_replay = conditional(game, "/replay", BOB, replay.headers["etag"], version=2)

    assert (new_view.status_code, new_view.json()["version"]) == (200, 3)
    assert new_view.headers["etag"] == tag(3, BOB)
    assert (new_page.status_code, new_page.json()["events"][-1]["type"]) == (200, "card_drawn")
    assert old_replay.status_code == 304, "a version reached never changes"


def test_the_page_size_is_part_of_an_events_pages_etag(api: Api) -> None:
    game = api.create(players=TWO, dealer=ANN)
    whole = game.get("/events", PUBLIC, after=0)
    short = game.get("/events", PUBLIC, after=0, limit=1)

    assert whole.headers["etag"] == tag(2, after=0)
    assert short.headers["etag"] == tag(2, after=0, size=1)
    assert conditional(game, "/events", PUBLIC, whole.headers["etag"], after=0, limit=1).json()[
        "more"
    ]


@pytest.mark.parametrize(
    "if_none_match",
    [
        "*",
        '"1", "2"',
        'W/"2"',
        ' "x" ,, W/"2" ',
        '"a,b", "2"',
    ],
)
def test_if_none_match_takes_a_star_or_a_list_of_tags_compared_weakly(
    api: Api, if_none_match: str
) -> None:
    game = api.create(players=TWO)

    assert conditional(game, "", PUBLIC, if_none_match).status_code == 304


def test_if_none_match_on_several_lines_is_one_list(api: Api) -> None:
    game = api.create(players=TWO)
    headers = [("If-None-Match", '"1"'), ("If-None-Match", '"2"')]

    response = api.client.get(f"/games/{game.id}", headers=headers)

    assert response.status_code == 304


@pytest.mark.parametrize("if_none_match", ['"2', "2", 'W/"2"x', '"2" "3"', 'w/"2"', "**"])
def test_a_malformed_if_none_match_is_refused(api: Api, if_none_match: str) -> None:
    game = api.create(players=TWO)

    response = conditional(game, "", PUBLIC, if_none_match)

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"
    assert "If-None-Match" in response.json()["detail"]


def test_a_precondition_is_evaluated_only_for_a_request_that_would_succeed(api: Api) -> None:
    game = api.create(players=TWO)
    other = api.create(players=TWO)
    missing = "/games/00000000-0000-4000-8000-000000000000"

    assert api.client.get(missing, headers={"If-None-Match": "*"}).status_code == 404
    wrong_token = {"If-None-Match": "*", "Authorization": f"Bearer {other.tokens[ANN]}"}
    assert api.client.get(f"/games/{game.id}", headers=wrong_token).status_code == 403
    past = conditional(game, "/replay", PUBLIC, '"9"', version=9)
    assert (past.status_code, past.json()["code"]) == (404, "version_not_found")
    # The same precondition, on the request that succeeds, holds.
    assert api.client.get(f"/games/{game.id}", headers={"If-None-Match": "*"}).status_code == 304


def test_a_304_builds_no_view_reads_no_events_and_rebuilds_no_version(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = api.create(players=TWO, dealer=ANN)
    game.play(BOB, draw())
    tags = {
        path: game.get(path, BOB, **params).headers["etag"]
        for path, params in (("", {}), ("/events", {"after": 0}), ("/replay", {"version": 2}))
    }

    def unused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a 304 needs only the version and the caller")

    def now_only(games: RummyApplication, game_id: Any, version: int | None = None) -> Any:
        return unused() if version is not None else state(games, game_id)

    state = RummyApplication.state
    monkeypatch.setattr(shared_views, "game_view", unused)
    monkeypatch.setattr(RummyApplication, "events_after", unused)
    monkeypatch.setattr(RummyApplication, "state", now_only)

    assert conditional(game, "", BOB, tags[""]).status_code == 304
    assert conditional(game, "/events", BOB, tags["/events"], after=0).status_code == 304
    assert conditional(game, "/replay", BOB, tags["/replay"], version=2).status_code == 304


# --- Idempotency-Key on creating and joining ---------------------------------------


def test_the_same_creation_twice_answers_alike_and_makes_one_game(api: Api) -> None:
    body = {"players": TWO, "rules": {"target": 50}}
    first = api.client.post("/games", json=body, headers=keyed())

    again = api.client.post("/games", json=body, headers=keyed())

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    for header in ("etag", "location"):
        assert again.headers[header] == first.headers[header]


def test_a_creation_key_with_another_body_is_422(api: Api) -> None:
    api.client.post("/games", json={"players": TWO}, headers=keyed())

    again = api.client.post("/games", json={"seats": 3}, headers=keyed())

    assert again.status_code == 422
    assert again.json()["code"] == "idempotency_key_reused"


def test_two_identical_joins_with_one_key_take_one_seat(api: Api) -> None:
    game = api.create(players=TWO[:1], seats=3)
    url = f"/games/{game.id}/players"

    first = api.client.post(url, json={"name": "Cleo"}, headers=keyed())
    again = api.client.post(url, json={"name": "Cleo"}, headers=keyed())
    other = api.client.post(url, json={"name": "Dan"}, headers=keyed())

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again.headers["etag"] == first.headers["etag"]
    assert [player["name"] for player in game.view()["players"]] == ["Ann", "Cleo", None]
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")


@pytest.mark.parametrize("path", ["/games", "/games/{game_id}/players"])
def test_a_creation_or_join_key_must_be_long_enough_to_be_a_secret(api: Api, path: str) -> None:
    game = api.create(seats=2)
    body = {"name": "Cleo"} if "players" in path else {"players": TWO}

    response = api.client.post(path.format(game_id=game.id), json=body, headers=keyed("k" * 15))

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"
    assert api.client.post(
        path.format(game_id=game.id), json=body, headers=keyed("k" * 16)
    ).is_success


@pytest.fixture
def replicas(shared_store: StoreUnderTest) -> Iterator[tuple[TestClient[Litestar], ...]]:
    """Two instances of the service on one store (SQLite, PostgreSQL)."""
    settings = replace(shared_store.settings, **NO_RATE_LIMITS)
    with (
        TestClient(shared_store.bootstrap(settings).app) as one,
        TestClient(shared_store.bootstrap(settings).app) as other,
    ):
        yield one, other


def test_a_creation_and_a_join_are_answered_alike_by_another_instance(
    replicas: tuple[TestClient[Litestar], ...],
) -> None:
    one, other = replicas
    created = one.post("/games", json={"players": TWO[:1], "seats": 3}, headers=keyed())
    url = f"/games/{created.json()['game_id']}/players"
    joined = one.post(url, json={"name": "Cleo"}, headers=keyed(KEY + "-join"))

    created_again = other.post("/games", json={"players": TWO[:1], "seats": 3}, headers=keyed())
    joined_again = other.post(url, json={"name": "Cleo"}, headers=keyed(KEY + "-join"))
    refused = other.post(url, json={"name": "Dan"}, headers=keyed(KEY + "-join"))

    assert created_again.status_code == joined_again.status_code == 201
    assert created_again.json() == created.json()
    assert joined_again.json() == joined.json()
    assert refused.json()["code"] == "idempotency_key_reused"
    view = other.get(f"/games/{created.json()['game_id']}").json()
    assert [player["name"] for player in view["players"]] == ["Ann", "Cleo", None]


# --- CORS ---------------------------------------------------------------------------

ORIGIN = "https://play.example.com"


@pytest.fixture
def browser() -> Iterator[TestClient[Litestar]]:
    settings = Settings(
        store=Store.MEMORY, cors_origins=(ORIGIN,), admin_token=ADMIN_TOKEN, **NO_RATE_LIMITS
    )
    with TestClient(bootstrap(settings).app) as client:
        yield client


def test_a_browser_may_send_the_conditional_and_retry_headers(
    browser: TestClient[Litestar],
) -> None:
    asked = "authorization, idempotency-key, if-match, if-none-match, last-event-id, x-request-id"

    preflight = browser.options(
        "/games",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": asked,
        },
    )

    assert preflight.status_code in (200, 204)
    allowed = {
        name.strip().lower()
        for name in preflight.headers["access-control-allow-headers"].split(",")
    }
    assert set(asked.split(", ")) <= allowed


def test_a_browser_may_read_the_etag_location_retry_after_and_request_id(
    browser: TestClient[Litestar],
) -> None:
    created = browser.post("/games", json={"players": TWO}, headers={"Origin": ORIGIN})

    exposed = {
        name.strip().lower() for name in created.headers["access-control-expose-headers"].split(",")
    }

    assert created.status_code == 201
    assert {"etag", "location", "retry-after", "x-request-id"} <= exposed
    for name in ("etag", "location", "x-request-id"):
        assert created.headers[name]
