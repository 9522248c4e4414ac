"""PostgreSQL appends per second with 1, 2, 4, 8 writer processes: three ways.

    uv run python -m bench.appends                    # 1 2 4 8 writers, 3 s each, 3 rounds
    uv run python bench/store.py --stores postgres    # the same, after the actions

Each writer is a process of its own (as replicas are), appending one event of
a realistic size at a time to games of its own, for `--append-seconds`:

- **plain INSERT (the floor)**: psycopg inserting the same rows into a table
  of the same shape, one autocommit statement each: no lock, no `NOTIFY`, no
  feed. What the database gives at best.
- **INSERT + NOTIFY**: the same, with the `NOTIFY` that tells other
  replicas in the same transaction: the best a store sharded over several
  tables of one database could do, each shard under a lock of its own
  (PostgreSQL serialises the commits of notifying transactions per database).
- **locked recorder (before 1.0.0)**: `tests/store/locked_recorder.py`, every
  append under the table's `EXCLUSIVE` lock, with its `NOTIFY`.
- **transaction-order recorder (the service)**:
  `service.store.postgres.TransactionOrderRecorder`, positions from the
  transaction id, the `NOTIFY` sent after the append.

The recorders are called directly (`insert_events`), through the
application's store as the service opens it, so the figures are the store's,
not the rules'. Each way writes to a schema of its own, made afresh; the
rounds take the ways in turn for each number of writers, and each figure is
the median of the rounds, with the best.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from multiprocessing.synchronize import Barrier
from typing import Any
from uuid import uuid4

import psycopg
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import get_topic
from psycopg import sql

from service.bootstrap import open_games
from service.config import Settings
from tests.postgres import conninfo, new_schema, server_settings
from tests.store.locked_recorder import LockedInsertRecorder

STATE = (
    b'{"seat":1,"request":{"seat":1,"key":null,"digest":null},"command_id":"3f9c2a7e51b04d6c",'
    b'"card":"KD","originator_topic":"service.game.aggregate:Game","timestamp":'
    b'{"_type_":"datetime_iso","_data_":"2026-12-01T14:47:02.118234+00:00"},'
    b'"originator_version":17}'
)
"""About the size of a stored `CardDiscarded`."""
TOPIC = "service.game.events:CardDiscarded"

PLAIN = "plain INSERT (floor)"
NOTIFYING = "INSERT + NOTIFY"
LOCKED = "locked recorder (before)"
OURS = "transaction-order recorder"
WAYS = (PLAIN, NOTIFYING, LOCKED, OURS)

RECORDERS = {
    PLAIN: get_topic(PostgresApplicationRecorder),  # only makes the table
    NOTIFYING: get_topic(PostgresApplicationRecorder),
    LOCKED: get_topic(LockedInsertRecorder),
}


@dataclass(frozen=True, slots=True)
class Rate:
    way: str
    writers: int
    rates: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


def _plain_appender(settings: Settings, notify: bool) -> Callable[[Any, int], None]:
    conn = psycopg.connect(conninfo(settings), autocommit=True)
    statement = sql.SQL(
        "INSERT INTO {} (originator_id, originator_version, topic, state) "
        "VALUES (%s, %s, %s, %s) RETURNING notification_id"
    ).format(sql.Identifier(settings.postgres_schema, "rummy_events"))

    def append(game: Any, version: int) -> None:
        conn.execute(statement, (game, version, TOPIC, STATE), prepare=True).fetchall()

    def append_and_notify(game: Any, version: int) -> None:
        with conn.transaction():
            conn.execute("NOTIFY rummy_events")
            append(game, version)

    return append_and_notify if notify else append


def _recorder_appender(settings: Settings, way: str) -> Callable[[Any, int], None]:
    env = {"APPLICATION_RECORDER_TOPIC": RECORDERS[way]} if way in RECORDERS else {}
    games = open_games(settings, bots=None, env=env)  # kept: closing it closes the pool

    def append(game: Any, version: int) -> None:
        games.recorder.insert_events(
            [StoredEvent(originator_id=game, originator_version=version, topic=TOPIC, state=STATE)]
        )

    return append


def _write(settings: Settings, way: str, seconds: float, start: Barrier, results: Any) -> None:
    """One writer process: append for `seconds` after every writer is ready."""
    if way in (PLAIN, NOTIFYING):
        append = _plain_appender(settings, notify=way == NOTIFYING)
    else:
        append = _recorder_appender(settings, way)
    games = [uuid4() for _ in range(20)]
    versions = dict.fromkeys(games, 0)
    append(games[0], 1)  # connected, statement prepared
    versions[games[0]] = 1
    start.wait()
    done = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        game = games[done % len(games)]
        versions[game] += 1
        append(game, versions[game])
        done += 1
    results.put(done)


def run(settings: Settings, way: str, writers: int, seconds: float) -> float:
    """Appends per second of `writers` processes writing `way` at once."""
    # Forked: the parent holds no connection then (its applications are closed), and
    # a forked writer starts in milliseconds where a spawned one imports everything.
    context = multiprocessing.get_context("fork")
    start = context.Barrier(writers)
    results = context.Queue()
    processes = [
        context.Process(target=_write, args=(settings, way, seconds, start, results))
        for _ in range(writers)
    ]
    for process in processes:
        process.start()
    done: int = sum(results.get(timeout=120 + seconds) for _ in processes)
    for process in processes:
        process.join(timeout=30)
    return done / seconds


@contextmanager
def schemas(pg_dbname: str) -> Iterator[dict[str, Settings]]:
    """A fresh schema for each way, its table made by that way's opening."""
    server = replace(server_settings(), postgres_dbname=pg_dbname, postgres_pool_size=2)
    with ExitStack() as stack:
        made = {}
        for way in WAYS:
            settings = stack.enter_context(new_schema("rummy_appends", server))
            env = {"APPLICATION_RECORDER_TOPIC": RECORDERS[way]} if way in RECORDERS else {}
            open_games(settings, bots=None, env=env).close()
            made[way] = settings
        yield made


