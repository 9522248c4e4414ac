"""The committed contract, openapi/openapi.json, is the code's, and it is complete.

Clients are written against the committed file, so it must be exactly what
the code generates (`uv run --frozen rummy openapi openapi/openapi.json` writes
it), the app must serve the same document, and the document must say
everything a client needs:
stable operation ids, an example for every request body, every client
error as application/problem+json.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.cli import openapi_document
from tests.api.client import make_app

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

STABLE_OPERATION_IDS = {
    ("post", "/games"): "createGame",
    ("post", "/games/{game_id}/players"): "joinGame",
    ("get", "/games/{game_id}"): "getGame",
    ("post", "/games/{game_id}/actions"): "playActions",
    ("get", "/games/{game_id}/events"): "listEvents",
    ("get", "/games/{game_id}/replay"): "replayGame",
    ("get", "/health"): "health",
    ("get", "/ready"): "ready",
}
"""Clients generate code from these names: renaming one is a breaking change."""


def committed() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    return document


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_the_committed_document_is_the_one_the_code_generates() -> None:
    on_disk = OPENAPI_PATH.read_text(encoding="utf-8")
    generated = openapi_document()
    if on_disk != generated:
        diff = "".join(
            list(
                difflib.unified_diff(
                    on_disk.splitlines(keepends=True),
                    generated.splitlines(keepends=True),
                    "openapi/openapi.json (committed)",
                    "openapi_document() (the code)",
                )
            )[:80]
        )
        pytest.fail(
            "openapi/openapi.json is out of date with the code. Run `uv run --frozen rummy "
            "openapi openapi/openapi.json` (or `scripts/rummy openapi openapi/openapi.json`) "
            "and commit the result (and check the diff: a removed or renamed field or "
            f"operation breaks clients).\n\n{diff}",
            pytrace=False,
        )


def test_the_app_serves_the_committed_document() -> None:
    with TestClient(make_app()) as client:
        served = client.get("/schema/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads(openapi_document())


def test_every_operation_has_a_unique_operation_id_and_the_stable_ones_are_kept() -> None:
    document = committed()
    found = {
        (method, path): operation.get("operationId")
        for method, path, operation in operations(document)
    }
    missing = [f"{method.upper()} {path}" for (method, path), op_id in found.items() if not op_id]
    assert not missing, f"operations without an operationId: {missing}"
    ids = [op_id for op_id in found.values() if op_id]
    assert len(ids) == len(set(ids)), "operationIds must be unique"
    for key, op_id in STABLE_OPERATION_IDS.items():
        assert found.get(key) == op_id, f"{key[0].upper()} {key[1]} must keep operationId {op_id!r}"


def test_every_request_body_has_examples() -> None:
    """Each body has examples (test_examples.py checks that they are valid)."""
    document = committed()
    bodies = 0
    for method, path, operation in operations(document):
        body = operation.get("requestBody")
        if body is None:
            continue
        for media_type, media in body["content"].items():
            bodies += 1
            assert media.get("examples") or "example" in media, (
                f"{method.upper()} {path} ({media_type}) has no request body example"
            )
    assert bodies >= 3


def test_every_operation_says_which_tokens_it_takes() -> None:
    """Tokens are the `bearer` security scheme, per operation: public (`[]`), a token
    needed, or optional (`[{}, {"bearer": []}]`). Never an `Authorization` header
    parameter, which OpenAPI tools ignore."""
    document = committed()
    scheme = document["components"]["securitySchemes"]["bearer"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    kinds = set()
    for method, path, operation in operations(document):
        where = f"{method.upper()} {path}"
        assert "security" in operation, where
        security = operation["security"]
        assert security in ([], [{"bearer": []}], [{}, {"bearer": []}]), where
        kinds.add(len(security))
        names = [parameter["name"].lower() for parameter in operation.get("parameters", [])]
        assert "authorization" not in names, where
    assert kinds == {0, 1, 2}


def test_every_operation_has_a_summary_a_description_and_described_tags() -> None:
    document = committed()
    described = {tag["name"]: tag.get("description") for tag in document["tags"]}
    assert all(described.values()), described
    used = set()
    for method, path, operation in operations(document):
        where = f"{method.upper()} {path}"
        assert operation.get("summary"), where
        assert operation.get("description"), where
        assert operation.get("tags"), where
        used.update(operation["tags"])
    assert used == set(described)


def test_every_client_error_is_documented_as_a_problem() -> None:
    document = committed()
    for method, path, operation in operations(document):
        for status, response in operation["responses"].items():
            if not status.startswith("4"):
                continue
            where = f"{method.upper()} {path} {status}"
            content = response.get("content", {})
            assert list(content) == ["application/problem+json"], where
            assert content["application/problem+json"]["schema"] == {
                "$ref": "#/components/schemas/Problem"
            }, where
            assert response.get("description"), where
    problem = document["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code"} <= set(problem["required"])


def test_an_operation_that_takes_a_game_id_documents_an_unknown_game() -> None:
    document = committed()
    for method, path, operation in operations(document):
        if "{game_id}" in path:
            assert "404" in operation["responses"], f"{method.upper()} {path}"
