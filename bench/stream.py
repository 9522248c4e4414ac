"""Live streams at scale: many idle streams and a few live games against a real server.

Run it as a module from the project root:

    uv run python -m bench.stream                       # 1,000 idle streams, ~1 minute
    uv run python -m bench.stream --streams 10000       # also 5000
    uv run python -m bench.stream --streams 5000 --code /tmp/older   # older code, same bench

It starts `rummy serve` (one process, a fresh SQLite file; `--code DIR` serves
another checkout's code) and measures, in order:

1. the floor: the server with every game created and no stream open, its CPU
   over `--seconds` and its resident memory (RSS);
2. `--streams` idle streams, `--per-game` on each of their games (a player's
   stream each, with the seat's token: 2 are the two players of a table),
   plus the streams of `--live` live games (both players' and `--watchers`
   public ones): the server's CPU over `--seconds` while nothing moves, and its
   RSS;
3. the live games played for `--live-seconds`, a random legal move every
   `--pace` seconds in each: the delivery latency of every event to every
   stream of its game, from the moment its POST was sent to the moment the
   stream received it (p50, p99, the worst; missed deliveries are counted);
4. every stream closed, and the RSS `--settle` seconds later; with `--rounds N`,
   the same streams opened and closed N-1 times more, RSS each time (memory a
   round leaves is used again by the next, not added to);
5. the memory floor (`--no-bare` skips it): as many streams on a bare uvicorn
   with the same loop and parser and nothing of the service
   (bench/bare_stream.py), its RSS open and after closing: what the server
   stack alone costs a connection.

Only the server process's CPU is counted (from /proc: the bench's own client
runs on the same cores; its CPU is printed apart). The default heartbeat is the
service's (15 s; `--heartbeat-ms`), so `--seconds` should be at least one
heartbeat to count them. Every stream holds a connection on both sides:
`ulimit -n` must exceed `--streams` (the bench raises its own soft limit to the
hard one and says if that is too low).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load.clients import Connection
from bench.load.cpu import tree_cpu
from bench.load.stats import Latency
from tests.offered import offered_actions
from tests.servers import Replica, clean_environment, free_port, ready, rummy_serve

OPEN_BATCH = 250
"""Streams opened at once (the server's accept queue holds 2048)."""
_ID = re.compile(rb"\nid: (\d+)\r?\n")


@dataclass(frozen=True)
class Options:
    streams: int
    per_game: int
    live: int
    watchers: int
    seconds: float
    live_seconds: float
    pace: float
    settle: float
    heartbeat_ms: int | None
    code: Path | None
    seed: int
    server_env: list[str]
    rounds: int
    bare: bool


def rss_mb(pid: int) -> float:
    """The resident memory of `pid` now, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class StreamClient(asyncio.Protocol):
    """One stream's connection: its status, its heartbeats, and (when `track`) the
    time each event id arrived. A protocol, not a task: 10,000 of them must cost
    the bench as little as they can."""

    def __init__(self, track: bool) -> None:
        self.track = track
        self.status: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.head = b""
        self.pending = b""
        self.arrived: dict[int, float] = {}
        self.heartbeats = 0
        self.received = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.received += len(data)
        if not self.status.done():
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            self.status.set_result(int(self.head.split(b" ", 2)[1]))
            data, self.head = self.head[end:], b""
        self.heartbeats += data.count(b": heartbeat")
        if not self.track:
            return
        text = self.pending + data
        cut = text.rfind(b"\r\n\r\n")
        if cut < 0:
            self.pending = text
            return
        for match in _ID.finditer(text, 0, cut + 2):
            self.arrived.setdefault(int(match.group(1)), now)
        self.pending = text[cut + 2 :]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.status.done():
            self.status.set_exception(ConnectionError("closed before a status"))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def open_stream(port: int, path: str, token: str | None, track: bool) -> StreamClient:
    loop = asyncio.get_running_loop()
    stream = StreamClient(track)
    await loop.create_connection(lambda: stream, "127.0.0.1", port)
    head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    assert stream.transport is not None
    stream.transport.write((head + "\r\n").encode())
    async with asyncio.timeout(60):
        await stream.status
    return stream


@dataclass
class Game:
    game_id: str
    tokens: list[str]
    version: int
    sent: dict[int, float] = field(default_factory=dict)
    """When the POST that made each version was sent."""
    streams: list[StreamClient] = field(default_factory=list)


async def create_games(port: int, count: int, rules: dict[str, Any]) -> list[Game]:
    """`count` two-player games, made by 8 clients at once."""
    made: list[Game] = []
    body = json.dumps({"players": [{"name": "a"}, {"name": "b"}], "rules": rules}).encode()

    async def creator(share: int) -> None:
        connection = Connection(port)
        try:
            for _ in range(share):
                status, content = await connection.request("POST", "/games", body, None, None)
                if status != 201:
                    raise RuntimeError(f"cannot create a game: {status} {content[:200]!r}")
                created = json.loads(content)
                tokens = [player["token"] for player in created["players"]]
                made.append(Game(created["game_id"], tokens, created["version"]))
        finally:
            connection.close()

    shares = [count // 8 + (1 if index < count % 8 else 0) for index in range(8)]
    await asyncio.gather(*(creator(share) for share in shares if share))
    return made


async def open_streams(
    port: int, wanted: Sequence[tuple[Game, str | None, bool]]
) -> tuple[list[StreamClient], dict[str, int]]:
    """Open a stream per (game, token, track), `OPEN_BATCH` at a time; the answers counted."""
    opened: list[StreamClient] = []
    answers: dict[str, int] = {}
    for start in range(0, len(wanted), OPEN_BATCH):
        batch = wanted[start : start + OPEN_BATCH]
        results = await asyncio.gather(
            *(
                open_stream(port, f"/games/{game.game_id}/stream", token, track)
                for game, token, track in batch
            ),
            return_exceptions=True,
        )
        for (game, _, _), result in zip(batch, results, strict=True):
            if isinstance(result, BaseException):
                answers[type(result).__name__] = answers.get(type(result).__name__, 0) + 1
                continue
            status = result.status.result()
            answers[str(status)] = answers.get(str(status), 0) + 1
            if status == 200:
                opened.append(result)
                if result.track:
                    game.streams.append(result)
            else:
                result.close()
    return opened, answers


async def play(port: int, game: Game, until: float, pace: float, rng: random.Random) -> int:
    """Random legal moves in `game` every `pace` seconds until `until`; the actions made."""
    connection = Connection(port)
    made = 0
    try:
        while time.perf_counter() < until:
            seat = await _seat_to_move(connection, game)
            if seat is None:
                break
            status, content = await connection.request(
                "GET", f"/games/{game.game_id}", None, game.tokens[seat], None
            )
            moves = offered_actions(json.loads(content))
            if not moves:
                break
            body = json.dumps(rng.choice(moves)).encode()
            sent = time.perf_counter()
            status, content = await connection.request(
                "POST", f"/games/{game.game_id}/actions", body, game.tokens[seat], None
            )
            if status == 200:
                version = json.loads(content)["version"]
                for made_version in range(game.version + 1, version + 1):
                    game.sent[made_version] = sent
                game.version = version
                made += 1
            await asyncio.sleep(pace)
    finally:
        connection.close()
    return made


async def _seat_to_move(connection: Connection, game: Game) -> int | None:
    _, content = await connection.request(
        "GET", f"/games/{game.game_id}", None, game.tokens[0], None
    )
    view = json.loads(content)
    if view["status"] != "playing":
        return None
    return int(view["turn"])


@dataclass
class Sample:
    """The server's CPU seconds and the bench's own, at one moment."""

    taken: float
    server: float
    client: float

    @classmethod
    def now(cls, pid: int) -> Sample:
        return cls(time.perf_counter(), tree_cpu([pid]), time.process_time())

    def share_until(self, later: Sample) -> tuple[float, float]:
        """(server, bench client) CPU as fractions of one core since this sample."""
        seconds = later.taken - self.taken
        return (later.server - self.server) / seconds, (later.client - self.client) / seconds


async def measure_cpu(pid: int, seconds: float) -> tuple[float, float]:
    before = Sample.now(pid)
    await asyncio.sleep(seconds)
    return before.share_until(Sample.now(pid))


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


async def bench(server: Replica, options: Options) -> None:
    pid, port = server.pid, server.port
    rng = random.Random(options.seed)
    fresh = rss_mb(pid)
    idle_games = await create_games(port, -(-options.streams // options.per_game), {})
    live_games = await create_games(port, options.live, {})
    await asyncio.sleep(2)
    floor_cpu, _ = await measure_cpu(pid, options.seconds)
    floor_rss = rss_mb(pid)
    print(
        f"floor (same run): the server with {len(idle_games) + len(live_games)} games and no "
        f"stream: CPU {percent(floor_cpu)} of a core over {options.seconds:g} s, RSS "
        f"{floor_rss:.0f} MB ({fresh:.0f} MB before the games)"
    )

    wanted: list[tuple[Game, str | None, bool]] = []
    for index in range(options.streams):
        game = idle_games[index // options.per_game]
        wanted.append((game, game.tokens[index % options.per_game % 2], False))
    for game in live_games:
        wanted += [(game, token, True) for token in game.tokens]
        wanted += [(game, None, True)] * options.watchers
    began = time.perf_counter()
    streams, answers = await open_streams(port, wanted)
    opening = time.perf_counter() - began
    live_streams = sum(len(game.streams) for game in live_games)
    print(
        f"{options.streams} idle streams ({options.per_game} a game) + {live_streams} on "
        f"{options.live} live games: opened in {opening:.1f} s, answers {answers}"
    )
    await asyncio.sleep(2)
    beats_before = sum(stream.heartbeats for stream in streams)
    idle_cpu, client_cpu = await measure_cpu(pid, options.seconds)
    beats = sum(stream.heartbeats for stream in streams) - beats_before
    open_rss = rss_mb(pid)
    count = max(1, len(streams))
    print(
        f"  idle, {options.seconds:g} s: server CPU {percent(idle_cpu)} of a core "
        f"(floor {percent(floor_cpu)}: +{percent(idle_cpu - floor_cpu)}; target < 10%), "
        f"bench client {percent(client_cpu)}; {beats} heartbeats received"
    )
    print(
        f"  RSS {open_rss:.0f} MB: +{open_rss - floor_rss:.0f} MB over the floor "
        f"({(open_rss - floor_rss) * 1024 / count:.1f} KB a stream; target < 150 MB "
        "for 10,000)"
    )

    until = time.perf_counter() + options.live_seconds
    before = Sample.now(pid)
    actions = await asyncio.gather(
        *(play(port, game, until, options.pace, random.Random(rng.random())) for game in live_games)
    )
    live_cpu, _ = before.share_until(Sample.now(pid))
    await asyncio.sleep(1)  # the last deliveries
    latencies, missed = [], 0
    for game in live_games:
        for stream in game.streams:
            for version, sent in game.sent.items():
                arrived = stream.arrived.get(version)
                if arrived is None:
                    missed += 1
                else:
                    latencies.append(arrived - sent)
    latency = Latency.of(latencies)
    print(
        f"  live, {options.live_seconds:g} s: {sum(actions)} actions in {options.live} games, "
        f"{latency.count} deliveries to {live_streams} streams, {missed} missed; from POST "
        f"sent: p50 {latency.p50:.1f} ms, p99 {latency.p99:.1f} ms, worst "
        f"{latency.worst:.1f} ms (target p99 < 100 ms); server CPU {percent(live_cpu)}"
    )

    for stream in streams:
        stream.close()
    await asyncio.sleep(options.settle)
    closed_rss = rss_mb(pid)
    print(
        f"  closed, {options.settle:g} s later: RSS {closed_rss:.0f} MB, "
        f"{100 * (closed_rss - floor_rss) / floor_rss:+.1f}% of the floor (target within 10%)"
    )
    for again in range(2, options.rounds + 1):
        # The same streams again: memory the first round left is used again, not added to.
        reopened, answers = await open_streams(port, [(g, t, False) for g, t, _ in wanted])
        await asyncio.sleep(2)
        open_rss = rss_mb(pid)
        for stream in reopened:
            stream.close()
        await asyncio.sleep(options.settle)
        print(
            f"  round {again}: {answers}, RSS {open_rss:.0f} MB open, {rss_mb(pid):.0f} MB "
            f"{options.settle:g} s after closing"
        )


async def bare_floor(port: int, pid: int, count: int, settle: float) -> tuple[float, float]:
    """`count` streams on the bare server (bench/bare_stream.py): the RSS they add, in
    MB, and the share of it still held `settle` seconds after they closed."""
    idle = rss_mb(pid)
    streams: list[StreamClient] = []
    for start in range(0, count, OPEN_BATCH):
        batch = range(start, min(count, start + OPEN_BATCH))
        streams += await asyncio.gather(
            *(open_stream(port, f"/games/{index}/stream", None, False) for index in batch)
        )
    await asyncio.sleep(2)
    opened = rss_mb(pid)
    for stream in streams:
        stream.close()
    await asyncio.sleep(settle)
    closed = rss_mb(pid)
    print(
        f"server floor (same run): bare uvicorn (bench/bare_stream.py), RSS {idle:.0f} MB; "
        f"{count} streams +{opened - idle:.0f} MB ({(opened - idle) * 1024 / count:.1f} KB a "
        f"stream); closed, {settle:g} s later: {100 * (closed - idle) / idle:+.1f}% of its idle RSS"
    )
    return opened - idle, closed - idle


@contextlib.contextmanager
def bare_server() -> Iterator[Replica]:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "bench.bare_stream:app", "--port", str(port)]
    command += ["--loop", "uvloop", "--http", "httptools", "--lifespan", "off"]
    command += ["--no-access-log", "--log-level", "warning"]
    env = {**clean_environment(), "RUMMY_HOST": "127.0.0.1", "RUMMY_PORT": str(port)}
    bare = Replica("bare uvicorn", env, command=command, cwd=Path(__file__).parent.parent)
    with ready(bare):
        yield bare


def raise_file_limit(streams: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < streams + 200:
        print(
            f"bench: `ulimit -n` allows {hard} files, too few for {streams} streams",
            file=sys.stderr,
        )


@contextlib.contextmanager
def server(options: Options, workdir: Path) -> Iterator[Replica]:
    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(workdir / "bench.sqlite"),
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_MAX_STREAMS": str(options.streams + options.live * (2 + options.watchers) + 100),
    }
    if options.heartbeat_ms is not None:
        env["RUMMY_STREAM_HEARTBEAT_MS"] = str(options.heartbeat_ms)
    for item in options.server_env:
        name, _, value = item.partition("=")
        env[name] = value
    with rummy_serve(env, options.code) as running:
        yield running


def parse_args(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m bench.stream", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--streams", type=int, default=1000, help="idle streams (1000)")
    parser.add_argument("--per-game", type=int, default=2, help="idle streams a game (2)")
    parser.add_argument("--live", type=int, default=4, help="live games (4)")
    parser.add_argument("--watchers", type=int, default=2, help="public streams a live game (2)")
    parser.add_argument("--seconds", type=float, default=15.0, help="each CPU window (15)")
    parser.add_argument("--live-seconds", type=float, default=10.0, help="live play (10)")
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between moves (0.1)")
    parser.add_argument("--settle", type=float, default=5.0, help="wait after closing (5)")
    parser.add_argument("--heartbeat-ms", type=int, help="the server's heartbeat (its default)")
    parser.add_argument("--code", type=Path, help="serve the code of this checkout")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rounds", type=int, default=1, help="open and close the idle streams again (1)"
    )
    parser.add_argument(
        "--server-env", action="append", default=[], metavar="NAME=VALUE", help="for the server"
    )
    parser.add_argument(
        "--no-bare",
        dest="bare",
        action="store_false",
        help="skip the memory floor: the same streams on a bare uvicorn",
    )
    args = parser.parse_args(argv)
    if args.streams < 1 or args.per_game < 1 or args.live < 1 or args.seconds <= 0:
        parser.error("--streams, --per-game, --live and --seconds must be positive")
    return Options(**vars(args))


def main(argv: Sequence[str] | None = None) -> int:
    import tempfile

    options = parse_args(argv)
    raise_file_limit(options.streams + options.live * (2 + options.watchers))
    with (
        tempfile.TemporaryDirectory(prefix="bench-stream-") as workdir,
        server(options, Path(workdir)) as running,
    ):
        print(f"server pid {running.pid}, {os.cpu_count()} cores")
        asyncio.run(bench(running, options))
    if options.bare:
        with bare_server() as bare:
            asyncio.run(bare_floor(bare.port, bare.pid, options.streams, options.settle))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
