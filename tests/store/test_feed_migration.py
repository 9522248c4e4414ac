"""A PostgreSQL store written before 1.0.0 moves to transaction-ordered positions.

The first process of the new code to open the store migrates it (the column's
default and three functions, service/store/feed_order.py); the events and
their positions stay as they were, so a follower's old cursor goes on where
it stopped, and every new position is above every old one.
"""

from __future__ import annotations

import threading
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.utils import get_topic
from psycopg import sql

from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_feed import Feed
from service.store.feed_order import OFFSET, PLACE_BITS, migrate
from service.store.postgres import TransactionOrderRecorder
from tests.game.stores import StoreUnderTest
from tests.postgres import connect, scalar
from tests.store.locked_recorder import LockedInsertRecorder

pytestmark = pytest.mark.postgres

TWO = NewGame(seats=[NewSeat("ann"), NewSeat("bob")])
LOCKED = {"APPLICATION_RECORDER_TOPIC": get_topic(LockedInsertRecorder)}


def old_store(store: StoreUnderTest, games: int = 3) -> tuple[RummyApplication, list[int]]:
    """The store as the service before 1.0.0 left it, with `games` games; the
    application of then, and the feed's positions."""
    old = store.games(**LOCKED)
    for _ in range(games):
        old.create_game(TWO)
    return old, [entry.position for entry in Feed.of(old).page(limit=1000)]


def query(store: StoreUnderTest, statement: str, *params: Any) -> Any:
    """The first value of a statement's first row; `{schema}` is the store's schema."""
    schema = sql.Identifier(store.settings.postgres_schema)
    with connect(store.settings) as conn:
        return scalar(conn, sql.SQL(statement).format(schema=schema), params)


def default_of_positions(store: StoreUnderTest) -> str:
    return str(
        query(
            store,
            "SELECT column_default FROM information_schema.columns WHERE table_schema = %s "
            "AND table_name = 'rummy_events' AND column_name = 'notification_id'",
            store.settings.postgres_schema,
        )
    )


def offset_of(store: StoreUnderTest) -> int:
    return int(query(store, f"SELECT {{schema}}.{OFFSET}()"))


def test_a_store_written_before_keeps_its_events_and_positions(postgres_store: StoreUnderTest):
    old, positions = old_store(postgres_store)
    assert "nextval" in default_of_positions(postgres_store), "the store as it was"
    old_entries = Feed.of(old).page(limit=1000)

    games = postgres_store.games()

    assert "rummy_feed_position" in default_of_positions(postgres_store)
    assert Feed.of(games).page(limit=1000) == old_entries
    assert Feed.of(games).last_position() == positions[-1]
    new_game = games.create_game(TWO).game_id
    entries = Feed.of(games).page(limit=1000)
    assert [entry.position for entry in entries[: len(positions)]] == positions
    added = entries[len(positions) :]
    assert added
    assert {entry.game_id for entry in added} == {new_game}
    assert min(entry.position for entry in added) > positions[-1]
    assert max(entry.position for entry in added) < 2**53, "exact in JavaScript, and `after`"


def test_an_old_cursor_goes_on_where_it_stopped(postgres_store: StoreUnderTest):
    _, positions = old_store(postgres_store)
    games = postgres_store.games()
    new_game = games.create_game(TWO).game_id
    cursor = positions[len(positions) // 2]

    rest = Feed.of(games).page(after=cursor, limit=1000)

    assert [entry.position for entry in rest][: len(positions) // 2 - 1] == [
        position for position in positions if position > cursor
    ]
    assert rest[-1].game_id == new_game
    positions_read = [entry.position for entry in rest]
    assert positions_read == sorted(positions_read)


def test_migrating_again_changes_nothing(postgres_store: StoreUnderTest):
    old_store(postgres_store)
    games = postgres_store.games()
    games.create_game(TWO)
    offset, default = offset_of(postgres_store), default_of_positions(postgres_store)
    before = Feed.of(games).page(limit=1000)

    again = postgres_store.games()
    assert isinstance(again.recorder, TransactionOrderRecorder)
    assert migrate(again.recorder.datastore, again.recorder.feed) == offset

    assert (offset_of(postgres_store), default_of_positions(postgres_store)) == (offset, default)
    assert Feed.of(again).page(limit=1000) == before


def test_old_positions_beyond_the_transaction_ids_raise_the_offset(
    postgres_store: StoreUnderTest,
):
    # A store whose sequence ran far ahead of the server's transaction ids.
    old = postgres_store.games(**LOCKED)
    query(
        postgres_store,
        "SELECT setval(pg_get_serial_sequence(%s, 'notification_id'), %s)",
        f"{postgres_store.settings.postgres_schema}.rummy_events",
        10**12,
    )
    old.create_game(TWO)
    newest = Feed.of(old).last_position()
    assert newest > 10**12

    games = postgres_store.games()
    games.create_game(TWO)

    assert offset_of(postgres_store) > 0
    positions = [entry.position for entry in Feed.of(games).page(limit=1000)]
    assert positions == sorted(positions)
    assert positions[-1] > newest
    assert positions[-1] < 2**53


def test_positions_ahead_of_the_transaction_ids_raise_the_offset_at_the_next_start(
    postgres_store: StoreUnderTest,
):
    # A dump restored into a new server: its ids start lower than the stored positions.
    games = postgres_store.games()
    games.create_game(TWO)
    offset = offset_of(postgres_store)
    xmax = int(query(postgres_store, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text"))
    ahead = ((xmax + offset + 10_000) << PLACE_BITS) + 1
    query(
        postgres_store,
        "INSERT INTO {schema}.rummy_events (originator_id, originator_version, topic, state, "
        "notification_id) VALUES (%s, 1, 'restored:Event', '\\x00', %s) RETURNING 1",
        uuid4(),
        ahead,
    )

    restarted = postgres_store.games()
    restarted.create_game(TWO)

    assert offset_of(postgres_store) > offset
    recorder = restarted.recorder
    positions = [event.id for event in recorder.select_notifications(0, 1000)]
    assert positions == sorted(positions)
    assert ahead in positions
    assert positions[-1] > ahead


def test_processes_migrating_at_once_agree(postgres_store: StoreUnderTest):
    # Four at once on the old store, with the migration's own advisory lock only
    # (`open_games` takes the schema's lock around it as well).
    old, positions = old_store(postgres_store)
    datastore = old.recorder.datastore  # type: ignore[attr-defined]
    recorders = [
        TransactionOrderRecorder(datastore, events_table_name="rummy_events") for _ in range(4)
    ]
    barrier = threading.Barrier(len(recorders))
    offsets: list[int] = []
    errors: list[BaseException] = []

    def run(recorder: TransactionOrderRecorder) -> None:
        barrier.wait(timeout=30)
        try:
            offsets.append(migrate(recorder.datastore, recorder.feed))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(recorder,)) for recorder in recorders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    assert len(offsets) == len(recorders)
    assert len(set(offsets)) == 1
    assert "rummy_feed_position" in default_of_positions(postgres_store)
    games = postgres_store.games()
    games.create_game(TWO)
    read = [entry.position for entry in Feed.of(games).page(limit=1000)]
    assert read[: len(positions)] == positions
    assert read == sorted(read)
