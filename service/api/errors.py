"""Every error as `application/problem+json` (RFC 9457) with a stable `code`.

The one place errors become HTTP:

    RummyError (service.domain.errors)
    ├── InvalidInput           422  unknown_card, invalid_rules, invalid_deck, invalid_seating
    └── IllegalMove            409  not_your_turn, wrong_phase, card_not_in_hand, …,
                                    client_seed_not_used (a client seed for a game
                                    dealt from chosen decks: 409 at creation too, as
                                    the body is well-formed, its decks rule it out)
    GameServiceError (service.game.errors)
    ├── GameNotFound           404  not_found
    ├── VersionNotFound        404  version_not_found
    ├── VersionConflict        412  version_conflict
    ├── WriteConflict          409  write_conflict
    ├── IdempotencyKeyReused   422  idempotency_key_reused
    ├── ExplicitDealForbidden  403  explicit_deal_forbidden: a well-formed `seed` or
    │                               `decks` this caller may not choose (open seats and
    │                               no admin token): the same body passes with the
    │                               admin token, so it is a permission, not a 422
    ├── PlayerAlreadySeated    409  player_already_seated
    └── RatedNeedsPlayers      422  rated_needs_players
    PlayerError (service.players.errors)
    ├── AssertionRefused       401  assertion_invalid, assertion_expired,
    │                               assertion_unknown_key, assertion_wrong_audience
    ├── PlatformNotFound       404  not_found
    ├── InvalidKey             422  invalid_key
    └── KeyExists              409  key_exists
    MatchmakingError (service.matchmaking.errors)
    ├── TicketNotFound         404  not_found
    ├── TicketForbidden        403  forbidden (another ticket's token)
    └── PlayerAlreadyQueued    409  player_already_queued
    WebhookError (service.webhooks.errors)
    ├── WebhookNotFound        404  not_found
    ├── InvalidWebhookUrl      422  invalid_webhook_url
    └── NothingToRedeliver     409  nothing_to_redeliver
    AuthError (here)
    ├── Unauthorized           401  unauthorized
    │   └── TicketRefused      401  stream_ticket_invalid: a stream ticket unknown,
    │                               used already or expired (get a new one)
    └── Forbidden              403  forbidden
    LimitExceeded (here)       429  rate_limited (with Retry-After)
                               503  too_many_streams (with Retry-After)
                               503  too_many_exports (with Retry-After)
                               408  body_timeout (and the connection is closed)
    HTTPException (litestar)        invalid_body (422) for a malformed body or
                                    parameter, unknown_card when it is a card
                                    code, invalid_rules inside a new game's
                                    `rules`, invalid_deck inside one of its
                                    `decks`; not_found, method_not_allowed, …
    STORE_FAILURES             503  store_unavailable, with Retry-After: the event
                                    store cannot be reached, timed out, or cannot
                                    write (the drivers' OperationalError and
                                    InterfaceError, as the library wraps them,
                                    and PostgreSQL's read-only transaction error)
    anything else              500  internal_error (logged; no detail leaks)

    Answered by the server before the app (service/api/transport/protocol.py): a request
    head over RUMMY_MAX_HEADER_BYTES is 431 headers_too_large.

`PROBLEM_TYPES` (service/api/docs/problem_types.py) is the one table of every code
a client can meet, with its status, title, meaning and what to do: a
problem's `type` is `/problems/<code>`, the page served there, its `title`
that table's title of the code; the OpenAPI document's `Problem.code` enum
and the description of each error response are made from it (docs.py), and
tests/api/docs/test_problem_pages.py holds it to every code the service raises.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Mapping
from enum import StrEnum
from http import HTTPStatus
from typing import Any

import msgspec
import psycopg
from eventsourcing import persistence
from litestar.exceptions import HTTPException, ValidationException
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsException

from service.api.docs.problem_types import PROBLEM_TYPES, type_uri
from service.domain.cards import NOT_A_CARD_CODE
from service.domain.errors import IllegalMove, InvalidInput, RummyError
from service.game.errors import (
    ExplicitDealForbidden,
    GameNotFound,
    GameServiceError,
    IdempotencyKeyReused,
    RatedNeedsPlayers,
    VersionConflict,
    VersionNotFound,
    WriteConflict,
)
from service.matchmaking.errors import (
    MatchmakingError,
    PlayerAlreadyQueued,
    TicketForbidden,
    TicketNotFound,
)
from service.players.errors import (
    AssertionRefused,
    InvalidKey,
    KeyExists,
    PlatformNotFound,
    PlayerError,
)
from service.webhooks.errors import (
    InvalidWebhookUrl,
    NothingToRedeliver,
    WebhookError,
    WebhookNotFound,
)

log = logging.getLogger("service.api")

PROBLEM_MEDIA_TYPE = "application/problem+json"

STORE_FAILURES: tuple[type[Exception], ...] = (
    persistence.OperationalError,
    persistence.InterfaceError,
    # The drivers' own, where one reaches us unwrapped.
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
)
"""The event store is unreachable, too slow (a pool, connect, statement or lock
timeout), or cannot write (a full disk, a read-only file), as opposed to a
request it refuses: PostgreSQL's PoolTimeout, QueryCanceled, LockNotAvailable,
DiskFull and lost connections, SQLite's "database is locked", "database or disk
is full", "attempt to write a readonly database" are all OperationalErrors."""
READ_ONLY = psycopg.errors.ReadOnlySqlTransaction
"""A server that only reads (a standby after a failover): an InternalError to the
driver, wrapped as the library's InternalError, but the store cannot write."""
RETRY_AFTER_SECONDS = 2
"""What a 503 tells a client to wait before it tries again."""


