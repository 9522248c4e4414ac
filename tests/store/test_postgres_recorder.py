"""PostgreSQL appends: one statement, no table lock, the feed in commit order.

An event's position comes from its transaction's id, and the feed is read
below the oldest transaction in flight (service/store/feed_order.py), so an
append never waits for another, and a reader never passes over an event that
commits after one with a higher position.
"""

from __future__ import annotations

import random
import time
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from eventsourcing.persistence import ProgrammingError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import get_topic
from psycopg import sql

from service.game.commands import NewGame, NewSeat
from service.game.event_feed import Feed
from service.store import postgres
from service.store.feed_order import MAX_PLACE, PLACE_BITS
from service.store.postgres import SETTLE_SECONDS, TransactionOrderRecorder
from tests.game.players import Player, play_moves
from tests.game.stores import StoreUnderTest
from tests.postgres import connect, scalar
from tests.store.locked_recorder import LockedInsertRecorder

pytestmark = pytest.mark.postgres

TWO = NewGame(seats=[NewSeat("ann"), NewSeat("bob")])


def recorder_of(store: StoreUnderTest) -> TransactionOrderRecorder:
    recorder = store.games().recorder
    assert isinstance(recorder, TransactionOrderRecorder)
    return recorder


def events_table(store: StoreUnderTest) -> sql.Identifier:
    return sql.Identifier(store.settings.postgres_schema, "rummy_events")


def positions_of(store: StoreUnderTest, game_id: UUID) -> list[int]:
    """The positions of a game's events, read straight from the table."""
    with connect(store.settings) as conn:
        rows = conn.execute(
            sql.SQL(
                "SELECT notification_id FROM {} WHERE originator_id = %s "
                "ORDER BY originator_version"
            ).format(events_table(store)),
            (game_id,),
        ).fetchall()
    return [row[0] for row in rows]


def test_the_postgres_store_appends_through_the_transaction_order_recorder(
    postgres_store: StoreUnderTest,
):
    assert isinstance(postgres_store.games().recorder, TransactionOrderRecorder)


