"""The service under database faults: what clients were told, and what was stored.

    uv run python -m bench.faults                      # every scenario, about 2 minutes
    uv run python -m bench.faults --only latency --code /path/to/older/checkout

Each scenario starts `rummy serve` on a fresh PostgreSQL schema (the local
test server, as tests/postgres.py finds it) behind tests/faults/proxy.py,
plays `--clients` games at once for `--seconds` through it, and breaks the
proxy on the way:

- `baseline`: no fault (the floor: the same load, nothing broken);
- `lost replies`: every `--lose-every`-th insert of game events is carried
  out, its reply dropped and the connection reset;
- `down N s`: every connection cut and new ones refused for `--outage`
  seconds, mid-load;
- `restart`: every connection cut and new ones refused for 1 s, as a restart;
- `frozen N s`: the database frozen (as by SIGSTOP) for `--outage` seconds,
  mid-load: open connections stay open and carry nothing, new ones are
  accepted and never answered; then it thaws and reads what was held back.
  Its recovery is quoted against the `down` row of the same run.

Every client is a tests/faults/ledger.py client (If-Match on every action,
an Idempotency-Key if the row says keys): after the run its ledger is held
against the stored events. The table gives acknowledged actions (200) and
their rate, lost (acknowledged, not stored at their place), applied twice,
false refusals (409/412 for a stored action), the 503 and other 5xx answers
and the requests with no answer (all requests: views too), the recovery
time (from the end of the fault to the first action acknowledged after it)
and the replies the proxy dropped. The baseline row is the floor: the same
load with nothing broken, in the same run.

`latency` times one view, one action and `/ready` twice with the database
up (the floor), down and frozen: with `--code DIR` the server runs the service's code
from that checkout (e.g. the code before these changes), with the same
settings, so the two can be compared.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and not __package__:
    sys.exit("run it as a module: `python -m bench.faults`.")

import argparse
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from service.config import Settings
from tests.faults.ledger import Ledger, Verdict, check, play, stored_moves
from tests.faults.proxy import FaultProxy
from tests.faults.service import GAME_EVENTS, direct
from tests.postgres import new_schema, service_environment
from tests.servers import Replica, rummy_serve

ALL = ("baseline", "lost", "down", "frozen", "restart", "latency")
DRAW = {"type": "draw", "source": "stock"}


@dataclass(frozen=True)
class Options:
    clients: int
    seconds: float
    outage: float
    lose_every: int
    code: Path | None
    timeouts: dict[str, str]


@dataclass
class Row:
    fault: str
    keys: bool
    seconds: float
    ledgers: list[Ledger]
    verdict: Verdict
    replies_lost: int = 0
    """Replies the proxy dropped after the server had carried the request out."""
    recovery: float | None = None


@contextmanager
def proxied_server(options: Options) -> Iterator[tuple[Replica, FaultProxy, Settings]]:
    """`rummy serve` on a fresh schema behind a fault proxy; the schema's settings."""
    with (
        new_schema("rummy_bench_faults") as settings,
        FaultProxy((settings.postgres_host, settings.postgres_port)) as proxy,
    ):
        env = {
            **service_environment(replace(settings, postgres_port=proxy.port)),
            "RUMMY_LOG_LEVEL": "warning",
            **options.timeouts,
        }
        with rummy_serve(env, code=options.code) as server:
            yield server, proxy, settings


def run_load(
    options: Options, name: str, keys: bool, fault: Callable[[FaultProxy], float | None]
) -> Row:
    """`options.clients` clients for `options.seconds`; `fault(proxy)` runs in the
    middle and returns when its fault ended (monotonic), or None."""
    with proxied_server(options) as (server, proxy, settings):
        ledgers = [Ledger() for _ in range(options.clients)]
        started = time.monotonic()
        until = started + options.seconds
        threads = [
            threading.Thread(
                target=_client, args=(server.url, ledger, index, keys, until), daemon=True
            )
            for index, ledger in enumerate(ledgers)
        ]
        for thread in threads:
            thread.start()
        ended = fault(proxy)
        for thread in threads:
            thread.join(timeout=options.seconds + 120)
        took = time.monotonic() - started
        replies_lost = proxy.lost_replies
        with direct(settings) as games:
            game_ids = [game for ledger in ledgers for game in ledger.game_ids]
            stored = stored_moves(games, game_ids)
    attempts = [attempt for ledger in ledgers for attempt in ledger.attempts]
    row = Row(
        fault=name,
        keys=keys,
        seconds=took,
        ledgers=ledgers,
        verdict=check(attempts, stored),
        replies_lost=replies_lost,
    )
    if ended is not None:
        firsts = [ledger.first_acknowledged_after(ended) for ledger in ledgers]
        known = [first for first in firsts if first is not None]
        row.recovery = min(known) - ended if known else None
    return row


def _client(url: str, ledger: Ledger, index: int, keys: bool, until: float) -> None:
    with httpx.Client(base_url=url, timeout=60) as client:
        play(
            client,
            random.Random(index),
            actions=10**9,
            keys=keys,
            name=f"c{index}-",
            ledger=ledger,
            until=until,
        )


def no_fault(_: FaultProxy) -> None:
    return None


def losing(every: int, seconds: float) -> Callable[[FaultProxy], None]:
    def fault(proxy: FaultProxy) -> None:
        proxy.lose_replies(GAME_EVENTS, every=every)
        time.sleep(seconds)
        proxy.lose_replies(None)

    return fault


