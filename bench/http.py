"""HTTP throughput: concurrent clients playing complete games against real servers.

Run it as a module from the project root (as a script, `bench/http.py` would
shadow the standard library's `http` package):

    uv run python -m bench.http --store sqlite --games 32 --seconds 20
    uv run python -m bench.http --store postgres --replicas 1,2,3

For each replica count it starts that many `rummy serve` processes on
consecutive ports of 127.0.0.1 over one fresh store (a temporary SQLite file,
or a new PostgreSQL database dropped afterwards), waits for `/ready`, and
then:

1. `--games` clients each play complete two-player games back to back: create
   a game with named players, then every turn GET the view of the seat to
   move with its token, pick uniformly among its `legal` moves and POST it to
   `/games/{id}/actions`. Each request goes to a randomly chosen replica.
   With `--keys`, every action carries a fresh `Idempotency-Key`, as a
   careful client's would (the server then also reads the key's refusal
   record: service/game/refusals.py).
2. As many clients GET `/health` (the cheapest route of the same app), to
   show what the server costs without the game.

Only requests that start after the warm-up and end before the deadline are
counted. It prints actions/s (action POSTs only), requests/s, p50/p95/p99
latency per kind of request, errors (any non-2xx but the 409/412 the contract
allows, and any transport error; there should be none), where the machine's
CPU went (bench client, servers, PostgreSQL, other processes), and on
PostgreSQL how long the event store's table lock is held and by whom. With a
list of replica counts it ends with one line per count. The servers are
always stopped and the store removed, even on error or Ctrl-C.

The players speak HTTP/1.1 over asyncio streams (`--client stream`): httpx
costs the client 10-25 times more CPU a request, and on a small machine the
client would then measure itself (`--client httpx` to compare). Games use one
scored deal (`--rules`), so that they finish within a run. Measure on an
otherwise idle machine: the CPU line says when it was not.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and not __package__:
    sys.exit("bench/http.py shadows the stdlib `http` package: run `python -m bench.http`.")

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

# Third-party imports after the guard above: httpx imports the stdlib `http`.
import httpx
import psycopg
from psycopg import sql

from service.config import Settings

KINDS = ("action", "view", "create", "health")
"""The kinds of request, each timed on its own: action POSTs, view GETs, game creation, /health."""
EXPECTED = frozenset({409, 412})
"""Statuses the contract allows for an action (a rule conflict, a stale If-Match)."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SHORT_GAME: dict[str, Any] = {"deals": 1, "exhausted": "score"}
"""Random players take ~6,000 actions to reach the default 100 points (27 hands, most
voided when the stock runs out); one deal that always counts takes ~240, so games
finish within a run."""


class BenchError(RuntimeError):
    """The benchmark cannot run: a server did not start, a port is taken, ..."""


# ---------------------------------------------------------------- statistics


@dataclass
class Stats:
    """What one phase saw, counted only inside its window [start, end]."""

    start: float
    end: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    expected: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    games_finished: int = 0
    games_unfinished: int = 0
    actions_in_finished: int = 0

    def counts(self, began: float, ended: float) -> bool:
        return began >= self.start and ended <= self.end

    def error(self, kind: str, what: str) -> None:
        # Errors count wherever they fall, warm-up included: there should be none at all.
        self.errors[kind] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {what}")

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def rate(self, kind: str) -> float:
        return len(self.latencies[kind]) / self.seconds

    @property
    def requests(self) -> int:
        return sum(len(values) for values in self.latencies.values())


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of `values` (sorted), or NaN if there are none."""
    if not values:
        return float("nan")
    rank = max(1, min(len(values), math.ceil(fraction * len(values))))
    return values[rank - 1]


@dataclass(frozen=True)
class Latency:
    count: int
    p50: float
    p95: float
    p99: float
    worst: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        ordered = sorted(seconds)
        return cls(
            count=len(ordered),
            p50=percentile(ordered, 0.50) * 1000,
            p95=percentile(ordered, 0.95) * 1000,
            p99=percentile(ordered, 0.99) * 1000,
            worst=(ordered[-1] if ordered else float("nan")) * 1000,
        )


# ---------------------------------------------------------------- CPU accounting


def _stat_fields(pid: int) -> list[str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after it.
    return raw[raw.rindex(")") + 2 :].split()


def _all_pids() -> Iterator[int]:
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            yield int(entry.name)


def _cpu_of(pid: int) -> float:
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    # After the name: state(0) ppid(1) ... utime(11) stime(12).
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu(roots: Sequence[int]) -> float:
    """CPU seconds used so far by `roots` and their descendants (uvicorn workers)."""
    parents: dict[int, int] = {}
    for pid in _all_pids():
        fields = _stat_fields(pid)
        if fields is not None:
            parents[pid] = int(fields[1])
    wanted = set(roots)
    grew = True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in wanted} - wanted
        grew = bool(found)
        wanted |= found
    return sum(_cpu_of(pid) for pid in wanted)


def postgres_cpu() -> dict[int, float]:
    """CPU seconds used so far by each process named `postgres` on the machine."""
    found = {}
    for pid in _all_pids():
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if name == "postgres":
            found[pid] = _cpu_of(pid)
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat."""
    first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(value) for value in first[:8]]
    idle = ticks[3] + ticks[4]
    return (sum(ticks) - idle) / CLOCK_TICKS, sum(ticks) / CLOCK_TICKS


