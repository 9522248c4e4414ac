"""HTTP conventions a client meets (docs/api.md, "HTTP conventions"): `Location` on
201, conditional GETs (`If-None-Match` → 304), and CORS that lets a browser read
what it needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.api import games as games_api
from service.bootstrap import bootstrap
from service.config import Settings, Store
from service.game.application import RummyApplication
from tests.api.client import ADMIN, ADMIN_TOKEN, PUBLIC, Api, Game, Who, draw, tag
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
    monkeypatch.setattr(games_api, "game_view", unused)
    monkeypatch.setattr(RummyApplication, "events_after", unused)
    monkeypatch.setattr(RummyApplication, "state", now_only)

    assert conditional(game, "", BOB, tags[""]).status_code == 304
    assert conditional(game, "/events", BOB, tags["/events"], after=0).status_code == 304
    assert conditional(game, "/replay", BOB, tags["/replay"], version=2).status_code == 304


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
