"""Prometheus metrics: `GET /metrics`.

Each app has its own registry, so several apps in one process (the tests)
never clash. `rummy serve --workers N` (N > 1) runs N processes behind one
port, and a scrape reaches one of them: so each worker counts into files of
one directory (prometheus-client's multi-process mode, `PROMETHEUS_MULTIPROC_DIR`:
`rummy serve` makes a temporary one, or wipes the one it is given, before the
workers start) and `/metrics` answers from every worker's files, whichever
worker it reaches: the same totals. The live-stream gauge sums the workers
alive: a worker's share goes when it stops (`process_ended`), or when the next
worker starts after it died (`process_started`). One worker alone keeps its
counts in memory, as before.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Controller, Response, get
from litestar.di import NamedDependency
from litestar.enums import ScopeType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from service.api.auth import require_metrics_reader
from service.api.deps import OPTIONAL_BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.api.transport.access_log import route_of
from service.webhooks.endpoints import Attempt

ACTION_ROUTE = "/games/{game_id}/actions"
MEDIA_TYPE = "text/plain; version=0.0.4"
"""The classic text format, which every Prometheus reads (litestar adds the charset)."""
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's variable: the directory every worker's counts are kept in."""
_LIVE_FILE = re.compile(r"gauge_live\w*_(\d+)\.db")


class Metrics:
    """The service's counters; also the application's `SaveObserver`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.requests = Counter(
            "rummy_http_requests",
            "HTTP requests answered, by method, route and status.",
            ["method", "route", "status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            "rummy_http_request_duration_seconds",
            "Time to answer a request (a live stream: to open it), by route.",
            ["method", "route"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.action_seconds = Histogram(
            "rummy_action_duration_seconds",
            "Time to play a request's actions (POST /games/{game_id}/actions), by status.",
            ["status"],
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.games_created = Counter(
            "rummy_games_created", "Games created by this process.", registry=registry
        )
        self.games_started = Counter(
            "rummy_games_started",
            "Games whose first hand this process dealt (every seat taken).",
            registry=registry,
        )
        self.games_finished = Counter(
            "rummy_games_finished", "Games this process finished.", registry=registry
        )
        self.games_aborted = Counter(
            "rummy_games_aborted",
            "Games this process aborted (a cap of their rules reached: `game_aborted`).",
            registry=registry,
        )
        self.write_conflicts = Counter(
            "rummy_write_conflicts",
            "Writes refused because the game had moved on: another writer got there first, "
            "or this process's cached copy was stale (each is retried on the game as stored; "
            "the last is answered 409 write_conflict).",
            registry=registry,
        )
        self.stream_connections = Gauge(
            "rummy_stream_connections",
            "Live event streams open now.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.streams_opened = Counter(
            "rummy_streams_opened", "Live event streams opened.", registry=registry
        )
        self.webhook_attempts = Counter(
            "rummy_webhook_attempts",
            "Webhook deliveries tried by this process, by outcome: `delivered` (2xx) or "
            "`failed` (another status, no answer in time, no connection).",
            ["outcome"],
            registry=registry,
        )
        self.webhook_seconds = Histogram(
            "rummy_webhook_attempt_duration_seconds",
            "Time a webhook receiver took to answer (or to fail).",
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.webhooks_disabled = Counter(
            "rummy_webhooks_disabled",
            "Webhook endpoints this process disabled after their run of failures.",
            registry=registry,
        )
        self.turn_timeouts = Counter(
            "rummy_turn_timeouts",
            "Turns this process timed out (a seat's clock ran out; its move made for it).",
            registry=registry,
        )
        self.turn_timeout_lag_seconds = Histogram(
            "rummy_turn_timeout_lag_seconds",
            "Time from a turn's deadline to its timeout being recorded.",
            buckets=_LATENCY_BUCKETS,
            registry=registry,
        )
        self.bot_moves = Counter(
            "rummy_bot_moves",
            "Bot requests this process's keeper played where no person's request moves "
            "the bots (games left to bots alone; docs/bots.md).",
            registry=registry,
        )

    # --- SaveObserver -------------------------------------------------------------------

    def saved(self, events: Sequence[Any]) -> None:
        for event in events:
            kind = getattr(event, "event_type", None)
            if kind == "game_created":
                self.games_created.inc()
            elif kind == "hand_dealt" and getattr(event, "hand_number", None) == 1:
                self.games_started.inc()
            elif kind == "game_finished":
                self.games_finished.inc()
            elif kind == "game_aborted":
                self.games_aborted.inc()

    def write_conflict(self) -> None:
        self.write_conflicts.inc()

    # --- the turn clocks (service/clocks/timekeeper.py's ClockObserver) ----------------

    def timed_out(self, lag_seconds: float) -> None:
        self.turn_timeouts.inc()
        self.turn_timeout_lag_seconds.observe(lag_seconds)

    def bot_moved(self) -> None:
        self.bot_moves.inc()

    # --- streams ------------------------------------------------------------------------

    def stream_opened(self) -> None:
        self.streams_opened.inc()
        self.stream_connections.inc()

    def stream_closed(self) -> None:
        self.stream_connections.dec()

    # --- webhooks (service/webhooks/sender.py's `AttemptObserver`) -------------------------

    def attempted(self, attempts: Sequence[Attempt], disabled: bool) -> None:
        for attempt in attempts:
            outcome = "delivered" if attempt.error is None else "failed"
            self.webhook_attempts.labels(outcome).inc()
            self.webhook_seconds.observe(attempt.duration_ms / 1000)
        if disabled:
            self.webhooks_disabled.inc()

    def exposition(self) -> bytes:
        if _shared_dir() is not None:
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
            return generate_latest(registry)
        return generate_latest(self.registry)

    # --- the worker's life (several workers: their shares of the live gauge) --------

    def process_started(self) -> None:
        """Drop the live-stream counts of workers that died without `process_ended`."""
        directory = _shared_dir()
        if directory is None:
            return
        for found in directory.glob("gauge_live*.db"):
            matched = _LIVE_FILE.fullmatch(found.name)
            if matched is not None and not _alive(int(matched.group(1))):
                mark_process_dead(int(matched.group(1)), str(directory))  # type: ignore[no-untyped-call]

    def process_ended(self) -> None:
        """This worker's open streams no longer count (its counters do)."""
        directory = _shared_dir()
        if directory is not None:
            mark_process_dead(os.getpid(), str(directory))  # type: ignore[no-untyped-call]