@dataclass(frozen=True)
class CpuUse:
    """CPU seconds each party used over `seconds` of wall time."""

    seconds: float
    client: float
    servers: float
    postgres: float
    others: float
    machine_busy: float
    """The fraction of all the machine's cores that were busy."""

    def line(self) -> str:
        def share(used: float) -> str:
            return f"{100 * used / self.seconds:.0f}%"

        return (
            f"CPU (100% = one core): bench client {share(self.client)}, servers "
            f"{share(self.servers)}, postgres {share(self.postgres)}, other processes "
            f"{share(self.others)}; machine {100 * self.machine_busy:.0f}% busy "
            f"({os.cpu_count()} cores)"
        )


@dataclass(frozen=True)
class CpuSample:
    taken: float
    client: float
    servers: float
    postgres: dict[int, float]
    busy: float
    total: float

    @classmethod
    def now(cls, servers: Sequence[int]) -> CpuSample:
        busy, total = machine_busy()
        return cls(
            time.perf_counter(), time.process_time(), tree_cpu(servers), postgres_cpu(), busy, total
        )

    def until(self, later: CpuSample) -> CpuUse:
        client = later.client - self.client
        servers = later.servers - self.servers
        # Backends come and go (other sessions' too): count each one's growth.
        postgres = sum(
            max(0.0, used - self.postgres.get(pid, 0.0)) for pid, used in later.postgres.items()
        )
        busy = later.busy - self.busy
        return CpuUse(
            seconds=later.taken - self.taken,
            client=client,
            servers=servers,
            postgres=postgres,
            others=max(0.0, busy - client - servers - postgres),
            machine_busy=busy / max(1e-9, later.total - self.total),
        )


# ---------------------------------------------------------------- stores and servers


@dataclass(frozen=True)
class Options:
    store: str
    client: str
    games: int
    seconds: float
    warmup: float
    health_seconds: float
    workers: int
    port: int
    max_actions: int
    games_per_client: int
    rules: dict[str, Any]
    timeout: float
    startup_timeout: float
    server_env: dict[str, str]
    seed: int | None
    keep_logs: bool
    keys: bool


@contextlib.contextmanager
def sqlite_store(workdir: Path) -> Iterator[dict[str, str]]:
    yield {"RUMMY_STORE": "sqlite", "RUMMY_SQLITE_PATH": str(workdir / "bench.sqlite")}


@contextlib.contextmanager
def postgres_store() -> Iterator[dict[str, str]]:
    """A new, empty database on the PostgreSQL of POSTGRES_*; dropped afterwards."""
    settings = Settings.from_env()
    env = {
        "RUMMY_STORE": "postgres",
        "POSTGRES_HOST": settings.postgres_host,
        "POSTGRES_PORT": str(settings.postgres_port),
        "POSTGRES_USER": settings.postgres_user,
        "POSTGRES_PASSWORD": settings.postgres_password,
        "POSTGRES_DBNAME": f"rummy_bench_{secrets.token_hex(4)}",
    }
    database = sql.Identifier(env["POSTGRES_DBNAME"])
    with psycopg.connect(pg_conninfo(env, "postgres"), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(database))
    try:
        yield env
    finally:
        with psycopg.connect(pg_conninfo(env, "postgres"), autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(database))


