"""The finished OpenAPI document: what litestar generates, plus what it cannot say.

`finish_openapi(app)` edits the app's document in place, once, when the app
is built, so `/schema/openapi.json` and `rummy openapi` (which reads
`app.openapi_schema`) serve the same document. It:

- documents each request body with msgspec's own JSON Schema of the type
  the handler decodes (`strict_body` in bodies.py checks bodies against the
  same types), so nothing the decoder enforces is lost on the way (litestar
  drops a zero bound, the length of a nested list, closed objects);
- finishes the schema of a new game (new_game_schema.py): the rules that span
  fields in words, each variant's options as a `oneOf` made from `VARIANTS`,
  this deployment's caps and each variant's as its bounds;
- leaves every optional field of a request out of `required` without a
  `default: null` (openapi-typescript makes a field with a default required);
- adds the request body examples each handler names (`request_body_examples=`);
- states the exact `If-Match` and `If-None-Match` syntax, drops the null litestar
  allows in optional header and query parameters, gives the `ETag` header a
  schema, a `Location` its format, and every 304 its `ETag`;
- documents the 400 litestar answers by itself (a body that is not JSON) as
  problem+json, and drops the 400 it documents where there is no body; and
  the 415 of every route with a body (a body not sent as JSON);
- documents the 429 of every route that reads a token (an address past its
  failed admin-token attempts: throttle.py);
- documents the 503 `store_unavailable` (with `Retry-After`) of every route
  that reads or writes the event store (errors.py maps it, not the handlers),
  and the 503 of a process's cap where a route has one (`too_many_streams`,
  `too_many_exports`);
- names the union of events `Event`: a `KnownEvent` (with a `discriminator`
  on `type`) or an `UnknownEvent`, a type a newer service may add, so a
  client generated from this document reads a page holding one (and skips it)
  (event_union.py);
- says `security: []` on the public routes (litestar leaves it out);
- adds OpenAPI links, so a client (and schemathesis' stateful phase) can
  follow a new game to its view, actions, events, replay and open seats
  with the real game id (links.py);
- describes the webhooks the service sends (OpenAPI 3.1 `webhooks`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import (
    Example,
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
from service.api.convert import IF_MATCH_PATTERN
from service.api.docs.event_union import name_event_union
from service.api.docs.links import add_links
from service.api.docs.new_game_schema import new_game_schema
from service.api.docs.plain_schema import REF_TEMPLATE, Verbatim
from service.api.docs.problem_types import PROBLEM_TYPES
from service.api.docs.responses import problem_response, store_unavailable_response
from service.api.printable import json_schema_pattern
from service.api.transport.conditional import ETAG, EXPORT_ETAG, IF_NONE_MATCH_PATTERN

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def finish_openapi(app: Litestar, caps: Caps) -> OpenAPI:
    """Complete `app`'s OpenAPI document in place and return it."""
    document = app.openapi_schema
    operations = dict(_operations(document))
    handlers = dict(_handlers(app))
    _public_routes(operations, handlers)
    _request_bodies(document, operations, handlers, caps)
    name_event_union(document)
    _body_problems(operations)
    _token_problems(operations, handlers)
    _store_problems(operations)
    _headers(operations)
    add_links(operations)
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
                    description=(
                        "One item of `getFeed`'s `events`: the event as the admin sees it, "
                        "with its `chain`, the live chain head after it (keep it to hold the "
                        "service to its log: `rummy verify --heads`, docs/fairness.md)."
                    ),
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
    schemas, components = msgspec.json.schema_components(types, ref_template=REF_TEMPLATE)
    _schema_names(schemas, components)
    _json_schema_patterns(components)
    _no_null_defaults(components)
    new_game_schema(components, caps)
    registry = document.components.schemas
    if registry is None:
        registry = document.components.schemas = {}
    for name, component in components.items():
        registry[name] = Verbatim(verbatim=component)
    for old in SCHEMA_NAMES:
        registry.pop(old, None)  # litestar's, replaced by the renamed one
    for (body, handler), schema in zip(bodies.values(), schemas, strict=True):
        examples: list[Example] = handler.opt.get("request_body_examples", [])
        for media in body.content.values():
            media.schema = Verbatim(verbatim=schema)
            if examples:
                media.examples = {
                    _slug(example.summary or "example"): example for example in examples
                }


