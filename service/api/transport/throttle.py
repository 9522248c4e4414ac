"""Rate limits: games created and seats joined per client address, actions per token.

A route takes part by naming its limit (`throttle="create"` in its decorator);
the app's `before_request` hook asks `Throttle.check` before the body is read,
so a refused request costs one count and no work. Requests with the admin
token are never limited (platforms and tournaments create games for others).

Counting is the `limits` package's sliding-window counter (RUMMY_*_RATE in its
notation, `20/second;600/minute`): in Redis when `RUMMY_REDIS_URL` is set, where
every count is one atomic script and so every replica shares it, else in this
process. If Redis does not answer, each process counts alone for a while (and
says so in the log) rather than refuse or wait: the limits protect the
service, they are not worth an outage.

The client address is the ASGI `client`: uvicorn has already replaced it with
the forwarded one where `FORWARDED_ALLOW_IPS` trusts the proxy that sent it.

Failed admin-token attempts are counted per client address on every route that
reads a token (`RUMMY_ADMIN_FAILURE_RATE`): a bearer token that is neither a
player's (`<game id>.<secret>`, judged by its game) nor the admin's nor the
metrics token is a wrong guess at one of them. Beyond the rate, every such
request from that address is refused, the right token too (else a guess that
hit would still tell by its answer), with a warning in the log for each.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Mapping
from typing import Any, Literal

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError
from litestar import Request

from service.api.auth import bearer_token, is_admin, is_metrics_token
from service.api.errors import LimitExceeded, Unauthorized
from service.config import Settings
from service.game.tokens import token_game

log = logging.getLogger(__name__)

Kind = Literal["create", "join", "action"]

REDIS_TIMEOUT = 0.5
"""Seconds a count may wait on Redis before this process counts alone."""
FALLBACK_SECONDS = 10.0
"""How long a process counts alone after Redis failed to answer."""
KEY_PREFIX = "rummy-rate"
ADMIN_FAILURES = "admin-failures"
"""The count of failed admin-token attempts, beside the routes' kinds."""

_WHAT: Mapping[Kind, str] = {
    "create": "games created from this address",
    "join": "seats joined from this address",
    "action": "action requests with this token",
}