def pg_conninfo(env: dict[str, str], dbname: str | None = None) -> str:
    return psycopg.conninfo.make_conninfo(
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"],
        dbname=dbname or env["POSTGRES_DBNAME"],
    )


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int, first: int) -> list[int]:
    """`count` consecutive free ports from `first`, or from a random base if `first` is 0."""
    if first:
        ports = list(range(first, first + count))
        taken = [port for port in ports if not _port_free(port)]
        if taken:
            raise BenchError(f"port(s) {taken} on 127.0.0.1 are taken: choose another --port.")
        return ports
    rng = random.Random()
    for _ in range(100):
        base = rng.randrange(20000, 60000 - count)
        ports = list(range(base, base + count))
        if all(_port_free(port) for port in ports):
            return ports
    raise BenchError(f"found no {count} consecutive free ports on 127.0.0.1.")


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text[-lines:])


UNLIMITED = {"RUMMY_CREATE_RATE": "off", "RUMMY_JOIN_RATE": "off", "RUMMY_ACTION_RATE": "off"}


def start_server(port: int, env: dict[str, str], options: Options, logdir: Path) -> Server:
    log = logdir / f"server-{port}.log"
    command = [
        sys.executable,
        "-m",
        "service.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(options.workers),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            # Throughput, not the rate limits (bench/abuse.py measures those).
            env={**os.environ, **UNLIMITED, **env, **options.server_env},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the workers stop with it
        )
    return Server(port=port, process=process, log=log)


