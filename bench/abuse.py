"""What one hostile client can do to a server, and what the limits leave of it.

    uv run python -m bench.abuse create [--seconds 5]
    uv run python -m bench.abuse slow-posts [--connections 1000]
    uv run python -m bench.abuse heavy-read [--events 111000]
    uv run python -m bench.abuse streams [--streams 12000]

Each starts `rummy serve` on 127.0.0.1 with a fresh SQLite file (settings from
`--env NAME=VALUE`, default ones otherwise), attacks it from this process, and
prints its figures beside a floor measured in the same run: the same client's
`/health` rate, the server's memory before the attack, `/health` latency at
rest. `--code DIR` serves the code in DIR instead (another checkout), so the
same script measures the service before and after a change.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from service.bootstrap import open_games
from service.config import Settings, Store
from tests.game.long_games import save_long_game
from tests.servers import Replica, free_port

TWO = {"players": [{"name": "Ann"}, {"name": "Bob"}]}


def rss_mb(server: Replica) -> float:
    """The server process's resident memory now, in MB."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@contextlib.contextmanager
def server(database: Path, env: dict[str, str], code: str | None) -> Iterator[Replica]:
    full = {
        **os.environ,
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(database),
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_PORT": str(free_port()),
        "RUMMY_LOG_LEVEL": "warning",
        **env,
    }
    if code is not None:
        full["PYTHONPATH"] = code
    running = Replica(
        "rummy serve",
        full,
        database.parent / "server.log",
        command=[sys.executable, "-m", "service.cli", "serve"],
        cwd=None if code is None else Path(code),  # `-m` looks in the working directory first
    )
    running.start()
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def health_rate(client: httpx.Client, seconds: float = 2.0) -> float:
    """The floor: `/health` requests a second from this one client."""
    count, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        client.get("/health")
        count += 1
    return count / seconds


# --- games/s from one client ------------------------------------------------------------


def bench_create(server: Replica, seconds: float) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        floor = health_rate(client)
        created = refused = created_unrefused = 0
        first_refusal: float | None = None
        retry_after: set[str] = set()
        start = time.monotonic()
        while (now := time.monotonic()) - start < seconds:
            response = client.post("/games", json=TWO)
            if response.status_code == 201:
                created += 1
            elif response.status_code == 429:
                refused += 1
                retry_after.add(response.headers.get("retry-after", "?"))
                if first_refusal is None:
                    first_refusal, created_unrefused = now - start, created
            else:
                raise RuntimeError(response.text)
    print(f"floor: /health from this client, {floor:.0f} req/s")
    print(
        f"create for {seconds:g} s: {created} games ({created / seconds:.1f} games/s), "
        f"{refused} refused 429 ({refused / seconds:.0f}/s)"
    )
    if first_refusal is not None:
        print(
            f"  first 429 after {created_unrefused} games, at {first_refusal:.2f} s; "
            f"Retry-After seen: {', '.join(sorted(retry_after))}"
        )


# --- memory with slow POSTs ---------------------------------------------------------------


async def _slow_post(port: int, declared: int, sent: int, hold: float, outcome: list[str]) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        outcome.append("refused")
        return
    head = (
        f"POST /games HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {declared}\r\n\r\n"
    ).encode()
    try:
        writer.write(head + b"[" + b" " * (sent - 1))
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(200), hold)
        outcome.append(answer.split(b"\r\n", 1)[0].decode(errors="replace") or "closed")
    except TimeoutError:
        outcome.append("still open")
    except OSError:
        outcome.append("closed")
    finally:
        writer.close()


def bench_slow_posts(server: Replica, connections: int, declared: int, sent: int) -> None:
    before = rss_mb(server)
    peak = [before]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_mb(server))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    outcome: list[str] = []
    hold = 15.0

    async def attack() -> None:
        await asyncio.gather(
            *(_slow_post(server.port, declared, sent, hold, outcome) for _ in range(connections))
        )

    started = time.monotonic()
    asyncio.run(attack())
    stop.set()
    watcher.join()
    with httpx.Client(base_url=server.url) as client:
        alive = client.get("/health").status_code
    counts = {answer: outcome.count(answer) for answer in sorted(set(outcome))}
    print(f"floor: server RSS before, {before:.0f} MB")
    print(
        f"{connections} POSTs declaring {declared} bytes, sending {sent} and stalling "
        f"(watched {time.monotonic() - started:.1f} s, each up to {hold:g} s):"
    )
    print(f"  peak RSS {peak[0]:.0f} MB (+{peak[0] - before:.0f} MB); /health after: {alive}")
    print(f"  answers: {counts}")


# --- /health while a long game is read ----------------------------------------------------


