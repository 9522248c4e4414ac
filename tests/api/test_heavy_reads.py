"""Reads whose cost grows with the game never hold the event loop, on SQLite too:
while they run, `/health` (and every other small request) is answered.

A real `rummy serve` process on a SQLite file with one long game; replays of it
at several versions each rebuild the game from the store. The check is an order,
not a time: `/health`, asked once the replays are under way, is answered before
any of them is. With the replays on the event loop it could only be answered
after them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.bootstrap import open_games
from service.config import Settings, Store
from tests.game.long_games import save_long_game
from tests.servers import Replica, clean_environment, free_port

EVENTS = 15_000
"""Enough that rebuilding the game takes a few tenths of a second here."""
REPLAYS = 4


@pytest.fixture
def server_with_a_long_game(tmp_path: Path) -> Iterator[tuple[str, str]]:
    database = str(tmp_path / "games.sqlite")
    settings = Settings(store=Store.SQLITE, sqlite_path=database)
    game_id = save_long_game(open_games(settings), EVENTS)
    env = {
        **clean_environment(),
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_PORT": str(free_port()),
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": database,
        "RUMMY_LOG_LEVEL": "warning",
    }
    replica = Replica("heavy-reads", env, tmp_path / "server.log")
    replica.start()
    try:
        replica.wait_ready()
        yield replica.url, str(game_id)
    finally:
        replica.stop()


def test_health_answers_while_replays_of_a_long_game_run(
    server_with_a_long_game: tuple[str, str],
) -> None:
    url, game_id = server_with_a_long_game
    answered: dict[str, float] = {}
    statuses: dict[str, int] = {}

    def get(name: str, path: str) -> None:
        with httpx.Client(base_url=url, timeout=60) as client:
            response = client.get(path)
        answered[name] = time.monotonic()
        statuses[name] = response.status_code

    replays = [
        threading.Thread(
            target=get, args=(f"replay-{n}", f"/games/{game_id}/replay?version={EVENTS - n}")
        )
        for n in range(REPLAYS)
    ]
    for replay in replays:
        replay.start()
    time.sleep(0.1)  # the replays reach the server and start
    get("health", "/health")
    for replay in replays:
        replay.join(timeout=60)

    assert statuses == {"health": 200, **{f"replay-{n}": 200 for n in range(REPLAYS)}}
    first_replay = min(answered[f"replay-{n}"] for n in range(REPLAYS))
    assert answered["health"] < first_replay, "/health waited for the replays"
