"""The bodies of the webhooks' admin routes (routes/webhooks.py, docs/webhooks.md), as
msgspec structs: an endpoint registered, changed, redelivered, and its delivery log.

What is delivered to an endpoint is a `FeedItem` (the feed's items): these are
the admin's requests and answers about endpoints only.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import UNSET, Meta, UnsetType

from service.projections.event_views import EVENT_TYPES

EventType = StrEnum(  # type: ignore[misc]
    "EventType",
    {**{name: name for name in EVENT_TYPES}, "match_found": "match_found"},
    module=__name__,
)
"""An event's `type` (docs/api.md, "Events"), as a webhook filter names it, or
`match_found`: the item matchmaking sends when it made a game (docs/players.md), just
before that game's `game_created`."""

WebhookUrl = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=2000,
        description=(
            "Where events are POSTed: an `http` or `https` URL with a host, without user "
            "name or password (send no credentials in it: it is shown to every admin)."
        ),
    ),
]
WebhookEvents = Annotated[
    list[EventType],
    Meta(
        max_length=64,
        description="The event types sent to it; empty: every type (new types too).",
    ),
]
MaxFailures = Annotated[
    int,
    Meta(
        ge=1,
        le=10_000,
        description=(
            "Failed attempts in a row that disable it (null: the service's "
            "`RUMMY_WEBHOOK_MAX_FAILURES`)."
        ),
    ),
]
Description = Annotated[str, Meta(max_length=500, description="A note for the admins.")]
Position = Annotated[
    int,
    Meta(ge=0, le=2**53, description="A position in the feed (`GET /feed`'s `position`)."),
]


class NewWebhook(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    url: WebhookUrl
    events: WebhookEvents = msgspec.field(default_factory=list)
    description: Description = ""
    max_failures: MaxFailures | None = None
    after: Position | None = None
    """Send the events after this position; null: only events committed from now on
    (`0`: the whole history)."""


class WebhookChange(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    url: WebhookUrl | UnsetType = UNSET
    events: WebhookEvents | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    max_failures: MaxFailures | UnsetType | None = UNSET
    enabled: bool | UnsetType = UNSET
    """`true` re-enables a disabled endpoint (its failures cleared, tried at once);
    `false` disables it."""


class Redelivery(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    after: Position | None = None
    """Send again every wanted event after this position; null: from the event of the
    newest attempt in the log (the one that failed, as a rule)."""


class Webhook(msgspec.Struct, kw_only=True):
    id: str
    url: str
    events: list[EventType]
    """Empty: every type."""
    description: str
    max_failures: int | None
    enabled: bool
    position: int
    """Every wanted event up to here has been answered 2xx (the next starts after it)."""
    failures: int
    """Failed attempts in a row (0 after a success)."""
    last_error: str | None
    """What the last failed attempt met: `answered 500`, `no answer within 10 s`, ..."""
    last_attempt_at: str | None
    last_success_at: str | None
    next_attempt_at: str | None
    """When a failed event is tried again (null: as soon as there is an event)."""
    disabled_at: str | None
    created_at: str


class CreatedWebhook(Webhook, kw_only=True):
    secret: str
    """The signing secret (`whsec_` and base64): shown here once, never again. Verify
    each delivery's `webhook-signature` with it (docs/webhooks.md)."""


class Webhooks(msgspec.Struct, kw_only=True):
    webhooks: list[Webhook]


class DeliveryAttempt(msgspec.Struct, kw_only=True):
    position: int
    webhook_id: str
    """The `webhook-id` sent: `<game_id>:<version>`, the same on every retry."""
    event_type: str
    attempt: int
    """1 for the event's first try, 2 for its first retry, ..."""
    status: int | None
    """The status answered; null: no answer (refused, timed out, ...)."""
    error: str | None
    """null: delivered (2xx)."""
    duration_ms: float
    at: str


class DeliveryLog(msgspec.Struct, kw_only=True):
    deliveries: list[DeliveryAttempt]
    """The newest first (up to the last 100 attempts of the endpoint)."""
