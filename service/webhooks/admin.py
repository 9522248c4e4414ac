"""The webhooks' use cases, as the admin API calls them: register, read, change,
remove, redeliver. Each change rings the sender's doorbell, so it acts at once."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any
from urllib.parse import urlsplit
from uuid import uuid4

from service.webhooks.endpoints import Attempt, Endpoint, Endpoints
from service.webhooks.errors import InvalidWebhookUrl, NothingToRedeliver, WebhookNotFound
from service.webhooks.sender import Doorbell, new_secret

SCHEMES = ("http", "https")


class Keep(Enum):
    """A setting left as it is (where None means something)."""

    KEEP = "keep"


def check_url(url: str) -> str:
    """`url` if a sender can POST to it, else `InvalidWebhookUrl` saying why."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in SCHEMES:
        raise InvalidWebhookUrl(
            f"A webhook URL starts with http:// or https://, not {parts.scheme or 'nothing'!r}."
        )
    if not parts.hostname:
        raise InvalidWebhookUrl("A webhook URL names a host: https://example.com/rummy-events.")
    if parts.username is not None or parts.password is not None:
        raise InvalidWebhookUrl(
            "Put no user name or password in a webhook URL (every admin sees it): the "
            "signature tells the receiver the request is ours."
        )
    if parts.fragment:
        raise InvalidWebhookUrl("A webhook URL has no #fragment (it is never sent).")
    try:
        parts.port  # noqa: B018 - raises for a bad port
    except ValueError:
        raise InvalidWebhookUrl("The webhook URL's port is not a port number.") from None
    return url.strip()


class WebhookAdmin:
    """The endpoints of one service, as the admin changes them."""

    def __init__(
        self,
        endpoints: Endpoints,
        newest: Callable[[], int],
        doorbell: Doorbell,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.endpoints = endpoints
        self.newest = newest
        self.doorbell = doorbell
        self.now = now

    def register(
        self,
        url: str,
        events: Sequence[str] = (),
        description: str = "",
        max_failures: int | None = None,
        after: int | None = None,
    ) -> Endpoint:
        """A new endpoint with a new secret, sent the events after `after` (None: the
        feed's end now, so events from now on)."""
        endpoint = Endpoint(
            id=str(uuid4()),
            url=check_url(url),
            secret=new_secret(),
            events=tuple(dict.fromkeys(events)) or None,
            description=description,
            max_failures=max_failures,
            created_at=self.now(),
            position=self.newest() if after is None else after,
        )
        self.endpoints.add(endpoint)
        self.doorbell.ring()
        return endpoint

    def get(self, endpoint_id: str) -> Endpoint:
        found = self.endpoints.get(endpoint_id)
        if found is None:
            raise WebhookNotFound(f"There is no webhook {endpoint_id}.")
        return found

    def all(self) -> list[Endpoint]:
        return self.endpoints.all()

    def change(
        self,
        endpoint_id: str,
        *,
        url: str | None = None,
        events: Sequence[str] | None = None,
        description: str | None = None,
        max_failures: int | Keep | None = Keep.KEEP,
        enabled: bool | None = None,
    ) -> Endpoint:
        """Change what is given (None, or `Keep.KEEP` for `max_failures`: unchanged)."""
        changes: dict[str, Any] = {}
        if url is not None:
            changes["url"] = check_url(url)
        if events is not None:
            changes["events"] = tuple(dict.fromkeys(events)) or None
        if description is not None:
            changes["description"] = description
        if not isinstance(max_failures, Keep):
            changes["max_failures"] = max_failures
        if enabled is True:
            changes.update(disabled_at=None, failures=0, next_attempt_at=0.0)
        elif enabled is False:
            current = self.get(endpoint_id)
            changes["disabled_at"] = current.disabled_at or self.now()
        changed = self.endpoints.change(endpoint_id, changes)
        if changed is None:
            raise WebhookNotFound(f"There is no webhook {endpoint_id}.")
        self.doorbell.ring()
        return changed

    def remove(self, endpoint_id: str) -> None:
        if not self.endpoints.remove(endpoint_id):
            raise WebhookNotFound(f"There is no webhook {endpoint_id}.")

    def redeliver(self, endpoint_id: str, after: int | None = None) -> Endpoint:
        """Send again every wanted event after `after` (None: from the event of the
        newest attempt), now: the position is set back and the retry wait cleared.
        A disabled endpoint stays disabled (enable it to send)."""
        if after is None:
            newest = self.endpoints.attempts(endpoint_id, 1)
            if not newest:
                self.get(endpoint_id)
                raise NothingToRedeliver(
                    "This webhook has no attempt in its log to start from: give `after`, "
                    "a position of the feed."
                )
            after = newest[0].position - 1
        changed = self.endpoints.change(endpoint_id, {"position": after, "next_attempt_at": 0.0})
        if changed is None:
            raise WebhookNotFound(f"There is no webhook {endpoint_id}.")
        self.doorbell.ring()
        return changed

    def attempts(self, endpoint_id: str, limit: int) -> list[Attempt]:
        self.get(endpoint_id)
        return self.endpoints.attempts(endpoint_id, limit)
