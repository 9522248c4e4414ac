"""Turn clocks: how late a deadline fires, and what the keeper costs when idle.

Run it as a module from the project root:

    uv run python -m bench.clocks                     # PostgreSQL (2 replicas) and SQLite
    uv run python -m bench.clocks --store sqlite --games 200 --idle-seconds 10
    uv run python -m bench.clocks --spread 10         # the games made over 10 s, not at once

For each store it starts `rummy serve` (on PostgreSQL `--replicas` processes on a
fresh schema, on SQLite one on a fresh file) and measures, in order:

1. the floor: `--games` games with a clock that will not run out during the
   bench (`turn_seconds` 3600), served with `RUMMY_CLOCKS=off`: the servers'
   CPU over `--idle-seconds` while nothing happens;
2. the same servers restarted with the clocks on, once the keeper has found
   every one of those deadlines again (from stored state): their CPU over
   `--idle-seconds` (no deadline due), printed beside the floor;
3. `--games` new games on short clocks (`turn_seconds` 5, the least the rules
   allow; a person who never moves against a bot, the seat forfeited after
   `--takeover` timeouts), created by `--clients` threads at once (of the
   bench's own process, on the same store: the servers' keepers find them in
   the feed, as they find another replica's): the lag of
   every timeout after its deadline, from the stored events (the event's time
   minus the deadline the rules compute on the game replayed to the version
   before: p50, p99, the worst);
4. in the bench's own process, the firing rate of `--rate-games` due games
   each way: the application's `time_out` alone (the floor), then through
   the keeper (claim, fire, next deadline), and the keeper's share of a
   firing.

The servers' CPU is read from /proc (the bench's own runs on the same cores).
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql

from bench.load.cpu import tree_cpu
from bench.load.stats import Latency
from service.bootstrap import clock_keeper, open_games
from service.clocks.deadlines import DEADLINES
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.clock import turn_deadline
from service.game.commands import NewGame, NewSeat
from tests.postgres import conninfo, new_schema, service_environment
from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import Replica, clean_environment, running_replicas

ADMIN_TOKEN = "clocks-bench-admin-token-0123456789"
LONG_CLOCK = 3600
SHORT_CLOCK = 5
POLL_SECONDS = Settings().clocks_poll_ms / 1000
"""The keepers' poll: the servers run with the default `RUMMY_CLOCKS_POLL_MS`."""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["postgres", "sqlite", "both"], default="both")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--replicas", type=int, default=2, help="on PostgreSQL")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--takeover", type=int, default=2)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--finish-seconds", type=float, default=240.0)
    parser.add_argument("--rate-games", type=int, default=300)
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="create the short-clock games over this many seconds (0: at once, a burst)",
    )
    options = parser.parse_args(argv)
    stores = ["postgres", "sqlite"] if options.store == "both" else [options.store]
    for store in stores:
        with store_settings(store) as settings:
            run(settings, options)


@contextmanager
def store_settings(store: str) -> Iterator[Settings]:
    if store == "postgres":
        with new_schema("rummy_bench_clocks") as settings:
            yield settings
        return
    with tempfile.TemporaryDirectory(prefix="rummy-clocks-") as directory:
        yield Settings(store=Store.SQLITE, sqlite_path=str(Path(directory) / "rummy.sqlite"))


def environment(settings: Settings, clocks: bool) -> dict[str, str]:
    store = (
        service_environment(settings)
        if settings.store is Store.POSTGRES
        else {"RUMMY_STORE": "sqlite", "RUMMY_SQLITE_PATH": settings.sqlite_path}
    )
    return {
        **clean_environment(),
        **NO_RATE_LIMITS_ENV,
        **store,
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_CLOCKS": "on" if clocks else "off",
    }


@contextmanager
def servers(settings: Settings, count: int, clocks: bool) -> Iterator[list[Replica]]:
    with running_replicas(environment(settings, clocks), count) as started:
        yield started


def create_games(
    games: RummyApplication, count: int, clients: int, rules: dict[str, Any], spread: float = 0.0
) -> list[UUID]:
    """`count` games of a silent person against a bot, made by this process (which
    keeps no clocks: the servers' keepers find them in the feed), evenly over
    `spread` seconds (0: as fast as they can be made)."""
    rule_set = RuleSet.from_dict(rules)
    start = time.monotonic()

    def create(index: int) -> UUID:
        time.sleep(max(0.0, start + spread * index / count - time.monotonic()))
        seats = [NewSeat(f"silent{index}"), NewSeat("bo", bot="basic")]
        return games.create_game(NewGame(seats=seats, rules=rule_set)).game_id

    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(create, range(count)))


def rows_due_before(settings: Settings, before: float) -> int:
    """Deadline rows the keepers hold due before `before` (Unix seconds)."""
    if settings.store is Store.SQLITE:
        with sqlite3.connect(settings.sqlite_path) as connection:
            found = connection.execute(
                f"SELECT count(*) FROM {DEADLINES} WHERE due_at < ?", (before,)
            ).fetchone()
            return int(found[0])
    with psycopg.connect(conninfo(settings)) as connection:
        found = connection.execute(
            sql.SQL("SELECT count(*) FROM {} WHERE due_at < %s").format(
                sql.Identifier(settings.postgres_schema, DEADLINES)
            ),
            (before,),
        ).fetchone()
        assert found is not None
        return int(found[0])


def rows_kept(settings: Settings) -> int:
    try:
        return rows_due_before(settings, float("inf"))
    except (sqlite3.Error, psycopg.Error):
        return 0