SCHEMA_NAMES = {"LayOffRule": "LayOff"}
"""Classes the document names as it always has (msgspec names a component by its
class): the rule `LayOffRule` is `LayOff` (the lay-off move is `LayOffAction`)."""


def _schema_names(schemas: Any, components: dict[str, Any]) -> None:
    """Give each class of `SCHEMA_NAMES` its name in the document: its component, its
    title and every reference to it."""
    refs = {
        REF_TEMPLATE.format(name=old): REF_TEMPLATE.format(name=new)
        for old, new in SCHEMA_NAMES.items()
    }
    for old, new in SCHEMA_NAMES.items():
        if old in components:
            component = components[new] = components.pop(old)
            if component.get("title") == old:
                component["title"] = new

    def rename(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("$ref") in refs:
                node["$ref"] = refs[node["$ref"]]
            for value in node.values():
                rename(value)
        elif isinstance(node, list):
            for item in node:
                rename(item)

    rename(schemas)
    rename(components)


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


def _body_problems(operations: dict[str, Operation]) -> None:
    """litestar answers a body that is not JSON with 400 (problem+json here) and
    documents a 400 of its own shape on every route with a parameter; only a
    route with a body can get one. A route with a body answers 415 to a body not
    sent as JSON (`strict_body`, bodies.py)."""
    for operation in operations.values():
        responses = operation.responses = operation.responses or {}
        if operation.request_body is not None:
            responses["415"] = problem_response(415)
        if "400" not in responses:
            continue
        if operation.request_body is None:
            del responses["400"]
        else:
            responses["400"] = problem_response(400)


def _token_problems(
    operations: dict[str, Operation], handlers: dict[str, HTTPRouteHandler]
) -> None:
    """A route that reads a bearer token may answer 429 to an address past its failed
    admin-token attempts (throttle.py), whether or not it has a rate limit of its own."""
    for operation_id, operation in operations.items():
        handler = handlers.get(operation_id)
        if handler is None or "authorization" not in handler.parsed_fn_signature.parameters:
            continue
        responses = operation.responses = operation.responses or {}
        responses.setdefault("429", problem_response(429))


_STORE_TAGS = frozenset({"games", "audit", "feed"})
"""The routes that read or write the event store (`/ready` documents its own 503)."""


_OWN_503 = {"streamEvents": "too_many_streams", "getAuditExport": "too_many_exports"}
"""The routes that also refuse with a 503 of their own, a cap of this process."""

_OWN_ETAG = {"getAuditExport": EXPORT_ETAG}
"""The routes whose `ETag` is not `ETAG` (a 200 given by `responses=` loses the
route's `response_headers`: litestar documents them on the 200 it makes only)."""


def _store_problems(operations: dict[str, Operation]) -> None:
    for operation_id, operation in operations.items():
        if _STORE_TAGS.intersection(operation.tags or ()):
            responses = operation.responses = operation.responses or {}
            unavailable = responses["503"] = store_unavailable_response()
            own = _OWN_503.get(operation_id)
            if own is not None:
                unavailable.description += (
                    f" Or `{own}`: {PROBLEM_TYPES[own].meaning} Wait `Retry-After`."
                )


def _headers(operations: dict[str, Operation]) -> None:
    for operation_id, operation in operations.items():
        tag = _OWN_ETAG.get(operation_id, ETAG)
        for status, response in (operation.responses or {}).items():
            if not isinstance(response, OpenAPIResponse):
                continue
            if status == "304" or (status == "200" and operation_id in _OWN_ETAG):
                response.headers = {tag.name: OpenAPIHeader(description=tag.description)}
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
