"""Webhooks (admin): register endpoints, read their state and delivery logs, change,
remove, redeliver. service/webhooks/ delivers (reading the feed's items through
service/webhooks/reader.py); docs/webhooks.md is the guide.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, HttpMethod, Response, delete, get, patch, post, route
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import FromPath, JSONBody, QueryParameter

from service.api import webhook_schemas as s
from service.api.auth import require_admin
from service.api.deps import BEARER, Authorization, Services
from service.api.docs.responses import problems
from service.webhooks.admin import Keep, WebhookAdmin
from service.webhooks.endpoints import Attempt, Endpoint

WHAT = "the webhooks"
NO_STORE = {"Cache-Control": "no-store"}
"""The answer that shows a secret is kept by no cache."""


def _time(at: float | None) -> str | None:
    if at is None:
        return None
    return (
        datetime.fromtimestamp(at, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )


def _webhook(endpoint: Endpoint) -> s.Webhook:
    return s.Webhook(**_fields(endpoint))


def _fields(endpoint: Endpoint) -> dict[str, Any]:
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "events": [s.EventType(name) for name in endpoint.events or ()],
        "description": endpoint.description,
        "max_failures": endpoint.max_failures,
        "enabled": endpoint.disabled_at is None,
        "position": endpoint.position,
        "failures": endpoint.failures,
        "last_error": endpoint.last_error,
        "last_attempt_at": _time(endpoint.last_attempt_at),
        "last_success_at": _time(endpoint.last_success_at),
        "next_attempt_at": _time(endpoint.next_attempt_at or None),
        "disabled_at": _time(endpoint.disabled_at),
        "created_at": _time(endpoint.created_at) or "",
    }


def _attempt(attempt: Attempt) -> s.DeliveryAttempt:
    return s.DeliveryAttempt(
        position=attempt.position,
        webhook_id=attempt.message_id,
        event_type=attempt.event_type,
        attempt=attempt.attempt,
        status=attempt.status,
        error=attempt.error,
        duration_ms=attempt.duration_ms,
        at=_time(attempt.at) or "",
    )


def _admin(services: Services, authorization: str | None) -> WebhookAdmin:
    require_admin(authorization, services.admin_token, WHAT)
    assert services.webhooks is not None, "the composition root gives the app its webhooks"
    return services.webhooks


WebhookId = FromPath[str]


def _allow(methods: str) -> Response[None]:
    return Response(None, status_code=204, headers={"Allow": methods})


class WebhooksController(Controller):
    path = "/webhooks"
    tags = ["webhooks"]  # noqa: RUF012 - litestar reads it as a class attribute
    security = BEARER

    # litestar 2.25 makes the `OPTIONS` answer of a path from its first handler only,
    # so a path with several methods would `Allow` one: these list them all (named to
    # come first: a controller registers its handlers in the order of their names).
    @route("/", http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False)
    def allow_on_webhooks(self) -> Response[None]:
        return _allow("GET, OPTIONS, POST")

    @route(
        "/{webhook_id:str}",
        http_method=[HttpMethod.OPTIONS],
        include_in_schema=False,
        sync_to_thread=False,
    )
    def allow_on_webhook(self) -> Response[None]:
        return _allow("DELETE, GET, OPTIONS, PATCH")

    @post(
        "/",
        operation_id="createWebhook",
        summary="Register an endpoint; its signing secret is shown once (admin)",
        status_code=201,
        responses=problems(401, 403, 422),
        response_headers=[
            ResponseHeader(name="Location", description="`/webhooks/{id}`", documentation_only=True)
        ],
        description=(
            "Every event of the feed (`GET /feed`) that the endpoint wants is POSTed to `url` "
            "as one feed item, signed per the Standard Webhooks specification "
            "(`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` "
            "this answer shows, once: keep it. Delivered at least once, in feed order (so "
            "each game's events in version order), the next event only after a 2xx for the "
            "one before; retried with exponential backoff and jitter, disabled after "
            "`max_failures` failures in a row. `after` starts it at a position of the feed "
            "(default: the end of the feed now). docs/webhooks.md shows a receiver."
        ),
        request_body_examples=[
            Example(
                summary="Games' ends, to a platform",
                value={
                    "url": "https://platform.example.com/rummy/events",
                    "events": ["game_finished"],
                    "description": "leaderboard",
                },
            )
        ],
    )
    async def create_webhook(
        self,
        services: NamedDependency[Services],
        data: JSONBody[s.NewWebhook],
        authorization: Authorization = None,
    ) -> Response[s.CreatedWebhook]:
        admin = _admin(services, authorization)

        def work() -> Response[s.CreatedWebhook]:
            endpoint = admin.register(
                data.url,
                [str(name) for name in data.events],
                data.description,
                data.max_failures,
                data.after,
            )
            created = s.CreatedWebhook(**_fields(endpoint), secret=endpoint.secret)
            headers = {**NO_STORE, "Location": f"/webhooks/{endpoint.id}"}
            return Response(created, headers=headers)

        return await services.run(work)

    @get(
        "/",
        operation_id="listWebhooks",
        summary="Every registered endpoint and its delivery state (admin)",
        responses=problems(401, 403),
        description=(
            "Each endpoint with its `position` in the feed (every wanted event up to it was "
            "answered 2xx), its run of `failures` and `last_error`, when a failed event is "
            "tried next, and whether it is enabled. Secrets are never shown again."
        ),
    )
    async def list_webhooks(
        self, services: NamedDependency[Services], authorization: Authorization = None
    ) -> s.Webhooks:
        admin = _admin(services, authorization)
        endpoints = await services.run(admin.all)
        return s.Webhooks(webhooks=[_webhook(endpoint) for endpoint in endpoints])

    @get(
        "/{webhook_id:str}",
        operation_id="getWebhook",
        summary="One endpoint: its position, failures, last error (admin)",
        responses=problems(401, 403, 404),
        description="As in `listWebhooks`, one endpoint; 404 `not_found` for an unknown id.",
    )
    async def get_webhook(
        self,
        services: NamedDependency[Services],
        webhook_id: WebhookId,
        authorization: Authorization = None,
    ) -> s.Webhook:
        admin = _admin(services, authorization)
        return _webhook(await services.run(lambda: admin.get(webhook_id)))

    @patch(
        "/{webhook_id:str}",
        operation_id="changeWebhook",
        summary="Change an endpoint, or enable or disable it (admin)",
        responses=problems(401, 403, 404, 422),
        request_body_examples=[
            Example(summary="Enable it again after fixing the receiver", value={"enabled": True}),
            Example(
                summary="Every event type, to a new URL",
                value={"url": "https://platform.example.com/rummy/v2/events", "events": []},
            ),
        ],
        description=(
            "Fields left out stay as they are. `enabled: true` re-enables a disabled "
            "endpoint: its failures are cleared and it is tried at once, from its position "
            "(the event that failed last). A change takes effect from the next event: one "
            "already on its way is delivered to the old URL (or sent again after)."
        ),
    )
    async def change_webhook(
        self,
        services: NamedDependency[Services],
        webhook_id: WebhookId,
        data: JSONBody[s.WebhookChange],
        authorization: Authorization = None,
    ) -> s.Webhook:
        admin = _admin(services, authorization)

        def work() -> Endpoint:
            return admin.change(
                webhook_id,
                url=None if data.url is msgspec.UNSET else data.url,
                events=None if data.events is msgspec.UNSET else [str(e) for e in data.events],
                description=None if data.description is msgspec.UNSET else data.description,
                max_failures=Keep.KEEP if data.max_failures is msgspec.UNSET else data.max_failures,
                enabled=None if data.enabled is msgspec.UNSET else data.enabled,
            )

        return _webhook(await services.run(work))

    @delete(
        "/{webhook_id:str}",
        operation_id="deleteWebhook",
        summary="Remove an endpoint and its delivery log (admin)",
        responses=problems(401, 403, 404),
        status_code=204,
        description=(
            "Nothing more is sent to it (an event already on its way may still arrive). "
            "404 `not_found` for an unknown id."
        ),
    )
    async def delete_webhook(
        self,
        services: NamedDependency[Services],
        webhook_id: WebhookId,
        authorization: Authorization = None,
    ) -> None:
        admin = _admin(services, authorization)
        await services.run(lambda: admin.remove(webhook_id))

    @get(
        "/{webhook_id:str}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="An endpoint's latest delivery attempts, newest first (admin)",
        responses=problems(401, 403, 404, 422),
        description=(
            "The last 100 attempts at most: each event's position and `webhook-id`, the "
            "attempt's number for that event, the status answered (null: none), the error "
            "(null: delivered), how long it took and when."
        ),
    )
    async def list_deliveries(
        self,
        services: NamedDependency[Services],
        webhook_id: WebhookId,
        limit: Annotated[
            int, QueryParameter(ge=1, le=100, description="At most this many attempts.")
        ] = 100,
        authorization: Authorization = None,
    ) -> s.DeliveryLog:
        admin = _admin(services, authorization)
        attempts = await services.run(lambda: admin.attempts(webhook_id, limit))
        return s.DeliveryLog(deliveries=[_attempt(attempt) for attempt in attempts])

    @post(
        "/{webhook_id:str}/redeliver",
        operation_id="redeliverWebhook",
        summary="Send an endpoint's events again from a position (admin)",
        status_code=200,
        responses=problems(401, 403, 404, 409, 422),
        request_body_examples=[
            Example(summary="From the event that failed last", value={}),
            Example(summary="Everything after a position of the feed", value={"after": 4096}),
        ],
        description=(
            "Sets the endpoint's position back to `after` and sends every event it wants "
            "after it again, at once (the retry wait is cleared), with the same "
            "`webhook-id`s as before. Without `after`: from the event of the newest attempt "
            "in its log (409 `nothing_to_redeliver` when the log is empty). A disabled "
            "endpoint stays disabled: enable it with `changeWebhook`."
        ),
    )
    async def redeliver(
        self,
        services: NamedDependency[Services],
        webhook_id: WebhookId,
        data: JSONBody[s.Redelivery],
        authorization: Authorization = None,
    ) -> s.Webhook:
        admin = _admin(services, authorization)
        return _webhook(await services.run(lambda: admin.redeliver(webhook_id, data.after)))