def idle_cpu(replicas: list[Replica], seconds: float) -> float:
    """CPU seconds per second the servers used over `seconds` of nothing."""
    pids = [replica.pid for replica in replicas]
    before = tree_cpu(pids)
    time.sleep(seconds)
    return (tree_cpu(pids) - before) / seconds


def lags(games: RummyApplication, game_ids: Sequence[UUID]) -> list[float]:
    """Seconds from each timeout's deadline to the timeout's stored time."""
    found: list[float] = []
    for game_id in game_ids:
        game: Any = None
        events: list[Any] = list(games.events.get(game_id))
        for event in events:
            if event.event_type == "turn_timed_out":
                deadline = turn_deadline(game)
                assert deadline is not None, f"{game_id}: a timeout with no clock"
                found.append((event.timestamp - deadline.at).total_seconds())
            game = event.mutate(game)
    return found


def firing_rates(settings: Settings, count: int, takeover: int) -> tuple[float, float]:
    """Firings a second in this process, on `count` due games each way: the
    application's `time_out` called alone (the floor), and through the keeper
    (claim, `time_out`, the next deadline read and written)."""
    now = [datetime.now(UTC)]
    games = open_games(settings, now=lambda: now[0])
    try:
        rules = RuleSet.from_dict(
            {"deals": 1, "turn_seconds": SHORT_CLOCK, "timeouts_before_takeover": takeover}
        )
        seats = [NewSeat("silent"), NewSeat("bo", bot="basic")]
        made = [games.create_game(NewGame(seats=seats, rules=rules)) for _ in range(2 * count)]
        keeper = clock_keeper(settings, games)
        assert keeper is not None
        keeper.follow()
        # A clock that stands still just after the first deadlines: the next ones
        # (5 s after each timeout) are not due.
        now[0] = max(
            due.at for due in (games.deadline(game.game_id) for game in made) if due
        ) + timedelta(milliseconds=1)
        started = time.perf_counter()
        alone = sum(games.time_out(game.game_id, game.version) for game in made[:count])
        alone_rate = alone / (time.perf_counter() - started)
        keeper.follow()  # the rows of the games just timed out move on (not timed)
        started = time.perf_counter()
        fired = keeper.fire_due()
        kept_rate = fired / (time.perf_counter() - started)
        keeper.stop()
        assert alone == count, f"time_out fired {alone} of {count}"
        assert fired == count, f"the keeper fired {fired} of {count}"
        return alone_rate, kept_rate
    finally:
        games.close()


def run(settings: Settings, options: argparse.Namespace) -> None:
    count = options.replicas if settings.store is Store.POSTGRES else 1
    print(f"== {settings.describe_store()}: {count} server(s), {options.games} games")
    long_rules = {"deals": 1, "turn_seconds": LONG_CLOCK}
    maker = open_games(settings)
    with servers(settings, count, clocks=False) as replicas:
        create_games(maker, options.games, options.clients, long_rules)
        time.sleep(2.0)
        floor = idle_cpu(replicas, options.idle_seconds)
    with servers(settings, count, clocks=True) as replicas:
        found_again = time.monotonic()
        until = found_again + 120.0
        while rows_kept(settings) < options.games and time.monotonic() < until:
            time.sleep(0.2)
        found_again = time.monotonic() - found_again
        print(
            f"restarted with clocks on: {rows_kept(settings)} deadlines found again "
            f"from stored state in {found_again:.1f} s"
        )
        time.sleep(2.0)
        idle = idle_cpu(replicas, options.idle_seconds)
        print(
            f"idle CPU over {options.idle_seconds:.0f} s ({options.games} clocks running, "
            f"none due): floor (RUMMY_CLOCKS=off) {floor * 1000:.1f} ms/s, "
            f"clocks on {idle * 1000:.1f} ms/s, the keepers' cost {(idle - floor) * 1000:.1f} "
            f"ms/s ({count} server(s))"
        )

        short_rules = {
            "deals": 1,
            "turn_seconds": SHORT_CLOCK,
            "timeouts_before_takeover": options.takeover,
            "abandon": "forfeit",
        }
        started = time.monotonic()
        short = create_games(maker, options.games, options.clients, short_rules, options.spread)
        created = time.monotonic() - started
        until = time.monotonic() + options.finish_seconds
        # The keepers store a game's row at their next read of the feed (up to a poll
        # after its creation): until the first clocks have run out, no rows yet is
        # not "all fired" (a few games made in a blink would otherwise end the wait).
        first_due = started + SHORT_CLOCK + 2 * POLL_SECONDS
        while (
            time.monotonic() < first_due or rows_due_before(settings, time.time() + LONG_CLOCK / 2)
        ) and time.monotonic() < until:
            time.sleep(0.5)
        left = rows_due_before(settings, time.time() + LONG_CLOCK / 2)
    maker.close()
    games = open_games(replace(settings, aggregate_cache_size=0), bots=None)
    try:
        lag = Latency.of(lags(games, short))
    finally:
        games.close()
    print(
        f"{options.games} games on {SHORT_CLOCK} s clocks created in {created:.1f} s; "
        f"{lag.count} timeouts; lag after the deadline: p50 {lag.p50:.0f} ms, "
        f"p99 {lag.p99:.0f} ms, worst {lag.worst:.0f} ms"
        + (f" ({left} short clocks still running at the end!)" if left else "")
    )
    alone, kept = firing_rates(settings, options.rate_games, options.takeover)
    print(
        f"firing in one process, {options.rate_games} due games each way: time_out alone "
        f"(floor) {alone:.0f}/s, through the keeper {kept:.0f}/s "
        f"(the keeper's share {(1 / kept - 1 / alone) * 1000:.2f} ms a firing)"
    )


if __name__ == "__main__":
    main()
