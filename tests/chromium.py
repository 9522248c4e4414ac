"""Headless Chromium for the browser tests, with no network beyond one server.

The browser is Debian's `chromium` (apt; .ci/run installs it), driven by the
`playwright` package that uv.lock pins; Playwright's own browser download never
runs. Without /usr/bin/chromium a test is skipped, unless RUMMY_REQUIRE_CHROMIUM
is set (CI sets it): then it fails.

`offline_page(url)` gives a page whose browser context reaches only `url`'s
origin: every other request is aborted and recorded, as is every console error
and uncaught exception, and the block fails if there was any.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Error, Page, Route, sync_playwright

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


@contextmanager
def offline_page(url: str) -> Iterator[Page]:
    """A fresh page that may reach `url`'s origin only (see the module docstring)."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install -y chromium)"
        if required():
            pytest.fail(f"RUMMY_REQUIRE_CHROMIUM is set but {message}")
        pytest.skip(message)
    allowed = _origin(url)
    outside: list[str] = []
    errors: list[str] = []

    def only_allowed(route: Route) -> None:
        if _origin(route.request.url) == allowed:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort("blockedbyclient")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text} ({message.location})")

    def uncaught(error: Error) -> None:
        errors.append(f"uncaught: {error}")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(FLAGS))
        try:
            context = browser.new_context()
            context.set_default_timeout(TIMEOUT_MS)
            context.route("**/*", only_allowed)
            page = context.new_page()
            page.on("console", console)
            page.on("pageerror", uncaught)
            try:
                yield page
            except BaseException as failure:
                # A step that failed may have failed for what the page met on the way.
                failure.add_note(_report(outside, errors))
                raise
        finally:
            browser.close()
    if outside or errors:
        pytest.fail(_report(outside, errors))


def _report(outside: list[str], errors: list[str]) -> str:
    lines = [f"the page tried to reach another host: {url}" for url in outside]
    lines += [f"the page logged an error: {error}" for error in errors]
    return "\n".join(lines) or "the page reached no other host and logged no error"
