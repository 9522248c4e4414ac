"""The two-request freeze of issue 26, on a real `rummy serve`: one person and five
`basic` bots with the highest `target` a new game may have (100,000 then; the caps
of docs/rules.md refuse it now), and the person leaves.

The leave answers with the game as its own events left it (no bot move in its
answer), the game still playing; the server's keeper then plays the bots in the
background, and while it does `/health` and another game's action are answered
(the bot game moved on across them and is far from its end). Checked by order
and versions, not times; the latencies are bench/bots.py's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.domain.presets import VARIANTS
from service.domain.rule_values import Variant
from tests.servers import Replica, rummy_serve

HIGHEST_TARGET = VARIANTS[Variant.CLASSIC].caps["target"][1]
"""The longest classic game a client may ask for (the caps, docs/rules.md)."""

WAIT_SECONDS = 60.0
"""The longest the test waits for the keeper to start moving (a bound, not a measure)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Replica]:
    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_BOT_PACE_MS": "0",
        "RUMMY_CLOCKS_POLL_MS": "100",
    }
    with rummy_serve(env) as served:
        yield served


def version_of(client: httpx.Client, game: str) -> dict[str, Any]:
    answer = client.get(f"/games/{game}")
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def moved_past(client: httpx.Client, game: str, version: int) -> dict[str, Any]:
    """The game's public view once its version is past `version`."""
    until = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < until:
        view = version_of(client, game)
        if view["version"] > version:
            return view
        time.sleep(0.05)
    raise AssertionError(f"game {game} stayed at version {version}")


def test_the_leave_answers_at_once_and_the_server_answers_while_the_bots_play(
    server: Replica,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        players = [{"name": "Ann"}, *({"name": f"Bot {n}", "bot": "basic"} for n in range(5))]
        created = client.post(
            "/games", json={"players": players, "rules": {"target": HIGHEST_TARGET}}
        )
        assert created.status_code == 201, created.text
        game = created.json()["game_id"]
        ann = {"Authorization": f"Bearer {created.json()['players'][0]['token']}"}

        left = client.post(f"/games/{game}/leave", json={"resign": False}, headers=ann)
        assert left.status_code == 200, left.text
        answered = left.json()
        assert answered["status"] == "playing", answered
        events = client.get(f"/games/{game}/events", params={"after": answered["version"] - 1})
        assert events.json()["events"][0]["type"] == "player_left", (
            "the leave's answer is the game as the leave left it: no bot move in it"
        )

        # The keeper plays the bots now, a request at a time, off every request.
        playing = moved_past(client, game, answered["version"])
        assert playing["status"] == "playing"

        health = client.get("/health")
        other = client.post("/games", json={"players": [{"name": "Cy"}, {"name": "Di"}]})
        assert other.status_code == 201, other.text
        other_id = other.json()["game_id"]
        tokens = [seat["token"] for seat in other.json()["players"]]
        turn = version_of(client, other_id)["turn"]
        action = client.post(
            f"/games/{other_id}/actions",
            json={"type": "draw", "source": "stock"},
            headers={"Authorization": f"Bearer {tokens[turn]}"},
        )
        assert (health.status_code, action.status_code) == (200, 200), action.text
        after = moved_past(client, game, playing["version"])
        assert after["status"] == "playing", "the bot game plays on, far from its end"
        assert client.get("/health").status_code == 200
