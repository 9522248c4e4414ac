"""/play is served whole by the service, under a strict policy, outside the contract.

The page names only files of its own under /play/assets/, each served with its
media type and the page's Content-Security-Policy; the modules import only
each other; nothing names another host; the type declarations and the
tsconfig stay unserved; and the OpenAPI document does not list /play.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from service.webclient.served import FILES, PLAY_CSP, PLAY_PATH
from tests.api.client import make_app

ANOTHER_HOST = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//[a-z0-9.-]+", re.IGNORECASE)
IMPORT = re.compile(r'^import .* from "(\./[^"]+)";$', re.MULTILINE)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Litestar]]:
    with TestClient(make_app()) as test_client:
        yield test_client


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in {"src", "href"} and value]


def _page_files(client: TestClient[Litestar]) -> list[str]:
    page = client.get(PLAY_PATH)
    parser = _References()
    parser.feed(page.text)
    return [url for url in parser.urls if url.startswith(f"{PLAY_PATH}/assets/")]


def test_the_page_and_its_files_carry_the_policy(client: TestClient[Litestar]) -> None:
    page = client.get(PLAY_PATH)
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    files = _page_files(client)
    assert {f"{PLAY_PATH}/assets/{name}" for name in ("main.js", "style.css", "icon.svg")} <= set(
        files
    )
    for answer in [page, *(client.get(url) for url in files)]:
        assert answer.status_code == 200, answer.url
        assert answer.headers["content-security-policy"] == PLAY_CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
    policy = dict(part.strip().split(" ", 1) for part in PLAY_CSP.split(";"))
    assert policy["default-src"] == "'none'"
    assert all(
        policy[kind] == "'self'" for kind in ("script-src", "style-src", "connect-src", "img-src")
    )


def test_every_module_the_page_loads_is_served_as_javascript(client: TestClient[Litestar]) -> None:
    seen: set[str] = set()
    waiting = ["main.js"]
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        answer = client.get(f"{PLAY_PATH}/assets/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["content-type"].startswith("text/javascript"), name
        waiting += [imported.removeprefix("./") for imported in IMPORT.findall(answer.text)]
    on_disk = {path.name for path in FILES.glob("*.js")}
    assert seen == on_disk, "every module is loaded, and only those"


def test_nothing_served_names_another_host(client: TestClient[Litestar]) -> None:
    for path in [FILES / "index.html", *FILES.glob("*.js"), *FILES.glob("*.css")]:
        assert ANOTHER_HOST.findall(path.read_text(encoding="utf-8")) == [], path.name


@pytest.mark.parametrize(
    "name", ["types.d.ts", "tsconfig.json", "index.html", "../served.py", "nothing.js"]
)
def test_only_the_clients_files_are_served(client: TestClient[Litestar], name: str) -> None:
    assert client.get(f"{PLAY_PATH}/assets/{name}").status_code == 404


def test_play_is_no_part_of_the_contract(client: TestClient[Litestar]) -> None:
    document = client.get("/schema/openapi.json").json()
    assert not [path for path in document["paths"] if path.split("/")[1] == PLAY_PATH.strip("/")]
    assert any(path.startswith("/players") for path in document["paths"]), "only /play is out"


def test_the_deploy_guide_states_the_policy_the_client_is_served_with() -> None:
    guide = (Path(__file__).parents[2] / "deploy" / "README.md").read_text(encoding="utf-8")
    assert f"Content-Security-Policy: {PLAY_CSP}\n" in guide
