"""Request bodies are checked with JSON's own rules before litestar decodes them.

Runs for every route in the app's `before_request` hook (`check_request`);
a handler without a `data` parameter has no body to check.

A body must say it is JSON (`Content-Type: application/json`, or any
`application/*+json`; parameters such as `charset` are ignored), else 415
`unsupported_media_type`: litestar decodes whatever it is sent as JSON, so a
`text/plain`, form or multipart body, which any web page may send to any
site without asking first (a "simple" cross-origin request, no CORS
preflight), would otherwise create a game or take a seat.

A key twice in one object is refused at any depth: decoders disagree on
which of the two counts (litestar's reads the last, so `{"type": "meld",
"type": "draw"}` was a draw), and RFC 8259 leaves it undefined.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import ClientException, InternalServerException, ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.types import Empty
from litestar.utils.scope.state import ScopeState
from msgspec import inspect

from service.api.printable import TEXT_RULES
from service.api.schemas import CODE_PROBLEMS


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
    content_type = request.headers.get("content-type")
    if content_type is None or not is_json(content_type):
        if content_type is None and not (await read_body(request)).strip():
            raise _bad_body("A JSON body is required.")
        raise ClientException(
            status_code=HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
            detail=(
                f"The body must be JSON, sent with 'Content-Type: application/json' "
                f"(or application/*+json), not {content_type or 'without a Content-Type'}."
            ),
        )
    body = await read_body(request)
    if not body.strip():
        raise _bad_body("A JSON body is required.")
    try:
        _check(body, data.annotation)
    except RecursionError:
        # msgspec, json and `_integral_floats` recurse per level; no real body is a
        # tenth as deep. Refused here, before litestar decodes it (a 500 there).
        raise _bad_body("The JSON body is nested too deeply.") from None


def is_json(content_type: str) -> bool:
    """Whether a `Content-Type` says JSON: `application/json` or `application/*+json`
    (RFC 6839's suffix), whatever its parameters, in any case."""
    media = content_type.partition(";")[0].strip().lower()
    kind, _, subtype = media.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


async def read_body(request: Request[Any, Any, Any]) -> bytes:
    """`await request.body()`, read straight from `receive` rather than through
    litestar's `Request.stream`, an async generator: making it, its hooks and its
    three steps cost a POST more than its loop (docs/performance.md, the action
    POST). The same limits and errors as litestar's: 413 (`RequestEntityTooLarge`)
    for a declared length or a body over the route's limit, 500 for a client gone
    before the end. Kept where litestar keeps it, so the handler's `data` reads
    this body without another receive."""
    state = ScopeState.from_scope(request.scope)
    if state.body is not Empty:
        return state.body
    if not request.is_connected:
        raise InternalServerException("stream consumed")
    limit = request.route_handler.resolve_request_max_body_size() or math.inf
    declared = request.content_length
    if declared is not None and declared > limit:
        raise RequestEntityTooLarge
    chunks: list[bytes] = []
    received = 0
    while True:
        message = await request.receive()
        if message["type"] == "http.request":
            chunk = message["body"]
            if chunk:
                received += len(chunk)
                if received > limit:
                    raise RequestEntityTooLarge
                chunks.append(chunk)
            if not message.get("more_body", False):
                break
        elif message["type"] == "http.disconnect":
            raise InternalServerException("client disconnected prematurely")
    request.is_connected = False
    body = state.body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    return body


def _check(body: bytes, annotation: Any) -> None:
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return  # not JSON at all: litestar's 400
    _refuse_duplicate_keys(body, raw)
    if not _decodes_strictly(body, annotation):
        _check_closely(raw, annotation)


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


def _check_closely(raw: Any, annotation: Any) -> None:
    """Refuse the decoded body `raw` unless it is `annotation` once integral floats
    are integers, naming the place that is wrong."""
    try:
        msgspec.convert(_integral_floats(raw), annotation, strict=True)
    except msgspec.ValidationError as invalid:
        message, _, where = str(invalid).partition(" - at `$")
        place = where.rstrip("`").lstrip(".")
        unknown = _UNKNOWN_FIELD.fullmatch(message)
        if unknown:
            # msgspec names the object; the place of the field itself is more use.
            place = _join(place, unknown.group(1))
        for pattern, explain in TEXT_RULES.items():
            # msgspec quotes the whole pattern; say what is wrong with the text instead.
            if message.startswith(f"Expected `str` matching regex {pattern!r}"):
                message = explain(_at(raw, place)) or message
        if message.startswith("Invalid enum value"):
            # msgspec names the value only; a code's own words say what one looks like.
            enum = _enum_at(annotation, raw, place)
            problem = CODE_PROBLEMS.get(enum) if enum is not None else None
            if problem is not None:
                message = problem(_at(raw, place))
        raise _bad_body(message, place or "body") from None


_UNKNOWN_FIELD = re.compile(r"Object contains unknown field `(.*)`", re.DOTALL)


_STEP = re.compile(r"\.?([^.\[]+)|\[(\d+)\]")


def _at(raw: Any, place: str) -> Any:
    """The value at `place` (`players[1].name`, as msgspec writes places) in `raw`."""
    value = raw
    for key, index in _STEP.findall(place):
        value = value[int(index)] if index else value[key]
    return value


def _enum_at(annotation: Any, raw: Any, place: str) -> type | None:
    """The enumeration `annotation` expects at `place` in `raw`, if it is one there."""
    info = _type_info(annotation)
    value = raw
    for key, index in _STEP.findall(place):
        info = _narrowed(info, value)
        if index and isinstance(info, inspect.ListType) and isinstance(value, list):
            info, value = info.item_type, value[int(index)]
        elif key and isinstance(info, inspect.StructType) and isinstance(value, dict):
            field = next((field for field in info.fields if field.encode_name == key), None)
            if field is None:
                return None
            info, value = field.type, value.get(key)
        else:
            return None
    info = _narrowed(info, value)
    return info.cls if isinstance(info, inspect.EnumType) else None


@lru_cache(maxsize=16)
def _type_info(annotation: Any) -> inspect.Type:
    return inspect.type_info(annotation)


def _narrowed(info: inspect.Type, value: Any) -> inspect.Type:
    """`info` without its constraints, and of a union the one member `value` is meant
    for (a tagged struct by its tag), if one alone fits."""
    while True:
        if isinstance(info, inspect.Metadata):
            info = info.type
        elif isinstance(info, inspect.UnionType):
            fits = [member for member in info.types if _meant_for(member, value)]
            if len(fits) != 1:
                return info
            info = fits[0]
        else:
            return info


def _meant_for(info: inspect.Type, value: Any) -> bool:
    while isinstance(info, inspect.Metadata):
        info = info.type
    if isinstance(value, list):
        return isinstance(info, inspect.ListType)
    if isinstance(value, dict):
        if isinstance(info, inspect.StructType):
            return info.tag_field is None or value.get(info.tag_field) == info.tag
        return isinstance(info, inspect.DictType)
    if isinstance(value, str):
        return isinstance(info, (inspect.EnumType, inspect.StrType, inspect.LiteralType))
    return False


def _join(place: str, key: str) -> str:
    """The place of `key` inside the object at `place`, as msgspec writes places."""
    return f"{place}.{key}" if place else key


# --- a key twice in one object -----------------------------------------------------


def _refuse_duplicate_keys(body: bytes, raw: Any) -> None:
    found = first_duplicate_key(body, raw)
    if found is not None:
        key, place = found
        raise _bad_body(
            f"The key `{key}` appears more than once in one object; send each key once.", place
        )


def first_duplicate_key(body: bytes, decoded: Any) -> tuple[str, str] | None:
    """The first key that an object of the JSON text `body` holds twice, and its place
    (`players[0].name`), in document order with an object before those inside it;
    None if every key comes once.
    `decoded` is `body` decoded (keeping one of each duplicate).

    The quick test: every key in JSON text is followed by a colon, and any other
    colon is inside a string. So if `decoded` has as many keys as `body` has
    colons, no key came twice. Only otherwise (a colon in a string, or a
    duplicate) is the body decoded again, key by key, to tell which.
    """
    if body.count(b":") == _key_count(decoded):
        return None
    return _first_duplicate(json.loads(body, object_pairs_hook=_mark_duplicates), "")


def _key_count(value: Any) -> int:
    """How many keys all the objects in a decoded JSON value hold."""
    count = 0
    stack = [value] if value.__class__ in _CONTAINERS else []
    while stack:
        item = stack.pop()
        if item.__class__ is dict:
            count += len(item)
            stack.extend([inner for inner in item.values() if inner.__class__ in _CONTAINERS])
        else:
            stack.extend([inner for inner in item if inner.__class__ in _CONTAINERS])
    return count


_CONTAINERS = (dict, list)


class _Duplicated(dict[str, Any]):
    """An object that had `key` more than once (json.loads keeps the last)."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


def _mark_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Duplicated(pairs, key)
        seen.add(key)
    return dict(pairs)


def _first_duplicate(value: Any, place: str) -> tuple[str, str] | None:
    """The first repeated key in `value` and its place (see `first_duplicate_key`)."""
    if isinstance(value, _Duplicated):
        return value.key, _join(place, value.key)
    if isinstance(value, dict):
        for key, inner in value.items():
            found = _first_duplicate(inner, _join(place, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found = _first_duplicate(inner, f"{place}[{index}]")
            if found is not None:
                return found
    return None


def _integral_floats(value: Any) -> Any:
    """`3.0` is the JSON integer 3 (JSON Schema agrees); lax and strict differ on it."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, list):
        return [_integral_floats(item) for item in value]
    if isinstance(value, dict):
        return {key: _integral_floats(item) for key, item in value.items()}
    return value
