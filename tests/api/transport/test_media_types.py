"""A body must say it is JSON (docs/api.md, "HTTP conventions"): every operation that
reads one refuses a body sent as text, a form, multipart or with no `Content-Type`
(415 `unsupported_media_type`), the "simple" requests any web page may send to any
site without a CORS preflight, and reads `application/json` and `application/*+json`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.client import ADMIN_TOKEN, make_app

NEW_GAME = {"players": [{"name": "Ann"}, {"name": "Bob"}]}
BODY = json.dumps(NEW_GAME).encode()
NO_GAME = "00000000-0000-4000-8000-000000000000"
"""The id in every path: fixed, since it is in the tests' ids, which must be the same
at every collection (pytest-xdist's workers each collect; `--lf` reruns by id)."""


def _body_routes(app: Litestar) -> list[tuple[str, str]]:
    """(method, path) of every operation whose handler reads a body (`data`), its path
    parameters filled in."""
    found = []
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            if "data" not in handler.parsed_fn_signature.parameters:
                continue
            path = re.sub(
                r"\{(\w+):(\w+)\}",
                lambda m: NO_GAME if m.group(2) == "uuid" else "whk_nothing",
                route.path,
            )
            found += [(method, path) for method in sorted(handler.http_methods)]
    return found


APP = make_app()
ROUTES = _body_routes(APP)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Litestar]]:
    with TestClient(APP) as client:
        yield client


def test_the_routes_with_a_body_are_found() -> None:
    assert ("POST", "/games") in ROUTES
    assert any(path.endswith("/actions") for _, path in ROUTES)
    assert any(method == "PATCH" for method, _ in ROUTES)


NOT_JSON: dict[str, dict[str, Any]] = {
    "text/plain": {"content": BODY, "headers": {"Content-Type": "text/plain"}},
    "form": {"data": {"players": "Ann"}},
    "multipart": {"files": {"body": ("body.json", BODY, "application/json")}},
    "no Content-Type": {"content": BODY},
    "application/jsonx": {"content": BODY, "headers": {"Content-Type": "application/jsonx"}},
    "text/json": {"content": BODY, "headers": {"Content-Type": "text/json"}},
}


@pytest.mark.parametrize("sent", NOT_JSON.values(), ids=NOT_JSON.keys())
@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[" ".join(r) for r in ROUTES])
def test_a_body_not_sent_as_json_is_refused_415(
    client: TestClient[Litestar], method: str, path: str, sent: dict[str, Any]
) -> None:
    options = dict(sent)
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", **options.pop("headers", {})}
    request = client.build_request(method, path, headers=headers, **options)
    if "content" in options:
        assert request.headers.get("content-type") == headers.get("Content-Type")
    response = client.send(request)
    assert response.status_code == 415, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "unsupported_media_type"
    assert problem["type"] == "/problems/unsupported_media_type"


JSON = ["application/json", "application/json; charset=utf-8", "Application/JSON"]
JSON += ["application/merge-patch+json", "application/vnd.rummy+json"]


@pytest.mark.parametrize("media_type", JSON)
@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[" ".join(r) for r in ROUTES])
def test_a_body_sent_as_json_is_read(
    client: TestClient[Litestar], method: str, path: str, media_type: str
) -> None:
    response = client.request(
        method,
        path,
        content=BODY,
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": media_type},
    )
    # Read and judged by the operation (a game made, or refused for its own reasons).
    assert response.status_code != 415, response.text


@pytest.mark.parametrize("media_type", JSON)
def test_a_game_is_created_from_any_json_media_type(
    client: TestClient[Litestar], media_type: str
) -> None:
    response = client.post("/games", content=BODY, headers={"Content-Type": media_type})
    assert response.status_code == 201, response.text


def test_a_post_without_a_body_needs_no_content_type(client: TestClient[Litestar]) -> None:
    created = client.post("/games", json=NEW_GAME).json()
    game_id, token = created["game_id"], created["players"][0]["token"]
    response = client.post(
        f"/games/{game_id}/stream-tickets", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 200, response.text
    assert "content-type" not in response.request.headers


def test_an_empty_body_without_content_type_is_a_missing_body(
    client: TestClient[Litestar],
) -> None:
    response = client.post("/games")
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_body"


def test_the_refusal_is_documented_on_every_operation_with_a_body() -> None:
    document = APP.openapi_schema.to_schema()
    with_body = [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "requestBody" in operation
    ]
    assert len(with_body) == len(ROUTES)
    for path, method, operation in with_body:
        refused = operation["responses"].get("415")
        assert refused is not None, (method, path)
        assert "application/problem+json" in refused["content"]
