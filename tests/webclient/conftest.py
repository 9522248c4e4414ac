"""Fixtures of the web client's tests: one `rummy serve` on the in-memory store
(its admin token `ADMIN_TOKEN`, for the replay viewer's admin view), one
headless Chromium for the module, and a place for the screenshots.

The server runs as a person runs it (the console script, every route the
composition root wires), without rate limits: a test plays many requests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.chromium import OfflinePages, chromium, offline_pages
from tests.servers import rummy_serve

ADMIN_TOKEN = "admin-token-of-the-web-client-tests"


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    # Games left to bots play out unpaced: a page waits for their end in seconds.
    env = {"RUMMY_STORE": "memory", "RUMMY_BOT_PACE_MS": "0", "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN}
    with rummy_serve(env) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def pages(browser: Browser, server_url: str) -> Iterator[OfflinePages]:
    """Pages that reach the server only; the test fails on any console error."""
    with offline_pages(browser, server_url) as opened:
        yield opened


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $RUMMY_ARTIFACTS_DIR, or the run's temporary
    directory (never the checkout)."""
    chosen = os.environ.get("RUMMY_ARTIFACTS_DIR")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("webclient-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