def down_for(outage: float, load: float) -> Callable[[FaultProxy], float]:
    def fault(proxy: FaultProxy) -> float:
        time.sleep(max(0.0, (load - outage) / 3))
        proxy.down()
        time.sleep(outage)
        proxy.up()
        return time.monotonic()

    return fault


def frozen_for(outage: float, load: float) -> Callable[[FaultProxy], float]:
    def fault(proxy: FaultProxy) -> float:
        time.sleep(max(0.0, (load - outage) / 3))
        proxy.freeze()
        time.sleep(outage)
        proxy.up()
        return time.monotonic()

    return fault


def scenarios(options: Options, only: Sequence[str]) -> list[Row]:
    rows: list[Row] = []
    load = options.seconds
    if "baseline" in only:
        rows.append(run_load(options, "baseline (no fault)", False, no_fault))
    for keys in (False, True):
        if "lost" in only:
            name = f"lost replies (1 in {options.lose_every} inserts)"
            rows.append(run_load(options, name, keys, losing(options.lose_every, load)))
        if "down" in only:
            name = f"database down {options.outage:g} s"
            rows.append(run_load(options, name, keys, down_for(options.outage, load)))
        if "frozen" in only:
            name = f"database frozen {options.outage:g} s"
            rows.append(run_load(options, name, keys, frozen_for(options.outage, load)))
        if "restart" in only:
            rows.append(run_load(options, "restart (down 1 s)", keys, down_for(1.0, load)))
    return rows


def print_table(rows: Sequence[Row]) -> None:
    print(
        f"{'fault':<36}{'keys':>5}{'acked':>7}{'act/s':>7}{'lost':>6}{'twice':>7}"
        f"{'falsely refused':>17}{'503':>6}{'500':>6}{'no answer':>11}{'recovery s':>12}"
        f"{'replies lost':>14}"
    )
    for row in rows:
        verdict = row.verdict
        statuses: Counter[int | None] = Counter()
        for ledger in row.ledgers:
            statuses.update(ledger.statuses)
        others = sum(
            n for status, n in statuses.items() if status and status >= 500 and status != 503
        )
        recovery = "-" if row.recovery is None else f"{row.recovery:.2f}"
        print(
            f"{row.fault:<36}{'yes' if row.keys else 'no':>5}"
            f"{verdict.acknowledged:>7}{verdict.acknowledged / row.seconds:>7.0f}"
            f"{verdict.lost:>6}{verdict.applied_twice:>7}{verdict.false_refusals:>17}"
            f"{statuses[503]:>6}{others:>6}{statuses[None]:>11}{recovery:>12}"
            f"{row.replies_lost:>14}"
        )
        if verdict.orphans or verdict.unknown:
            print(
                f"{'':<36}orphans {verdict.orphans}; answered 5xx or not at all: "
                f"{verdict.unknown}, of which stored {verdict.unknown_stored}"
            )


def latency(options: Options) -> None:
    """One view, one action and two /ready calls, with the database up, down, frozen."""
    label = str(options.code) if options.code else "this checkout"
    with (
        proxied_server(options) as (server, proxy, _),
        httpx.Client(base_url=server.url, timeout=300) as client,
    ):
        two = {"players": [{"name": "a"}, {"name": "b"}], "dealer": 0}
        game = client.post("/games", json=two).json()
        path = f"/games/{game['game_id']}"
        seat_1 = {"Authorization": f"Bearer {game['players'][1]['token']}"}
        calls: list[tuple[str, Callable[[], httpx.Response]]] = [
            ("health", lambda: client.get("/health")),
            ("view", lambda: client.get(path, headers=seat_1)),
            ("ready", lambda: client.get("/ready")),
            ("ready again", lambda: client.get("/ready")),
            ("action", lambda: client.post(f"{path}/actions", json=DRAW, headers=seat_1)),
        ]
        print(f"latency, the server's code from {label}:")
        for state in ("up", "down", "frozen"):
            if state == "down":
                proxy.down()
            elif state == "frozen":
                proxy.up()
                back = time.monotonic() + 30
                while calls[1][1]().status_code != 200 and time.monotonic() < back:
                    time.sleep(0.2)
                proxy.freeze()
            for what, call in calls:
                started = time.monotonic()
                try:
                    answer = str(call().status_code)
                except httpx.HTTPError as error:
                    answer = type(error).__name__
                took = time.monotonic() - started
                print(f"  database {state:<7}{what:<13}{answer:>5}{took * 1000:>11.1f} ms")
        proxy.up()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(ALL), help=f"some of {','.join(ALL)}")
    parser.add_argument("--clients", type=int, default=4, help="games played at once (4)")
    parser.add_argument("--seconds", type=float, default=8.0, help="load per scenario (8)")
    parser.add_argument("--outage", type=float, default=4.0, help="seconds down (4)")
    parser.add_argument("--lose-every", type=int, default=10, help="lose 1 reply in N (10)")
    parser.add_argument(
        "--code", type=Path, help="run the server from this checkout (--only latency)"
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the server (repeat), e.g. POSTGRES_POOL_TIMEOUT=3",
    )
    args = parser.parse_args(argv)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = set(only) - set(ALL)
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    if args.code and only != ["latency"]:
        # The ledger groups stored events by their command id, which older code
        # does not write.
        parser.error("--code goes with --only latency")
    options = Options(
        clients=args.clients,
        seconds=args.seconds,
        outage=args.outage,
        lose_every=args.lose_every,
        code=args.code.resolve() if args.code else None,
        timeouts=dict(pair.split("=", 1) for pair in args.env),
    )
    rows = scenarios(options, only)
    if rows:
        print_table(rows)
    if "latency" in only:
        latency(options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
