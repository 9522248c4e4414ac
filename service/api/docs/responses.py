"""OpenAPI documentation helpers: every error status a route can answer, and
examples that keep their nulls."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    Example,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Reference,
    Schema,
)

from service.api.docs.problem_types import PROBLEM_TYPES
from service.api.errors import PROBLEM_MEDIA_TYPE, Problem


@dataclass
class VerbatimExample(Example):
    """An example whose value is rendered as given: litestar drops every null from an
    example's value, which makes an example of a required nullable field invalid."""

    def to_schema(self) -> dict[str, Any]:
        rendered = super().to_schema()
        rendered["value"] = self.value
        return rendered


def _meaning(status: int) -> str:
    """Every code `status` may come with, and what each means, from the one table."""
    return "; ".join(
        f"{error.meaning.rstrip('.')} (`{code}`)"
        for code, error in PROBLEM_TYPES.items()
        if error.status == status
    )


def _description(status: int) -> str:
    return f"{HTTPStatus(status).phrase}. {_meaning(status)}."


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The problem+json responses of a route, each documented."""
    return {status: problem_spec(status, _meaning(status) + ".") for status in statuses}


def problem_spec(status: int, meaning: str) -> ResponseSpec:
    """A problem+json response of a route, with what it means there."""
    return ResponseSpec(
        data_container=Problem,
        description=f"{HTTPStatus(status).phrase}. {meaning}",
        media_type=PROBLEM_MEDIA_TYPE,
        generate_examples=False,
    )


def problem_response(status: int) -> OpenAPIResponse:
    """The same documentation as `problems`, as an OpenAPI response object, for
    statuses the framework answers by itself (a body that is not JSON: 400)."""
    return _problem_response(_description(status))


def store_unavailable_response() -> OpenAPIResponse:
    """The 503 any route that uses the event store may answer (errors.py)."""
    response = _problem_response(
        f"Service Unavailable. {PROBLEM_TYPES['store_unavailable'].meaning} An action may or may "
        "not have been applied: resend it with the same `Idempotency-Key`, or read the game."
    )
    response.headers = {
        "Retry-After": OpenAPIHeader(
            schema=Schema(type=OpenAPIType.INTEGER, minimum=1),
            description="Seconds to wait before trying again.",
        )
    }
    return response


def _problem_response(description: str) -> OpenAPIResponse:
    return OpenAPIResponse(
        description=description,
        content={
            PROBLEM_MEDIA_TYPE: OpenAPIMediaType(
                schema=Reference(ref=f"#/components/schemas/{Problem.__name__}")
            )
        },
    )