ProblemCode = StrEnum(  # type: ignore[misc]
    "ProblemCode", {code: code for code in PROBLEM_TYPES}, module=__name__
)
"""`PROBLEM_TYPES`' codes as an enum, for the OpenAPI document. A code is never
renamed or given another meaning; new ones may be added."""


class Problem(msgspec.Struct, kw_only=True):
    """An RFC 9457 problem document."""

    type: str
    title: str
    status: int
    detail: str
    code: ProblemCode
    """Stable and machine-readable: clients switch on it (`PROBLEM_TYPES`)."""
    errors: list[dict[str, Any]] | None = None
    """For a malformed request: each bad field and what is wrong with it."""


class AuthError(Exception):
    code = "unauthorized"
    status = HTTPStatus.UNAUTHORIZED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Unauthorized(AuthError):
    pass


class TicketRefused(Unauthorized):
    """A stream ticket that opens nothing: unknown, used already, or expired."""

    code = "stream_ticket_invalid"


class Forbidden(AuthError):
    code = "forbidden"
    status = HTTPStatus.FORBIDDEN


class LimitExceeded(Exception):
    """A limit of this deployment (deploy/README.md): the same request may succeed
    later, and `headers` say when (`Retry-After`) or that the connection ends."""

    def __init__(self, status: int, code: str, message: str, headers: Mapping[str, str]) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers)


_SERVICE_STATUS: Mapping[type[GameServiceError], HTTPStatus] = {
    GameNotFound: HTTPStatus.NOT_FOUND,
    VersionNotFound: HTTPStatus.NOT_FOUND,
    VersionConflict: HTTPStatus.PRECONDITION_FAILED,
    WriteConflict: HTTPStatus.CONFLICT,
    IdempotencyKeyReused: HTTPStatus.UNPROCESSABLE_ENTITY,
    ExplicitDealForbidden: HTTPStatus.FORBIDDEN,
    RatedNeedsPlayers: HTTPStatus.UNPROCESSABLE_ENTITY,
}

_HTTP_CODES: Mapping[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    431: "headers_too_large",
}


def problem(status: int, code: str, detail: str, **extra: Any) -> ProblemDetailsException:
    return ProblemDetailsException(
        status_code=status,
        title=problem_title(status, code),
        detail=detail,
        type_=type_uri(code),
        extra={"code": code, **extra},
    )


def problem_title(status: int, code: str) -> str:
    """The title of `code`'s problem type (the status's phrase for a code the table
    lacks, which tests/api/docs/test_problem_pages.py does not let happen)."""
    known = PROBLEM_TYPES.get(code)
    return HTTPStatus(status).phrase if known is None else known.title


def _from_rummy(error: RummyError) -> ProblemDetailsException:
    if isinstance(error, IllegalMove):
        return problem(HTTPStatus.CONFLICT, error.code, error.message)
    assert isinstance(error, InvalidInput)
    return problem(HTTPStatus.UNPROCESSABLE_ENTITY, error.code, error.message)


def _from_service(error: GameServiceError) -> ProblemDetailsException:
    status = _SERVICE_STATUS.get(type(error), HTTPStatus.CONFLICT)
    return problem(status, error.code, error.message)


_WEBHOOK_STATUS: Mapping[type[WebhookError], HTTPStatus] = {
    WebhookNotFound: HTTPStatus.NOT_FOUND,
    InvalidWebhookUrl: HTTPStatus.UNPROCESSABLE_ENTITY,
    NothingToRedeliver: HTTPStatus.CONFLICT,
}


def _from_webhook(error: WebhookError) -> ProblemDetailsException:
    return problem(_WEBHOOK_STATUS[type(error)], error.code, error.message)


_PLAYER_STATUS: Mapping[type[PlayerError], HTTPStatus] = {
    AssertionRefused: HTTPStatus.UNAUTHORIZED,
    PlatformNotFound: HTTPStatus.NOT_FOUND,
    InvalidKey: HTTPStatus.UNPROCESSABLE_ENTITY,
    KeyExists: HTTPStatus.CONFLICT,
}


def _from_player(error: PlayerError) -> ProblemDetailsException:
    # The refusals of an assertion are one family (each its own code), all 401.
    status = next(s for kind, s in _PLAYER_STATUS.items() if isinstance(error, kind))
    return problem(status, error.code, error.message)


