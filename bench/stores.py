"""What the benches over both stores share (bench/lobby.py, standings.py,
matchmaking.py): a fresh store of each kind, a call timed, and the run over the
stores named by `--stores` with the load average printed around it."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from service.config import Settings, Store
from tests.postgres import new_schema, server_settings


@contextmanager
def store_settings(store: Store) -> Iterator[Settings]:
    """A fresh temporary SQLite file, or a schema of its own on the local PostgreSQL
    server (dropped afterwards)."""
    if store is Store.SQLITE:
        with tempfile.TemporaryDirectory(prefix="rummy-bench-") as directory:
            yield Settings(store=store, sqlite_path=str(Path(directory) / "bench.sqlite"))
        return
    with new_schema("rummy_bench", replace(server_settings(), postgres_pool_size=4)) as settings:
        yield settings


def timed(call: Callable[[], object]) -> float:
    """The wall time of `call()`, in seconds."""
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def run_on_stores(
    bench_store: Callable[[Store, argparse.Namespace], list[str]], args: argparse.Namespace
) -> None:
    """Print `bench_store`'s lines for each store of `args.stores`, between the load
    averages (the machine's speed varies: they say how loaded it was)."""
    print(f"load average before: {os.getloadavg()}")
    for name in args.stores.split(","):
        for line in bench_store(Store(name), args):
            print(line, flush=True)
    print(f"load average after: {os.getloadavg()}")
