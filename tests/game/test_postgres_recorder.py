"""PostgreSQL appends: one statement, under the events table's lock, ids in commit order."""

from __future__ import annotations

import random
import threading
import time

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import get_topic
from psycopg import sql

from service.game.commands import NewGame, NewSeat
from service.game.postgres import LockedInsertRecorder
from tests.game.players import Player, play_moves
from tests.game.stores import StoreUnderTest
from tests.postgres import connect

pytestmark = pytest.mark.postgres

TWO = NewGame(seats=[NewSeat("ann"), NewSeat("bob")])


def test_the_postgres_store_appends_through_the_locked_insert(postgres_store: StoreUnderTest):
    assert isinstance(postgres_store.games().recorder, LockedInsertRecorder)


def test_the_ids_an_append_returns_are_the_feed_positions_of_its_events(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    games = postgres_store.games()
    insert_events = games.recorder.insert_events
    returned: list[int] = []

    def recording(stored_events, **kwargs):
        ids = insert_events(stored_events, **kwargs)
        assert ids is not None
        assert len(ids) == len(stored_events)
        returned.extend(ids)
        return ids

    monkeypatch.setattr(games.recorder, "insert_events", recording)
    for _ in range(3):
        games.create_game(TWO)

    assert returned, "the games were appended"
    assert returned == [entry.position for entry in games.feed(limit=1000)]
    assert insert_events([]) == [], "nothing to append asks nothing of the server"


def test_an_append_waits_for_another_transaction_writing_the_events(
    postgres_store: StoreUnderTest,
):
    # A plain INSERT would not wait: then a feed reader could pass over an id
    # that commits after a higher one. The table lock makes appends queue.
    games = postgres_store.games()
    settings = postgres_store.settings
    table = sql.Identifier(settings.postgres_schema, "rummy_events")
    created: list[float] = []

    def create() -> None:
        games.create_game(TWO)
        created.append(time.perf_counter())

    with connect(settings) as other:
        with other.transaction():
            other.execute(sql.SQL("LOCK TABLE {} IN ROW EXCLUSIVE MODE").format(table))
            writer = threading.Thread(target=create)
            writer.start()
            writer.join(timeout=0.5)
            assert writer.is_alive(), "the append did not wait for the other writer"
            released = time.perf_counter()
        writer.join(timeout=10)
    assert created
    assert created[0] >= released


def test_replicas_on_either_recorder_share_one_database(postgres_store: StoreUnderTest):
    # A rolling update runs old replicas (the library's recorder) beside new ones.
    ours = postgres_store.games()
    library = postgres_store.games(
        APPLICATION_RECORDER_TOPIC=get_topic(PostgresApplicationRecorder)
    )
    assert not isinstance(library.recorder, LockedInsertRecorder)
    game_id = ours.create_game(TWO).game_id
    player = Player(random.Random(6))
    for turn in range(12):
        play_moves((ours, library)[turn % 2], game_id, player)

    assert ours.state(game_id) == library.state(game_id)
    positions = [entry.position for entry in ours.feed(limit=1000)]
    assert positions == sorted(set(positions))
    assert len(positions) == ours.state(game_id).version
