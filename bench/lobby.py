"""`GET /lobby` with many listed games, on SQLite and PostgreSQL.

Run it as a module from the project root:

    uv run python -m bench.lobby 2>/dev/null                       # 10,000 games, both stores
    uv run python -m bench.lobby --stores sqlite --games 2000 2>/dev/null
    uv run python -m bench.lobby --writers 2 2>/dev/null           # other processes writing

For each store (a fresh temporary SQLite file, or a schema of its own on the
local PostgreSQL server, dropped afterwards) it builds the service as `rummy
serve` does (service/bootstrap.py) and:

1. creates `--games` games with open seats through the application (2 to 6
   seats, one named player in a third of them, every tenth a knock game), then
   times the first `GET /lobby`, which reads their creations into the lobby
   (the catch-up a fresh store pays once; one listing reads at most 10,000,
   `MAX_BATCHES` x `BATCH` of service/store/lobby_store.py);
2. times, `--repeat` times each and interleaved, through litestar's test client:
   `GET /health` (the floor: the cheapest request of the same app, measured the
   same way in the same run), the first page (`limit=20`), a page deep in the
   order (`after` a cursor half way down), the filters (`variant=knock`,
   `players=4`, `min_open=3`), and a first page after one new game was created
   (the catch-up of one creation and the page; the creation is not timed).

It prints the median and p99 wall time of each, and each median over the
floor's. With `--writers N`, N other processes (replicas, as it were) write to
the same store all through step 2: each creates a two-seat game and fills it
with two joins, again and again (three appends, each one a row of the lobby to
change), so each timed page also catches up with their writes, and on
PostgreSQL may wait for their transactions (the feed's horizon). The app logs
every request to stderr: send it to /dev/null.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from multiprocessing.synchronize import Event as EventType

from litestar.testing import TestClient

from bench.stores import run_on_stores, store_settings, timed
from service.bootstrap import bootstrap, open_games
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.rates import NO_RATE_LIMITS


def populate(games: RummyApplication, count: int) -> None:
    for number in range(count):
        seats = 2 + number % 5
        variant = "knock" if number % 10 == 0 else "classic"
        wanted: list[NewSeat | None] = [NewSeat("ann")] if number % 3 == 0 else []
        wanted += [None] * (seats - len(wanted))
        rules = RuleSet.from_dict({"variant": variant}, players=seats)
        games.create_game(NewGame(seats=wanted, rules=rules))


def write(settings: Settings, stop: EventType) -> None:
    """A writer process: open games, filled by two joins, until `stop`."""
    games = open_games(settings)
    try:
        while not stop.is_set():
            game_id = games.create_game(NewGame(seats=[None, None])).game_id
            games.join_game(game_id, NewSeat("ann"))
            games.join_game(game_id, NewSeat("bob"))
    finally:
        games.close()


@contextmanager
def writers(settings: Settings, count: int) -> Iterator[None]:
    stop = multiprocessing.Event()
    processes = [multiprocessing.Process(target=write, args=(settings, stop)) for _ in range(count)]
    for process in processes:
        process.start()
    try:
        yield
    finally:
        stop.set()
        for process in processes:
            process.join()


def bench_store(store: Store, args: argparse.Namespace) -> list[str]:
    with store_settings(store) as settings:
        wiring = bootstrap(replace(settings, **NO_RATE_LIMITS))
        began = time.perf_counter()
        populate(wiring.games, args.games)
        created = time.perf_counter() - began
        lines = [
            f"{store.value}: {args.games} games created in {created:.1f} s; "
            f"{args.writers} writer processes while timing"
        ]
        with TestClient(wiring.app) as client:

            def get(path: str, **params: str | int | None) -> None:
                response = client.get(path, params=params)
                assert response.status_code == 200, response.text

            first = timed(lambda: get("/lobby"))
            lines.append(f"  first GET /lobby (catch-up of {args.games} creations): {first:.3f} s")
            listed = 0
            cursor = None
            while listed < args.games // 2:
                after: dict[str, str] = {} if cursor is None else {"after": cursor}
                page = client.get("/lobby", params={"limit": 100, **after})
                body = page.json()
                listed += len(body["games"])
                cursor = body["next"]
                if cursor is None:
                    break
            kinds: dict[str, Callable[[], None]] = {
                "GET /health (floor)": lambda: get("/health"),
                "GET /lobby": lambda: get("/lobby"),
                "GET /lobby deep (after half)": lambda: get("/lobby", after=cursor),
                "GET /lobby?variant=knock": lambda: get("/lobby", variant="knock"),
                "GET /lobby?players=4": lambda: get("/lobby", players=4),
                "GET /lobby?min_open=3": lambda: get("/lobby", min_open=3),
            }
            times: dict[str, list[float]] = {kind: [] for kind in kinds}
            times["GET /lobby after a creation"] = []
            with writers(settings, args.writers):
                for _ in range(args.repeat):
                    for kind, call in kinds.items():
                        times[kind].append(timed(call))
                    wiring.games.create_game(NewGame(seats=[None, None]))
                    times["GET /lobby after a creation"].append(timed(lambda: get("/lobby")))
        wiring.games.close()
    floor = statistics.median(times["GET /health (floor)"])
    for kind, values in times.items():
        ordered = sorted(values)
        median = statistics.median(ordered)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        lines.append(
            f"  {kind:<32} median {median * 1000:7.2f} ms  p99 {p99 * 1000:7.2f} ms  "
            f"{median / floor:5.1f}x floor"
        )
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--writers", type=int, default=0)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    run_on_stores(bench_store, parse_args(argv))


if __name__ == "__main__":
    main()
