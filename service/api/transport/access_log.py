"""Structured logs: one JSON object a line, each with the request id it belongs to.

Every HTTP request gets an id (the client's `X-Request-ID` if it is a sane
one, else a new one), echoed in the response's `X-Request-ID` header and
stamped on every line logged while the request runs, in any thread; lines
logged outside a request carry `"request_id": null`. Each request ends with
one access line (method, route, path, status, duration).

What never reaches a log: headers (so no token), bodies and query strings
(so no card, no stream ticket and no player assertion), a player's id in a
path (`logged_path`), and, as a last guard, anything shaped
like a bearer token, a player token, a stream ticket or a card code is masked
in every line.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import msgspec
from litestar.enums import ScopeType
from litestar.logging.config import LoggingConfig
from litestar.types import ASGIApp, HTTPScope, Message, Receive, Scope, Send

from service.api.transport.log_writer import BatchedStreamHandler
from service.store.stream_tickets import PREFIX as TICKET_PREFIX
from service.store.stream_tickets import TICKET_PATTERN

REQUEST_ID_HEADER = "X-Request-ID"
ACCESS_LOGGER = "service.access"

_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_BEARER = re.compile(r"(?i)(bearer\s+)\S+")
# A player token: the game id's 32 hex digits, a dot, 43 URL-safe characters.
_PLAYER_TOKEN = re.compile(r"\b[0-9a-f]{32}\.[A-Za-z0-9_-]{20,}")
_TICKET = re.compile(rf"\b{TICKET_PATTERN}")
_CARD = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
_JSON = msgspec.json.Encoder()
_PARAMETER_TYPE = re.compile(r"\{(\w+):\w+\}")
_RESERVED = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "request_id",
    "color_message",  # uvicorn's copy of the message with terminal colours
}


def current_request_id() -> str | None:
    return _request_id.get()


@contextmanager
def request_id(value: str | None = None) -> Iterator[str]:
    """Run the block as the request `value` (a new id if None)."""
    chosen = value if value is not None and _SANE_ID.fullmatch(value) else uuid.uuid4().hex
    token = _request_id.set(chosen)
    try:
        yield chosen
    finally:
        _request_id.reset(token)


_secrets: tuple[str, ...] = ()


def mask_also(secret: str) -> None:
    """Mask `secret` (the admin token) wherever it shows, even where no pattern
    would find it: a client that pastes it into a path, say."""
    global _secrets  # log formatting is process-wide: so is this list
    if secret and secret not in _secrets:
        _secrets = (*_secrets, secret)


def mask_secrets(text: str) -> str:
    """`text` with tokens masked (`***`) and card codes hidden (`[card]`).

    A pattern runs only on text a cheap test cannot clear: most of what is
    logged has no `bearer`, no dot (a player token has one), no `st_` (a stream
    ticket's start) and no capital letter (a card's suit is one)."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, "***")
    if "bearer" in text.lower():
        text = _BEARER.sub(r"\1***", text)
    if "." in text:
        text = _PLAYER_TOKEN.sub("***", text)
    if TICKET_PREFIX in text:
        text = _TICKET.sub("***", text)
    if not text.islower():
        text = _CARD.sub("[card]", text)
    return text


def _masked(value: object) -> object:
    """`value` with every string in it masked; anything JSON has no form for becomes
    its (masked) `str`."""
    if isinstance(value, str):
        return mask_secrets(value)
    if value is None or isinstance(value, int | float):
        return value
    if isinstance(value, dict):
        return {mask_secrets(str(key)): _masked(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_masked(item) for item in value]
    return mask_secrets(str(value))


class RequestIdFilter(logging.Filter):
    """Stamps the request id on a record in the thread that logs it (a queue
    handler may format it later in another thread)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id and any extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
        }
        # The rest may hold what a client sent: each string is masked on its own,
        # before it is escaped into JSON.
        for name, value in self._fields(record):
            line[name] = _masked(value)
        return _JSON.encode(line).decode()

    def _fields(self, record: logging.LogRecord) -> Iterator[tuple[str, Any]]:
        yield "logger", record.name
        yield "message", record.getMessage()
        yield "request_id", getattr(record, "request_id", None) or _request_id.get()
        for name, value in vars(record).items():
            if name not in _RESERVED and not name.startswith("_"):
                yield name, value
        if record.exc_info:
            yield "exception", self.formatException(record.exc_info)
        if record.stack_info:
            yield "stack", self.formatStack(record.stack_info)


def json_logging(config: LoggingConfig) -> LoggingConfig:
    """`config` with every line as JSON (through its formatter `standard`), the request
    id on each, written in batches (service.api.transport.log_writer), and uvicorn's own loggers
    routed the same way (its access lines are dropped: the app writes its own, with the
    request id)."""
    config.formatters["standard"] = {"()": f"{__name__}.JsonFormatter"}
    # `queue_listener` is litestar's name for the handler its loggers write to.
    config.handlers["queue_listener"] = {"()": BatchedStreamHandler, "formatter": "standard"}
    config.filters = {**(config.filters or {}), "request_id": {"()": f"{__name__}.RequestIdFilter"}}
    for handler in config.handlers.values():
        handler["filters"] = [*handler.get("filters", []), "request_id"]
    root = config.root or {}
    level = root.get("level", "INFO")
    handlers = root.get("handlers", ["queue_listener"])
    for name in ("uvicorn", "uvicorn.error"):
        config.loggers[name] = {"level": level, "handlers": handlers, "propagate": False}
    config.loggers["uvicorn.access"] = {"level": "WARNING", "handlers": [], "propagate": False}
    return config


class RequestLog:
    """ASGI middleware: a request id for every HTTP request, and its access line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.log = logging.getLogger(ACCESS_LOGGER)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        http = scope
        given = _header(http, b"x-request-id")
        started = time.perf_counter()
        status = 500
        with request_id(given) as chosen:

            async def send_with_id(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = message["status"]
                    headers = list(message.get("headers", []))
                    headers.append((REQUEST_ID_HEADER.lower().encode(), chosen.encode()))
                    message["headers"] = headers
                await send(message)

            try:
                await self.app(scope, receive, send_with_id)
            finally:
                path = logged_path(http["path"])
                self.log.info(
                    "%s %s %s",
                    http["method"],
                    path,
                    status,
                    extra={
                        "method": http["method"],
                        "route": route_of(http),
                        "path": path,
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                    },
                )


_PLAYER_IN_PATH = re.compile(r"(/players/)[^/]+")


def logged_path(path: str) -> str:
    """`path` as logged: a player's id in it (`/platforms/{id}/players/{player}`) masked,
    as player references never reach a log in clear (docs/privacy.md)."""
    return _PLAYER_IN_PATH.sub(r"\1***", path) if "/players/" in path else path


def route_of(scope: HTTPScope) -> str:
    """The route's path template (`/games/{game_id}`), or `unmatched`."""
    template = scope.get("path_template")
    if not template:
        return "unmatched"
    return _untyped(str(template))


@lru_cache(maxsize=256)
def _untyped(template: str) -> str:
    """`/games/{game_id:uuid}` without its parameters' types; the app has few routes."""
    return _PARAMETER_TYPE.sub(r"{\1}", template)


def _header(scope: HTTPScope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
