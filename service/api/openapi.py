"""The finished OpenAPI document: what litestar generates, plus what it cannot say.

`finish_openapi(app)` edits the app's document in place, once, when the app
is built, so `/schema/openapi.json` and `rummy openapi` (which reads
`app.openapi_schema`) serve the same document. It:

- documents each request body with msgspec's own JSON Schema of the type
  the handler decodes (`strict_body` in bodies.py checks bodies against the
  same types), so nothing the decoder enforces is lost on the way (litestar
  drops a zero bound, the length of a nested list, closed objects);
- adds the cross-field rules of a new game that JSON Schema can state: how
  many seats the players and `seats` make (2 to 6, never fewer than the
  named players), a seat for at least one person (not every seat a bot),
  the dealer among them, a hand size that leaves a stock for that many
  players, a target or a number of deals but not both, no rules under which
  the game could never end, and a deck of 52 distinct cards;
- states this deployment's caps (`Caps`: deck orders, `max_turns`, `recycles`)
  as the bounds of a new game, so a body valid against the document served is
  never refused for them;
- adds the request body examples each handler names (`request_body_examples=`);
- states the exact `If-Match` and `If-None-Match` syntax, drops the null litestar
  allows in optional header and query parameters, gives the `ETag` header a
  schema, a `Location` its format, and every 304 its `ETag`;
- documents the 400 litestar answers by itself (a body that is not JSON) as
  problem+json, and drops the 400 it documents where there is no body;
- documents the 503 `store_unavailable` (with `Retry-After`) of every route
  that reads or writes the event store (errors.py maps it, not the handlers);
- adds OpenAPI links, so a client (and schemathesis' stateful phase) can
  follow a new game to its view, actions, events, replay and open seats
  with the real game id and a real player token.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import (
    Example,
    Link,
    OpenAPI,
    OpenAPIFormat,
    OpenAPIHeader,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Reference,
    RequestBody,
    Schema,
)
from litestar.routes import HTTPRoute

from service.api.caps import Caps
from service.api.conditional import ETAG, IF_NONE_MATCH_PATTERN
from service.api.convert import IF_MATCH_PATTERN
from service.api.docs import problem_response, store_unavailable_response
from service.api.printable import json_schema_pattern
from service.domain.rules import (
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    GoingOut,
    smallest_hand_to_go_out,
)

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_REF_TEMPLATE = "#/components/schemas/{name}"


@dataclass
class _Verbatim(Schema):
    """A JSON Schema given as plain data (msgspec's), rendered as it is."""

    verbatim: dict[str, Any] = field(default_factory=dict)

    def to_schema(self) -> dict[str, Any]:
        return self.verbatim


def finish_openapi(app: Litestar, caps: Caps) -> OpenAPI:
    """Complete `app`'s OpenAPI document in place and return it."""
    document = app.openapi_schema
    operations = dict(_operations(document))
    handlers = dict(_handlers(app))
    _request_bodies(document, operations, handlers, caps)
    _body_problems(operations)
    _store_problems(operations)
    _headers(operations)
    _links(operations)
    return document


def _operations(document: OpenAPI) -> Iterator[tuple[str, Operation]]:
    for item in (document.paths or {}).values():
        for method in _METHODS:
            operation = getattr(item, method, None)
            if isinstance(operation, Operation) and operation.operation_id:
                yield operation.operation_id, operation


def _handlers(app: Litestar) -> Iterator[tuple[str, HTTPRouteHandler]]:
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                if isinstance(handler.operation_id, str):
                    yield handler.operation_id, handler


def _request_bodies(
    document: OpenAPI,
    operations: dict[str, Operation],
    handlers: dict[str, HTTPRouteHandler],
    caps: Caps,
) -> None:
    bodies: dict[str, tuple[RequestBody, HTTPRouteHandler]] = {}
    for operation_id, operation in operations.items():
        body = operation.request_body
        handler = handlers.get(operation_id)
        if (
            isinstance(body, RequestBody)
            and handler is not None
            and "data" in handler.parsed_fn_signature.parameters
        ):
            bodies[operation_id] = (body, handler)
    types = [
        handler.parsed_fn_signature.parameters["data"].annotation for _, handler in bodies.values()
    ]
    schemas, components = msgspec.json.schema_components(types, ref_template=_REF_TEMPLATE)
    _new_game_rules(components)
    _json_schema_patterns(components)
    _caps(components, caps)
    registry = document.components.schemas
    if registry is None:
        registry = document.components.schemas = {}
    for name, component in components.items():
        registry[name] = _Verbatim(verbatim=component)
    for (body, handler), schema in zip(bodies.values(), schemas, strict=True):
        examples: list[Example] = handler.opt.get("request_body_examples", [])
        for media in body.content.values():
            media.schema = _Verbatim(verbatim=schema)
            if examples:
                media.examples = {
                    _slug(example.summary or "example"): example for example in examples
                }


def _json_schema_patterns(schema: Any) -> None:
    """Write each `pattern` (msgspec takes Python's) in JSON Schema's dialect."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                schema[key] = json_schema_pattern(value)
            else:
                _json_schema_patterns(value)
    elif isinstance(schema, list):
        for item in schema:
            _json_schema_patterns(item)


def _slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _new_game_rules(components: dict[str, Any]) -> None:
    """The rules of a new game that span fields, in JSON Schema."""
    new_game = components["CreateGame"]
    new_game["description"] = (
        "Name the players, or give a number of open seats, or both (the named players take "
        "the first seats). There are 2 to 6 seats (`seats`, else one per named player), "
        "at least one of them for a person (open, or named without `bot`); `dealer` is one "
        "of them; `rules.hand_size` leaves at least one card for the stock after the upcard, "
        "and with `rules.exhausted` void (the default) it is at least 2 (3 under "
        "`going_out` discard), or the game could never end."
    )
    new_game["anyOf"] = [
        branch for seats in range(MIN_PLAYERS, MAX_PLAYERS + 1) for branch in _seating(seats)
    ]
    deck = new_game["properties"]["decks"]["anyOf"][0]["items"]
    deck["uniqueItems"] = True
    components["Rules"]["not"] = {
        "description": "`target` and `deals` are two ways to end a game: set one at most.",
        "required": ["target", "deals"],
        "properties": {"target": {"type": "integer"}, "deals": {"type": "integer"}},
    }
    components["Rules"]["allOf"] = [
        {"not": _never_ending(smallest_hand_to_go_out(GoingOut.ANY))},
        {"not": _never_ending(smallest_hand_to_go_out(GoingOut.DISCARD), GoingOut.DISCARD)},
    ]


def _caps(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's caps, where the request types state the most any may allow."""
    decks = components["CreateGame"]["properties"]["decks"]["anyOf"][0]
    decks["maxItems"] = caps.decks
    rules = components["Rules"]["properties"]
    rules["max_turns"]["anyOf"][0]["maximum"] = caps.max_turns
    rules["recycles"]["anyOf"][0]["maximum"] = caps.recycles


def _never_ending(smallest: int, going_out: GoingOut | None = None) -> dict[str, Any]:
    """Rules under which nobody can go out with fewer than `smallest` cards dealt
    (under `going_out`, if given), and no hand scores otherwise: the game could
    never end (`RuleSet.check_can_end`)."""
    under = "" if going_out is None else f" under `going_out` {going_out.value}"
    never: dict[str, Any] = {
        "description": (
            f"A game that could never end: fewer than {smallest} cards dealt{under}, so "
            "nobody can go out, and `exhausted` void (the default), so no hand scores."
        ),
        "required": ["hand_size"],
        "properties": {
            "hand_size": {"type": "integer", "maximum": smallest - 1},
            "exhausted": {"enum": ["void", None]},
        },
    }
    if going_out is not None:
        never["required"].append("going_out")
        never["properties"]["going_out"] = {"const": going_out.value}
    return never


_A_PERSON = {
    "description": "A person, not a bot: no `bot`, or a null one.",
    "not": {"required": ["bot"], "properties": {"bot": {"type": "string"}}},
}


def _seating(seats: int) -> list[dict[str, Any]]:
    """The two ways to seat `seats` players: `seats` given (with at most that many
    named), or no `seats` and exactly that many named. Either way a person has a
    seat: an open one, or a named player who is no bot."""
    # `maximum`, `maxItems` and `contains` constrain only a number or an array:
    # a null passes them.
    within = {
        "dealer": {"maximum": seats - 1},
        "rules": {"properties": {"hand_size": {"maximum": (DECK_SIZE - 2) // seats}}},
    }
    return [
        {
            "title": f"{seats} seats",
            "required": ["seats"],
            "properties": {
                "seats": {"const": seats},
                "players": {
                    "maxItems": seats,
                    "anyOf": [{"maxItems": seats - 1}, {"contains": _A_PERSON}],
                },
                **within,
            },
        },
        {
            "title": f"{seats} named players",
            "required": ["players"],
            "properties": {
                "seats": {"type": "null"},
                "players": {
                    "type": "array",
                    "minItems": seats,
                    "maxItems": seats,
                    "contains": _A_PERSON,
                },
                **within,
            },
        },
    ]


def _body_problems(operations: dict[str, Operation]) -> None:
    """litestar answers a body that is not JSON with 400 (problem+json here) and
    documents a 400 of its own shape on every route with a parameter; only a
    route with a body can get one."""
    for operation in operations.values():
        responses = operation.responses or {}
        if "400" not in responses:
            continue
        if operation.request_body is None:
            del responses["400"]
        else:
            responses["400"] = problem_response(400)


_STORE_TAGS = frozenset({"games", "audit", "feed"})
"""The routes that read or write the event store (`/ready` documents its own 503)."""


def _store_problems(operations: dict[str, Operation]) -> None:
    for operation in operations.values():
        if _STORE_TAGS.intersection(operation.tags or ()):
            responses = operation.responses = operation.responses or {}
            responses["503"] = store_unavailable_response()


def _headers(operations: dict[str, Operation]) -> None:
    for operation in operations.values():
        for status, response in (operation.responses or {}).items():
            if not isinstance(response, OpenAPIResponse):
                continue
            if status == "304":
                response.headers = {ETAG.name: OpenAPIHeader(description=ETAG.description)}
            for name, header in (response.headers or {}).items():
                if not isinstance(header, Reference) and header.schema is None:
                    header.schema = Schema(type=OpenAPIType.STRING)
                    if name == "Location":
                        header.schema.format = OpenAPIFormat.URI_REFERENCE
        for parameter in operation.parameters or []:
            if not isinstance(parameter, Parameter) or not isinstance(parameter.schema, Schema):
                continue
            if parameter.param_in in {"header", "query"}:
                _not_null(parameter.schema)
            if parameter.name == "If-Match":
                parameter.schema.pattern = IF_MATCH_PATTERN
            if parameter.name == "If-None-Match":
                parameter.schema.pattern = IF_NONE_MATCH_PATTERN


def _not_null(schema: Schema) -> None:
    """An optional header or query parameter is absent, never null: HTTP has no
    null, so `X | None` (litestar's `oneOf: [X, null]`) is just X."""
    if not schema.one_of:
        return
    kept = [
        option
        for option in schema.one_of
        if not (isinstance(option, Schema) and option.type == OpenAPIType.NULL)
    ]
    only = kept[0] if len(kept) == 1 else None
    if isinstance(only, Schema) and only == Schema(type=only.type):
        schema.one_of = None
        schema.type = only.type
    else:
        schema.one_of = kept


# Runtime expressions (OpenAPI "Link Object"): where each value comes from.
_GAME_ID = "$response.body#/game_id"
_VERSION = "$response.body#/version"
_SAME_CALLER = "$request.header.Authorization"
# A player's view lists its legal moves: the links play them.
_DRAW = {"type": "draw", "source": "stock"}
_LEGAL_MELD = {"type": "meld", "cards": "$response.body#/legal/melds/0"}
_LEGAL_DISCARD = {"type": "discard", "card": "$response.body#/legal/discard/0"}


def _player(pointer: str) -> str:
    return f"Bearer {{$response.body#{pointer}}}"


def _links(operations: dict[str, Operation]) -> None:
    first_player = _player("/players/0/token")
    joined_player = _player("/token")
    follow: dict[tuple[str, str], dict[str, Link]] = {
        ("createGame", "201"): {
            "GetGameAsFirstPlayer": _link("getGame", first_player),
            "PlayAsFirstPlayer": _link("playActions", first_player),
            "DrawFromStockAsFirstPlayer": _link("playActions", first_player, body=_DRAW),
            "ListEventsAsFirstPlayer": _link("listEvents", first_player),
            "ReplayAsFirstPlayer": _link("replayGame", first_player, version=True),
            "JoinGame": _link("joinGame", None),
        },
        ("joinGame", "201"): {
            "GetGameAsJoinedPlayer": _link("getGame", joined_player),
            "PlayAsJoinedPlayer": _link("playActions", joined_player),
            "ListEventsAsJoinedPlayer": _link("listEvents", joined_player),
            "JoinAgain": _link("joinGame", None),
        },
        ("playActions", "200"): {
            "GetGameAgain": _link("getGame", _SAME_CALLER),
            "PlayAgain": _link("playActions", _SAME_CALLER),
            "LayALegalMeld": _link("playActions", _SAME_CALLER, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME_CALLER, body=_LEGAL_DISCARD),
            "ListEvents": _link("listEvents", _SAME_CALLER),
            "ReplayThisVersion": _link("replayGame", _SAME_CALLER, version=True),
        },
        ("getGame", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME_CALLER, version=True),
            "ListEvents": _link("listEvents", _SAME_CALLER),
            "DrawFromStock": _link("playActions", _SAME_CALLER, body=_DRAW),
            "LayALegalMeld": _link("playActions", _SAME_CALLER, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME_CALLER, body=_LEGAL_DISCARD),
        },
        ("listEvents", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME_CALLER, version=True),
        },
    }
    for (operation_id, status), links in follow.items():
        response = (operations[operation_id].responses or {})[status]
        assert isinstance(response, OpenAPIResponse)
        response.links = {**(response.links or {}), **links}


def _link(
    target: str,
    authorization: str | None,
    *,
    version: bool = False,
    body: dict[str, Any] | None = None,
) -> Link:
    parameters = {"path.game_id": _GAME_ID}
    if authorization is not None:
        parameters["header.Authorization"] = authorization
    if version:
        parameters["query.version"] = _VERSION
    return Link(operation_id=target, parameters=parameters, request_body=body)