async def wait_ready(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=server.url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise BenchError(
                    f"the server on port {server.port} exited with {server.process.returncode}:\n"
                    + server.tail()
                )
            with contextlib.suppress(httpx.TransportError):
                if (await client.get("/ready")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise BenchError(f"the server on port {server.port} was not ready in {timeout} s.")


def stop_servers(servers: Sequence[Server]) -> None:
    """SIGTERM each server's process group, then SIGKILL what is left after 10 s."""
    for server in servers:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.process.pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    for server in servers:
        try:
            server.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()


@contextlib.asynccontextmanager
async def running_servers(
    replicas: int, env: dict[str, str], options: Options, logdir: Path
) -> AsyncIterator[list[Server]]:
    """`replicas` servers over one store, ready; always stopped on the way out."""
    ports = free_ports(replicas, options.port)
    servers: list[Server] = []
    try:
        # The first one creates the tables; the others start once it has.
        servers.append(start_server(ports[0], env, options, logdir))
        await wait_ready(servers[0], options.startup_timeout)
        servers.extend(start_server(port, env, options, logdir) for port in ports[1:])
        await asyncio.gather(*(wait_ready(s, options.startup_timeout) for s in servers[1:]))
        yield servers
    finally:
        died = [server for server in servers if server.process.poll() is not None]
        stop_servers(servers)
        for server in died:
            print(f"server on port {server.port} died ({server.process.returncode}):")
            print(server.tail())


# ---------------------------------------------------------------- clients


class TransportFailure(Exception):
    """No HTTP response: the connection failed, closed or timed out."""


class Client(Protocol):
    """What a simulated player needs: one request, sent to a randomly chosen replica."""

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]: ...

    async def aclose(self) -> None: ...


class Connection:
    """One kept-alive HTTP/1.1 connection on asyncio streams, opened on first use.

    Measured on this machine it costs the client ~0.1 ms of CPU a request where
    httpx costs ~1-2.5 ms: with two cores shared by client and server, httpx
    would measure itself. It speaks just enough HTTP/1.1 for this server:
    Content-Length or chunked bodies, and `Connection: close`.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes | None, token: str | None, key: str | None
    ) -> tuple[int, bytes]:
        if self.reader is None or self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if key is not None:
            head += f"Idempotency-Key: {key}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode("latin-1") + b"\r\n" + (body or b""))
        try:
            return await self._response(self.reader)
        except BaseException:
            self.close()
            raise

    async def _response(self, reader: asyncio.StreamReader) -> tuple[int, bytes]:
        lines = (await reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length, chunked, close = 0, False, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append((await reader.readexactly(size + 2))[:-2])
            await reader.readuntil(b"\r\n")  # no trailers from this server
            content = b"".join(parts)
        else:
            content = await reader.readexactly(length)
        if close:
            self.close()
        return status, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class StreamClient:
    """One simulated player's connections, one per replica (the default client)."""

    def __init__(self, ports: Sequence[int], rng: random.Random, timeout: float) -> None:
        self.connections = [Connection(port) for port in ports]
        self.rng = rng
        self.timeout = timeout

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        connection = self.rng.choice(self.connections)
        raw = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        try:
            async with asyncio.timeout(self.timeout):
                return await connection.request(method, path, raw, token, key)
        except (OSError, EOFError, TimeoutError, ValueError, IndexError) as error:
            raise TransportFailure(f"{type(error).__name__}: {error}") from error

    async def aclose(self) -> None:
        for connection in self.connections:
            connection.close()


class HttpxClient:
    """The same over httpx clients shared by all players (`--client httpx`)."""

    def __init__(self, shared: Sequence[httpx.AsyncClient], rng: random.Random) -> None:
        self.shared = shared
        self.rng = rng

    async def request(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        try:
            response = await self.rng.choice(self.shared).request(
                method, path, json=body, headers=headers
            )
        except httpx.HTTPError as error:
            raise TransportFailure(f"{type(error).__name__}: {error}") from error
        return response.status_code, response.content

    async def aclose(self) -> None:
        pass


@dataclass
class Clients:
    """Makes one client per simulated player, of the kind `--client` names."""

    kind: str
    ports: list[int]
    timeout: float
    shared: list[httpx.AsyncClient]

    def new(self, rng: random.Random) -> Client:
        if self.kind == "httpx":
            return HttpxClient(self.shared, rng)
        return StreamClient(self.ports, rng, self.timeout)


@contextlib.asynccontextmanager
async def clients_for(servers: Sequence[Server], options: Options) -> AsyncIterator[Clients]:
    async with contextlib.AsyncExitStack() as stack:
        shared = []
        if options.client == "httpx":
            # Enough kept-alive connections that no player waits for one or reconnects.
            size = options.games * 2
            limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
            for server in servers:
                client = httpx.AsyncClient(
                    base_url=server.url, limits=limits, timeout=options.timeout
                )
                shared.append(await stack.enter_async_context(client))
        yield Clients(options.client, [s.port for s in servers], options.timeout, shared)


async def timed(
    stats: Stats, kind: str, client: Client, method: str, path: str, **kwargs: Any
) -> tuple[int, bytes] | None:
    """Send one request, time it and count its outcome; None on a transport failure."""
    began = time.perf_counter()
    try:
        status, content = await client.request(method, path, **kwargs)
    except TransportFailure as error:
        stats.error(kind, f"{method} {path}: {error}")
        return None
    ended = time.perf_counter()
    if 200 <= status < 300:
        if stats.counts(began, ended):
            stats.latencies[kind].append(ended - began)
    elif kind == "action" and status in EXPECTED:
        stats.expected[status] += 1
    else:
        stats.error(kind, f"{method} {path} -> {status} {content[:200]!r}")
    return status, content


@dataclass(frozen=True)
class View:
    status: str
    turn: int | None
    moves: list[dict[str, Any]]


def parse_view(content: bytes) -> View:
    """The parts of a player view the client needs, and its legal moves as actions."""
    body = json.loads(content)
    if not isinstance(body, dict) or not isinstance(body.get("status"), str):
        raise BenchError(f"not a game view: {content[:200]!r}")
    moves: list[dict[str, Any]] = []
    legal = body.get("legal") or {}
    moves.extend({"type": "draw", "source": source} for source in legal.get("draw", []))
    moves.extend({"type": "meld", "cards": cards} for cards in legal.get("melds", []))
    moves.extend(
        {"type": "lay_off", "card": option["card"], "meld_id": option["meld_id"]}
        for option in legal.get("lay_offs", [])
    )
    moves.extend({"type": "discard", "card": card} for card in legal.get("discard", []))
    turn = body.get("turn")
    return View(status=body["status"], turn=turn if isinstance(turn, int) else None, moves=moves)


async def play_game(
    number: str, client: Client, stats: Stats, options: Options, rng: random.Random
) -> None:
    """Play one game to its end, the deadline, an error or `max_actions` actions."""
    create: dict[str, Any] = {"players": [{"name": f"ann-{number}"}, {"name": f"bob-{number}"}]}
    if options.rules:
        create["rules"] = options.rules
    created = await timed(stats, "create", client, "POST", "/games", body=create)
    if created is None or created[0] != 201:
        await asyncio.sleep(0.05)  # do not spin on a failing server
        return
    body = json.loads(created[1])
    path = f"/games/{body['game_id']}"
    tokens: dict[int, str] = {p["seat"]: p["token"] for p in body["players"]}
    seat = 0
    actions = posts = 0
    # Each pass is one GET, and one POST if it is `seat`'s turn: bounded by max_actions.
    for _ in range(2 * options.max_actions + 2):
        if time.perf_counter() >= stats.end or actions >= options.max_actions:
            break
        got = await timed(stats, "view", client, "GET", path, token=tokens[seat])
        if got is None or got[0] != 200:
            break
        view = parse_view(got[1])
        if view.status == "finished":
            stats.games_finished += 1
            stats.actions_in_finished += actions
            return
        if view.turn is None or view.turn not in tokens:
            stats.error("view", f"no seat to move in a {view.status} game")
            break
        if view.turn != seat:  # only before the first move: each POST's answer names the next
            seat = view.turn
            continue
        if not view.moves:
            stats.error("view", f"seat {seat} to move has no legal move")
            break
        move = rng.choice(view.moves)
        posts += 1  # a refused move is chosen again: its POST needs a key of its own
        key = f"{number}-{posts}" if options.keys else None
        done = await timed(
            stats,
            "action",
            client,
            "POST",
            f"{path}/actions",
            body=move,
            token=tokens[seat],
            key=key,
        )
        if done is None:
            break
        if done[0] in EXPECTED:
            continue  # look again and choose again
        if done[0] != 200:
            break
        actions += 1
        after = parse_view(done[1])
        if after.status == "finished":
            stats.games_finished += 1
            stats.actions_in_finished += actions
            return
        if after.turn is not None and after.turn in tokens:
            seat = after.turn
    stats.games_unfinished += 1


async def game_player(
    index: int, clients: Clients, stats: Stats, options: Options, rng: random.Random
) -> None:
    """One simulated client: complete games back to back until the deadline."""
    client = clients.new(rng)
    try:
        for game in range(options.games_per_client or 1_000_000):
            if time.perf_counter() >= stats.end:
                return
            try:
                await play_game(f"{index}-{game}", client, stats, options, rng)
            except (BenchError, KeyError, TypeError, ValueError) as error:
                stats.error("view", f"unexpected body: {type(error).__name__}: {error}")
    finally:
        await client.aclose()


async def health_player(clients: Clients, stats: Stats, rng: random.Random) -> None:
    client = clients.new(rng)
    try:
        while time.perf_counter() < stats.end:
            await timed(stats, "health", client, "GET", "/health")
    finally:
        await client.aclose()


# ---------------------------------------------------------------- PostgreSQL lock sampling


@dataclass
class LockSample:
    """Sums over samples of pg_stat_activity and pg_locks for the bench database."""

    samples: int = 0
    active: int = 0
    idle_in_transaction: int = 0
    lock_waits: Counter[str] = field(default_factory=Counter)
    """Backends waiting for a heavyweight lock, by wait_event: `relation` is the
    events table's lock, `object` NOTIFY's commit lock (held until after commit)."""
    table_locked: int = 0
    """Samples in which some transaction held an EXCLUSIVE lock on a table: only
    the event store's `LOCK TABLE ... IN EXCLUSIVE MODE` takes that mode here."""
    holder: Counter[str] = field(default_factory=Counter)
    """What the lock's holder was doing: working in PostgreSQL (and on what it
    waited, e.g. `WALSync` for the commit's flush) or idle in its transaction,
    waiting for its Python process to send the next statement."""

    def summary(self, writes: int, seconds: float) -> str:
        if not self.samples:
            return "postgres: no samples"
        n = self.samples
        held = self.table_locked / n
        first = f"postgres: events table locked (EXCLUSIVE) {100 * held:.0f}% of the time"
        if writes and held:
            hold = held * seconds / writes
            first += (
                f", {1000 * hold:.2f} ms per write transaction ({writes / seconds:.0f} writes/s):"
                f" a ceiling of ~{1 / hold:.0f} writes/s at this hold time"
            )
        if self.table_locked:
            doing = ", ".join(
                f"{100 * count / self.table_locked:.0f}% {what}"
                for what, count in self.holder.most_common(4)
            )
            first += f"\npostgres: the lock holder was {doing}"
        waits = ", ".join(
            f"{count / n:.2f} on {WAIT_NAMES.get(event, event)}"
            for event, count in self.lock_waits.most_common()
        )
        return (
            f"{first}\npostgres backends on average: {self.active / n:.2f} active, "
            f"{self.idle_in_transaction / n:.2f} idle in a transaction; "
            f"waiting for a lock: {waits or 'none'}"
        )


WAIT_NAMES = {"relation": "the table lock", "object": "NOTIFY's commit lock"}
ACTIVITY_QUERY = """
SELECT state, wait_event_type, wait_event, count(*)
  FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid()
 GROUP BY 1, 2, 3
"""
TABLE_LOCK_QUERY = """
SELECT a.state, a.wait_event
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'relation' AND l.mode = 'ExclusiveLock' AND l.granted
   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""


async def sample_locks(env: dict[str, str], stats: Stats, found: LockSample) -> None:
    """Poll every 10 ms during the window: who works, who waits for which lock, and
    whether the events table is locked for an insert."""
    async with await psycopg.AsyncConnection.connect(pg_conninfo(env), autocommit=True) as conn:
        await asyncio.sleep(max(0.0, stats.start - time.perf_counter()))
        while time.perf_counter() < stats.end:
            activity = await (await conn.execute(ACTIVITY_QUERY)).fetchall()
            holders = await (await conn.execute(TABLE_LOCK_QUERY)).fetchall()
            found.samples += 1
            for state, wait_type, wait_event, count in activity:
                if state == "active":
                    found.active += count
                elif state is not None and state.startswith("idle in transaction"):
                    found.idle_in_transaction += count
                if wait_type == "Lock":
                    found.lock_waits[wait_event] += count
            for state, wait_event in holders[:1]:
                found.table_locked += 1
                working = "active in PostgreSQL" + (f" ({wait_event})" if wait_event else "")
                found.holder[working if state == "active" else str(state)] += 1
            await asyncio.sleep(0.01)


# ---------------------------------------------------------------- one run


@dataclass
class Result:
    replicas: int
    games: Stats
    health: Stats
    cpu: CpuUse
    health_cpu: CpuUse
    locks: LockSample | None


async def run_replicas(replicas: int, options: Options) -> Result:
    rng = random.Random(options.seed)
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rummy-bench-")))
        if options.keep_logs:
            stack.callback(lambda: _keep_logs(workdir))
        store = sqlite_store(workdir) if options.store == "sqlite" else postgres_store()
        env = stack.enter_context(store)
        async with (
            running_servers(replicas, env, options, workdir) as servers,
            clients_for(servers, options) as clients,
        ):
            pids = [server.process.pid for server in servers]
            now = time.perf_counter()
            games = Stats(start=now + options.warmup, end=now + options.warmup + options.seconds)
            locks = LockSample() if options.store == "postgres" else None
            async with asyncio.TaskGroup() as group:
                for index in range(options.games):
                    player = game_player(
                        index, clients, games, options, random.Random(rng.random())
                    )
                    group.create_task(player)
                if locks is not None:
                    group.create_task(sample_locks(env, games, locks))
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


# ---------------------------------------------------------------- report


def report(result: Result, options: Options) -> None:
    games, health = result.games, result.health
    print(
        f"== {options.store}, {result.replicas} replica(s) x {options.workers} worker(s), "
        f"{options.games} concurrent games, {games.seconds:.1f} s after a "
        f"{options.warmup:.1f} s warm-up =="
    )
    mean = games.actions_in_finished / games.games_finished if games.games_finished else 0.0
    print(
        f"games: {games.games_finished} finished (mean {mean:.0f} actions each), "
        f"{games.games_unfinished} unfinished at the deadline or cap"
    )
    game_requests = sum(len(games.latencies[kind]) for kind in ("action", "view", "create"))
    print(f"actions/s:  {games.rate('action'):8.1f}   ({len(games.latencies['action'])} POSTs)")
    print(
        f"requests/s: {game_requests / games.seconds:8.1f}   "
        "(game traffic: action POSTs + view GETs + creates)"
    )
    print(f"/health:    {health.rate('health'):8.1f} requests/s over {health.seconds:.1f} s")
    print(f"  {'latency ms':<14}{'n':>8}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
    for label, stats, kind in (
        ("action POST", games, "action"),
        ("view GET", games, "view"),
        ("create POST", games, "create"),
        ("/health GET", health, "health"),
    ):
        lat = Latency.of(stats.latencies[kind])
        print(
            f"  {label:<14}{lat.count:>8}{lat.p50:>8.1f}{lat.p95:>8.1f}{lat.p99:>8.1f}"
            f"{lat.worst:>8.1f}"
        )
    errors = games.errors + health.errors
    expected = ", ".join(f"{n}x {status}" for status, n in sorted(games.expected.items()))
    print(
        f"errors: {sum(errors.values())} {dict(errors) if errors else ''}"
        f"(expected 409/412: {expected or 'none'})"
    )
    for sample in games.error_samples + health.error_samples:
        print(f"  {sample}")
    noisy = result.cpu.others / result.cpu.seconds
    if noisy > 0.2:
        print(
            f"WARNING: other processes used {100 * noisy:.0f}% of a core during the run: "
            "this machine was shared, the figures are lower than it can do"
        )
    print(f"games phase:   {result.cpu.line()}")
    print(f"/health phase: {result.health_cpu.line()}")
    actions = len(games.latencies["action"])
    if actions:
        per_action = 1000 * result.cpu.servers / actions
        print(
            f"server CPU per action (with its view GET): {per_action:.2f} ms, so one fully "
            f"used core would carry ~{1000 / per_action:.0f} actions/s"
        )
    if result.locks is not None:
        writes = len(games.latencies["action"]) + len(games.latencies["create"])
        print(result.locks.summary(writes, games.seconds))
    if options.store == "sqlite" and result.replicas == 1 and options.workers == 1:
        action = Latency.of(games.latencies["action"])
        met = games.rate("action") >= 500 and action.p99 < 50
        print(
            f"target (one process on SQLite: >= 500 actions/s, action p99 < 50 ms): "
            f"{'met' if met else 'MISSED'}"
        )
    print()


def summary(results: Sequence[Result]) -> None:
    """One line per replica count; the CPU columns are % of one core."""
    print(
        f"{'replicas':>8} {'actions/s':>10} {'requests/s':>11} {'action p50':>11} "
        f"{'p95':>7} {'p99':>7} {'view p99':>9} {'health/s':>9} {'errors':>7} "
        f"{'servers':>8} {'others':>7} {'locked':>7}"
    )
    for result in results:
        games, cpu = result.games, result.cpu
        action = Latency.of(games.latencies["action"])
        view = Latency.of(games.latencies["view"])
        errors = sum(games.errors.values()) + sum(result.health.errors.values())
        locks = result.locks
        locked = (
            f"{100 * locks.table_locked / locks.samples:.0f}%" if locks and locks.samples else "-"
        )
        print(
            f"{result.replicas:>8} {games.rate('action'):>10.1f} "
            f"{games.requests / games.seconds:>11.1f} {action.p50:>11.1f} {action.p95:>7.1f} "
            f"{action.p99:>7.1f} {view.p99:>9.1f} {result.health.rate('health'):>9.1f} "
            f"{errors:>7} {100 * cpu.servers / cpu.seconds:>7.0f}% "
            f"{100 * cpu.others / cpu.seconds:>6.0f}% {locked:>7}"
        )


# ---------------------------------------------------------------- command line


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
        prog="python -m bench.http",
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
