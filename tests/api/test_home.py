"""`GET /` leads a person to the docs, as do the addresses people and tools look for
docs at; none is part of the contract."""

from __future__ import annotations

import json

import pytest
from litestar.testing import TestClient

from service.api.docs.docs_page import DOCS_ALIASES, DOCS_PATH
from service.cli import openapi_document
from tests.api.client import make_app


def test_the_root_redirects_to_the_docs_page_that_is_served() -> None:
    with TestClient(make_app()) as client:
        home = client.get("/", follow_redirects=False)
        assert home.status_code == 302
        assert home.headers["location"] == DOCS_PATH
        docs = client.get("/")
    assert docs.status_code == 200
    assert docs.headers["content-type"].startswith("text/html")
    assert str(docs.url).endswith(DOCS_PATH)


def test_the_root_is_no_operation_of_the_openapi_document() -> None:
    assert "/" not in json.loads(openapi_document())["paths"]


@pytest.mark.parametrize("path", ["/docs", "/schema/redoc", "/schema/elements", "/schema/rapidoc"])
def test_where_docs_are_looked_for_redirects_for_good_to_the_docs_page(path: str) -> None:
    with TestClient(make_app()) as client:
        moved = client.get(path, follow_redirects=False)
        assert moved.status_code == 308, path
        assert moved.headers["location"] == DOCS_PATH
        docs = client.get(path)
    assert docs.status_code == 200
    assert docs.headers["content-type"].startswith("text/html")
    assert str(docs.url).endswith(DOCS_PATH)


def test_no_docs_redirect_is_an_operation_of_the_openapi_document() -> None:
    paths = json.loads(openapi_document())["paths"]
    assert [path for path in DOCS_ALIASES if path in paths] == []
