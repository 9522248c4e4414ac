"""Schemathesis against the committed contract (openapi/openapi.json), in process.

The document under test is the committed file, not what the app would
generate now (test_openapi_drift.py keeps the two equal): clients are
written against the file. Requests go straight to the ASGI app, on the
in-memory store, with schemathesis' default checks.

- Stateless: every operation, with the examples, coverage and fuzzing
  phases (positive and negative data).
- Stateful: `as_state_machine()` follows the document's OpenAPI links, so
  a game created by `createGame` is read, played, listed, replayed and
  joined with its real id and a real player token (the links carry the
  `Authorization` header). Positive data only: a malformed body is
  refused before any game is looked at, so the stateless run covers it.

Server-Sent Events routes are left out: a stream answers until its
heartbeat times out, for every case.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any
from unittest.mock import patch

import schemathesis
from hypothesis import HealthCheck, settings
from litestar import Litestar
from schemathesis import Case
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import Failure
from schemathesis.core.transport import Response
from schemathesis.hooks import HookContext
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.schemas import BaseSchema

from service.game import application
from tests.apps import bootstrap_test_app

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
ADMIN_TOKEN = "schemathesis-admin-token"


def _app() -> Litestar:
    return bootstrap_test_app(admin_token=ADMIN_TOKEN).app


def _streaming_operations(document: dict[str, Any]) -> list[str]:
    return [
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        and any(
            "text/event-stream" in (response.get("content") or {})
            for response in operation.get("responses", {}).values()
        )
    ]


def _load() -> BaseSchema:
    config = SchemathesisConfig.from_dict(
        {"phases": {"stateful": {"generation": {"mode": "positive"}}}}
    )
    loaded: BaseSchema = schemathesis.openapi.from_path(OPENAPI_PATH, config=config)
    streaming = _streaming_operations(json.loads(OPENAPI_PATH.read_text(encoding="utf-8")))
    if streaming:
        loaded = loaded.exclude(operation_id=streaming)
    loaded.app = _app()
    return loaded


schema = _load()

# Requests the schema cannot tell from good ones, because what decides is the
# history: an `If-Match` naming a version the game has left (412
# version_conflict), and an `Idempotency-Key` already used for another body
# (422 idempotency_key_reused, as the IETF Idempotency-Key draft says: by this
# seat for an action, by anyone for a creation or a join). Only these answers,
# to a schema-valid request, are let through, each where it can happen.
STATEFUL_REJECTIONS = {
    "POST /games/{game_id}/actions": {(412, "version_conflict"), (422, "idempotency_key_reused")},
    "POST /games": {(422, "idempotency_key_reused")},
    "POST /games/{game_id}/players": {(422, "idempotency_key_reused")},
}


@schema.hook
def filter_failure(
    context: HookContext, failure: Failure, case: Case[Any], response: Response
) -> bool:
    if isinstance(failure, RejectedPositiveData):
        allowed = STATEFUL_REJECTIONS.get(case.operation.label, set())
        return (response.status_code, _problem_code(response)) not in allowed
    return True


def _problem_code(response: Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_keeps_the_contract(case: Case[Any]) -> None:
    case.call_and_validate()


class LinkedCalls(schema.as_state_machine()):  # type: ignore[misc]
    """Chains of calls along the document's links, from a new game on."""

    def setup(self) -> None:
        # Hypothesis replays a failing chain to shrink it, so the chain must go
        # the same way again: the secret seed of a game created without one
        # (its deal, its dealer) is the server's only randomness that matters.
        seeds = itertools.count()
        self._seeds = patch.object(application, "new_seed", lambda: f"stateful-{next(seeds)}")
        self._seeds.start()

    def teardown(self) -> None:
        self._seeds.stop()


TestLinkedCallsKeepTheContract = LinkedCalls.TestCase
TestLinkedCallsKeepTheContract.settings = settings(
    max_examples=100,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
