"""Headless Chromium for the browser tests, with no network beyond one server.

The browser is Debian's `chromium` (apt; .ci/run installs it), driven by the
`playwright` package that uv.lock pins; Playwright's own browser download never
runs. Without /usr/bin/chromium a test is skipped, unless RUMMY_REQUIRE_CHROMIUM
is set (CI sets it): then it fails.

`offline_page(url)` gives a page whose browser context reaches only `url`'s
origin: every other request is aborted and recorded, as is every console error
and uncaught exception, and the block fails if there was any. `chromium()` and
`offline_pages(browser, url)` are the same in two parts, for tests that share
one browser and open several pages (each in a context of its own, as two
people on two machines). A test that makes the server refuse a request on
purpose names it in `refused`: Chromium logs every answer of 4xx or 5xx to a
request of the page as a console error ("Failed to load resource: the server
responded with a status of 409"), and a request that found no server as one too
("Failed to load resource: net::ERR_CONNECTION_REFUSED"); only the statuses and
network errors named are let through.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Route,
    sync_playwright,
)

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
TIMEOUT_MS = 10_000
"""How long a step may wait for the page (a lost element fails in seconds, not minutes)."""


def required() -> bool:
    return os.environ.get("RUMMY_REQUIRE_CHROMIUM", "") not in ("", "0")


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


_REFUSED = re.compile(
    r"^Failed to load resource: (?:the server responded with a status of (\d{3})\b|net::(\w+))"
)
"""Chromium's console line for an answer of 4xx or 5xx to a request of the page, or
for a request that failed in the network."""


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium, closed afterwards (skipped without it, failed in CI)."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if required():
            pytest.fail(f"RUMMY_REQUIRE_CHROMIUM is set but {message}")
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(FLAGS))
        try:
            yield browser
        finally:
            browser.close()


class OfflinePages:
    """Pages of `browser` that may reach `url`'s origin only, each in a context of its
    own; what they meet on the way is recorded (see the module docstring)."""

    def __init__(self, browser: Browser, url: str, refused: Collection[int | str] = ()) -> None:
        self.browser = browser
        self.allowed = _origin(url)
        self.refused = frozenset(refused)
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.contexts: list[BrowserContext] = []

    def new_page(self, **context_options: Any) -> Page:
        """A page in a new browser context (`viewport`, `is_mobile`, ... as Playwright takes)."""
        context = self.browser.new_context(**context_options)
        self.contexts.append(context)
        context.set_default_timeout(TIMEOUT_MS)
        context.route("**/*", self._only_allowed)
        page = context.new_page()
        page.on("console", self._console)
        page.on("pageerror", self._uncaught)
        return page

    def _only_allowed(self, route: Route) -> None:
        if _origin(route.request.url) == self.allowed:
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort("blockedbyclient")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        refused = _REFUSED.match(message.text)
        if refused and (
            (refused.group(1) and int(refused.group(1)) in self.refused)
            or refused.group(2) in self.refused
        ):
            return
        self.errors.append(f"console: {message.text} ({message.location})")

    def _uncaught(self, error: Error) -> None:
        self.errors.append(f"uncaught: {error}")

    def report(self) -> str:
        lines = [f"the page tried to reach another host: {url}" for url in self.outside]
        lines += [f"the page logged an error: {error}" for error in self.errors]
        return "\n".join(lines) or "the page reached no other host and logged no error"

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()


@contextmanager
def offline_pages(
    browser: Browser, url: str, refused: Collection[int | str] = ()
) -> Iterator[OfflinePages]:
    """`OfflinePages` for a block, which fails if a page reached another host or
    logged an error."""
    pages = OfflinePages(browser, url, refused)
    try:
        yield pages
    except BaseException as failure:
        # A step that failed may have failed for what the page met on the way.
        failure.add_note(pages.report())
        raise
    finally:
        pages.close()
    if pages.outside or pages.errors:
        pytest.fail(pages.report())


@contextmanager
def offline_page(url: str) -> Iterator[Page]:
    """A fresh page that may reach `url`'s origin only (see the module docstring)."""
    with chromium() as browser, offline_pages(browser, url) as pages:
        yield pages.new_page()
