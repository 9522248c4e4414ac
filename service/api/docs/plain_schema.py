"""JSON Schema as plain data in litestar's OpenAPI document: msgspec's schemas, and
those written here, rendered as given, and the references between components."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from litestar.openapi.spec import Schema

REF_TEMPLATE = "#/components/schemas/{name}"
"""How a schema refers to a component of the document (msgspec's `ref_template`)."""


@dataclass
class Verbatim(Schema):
    """A JSON Schema given as plain data (msgspec's), rendered as it is."""

    verbatim: dict[str, Any] = field(default_factory=dict)

    def to_schema(self) -> dict[str, Any]:
        return self.verbatim
