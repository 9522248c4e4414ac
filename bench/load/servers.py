"""The servers a run measures: a throw-away store, and `rummy serve` processes
over it on ports of 127.0.0.1, ready before the load starts and always stopped.

The processes are tests/servers.py's `Replica`s and the PostgreSQL schema is
tests/postgres.py's `new_schema`: the benches and the tests start servers and
make stores one way.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.load.options import BenchError, Options
from service.config import Settings
from tests.postgres import Unreachable, conninfo, new_schema, service_environment
from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import Replica, free_ports, port_is_free, stop_all


@dataclass(frozen=True)
class ScratchStore:
    """A store made for one run and removed after it."""

    env: dict[str, str]
    """What points a server at it."""
    postgres: Settings | None = None
    """On PostgreSQL, its settings (for the lock sampler)."""
    app_name: str = ""
    """On PostgreSQL, the application name the servers' connections carry."""

    @property
    def conninfo(self) -> str:
        assert self.postgres is not None, "a PostgreSQL store"
        return conninfo(self.postgres)


@contextlib.contextmanager
def scratch_store(kind: str, workdir: Path) -> Iterator[ScratchStore]:
    """A temporary SQLite file in `workdir`, or a new schema on the PostgreSQL of
    POSTGRES_* (database RUMMY_TEST_POSTGRES_DBNAME, default `test`), dropped afterwards."""
    if kind == "sqlite":
        yield ScratchStore(
            {"RUMMY_STORE": "sqlite", "RUMMY_SQLITE_PATH": str(workdir / "bench.sqlite")}
        )
        return
    with contextlib.ExitStack() as stack:
        try:
            settings = stack.enter_context(new_schema("rummy_bench"))
        except Unreachable as error:
            raise BenchError(str(error)) from None
        # libpq names every connection of the servers so: the lock sampler counts theirs only.
        app_name = settings.postgres_schema
        env = {**service_environment(settings), "PGAPPNAME": app_name}
        yield ScratchStore(env, settings, app_name)


def ports(count: int, first: int) -> list[int]:
    """`count` consecutive ports from `first`, or any free ones if `first` is 0."""
    if not first:
        return free_ports(count)
    chosen = list(range(first, first + count))
    taken = [port for port in chosen if not port_is_free(port)]
    if taken:
        raise BenchError(f"port(s) {taken} on 127.0.0.1 are taken: choose another --port.")
    return chosen


def replica(port: int, store: ScratchStore, options: Options, logdir: Path) -> Replica:
    env = {
        **os.environ,
        # Throughput, not the rate limits (bench/abuse.py measures those).
        **NO_RATE_LIMITS_ENV,
        **store.env,
        **options.server_env,
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_PORT": str(port),
        "RUMMY_WORKERS": str(options.workers),
    }
    return Replica(f"the server on port {port}", env, logdir / f"server-{port}.log")


@contextlib.contextmanager
def running_servers(
    count: int, store: ScratchStore, options: Options, logdir: Path
) -> Iterator[list[Replica]]:
    """`count` servers over one store, ready; always stopped on the way out."""
    servers = [replica(port, store, options, logdir) for port in ports(count, options.port)]
    try:
        try:
            # The first one creates the tables; the others start once it has.
            servers[0].start()
            servers[0].wait_ready(options.startup_timeout)
            for server in servers[1:]:
                server.start()
            for server in servers[1:]:
                server.wait_ready(options.startup_timeout)
        except AssertionError as error:  # how wait_ready says a server did not start
            raise BenchError(str(error)) from None
        yield servers
    finally:
        died = [s for s in servers if s.process is not None and s.process.poll() is not None]
        stop_all(servers)
        for server in died:
            assert server.process is not None
            print(f"{server.name} died ({server.process.returncode}):")
            print("\n".join(server.output(last=None).splitlines()[-20:]))
