"""Webhooks: delivery throughput and lag to a local receiver, with ~1,000 active games.

Run it as a module from the project root:

    uv run python -m bench.webhooks                     # SQLite, 1,000 games, ~1 minute
    uv run python -m bench.webhooks --postgres          # the local PostgreSQL server
    uv run python -m bench.webhooks --games 200 --seconds 10
    uv run python -m bench.webhooks --stalled 6         # isolation, ~1 minute

It starts a receiver on 127.0.0.1 (tests/webhooks/receiver.py: a threaded HTTP
server that verifies every signature with standardwebhooks, as a platform
would) and measures, in order:

1. the floor: the receiver's own rate, signed POSTs from one plain httpx client
   one after another (the sender sends one endpoint's events one at a time, so
   this is the most it could reach), and the median round trip;
2. `rummy serve` (one process; a fresh SQLite file, or a fresh PostgreSQL
   schema) with `--games` games of a person and a bot; then one endpoint is
   registered from position 0, and the time to deliver that backlog (every
   event of every game so far) gives the **throughput** (deliveries/s);
3. live play for `--seconds`: `--players` client threads each move their share
   of the games, a turn each in turn (a draw, then a discard; the bot answers),
   as fast as they go or at `--rate` turns a second in all;
   the **lag** of each event is the time from its `at` (when the service
   stored it) to its arrival at the receiver (p50, p99, the worst), and the
   deliveries/s in that window beside the events/s played.

Events of one endpoint go one at a time in feed order (docs/webhooks.md), so
the throughput is bounded by one round trip per event plus one write of the
endpoint's position.

`--stalled N` measures instead how much endpoints whose receivers never answer
delay a healthy one: on a service with `--games` (take 20) games and one
healthy endpoint, one player plays `--rate` turns a second (take 5) for
`--seconds`, first with nothing else registered (the floor, the same run),
then with N more endpoints whose receivers accept each request and never
answer (each attempt waits for `RUMMY_WEBHOOK_TIMEOUT`, then backs off and
comes back); the lag of the healthy endpoint's deliveries in each phase (every
event of the phase, waiting until the endpoint caught up). It
runs twice: with the default `RUMMY_WEBHOOK_SENDERS` and with 2 (as many
endpoints at once as the two sender threads before issue 26 delivered).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bench.load.stats import Latency
from service.webhooks.sender import new_secret, signed_headers
from tests.offered import offered_actions
from tests.postgres import new_schema, service_environment
from tests.servers import rummy_serve
from tests.webhooks.receiver import Receiver, receiving

ADMIN_TOKEN = "bench-webhooks-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def floor(receiver: Receiver, seconds: float) -> tuple[float, float]:
    """Signed POSTs to the receiver from one plain client: per second, median ms."""
    secret = new_secret()
    receiver.secrets["/floor"] = secret
    body = (
        b'{"position":1,"game_id":"0b7e8f2c-5a1d-4c3e-9f60-2d8a7b1c4e95","event":'
        b'{"type":"card_discarded","version":17,"at":"2026-11-29T21:47:02Z","seat":0,"card":"KD"}}'
    )
    times: list[float] = []
    with httpx.Client(headers={"content-type": "application/json"}) as client:
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            headers = signed_headers(secret, f"floor:{n}", int(time.time()), body)
            started = time.monotonic()
            client.post(f"{receiver.url}/floor", content=body, headers=headers)
            times.append(time.monotonic() - started)
    return len(times) / seconds, statistics.median(times) * 1000


def new_games(client: httpx.Client, count: int) -> dict[str, str]:
    games: dict[str, str] = {}
    for _ in range(count):
        created = client.post(
            "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "basic"}]}
        )
        created.raise_for_status()
        body = created.json()
        games[body["game_id"]] = body["players"][0]["token"]
    return games


def last_position(client: httpx.Client) -> int:
    page = client.get("/feed", params={"limit": 1}, headers=ADMIN).json()
    return int(page["last_position"])


def wait_caught_up(client: httpx.Client, webhook: str, position: int, limit: float) -> float:
    """Seconds until the webhook's position reaches `position`."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        state = client.get(f"/webhooks/{webhook}", headers=ADMIN).json()
        if state["position"] >= position:
            return time.monotonic() - started
        time.sleep(0.02)
    raise SystemExit(f"not caught up in {limit} s: {state}")