class Throttle:
    """The rate limits of one app, counted in Redis or in this process."""

    def __init__(self, settings: Settings) -> None:
        self.admin_token = settings.admin_token
        self.metrics_token = settings.metrics_token
        self.rates: dict[Kind, list[RateLimitItem]] = {
            "create": _items(settings.create_rate),
            "join": _items(settings.join_rate),
            "action": _items(settings.action_rate),
        }
        self.admin_failures = _items(settings.admin_failure_rate)
        self._local = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._shared: SlidingWindowCounterRateLimiter | None = None
        if settings.redis_url is not None and (any(self.rates.values()) or self.admin_failures):
            self._shared = SlidingWindowCounterRateLimiter(_redis(settings.redis_url))
        self._alone_until = 0.0

    async def check(self, request: Request[Any, Any, Any]) -> None:
        """Count `request` against its route's limit, and a failed admin-token attempt
        against its address's; `LimitExceeded` (429) beyond either."""
        kind: Kind | None = request.route_handler.opt.get("throttle")
        token = _token(request)
        if token is not None and self.admin_failures and _reads_token(request, self.metrics_token):
            await self._admin_attempt(token, request)
        if kind is None or not self.rates[kind]:
            return
        if token is not None and is_admin(token, self.admin_token):
            return
        who = _identity(kind, token, request)
        for item in self.rates[kind]:
            limiter = await self._hit(item, kind, who)
            if limiter is not None:
                wait = await _wait(limiter, item, kind, who)
                raise LimitExceeded(
                    429,
                    "rate_limited",
                    f"Too many {_WHAT[kind]}: at most {item}. Try again in {wait} s.",
                    {"Retry-After": str(wait)},
                )

    async def _admin_attempt(self, token: str, request: Request[Any, Any, Any]) -> None:
        """Refuse an admin-token attempt from an address past its failures (429), and
        count it if it fails; a player's token (judged by its game) is none."""
        if token_game(token) is not None:
            return
        who = _address(request)
        for item in self.admin_failures:
            limiter = await self._ask(item, ADMIN_FAILURES, who, count=False)
            if limiter is not None:
                wait = await _wait(limiter, item, ADMIN_FAILURES, who)
                log.warning(
                    "admin token refused: more than %s failed admin-token attempts from %s "
                    "(%s %s); refused for %d s",
                    item,
                    who.removeprefix("address:"),
                    request.method,
                    request.url.path,
                    wait,
                )
                raise LimitExceeded(
                    429,
                    "rate_limited",
                    f"Too many failed admin-token attempts from this address: at most {item}. "
                    f"Try again in {wait} s.",
                    {"Retry-After": str(wait)},
                )
        if is_admin(token, self.admin_token) or is_metrics_token(token, self.metrics_token):
            return
        for item in self.admin_failures:
            await self._ask(item, ADMIN_FAILURES, who, count=True)

    async def _hit(
        self, item: RateLimitItem, kind: Kind, who: str
    ) -> SlidingWindowCounterRateLimiter | None:
        """Count one request; the limiter that refused it, or None if it may go on."""
        return await self._ask(item, kind, who, count=True)

    async def _ask(
        self, item: RateLimitItem, key: str, who: str, *, count: bool
    ) -> SlidingWindowCounterRateLimiter | None:
        """Count one request (`count`), or only ask whether one more would be allowed;
        the limiter that refused it, or None if it may go on."""
        limiter = self._limiter()
        try:
            allowed = await (limiter.hit if count else limiter.test)(item, key, who)
        except StorageError as error:
            self._alone_until = time.monotonic() + FALLBACK_SECONDS
            log.warning(
                "Redis did not answer (%s); each process counts rate limits alone for %g s",
                type(error.storage_error).__name__,
                FALLBACK_SECONDS,
            )
            limiter = self._local
            allowed = await (limiter.hit if count else limiter.test)(item, key, who)
        return None if allowed else limiter

    def _limiter(self) -> SlidingWindowCounterRateLimiter:
        if self._shared is None or time.monotonic() < self._alone_until:
            return self._local
        return self._shared


async def _wait(
    limiter: SlidingWindowCounterRateLimiter, item: RateLimitItem, key: str, who: str
) -> int:
    """Whole seconds until `limiter` lets `who` through `item` again (`Retry-After`)."""
    stats = await limiter.get_window_stats(item, key, who)
    return max(1, math.ceil(stats.reset_time - time.time()))


def _reads_token(request: Request[Any, Any, Any], metrics_token: str | None) -> bool:
    """Whether `request`'s route reads a bearer token (others ignore any sent, as
    `/metrics` does while it is public)."""
    handler = request.route_handler
    if handler.opt.get("token") == "metrics" and metrics_token is None:
        return False
    return "authorization" in handler.parsed_fn_signature.parameters


def _items(rate: str | None) -> list[RateLimitItem]:
    return [] if rate is None else parse_many(rate)


def _redis(url: str) -> Storage:
    return RedisStorage(
        f"async+{url}",
        wrap_exceptions=True,
        implementation="redispy",
        key_prefix=KEY_PREFIX,
        socket_timeout=REDIS_TIMEOUT,
        socket_connect_timeout=REDIS_TIMEOUT,
    )


def _token(request: Request[Any, Any, Any]) -> str | None:
    try:
        return bearer_token(request.headers.get("authorization"))
    except Unauthorized:
        return None  # the handler refuses it, if it reads it at all


def _identity(kind: Kind, token: str | None, request: Request[Any, Any, Any]) -> str:
    """Who a request counts for: its token for actions (a seat; only a digest of it
    leaves the process), its client address otherwise or without a token."""
    if kind == "action" and token is not None:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return _address(request)


def _address(request: Request[Any, Any, Any]) -> str:
    client = request.client
    return "address:" + (client.host if client is not None else "unknown")
