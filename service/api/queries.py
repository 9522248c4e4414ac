"""Integer query parameters are plain decimal numerals, and booleans `true` or
`false`, given once.

litestar converts query values with msgspec's lax rules, which read `1e3`
as 1000, `5.0` as 5 and `-0` as 0, and of `after=1&after=2` it takes one.
A client that sent any of these did not mean what the service would do
with it. So every integer query parameter a handler reads (`after`,
`limit`, `version`) must be `0` or digits 0-9 without a leading zero, sent
at most once: anything else is a 422 `invalid_request` naming the
parameter, before litestar converts it. Bounds (`ge`, `le`) stay
litestar's, as the OpenAPI document states them. Likewise msgspec reads
`1`, `0` and `TRUE` as booleans: a boolean parameter (`view`) must be
`true` or `false`, as the OpenAPI document's `boolean` says.

Runs in the app's `before_request` hook (`check_request`), like the header
and body checks.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from litestar import Request
from litestar.exceptions import ValidationException
from litestar.handlers import BaseRouteHandler
from litestar.params import QueryParameter

_NUMERAL = re.compile(r"0|[1-9][0-9]*")
_BOOLEAN = re.compile(r"true|false")
_SHAPES = {
    int: (
        _NUMERAL,
        "Expected a whole number in the digits 0-9 (no sign, point, exponent, "
        "space or leading zero), not {!r}.",
    ),
    bool: (_BOOLEAN, "Expected `true` or `false`, not {!r}."),
}


def strict_query(request: Request[Any, Any, Any]) -> None:
    parameters = strict_query_parameters(request.route_handler)
    if not parameters:
        return
    query = request.query_params
    for name, kind in parameters:
        values = query.getall(name, [])
        if len(values) > 1:
            _refuse(name, f"Send it once, not {len(values)} times.")
        shape, expected = _SHAPES[kind]
        if values and not shape.fullmatch(values[0]):
            _refuse(name, expected.format(values[0]))


@lru_cache(maxsize=256)
def strict_query_parameters(handler: BaseRouteHandler) -> tuple[tuple[str, type], ...]:
    """The query keys of `handler`'s integer and boolean parameters, each with its
    type (worked out once per handler)."""
    found = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        definition = field.kwarg_definition
        if not isinstance(definition, QueryParameter):
            continue
        for kind in (field, *field.inner_types):
            if kind.annotation in _SHAPES:
                found.append((definition.query or name, kind.annotation))
                break
    return tuple(found)


def _refuse(name: str, message: str) -> None:
    raise ValidationException(
        detail=message, extra=[{"message": message, "key": name, "source": "query"}]
    )
