"""Settings and fixtures for the whole suite.

A fixture name means one thing in every folder: `store` is a store under test
(in memory, SQLite, PostgreSQL: a test runs on each), `shared_store` one that
several applications (replicas) can share (SQLite, PostgreSQL), `sqlite_store`
and `postgres_store` one of them; `games` is a RummyApplication opened on
`store` (the application's tests: tests/game, tests/store, tests/clocks),
`app` the litestar app, `client` an HTTP client of it (litestar's TestClient
or httpx), `api` tests/api/client.py's `Api`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from service.config import Store
from service.game.application import RummyApplication
from tests.game.stores import StoreUnderTest, open_store
from tests.suites import BROWSER_NAMES, OVER_BUDGET, SUITES, by_marker

# No per-example deadline: on a shared two-core machine a slow example is
# load, not a bug. In CI the property tests are derandomized, so a red run is
# a regression in the code, not a new random draw; locally they explore.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")

STORES = [
    pytest.param(Store.MEMORY, id="memory"),
    pytest.param(Store.SQLITE, id="sqlite"),
    pytest.param(Store.POSTGRES, id="postgres", marks=pytest.mark.postgres),
]
SHARED_STORES = STORES[1:]
"""The stores several applications (replicas) can share."""


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture(params=SHARED_STORES)
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(request.param, tmp_path) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    with open_store(Store.SQLITE, tmp_path) as opened:
        yield opened


@pytest.fixture
def postgres_store(tmp_path: Path) -> Iterator[StoreUnderTest]:
    """PostgreSQL only, for what only a shared server can show (concurrent writers)."""
    with open_store(Store.POSTGRES, tmp_path) as opened:
        yield opened


@pytest.fixture
def games(store: StoreUnderTest) -> RummyApplication:
    """The application on each store under test (every application test runs on all three)."""
    return store.games()


# --- the slow suites (tests/suites.py): marked by place, timed against their budgets ------------


def pytest_configure(config: pytest.Config) -> None:
    for suite in SUITES:
        config.addinivalue_line(
            "markers",
            f"{suite.marker}: {suite.what} (budget {suite.budget_seconds} s; "
            "left out by scripts/test, run by scripts/test --all)",
        )


def _launches_chromium(item: pytest.Item) -> bool:
    function = getattr(item, "function", None)
    return function is not None and not BROWSER_NAMES.isdisjoint(function.__code__.co_names)


_suite_seconds: defaultdict[str, float] = defaultdict(float)


ON_POSTGRES = pytest.mark.xdist_group("postgres")
"""Every test that needs PostgreSQL (marked `postgres`) runs on one pytest-xdist worker,
one at a time as without xdist: the feed reads below the oldest write still in flight
on the whole server (service/store/feed_order.py), so another worker's writes, even
in a database of its own, hold back what a test reads (docs/testing.md)."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for suite in SUITES:
            if suite.holds(item.nodeid) or (suite.marker == "browser" and _launches_chromium(item)):
                item.add_marker(suite.marker)
        if item.get_closest_marker("postgres"):
            item.add_marker(ON_POSTGRES)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Each report names its test's slow suites (its marks, not its keywords, which
    hold its name's words too): under pytest-xdist the reports reach the controller,
    which sums the durations, but its items do not (the workers collect)."""
    report = yield
    marks = {mark.name for mark in item.iter_markers()}
    report.slow_suites = [marker for marker in by_marker() if marker in marks]  # type: ignore[attr-defined]
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a worker: its controller counts (and decides the run's fate)
    for marker in getattr(report, "slow_suites", ()):
        _suite_seconds[marker] += report.duration


def _over_budget() -> list[str]:
    suites = by_marker()
    return [
        f"{marker} took {seconds:.0f} s, over {OVER_BUDGET:g} x its budget of "
        f"{suites[marker].budget_seconds} s (tests/suites.py)"
        for marker, seconds in _suite_seconds.items()
        if seconds > OVER_BUDGET * suites[marker].budget_seconds
    ]


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if os.environ.get("CI") and _over_budget() and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _suite_seconds:
        return
    suites = by_marker()
    terminalreporter.section("slow suites: time against budget (tests/suites.py)")
    for marker, seconds in sorted(_suite_seconds.items()):
        terminalreporter.line(f"{marker:<9} {seconds:7.1f} s of {suites[marker].budget_seconds} s")
    for line in _over_budget():
        terminalreporter.line(("FAILED (CI): " if os.environ.get("CI") else "warning: ") + line)