def player(
    url: str, games: dict[str, str], stop: threading.Event, moves: list[int], pause: float
) -> None:
    """Plays a turn in each of `games` in turn until `stop`: a draw, then a discard
    (the bot answers); `pause` seconds between turns (0: as fast as the server answers)."""
    views: dict[str, Any] = {}
    with httpx.Client(base_url=url, timeout=30) as client:
        while not stop.is_set():
            for game_id, token in games.items():
                if stop.is_set():
                    return
                if pause:
                    time.sleep(pause)
                auth = {"Authorization": f"Bearer {token}"}
                for kind in ("draw", "discard"):
                    view = (
                        views.get(game_id) or client.get(f"/games/{game_id}", headers=auth).json()
                    )
                    offered = [a for a in offered_actions(view) if a["type"] == kind]
                    if view["status"] != "playing" or not offered:
                        views.pop(game_id, None)
                        break
                    answer = client.post(f"/games/{game_id}/actions", json=offered[0], headers=auth)
                    if answer.status_code != 200:
                        views.pop(game_id, None)
                        break
                    views[game_id] = answer.json()
                    moves[0] += 1


@contextmanager
def store(postgres: bool) -> Iterator[dict[str, str]]:
    if postgres:
        with new_schema("rummy_bench_webhooks") as settings:
            yield service_environment(settings)
        return
    with tempfile.TemporaryDirectory() as folder:
        yield {"RUMMY_STORE": "sqlite", "RUMMY_SQLITE_PATH": str(Path(folder) / "rummy.sqlite")}


def arrival_lags(receiver: Receiver, path: str, since: float) -> list[float]:
    """Seconds from each event's `at` to its first arrival, for arrivals after `since`."""
    seen: set[str] = set()
    lags: list[float] = []
    for received in receiver.of(path):
        if received.webhook_id in seen or received.payload is None:
            continue
        seen.add(received.webhook_id)
        if received.at < since:
            continue
        at = datetime.fromisoformat(received.payload["event"]["at"]).timestamp()
        lags.append(received.at - at)
    return lags