def bench_heavy_read(server: Replica, game_id: str, events: int) -> None:
    with httpx.Client(base_url=server.url, timeout=120) as client:
        rest = _health_latencies(client, 2.0)
        reads = {
            "events?after=0": f"/games/{game_id}/events?after=0",
            "every page of events": None,
            "replay?version=N-1": f"/games/{game_id}/replay?version={events - 1}",
        }
        for name, path in reads.items():
            probe = _Prober(server.url)
            probe.start()
            started = time.monotonic()
            count = 0
            if path is None:
                after, more = 0, True
                while more:
                    page = client.get(f"/games/{game_id}/events", params={"after": after})
                    body = page.json()
                    count += len(body["events"])
                    more = body.get("more", False)
                    after = body["events"][-1]["version"] if body["events"] else after
            else:
                response = client.get(path)
                assert response.status_code == 200, response.text
                count = len(response.json().get("events", [])) if "events" in path else 1
            took = time.monotonic() - started
            latencies = probe.stop()
            print(
                f"{name}: {took:.2f} s ({count} events)"
                if "events" in name
                else f"{name}: {took:.2f} s",
                f"| /health meanwhile: {len(latencies)} probes, "
                f"p50 {_ms(statistics.median(latencies))}, max {_ms(max(latencies))}",
            )
    print(f"floor: /health at rest, p50 {_ms(statistics.median(rest))}, max {_ms(max(rest))}")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _health_latencies(client: httpx.Client, seconds: float) -> list[float]:
    latencies: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        client.get("/health")
        latencies.append(time.monotonic() - started)
        time.sleep(0.01)
    return latencies


class _Prober(threading.Thread):
    """Asks `/health` every 10 ms in a thread of its own, timing each answer."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.latencies: list[float] = []
        self._done = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=120) as client:
            while not self._done.is_set():
                started = time.monotonic()
                client.get("/health")
                self.latencies.append(time.monotonic() - started)
                time.sleep(0.01)

    def stop(self) -> list[float]:
        self._done.set()
        self.join()
        return self.latencies or [0.0]


# --- memory with idle streams -------------------------------------------------------------


async def _open_stream(port: int, path: str, opened: list[str]) -> asyncio.StreamWriter | None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 30)
    except (OSError, TimeoutError):
        opened.append("failed")
        return None
    opened.append(status.decode(errors="replace").strip())
    return writer


def bench_streams(server: Replica, streams: int, settle: float) -> None:
    with httpx.Client(base_url=server.url) as client:
        game_id = client.post("/games", json={"seats": 2}).json()["game_id"]
    before = rss_mb(server)
    opened: list[str] = []

    async def run() -> tuple[float, float]:
        writers = []
        for start in range(0, streams, 500):
            batch = min(500, streams - start)
            writers += await asyncio.gather(
                *(
                    _open_stream(server.port, f"/games/{game_id}/stream", opened)
                    for _ in range(batch)
                )
            )
        await asyncio.sleep(settle)
        with_streams = rss_mb(server)
        for writer in writers:
            if writer is not None:
                writer.close()
        await asyncio.sleep(settle)
        return with_streams, rss_mb(server)

    with_streams, after = asyncio.run(run())
    counts = {answer: opened.count(answer) for answer in sorted(set(opened))}
    print(f"floor: server RSS before, {before:.0f} MB")
    print(f"{streams} idle streams asked: {counts}")
    accepted = opened.count("HTTP/1.1 200 OK")
    per = (with_streams - before) * 1024 / accepted if accepted else 0.0
    print(
        f"  RSS with them open {with_streams:.0f} MB (+{with_streams - before:.0f} MB, "
        f"{per:.0f} KB a stream); {settle:g} s after closing {after:.0f} MB "
        f"(+{after - before:.0f} MB over the floor)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.abuse", description=__doc__.split("\n")[0])
    parser.add_argument("attack", choices=["create", "slow-posts", "heavy-read", "streams"])
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    parser.add_argument("--code", help="serve the code in this directory (PYTHONPATH)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--declared", type=int, default=1_000_000, help="slow POST length")
    parser.add_argument("--sent", type=int, default=600_000, help="bytes a slow POST sends")
    parser.add_argument("--events", type=int, default=111_000)
    parser.add_argument("--streams", type=int, default=12_000)
    parser.add_argument("--settle", type=float, default=5.0)
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    with tempfile.TemporaryDirectory() as workdir:
        database = Path(workdir) / "bench.sqlite"
        game_id = ""
        if args.attack == "heavy-read":
            games = open_games(Settings(store=Store.SQLITE, sqlite_path=str(database)))
            started = time.monotonic()
            game_id = str(save_long_game(games, args.events))
            print(f"made a game of {args.events} events in {time.monotonic() - started:.1f} s")
            del games
        with server(database, env, args.code) as running:
            if args.attack == "create":
                bench_create(running, args.seconds)
            elif args.attack == "slow-posts":
                bench_slow_posts(running, args.connections, args.declared, args.sent)
            elif args.attack == "heavy-read":
                bench_heavy_read(running, game_id, args.events)
            else:
                bench_streams(running, args.streams, args.settle)


if __name__ == "__main__":
    main()
