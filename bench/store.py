"""Event-store throughput and rebuild times, through the application.

    uv run python bench/store.py                      # memory, sqlite, postgres
    uv run python bench/store.py --stores sqlite --actions 5000

For each store, in this one process:

- **actions/s**: complete games of random legal moves (the engine bench's
  player), one action per `games.play` command, the time spent in `play`
  counted. The players choose from a domain table of their own, so no view
  is read between commands; reading a game (`games.state`, what a view costs)
  is timed apart. On PostgreSQL, if one thread makes less than `--target`
  actions/s, `--threads` threads sharing one application (as the HTTP
  workers do), each playing its own games, are measured too, per second of
  wall time. PostgreSQL is measured twice: as the service runs (its
  `LockedInsertRecorder`, one statement per append), and with the library's
  own recorder for comparison.
- **appends/s on PostgreSQL with `--writers` writer processes**
  (`bench/appends.py`): the service's recorder against the locked one it
  replaced and against plain psycopg inserts (the floor), on the same
  database in the same run.
- **rebuilding a game of `--events` events** (a game played until it has
  that many, with a target of 1000, which a game seldom reaches first):
  *cold*: a fresh application without a cache reads and replays every event
  (also split into reading+decoding and replaying); *snapshot*: from a
  snapshot at the last version, and at the last multiple of 100 (then up to
  99 events replayed); *cache*: the cached game of a warm application (a
  query for newer events; the cached game itself is shared, not copied).

Each figure is the median of `--rounds` rounds (or of `--repeat` timings)
with the best one: on a busy machine the best is nearer what an idle one
gives. The load average is printed before and after.

Snapshots need transcodings: the aggregate's state holds domain objects
(`Table`, `Card`, …) that the library's JSON transcoder cannot store. The
bench registers its own (below) on a subclass of the application; the
service does not use snapshots (docs/storage.md says why).

PostgreSQL: the server named by POSTGRES_HOST/_PORT/_USER/_PASSWORD, database
`--pg-dbname` (default `test`), in a schema of its own dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import JSONTranscoder, Transcoding
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import get_topic

from bench.appends import add_arguments as add_append_arguments
from bench.appends import bench_appends
from bench.engine import random_action
from service.config import Settings, Store
from service.domain.cards import Card
from service.domain.decks import SeededDecks
from service.domain.events import HandEnded, from_plain, plain
from service.domain.melds import MeldKind, TableMeld
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import HandState, Phase, Table
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.postgres import new_schema, server_settings
from tests.store.locked_recorder import LockedInsertRecorder

NO_CACHE = {"AGGREGATE_CACHE_MAXSIZE": ""}
"""An empty size turns the library's aggregate cache off."""

ENDLESS = RuleSet(target=1000)
"""So the rebuild game reaches its number of events before it ends: the highest
target a new game may have (docs/rules.md "Caps"), some 5,000 events of play at two
seats. Built directly, it has no `max_hands` or `max_events`, as a game stored
before the caps."""


# --- measuring ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timing:
    """Milliseconds: the median of the runs, and the best (what an idle machine gives)."""

    median: float
    best: float

    def __str__(self) -> str:
        return f"{self.median:6.2f} ms (best {self.best:.2f})"


def timed(call: Callable[[], object], repeat: int) -> Timing:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - began))
    return Timing(statistics.median(times), min(times))


@dataclass(frozen=True, slots=True)
class Throughput:
    store: str
    threads: int
    actions: int
    rates: tuple[float, ...]
    """Actions per second of each round: with one thread per second spent in
    `games.act`; with several, per second of wall time (which also holds the
    players' own choosing of moves, a few percent)."""
    act_ms: float
    """The mean time of one `games.act`, over every thread and round."""
    view: Timing
    """Reading one game (`games.state`), as a view does."""

    def line(self) -> str:
        return (
            f"{self.store}, {self.threads} thread(s): "
            f"{statistics.median(self.rates):6,.0f} actions/s median of {len(self.rates)} rounds, "
            f"best {max(self.rates):,.0f} (play {self.act_ms:.2f} ms); reading a game {self.view}"
        )


