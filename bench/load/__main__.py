"""HTTP throughput: concurrent clients playing complete games against real servers.

Run it as a module from the project root:

    uv run python -m bench.load --store sqlite --games 32 --seconds 20
    uv run python -m bench.load --store postgres --replicas 1,2,3

For each replica count it starts that many `rummy serve` processes on ports
of 127.0.0.1 (consecutive from `--port` if given) over one fresh store (a
temporary SQLite file, or a new schema on the local PostgreSQL, the one
tests/postgres.py uses, dropped afterwards), waits for `/ready`, and then:

1. `--games` clients each play complete two-player games back to back: create
   a game with named players, then every turn GET the view of the seat to
   move with its token, pick uniformly among its `legal` moves and POST it to
   `/games/{id}/actions`. Each request goes to a randomly chosen replica.
   With `--keys`, every action carries a fresh `Idempotency-Key`, as a
   careful client's would (the server then also reads the key's refusal
   record: service/store/refusals.py).
2. As many clients GET `/health` (the cheapest route of the same app), to
   show what the server costs without the game.

Only requests that start after the warm-up and end before the deadline are
counted. It prints actions/s (action POSTs only), requests/s, p50/p95/p99
latency per kind of request, errors (any non-2xx but the 409/412 the contract
allows, and any transport error; there should be none), where the machine's
CPU went (bench client, servers, PostgreSQL, other processes), and on
PostgreSQL how long the event store's table lock is held and by whom (its own
servers' connections only: bench/load/locks.py). With a list of replica
counts it ends with one line per count. The servers are always stopped and
the store removed, even on error or Ctrl-C.

The players speak HTTP/1.1 over asyncio streams (`--client stream`): httpx
costs the client 10-25 times more CPU a request, and on a small machine the
client would then measure itself (`--client httpx` to compare). Games use one
scored deal (`--rules`), so that they finish within a run. Measure on an
otherwise idle machine: the CPU line says when it was not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.load.clients import clients_for
from bench.load.cpu import CpuSample
from bench.load.locks import LockSample, sample_locks
from bench.load.options import BenchError, Options
from bench.load.players import SHORT_GAME, game_player, health_player
from bench.load.report import Result, report, summary
from bench.load.servers import running_servers, scratch_store
from bench.load.stats import Stats


async def run_replicas(replicas: int, options: Options) -> Result:
    rng = random.Random(options.seed)
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rummy-bench-")))
        if options.keep_logs:
            stack.callback(lambda: _keep_logs(workdir))
        store = stack.enter_context(scratch_store(options.store, workdir))
        servers = stack.enter_context(running_servers(replicas, store, options, workdir))
        async with clients_for(servers, options) as clients:
            pids = [server.pid for server in servers]
            now = time.perf_counter()
            games = Stats(start=now + options.warmup, end=now + options.warmup + options.seconds)
            locks = LockSample() if store.postgres is not None else None
            async with asyncio.TaskGroup() as group:
                for index in range(options.games):
                    player = game_player(
                        index, clients, games, options, random.Random(rng.random())
                    )
                    group.create_task(player)
                if locks is not None:
                    group.create_task(sample_locks(store.conninfo, store.app_name, games, locks))
                await asyncio.sleep(options.warmup)
                before = CpuSample.now(pids)
                await asyncio.sleep(options.seconds)
                cpu = before.until(CpuSample.now(pids))

            now = time.perf_counter()
            health = Stats(start=now + 0.5, end=now + 0.5 + options.health_seconds)
            async with asyncio.TaskGroup() as group:
                for _ in range(options.games):
                    group.create_task(health_player(clients, health, random.Random(rng.random())))
                await asyncio.sleep(0.5)
                before = CpuSample.now(pids)
                await asyncio.sleep(options.health_seconds)
                health_cpu = before.until(CpuSample.now(pids))
    return Result(replicas, games, health, cpu, health_cpu, locks)


def _keep_logs(workdir: Path) -> None:
    kept = Path(tempfile.mkdtemp(prefix="rummy-bench-logs-"))
    for log in workdir.glob("server-*.log"):
        shutil.copy(log, kept / log.name)
    print(f"server logs kept in {kept}")


def _replica_counts(raw: str) -> list[int]:
    try:
        counts = [int(part) for part in raw.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {raw!r}") from None
    if not counts or any(count < 1 for count in counts):
        raise argparse.ArgumentTypeError(f"replica counts must be 1 or more: {raw!r}")
    return counts


def _key_value(raw: str) -> tuple[str, str]:
    key, equals, value = raw.partition("=")
    if not equals or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {raw!r}")
    return key, value


def _rules(raw: str) -> dict[str, Any]:
    try:
        rules = json.loads(raw)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"--rules is not JSON: {error}") from None
    if not isinstance(rules, dict):
        raise argparse.ArgumentTypeError("--rules must be a JSON object")
    return rules


def parse_args(argv: Sequence[str] | None) -> tuple[list[int], Options]:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description="Concurrent clients playing complete games against rummy servers it starts.",
    )
    parser.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--replicas",
        type=_replica_counts,
        default=[1],
        help="server processes over one store; a list (1,2,3) runs each count in turn",
    )
    parser.add_argument(
        "--client",
        choices=["stream", "httpx"],
        default="stream",
        help="HTTP client: a lean one on asyncio streams (default), or httpx (costs more CPU)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers per replica")
    parser.add_argument("--games", type=int, default=32, help="concurrent games (clients)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured time before")
    parser.add_argument("--health-seconds", type=float, default=5.0, help="time on /health")
    parser.add_argument(
        "--max-actions", type=int, default=20_000, help="give a game up after this many actions"
    )
    parser.add_argument(
        "--games-per-client", type=int, default=0, help="stop a client after N games (0: time)"
    )
    parser.add_argument(
        "--rules",
        type=_rules,
        default=SHORT_GAME,
        help="house rules of each game, as JSON (default: one scored deal, ~240 random "
        "actions; '{}' plays the default game to 100 points, ~6,000 random actions)",
    )
    parser.add_argument("--port", type=int, default=0, help="first port (default: any free)")
    parser.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    parser.add_argument("--startup-timeout", type=float, default=60.0)
    parser.add_argument(
        "--server-env",
        type=_key_value,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra environment for the servers (e.g. POSTGRES_POOL_SIZE=10); repeatable",
    )
    parser.add_argument("--seed", type=int, help="seed for the clients' move choices")
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    parser.add_argument(
        "--keys",
        action="store_true",
        help="send a fresh Idempotency-Key with every action, as a careful client does",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.workers < 1 or args.max_actions < 1:
        parser.error("--games, --seconds, --workers and --max-actions must be positive")
    return args.replicas, Options(
        store=args.store,
        client=args.client,
        games=args.games,
        seconds=args.seconds,
        warmup=max(0.0, args.warmup),
        health_seconds=max(0.5, args.health_seconds),
        workers=args.workers,
        port=args.port,
        max_actions=args.max_actions,
        games_per_client=max(0, args.games_per_client),
        rules=args.rules,
        timeout=args.timeout,
        startup_timeout=args.startup_timeout,
        server_env=dict(args.server_env),
        seed=args.seed,
        keep_logs=args.keep_logs,
        keys=args.keys,
    )


async def run(counts: Sequence[int], options: Options) -> list[Result]:
    # SIGTERM cancels the run like Ctrl-C does, so the servers and the store are cleaned up.
    main_task = asyncio.current_task()
    if main_task is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main_task.cancel)
    results = []
    for count in counts:
        result = await run_replicas(count, options)
        report(result, options)
        results.append(result)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    counts, options = parse_args(argv)
    try:
        results = asyncio.run(run(counts, options))
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    except (asyncio.CancelledError, KeyboardInterrupt):
        print("bench: stopped; servers stopped and store removed", file=sys.stderr)
        return 130
    if len(results) > 1:
        summary(results)
    failed = any(r.games.errors or r.health.errors for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