def _shared_dir() -> Path | None:
    given = os.environ.get(MULTIPROCESS_DIR)
    return Path(given) if given else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def shared_by_workers(workers: int) -> Iterator[None]:
    """For `rummy serve`, around starting `workers` processes: with more than one, every
    worker counts into one directory (`MULTIPROCESS_DIR`), given (its old counts wiped:
    a new server starts from zero) or made for the run and removed after it. Set before
    the workers start: prometheus-client reads it when a process imports it."""
    if workers < 2:
        yield
        return
    given = _shared_dir()
    if given is not None:
        given.mkdir(parents=True, exist_ok=True)
        for old in given.glob("*.db"):
            old.unlink()
        yield
        return
    made = tempfile.mkdtemp(prefix="rummy-metrics-")
    os.environ[MULTIPROCESS_DIR] = made
    try:
        yield
    finally:
        os.environ.pop(MULTIPROCESS_DIR, None)
        shutil.rmtree(made, ignore_errors=True)


@dataclass(frozen=True, slots=True)
class _Series:
    """The counter and histograms one kind of request (method, route, status) goes to."""

    requests: Counter
    seconds: Histogram
    action_seconds: Histogram | None
    """Only for `POST /games/{game_id}/actions`."""


class RequestMetrics:
    """ASGI middleware: counts and times every HTTP request by route and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        # prometheus-client finds a labelled series by checking and joining its labels,
        # which costs more than counting: each kind of request looks its series up once.
        self._known: dict[tuple[str, str, int], _Series] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        http = scope
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            elapsed = time.perf_counter() - started
            series = self._series(http["method"], route_of(http), status)
            series.requests.inc()
            series.seconds.observe(elapsed)
            if series.action_seconds is not None:
                series.action_seconds.observe(elapsed)

    def _series(self, method: str, route: str, status: int) -> _Series:
        key = (method, route, status)
        found = self._known.get(key)
        if found is None:
            metrics = self.metrics
            is_action = method == "POST" and route == ACTION_ROUTE
            found = self._known[key] = _Series(
                requests=metrics.requests.labels(method, route, str(status)),
                seconds=metrics.request_seconds.labels(method, route),
                action_seconds=metrics.action_seconds.labels(str(status)) if is_action else None,
            )
        return found


class MetricsController(Controller):
    tags = ["operations"]  # noqa: RUF012 - litestar reads it as a class attribute

    @get(
        "/metrics",
        operation_id="getMetrics",
        summary="Prometheus metrics",
        description=(
            "Requests by route and status, action latency, games created, started and "
            "finished, write conflicts, live streams and webhook attempts, in the Prometheus "
            "text format. "
            "Public, unless the service has a metrics token (`RUMMY_METRICS_TOKEN`): then "
            "send it, or the admin token, as `Authorization: Bearer <token>`."
        ),
        media_type="text/plain",
        security=OPTIONAL_BEARER,
        # Public without a metrics token: any token sent is ignored (throttle.py).
        token="metrics",
        responses={
            200: ResponseSpec(
                generate_examples=False,
                data_container=str,
                media_type="text/plain",
                description="The Prometheus text exposition format.",
                examples=[
                    Example(
                        summary="A few lines",
                        value=(
                            "# TYPE rummy_games_started_total counter\n"
                            "rummy_games_started_total 12.0\n"
                            "# TYPE rummy_stream_connections gauge\n"
                            "rummy_stream_connections 3.0\n"
                        ),
                    )
                ],
            ),
            **problems(401),
        },
    )
    async def get_metrics(
        self,
        metrics: NamedDependency[Metrics],
        services: NamedDependency[Services],
        authorization: Authorization = None,
    ) -> Response[bytes]:
        require_metrics_reader(authorization, services.metrics_token, services.admin_token)
        return Response(metrics.exposition(), media_type=MEDIA_TYPE)
