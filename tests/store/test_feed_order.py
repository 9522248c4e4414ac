"""The feed's promise under concurrent writers, on the real PostgreSQL.

Writer threads append to many games at once through the recorder (several
events per append at times), and one writer's appends commit tens of
milliseconds after they took their positions, as a slow commit does. Readers
follow the feed meanwhile: a reader polling it (what `/feed` does), and a
subscription (what the live event hub does). When the writers are done,
every reader must have read every stored event exactly once, in increasing
positions, and each game's events in version order: 1, 2, 3, ...

A naive reader that follows the positions without the horizon (what a
sequence without the table lock would give every reader) reads alongside,
and must be caught missing events: the check can fail.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import Notification, StoredEvent
from psycopg import sql

from service.store.postgres import TransactionOrderRecorder
from tests.game.stores import StoreUnderTest
from tests.postgres import connect

pytestmark = pytest.mark.postgres

FAST_WRITERS = 6
GAMES_PER_WRITER = 5
SLOW_APPENDS = 30
SLOW_COMMIT_SECONDS = 0.03
TOPIC = "feed_order:Event"
READ_LIMIT = 50
DEADLINE_SECONDS = 60


@dataclass
class Followed:
    """What one reader read: (game, version, position) in the order read."""

    name: str
    read: list[tuple[UUID, int, int]] = field(default_factory=list)

    def take(self, notifications: Iterable[Notification]) -> None:
        self.read.extend(
            (UUID(str(n.originator_id)), n.originator_version, n.id) for n in notifications
        )

    def missed(self, stored: set[tuple[UUID, int]]) -> set[tuple[UUID, int]]:
        return stored - {(game, version) for game, version, _ in self.read}

    def out_of_order(self) -> list[str]:
        """Every place where the positions did not grow, or a game's next event
        read was not its next version."""
        found = []
        positions = [position for *_, position in self.read]
        found += [f"position {b} after {a}" for a, b in pairwise(positions) if b <= a]
        last: dict[UUID, int] = defaultdict(int)
        for game, version, _ in self.read:
            if version != last[game] + 1:
                found.append(f"game {game}: version {version} after {last[game]}")
            last[game] = version
        return found


def stored_events(store: StoreUnderTest) -> set[tuple[UUID, int]]:
    table = sql.Identifier(store.settings.postgres_schema, "rummy_events")
    with connect(store.settings) as conn:
        rows = conn.execute(
            sql.SQL("SELECT originator_id, originator_version FROM {} WHERE topic = %s").format(
                table
            ),
            (TOPIC,),
        ).fetchall()
    return {(row[0], row[1]) for row in rows}


def write_fast(recorder: TransactionOrderRecorder, seed: int, until: threading.Event) -> None:
    """Append to games of this writer's own, one to three versions at a time, in
    turn, until `until` is set."""
    rng = random.Random(seed)
    versions = {uuid4(): 0 for _ in range(GAMES_PER_WRITER)}
    while not until.is_set():
        game = rng.choice(list(versions))
        count = rng.randint(1, 3)
        first = versions[game] + 1
        recorder.insert_events(
            [
                StoredEvent(originator_id=game, originator_version=v, topic=TOPIC, state=b"{}")
                for v in range(first, first + count)
            ]
        )
        versions[game] += count


def write_slowly(store: StoreUnderTest) -> None:
    """Appends that commit `SLOW_COMMIT_SECONDS` after taking their positions
    (the column's default, as every writer's)."""
    table = sql.Identifier(store.settings.postgres_schema, "rummy_events")
    insert = sql.SQL(
        "INSERT INTO {} (originator_id, originator_version, topic, state) VALUES (%s, %s, %s, '')"
    ).format(table)
    games = [uuid4() for _ in range(3)]
    with connect(store.settings) as conn:
        for number in range(SLOW_APPENDS):
            with conn.transaction():
                conn.execute(insert, (games[number % 3], number // 3 + 1, TOPIC))
                time.sleep(SLOW_COMMIT_SECONDS)


def poll(
    name: str, read: Callable[[int], Sequence[Notification]], done: threading.Event
) -> Followed:
    """Follow the feed with `read(after)` until the writers are done and it reads
    nothing more."""
    followed = Followed(name)
    after = 0
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        finished = done.is_set()  # before the read: a read after it sees every commit
        page = read(after)
        followed.take(page)
        if page:
            after = page[-1].id
        elif finished:
            break
    return followed


def subscribe(recorder: TransactionOrderRecorder, expected: Callable[[], int | None]) -> Followed:
    """Follow the feed by subscription until it has read `expected()` events (known
    once the writers are done)."""
    followed = Followed("subscription")
    with recorder.subscribe(gt=0) as subscription:

        def stop_when_caught_up() -> None:
            deadline = time.monotonic() + DEADLINE_SECONDS
            while time.monotonic() < deadline:
                total = expected()
                if total is not None and len(followed.read) >= total:
                    break
                time.sleep(0.01)
            subscription.stop()

        threading.Thread(target=stop_when_caught_up, daemon=True).start()
        for notification in subscription:
            followed.take([notification])
    return followed


def naive_reader(store: StoreUnderTest) -> Callable[[int], Sequence[Notification]]:
    """Reads the positions after `after` with no horizon, as a reader of a plain
    sequence would."""
    table = sql.Identifier(store.settings.postgres_schema, "rummy_events")
    statement = sql.SQL(
        "SELECT notification_id, originator_id, originator_version, topic FROM {} "
        "WHERE notification_id > %s AND topic = %s ORDER BY notification_id LIMIT %s"
    ).format(table)
    conn = connect(store.settings)

    def read(after: int) -> Sequence[Notification]:
        rows = conn.execute(statement, (after, TOPIC, READ_LIMIT)).fetchall()
        return [
            Notification(
                id=row[0], originator_id=row[1], originator_version=row[2], topic=row[3], state=b""
            )
            for row in rows
        ]

    return read


def test_readers_following_the_feed_under_concurrent_writers_miss_nothing_and_keep_order(
    postgres_store: StoreUnderTest,
):
    games = postgres_store.games(POSTGRES_POOL_SIZE=str(FAST_WRITERS + 4))
    recorder = games.recorder
    assert isinstance(recorder, TransactionOrderRecorder)
    done = threading.Event()
    total: list[int] = []
    results: dict[str, Followed] = {}

    def follow(name: str, reader: Callable[[], Followed]) -> threading.Thread:
        thread = threading.Thread(target=lambda: results.__setitem__(name, reader()))
        thread.start()
        return thread

    def read_feed(after: int) -> Sequence[Notification]:
        return recorder.select_notifications(after, READ_LIMIT, inclusive_of_start=False)

    readers = [
        follow("feed", lambda: poll("feed", read_feed, done)),
        follow("naive", lambda: poll("naive", naive_reader(postgres_store), done)),
        follow("subscription", lambda: subscribe(recorder, lambda: total[0] if total else None)),
    ]
    slow_done = threading.Event()
    writers = [
        threading.Thread(target=write_fast, args=(recorder, seed, slow_done))
        for seed in range(FAST_WRITERS)
    ]
    for writer in writers:
        writer.start()
    write_slowly(postgres_store)
    slow_done.set()
    for writer in writers:
        writer.join(timeout=DEADLINE_SECONDS)
    stored = stored_events(postgres_store)
    total.append(len(stored))
    done.set()
    for reader in readers:
        reader.join(timeout=2 * DEADLINE_SECONDS)

    assert len(stored) > SLOW_APPENDS * 10, "the fast writers wrote while the slow one did"
    for name in ("feed", "subscription"):
        followed = results[name]
        assert followed.missed(stored) == set(), f"the {name} reader missed events"
        assert followed.out_of_order() == [], f"the {name} reader read out of order"
        assert len(followed.read) == len(stored), f"the {name} reader read some twice"
    naive = results["naive"]
    assert naive.missed(stored), "the naive reader should have passed over slow commits"
    assert naive.out_of_order(), "and read the slow games' versions with holes"
