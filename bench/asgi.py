"""Server cost per request, in process: the ASGI app called directly, no network.

Run it as a module from the project root:

    uv run python -m bench.asgi 2>/dev/null                  # 2,000 actions on SQLite
    uv run python -m bench.asgi --store memory --actions 5000 2>/dev/null
    uv run python -m bench.asgi --actions 1000 --profile --sort tottime 2>/dev/null

It builds the app as `rummy serve` does (middleware, logging, metrics; the store
a fresh temporary SQLite file, or memory), then calls it as an ASGI callable:

1. `--health` warm-up requests (`GET /health`, not reported);
2. complete two-player games of one scored deal (bench/load's short game),
   until `--actions` actions: every turn a `GET /games/{id}` view by the seat to
   move with its token, then a `POST /games/{id}/actions` of one of its `legal`
   moves chosen at random. `--seed` seeds the deals and the choices, so every run
   plays the same games. `--keys` sends an `Idempotency-Key` with every action.

For each kind of request it prints the count, the mean, p50 and p99 wall time
and the mean CPU time of the thread that calls the app (the request's own
work); then the whole process's CPU per action (view and POST together, every
thread: the log writer's too, floors left out). Its floors, measured in the
same run, one of each before every turn: `GET /health` (the cheapest request
of the same app), and the library's own append on the same store (a trivial
aggregate saved with one new event, through an eventsourcing `Application` of
its own; the line `floor append`). The last
lines are the ratios the issue's targets name: a view GET against `/health`,
an action POST against the floor append plus two `/health`. Without a network
or a client in the way, these are the server's own costs: what bench/load's
throughput is made of.

The app logs every request as the service does, to stderr: send it to
/dev/null as above (the report goes to stdout). With `--profile`, cProfile
records the view and action requests (not /health) and prints the top
`--top` functions by `--sort`; the profiler slows every call, so the times
printed with it are not the app's. The machine's load moves the figures:
compare medians of several runs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from litestar import Litestar
from litestar.types import HTTPRequestEvent, Message, ReceiveMessage, Scope

from bench.load.players import SHORT_GAME, View, parse_view
from bench.load.stats import Latency
from service.bootstrap import bootstrap
from service.config import Settings
from tests.rates import NO_RATE_LIMITS_ENV

KINDS = ("health", "view", "action")
"""The kinds of request reported; game creations are timed too, but not reported."""
PROFILED = frozenset({"view", "action"})


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes


@dataclass
class Timings:
    """Wall and thread CPU seconds of each request, by kind."""

    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    process_cpu: float = 0.0
    """CPU seconds of the whole process while the games were played."""
    appends: list[float] = field(default_factory=list)
    """CPU seconds of each of the floor's appends (the thread's), one before each turn."""


@dataclass(frozen=True)
class Options:
    store: str
    actions: int
    health: int
    seed: int
    profile: bool
    sort: str
    top: int
    keys: bool


class Counter(Aggregate):
    """The floor's aggregate: one event per command, nothing to decide."""

    @event("Counted")
    def count(self) -> None:
        pass


class FloorAppends:
    """The library's own append on the store `env` names (tables of its own): a trivial
    aggregate saved with one new event each time, nothing decided."""

    def __init__(self, env: dict[str, str]) -> None:
        class Floor(Application[Any]):
            name = "floor"

        self.floor = Floor(env)
        self.counter = Counter()
        self.floor.save(self.counter)

    def append(self) -> float:
        """One append; the thread CPU seconds it took."""
        began = time.thread_time()
        self.counter.count()
        self.floor.save(self.counter)
        return time.thread_time() - began

    def close(self) -> None:
        self.floor.close()


class Driver:
    """Calls the app the way a server would, timing each request."""

    def __init__(
        self,
        app: Litestar,
        timings: Timings,
        profiler: cProfile.Profile | None,
        floor: FloorAppends,
    ):
        self.app = app
        self.timings = timings
        self.profiler = profiler
        self.floor = floor

    async def floors(self) -> None:
        """One `/health` and one floor append, timed beside the turn they precede: the
        machine's speed moves by up to 2x from minute to minute, so the floors are
        measured all along the run, not once before it."""
        await self.request("health", "GET", "/health")
        self.timings.appends.append(self.floor.append())

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        key: str | None = None,
    ) -> Response:
        content = b"" if body is None else json.dumps(body).encode()
        headers = [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()),
        ]
        if token is not None:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        if key is not None:
            headers.append((b"idempotency-key", key.encode()))
        profiler = self.profiler if kind in PROFILED else None
        with profiler if profiler is not None else nullcontext():
            began, began_cpu = time.perf_counter(), time.thread_time()
            response = await self._call(method, path, content, headers)
            cpu, wall = time.thread_time() - began_cpu, time.perf_counter() - began
        self.timings.cpu.setdefault(kind, []).append(cpu)
        self.timings.wall.setdefault(kind, []).append(wall)
        return response

    async def _call(
        self, method: str, path: str, content: bytes, headers: list[tuple[bytes, bytes]]
    ) -> Response:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
            "state": {},
            "extensions": {},
        }
        received = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> ReceiveMessage:
            nonlocal received
            if received:  # the client stays until the answer is sent
                await asyncio.Event().wait()
            received = True
            return HTTPRequestEvent(type="http.request", body=content, more_body=False)

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(cast("Scope", scope), receive, send)
        return Response(status, b"".join(chunks))