def bench_appends(
    writer_counts: Sequence[int], seconds: float, rounds: int, pg_dbname: str
) -> list[str]:
    rates: dict[tuple[str, int], list[float]] = {}
    with schemas(pg_dbname) as made:
        for _ in range(rounds):
            for writers in writer_counts:
                for way in WAYS:
                    rate = run(made[way], way, writers, seconds)
                    rates.setdefault((way, writers), []).append(rate)
    return table([Rate(way, n, tuple(rates[way, n])) for n in writer_counts for way in WAYS])


def table(results: Sequence[Rate]) -> list[str]:
    by = {(result.way, result.writers): result for result in results}
    counts = sorted({result.writers for result in results})
    lines = [
        f"PostgreSQL appends/s (one event each), median of {len(results[0].rates)} rounds "
        "(best); writers are processes",
        f"{'writers':>8} | "
        + " | ".join(f"{way:>28}" for way in WAYS)
        + " | ours/locked | ours/floor",
    ]
    for writers in counts:
        cells = [
            f"{by[way, writers].median:>12,.0f} ({max(by[way, writers].rates):>8,.0f})"
            for way in WAYS
        ]
        ours, locked, plain = (by[way, writers].median for way in (OURS, LOCKED, PLAIN))
        lines.append(
            f"{writers:>7} | "
            + " | ".join(f"{cell:>26}" for cell in cells)
            + f" | {ours / locked:>10.2f}x | {ours / plain:>9.2f}x"
        )
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    parser.add_argument("--pg-dbname", default="test", help="PostgreSQL database (test)")
    return parser.parse_args(argv)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--writers", type=int, nargs="+", default=[1, 2, 4, 8], help="writer processes (1 2 4 8)"
    )
    parser.add_argument(
        "--append-seconds", type=float, default=3.0, help="seconds each measurement appends (3)"
    )
    parser.add_argument(
        "--append-rounds", type=int, default=3, help="rounds of every measurement (3)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    for line in bench_appends(
        args.writers, args.append_seconds, args.append_rounds, args.pg_dbname
    ):
        print(line, flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
