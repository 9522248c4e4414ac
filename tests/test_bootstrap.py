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
from service.bootstrap import Wiring
from service.config import Settings, Store
from tests.apps import bootstrap_test_app


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[Wiring]:
    """Every wiring `bootstrap.bootstrap` builds while the test runs."""
    wirings: list[Wiring] = []
    real = bootstrap.bootstrap

    def recording(*args: Any, **kwargs: Any) -> Wiring:
        wiring = real(*args, **kwargs)
        wirings.append(wiring)
        return wiring

    monkeypatch.setattr(bootstrap, "bootstrap", recording)
    return wirings


def test_rummy_serve_builds_the_app_it_serves_by_bootstrap(
    built: list[Wiring], monkeypatch: pytest.MonkeyPatch
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
    assert [wiring.app for wiring in built] == [app]


def test_rummy_openapi_documents_the_app_bootstrap_builds(built: list[Wiring]) -> None:
    document = json.loads(cli.openapi_document())
    [wiring] = built
    assert document == wiring.app.openapi_schema.to_schema()


def test_the_tests_app_is_built_by_bootstrap(built: list[Wiring]) -> None:
    wiring = bootstrap_test_app()
    assert built == [wiring]


@pytest.mark.parametrize("store", [Store.MEMORY, Store.SQLITE])
def test_the_application_is_built_telling_the_metrics_the_hub_and_the_webhooks_of_its_saves(
    store: Store, tmp_path: Any
) -> None:
    wiring = bootstrap.bootstrap(Settings(store=store, sqlite_path=str(tmp_path / "g.sqlite")))
    assert wiring.games.observers == (
        wiring.metrics,
        wiring.hub.channels,
        wiring.sender.doorbell,
    )
    assert wiring.clocks is not None, "the turn clocks are on by default"
    assert wiring.hub.feed is wiring.feed
    assert wiring.feed.recorder is wiring.games.recorder
    assert wiring.sender.newest == wiring.feed.last_position
    wiring.games.close()
