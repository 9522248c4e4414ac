"""Headers a handler reads as one value must come once.

A server hands the app every line of a repeated header, and litestar reads
the first: with two `Authorization` lines a request would act as whichever
came first, while a proxy in front may have checked the other. So a request
that sends one of these headers twice with different values, to a handler
that reads it, is refused: two tokens are 401, two `If-Match` are a list
(422, as a list in one line), the others 422.

It runs in the app's `before_request` hook, on the raw ASGI headers: a guard
would do the same per handler, but litestar copies the handler for every
guarded request, which cost more than the rest of a `/health` request.
"""

from __future__ import annotations

from typing import Any

from litestar import Request

from service.api.errors import Unauthorized, problem

SINGLE_VALUE_HEADERS: dict[bytes, tuple[str, str]] = {
    b"authorization": ("Authorization", "authorization"),
    b"if-match": ("If-Match", "if_match"),
    b"idempotency-key": ("Idempotency-Key", "idempotency_key"),
    b"last-event-id": ("Last-Event-ID", "last_event_id"),
}
"""Raw name → (header, the name of the handler parameter that reads it)."""


def refuse_repeated_headers(request: Request[Any, Any, Any]) -> None:
    seen: dict[bytes, bytes] = {}
    for name, value in request.scope["headers"]:
        if name not in SINGLE_VALUE_HEADERS:
            continue
        # The same line twice (some HTTP stacks add a header twice) says one thing.
        if seen.setdefault(name, value) != value:
            header, parameter = SINGLE_VALUE_HEADERS[name]
            # Only where it is read: /health need not care how a proxy sends tokens.
            if parameter in request.route_handler.parsed_fn_signature.parameters:
                _refuse(header)


def _refuse(header: str) -> None:
    message = f"Send one {header} header, not several."
    if header == "Authorization":
        raise Unauthorized(message)
    raise problem(422, "invalid_if_match" if header == "If-Match" else "invalid_request", message)
