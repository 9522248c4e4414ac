"""The committed schema of `POST /games` and the service agree on which rules a
game may be created with: a client that validates its body against the
document is never surprised by a 422, and never sends what the schema allows
only to be refused."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from litestar.testing import TestClient

from service.config import Settings
from tests.api.client import make_app

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"

HAND_SIZES = [1, 2, 3, 24, 25]
GOING_OUT: list[str | None] = [None, "any", "discard"]
EXHAUSTED: list[str | None] = [None, "void", "score"]


def _create_game_validator() -> Any:
    document = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    operation = document["paths"]["/games"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


VALIDATOR = _create_game_validator()


def _body(hand_size: int, going_out: str | None, exhausted: str | None) -> dict[str, Any]:
    rules: dict[str, Any] = {"hand_size": hand_size}
    if going_out is not None:
        rules["going_out"] = going_out
    if exhausted is not None:
        rules["exhausted"] = exhausted
    return {"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": rules}


@pytest.mark.parametrize(
    ("hand_size", "going_out", "exhausted"),
    list(itertools.product(HAND_SIZES, GOING_OUT, EXHAUSTED)),
)
def test_the_schema_allows_exactly_the_rules_the_service_accepts(
    hand_size: int, going_out: str | None, exhausted: str | None
) -> None:
    body = _body(hand_size, going_out, exhausted)
    with TestClient(app=make_app()) as client:
        response = client.post("/games", json=body)

    assert response.status_code in (201, 422), response.text
    accepted = response.status_code == 201
    assert VALIDATOR.is_valid(body) == accepted, (body, response.json())


def test_both_verdicts_occur() -> None:
    # Without both, the comparison above would prove nothing.
    verdicts = {
        VALIDATOR.is_valid(_body(*case))
        for case in itertools.product(HAND_SIZES, GOING_OUT, EXHAUSTED)
    }
    assert verdicts == {True, False}


@pytest.mark.parametrize(
    ("rule", "cap"),
    [("max_turns", Settings().max_turns_cap), ("recycles", Settings().recycles_cap)],
)
def test_the_schema_states_the_default_caps_of_rule_values(rule: str, cap: int) -> None:
    """A deployment's caps (RUMMY_MAX_TURNS_CAP, RUMMY_RECYCLES_CAP) are bounds of the
    document it serves; the committed one has the defaults."""
    with TestClient(app=make_app()) as client:
        for value in (cap, cap + 1):
            body = {"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": {rule: value}}
            response = client.post("/games", json=body)
            assert response.status_code in (201, 422), response.text
            assert VALIDATOR.is_valid(body) == (response.status_code == 201), response.text