async def play_game(
    driver: Driver, rng: random.Random, seed: str, actions_left: int, keys: bool
) -> int:
    """Play one game dealt from `seed` until it ends or `actions_left` actions; returns
    the actions made."""
    create = {"players": [{"name": "ann"}, {"name": "bob"}], "rules": SHORT_GAME, "seed": seed}
    created = await driver.request("create", "POST", "/games", create)
    if created.status != 201:
        raise RuntimeError(f"cannot create a game: {created.status} {created.body[:200]!r}")
    game = json.loads(created.body)
    path = f"/games/{game['game_id']}"
    tokens = {player["seat"]: player["token"] for player in game["players"]}
    seat, made = 0, 0
    while made < actions_left:
        await driver.floors()
        view = _view(await driver.request("view", "GET", path, token=tokens[seat]))
        if view.status in ("finished", "aborted"):
            break
        if view.turn is not None and view.turn != seat:  # before the first move only
            seat = view.turn
            continue
        move = rng.choice(view.moves)
        key = f"{seed}-{made}" if keys else None
        after = _view(
            await driver.request("action", "POST", f"{path}/actions", move, tokens[seat], key)
        )
        made += 1
        if after.status in ("finished", "aborted"):
            break
        seat = after.turn if after.turn is not None else seat
    return made


def _view(response: Response) -> View:
    if response.status != 200:
        raise RuntimeError(f"unexpected answer {response.status}: {response.body[:200]!r}")
    return parse_view(response.body)


async def run(options: Options, workdir: Path) -> Timings:
    settings = Settings.from_env(
        {
            "RUMMY_STORE": options.store,
            "RUMMY_SQLITE_PATH": str(workdir / "bench.sqlite"),
            **NO_RATE_LIMITS_ENV,
        }
    )
    app = bootstrap(settings).app
    timings = Timings()
    profiler = cProfile.Profile() if options.profile else None
    floor = FloorAppends(settings.event_store_env())
    driver = Driver(app, timings, profiler, floor)
    rng = random.Random(options.seed)
    async with app.lifespan():
        for _ in range(options.health):
            await driver.request("warm-up", "GET", "/health")
        began = time.process_time()
        made = games = 0
        while made < options.actions:
            made += await play_game(
                driver, rng, f"{options.seed}-{games}", options.actions - made, options.keys
            )
            games += 1
        floors = sum(timings.cpu["health"]) + sum(timings.appends)
        timings.process_cpu = time.process_time() - began - floors
    floor.close()
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats(options.sort).print_stats(options.top)
    return timings


def report(timings: Timings) -> None:
    print(f"{'ms':<8}{'n':>7}{'mean':>8}{'p50':>8}{'p99':>8}{'cpu':>8}")
    for kind in KINDS:
        wall, cpu = timings.wall[kind], timings.cpu[kind]
        latency = Latency.of(wall)
        print(
            f"{kind:<8}{latency.count:>7}{statistics.fmean(wall) * 1000:>8.3f}"
            f"{latency.p50:>8.3f}{latency.p99:>8.3f}{statistics.fmean(cpu) * 1000:>8.3f}"
        )
    floor = statistics.fmean(timings.appends) * 1000
    print(f"{'floor append':<13}{len(timings.appends):>2}{floor:>29.3f}  (thread CPU, ms)")
    actions = len(timings.wall["action"])
    print(
        "process CPU per action (view + POST, all threads): "
        f"{timings.process_cpu / actions * 1000:.3f} ms"
    )
    health, view, action = (statistics.fmean(timings.cpu[kind]) * 1000 for kind in KINDS)
    print(
        f"ratios (CPU): view / health {view / health:.2f} (target <= 2); "
        f"action / (floor append + 2 health) {action / (floor + 2 * health):.2f} (target <= 1)"
    )


def parse_args(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m bench.asgi", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--store", choices=["memory", "sqlite"], default="sqlite")
    parser.add_argument("--actions", type=int, default=2000, help="actions to play (2000)")
    parser.add_argument(
        "--health", type=int, default=300, help="GET /health requests to warm up (300)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (1)")
    parser.add_argument("--profile", action="store_true", help="cProfile views and actions")
    parser.add_argument("--sort", default="cumulative", help="profile order (cumulative)")
    parser.add_argument("--top", type=int, default=60, help="profile lines to print (60)")
    parser.add_argument(
        "--keys", action="store_true", help="send an Idempotency-Key with every action"
    )
    args = parser.parse_args(argv)
    if args.actions < 1 or args.health < 1:
        parser.error("--actions and --health must be positive")
    return Options(**vars(args))


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-asgi-") as workdir:
        timings = asyncio.run(run(options, Path(workdir)))
    report(timings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
