"""One composition root: `rummy serve`, `rummy openapi` and the tests' app are all
built by `service.bootstrap.bootstrap`, and what it builds is wired at construction."""

from __future__ import annotations

import gc
import json
import signal
import sys
from typing import Any

import pytest
import uvicorn
from uvicorn.importer import import_from_string

from service import bootstrap, cli
from service.bootstrap import Service
from service.config import Settings, Store
from tests.apps import bootstrap_test_app


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[Service]:
    """Every service `bootstrap.bootstrap` builds while the test runs."""
    services: list[Service] = []
    real = bootstrap.bootstrap

    def recording(*args: Any, **kwargs: Any) -> Service:
        service = real(*args, **kwargs)
        services.append(service)
        return service

    monkeypatch.setattr(bootstrap, "bootstrap", recording)
    return services


def test_rummy_serve_builds_the_app_it_serves_by_bootstrap(
    built: list[Service], monkeypatch: pytest.MonkeyPatch
) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(app=app))
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # the test process keeps its own
    monkeypatch.setenv("RUMMY_STORE", "memory")
    assert cli.main(["serve"]) == 0
    # What each uvicorn worker does with the name `rummy serve` gives it.
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.delitem(sys.modules, "service.asgi", raising=False)
    try:
        app = import_from_string(served["app"])
    finally:
        sys.modules.pop("service.asgi", None)
    assert [service.app for service in built] == [app]


def test_rummy_openapi_documents_the_app_bootstrap_builds(built: list[Service]) -> None:
    document = json.loads(cli.openapi_document())
    [service] = built
    assert document == service.app.openapi_schema.to_schema()


def test_the_tests_app_is_built_by_bootstrap(built: list[Service]) -> None:
    service = bootstrap_test_app()
    assert built == [service]


@pytest.mark.parametrize("store", [Store.MEMORY, Store.SQLITE])
def test_the_application_is_built_telling_the_metrics_and_the_hub_of_its_saves(
    store: Store, tmp_path: Any
) -> None:
    service = bootstrap.bootstrap(Settings(store=store, sqlite_path=str(tmp_path / "g.sqlite")))
    assert service.games.observers == (service.metrics, service.hub.waiters)
    assert service.hub.games is service.games
    service.games.close()
