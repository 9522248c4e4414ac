"""Integer query parameters are plain decimal numerals, given once.

litestar converts query values with msgspec's lax rules, which read `1e3`
as 1000, `5.0` as 5 and `-0` as 0, and of `after=1&after=2` it takes one.
A client that sent any of these did not mean what the service would do
with it. So every integer query parameter a handler reads (`after`,
`limit`, `version`) must be `0` or digits 0-9 without a leading zero, sent
at most once: anything else is a 422 `invalid_request` naming the
parameter, before litestar converts it. Bounds (`ge`, `le`) stay
litestar's, as the OpenAPI document states them.

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


def strict_query(request: Request[Any, Any, Any]) -> None:
    names = integer_query_parameters(request.route_handler)
    if not names:
        return
    query = request.query_params
    for name in names:
        values = query.getall(name, [])
        if len(values) > 1:
            _refuse(name, f"Send it once, not {len(values)} times.")
        if values and not _NUMERAL.fullmatch(values[0]):
            _refuse(
                name,
                "Expected a whole number in the digits 0-9 (no sign, point, exponent, "
                f"space or leading zero), not {values[0]!r}.",
            )


@lru_cache(maxsize=256)
def integer_query_parameters(handler: BaseRouteHandler) -> tuple[str, ...]:
    """The query keys of `handler`'s integer parameters (worked out once per handler)."""
    names = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        definition = field.kwarg_definition
        if isinstance(definition, QueryParameter) and any(
            kind.annotation is int for kind in (field, *field.inner_types)
        ):
            names.append(definition.query or name)
    return tuple(names)


def _refuse(name: str, message: str) -> None:
    raise ValidationException(
        detail=message, extra=[{"message": message, "key": name, "source": "query"}]
    )
