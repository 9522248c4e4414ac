"""The finished OpenAPI document: what litestar generates, plus what it cannot say.

`finish_openapi(app)` edits the app's document in place, once, when the app
is built, so `/schema/openapi.json` and `rummy openapi` (which reads
`app.openapi_schema`) serve the same document. It:

- documents each request body with msgspec's own JSON Schema of the type
  the handler decodes (`strict_body` in bodies.py checks bodies against the
  same types), so nothing the decoder enforces is lost on the way (litestar
  drops a zero bound, the length of a nested list, closed objects);
- describes the cross-field rules of a new game in words (how many seats the
  players and `seats` make, a person among them, the dealer among them, a
  hand size that leaves a stock for that many players): schemas that state
  them branch by seat count, which client generators cannot parse
  (openapi-python-client drops the operation), so the service checks them
  (422 `invalid_seating`, `invalid_rules`, and `invalid_deck`: which pack a
  deck order must be depends on the rules). What needs no branches by seat
  count stays in the schema: each variant's options (`rules` is a `oneOf` on
  `variant` made from `VARIANTS`, so it and the service agree by construction),
  a target or a number of deals but not both, no rules under which the game
  could never end;
- leaves every optional field of a request out of `required` without a
  `default: null` (openapi-typescript makes a field with a default required);
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
- names the union of events `Event`: a `KnownEvent` (with a `discriminator`
  on `type`) or an `UnknownEvent`, a type a newer service may add, so a
  client generated from this document reads a page holding one (and skips it);
- says `security: []` on the public routes (litestar leaves it out);
- adds OpenAPI links, so a client (and schemathesis' stateful phase) can
  follow a new game to its view, actions, events, replay and open seats
  with the real game id (a link cannot carry a token: a security scheme is
  no parameter, so each link's description says whose token to send).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, get_args

import msgspec
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import (
    Example,
    Link,
    OpenAPI,
    OpenAPIFormat,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    PathItem,
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
    VARIANTS,
    GoingOut,
    Preset,
    Variant,
    smallest_hand_to_go_out,
)
from service.projections.events import EventView

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
    _public_routes(operations, handlers)
    _request_bodies(document, operations, handlers, caps)
    _events(document)
    _body_problems(operations)
    _store_problems(operations)
    _headers(operations)
    _links(operations)
    _webhooks(document)
    return document


WEBHOOK_HEADERS = {
    "webhook-id": (
        "The event's identity, `<game_id>:<version>`: the same on every retry and "
        "redelivery. Skip an id you have processed (delivery is at least once)."
    ),
    "webhook-timestamp": "The Unix time (seconds) of this attempt.",
    "webhook-signature": (
        "`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, "
        "keyed by the base64-decoded part of the endpoint's secret after `whsec_`."
    ),
}


def _webhooks(document: OpenAPI) -> None:
    """What the service sends to a registered endpoint (OpenAPI 3.1 `webhooks`)."""
    document.webhooks = {
        "feedEvent": PathItem(
            post=Operation(
                operation_id="deliverFeedEvent",
                tags=["webhooks"],
                security=[],  # no token: the signature says it is the service's
                summary="One event of the feed, POSTed to a registered endpoint",
                description=(
                    "Sent to each endpoint registered with `createWebhook` for every event "
                    "it wants, one event per request, in feed order; signed per the Standard "
                    "Webhooks specification with the endpoint's secret (docs/webhooks.md "
                    "shows a receiver that verifies it). Any 2xx within the service's "
                    "timeout is a delivery; anything else is retried with backoff."
                ),
                parameters=[
                    Parameter(
                        name=name,
                        param_in="header",
                        required=True,
                        description=description,
                        schema=Schema(type=OpenAPIType.STRING),
                    )
                    for name, description in WEBHOOK_HEADERS.items()
                ],
                request_body=RequestBody(
                    required=True,
                    description="One item of `getFeed`'s `events`: the event as the admin sees it.",
                    content={
                        "application/json": OpenAPIMediaType(
                            schema=Reference(ref="#/components/schemas/FeedItem")
                        )
                    },
                ),
                responses={
                    "2XX": OpenAPIResponse(
                        description="Delivered: the next event follows. Any other answer, "
                        "or none in time, is a failed attempt."
                    )
                },
            )
        )
    }


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


def _public_routes(operations: dict[str, Operation], handlers: dict[str, HTTPRouteHandler]) -> None:
    """`security: []` where a route says it reads no token: litestar leaves an empty
    requirement out, and a route without `security` says nothing about tokens."""
    for operation_id, operation in operations.items():
        handler = handlers.get(operation_id)
        if handler is not None and handler.security == []:
            operation.security = []


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
    _no_null_defaults(components)
    _caps(components, caps)
    _variant_rules(components)
    _wild_hand_cap(components, caps)
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
    largest_hands = ", ".join(
        f"{(DECK_SIZE - 2) // seats} for {seats} seats"
        for seats in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    )
    new_game["description"] = (
        "Name the players, or give a number of open seats, or both (the named players take "
        "the first seats). The service also checks these rules, which span fields (422 "
        "`invalid_seating`, or `invalid_rules` for the hand size):\n\n"
        f"- there are {MIN_PLAYERS} to {MAX_PLAYERS} seats: `seats` if given (never fewer "
        "than the named players), else one per named player;\n"
        "- at least one seat is for a person: open, or named without `bot`;\n"
        "- `dealer` is one of the seats;\n"
        f"- `rules.hand_size` leaves a stock after the upcard: at most {largest_hands}.\n\n"
        'For example `{"players": [{"name": "Ann"}], "seats": 3}` seats Ann '
        'and leaves two seats open; `{"players": [{"name": "Ann"}]}` alone is '
        '422 (one seat); `{"seats": 4, "rules": {"hand_size": 13}}` is 422 (13 '
        "cards each leave no stock for 4 players)."
    )
    new_game["description"] += (
        "\n\nA variant seats its own number of players (`boathouse`: 2; 422 "
        "`invalid_rules`), and each of `decks` is the whole pack of the game's rules "
        "(`packs` times the 52 cards, `jokers` times `JK`; 422 `invalid_deck`)."
    )


_TARGET_OR_DEALS = {
    "description": "`target` and `deals` are two ways to end a game: set one at most.",
    "required": ["target", "deals"],
    "properties": {"target": {"type": "integer"}, "deals": {"type": "integer"}},
}


def _variant_rules(components: dict[str, Any]) -> None:
    """`Rules` as one schema per variant (`oneOf`, told apart by `variant`), each
    made from the variant's preset (`VARIANTS`, the table of docs/rules.md) as the
    service checks it: its options only, fixed ones `const`, ranges as bounds,
    its defaults. Every option may be null (the same as left out)."""
    every = components.pop("Rules")
    branches = []
    for variant, preset in VARIANTS.items():
        name = f"{variant.value.capitalize()}Rules"
        components[name] = _variant_schema(every, variant, preset)
        branches.append({"$ref": _REF_TEMPLATE.format(name=name)})
    components["Rules"] = {
        "title": "Rules",
        "description": (
            "House rules by their docs/rules.md names, for one variant (`variant`, "
            "`classic` when left out). Anything left out (or null) takes the variant's "
            "default; a variant's fixed options may be given only their value, and the "
            "options it does not have may not be given at all. Every problem here is 422 "
            "`invalid_rules`, naming the option."
        ),
        "oneOf": branches,
    }


def _variant_schema(every: dict[str, Any], variant: Variant, preset: Preset) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for option, schema in every["properties"].items():
        if option not in preset.accepted:
            continue
        if option == "variant":
            properties[option] = (
                {"anyOf": [{"const": variant.value}, {"type": "null"}]}
                if variant is Variant.CLASSIC
                else {"const": variant.value}
            )
        elif option in preset.fixed:
            value = _plain(preset.fixed[option])
            properties[option] = {
                "anyOf": [{"const": value}, {"type": "null"}],
                "description": f"Fixed at {json.dumps(value)} in this variant.",
            }
        elif option in preset.ranges:
            low, high = preset.ranges[option]
            properties[option] = {
                "anyOf": [{"type": "integer", "minimum": low, "maximum": high}, {"type": "null"}]
            }
        else:
            properties[option] = copy.deepcopy(schema)
        default = preset.defaults.get(option)
        if default is not None and option not in preset.fixed:
            properties[option]["default"] = _plain(default)
    branch: dict[str, Any] = {
        "title": f"{variant.value.capitalize()}Rules",
        "description": _VARIANT_TEXT[variant],
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if variant is not Variant.CLASSIC:
        branch["required"] = ["variant"]
    never: list[dict[str, Any]] = []
    if "target" in properties and "deals" in properties and "deals" not in preset.fixed:
        never.append({"not": _TARGET_OR_DEALS})
    if "hand_size" not in preset.fixed and "exhausted" in properties:
        never.append({"not": _never_ending(smallest_hand_to_go_out(GoingOut.ANY))})
        if "going_out" in properties:
            smallest = smallest_hand_to_go_out(GoingOut.DISCARD)
            never.append({"not": _never_ending(smallest, GoingOut.DISCARD)})
    if variant is Variant.WILD:
        never.append(
            {
                "not": {
                    "description": "A wild game needs at least one joker or a wild rank.",
                    "required": ["jokers"],
                    "properties": {"jokers": {"const": 0}, "wild_rank": {"type": "null"}},
                }
            }
        )
    if variant is Variant.INDIAN:
        never.extend(_INDIAN_NEVER)
    if never:
        branch["allOf"] = never
    return branch


_INDIAN_NEVER: list[dict[str, Any]] = [
    {
        "not": {
            "description": "`deals` is an option of format `deals` only.",
            "required": ["deals"],
            "properties": {"deals": {"type": "integer"}},
            "not": {"required": ["format"], "properties": {"format": {"const": "deals"}}},
        }
    },
    {
        "not": {
            "description": "`jokers` is the number of packs.",
            "required": ["packs", "jokers"],
            "anyOf": [
                {"properties": {"packs": {"const": 1}, "jokers": {"const": 2}}},
                {"properties": {"packs": {"const": 2}, "jokers": {"const": 1}}},
            ],
        }
    },
]


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_VARIANT_TEXT: dict[Variant, str] = {
    Variant.CLASSIC: "The classic game (docs/rules.md): one pack of 52, no wild cards.",
    Variant.WILD: (
        "Wild cards: `jokers` `JK` in the pack and/or every card of `wild_rank` stand "
        'for any card in a meld (docs/rules.md, "Wild cards").'
    ),
    Variant.BOATHOUSE: (
        "Boathouse Rum, for two: a second draw after taking the top discard, melds only "
        "in the request that goes out."
    ),
    Variant.KNOCK: (
        "Knock Rummy (Poker Rum): no melds on the table; knock to end the hand, the "
        "lowest count of unmatched cards wins the pot."
    ),
    Variant.WROTHAM: (
        "Wrotham Rummy: 52 cards and 3 wild `JK`, six deals of 7 cards, melds only in "
        "the going-out request in deals 4-6."
    ),
    Variant.INDIAN: (
        "Indian 13-card Rummy: 13 cards from one pack and a `JK` (two seats) or two packs "
        "and two `JK` (3-6 seats, who must use two: `packs` 2), a wild rank cut each "
        "deal, no melds on the table; declare by showing your hand in groups. `jokers` "
        "is the number of packs. `format`: `points` (one deal), `deals` (chips over "
        "`deals` deals), `pool_101` or `pool_201` (elimination); the drops default to "
        "20/40 points (25/50 in `pool_201`)."
    ),
}


def _no_null_defaults(schema: Any) -> None:
    """Drop every `default: null` (msgspec's, for a field that may be left out): a
    field left out of `required` is optional already, and openapi-typescript makes a
    field with a default required in the types it generates."""
    if isinstance(schema, dict):
        if "default" in schema and schema["default"] is None:
            del schema["default"]
        for value in schema.values():
            _no_null_defaults(value)
    elif isinstance(schema, list):
        for item in schema:
            _no_null_defaults(item)


def _caps(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's caps, where the request types state the most any may allow."""
    decks = components["CreateGame"]["properties"]["decks"]["anyOf"][0]
    decks["maxItems"] = caps.decks
    rules = components["Rules"]["properties"]
    rules["max_turns"]["anyOf"][0]["maximum"] = caps.max_turns
    rules["recycles"]["anyOf"][0]["maximum"] = caps.recycles


def _wild_hand_cap(components: dict[str, Any], caps: Caps) -> None:
    """This deployment's largest hand in a game with wild cards (`Caps.wild_hand`)."""
    hand_size = components["WildRules"]["properties"]["hand_size"]["anyOf"][0]
    hand_size["maximum"] = min(hand_size["maximum"], caps.wild_hand)


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


_EVENT = "Event"
_KNOWN_EVENT = "KnownEvent"
_UNKNOWN_EVENT = "UnknownEvent"


def _events(document: OpenAPI) -> None:
    """Name the union of events `Event`, with a discriminator and room for new types,
    and point every list of events at it."""
    registry = document.components.schemas
    assert registry is not None
    views = get_args(EventView)
    tags = {view.__struct_config__.tag: view.__name__ for view in views}
    known = sorted(str(tag) for tag in tags)
    registry[_UNKNOWN_EVENT] = _Verbatim(
        verbatim={
            "title": _UNKNOWN_EVENT,
            "description": (
                "An event of a type this document does not list. A newer service may add "
                "event types (a client generated from this document still reads a page "
                "holding one): skip it, and read on. The types `KnownEvent` lists never "
                "come in this shape."
            ),
            "type": "object",
            "properties": {
                "type": {"type": "string", "not": {"enum": known}},
                "version": {"type": "integer"},
                "at": {"type": "string", "format": "date-time"},
                "seat": {"type": "integer"},
            },
            "required": ["type", "version", "at"],
        }
    )
    registry[_KNOWN_EVENT] = _Verbatim(
        verbatim={
            "title": _KNOWN_EVENT,
            "description": "An event of a type this document lists, told apart by `type`.",
            "oneOf": [{"$ref": _REF_TEMPLATE.format(name=view.__name__)} for view in views],
            "discriminator": {
                "propertyName": "type",
                "mapping": {
                    str(tag): _REF_TEMPLATE.format(name=name) for tag, name in tags.items()
                },
            },
        }
    )
    registry[_EVENT] = _Verbatim(
        verbatim={
            "title": _EVENT,
            "description": (
                "One event of a game: every event has `version` (its place in the game), "
                "`type`, `at` and, when a seat caused it, `seat`. Either one of the types "
                "this document lists (`KnownEvent`), or one a newer service added "
                "(`UnknownEvent`: skip it)."
            ),
            "oneOf": [
                {"$ref": _REF_TEMPLATE.format(name=_KNOWN_EVENT)},
                {"$ref": _REF_TEMPLATE.format(name=_UNKNOWN_EVENT)},
            ],
        }
    )
    event = Reference(ref=_REF_TEMPLATE.format(name=_EVENT))
    for name, field_name in (("EventsPage", "events"), ("FeedItem", "event")):
        schema = registry[name]
        assert isinstance(schema, Schema)
        assert schema.properties is not None
        listed = schema.properties[field_name]
        if isinstance(listed, Schema) and listed.type == OpenAPIType.ARRAY:
            listed.items = event
        else:
            schema.properties[field_name] = event


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
                if parameter.schema.one_of is not None and len(parameter.schema.one_of) == 1:
                    # One choice left that is a whole schema of its own (an enum's
                    # `$ref`, `variant` of the lobby): the parameter's schema is it.
                    parameter.schema = parameter.schema.one_of[0]
                    continue
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


# Runtime expressions (OpenAPI "Link Object"): where each value comes from. A link
# cannot carry the token (it is a security scheme, not a parameter): its
# description says whose token to send.
_GAME_ID = "$response.body#/game_id"
_VERSION = "$response.body#/version"
# A player's view lists its legal moves: the links play them.
_DRAW = {"type": "draw", "source": "stock"}
_LEGAL_MELD = {"type": "meld", "cards": "$response.body#/legal/melds/0"}
_LEGAL_DISCARD = {"type": "discard", "card": "$response.body#/legal/discard/0"}

_A_PLAYER = "as a player: send a `token` of `players` as the bearer token"
_JOINED = "as the player who joined: send the `token` returned as the bearer token"
_SAME = "with the same token (or none)"


def _links(operations: dict[str, Operation]) -> None:
    follow: dict[tuple[str, str], dict[str, Link]] = {
        ("createGame", "201"): {
            "GetGame": _link("getGame", _A_PLAYER),
            "PlayActions": _link("playActions", _A_PLAYER),
            "DrawFromStock": _link("playActions", _A_PLAYER, body=_DRAW),
            "ListEvents": _link("listEvents", _A_PLAYER),
            "Replay": _link("replayGame", _A_PLAYER, version=True),
            "JoinGame": _link("joinGame", "without a token"),
        },
        ("joinGame", "201"): {
            "GetGame": _link("getGame", _JOINED),
            "PlayActions": _link("playActions", _JOINED),
            "ListEvents": _link("listEvents", _JOINED),
            "JoinAgain": _link("joinGame", "without a token"),
        },
        ("playActions", "200"): {
            "GetGameAgain": _link("getGame", _SAME),
            "PlayAgain": _link("playActions", _SAME),
            "LayALegalMeld": _link("playActions", _SAME, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME, body=_LEGAL_DISCARD),
            "ListEvents": _link("listEvents", _SAME),
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
        },
        ("getGame", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
            "ListEvents": _link("listEvents", _SAME),
            "DrawFromStock": _link("playActions", _SAME, body=_DRAW),
            "LayALegalMeld": _link("playActions", _SAME, body=_LEGAL_MELD),
            "DiscardALegalCard": _link("playActions", _SAME, body=_LEGAL_DISCARD),
        },
        ("listEvents", "200"): {
            "ReplayThisVersion": _link("replayGame", _SAME, version=True),
        },
    }
    for (operation_id, status), links in follow.items():
        response = (operations[operation_id].responses or {})[status]
        assert isinstance(response, OpenAPIResponse)
        response.links = {**(response.links or {}), **links}


def _link(
    target: str,
    caller: str,
    *,
    version: bool = False,
    body: dict[str, Any] | None = None,
) -> Link:
    parameters = {"path.game_id": _GAME_ID}
    if version:
        parameters["query.version"] = _VERSION
    return Link(
        operation_id=target,
        parameters=parameters,
        request_body=body,
        description=f"The same game, {caller}.",
    )
