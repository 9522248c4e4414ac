"""Request bodies are checked with JSON's own rules before litestar decodes them.

Runs for every route in the app's `before_request` hook (`check_request`);
a handler without a `data` parameter has no body to check.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ValidationException


async def strict_body(request: Request[Any, Any, Any]) -> None:
    """Check a JSON body against its type with JSON's own rules, before litestar does.

    litestar converts bodies with msgspec's lax rules (`"3"` → 3, `0` → false,
    `"null"` → null), and names only `data` for a bad item of a list of
    actions; here every malformed body is refused, naming the exact place
    (`[1].card`). A body that is not JSON at all is left to litestar (400).
    """
    data = request.route_handler.parsed_fn_signature.parameters.get("data")
    if data is None:
        return
    body = await request.body()
    if not body.strip():
        raise _bad_body("A JSON body is required.")
    try:
        if not _decodes_strictly(body, data.annotation):
            _check_closely(body, data.annotation)
    except RecursionError:
        # msgspec and `_integral_floats` recurse per level; no real body is a tenth as
        # deep. Refused here, before litestar decodes it (a 500 there).
        raise _bad_body("The JSON body is nested too deeply.") from None


def _bad_body(message: str, key: str = "body") -> ValidationException:
    """A 422 `invalid_body` naming the place in the body (`[1].card`) that is wrong."""
    return ValidationException(
        detail=message, extra=[{"message": message, "key": key, "source": "body"}]
    )


def _decodes_strictly(body: bytes, annotation: Any) -> bool:
    """The quick answer for the bodies nearly every client sends. A no may still be
    a body to accept (`3.0` for an integer), and says nothing of where it is wrong."""
    try:
        _strict_decoder(annotation).decode(body)
    except msgspec.DecodeError:
        return False
    return True


@lru_cache(maxsize=16)
def _strict_decoder(annotation: Any) -> msgspec.json.Decoder[Any]:
    # Built once: without a decoder, msgspec works out how to decode a union of
    # types (a body of one action or a list of them) anew on every call.
    return msgspec.json.Decoder(annotation, strict=True)


def _check_closely(body: bytes, annotation: Any) -> None:
    """Refuse `body` unless it is `annotation` once integral floats are integers,
    naming the place that is wrong; leave a body that is not JSON to litestar."""
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return
    try:
        msgspec.convert(_integral_floats(raw), annotation, strict=True)
    except msgspec.ValidationError as invalid:
        message, _, where = str(invalid).partition(" - at `$")
        raise _bad_body(message, where.rstrip("`").lstrip(".") or "body") from None


def _integral_floats(value: Any) -> Any:
    """`3.0` is the JSON integer 3 (JSON Schema agrees); lax and strict differ on it."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, list):
        return [_integral_floats(item) for item in value]
    if isinstance(value, dict):
        return {key: _integral_floats(item) for key, item in value.items()}
    return value
