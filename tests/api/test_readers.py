"""Every reader leaves the cached game as it was stored.

`GameState.table` is the cached game's own table, shared by every reader in the
process (service/game/results.py says why it is not copied). So nothing that
reads a game may change it: the views of each viewer, the events pages, the
replay, the audit export, the feed, a player's action (its token check, the
bots' replies, the view it answers with). After each of them, the cached game
must still be the game rebuilt from the stored events.
"""

from __future__ import annotations

from random import Random
from uuid import UUID

from litestar.testing import TestClient

from tests.api.client import ADMIN, ADMIN_TOKEN, PUBLIC, Api
from tests.apps import bootstrap_test_app
from tests.bots.test_http import random_offered_action


def test_no_reader_changes_the_game_the_cache_shares() -> None:
    wiring = bootstrap_test_app(admin_token=ADMIN_TOKEN)
    games = wiring.games
    rng = Random(12)
    with TestClient(wiring.app) as client:
        api = Api(client)
        players = [{"name": "ann"}, {"name": "robo", "bot": "basic"}, {"name": "cy"}]
        game = api.create(players=players, seed="readers", rules={"deals": 1})
        game_id = UUID(game.id)

        def as_stored(after: str) -> None:
            cached = games.state(game_id)
            assert cached == games.state(game_id, version=cached.version), after

        for _ in range(300):
            for who in (PUBLIC, ADMIN, *game.tokens):
                game.view(who)
                game.events(who)
                game.replay(who, 1)
            game.get("/audit", ADMIN)
            client.get("/feed", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            as_stored("reading it")
            view = game.view(ADMIN)
            if view["status"] == "finished":
                break
            seat = view["turn"]
            game.play(seat, random_offered_action(game.view(seat), rng))
            as_stored("an action and the bots' replies")
        assert view["status"] == "finished", "the game was read at every stage"
