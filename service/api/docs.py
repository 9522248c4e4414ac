"""OpenAPI documentation helpers: every error status a route can answer."""

from __future__ import annotations

from http import HTTPStatus

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import (
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Reference,
    Schema,
)

from service.api.errors import PROBLEM_MEDIA_TYPE, Problem

_MEANING: dict[int, str] = {
    400: "The body is not JSON at all (`bad_request`).",
    401: "A bad or missing token (`unauthorized`).",
    403: "A token for another game, or the admin token where a player must act (`forbidden`); "
    "a `seed` or `decks` for a game with open seats, without the admin token "
    "(`explicit_deal_forbidden`).",
    404: "No such game (`not_found`), or no such version (`version_not_found`).",
    409: "The rules forbid this now (`not_your_turn`, `wrong_phase`, `card_not_in_hand`, "
    "`invalid_meld`, `invalid_lay_off`, `discard_taken_card`, `would_strand_taken_card`, "
    "`meld_limit`, `must_discard_last`, `lay_off_before_meld`, `unknown_meld`, `hand_over`, "
    "`game_over`, `game_not_started`, `game_full`, `write_conflict`); a `client_seed` that "
    "decks given at creation would leave unused (`client_seed_not_used`).",
    412: "`If-Match` named an older version (`version_conflict`).",
    413: "The body is larger than this service takes (`body_too_large`).",
    422: "A malformed body or parameter (`invalid_body`, `invalid_request`, `unknown_card`, "
    "`invalid_rules`, `invalid_deck`, `invalid_seating`, `idempotency_key_reused`, "
    "`invalid_if_match`, `too_many_decks`).",
    429: "Too many requests from this address or token (`rate_limited`): wait the "
    "`Retry-After` seconds.",
    503: "The event store does not answer, or cannot write (`not_ready`), or this server has "
    "as many live streams open as it keeps (`too_many_streams`, with `Retry-After`).",
}
_STORE_UNAVAILABLE = (
    "Service Unavailable. The event store cannot be reached, timed out or cannot write "
    "(`store_unavailable`): try again after `Retry-After` seconds. An action may or may "
    "not have been applied: resend it with the same `Idempotency-Key`, or read the game."
)


def _description(status: int) -> str:
    return f"{HTTPStatus(status).phrase}. {_MEANING[status]}"


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The problem+json responses of a route, each documented."""
    return {status: problem_spec(status, _MEANING[status]) for status in statuses}


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
    response = _problem_response(_STORE_UNAVAILABLE)
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
