"""`GET /lobby`: the listed games with open seats, nothing private, stable paging."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring, bootstrap
from service.config import Settings, Store
from service.game.tokens import hash_token
from tests.api.client import ADMIN_TOKEN
from tests.apps import bootstrap_test_app
from tests.rates import NO_RATE_LIMITS
from tests.servers import serve


@pytest.fixture
def lobby_client() -> Iterator[TestClient[Litestar]]:
    """A service of its own: the lobby lists every game of its store."""
    with TestClient(bootstrap_test_app(admin_token=ADMIN_TOKEN).app) as client:
        yield client


def _pages(client: Any, **query: Any) -> list[dict[str, Any]]:
    """Every page of the lobby, following `next`."""
    pages = []
    params = dict(query)
    while True:
        response = client.get("/lobby", params=params)
        assert response.status_code == 200, response.text
        pages.append(response.json())
        if pages[-1]["next"] is None:
            return pages
        params["after"] = pages[-1]["next"]


def _ids(pages: list[dict[str, Any]]) -> list[str]:
    return [game["game_id"] for page in pages for game in page["games"]]


def test_a_listed_game_shows_its_public_table(lobby_client: TestClient[Litestar]):
    created = lobby_client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}], "seats": 3}
    ).json()
    public = lobby_client.get(f"/games/{created['game_id']}").json()

    (page,) = _pages(lobby_client)

    assert page["next"] is None
    (game,) = page["games"]
    assert game["game_id"] == created["game_id"]
    assert game["variant"] == public["variant"] == "classic"
    assert game["rules"] == public["rules"]
    assert (game["seats"], game["seats_taken"], game["open_seats"]) == (3, 2, 1)
    assert game["players"] == [
        {"seat": 0, "name": "Ann", "bot": None},
        {"seat": 1, "name": "Bot", "bot": "basic"},
        None,
    ]
    assert (
        game["created_at"]
        == lobby_client.get(f"/games/{created['game_id']}/events").json()["events"][0]["at"]
    )


def test_the_lobby_never_lists_a_private_card_or_a_token():
    wiring = bootstrap_test_app(admin_token=ADMIN_TOKEN)
    with TestClient(wiring.app) as lobby_client:
        _lists_nothing_private(wiring, lobby_client)


def _lists_nothing_private(wiring: Wiring, lobby_client: TestClient[Litestar]) -> None:
    secrets: list[str] = []
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    # An admin's game with open seats may hold a chosen seed and deck orders.
    stacked = lobby_client.post(
        "/games",
        headers=admin,
        json={
            "players": [{"name": "Ann", "client_seed": "ann-secret-client-seed"}],
            "seats": 3,
            "seed": "the-secret-chosen-seed",
        },
    ).json()
    secrets += ["ann-secret-client-seed", "the-secret-chosen-seed"]
    plain = lobby_client.post("/games", json={"players": [{"name": "Bob"}], "seats": 2}).json()
    joined = lobby_client.post(
        f"/games/{stacked['game_id']}/players",
        json={"name": "Cleo", "client_seed": "cleo-secret-client-seed"},
    ).json()
    secrets += ["cleo-secret-client-seed"]
    tokens = [seat["token"] for game in (stacked, plain) for seat in game["players"]]
    tokens.append(joined["token"])
    secrets += tokens + [hash_token(token) for token in tokens]
    # The seeds themselves, as the application holds them (no response shows one yet).
    seeds = [wiring.games.state(UUID(game["game_id"])).seed for game in (stacked, plain)]
    assert "the-secret-chosen-seed" in seeds
    secrets += seeds

    bodies = [
        lobby_client.get("/lobby", params=query).text
        for query in ({}, {"limit": 1}, {"players": 3}, {"min_open": 1})
    ]

    assert len(_ids(_pages(lobby_client))) == 2
    for body in bodies:
        for secret in secrets:
            assert secret not in body
        assert "token" not in body
        assert "seed" not in body
        assert "deck" not in body
    fields = {name for game in _pages(lobby_client)[0]["games"] for name in game}
    assert fields == {
        "game_id",
        "variant",
        "rules",
        "seats",
        "seats_taken",
        "open_seats",
        "players",
        "created_at",
    }


def test_an_unlisted_game_is_joined_by_its_id_but_never_listed(
    lobby_client: TestClient[Litestar],
):
    unlisted = lobby_client.post("/games", json={"seats": 2, "unlisted": True}).json()
    listed = lobby_client.post("/games", json={"seats": 2}).json()

    assert _ids(_pages(lobby_client)) == [listed["game_id"]]
    joined = lobby_client.post(f"/games/{unlisted['game_id']}/players", json={"name": "Bob"})
    assert joined.status_code == 201
    assert _ids(_pages(lobby_client)) == [listed["game_id"]]


def test_filters_and_limits(lobby_client: TestClient[Litestar]):
    knock = lobby_client.post("/games", json={"seats": 3, "rules": {"variant": "knock"}}).json()
    two = lobby_client.post("/games", json={"seats": 2}).json()

    assert _ids(_pages(lobby_client, variant="knock")) == [knock["game_id"]]
    assert _ids(_pages(lobby_client, players=2)) == [two["game_id"]]
    assert _ids(_pages(lobby_client, min_open=3)) == [knock["game_id"]]
    assert _ids(_pages(lobby_client, limit=1)) == [two["game_id"], knock["game_id"]]
    for bad in (
        {"limit": 0},
        {"limit": 101},
        {"players": 1},
        {"variant": "poker"},
        {"after": "not a cursor"},
        {"after": "bm90LWEtY3Vyc29y"},
    ):
        response = lobby_client.get("/lobby", params=bad)
        assert response.status_code == 422, bad
        assert response.json()["code"] == "invalid_request"


def test_paging_is_stable_under_concurrent_creation(tmp_path: Path):
    """Games created while a client pages never repeat one already listed nor
    push one that existed when paging began off the pages that follow."""
    settings = Settings(store=Store.SQLITE, sqlite_path=str(tmp_path / "lobby.sqlite"))
    wiring = bootstrap(replace(settings, **NO_RATE_LIMITS))
    with serve(wiring.app) as url, httpx.Client(base_url=url, timeout=30) as client:
        before = [client.post("/games", json={"seats": 2}).json()["game_id"] for _ in range(40)]
        stop = threading.Event()
        made_during: list[str] = []
        made = threading.Condition()

        def create() -> None:
            with httpx.Client(base_url=url, timeout=30) as creator:
                while not stop.is_set():
                    game = creator.post("/games", json={"seats": 3}).json()["game_id"]
                    with made:
                        made_during.append(game)
                        made.notify_all()

        def after_a_creation(made_before: int) -> None:
            # Each page is asked for while creations go on, at least one since the last.
            with made:
                assert made.wait_for(lambda: len(made_during) > made_before, timeout=30)

        creator = threading.Thread(target=create)
        creator.start()
        listed: list[str] = []
        params: dict[str, Any] = {"limit": 3}
        try:
            while True:
                after_a_creation(len(made_during))
                page = client.get("/lobby", params=params).json()
                listed += [game["game_id"] for game in page["games"]]
                if page["next"] is None:
                    break
                params["after"] = page["next"]
        finally:
            stop.set()
            creator.join()

    assert made_during, "games were created while the client paged"
    assert len(listed) == len(set(listed)), "no game is listed twice"
    assert [game for game in listed if game in before] == before[::-1]
    wiring.games.close()
