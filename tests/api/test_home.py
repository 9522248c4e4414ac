"""`GET /` leads a person to the docs, and stays out of the contract."""

from __future__ import annotations

import json

from litestar.testing import TestClient

from service.api.docs_page import DOCS_PATH
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
