"""The README's Pool 101 game over HTTP: a person against two `basic` bots, played
to the end as a client would (draw, discard, show when a bot declares), and the
audit export of the finished game verifies."""

from __future__ import annotations

import time

from service.audit.verify import Outcome, verify_export
from tests.api.client import ADMIN, Api, draw

ANN = 0


FINISH_SECONDS = 60.0
"""The longest the test waits for the keeper to play the bots out (a bound, not a measure)."""


def test_a_pool_101_game_against_two_bots_plays_to_the_end_and_verifies(api: Api) -> None:
    game = api.create(
        players=[
            {"name": "Ann"},
            {"name": "Bot B", "bot": "basic"},
            {"name": "Bot C", "bot": "basic"},
        ],
        rules={"variant": "indian", "format": "pool_101"},
    )
    for _ in range(2000):
        view = game.view(ANN)
        if view["status"] == "finished":
            break
        legal = view["legal"]
        if legal["can_submit"]:
            game.play(ANN, {"type": "submit_groups", "groups": []})
        elif legal["draw"]:
            game.play(ANN, draw())
        elif legal["discard"]:
            game.play(ANN, {"type": "discard", "card": legal["discard"][-1]})
        else:
            # Ann is out of the game: the bots finish it among themselves, played by
            # the server's clock keeper in the background (docs/bots.md).
            assert view["players"][ANN]["status"] == "eliminated", view
            break
    until = time.monotonic() + FINISH_SECONDS
    while (view := game.view(ANN))["status"] != "finished" and time.monotonic() < until:
        time.sleep(0.05)
    assert view["status"] == "finished", view["players"]
    assert view["winner"] in (1, 2)
    # Showing no groups, Ann counts the full 80 whenever a bot declares: 101 needs two.
    statuses = [player["status"] for player in view["players"]]
    assert statuses[ANN] == "eliminated"
    kinds = [event["type"] for event in game.events(ANN)]
    assert kinds.count("player_eliminated") == 2
    assert "declared" in kinds
    eliminated = [event for event in game.events(ANN) if event["type"] == "player_eliminated"]
    assert all(event["score"] >= 101 for event in eliminated)
    verdict = verify_export(game.get("/audit", ADMIN).json())
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
