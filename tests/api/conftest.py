"""Fixtures: one app on the in-memory store (admin token set) and a client for it.

The app is shared by the whole session: every test makes games of its own,
and building an app (routes, OpenAPI document) costs a tenth of a second.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.client import Api, make_app


@pytest.fixture(scope="session")
def app() -> Litestar:
    return make_app()


@pytest.fixture(scope="session")
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def api(client: TestClient[Litestar]) -> Api:
    return Api(client)
