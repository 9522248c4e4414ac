"""Erasure on every store: after `DELETE /platforms/{p}/players/{player}` no view or
export of the player's games names it, every export still verifies, and the events
never held the player's id or name in the first place (privacy by design)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.audit.verify import Outcome, verify_export
from service.bootstrap import Wiring
from service.game.application import RummyApplication
from tests.game.stores import StoreUnderTest
from tests.players.service import ADMIN, Platform, bearer, create, register, serve

PLAYER, NAME = "alice-7f3a", "Alicia Quartermain"
"""Distinctive, so a search of bytes for them finds nothing else."""


@pytest.fixture
def served(store: StoreUnderTest) -> Iterator[tuple[Wiring, TestClient[Litestar]]]:
    wiring = serve(store)
    with TestClient(wiring.app) as client:
        yield wiring, client


def stored_bytes(games: RummyApplication, game_id: str) -> bytes:
    """Every stored event of the game, as the store holds them."""
    records = games.recorder.select_events(UUID(game_id))
    return b"".join(record.state for record in records)


def reveals(blob: bytes | str, platform: Platform) -> bool:
    text = blob if isinstance(blob, str) else blob.decode("utf-8", "replace")
    return PLAYER in text or NAME in text or platform.ref(PLAYER) in text


def export(client: TestClient[Litestar], game_id: str) -> Any:
    answer = client.get(f"/games/{game_id}/audit", headers=ADMIN)
    assert answer.status_code == 200, answer.text
    return answer


def test_after_erasure_nothing_shown_reveals_the_player_and_exports_verify(
    served: tuple[Wiring, TestClient[Litestar]], caplog: pytest.LogCaptureFixture
) -> None:
    wiring, client = served
    platform = register(client)
    vouched = {"name": "typed", "player_assertion": platform.asserts(PLAYER, NAME)}
    bob = {"name": "b", "player_assertion": platform.asserts("bob", "Bob")}
    finished = create(client, vouched, bob).json()["game_id"]
    open_game = create(client, {"name": "Cy"}, seats=2).json()["game_id"]
    joined = client.post(f"/games/{open_game}/players", json=vouched)
    assert joined.status_code == 201, joined.text
    aborted = client.post(f"/games/{finished}/abort", json={"reason": "test"}, headers=ADMIN)
    assert aborted.status_code == 200, aborted.text

    before = export(client, finished)
    header = before.json()["players"]
    assert [(p["player"], p["name"]) for p in header] == [
        (platform.ref(PLAYER), NAME),
        (platform.ref("bob"), "Bob"),
    ]
    assert verify_export(before.json()).ok
    view = client.get(f"/games/{open_game}").json()["players"]
    assert (view[1]["player"], view[1]["name"]) == (platform.ref(PLAYER), NAME)
    replayed = client.get(f"/games/{open_game}/replay", params={"version": 2}).json()
    assert replayed["players"][1]["player"] == platform.ref(PLAYER), "before: shown"
    for game_id in (finished, open_game):
        assert not reveals(stored_bytes(wiring.games, game_id), platform), "never in events"

    caplog.set_level(logging.INFO)
    erased = client.delete(
        f"/platforms/{platform.platform_id}/players/{PLAYER}", headers=bearer(platform.token)
    )
    assert erased.status_code == 204
    # The service's own lines (the test client, httpx, logs the URL it called).
    lines = [record for record in caplog.records if record.name.startswith("service")]
    assert any("players/***" in record.getMessage() for record in lines)
    assert not any(reveals(json.dumps(vars(record), default=str), platform) for record in lines)

    for game_id in (finished, open_game):
        for who in ({}, ADMIN):
            answer = client.get(f"/games/{game_id}", headers=who)
            assert not reveals(answer.content, platform), "the view, cached or not"
        after = export(client, game_id)
        assert not reveals(after.content, platform), "the export, kept or not"
        verdict = verify_export(after.json())
        wanted = Outcome.VERIFIED if game_id == finished else Outcome.UNFINISHED
        assert (verdict.outcome, verdict.finding) == (wanted, None), "all present checks out"
        assert not reveals(stored_bytes(wiring.games, game_id), platform)
    header = export(client, finished).json()["players"]
    assert [(p["player"], p["name"]) for p in header] == [
        (None, "erased"),
        (platform.ref("bob"), "Bob"),
    ], "only the erased player is gone"
    seats = client.get(f"/games/{open_game}").json()["players"]
    assert [(p["player"], p["name"]) for p in seats] == [(None, "Cy"), (None, "erased")]
    for version in (1, 2):  # replays rebuild an earlier version, and show it as now
        replay = client.get(f"/games/{open_game}/replay", params={"version": version})
        assert replay.status_code == 200
        assert not reveals(replay.content, platform)
    lobby = client.get("/lobby")
    assert lobby.status_code == 200
    assert not reveals(lobby.content, platform)
    events = client.get(f"/games/{finished}/events", headers=ADMIN)
    assert events.status_code == 200
    assert not reveals(events.content, platform)
    # The chain did not move: the erased value was never hashed.
    assert after_head(before.json()) == after_head(export(client, finished).json())


def after_head(exported: Any) -> str:
    return str(exported["chain"]["head"])


def test_a_player_vouched_for_again_after_erasure_is_a_new_pseudonym(
    served: tuple[Wiring, TestClient[Litestar]],
) -> None:
    _, client = served
    platform = register(client)
    vouched = {"name": "typed", "player_assertion": platform.asserts(PLAYER, NAME)}
    first = create(client, vouched, seats=2).json()["game_id"]
    path = f"/platforms/{platform.platform_id}/players/{PLAYER}"
    assert client.delete(path, headers=ADMIN).status_code == 204
    assert client.delete(path, headers=ADMIN).status_code == 204, "erasing twice is harmless"
    second = create(client, vouched, seats=2).json()["game_id"]
    assert client.get(f"/games/{second}").json()["players"][0]["player"] == platform.ref(PLAYER)
    assert client.get(f"/games/{first}").json()["players"][0]["name"] == "erased", (
        "the old games stay erased"
    )
