"""Views made once and shared (service/projections/shared.py): every caller gets what
`game_view` makes for it, from a cache or not, and one seat's view never reaches
another."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring
from service.projections import shared
from service.projections.shared import SharedViews
from service.projections.views import ADMIN, PUBLIC, Viewer, game_view
from tests.apps import bootstrap_test_app
from tests.offered import offered_actions

ADMIN_TOKEN = "admin-token-for-the-shared-views"
WILD = {"variant": "wild", "jokers": 2, "wild_rank": "2"}


@pytest.fixture
def wiring() -> Wiring:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN)


@pytest.fixture
def client(wiring: Wiring) -> Iterator[TestClient[Litestar]]:
    with TestClient(wiring.app) as test_client:
        yield test_client


def fresh(wiring: Wiring, game_id: UUID, version: int, viewer: Viewer) -> Any:
    """The view made now, from the game rebuilt at `version`, without any cache."""
    state = wiring.games.state(game_id, version=version)
    return json.loads(msgspec.json.encode(game_view(state, viewer)))


@pytest.mark.parametrize("rules", [{}, WILD], ids=["classic", "wild"])
def test_every_caller_gets_the_view_made_for_it_at_every_version(
    wiring: Wiring, client: TestClient[Litestar], rules: dict[str, Any]
) -> None:
    created = client.post(
        "/games",
        json={"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "rules": rules},
    ).json()
    game_id = UUID(created["game_id"])
    tokens = {player["seat"]: player["token"] for player in created["players"]}
    callers: dict[str, tuple[dict[str, str], Viewer]] = {
        **{f"seat {seat}": (bearer(token), Viewer(seat=seat)) for seat, token in tokens.items()},
        "public": ({}, PUBLIC),
        "admin": (bearer(ADMIN_TOKEN), ADMIN),
    }
    rng = random.Random(7)
    versions = [created["version"]]
    in_play = versions[-1]  # the last version seen still in play
    for _ in range(25):
        public = client.get(f"/games/{game_id}").json()
        if public["status"] != "playing":
            break  # the shuffle is random: a wild game may end within 25 moves
        in_play = versions[-1]
        seat = public["turn"]
        assert seat is not None, public["status"]
        offered = moves(client.get(f"/games/{game_id}", headers=bearer(tokens[seat])).json())
        answer = client.post(
            f"/games/{game_id}/actions", json=rng.choice(offered), headers=bearer(tokens[seat])
        )
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        versions.append(version)
        # The POST's answer: the actor's view, as made without a cache.
        assert answer.json() == fresh(wiring, game_id, version, Viewer(seat=seat))
        for name, (headers, viewer) in callers.items():
            first = client.get(f"/games/{game_id}", headers=headers)
            again = client.get(f"/games/{game_id}", headers=headers)
            assert first.content == again.content, name
            assert first.headers["content-type"] == "application/json", name
            assert first.json() == fresh(wiring, game_id, version, viewer), name

    # Past versions, asked again and again: each caller's own.
    for version in versions[::5]:
        for name, (headers, viewer) in callers.items():
            for _ in range(2):
                replayed = client.get(
                    f"/games/{game_id}/replay", params={"version": version}, headers=headers
                )
                assert replayed.json() == fresh(wiring, game_id, version, viewer), name
    # The hands at the last version seen in play: a game that ended within the
    # moves above shows every seat an empty hand.
    hands = {
        seat: client.get(
            f"/games/{game_id}/replay", params={"version": in_play}, headers=bearer(token)
        ).json()["my_hand"]
        for seat, token in tokens.items()
    }
    assert all(hands.values()), hands
    assert len({json.dumps(hand) for hand in hands.values()}) == len(hands), "each seat its own"


def test_a_view_is_made_once_per_caller_kind_and_version(
    wiring: Wiring, client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[int, Viewer]] = []

    def counted(game: Any, viewer: Viewer, shown: Any = None) -> Any:
        made.append((game.version, viewer))
        return game_view(game, viewer, shown)

    monkeypatch.setattr(shared, "game_view", counted)
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    path, token = f"/games/{created['game_id']}", created["players"][0]["token"]
    for _ in range(3):
        client.get(path)
        client.get(path, headers=bearer(token))
    assert made == [(created["version"], PUBLIC), (created["version"], Viewer(seat=0))]


def test_the_shared_views_keep_the_latest_few(monkeypatch: pytest.MonkeyPatch) -> None:
    class Game:
        def __init__(self, version: int) -> None:
            self.version = version
            self.game_id = UUID(int=1)
            self.seats = ()

    made: list[int] = []

    def make(game: Game, viewer: Viewer, shown: object) -> dict[str, int]:
        made.append(game.version)
        return {"v": game.version}

    monkeypatch.setattr(shared, "game_view", make)
    views = SharedViews(size=2)
    for version in (1, 2, 1, 3, 2, 1):
        assert views.view(Game(version), PUBLIC) == b'{"v":%d}' % version  # type: ignore[arg-type]
    assert made == [1, 2, 3, 2, 1], "made again only once pushed out by two others"
    assert len(views) == 2
    assert views.find(Game(1), 1, Viewer(seat=0)) is None, "another caller's is apart"  # type: ignore[arg-type]


def moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What a player may send now; with wild cards, melds with what each card stands for."""
    offered = offered_actions(view)
    readings = view["legal"].get("meld_readings")
    if readings is None:
        return offered
    plain = [action for action in offered if action["type"] in ("draw", "discard")]
    return plain + [{"type": "meld", "cards": r["cards"], "as": r["as"]} for r in readings]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
