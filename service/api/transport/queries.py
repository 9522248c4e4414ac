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
`true` or `false`, as the OpenAPI document's `boolean` says. And litestar
reads `null` as None for any optional parameter: an enumerated parameter
(`variant`) must be one of its values, and a text parameter with a pattern
(`after` of the lobby) must match it, as the document says.

Runs in the app's `before_request` hook (`check_request`), like the header
and body checks.
"""

from __future__ import annotations

import re
from enum import Enum
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
        shape, expected = _SHAPES[kind] if isinstance(kind, type) else kind
        if values and not shape.fullmatch(values[0]):
            _refuse(name, expected.format(values[0]))


Shape = type | tuple[re.Pattern[str], str]
"""An integer or boolean type (its shape is `_SHAPES`'), or a pattern and its message."""


@lru_cache(maxsize=256)
def strict_query_parameters(handler: BaseRouteHandler) -> tuple[tuple[str, Shape], ...]:
    """The query keys of `handler`'s integer, boolean, enumerated and patterned text
    parameters, each with its shape (worked out once per handler)."""
    found: list[tuple[str, Shape]] = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        definition = field.kwarg_definition
        if not isinstance(definition, QueryParameter):
            continue
        key = definition.query or name
        for kind in (field, *field.inner_types):
            annotation = kind.annotation
            if annotation in _SHAPES:
                found.append((key, annotation))
                break
            if isinstance(annotation, type) and issubclass(annotation, Enum):
                values = [str(member.value) for member in annotation]
                pattern = re.compile("|".join(map(re.escape, values)))
                found.append((key, (pattern, f"Expected one of {values}, not {{!r}}.")))
                break
            if annotation is str and definition.pattern is not None:
                shown = definition.pattern.replace("{", "{{").replace("}", "}}")
                message = f"Expected text matching {shown}, not {{!r}}."
                found.append((key, (re.compile(definition.pattern), message)))
                break
    return tuple(found)


def _refuse(name: str, message: str) -> None:
    raise ValidationException(
        detail=message, extra=[{"message": message, "key": name, "source": "query"}]
    )
