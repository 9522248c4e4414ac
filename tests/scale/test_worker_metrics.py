"""`rummy serve --workers 2`: /metrics answers every worker's totals, whichever worker
a scrape reaches (prometheus-client's multi-process mode, service/api/transport/metrics.py)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

from service.api.transport.metrics import MULTIPROCESS_DIR, Metrics
from tests.audit_stream.clients import wait_for
from tests.servers import rummy_serve

STARTED = "Application startup complete."  # uvicorn's line, once per worker
HEALTH = ("rummy_http_requests_total", (("method", "GET"), ("route", "/health"), ("status", "200")))


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """One /metrics answer on a connection of its own (so any worker may take it)."""
    text = httpx.get(f"{url}/metrics", headers={"Connection": "close"}).text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def workers_that_served_health(counts: Path) -> set[str]:
    """The worker processes whose own counters hold a /health request."""
    served = set()
    for found in counts.glob("counter_*.db"):
        pid = found.name.removeprefix("counter_").removesuffix(".db")
        for key, value, *_ in MmapedDict.read_all_values_from_file(str(found)):
            if '"/health"' in key and value > 0:
                served.add(pid)
    return served


def test_two_workers_answer_the_same_totals(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_WORKERS": "2",
        "TMPDIR": str(temporary),  # where `rummy serve` makes the workers' directory
    }
    with rummy_serve(env) as server:
        (counts,) = temporary.glob("rummy-metrics-*")
        # Ready means one worker answers; on a loaded machine the other may still be
        # starting, and the first then takes every connection (a CI run sent 2,000).
        wait_for(lambda: sum(STARTED in line for line in list(server.lines)) == 2, timeout=60)
        sent = 0
        deadline = time.monotonic() + 60
        with ThreadPoolExecutor(8) as pool:
            # Until both workers have answered some: each request on a new connection.
            while len(workers_that_served_health(counts)) < 2 and time.monotonic() < deadline:
                answers = list(pool.map(lambda _: health(server.url), range(40)))
                assert all(status == 200 for status in answers)
                sent += len(answers)
        assert len(workers_that_served_health(counts)) == 2, "both workers served"

        def every_scrape_counts_all() -> bool:
            return all(scrape(server.url).get(HEALTH) == sent for _ in range(6))

        wait_for(every_scrape_counts_all)

        # A live stream open on one worker counts once, in every worker's answer.
        game_id = httpx.post(f"{server.url}/games", json={"seats": 2}).json()["game_id"]
        live = ("rummy_stream_connections", ())
        with httpx.stream("GET", f"{server.url}/games/{game_id}/stream") as response:
            assert response.status_code == 200
            wait_for(lambda: all(scrape(server.url).get(live) == 1 for _ in range(6)))
        wait_for(lambda: all(scrape(server.url).get(live) == 0 for _ in range(6)))
    assert not counts.exists(), "removed with the server"


def test_a_given_directory_starts_from_zero(tmp_path: Path) -> None:
    counts = tmp_path / "metrics"
    counts.mkdir()
    (counts / "counter_1.db").write_bytes(b"left by an earlier server")
    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_WORKERS": "2",
        MULTIPROCESS_DIR: str(counts),
    }
    with rummy_serve(env) as server:
        assert not (counts / "counter_1.db").exists(), "an earlier server's counts are wiped"
        assert health(server.url) == 200
        wait_for(lambda: scrape(server.url).get(HEALTH) == 1)
    assert counts.exists(), "an operator's directory is kept"


def health(url: str) -> int:
    return httpx.get(f"{url}/health", headers={"Connection": "close"}).status_code


def test_a_dead_workers_open_streams_stop_counting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MULTIPROCESS_DIR, str(tmp_path))
    dead = 2**22 + 12345  # above the usual pid_max: no such process
    alive = os.getpid()
    for pid in (dead, alive):
        (tmp_path / f"gauge_livesum_{pid}.db").write_bytes(b"")
    (tmp_path / f"counter_{dead}.db").write_bytes(b"")

    Metrics().process_started()

    assert sorted(found.name for found in tmp_path.iterdir()) == [
        f"counter_{dead}.db",  # what it counted still counts
        f"gauge_livesum_{alive}.db",
    ]
