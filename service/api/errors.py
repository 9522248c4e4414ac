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
    anything else              500  internal_error (logged; no detail leaks)

    Answered by the server before the app (service/api/protocol.py): a request
    head over RUMMY_MAX_HEADER_BYTES is 431 headers_too_large.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

import msgspec
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


class Problem(msgspec.Struct, kw_only=True):
    """An RFC 9457 problem document."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    """Stable and machine-readable: clients switch on it."""
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
        Exception: _from_unexpected,
    }
    return ProblemDetailsConfig(exception_to_problem_detail_map=conversions)
