"""What generated clients make of the document's types: closed sets of values
are enums (so a client gets constants, not free strings), optional fields are
optional, and a list of events has room for types a newer service adds."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import pytest

from service.api.docs.problem_types import PROBLEM_TYPES
from service.domain.fairness import DealMode
from service.domain.melds import End, MeldKind
from service.domain.state import HandEnding, Phase, Source, Status
from service.projections.event_views import EventView
from tests.contract.test_openapi_drift import committed

SCHEMAS: dict[str, Any] = committed()["components"]["schemas"]

CLOSED_SETS: list[tuple[str, str, type[StrEnum]]] = [
    ("GameView", "status", Status),
    ("GameView", "phase", Phase),
    ("GameView", "deal", DealMode),
    ("MeldView", "kind", MeldKind),
    ("LastHand", "how", HandEnding),
    ("LegalMoves", "draw", Source),
    ("CardDrawnView", "source", Source),
    ("MeldLaidView", "kind", MeldKind),
    ("CardLaidOffView", "end", End),
    ("HandEndedView", "how", HandEnding),
    ("AuditExport", "status", Status),
    ("DrawAction", "source", Source),
]


def _enum_of(schema: dict[str, Any]) -> list[Any]:
    """The values a property's schema allows, through refs, nullable unions and arrays."""
    if "$ref" in schema:
        return _enum_of(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]])
    if "enum" in schema:
        return list(schema["enum"])
    if schema.get("type") == "null":
        return [None]
    if schema.get("type") == "array":
        return _enum_of(schema["items"])
    for union in ("oneOf", "anyOf"):
        if union in schema:
            return [value for option in schema[union] for value in _enum_of(option)]
    raise AssertionError(f"no enum in {schema}")


@pytest.mark.parametrize(("schema", "field", "values"), CLOSED_SETS)
def test_a_closed_set_of_values_is_an_enum(schema: str, field: str, values: type[StrEnum]) -> None:
    found = _enum_of(SCHEMAS[schema]["properties"][field])
    assert sorted(value for value in found if value is not None) == sorted(values)


def test_problem_codes_are_the_one_table_of_codes() -> None:
    assert sorted(_enum_of(SCHEMAS["Problem"]["properties"]["code"])) == sorted(PROBLEM_TYPES)


def _null_defaults(node: Any, where: str) -> list[str]:
    if isinstance(node, dict):
        found = [where] if "default" in node and node["default"] is None else []
        return found + [
            hit for key, value in node.items() for hit in _null_defaults(value, f"{where}/{key}")
        ]
    if isinstance(node, list):
        return [hit for index, item in enumerate(node) for hit in _null_defaults(item, where)]
    return []


def test_optional_fields_are_optional_without_a_null_default() -> None:
    """openapi-typescript makes a field with a default required in its types."""
    assert _null_defaults(SCHEMAS, "#/components/schemas") == []
    variants = [ref["$ref"].rsplit("/", 1)[1] for ref in SCHEMAS["Rules"]["oneOf"]]
    for name in ("CreateGame", "NewPlayer", "JoinGame", *variants):
        required = SCHEMAS[name].get("required", [])
        optional = [field for field in SCHEMAS[name]["properties"] if field not in required]
        assert optional, name
    # Every rule may be left out; a variant other than the classic game is named.
    assert SCHEMAS["ClassicRules"].get("required", []) == []
    assert all(SCHEMAS[name].get("required", []) in ([], ["variant"]) for name in variants)


def test_events_are_a_discriminated_union_with_room_for_new_types() -> None:
    event = SCHEMAS["Event"]
    assert event["oneOf"] == [
        {"$ref": "#/components/schemas/KnownEvent"},
        {"$ref": "#/components/schemas/UnknownEvent"},
    ]
    known = SCHEMAS["KnownEvent"]
    assert known["discriminator"]["propertyName"] == "type"
    mapping = known["discriminator"]["mapping"]
    members = [ref["$ref"] for ref in known["oneOf"]]
    assert sorted(mapping.values()) == sorted(members)
    for tag, ref in mapping.items():
        assert SCHEMAS[ref.rsplit("/", 1)[1]]["properties"]["type"]["const"] == tag
    assert len(members) == len(EventView.__args__)
    unknown_type = SCHEMAS["UnknownEvent"]["properties"]["type"]
    assert sorted(unknown_type["not"]["enum"]) == sorted(mapping)
    assert SCHEMAS["EventsPage"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/Event"
    }
    assert SCHEMAS["FeedItem"]["properties"]["event"] == {"$ref": "#/components/schemas/Event"}


def test_actions_are_a_discriminated_union() -> None:
    document = committed()
    body = document["paths"]["/games/{game_id}/actions"]["post"]["requestBody"]
    one, many = (
        body["content"]["application/json"]["schema"]["anyOf"][1],
        body["content"]["application/json"]["schema"]["anyOf"][0]["items"],
    )
    for union in (one, many):
        assert union["discriminator"]["propertyName"] == "type"
        assert sorted(union["discriminator"]["mapping"]) == [
            "declare",
            "discard",
            "draw",
            "drop",
            "knock",
            "lay_off",
            "meld",
            "pass",
            "submit_groups",
            "swap",
        ]
