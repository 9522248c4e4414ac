"""The README's table with a clock plays as the README says, on a real server.

The commands are read from the README's section (so it cannot drift) and sent
to `rummy serve` on a fresh SQLite file, with the clocks on as a user starts
it. Only the clock is shortened, from the README's 20 seconds to the least the
rules allow, to keep the test short: the person never moves, the server's own
keeper times the turn out (the stream shows `turn_timed_out`, then the bot's
move for her), and her leave hands the seat to the bot, which finishes the
game in that request. The finished game's export is VERIFIED.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from service.audit.verify import Outcome, verify_export
from service.domain.rules import TURN_SECONDS
from tests.api.test_readme import Curl, readme_curls
from tests.servers import rummy_serve

SECTION = "## A table with a clock: leave, and a bot finishes the game"


def _events(client: httpx.Client, game: str, after: int = 0) -> list[dict[str, Any]]:
    answer = client.get(f"/games/{game}/events", params={"after": after})
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def test_the_readme_clock_game_times_out_and_a_bot_finishes_it(tmp_path: Path) -> None:
    create, view, stream, timeouts, leave = readme_curls(SECTION)
    assert (create.method, create.path) == ("POST", "/games")
    assert isinstance(create.body, dict)
    assert create.body["rules"]["turn_seconds"] == 20, "the README's clock"
    assert (stream.path, leave.method, leave.path) == (
        "/games/$ID/stream",
        "POST",
        "/games/$ID/leave",
    )
    body = {**create.body, "rules": {**create.body["rules"], "turn_seconds": TURN_SECONDS[0]}}
    env = {"RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"), "RUMMY_LOG_LEVEL": "warning"}
    with rummy_serve(env) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        created = client.post("/games", json=body)
        assert created.status_code == 201, created.text
        game = created.json()["game_id"]
        tokens = {"ANN": created.json()["players"][0]["token"]}

        def send(curl: Curl) -> httpx.Response:
            token = curl.token
            headers = {} if token is None else {"Authorization": f"Bearer {tokens[token]}"}
            return client.request(
                curl.method, curl.path.replace("$ID", game), headers=headers, json=curl.body
            )

        before = send(view)
        assert before.status_code == 200, before.text
        first = before.json()
        assert first["turn"] == 0, first
        assert first["turn_deadline"] is not None, first
        waiting_since = time.monotonic()

        # The server's keeper times Ann's turn out: no request of ours does it.
        timed_out: list[dict[str, Any]] = []
        while not timed_out and time.monotonic() - waiting_since < TURN_SECONDS[0] + 15:
            time.sleep(0.5)
            timed_out = [e for e in _events(client, game) if e["type"] == "turn_timed_out"]
        assert timed_out, f"no timeout within {TURN_SECONDS[0] + 15} s:\n{server.output()}"
        assert timed_out[0]["seat"] == 0
        assert timed_out[0]["timeouts"] == 1
        assert time.monotonic() - waiting_since >= TURN_SECONDS[0] - 1, "not early"
        after = _events(client, game, timed_out[0]["version"])
        assert after, "the bot's move for Ann follows"
        assert after[0]["seat"] == 0, after[0]
        assert send(timeouts).json()["players"][0]["timeouts"] >= 1

        left = send(leave)
        assert left.status_code == 200, left.text
        final = left.json()
        assert final["status"] == "finished", final
        assert final["winner"] in (0, 1), final
        ann = final["players"][0]
        assert ann["left"] is True, ann
        assert ann["replaced"] is True, ann
        export = client.get(f"/games/{game}/audit")
        assert export.status_code == 200, export.text
        assert verify_export(export.json()).outcome is Outcome.VERIFIED
