"""The interactive docs page works offline (service/api/docs/docs_page.py).

Nothing under /schema names a file of another host; the page carries a strict
Content-Security-Policy; and in headless Chromium that may reach nothing but the
server, a game is created and played from the page with "Try it out" and
"Authorize", without a console error.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
from litestar import Litestar
from litestar.testing import TestClient
from playwright.sync_api import Locator, Page

from service.api.docs.docs_page import DOCS_CSP
from tests.chromium import offline_page
from tests.servers import rummy_serve

Json = Any

FORMER_PAGES = ("redoc", "swagger", "elements", "rapidoc", "scalar", "oauth2-redirect.html")
"""Pages litestar serves under /schema by default (or offers), each from a CDN."""
ANOTHER_HOST = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//[^\s\"'<>]+", re.IGNORECASE)
"""A URL with a host of its own (`https://…`, or `//…` on the page's scheme)."""


class _References(HTMLParser):
    """Every URL an HTML page makes the browser load or follow."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"src", "href", "action", "data", "poster", "srcset"} and value:
                self.urls.append(value)


def _references(html: str) -> list[str]:
    parser = _References()
    parser.feed(html)
    return parser.urls


def _schema_pages(app: Litestar) -> list[str]:
    """Every fixed GET path under /schema, and where litestar's own pages were."""
    served = {
        route.path
        for route in app.routes
        if route.path.startswith("/schema") and "{" not in route.path and "GET" in route.methods
    }
    return sorted(served | {f"/schema/{page}" for page in FORMER_PAGES})


def test_no_page_under_schema_loads_anything_from_another_host(
    app: Litestar, client: TestClient[Litestar]
):
    pages = 0
    for path in _schema_pages(app):
        answer = client.get(path)
        if not answer.headers.get("content-type", "").startswith("text/html"):
            continue
        pages += 1
        assert ANOTHER_HOST.findall(answer.text) == [], path
        for url in _references(answer.text):
            assert url.startswith("/"), (path, url)
            assert client.get(url).status_code == 200, (path, url)
    assert pages >= 2, "the docs page, at /schema and /schema/swagger"


def _directives(policy: str) -> dict[str, list[str]]:
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


def test_the_docs_page_sends_a_policy_of_this_servers_files_only_and_no_inline_code(
    client: TestClient[Litestar],
):
    for path in ("/schema", "/schema/swagger"):
        answer = client.get(path)
        assert answer.status_code == 200
        policy = _directives(answer.headers["content-security-policy"])
        assert policy["default-src"] == ["'none'"]
        for kind in ("script-src", "style-src", "connect-src"):
            assert policy[kind] == ["'self'"], kind
        assert policy["img-src"] == ["'self'", "data:"]
        assert policy["frame-ancestors"] == ["'none'"]


# -- in the browser ----------------------------------------------------------


def _bearer_scheme(document: Json, operation_id: str) -> str:
    """The name of the HTTP bearer scheme `operation_id` declares it takes, the one
    Swagger UI's "Authorize" fills: a header parameter named Authorization is
    ignored by OpenAPI tools (issue 15, "bearer security declared per operation")."""
    schemes = document.get("components", {}).get("securitySchemes", {})
    bearer = {
        name
        for name, scheme in schemes.items()
        if scheme.get("type") == "http" and scheme.get("scheme", "").lower() == "bearer"
    }
    (operation,) = _operations(document)[operation_id]
    named: set[str] = {
        name for requirement in operation.get("security", []) for name in requirement
    }
    declared = sorted(named & bearer)
    assert declared, f"{operation_id} declares no bearer security: Authorize cannot send a token"
    return declared[0]


def _operations(document: Json) -> dict[str, list[Json]]:
    found: dict[str, list[Json]] = {}
    for item in document["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                found.setdefault(operation["operationId"], []).append(operation)
    return found


@dataclass
class SwaggerUI:
    """The docs page as a person uses it: open an operation, "Try it out",
    fill it in, "Execute", read the response the page shows."""

    page: Page
    document: Json

    def _block(self, operation_id: str) -> Locator:
        (operation,) = _operations(self.document)[operation_id]
        # Swagger UI's id for the operation under its first tag.
        return self.page.locator(f'[id="operations-{operation["tags"][0]}-{operation_id}"]')

    def run(
        self, operation_id: str, *, path: dict[str, str] | None = None, body: Json = None
    ) -> tuple[int, Json]:
        """The status and JSON body the page shows for one execution."""
        block = self._block(operation_id)
        block.locator(".opblock-summary").click()
        block.locator("button.try-out__btn").click()
        for name, value in (path or {}).items():
            block.locator(f'tr[data-param-name="{name}"] input').fill(value)
        if body is not None:
            block.locator("textarea.body-param__text").fill(json.dumps(body))
        block.locator("button.execute").click()
        shown = block.locator(".live-responses-table .response")
        status = int(shown.locator(".response-col_status").inner_text().split()[0])
        return status, json.loads(shown.locator(".highlight-code pre").inner_text())

    def authorize(self, scheme: str, token: str) -> None:
        self.page.locator(".auth-wrapper button.authorize").click()
        form = self.page.locator(".modal-ux .auth-container").filter(
            has=self.page.locator("h4 code", has_text=scheme)
        )
        form.locator("input").fill(token)
        form.locator("button[type=submit]").click()
        self.page.locator(".modal-ux button.btn-done").click()


def test_a_game_is_created_and_played_from_the_docs_page_with_no_network_beyond_the_server():
    with rummy_serve({"RUMMY_STORE": "memory"}) as server:
        document = httpx.get(f"{server.url}/schema/openapi.json", timeout=10).json()
        scheme = _bearer_scheme(document, "playActions")
        with offline_page(server.url) as page:
            page.goto(f"{server.url}/schema/swagger")
            docs = SwaggerUI(page, document)

            status, created = docs.run(
                "createGame", body={"players": [{"name": "Ann"}, {"name": "Bob"}]}
            )
            assert status == 201
            game = {"game_id": created["game_id"]}
            status, public = docs.run("getGame", path=game)
            assert status == 200
            assert "my_hand" not in public, "no token is sent before Authorize"
            seat = public["turn"]

            docs.authorize(scheme, created["players"][seat]["token"])
            status, mine = docs.run(
                "playActions", path=game, body={"type": "draw", "source": "stock"}
            )
            assert status == 200
            assert mine["my_seat"] == seat
            assert len(mine["my_hand"]) == public["players"][seat]["hand_count"] + 1


def test_the_deploy_guide_states_the_policy_the_docs_page_sends():
    guide = (Path(__file__).parents[3] / "deploy" / "README.md").read_text(encoding="utf-8")
    assert f"Content-Security-Policy: {DOCS_CSP}\n" in guide