_MATCHMAKING_STATUS: Mapping[type[MatchmakingError], HTTPStatus] = {
    TicketNotFound: HTTPStatus.NOT_FOUND,
    TicketForbidden: HTTPStatus.FORBIDDEN,
    PlayerAlreadyQueued: HTTPStatus.CONFLICT,
}


def _from_matchmaking(error: MatchmakingError) -> ProblemDetailsException:
    return problem(_MATCHMAKING_STATUS[type(error)], error.code, error.message)


def _from_auth(error: AuthError) -> ProblemDetailsException:
    converted = problem(error.status, error.code, error.message)
    if error.status == HTTPStatus.UNAUTHORIZED:
        converted.headers = {"WWW-Authenticate": 'Bearer realm="rummy"'}
    return converted


def _from_limit(error: LimitExceeded) -> ProblemDetailsException:
    converted = problem(error.status, error.code, error.message)
    converted.headers = error.headers
    return converted


def _from_http(error: HTTPException) -> ProblemDetailsException:
    if isinstance(error, ValidationException):
        return _from_validation(error)
    if isinstance(error, ProblemDetailsException):
        return error
    status = error.status_code
    code = _HTTP_CODES.get(status, "internal_error" if status >= 500 else "bad_request")
    converted = problem(status, code, str(error.detail))
    converted.headers = error.headers
    return converted


def _from_validation(error: ValidationException) -> ProblemDetailsException:
    errors = [dict(item) for item in error.extra] if isinstance(error.extra, list) else []
    code = (
        "invalid_body"
        if any(item.get("source") == "body" for item in errors)
        else "invalid_request"
    )
    if any(_is_bad_card(item) for item in errors):
        code = "unknown_card"
    elif any(_is_in(item, "rules", "rules.") for item in errors):
        # Every problem inside `rules` has one code, whether the schema or the
        # service catches it (docs/api.md, "Variants"); the key names the option.
        code = "invalid_rules"
    elif any(_is_in(item, "decks[") for item in errors):
        code = "invalid_deck"
    details = "; ".join(f"{item.get('key', 'body')}: {item.get('message', '')}" for item in errors)
    return problem(
        HTTPStatus.UNPROCESSABLE_ENTITY,
        code,
        details or str(error.detail),
        errors=errors,
    )


def _is_in(item: Mapping[str, Any], *places: str) -> bool:
    """A body problem at one of `places` (a key, or a key's start: `decks[` is any
    one deck order) of a new game (a key written twice is a problem of the JSON
    text, not of the value: it stays `invalid_body`)."""
    key = str(item.get("key", ""))
    inside = any(key == place or (place[-1] in ".[" and key.startswith(place)) for place in places)
    return (
        item.get("source") == "body"
        and inside
        and "more than once" not in str(item.get("message", ""))
    )


def _is_bad_card(item: Mapping[str, Any]) -> bool:
    key, message = str(item.get("key", "")), str(item.get("message", ""))
    # bodies.py words a card code the schema refuses as `card_code_problem` does;
    # else card codes are the `card`/`cards` of actions and the entries of `decks`.
    return NOT_A_CARD_CODE in message or (
        "Invalid enum value" in message and ("card" in key or key.startswith("decks["))
    )


def _from_store(error: Exception) -> ProblemDetailsException:
    # One line, no traceback: during an outage every request says the same.
    log.warning("event store unavailable: %s: %s", type(error).__name__, str(error).strip())
    converted = problem(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "store_unavailable",
        "The game store cannot be reached or cannot write just now: try again in a few "
        "seconds. An action may or may not have been applied: resend it with the same "
        "Idempotency-Key, or read the game first.",
    )
    converted.headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return converted


def _from_internal(error: persistence.InternalError) -> ProblemDetailsException:
    if isinstance(error.__cause__, READ_ONLY):
        return _from_store(error)
    return _from_unexpected(error)


def _from_unexpected(error: Exception) -> ProblemDetailsException:
    log.exception("unhandled error", exc_info=error)
    return problem(
        HTTPStatus.INTERNAL_SERVER_ERROR,
        "internal_error",
        "Something went wrong on our side; nothing you sent was applied in part.",
    )


def problem_details_config() -> ProblemDetailsConfig:
    conversions: dict[type[Exception], Callable[[Any], ProblemDetailsException]] = {
        RummyError: _from_rummy,
        GameServiceError: _from_service,
        AuthError: _from_auth,
        WebhookError: _from_webhook,
        PlayerError: _from_player,
        MatchmakingError: _from_matchmaking,
        LimitExceeded: _from_limit,
        HTTPException: _from_http,
        **dict.fromkeys(STORE_FAILURES, _from_store),
        persistence.InternalError: _from_internal,
        Exception: _from_unexpected,
    }
    return ProblemDetailsConfig(exception_to_problem_detail_map=conversions)
