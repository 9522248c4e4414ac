"""Recall, statistics, ratings and leaderboards over HTTP (docs/players.md): who may
read what, the shapes of docs/players.md, paging, and erasure.

Games are created over HTTP with assertions and played to their end by a sensible
random player through the application (tests/game/players.py): what a result
must be is read from each game's own final table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring
from service.domain.places import finishing_places
from service.ratings.glicko2 import Rating
from service.ratings.tables import rate_table
from tests.game.players import play_to_end
from tests.game.stores import StoreUnderTest
from tests.players.service import ADMIN, Platform, bearer, create, register, serve


@pytest.fixture
def served(store: StoreUnderTest) -> Iterator[tuple[Wiring, TestClient[Litestar]]]:
    wiring = serve(store)
    with TestClient(wiring.app) as client:
        yield wiring, client


def rated_game(
    served: tuple[Wiring, TestClient[Litestar]], platform: Platform, players: list[str], seed: int
) -> tuple[str, list[float]]:
    """A rated classic game of `players`, played to its end: its id and the places."""
    wiring, client = served
    answer = create(
        client,
        *({"name": p, "player_assertion": platform.asserts(p, p.title())} for p in players),
        rules={"target": 40},
        rated=True,
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["game_id"]
    play_to_end(wiring.games, UUID(game_id), random.Random(seed))
    table = wiring.games.state(UUID(game_id)).table
    return game_id, finishing_places(table.winner, table.totals)


def test_a_player_s_games_are_recalled_for_the_player_its_platform_and_the_admin(
    served: tuple[Wiring, TestClient[Litestar]],
) -> None:
    _, client = served
    parlour, other = register(client, "Parlour"), register(client, "Other")
    game_id, places = rated_game(served, parlour, ["ann", "bob"], 1)
    path = f"/players/{parlour.ref('ann')}/games"
    assert client.get(path).status_code == 401
    assert client.get(path, headers=bearer(other.token)).status_code == 403
    assert client.get(path, headers=bearer(parlour.asserts("bob"))).status_code == 403
    for headers in (ADMIN, bearer(parlour.token), bearer(parlour.asserts("ann"))):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["cursor"] is None
        [game] = body["games"]
        assert (game["game_id"], game["variant"], game["status"], game["seat"]) == (
            game_id,
            "classic",
            "finished",
            0,
        )
        assert game["result"]["place"] == places[0]
        assert game["result"]["won"] == (places[0] == 1)
        assert game["finished_at"] is not None
        assert game["rules"]["target"] == 40
    assert client.get(game["export_url"]).status_code == 200, "the public export"
    assert game["replay_url"] == f"/play?game={game_id}&replay&seat=0"
    assert client.get(f"/players/{parlour.ref('nobody')}/games", headers=ADMIN).status_code == 404


def test_recall_pages_newest_first(served: tuple[Wiring, TestClient[Litestar]]) -> None:
    _, client = served
    parlour = register(client)
    ids = [rated_game(served, parlour, ["ann", "bob"], n)[0] for n in range(3)]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = client.get(f"/players/{parlour.ref('bob')}/games", params=params, headers=ADMIN)
        assert page.status_code == 200, page.text
        seen += [game["game_id"] for game in page.json()["games"]]
        cursor = page.json()["cursor"]
        if cursor is None:
            break
    assert seen == ids[::-1]
    bad = client.get(f"/players/{parlour.ref('bob')}/games?cursor=abc", headers=ADMIN)
    assert bad.status_code == 422


def test_ratings_and_stats_follow_the_rated_games(
    served: tuple[Wiring, TestClient[Litestar]],
) -> None:
    _, client = served
    parlour = register(client)
    expected = {"ann": Rating(), "bob": Rating()}
    wins = {"ann": 0, "bob": 0}
    for n in range(2):
        _, places = rated_game(served, parlour, ["ann", "bob"], 10 + n)
        expected["ann"], expected["bob"] = rate_table([expected["ann"], expected["bob"]], places)
        wins["ann"] += places[0] == 1
        wins["bob"] += places[1] == 1
    for player in ("ann", "bob"):
        answer = client.get(f"/players/{parlour.ref(player)}/ratings")
        assert answer.status_code == 200, "public"
        [rating] = answer.json()["ratings"]
        assert rating["variant"] == "classic"
        assert rating["format"] is None
        assert rating["games"] == 2
        assert rating["rating"] == pytest.approx(expected[player].rating, abs=0.01)
        assert rating["deviation"] == pytest.approx(expected[player].deviation, abs=0.01)
        assert rating["volatility"] == pytest.approx(expected[player].volatility, abs=1e-6)
        assert rating["provisional"] == (expected[player].deviation > 110)
        stats = client.get(f"/players/{parlour.ref(player)}/stats", headers=bearer(parlour.token))
        [classic] = stats.json()["stats"]
        assert (classic["games"], classic["wins"]) == (2, wins[player])


def test_the_leaderboard_ranks_pages_and_forgets_the_erased(
    served: tuple[Wiring, TestClient[Litestar]],
) -> None:
    _, client = served
    parlour = register(client)
    for n in range(3):
        rated_game(served, parlour, ["ann", "bob", "cat"], 20 + n)
    entries: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 1} | ({"cursor": cursor} if cursor else {})
        page = client.get("/leaderboards/classic", params=params).json()
        entries += page["entries"]
        cursor = page["cursor"]
        if cursor is None:
            break
    assert [entry["rank"] for entry in entries] == [1, 2, 3]
    assert {entry["player"] for entry in entries} == {parlour.ref(p) for p in ("ann", "bob", "cat")}
    assert [e["rating"] for e in entries] == sorted((e["rating"] for e in entries), reverse=True)
    assert {entry["name"] for entry in entries} == {"Ann", "Bob", "Cat"}
    top = entries[0]["player"].split(":", 1)[1]

    erased = client.delete(f"/platforms/{parlour.platform_id}/players/{top}", headers=ADMIN)
    assert erased.status_code in (200, 204), erased.text
    after = client.get("/leaderboards/classic").json()
    assert [entry["rank"] for entry in after["entries"]] == [1, 2]
    assert parlour.ref(top) not in {entry["player"] for entry in after["entries"]}
    assert top not in str(after)
    assert client.get(f"/players/{parlour.ref(top)}/ratings").status_code == 404
    assert client.get(f"/players/{parlour.ref(top)}/games", headers=ADMIN).status_code == 404


def test_leaderboard_refusals(served: tuple[Wiring, TestClient[Litestar]]) -> None:
    _, client = served
    assert client.get("/leaderboards/chess").status_code == 404
    assert client.get("/leaderboards/classic?format=points").status_code == 422
    assert client.get("/leaderboards/classic?cursor=abc").status_code == 422
    assert client.get("/leaderboards/indian?format=pool_101").json() == {
        "entries": [],
        "cursor": None,
    }


def test_a_player_who_joins_is_recalled_at_the_seat_taken(
    served: tuple[Wiring, TestClient[Litestar]],
) -> None:
    _, client = served
    parlour = register(client)
    created = create(
        client, {"name": "ann", "player_assertion": parlour.asserts("ann")}, seats=3
    ).json()
    game_id = created["game_id"]
    assert client.post(f"/games/{game_id}/players", json={"name": "Bea"}).status_code == 201
    joined = client.post(
        f"/games/{game_id}/players",
        json={"name": "cy", "player_assertion": parlour.asserts("cy", "Cy")},
    )
    assert joined.status_code == 201, joined.text
    [game] = client.get(f"/players/{parlour.ref('cy')}/games", headers=ADMIN).json()["games"]
    assert (game["game_id"], game["seat"], game["status"]) == (game_id, 2, "playing")
    [game] = client.get(f"/players/{parlour.ref('ann')}/games", headers=ADMIN).json()["games"]
    assert game["seat"] == 0
