"""Seats a platform vouches for: the view shows the player and the asserted name, each
refusal has its code, one seat per player per table, rated games seat only players."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.config import Store
from tests.game.stores import open_store
from tests.players.service import ADMIN, Platform, create, register, serve


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Litestar]]:
    with open_store(Store.MEMORY, tmp_path) as store, TestClient(serve(store).app) as test_client:
        yield test_client


@pytest.fixture
def platform(client: TestClient[Litestar]) -> Platform:
    return register(client)


def players(client: TestClient[Litestar], game_id: str) -> list[tuple[str | None, str | None]]:
    view = client.get(f"/games/{game_id}").json()
    return [(seat["player"], seat["name"]) for seat in view["players"]]


def test_the_view_shows_the_vouched_player_and_its_asserted_name(
    client: TestClient[Litestar], platform: Platform
) -> None:
    answer = create(
        client,
        {"name": "typed", "player_assertion": platform.asserts("alice", "Alice")},
        {"name": "Bea"},
        seats=3,
    )
    assert answer.status_code == 201, answer.text
    assert [seat["name"] for seat in answer.json()["players"]] == ["Alice", "Bea"]
    game_id = answer.json()["game_id"]
    joined = client.post(
        f"/games/{game_id}/players",
        json={"name": "typed", "player_assertion": platform.asserts("carol", "Carol")},
    )
    assert joined.status_code == 201, joined.text
    expected = [(platform.ref("alice"), "Alice"), (None, "Bea"), (platform.ref("carol"), "Carol")]
    assert players(client, game_id) == expected
    admin_view = client.get(f"/games/{game_id}", headers=ADMIN).json()
    assert [seat["player"] for seat in admin_view["players"]] == [e[0] for e in expected]


def test_anonymous_seats_show_no_player(client: TestClient[Litestar]) -> None:
    game_id = create(client, {"name": "Ann"}, seats=2).json()["game_id"]
    assert players(client, game_id) == [(None, "Ann"), (None, None)]


@pytest.mark.parametrize(
    ("options", "wanted"),
    [
        ({"expires_in": -300}, "assertion_expired"),
        ({"audience": "elsewhere"}, "assertion_wrong_audience"),
        ({"kid": "retired"}, "assertion_unknown_key"),
        ({"expires_in": 7200}, "assertion_invalid"),
    ],
)
def test_refused_assertions_answer_401_with_their_code(
    client: TestClient[Litestar], platform: Platform, options: dict[str, Any], wanted: str
) -> None:
    refused = platform.asserts("alice", **options)
    for answer in (
        create(client, {"name": "a", "player_assertion": refused}, seats=2),
        client.post(
            f"/games/{create(client, {'name': 'x'}, seats=2).json()['game_id']}/players",
            json={"name": "a", "player_assertion": refused},
        ),
    ):
        assert (answer.status_code, answer.json()["code"]) == (401, wanted)
        assert answer.json()["type"] == f"/problems/{wanted}"


def test_a_forged_assertion_is_refused(client: TestClient[Litestar], platform: Platform) -> None:
    impostor = register(client, "Impostor")  # signs with its own secret, claims the other
    forged = impostor.asserts("alice")
    forged_as_platform = Platform(client, platform.platform_id, "", impostor.key).asserts("alice")
    assert create(client, {"name": "a", "player_assertion": forged}, seats=2).status_code == 201
    answer = create(client, {"name": "a", "player_assertion": forged_as_platform}, seats=2)
    assert (answer.status_code, answer.json()["code"]) == (401, "assertion_invalid")


def test_one_seat_per_player_per_table(client: TestClient[Litestar], platform: Platform) -> None:
    alice = platform.asserts("alice", "Alice")
    twice = create(
        client, {"name": "a", "player_assertion": alice}, {"name": "b", "player_assertion": alice}
    )
    assert (twice.status_code, twice.json()["code"]) == (409, "player_already_seated")
    game_id = create(client, {"name": "a", "player_assertion": alice}, seats=3).json()["game_id"]
    again = client.post(
        f"/games/{game_id}/players",
        json={"name": "a", "player_assertion": platform.asserts("alice", "Alice again")},
    )
    assert (again.status_code, again.json()["code"]) == (409, "player_already_seated")
    other = register(client, "Other")  # another platform's alice is another player
    joined = client.post(
        f"/games/{game_id}/players", json={"name": "a", "player_assertion": other.asserts("alice")}
    )
    assert joined.status_code == 201, joined.text


def test_a_rated_game_seats_only_vouched_for_players(
    client: TestClient[Litestar], platform: Platform
) -> None:
    alice = {"name": "a", "player_assertion": platform.asserts("alice", "Alice")}
    anonymous = create(client, alice, {"name": "Bea"}, rated=True)
    assert (anonymous.status_code, anonymous.json()["code"]) == (422, "rated_needs_players")
    with_bot = create(client, alice, {"name": "Bot", "bot": "basic"}, rated=True)
    assert with_bot.status_code == 201, "bots may fill a rated game's other seats"
    game_id = create(client, alice, seats=3, rated=True).json()["game_id"]
    unvouched = client.post(f"/games/{game_id}/players", json={"name": "Bea"})
    assert (unvouched.status_code, unvouched.json()["code"]) == (422, "rated_needs_players")
    bob = {"name": "b", "player_assertion": platform.asserts("bob", "Bob")}
    assert client.post(f"/games/{game_id}/players", json=bob).status_code == 201
    assert create(client, {"name": "Bea"}, {"name": "Cy"}).status_code == 201, "unrated: anyone"


def test_a_bot_seat_takes_no_assertion(client: TestClient[Litestar], platform: Platform) -> None:
    answer = create(
        client,
        {"name": "a"},
        {"name": "b", "bot": "basic", "player_assertion": platform.asserts("bob")},
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "invalid_seating")


def test_the_lobby_names_a_vouched_seat_as_its_view_does(
    client: TestClient[Litestar], platform: Platform
) -> None:
    answer = create(
        client, {"name": "typed", "player_assertion": platform.asserts("al", "Al")}, seats=2
    )
    game_id = answer.json()["game_id"]

    def listed() -> list[Any]:
        [game] = [g for g in client.get("/lobby").json()["games"] if g["game_id"] == game_id]
        return [seat and seat["name"] for seat in game["players"]]

    assert listed() == ["Al", None], "the asserted name, not the stored empty one"
    erased = client.delete(f"/platforms/{platform.platform_id}/players/al", headers=ADMIN)
    assert erased.status_code == 204
    assert listed() == ["erased", None]