def test_the_ids_an_append_returns_are_the_feed_positions_of_its_events(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    games = postgres_store.games()
    insert_events = games.recorder.insert_events
    returned: list[int] = []

    def recording(stored_events: Any, **kwargs: Any) -> Any:
        ids = insert_events(stored_events, **kwargs)
        assert ids is not None
        assert len(ids) == len(stored_events)
        returned.extend(ids)
        return ids

    monkeypatch.setattr(games.recorder, "insert_events", recording)
    for _ in range(3):
        games.create_game(TWO)

    assert returned, "the games were appended"
    assert returned == [entry.position for entry in Feed.of(games).page(limit=1000)]
    assert insert_events([]) == [], "nothing to append asks nothing of the server"


def test_an_append_takes_consecutive_places_of_its_transaction(
    postgres_store: StoreUnderTest,
):
    games = postgres_store.games()
    game_id = games.create_game(TWO).game_id  # created, joined, dealt: one append
    positions = positions_of(postgres_store, game_id)
    assert len(positions) > 1
    assert {position >> PLACE_BITS for position in positions} == {positions[0] >> PLACE_BITS}
    assert [position % (1 << PLACE_BITS) for position in positions] == list(
        range(1, len(positions) + 1)
    )


def begin_slow_append(conn: psycopg.Connection[Any], store: StoreUnderTest) -> int:
    """Insert one event in `conn`'s open transaction (an append that has its position
    and has not committed yet, as a slow one); its position."""
    position: int = scalar(
        conn,
        sql.SQL(
            "INSERT INTO {} (originator_id, originator_version, topic, state) "
            "VALUES (%s, 1, 'slow:Event', '\\x00') RETURNING notification_id"
        ).format(events_table(store)),
        (uuid4(),),
    )
    return position


def caught_up(recorder: TransactionOrderRecorder) -> int:
    """The last position of the feed once nothing is held back (transactions of other
    tests on the server may hold the horizon for a moment)."""
    deadline = time.monotonic() + 30
    while True:
        page = recorder.feed_page(0, 100_000)
        if not page.held_back or time.monotonic() > deadline:
            return page.notifications[-1].id if page.notifications else 0
        time.sleep(0.01)


def test_an_event_committed_late_with_a_lower_position_is_not_passed_over(
    postgres_store: StoreUnderTest,
):
    games = postgres_store.games()
    recorder = recorder_of(postgres_store)
    games.create_game(TWO)
    before = caught_up(recorder)

    # Held open for as short as the test can: the horizon is the server's, and other
    # tests' reads of their feeds wait behind this transaction too.
    with connect(postgres_store.settings) as slow, slow.transaction():
        # An append that has its position and has not committed yet (a slow one).
        slow_position = begin_slow_append(slow, postgres_store)
        began = time.perf_counter()
        later = games.create_game(TWO).game_id  # does not wait for the open append
        took = time.perf_counter() - began
        later_positions = positions_of(postgres_store, later)
        # A reader of the newest position would pass over the open append's event;
        # the feed holds the later events back instead, for as long as it stays open.
        newest = scalar(
            slow,
            sql.SQL("SELECT max(notification_id) FROM {}").format(events_table(postgres_store)),
        )
        held = recorder.feed_page(before, 100)
        last_position = Feed.of(games).last_position()

    assert took < 5, "the append waited for another"
    assert min(later_positions) > slow_position, "the later append has higher positions"
    assert newest == later_positions[-1]
    assert held.notifications == []
    assert held.held_back
    assert last_position == before
    page = recorder.select_notifications(before, 100, inclusive_of_start=False)
    assert [notification.id for notification in page] == [slow_position, *later_positions]
    assert caught_up(recorder) == later_positions[-1]


def test_a_read_of_the_feed_waits_for_events_held_back_a_while(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    games = postgres_store.games()
    games.create_game(TWO)
    before = caught_up(recorder_of(postgres_store))
    with connect(postgres_store.settings) as slow, slow.transaction():
        begin_slow_append(slow, postgres_store)
        games.create_game(TWO)
        clock = [0.0]

        def pause(seconds: float) -> None:  # time passes, the transaction stays open
            clock[0] += seconds

        monkeypatch.setattr(postgres, "sleep", pause)
        monkeypatch.setattr(postgres, "monotonic", lambda: clock[0])
        assert Feed.of(games).page(before) == [], "nothing is read past the open transaction"
    assert SETTLE_SECONDS - 0.05 < clock[0] <= SETTLE_SECONDS, "the read waited, then gave up"


def test_a_read_of_the_feed_waits_for_events_held_back_a_moment(
    postgres_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    # The older transaction commits during the read's first pause: the read sees
    # the events it held back, as a read after an append sees that append.
    games = postgres_store.games()
    before = caught_up(recorder_of(postgres_store))
    with connect(postgres_store.settings) as slow:
        slow.execute("BEGIN")
        begin_slow_append(slow, postgres_store)
        game_id = games.create_game(TWO).game_id
        pauses: list[float] = []

        def commit_the_slow_one(seconds: float) -> None:
            if not pauses:
                slow.execute("COMMIT")
            pauses.append(seconds)

        monkeypatch.setattr(postgres, "sleep", commit_the_slow_one)
        seen = games.recorder.select_notifications(before, 100, inclusive_of_start=False)

    assert pauses, "the read paused once at least"
    assert seen[0].topic == "slow:Event"
    assert [notification.id for notification in seen[1:]] == positions_of(postgres_store, game_id)


def test_an_append_of_more_events_than_a_transaction_has_places_stores_nothing(
    postgres_store: StoreUnderTest,
):
    recorder = recorder_of(postgres_store)
    game_id = uuid4()
    events = [
        StoredEvent(originator_id=game_id, originator_version=version, topic="x:Y", state=b"{}")
        for version in range(1, MAX_PLACE + 2)
    ]
    with pytest.raises(ProgrammingError, match=f"at most {MAX_PLACE} events"):
        recorder.insert_events(events)
    # Another writer's transaction, positioned by the column's default, is refused too.
    with connect(postgres_store.settings) as conn, pytest.raises(psycopg.Error) as refused:
        conn.execute(
            sql.SQL(
                "INSERT INTO {} (originator_id, originator_version, topic, state) "
                "SELECT %s, version, 'x:Y', '\\x00' FROM generate_series(1, %s) AS version"
            ).format(events_table(postgres_store)),
            (game_id, MAX_PLACE + 1),
        )
    assert refused.value.sqlstate == "54000"  # program_limit_exceeded
    assert recorder.select_events(game_id) == []

    recorder.insert_events(events[:MAX_PLACE])
    assert len(recorder.select_events(game_id)) == MAX_PLACE


def test_replicas_on_any_recorder_share_one_database(postgres_store: StoreUnderTest):
    # A rolling update runs old replicas (the locked recorder of the service before,
    # or the library's) beside new ones; their appends take the same kind of positions.
    ours = postgres_store.games()
    locked = postgres_store.games(APPLICATION_RECORDER_TOPIC=get_topic(LockedInsertRecorder))
    library = postgres_store.games(
        APPLICATION_RECORDER_TOPIC=get_topic(PostgresApplicationRecorder)
    )
    assert isinstance(locked.recorder, LockedInsertRecorder)
    assert not isinstance(library.recorder, TransactionOrderRecorder)
    game_id = ours.create_game(TWO).game_id
    player = Player(random.Random(6))
    replicas = (ours, locked, library)
    for turn in range(12):
        play_moves(replicas[turn % 3], game_id, player)

    assert ours.state(game_id) == locked.state(game_id) == library.state(game_id)
    positions = [entry.position for entry in Feed.of(ours).page(limit=1000)]
    assert positions == sorted(set(positions))
    assert len(positions) == ours.state(game_id).version
    assert positions == positions_of(postgres_store, game_id)
    assert len({position >> PLACE_BITS for position in positions}) > 3, "one per append"
