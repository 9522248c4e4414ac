"""Every example in the committed document is valid against its schema.

Client authors copy examples, and Swagger UI sends them as they are: an example
the service would refuse, or a response it could never give, misleads. This
walks the whole document (request bodies, responses, parameters, headers, and
the `examples` of schemas) and validates each example with jsonschema-rs, which
reads patterns with Unicode semantics as JSON Schema 2020-12 does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs
from litestar.testing import TestClient

from service.domain.rule_values import Variant
from tests.api.client import make_app
from tests.contract.test_openapi_drift import committed

Example = tuple[str, Any, dict[str, Any]]
"""Where it is, the example, and the schema it must satisfy."""


def examples(node: Any, where: str = "#") -> Iterator[Example]:
    """Each example under `node` with the schema it illustrates."""
    if isinstance(node, dict):
        schema = node.get("schema")
        if isinstance(schema, dict):
            # A media type, parameter or header: `example` or `examples` beside `schema`.
            if "example" in node:
                yield f"{where}/example", node["example"], schema
            for name, example in (node.get("examples") or {}).items():
                if isinstance(example, dict) and "value" in example:
                    yield f"{where}/examples/{name}", example["value"], schema
        listed = node.get("examples")
        if isinstance(listed, list) and ("type" in node or "$ref" in node or "enum" in node):
            # A schema's own JSON Schema `examples`.
            for index, example in enumerate(listed):
                yield f"{where}/examples/{index}", example, node
        for key, value in node.items():
            yield from examples(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from examples(item, f"{where}/{index}")


def test_every_example_is_valid_against_its_schema() -> None:
    document = committed()
    found = list(examples(document))
    invalid = []
    for where, example, schema in found:
        # The schema's $refs point into the document's components.
        validator = jsonschema_rs.validator_for({**schema, "components": document["components"]})
        errors = [error.message for error in validator.iter_errors(example)]
        if errors:
            invalid.append(f"{where}: {errors[:3]}")
    assert not invalid, "\n".join(invalid)
    # Examples of request bodies, responses and schemas were all found.
    assert any("/requestBody/" in where for where, _, _ in found)
    assert any("/responses/" in where for where, _, _ in found)
    assert any(where.startswith("#/components/schemas/") for where, _, _ in found)


def _creation_examples() -> list[tuple[str, Any]]:
    media = committed()["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]
    return [(name, example["value"]) for name, example in media["examples"].items()]


def test_every_variant_has_a_creation_example_the_service_accepts() -> None:
    found = _creation_examples()
    variants = {(value.get("rules") or {}).get("variant", "classic") for _, value in found}
    assert variants == {variant.value for variant in Variant}
    with TestClient(app=make_app()) as client:
        for name, value in found:
            response = client.post("/games", json=value)
            assert response.status_code == 201, (name, response.text)
            view = client.get(response.headers["location"]).json()
            assert view["variant"] == (value.get("rules") or {}).get("variant", "classic"), name
