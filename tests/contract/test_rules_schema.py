"""The committed schema of `POST /games` and the service agree on which rules a
game may be created with: a client that validates its body against the
document is never surprised by a 422, and never sends what the schema allows
only to be refused."""

from __future__ import annotations

import itertools
import json
import random
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


# --- the variants ---------------------------------------------------------------------
#
# Values for every option, good and bad alike, chosen without reading the presets:
# whether each is allowed in a variant is what the schema and the service must agree on.

VARIANT_NAMES: list[str | None] = [None, "classic", "wild", "boathouse", "knock", "wrotham"]
OPTION_VALUES: dict[str, list[Any]] = {
    "variant": [None, "indian", "gin"],
    "packs": [None, 1, 2, 0],
    "jokers": [None, 0, 1, 2, 3, 4],
    "wild_rank": [None, "2", "K", "JK", "1"],
    "min_natural": [None, 0, 1, 2, 3, 4],
    "swap": [None, True, False, "yes"],
    "swapped_wild": [None, "free", "meld_now", "later"],
    "wild_penalty": [None, -1, 0, 15, 50, 51],
    "ace_value": [None, 0, 1, 11, 15, 16],
    "knock_penalty": [None, -1, 0, 10, 50, 51],
    "knock_bonus": [None, 0, 25, 100, 101],
    "aces": [None, "low", "high_or_low", "around_the_corner"],
    "hand_size": [None, 1, 2, 7, 10, 13, 25],
    "melds_per_turn": [None, "one"],
    "lay_off": [None, "after_own_meld"],
    "going_out": [None, "any", "discard"],
    "rummy_bonus": [None, "double", "none"],
    "scoring": [None, "penalty"],
    "target": [None, 50],
    "deals": [None, 3, 6],
    "exhausted": [None, "void", "score"],
    "recycles": [None, 0],
}


def _variant_body(variant: str | None, options: dict[str, Any]) -> dict[str, Any]:
    rules = dict(options)
    if variant is not None:
        rules["variant"] = variant
    return {"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": rules}


SINGLES = [
    (variant, {option: value})
    for variant in VARIANT_NAMES
    for option, values in OPTION_VALUES.items()
    for value in values
    if not (option == "variant" and variant is not None)
]


def _combinations(count: int, seed: int) -> list[tuple[str | None, dict[str, Any]]]:
    chosen = random.Random(seed)
    found = []
    options = [name for name in OPTION_VALUES if name != "variant"]
    for _ in range(count):
        variant = chosen.choice(VARIANT_NAMES)
        names = chosen.sample(options, chosen.randint(2, 4))
        found.append((variant, {name: chosen.choice(OPTION_VALUES[name]) for name in names}))
    return found


def _verdicts(cases: list[tuple[str | None, dict[str, Any]]]) -> list[tuple[Any, bool, Any]]:
    """Each case's body, whether the schema allows it, and the service's answer."""
    found = []
    with TestClient(app=make_app()) as client:
        for variant, options in cases:
            body = _variant_body(variant, options)
            response = client.post("/games", json=body)
            found.append((body, VALIDATOR.is_valid(body), response))
    return found


@pytest.mark.parametrize(
    "cases",
    [pytest.param(SINGLES, id="one-option"), pytest.param(_combinations(300, 13), id="several")],
)
def test_the_schema_allows_exactly_the_variant_rules_the_service_accepts(
    cases: list[tuple[str | None, dict[str, Any]]],
) -> None:
    disagreements = []
    for body, valid, response in _verdicts(cases):
        assert response.status_code in (201, 422), response.text
        if response.status_code == 422:
            problem = response.json()
            # Schema-caught or not, a problem inside `rules` is invalid_rules, and
            # its detail names an option the body gave.
            assert problem["code"] == "invalid_rules", (body, problem)
            assert any(name in problem["detail"] for name in body["rules"]), (body, problem)
        if valid != (response.status_code == 201):
            disagreements.append((body["rules"], valid, response.json()))
    assert not disagreements, disagreements[:5]


def test_each_variant_accepts_some_rules_and_refuses_others() -> None:
    # Without both verdicts in every variant, the agreement above would prove little.
    verdicts: dict[str | None, set[bool]] = {}
    for body, valid, _ in _verdicts(SINGLES):
        verdicts.setdefault(body["rules"].get("variant"), set()).add(valid)
    assert {name: verdicts[name] for name in VARIANT_NAMES} == {
        name: {True, False} for name in VARIANT_NAMES
    }


@pytest.mark.parametrize(
    ("rules", "option"),
    [
        ({"variant": "classic", "wild_rank": None}, "wild_rank"),
        ({"variant": "knock", "melds_per_turn": None}, "melds_per_turn"),
        ({"wild_penalty": None}, "wild_penalty"),
    ],
)
def test_an_option_a_variant_lacks_is_refused_even_as_null(
    rules: dict[str, Any], option: str
) -> None:
    body = {"players": [{"name": "Ann"}, {"name": "Bob"}], "rules": rules}
    with TestClient(app=make_app()) as client:
        response = client.post("/games", json=body)
    assert not VALIDATOR.is_valid(body)
    assert (response.status_code, response.json()["code"]) == (422, "invalid_rules")
    assert option in response.json()["detail"]


def test_a_variant_refuses_a_player_count_it_does_not_seat() -> None:
    """A cross-field rule the schema states in words: Boathouse is for two."""
    body = {"seats": 3, "rules": {"variant": "boathouse"}}
    with TestClient(app=make_app()) as client:
        response = client.post("/games", json=body)
    assert VALIDATOR.is_valid(body)
    assert (response.status_code, response.json()["code"]) == (422, "invalid_rules")
    assert "variant" in response.json()["detail"]
