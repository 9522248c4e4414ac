"""The fence of the SQLite freshness check (service/store/freshness.py), which replaces
the library's read for "has this game changed since version N?" and for a refusal's
first record: on a game's stored events, at every version, its answers are the
library's own (`select_events` through the recorder). It narrows the library's own
select statement: should an eventsourcing upgrade change that statement or the
table under it, this fails.
"""

from __future__ import annotations

import random
from uuid import uuid4

from service.game.commands import NewGame, NewSeat
from service.store.freshness import SqliteFreshness, freshness_for
from tests.game.players import Player, play_moves, with_rules
from tests.game.stores import StoreUnderTest


def test_newer_answers_as_the_librarys_read(sqlite_store: StoreUnderTest) -> None:
    games = sqlite_store.games()
    fresh = freshness_for(games.env, getattr(games.recorder, "select_events_statement", None))
    assert isinstance(fresh, SqliteFreshness), "a SQLite file has the cheap check"
    try:
        game_id = games.create_game(
            NewGame(seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(), seed="f")
        ).game_id
        last = play_moves(games, game_id, Player(random.Random(1)), 6).version
        for version in range(last + 2):
            librarys = bool(games.recorder.select_events(game_id, gt=version, limit=1))
            assert fresh.newer(game_id, version) is librarys, version
        assert not fresh.newer(uuid4(), 0), "a game never stored has nothing newer"

        select = games.recorder.select_events_statement  # type: ignore[attr-defined]
        first = games.recorder.select_events(game_id, limit=1)[0].state
        assert fresh.first_state(select, game_id) == first
        assert fresh.first_state(select, uuid4()) is None
    finally:
        fresh.close()
