"""What the events keep of a vouched-for seat, as another replica reads it back: the
pseudonym and `rated`, nothing else of the player; an anonymous seat's record is
as it always was (no `player` key)."""

from __future__ import annotations

import pytest

from service.game.commands import NewGame, NewSeat
from service.game.errors import PlayerAlreadySeated, RatedNeedsPlayers
from tests.game.stores import StoreUnderTest

VOUCHED = NewSeat(name="", player="ps_" + "a" * 64)


def test_another_replica_reads_the_pseudonym_and_rated(shared_store: StoreUnderTest) -> None:
    writer, reader = shared_store.games(), shared_store.games()
    created = writer.create_game(NewGame(seats=[VOUCHED, None, None], rated=True))
    with pytest.raises(RatedNeedsPlayers):
        writer.join_game(created.game_id, NewSeat(name="Bea"))
    with pytest.raises(PlayerAlreadySeated):
        writer.join_game(created.game_id, NewSeat(name="", player=VOUCHED.player))
    writer.join_game(created.game_id, NewSeat(name="", player="ps_" + "b" * 64))

    stored = list(reader.recorder.select_events(created.game_id))
    assert b'"player"' in stored[0].state
    assert b'"rated":true' in stored[0].state.replace(b" ", b"")
    state = reader.state(created.game_id)
    assert [None if s is None else s.pseudonym for s in state.seats] == [
        VOUCHED.player,
        "ps_" + "b" * 64,
        None,
    ]
    assert reader.repository.get(created.game_id).rated


def test_an_anonymous_seat_stores_no_player_key(shared_store: StoreUnderTest) -> None:
    games = shared_store.games()
    created = games.create_game(NewGame(seats=[NewSeat(name="Ann"), None]))
    games.join_game(created.game_id, NewSeat(name="Bob"))
    records = list(games.recorder.select_events(created.game_id))
    assert not any(b'"player"' in record.state for record in records)
    assert not games.repository.get(created.game_id).rated