def play_games(games: RummyApplication, actions: int, seed: str) -> tuple[int, float]:
    """Play games of random legal moves until `actions` commands; (commands,
    seconds spent in `games.act`). The players choose from a domain table that
    plays the same moves, so no read of the game is needed between commands."""
    rng = random.Random(seed)
    done = 0
    acting = 0.0
    number = 0
    while done < actions:
        number += 1
        game_seed = f"{seed}/{number}"
        game_id = games.create_game(
            NewGame(seats=[NewSeat("a"), NewSeat("b")], seed=game_seed)
        ).game_id
        table = Table(rules=RuleSet(), seat_count=2, seated=[True, True])
        decks = SeededDecks(seed=game_seed, client_seeds=("", ""))
        start(table, decks)
        while done < actions and not table.finished:
            seat, request = random_action(table, rng)
            began = time.perf_counter()
            version = games.play(game_id, seat, list(request)).state.version
            acting += time.perf_counter() - began
            play(table, seat, request, decks)
            done += 1
        assert games.state(game_id).version == version, "the players' table kept up"
    return done, acting


def one_round(
    games: RummyApplication, seed: str, actions: int, threads: int
) -> tuple[int, float, float]:
    """`threads` threads sharing `games`, each playing its own games, `actions`
    commands in all; (commands, seconds in `games.act` summed, seconds of wall time)."""
    results: list[tuple[int, float]] = []
    lock = threading.Lock()

    def worker(number: int) -> None:
        result = play_games(games, actions // threads, f"{seed}-{number}")
        with lock:
            results.append(result)

    workers = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    began = time.perf_counter()
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    wall = time.perf_counter() - began
    return sum(done for done, _ in results), sum(acting for _, acting in results), wall


def throughput(
    games: RummyApplication, store: str, actions: int, threads: int, rounds: int
) -> Throughput:
    rates: list[float] = []
    act_seconds = 0.0
    done = 0
    for round_ in range(rounds):
        seed = f"bench-{store}-{threads}-{round_}"
        made, acting, wall = one_round(games, seed, actions // rounds, threads)
        rates.append(made / (acting if threads == 1 else wall))
        act_seconds += acting
        done += made
    game_id = games.create_game(NewGame(seats=[NewSeat("a"), NewSeat("b")])).game_id
    return Throughput(
        store=store,
        threads=threads,
        actions=done,
        rates=tuple(rates),
        act_ms=1000 * act_seconds / done,
        view=timed(lambda: games.state(game_id), 200),
    )


# --- snapshots ----------------------------------------------------------------


class CardAsCode(Transcoding):
    type = Card
    name = "card"

    def encode(self, obj: Card) -> str:
        return obj.code

    def decode(self, data: str) -> Card:
        return Card.parse(data)


class RuleSetAsDict(Transcoding):
    type = RuleSet
    name = "rule_set"

    def encode(self, obj: RuleSet) -> dict[str, Any]:
        return obj.to_dict()

    def decode(self, data: dict[str, Any]) -> RuleSet:
        return RuleSet.from_dict(data)


class MeldAsDict(Transcoding):
    type = TableMeld
    name = "table_meld"

    def encode(self, obj: TableMeld) -> dict[str, Any]:
        return {
            "id": obj.id,
            "kind": obj.kind.value,
            "cards": obj.cards,
            "owner": obj.owner,
            "laid_off": obj.laid_off,
        }

    def decode(self, data: dict[str, Any]) -> TableMeld:
        return TableMeld(
            id=data["id"],
            kind=MeldKind(data["kind"]),
            cards=data["cards"],
            owner=data["owner"],
            laid_off=[(card, seat) for card, seat in data["laid_off"]],
        )


class ResultAsDict(Transcoding):
    """A table's `last_hand`: the `hand_ended` event that ended it, in the events' own
    plain form (every field of the result, the variants' included)."""

    type = HandEnded
    name = "hand_ended"

    def encode(self, obj: HandEnded) -> dict[str, Any]:
        return plain(obj)[1]

    def decode(self, data: dict[str, Any]) -> HandEnded:
        ended = from_plain("hand_ended", None, data)
        assert isinstance(ended, HandEnded)
        return ended


class HandAsDict(Transcoding):
    type = HandState
    name = "hand_state"
    FIELDS = tuple(field.name for field in fields(HandState) if field.name != "phase")

    def encode(self, obj: HandState) -> dict[str, Any]:
        return {"phase": obj.phase.value, **{name: getattr(obj, name) for name in self.FIELDS}}

    def decode(self, data: dict[str, Any]) -> HandState:
        return HandState(**{**data, "phase": Phase(data["phase"])})


class TableAsDict(Transcoding):
    type = Table
    name = "table"
    FIELDS = tuple(field.name for field in fields(Table))

    def encode(self, obj: Table) -> dict[str, Any]:
        return {name: getattr(obj, name) for name in self.FIELDS}

    def decode(self, data: dict[str, Any]) -> Table:
        return Table(**data)


class SnapshottingRummy(RummyApplication):
    """The application with a snapshot store and the transcodings its state needs."""

    name = "rummy"  # a subclass is named after itself, and so are its tables
    is_snapshotting_enabled = True
    snapshot_class = Snapshot
    TRANSCODINGS: ClassVar[list[Transcoding]] = [
        CardAsCode(),
        RuleSetAsDict(),
        MeldAsDict(),
        ResultAsDict(),
        HandAsDict(),
        TableAsDict(),
    ]

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for transcoding in self.TRANSCODINGS:
            transcoder.register(transcoding)


# --- the library's own PostgreSQL recorder, for comparison -------------------------

LIBRARY_RECORDER = {"APPLICATION_RECORDER_TOPIC": get_topic(PostgresApplicationRecorder)}
"""Several round trips per append under the table lock; the service uses
`service.store.postgres.TransactionOrderRecorder`, one statement and no lock."""
LOCKED_RECORDER = {"APPLICATION_RECORDER_TOPIC": get_topic(LockedInsertRecorder)}
"""The service's recorder before 1.0.0: one statement under the table lock."""


# --- rebuilding -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rebuild:
    store: str
    events: int
    cold_first_ms: float
    cold: Timing
    read: Timing
    snapshot: Timing
    snapshot_tail: int
    snapshot_tail_timing: Timing
    cached: Timing

    def lines(self) -> list[str]:
        return [
            f"{self.store:8} rebuilding a game of {self.events} events:",
            f"  cold (fresh application, no cache): {self.cold}; the first read "
            f"{self.cold_first_ms:.2f} ms; of which reading and decoding {self.read}",
            f"  from a snapshot at the last version: {self.snapshot}",
            f"  from a snapshot {self.snapshot_tail} events back: {self.snapshot_tail_timing}",
            f"  from the cache (a query for newer events): {self.cached}",
        ]


def game_of(games: RummyApplication, events: int, seed: str) -> UUID:
    """A game played until it holds at least `events` events."""
    rng = random.Random(seed)
    game_id = games.create_game(
        NewGame(seats=[NewSeat("a"), NewSeat("b")], rules=ENDLESS, seed=seed)
    ).game_id
    version = 1
    while version < events:
        seat, request = random_action(games.state(game_id).table, rng)
        version = games.play(game_id, seat, list(request)).state.version
    return game_id


def rebuild(
    settings: Settings, open_games: Callable[..., RummyApplication], events: int, repeat: int
) -> Rebuild:
    store = settings.store.value
    writer = open_games(SnapshottingRummy)
    game_id = game_of(writer, events, f"rebuild-{store}")
    latest = writer.state(game_id)
    version = latest.version

    if settings.store is Store.MEMORY:
        # Nothing is shared between applications in memory: read at a version,
        # which always rebuilds from the store (no snapshot has been taken yet).
        cold_games: RummyApplication = writer
    else:
        cold_games = open_games(RummyApplication, **NO_CACHE)
    began = time.perf_counter()
    cold = cold_games.state(game_id, version=version)
    cold_first_ms = 1000 * (time.perf_counter() - began)
    assert cold == latest, "a cold rebuild is the game as it was live"
    cold_timing = timed(lambda: cold_games.state(game_id, version=version), repeat)
    read = timed(lambda: list(cold_games.events.get(game_id, lte=version)), repeat)

    back = min(version - 1, version - version // 100 * 100 or 100)
    writer.take_snapshot(game_id, version=version - back)
    from_tail = writer.state(game_id, version=version)
    assert from_tail == latest, "a rebuild from a snapshot is the game as it was live"
    tail = timed(lambda: writer.state(game_id, version=version), repeat)
    writer.take_snapshot(game_id, version=version)
    assert writer.state(game_id, version=version) == latest
    snapshot = timed(lambda: writer.state(game_id, version=version), repeat)

    cached = timed(lambda: writer.state(game_id), repeat)
    return Rebuild(
        store=store,
        events=version,
        cold_first_ms=cold_first_ms,
        cold=cold_timing,
        read=read,
        snapshot=snapshot,
        snapshot_tail=back,
        snapshot_tail_timing=tail,
        cached=cached,
    )


# --- stores -----------------------------------------------------------------------


@contextmanager
def store_settings(store: Store, pg_dbname: str) -> Iterator[Settings]:
    """Settings for a throw-away store of the kind named."""
    if store is Store.MEMORY:
        yield Settings(store=store)
        return
    if store is Store.SQLITE:
        with tempfile.TemporaryDirectory(prefix="rummy-bench-") as directory:
            yield Settings(store=store, sqlite_path=str(Path(directory) / "bench.sqlite"))
        return
    # The local test server (tests/postgres.py), in the database `pg_dbname`.
    server = replace(server_settings(), postgres_dbname=pg_dbname, postgres_pool_size=8)
    with new_schema("rummy_bench", server) as settings:
        yield settings


def bench_store(store: Store, args: argparse.Namespace) -> list[str]:
    lines: list[str] = []
    with store_settings(store, args.pg_dbname) as settings:
        opened: list[RummyApplication] = []

        def open_games(kind: type[RummyApplication], **env: str) -> RummyApplication:
            games = kind(env={**settings.event_store_env(), **env})
            opened.append(games)
            return games

        try:
            variants: list[tuple[str, dict[str, str]]] = [(store.value, {})]
            if store is Store.POSTGRES:
                variants.append(("postgres, the locked recorder (before)", LOCKED_RECORDER))
                variants.append(("postgres, the library's recorder", LIBRARY_RECORDER))
            for name, env in variants:
                games = open_games(RummyApplication, **env)
                play_games(games, min(200, args.actions), f"warm-up {name}")
                single = throughput(games, name, args.actions, 1, args.rounds)
                lines.append(single.line())
                if store is Store.POSTGRES and statistics.median(single.rates) < args.target:
                    for threads in args.threads:
                        rerun = throughput(games, name, args.actions, threads, args.rounds)
                        lines.append(rerun.line())
            lines.extend(rebuild(settings, open_games, args.events, args.repeat).lines())
        finally:
            for games in opened:
                with suppress(Exception):
                    games.close()
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--stores",
        nargs="+",
        type=Store,
        default=list(Store),
        help="stores to measure (default: memory sqlite postgres)",
    )
    parser.add_argument("--actions", type=int, default=3000, help="commands per run (3000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds the actions are split in")
    parser.add_argument("--events", type=int, default=500, help="events of the rebuilt game")
    parser.add_argument("--repeat", type=int, default=30, help="timings per rebuild figure")
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[2, 4, 8],
        help="thread counts for the PostgreSQL reruns (2 4 8)",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=1000.0,
        help="actions/s under which PostgreSQL is rerun with threads (1000)",
    )
    parser.add_argument("--pg-dbname", default="test", help="PostgreSQL database (test)")
    add_append_arguments(parser)
    return parser.parse_args(argv)


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # The figures mean little on a busy machine: say how busy it was.
    print(load_average(), flush=True)
    for store in args.stores:
        for line in bench_store(store, args):
            print(line, flush=True)
        if store is Store.POSTGRES:
            appends = bench_appends(
                args.writers, args.append_seconds, args.append_rounds, args.pg_dbname
            )
            for line in appends:
                print(line, flush=True)
    print(load_average(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
