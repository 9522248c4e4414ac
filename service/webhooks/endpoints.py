"""Webhook endpoints and their delivery logs, kept beside the events.

An endpoint is one row of `rummy_webhooks`: its URL, its signing secret, the
event types it wants (NULL: every type), its `position` in the global feed
(every event at or below it has been answered 2xx, or was not wanted), its run of
`failures` with the `last_error`, when it may be tried next (`next_attempt_at`),
`disabled_at`, and its **lease**: which sender holds it (`lease_owner`) and until
when (`lease_until`). Each attempt is a row of `rummy_webhook_deliveries`
(the newest `LOG_KEEP` per endpoint are kept).

This module holds what an endpoint and an attempt are and what every keeper
of them does (`Endpoints`); `memory_endpoints.py` keeps them in one process,
`endpoint_tables.py` in the store's database (and picks the keeper, `endpoints_for`).

Why a lease: every replica (and every worker process on SQLite) runs a sender,
and an endpoint must be delivered by one of them at a time, in feed order. A
sender *claims* a due endpoint in one statement (on PostgreSQL `FOR UPDATE SKIP
LOCKED`, so two claimers never wait on or take the same row; SQLite's writes
are serial anyway), which writes its owner and an expiry; every later write
of that sender (`advance`, `failed`, `release`) names the owner and changes
nothing once the lease is gone. A sender killed mid-delivery leaves its lease
to expire: then another claims the endpoint and starts after the stored
position, so the one event in flight is sent again (at least once; the same
`webhook-id`). An admin change (`change`, `redeliver`) clears the lease, so the
holder stops at its next write and the next claim reads the change.

Times are Unix seconds from the clock of the process that writes them (the
replicas' clocks must agree to well within a lease).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

LOG_KEEP = 100
"""Attempts kept per endpoint (the newest)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One registered endpoint as stored."""

    id: str
    url: str
    secret: str
    """`whsec_` and the base64 key: stored as it is, since signing needs the key."""
    events: tuple[str, ...] | None
    """The event types it wants; None: every type."""
    description: str
    max_failures: int | None
    """Failures in a row that disable it; None: the service's setting."""
    created_at: float
    position: int
    failures: int = 0
    last_error: str | None = None
    last_attempt_at: float | None = None
    last_success_at: float | None = None
    disabled_at: float | None = None
    next_attempt_at: float = 0.0
    lease_owner: str | None = None
    lease_until: float = 0.0

    def wants(self, event_type: str) -> bool:
        return self.events is None or event_type in self.events


@dataclass(frozen=True, slots=True)
class Attempt:
    """One delivery attempt, as the log keeps it."""

    endpoint_id: str
    position: int
    message_id: str
    event_type: str
    attempt: int
    """1 for the first try of this event, 2 for the first retry, ..."""
    status: int | None
    """The HTTP status answered; None: no answer (refused, timed out, ...)."""
    error: str | None
    """None: delivered (2xx)."""
    duration_ms: float
    at: float


CHANGEABLE = frozenset(
    {
        "url",
        "events",
        "description",
        "max_failures",
        "position",
        "failures",
        "last_error",
        "disabled_at",
        "next_attempt_at",
    }
)
"""The columns an admin change may set (`Endpoints.change`)."""


class Endpoints(Protocol):
    """The endpoints of one service and their delivery logs."""

    def add(self, endpoint: Endpoint) -> None: ...

    def get(self, endpoint_id: str) -> Endpoint | None: ...

    def all(self) -> list[Endpoint]: ...

    def change(self, endpoint_id: str, changes: Mapping[str, Any]) -> Endpoint | None:
        """Set `changes` (columns of `CHANGEABLE`) and clear the lease; the endpoint
        as changed, None if there is none."""

    def remove(self, endpoint_id: str) -> bool:
        """Delete it and its log; whether it was there."""

    def claim(self, owner: str, now: float, until: float, newest: int) -> Endpoint | None:
        """Lease one endpoint that is due (enabled, `next_attempt_at` reached, not leased
        by a live lease, behind `newest`) to `owner` until `until`, the longest due first."""

    def advance(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        now: float,
        until: float,
        attempts: Sequence[Attempt] = (),
    ) -> bool:
        """After 2xx answers (or events not wanted), in one transaction: the new
        position, the `attempts` logged, failures cleared if one succeeded, the lease
        extended; whether `owner` may go on (still holds it, still enabled). Nothing
        changes once the lease is gone."""

    def failed(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        attempts: Sequence[Attempt],
        retry_at: float,
        disable: bool,
    ) -> None:
        """After a failed attempt (the last of `attempts`), in one transaction: the
        position the successes before it reached, the attempts logged, the run of
        failures and the error, the next try (and disabled, if `disable`), the lease
        released."""

    def release(self, endpoint_id: str, owner: str) -> None: ...

    def attempts(self, endpoint_id: str, limit: int) -> list[Attempt]:
        """The newest attempts first."""


def check_changes(changes: Mapping[str, Any]) -> None:
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(f"not changeable: {sorted(unknown)}")
