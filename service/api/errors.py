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
    └── ExplicitDealForbidden  403  explicit_deal_forbidden: a well-formed `seed` or
                                    `decks` this caller may not choose (open seats and
                                    no admin token): the same body passes with the
                                    admin token, so it is a permission, not a 422
    AuthError (here)
    ├── Unauthorized           401  unauthorized
    └── Forbidden              403  forbidden
    LimitExceeded (here)       429  rate_limited (with Retry-After)
                               503  too_many_streams (with Retry-After)
                               408  body_timeout (and the connection is closed)
    HTTPException (litestar)        invalid_body (422) for a malformed body or
                                    parameter, unknown_card when it is a card
                                    code; not_found, method_not_allowed, …
    STORE_FAILURES             503  store_unavailable, with Retry-After: the event
                                    store cannot be reached, timed out, or cannot
                                    write (the drivers' OperationalError and
                                    InterfaceError, as the library wraps them,
                                    and PostgreSQL's read-only transaction error)
    anything else              500  internal_error (logged; no detail leaks)

    Answered by the server before the app (service/api/protocol.py): a request
    head over RUMMY_MAX_HEADER_BYTES is 431 headers_too_large.

`ERROR_CODES` is the one table of every code a client can meet, with its
status and meaning: the OpenAPI document's `Problem.code` enum and the
description of each error response are made from it (docs.py), and
tests/api/test_error_codes.py holds it to every code the service raises.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
from typing import Any

import msgspec
import psycopg
from eventsourcing import persistence
from litestar.exceptions import HTTPException, ValidationException
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsException

from service.domain.errors import IllegalMove, InvalidInput, RummyError
from service.game.errors import (
    ExplicitDealForbidden,
    GameNotFound,
    GameServiceError,
    IdempotencyKeyReused,
    VersionConflict,
    VersionNotFound,
    WriteConflict,
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


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """What a problem `code` means, and the status it comes with."""

    status: HTTPStatus
    meaning: str


_ILLEGAL = HTTPStatus.CONFLICT
_INVALID = HTTPStatus.UNPROCESSABLE_ENTITY

ERROR_CODES: Mapping[str, ErrorCode] = {
    # 400-class answers of HTTP itself
    "bad_request": ErrorCode(HTTPStatus.BAD_REQUEST, "The body is not JSON at all."),
    "unauthorized": ErrorCode(HTTPStatus.UNAUTHORIZED, "A bad or missing token."),
    "forbidden": ErrorCode(
        HTTPStatus.FORBIDDEN,
        "A token for another game, or the admin token where a player must act.",
    ),
    "explicit_deal_forbidden": ErrorCode(
        HTTPStatus.FORBIDDEN,
        "A `seed` or `decks` for a game with open seats, without the admin token.",
    ),
    "not_found": ErrorCode(HTTPStatus.NOT_FOUND, "No such game (or no such route)."),
    "version_not_found": ErrorCode(HTTPStatus.NOT_FOUND, "The game has no such version."),
    "method_not_allowed": ErrorCode(
        HTTPStatus.METHOD_NOT_ALLOWED, "The route does not take this method."
    ),
    "not_acceptable": ErrorCode(
        HTTPStatus.NOT_ACCEPTABLE, "The service cannot answer in a media type `Accept` allows."
    ),
    "body_timeout": ErrorCode(
        HTTPStatus.REQUEST_TIMEOUT,
        "The request body did not arrive in time; the connection is closed.",
    ),
    "version_conflict": ErrorCode(
        HTTPStatus.PRECONDITION_FAILED, "`If-Match` named a version the game has left."
    ),
    "body_too_large": ErrorCode(
        HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "The body is larger than this service takes."
    ),
    "unsupported_media_type": ErrorCode(
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "The body is not in a media type the route takes."
    ),
    "headers_too_large": ErrorCode(
        HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
        "The request line and headers are larger than this service takes.",
    ),
    # 422: input that can never be valid
    "invalid_body": ErrorCode(_INVALID, "A malformed body: `errors` names each bad field."),
    "invalid_request": ErrorCode(
        _INVALID, "A malformed parameter or header: `errors` names each bad one."
    ),
    "unknown_card": ErrorCode(_INVALID, "A card code that is not one of the 52."),
    "invalid_rules": ErrorCode(
        _INVALID, "Rules that contradict each other, exceed this service's caps, or never end."
    ),
    "invalid_deck": ErrorCode(_INVALID, "A deck order that is not each of the 52 cards once."),
    "invalid_seating": ErrorCode(
        _INVALID,
        "Players, `seats` and `dealer` that do not make 2 to 6 seats with a person in one.",
    ),
    "invalid_if_match": ErrorCode(_INVALID, 'An `If-Match` that is not a quoted version ("12").'),
    "idempotency_key_reused": ErrorCode(
        _INVALID, "An `Idempotency-Key` this seat already used for a different request."
    ),
    "too_many_decks": ErrorCode(_INVALID, "More deck orders than this service keeps for a game."),
    # 409: well-formed, but the rules forbid it now
    "game_not_started": ErrorCode(_ILLEGAL, "The game still has open seats."),
    "game_full": ErrorCode(_ILLEGAL, "The game has no open seat left."),
    "client_seed_not_used": ErrorCode(
        _ILLEGAL, "A `client_seed` for a game dealt from decks chosen at creation."
    ),
    "game_over": ErrorCode(_ILLEGAL, "The game is finished."),
    "hand_over": ErrorCode(_ILLEGAL, "The hand is over."),
    "not_your_turn": ErrorCode(_ILLEGAL, "Another seat is to move."),
    "wrong_phase": ErrorCode(_ILLEGAL, "Draw first, or you have drawn already."),
    "card_not_in_hand": ErrorCode(_ILLEGAL, "A card you do not hold."),
    "invalid_meld": ErrorCode(_ILLEGAL, "The cards make no set or run."),
    "unknown_meld": ErrorCode(_ILLEGAL, "No meld on the table has this id."),
    "invalid_lay_off": ErrorCode(_ILLEGAL, "The card does not fit that meld."),
    "lay_off_before_meld": ErrorCode(
        _ILLEGAL, "The rules want a meld of your own before you lay off."
    ),
    "meld_limit": ErrorCode(_ILLEGAL, "The rules allow no more melds this turn."),
    "must_discard_last": ErrorCode(_ILLEGAL, "The rules want a discard to go out."),
    "discard_taken_card": ErrorCode(
        _ILLEGAL, "The card just taken from the discard pile cannot be thrown back."
    ),
    "would_strand_taken_card": ErrorCode(
        _ILLEGAL, "This would leave the card taken from the discard pile unplayable."
    ),
    "write_conflict": ErrorCode(
        _ILLEGAL, "Other writes to this game won every retry: read the game and try again."
    ),
    # Limits and the service's health
    "rate_limited": ErrorCode(
        HTTPStatus.TOO_MANY_REQUESTS,
        "Too many requests from this address or token: wait the `Retry-After` seconds.",
    ),
    "too_many_requests": ErrorCode(HTTPStatus.TOO_MANY_REQUESTS, "Too many requests."),
    "internal_error": ErrorCode(
        HTTPStatus.INTERNAL_SERVER_ERROR,
        "Something went wrong on the service's side; nothing was applied in part.",
    ),
    "store_unavailable": ErrorCode(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "The event store cannot be reached, timed out or cannot write: try again after "
        "`Retry-After` seconds.",
    ),
    "not_ready": ErrorCode(
        HTTPStatus.SERVICE_UNAVAILABLE, "The event store does not answer, or cannot write."
    ),
    "too_many_streams": ErrorCode(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "This server has as many live streams open as it keeps: retry after `Retry-After`.",
    ),
}
"""Every `code` a problem may carry: clients switch on it. A code is never
renamed or given another meaning; new ones may be added."""

ProblemCode = StrEnum(  # type: ignore[misc]
    "ProblemCode", {code: code for code in ERROR_CODES}, module=__name__
)
"""`ERROR_CODES` as an enum, for the OpenAPI document."""


class Problem(msgspec.Struct, kw_only=True):
    """An RFC 9457 problem document."""

    type: str
    title: str
    status: int
    detail: str
    code: ProblemCode
    """Stable and machine-readable: clients switch on it (`ERROR_CODES`)."""
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
    431: "headers_too_large",
    429: "too_many_requests",
}


def problem(status: int, code: str, detail: str, **extra: Any) -> ProblemDetailsException:
    title = HTTPStatus(status).phrase
    return ProblemDetailsException(
        status_code=status,
        title=title,
        detail=detail,
        type_=f"/problems/{code}",
        extra={"code": code, **extra},
    )


def _from_rummy(error: RummyError) -> ProblemDetailsException:
    if isinstance(error, IllegalMove):
        return problem(HTTPStatus.CONFLICT, error.code, error.message)
    assert isinstance(error, InvalidInput)
    return problem(HTTPStatus.UNPROCESSABLE_ENTITY, error.code, error.message)


def _from_service(error: GameServiceError) -> ProblemDetailsException:
    status = _SERVICE_STATUS.get(type(error), HTTPStatus.CONFLICT)
    return problem(status, error.code, error.message)


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
    details = "; ".join(f"{item.get('key', 'body')}: {item.get('message', '')}" for item in errors)
    return problem(
        HTTPStatus.UNPROCESSABLE_ENTITY,
        code,
        details or str(error.detail),
        errors=errors,
    )


def _is_bad_card(item: Mapping[str, Any]) -> bool:
    key = str(item.get("key", ""))
    # Card codes are the `card`/`cards` of actions and the entries of `decks`.
    return "Invalid enum value" in str(item.get("message", "")) and (
        "card" in key or key.startswith("decks[")
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
        LimitExceeded: _from_limit,
        HTTPException: _from_http,
        **dict.fromkeys(STORE_FAILURES, _from_store),
        persistence.InternalError: _from_internal,
        Exception: _from_unexpected,
    }
    return ProblemDetailsConfig(exception_to_problem_detail_map=conversions)