def stalled_case(options: argparse.Namespace, senders: str | None) -> None:
    """The healthy endpoint's lag alone, then beside `options.stalled` silent ones."""
    stalled = tuple(f"/stalled-{n}" for n in range(options.stalled))
    receiver = Receiver(stall=frozenset(stalled))
    extra = {"RUMMY_WEBHOOK_SENDERS": senders} if senders else {}
    label = f"RUMMY_WEBHOOK_SENDERS={senders}" if senders else "default RUMMY_WEBHOOK_SENDERS"
    with ExitStack() as stack:
        stack.enter_context(receiving(receiver))
        env = stack.enter_context(store(options.postgres))
        served = stack.enter_context(
            rummy_serve({**env, "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN, **extra})
        )
        client = stack.enter_context(httpx.Client(base_url=served.url, timeout=30))
        games = new_games(client, options.games)
        healthy = register(client, receiver, "/healthy")
        for phase in ("none stalled (floor)", f"{len(stalled)} stalled"):
            if stalled and phase != "none stalled (floor)":
                for path in stalled:
                    register(client, receiver, path)
            stop = threading.Event()
            pause = 1 / options.rate if options.rate else 0.0
            thread = threading.Thread(target=player, args=(served.url, games, stop, [0], pause))
            since = time.time()
            thread.start()
            time.sleep(options.seconds)
            stop.set()
            thread.join()
            caught_up = wait_caught_up(client, healthy, last_position(client), 300)
            lags = Latency.of(arrival_lags(receiver, "/healthy", since))
            print(
                f"{label}, {phase}: healthy endpoint lag p50 {lags.p50:.1f} ms, "
                f"p95 {lags.p95:.1f} ms, p99 {lags.p99:.1f} ms, worst {lags.worst:.1f} ms "
                f"({lags.count} events, caught up {caught_up:.1f} s after play stopped); "
                f"stalled requests so far {sum(len(receiver.of(path)) for path in stalled)}"
            )


def register(client: httpx.Client, receiver: Receiver, path: str) -> str:
    created = client.post("/webhooks", json={"url": f"{receiver.url}{path}"}, headers=ADMIN)
    created.raise_for_status()
    receiver.secrets[path] = created.json()["secret"]
    return str(created.json()["id"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.webhooks", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="active games (1000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="live play (20)")
    parser.add_argument("--players", type=int, default=4, help="client threads that play (4)")
    parser.add_argument(
        "--rate", type=float, default=0, help="turns/s in all, at most (0: as fast as it goes)"
    )
    parser.add_argument("--floor-seconds", type=float, default=3.0, help="the floor's run (3)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL, not SQLite")
    parser.add_argument(
        "--stalled", type=int, default=0, help="measure isolation from N silent endpoints instead"
    )
    options = parser.parse_args(argv)
    if options.stalled:
        for senders in (None, "2"):
            stalled_case(options, senders)
        return 0

    receiver = Receiver()
    with ExitStack() as stack:
        stack.enter_context(receiving(receiver))
        rate, round_trip = floor(receiver, options.floor_seconds)
        print(
            f"floor: the receiver takes {rate:.0f} signed POSTs/s from one client, "
            f"median round trip {round_trip:.2f} ms"
        )
        env = stack.enter_context(store(options.postgres))
        served = stack.enter_context(rummy_serve({**env, "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN}))
        client = stack.enter_context(httpx.Client(base_url=served.url, timeout=30))
        started = time.monotonic()
        games = new_games(client, options.games)
        print(f"{len(games)} games created in {time.monotonic() - started:.1f} s")

        backlog = last_position(client)
        events = len(client.get("/feed", params={"limit": 1000}, headers=ADMIN).json()["events"])
        created = client.post(
            "/webhooks", json={"url": f"{receiver.url}/hook", "after": 0}, headers=ADMIN
        )
        created.raise_for_status()
        webhook = created.json()["id"]
        receiver.secrets["/hook"] = created.json()["secret"]
        seconds = wait_caught_up(client, webhook, backlog, 600)
        delivered = len({r.webhook_id for r in receiver.of("/hook")})
        print(
            f"throughput: a backlog of {delivered} events delivered in {seconds:.1f} s: "
            f"{delivered / seconds:.0f} deliveries/s (first feed page held {events})"
        )

        stop = threading.Event()
        moves = [0]
        share = list(games.items())
        threads = [
            threading.Thread(
                target=player,
                args=(
                    served.url,
                    dict(share[i :: options.players]),
                    stop,
                    moves,
                    options.players / options.rate if options.rate else 0.0,
                ),
            )
            for i in range(options.players)
        ]
        before = len(receiver.of("/hook"))
        live_from = time.time()
        for thread in threads:
            thread.start()
        time.sleep(options.seconds)
        stop.set()
        for thread in threads:
            thread.join()
        played = last_position(client)
        wait_caught_up(client, webhook, played, 120)
        lags = arrival_lags(receiver, "/hook", live_from)
        live = Latency.of(lags)
        sent = len(receiver.of("/hook")) - before
        print(
            f"live play, {options.seconds:.0f} s over {len(games)} games: {moves[0]} moves "
            f"({moves[0] / options.seconds:.0f}/s), {len(lags)} events delivered "
            f"({sent / options.seconds:.0f} POSTs/s)"
        )
        print(
            f"lag from the event's `at` to its arrival: p50 {live.p50:.1f} ms, "
            f"p95 {live.p95:.1f} ms, p99 {live.p99:.1f} ms, worst {live.worst:.1f} ms"
        )
        print(f"bad signatures: {receiver.bad_signatures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
