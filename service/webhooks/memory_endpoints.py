"""Webhook endpoints kept in one process, for the memory store: dicts under a lock.

The same rules as the tables (`endpoint_tables.py`): a claim leases the longest
due endpoint, every later write names its owner and changes nothing once the
lease is gone, and the newest `LOG_KEEP` attempts per endpoint are kept.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from service.webhooks.endpoints import LOG_KEEP, Attempt, Endpoint, check_changes


class MemoryEndpoints:
    """In one process (the memory store): dicts under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, Endpoint] = {}
        self._log: dict[str, list[Attempt]] = {}

    def add(self, endpoint: Endpoint) -> None:
        with self._lock:
            self._rows[endpoint.id] = endpoint

    def get(self, endpoint_id: str) -> Endpoint | None:
        with self._lock:
            return self._rows.get(endpoint_id)

    def all(self) -> list[Endpoint]:
        with self._lock:
            return sorted(self._rows.values(), key=lambda e: (e.created_at, e.id))

    def change(self, endpoint_id: str, changes: Mapping[str, Any]) -> Endpoint | None:
        check_changes(changes)
        with self._lock:
            found = self._rows.get(endpoint_id)
            if found is None:
                return None
            changed = replace(found, **changes, lease_owner=None, lease_until=0.0)
            self._rows[endpoint_id] = changed
            return changed

    def remove(self, endpoint_id: str) -> bool:
        with self._lock:
            self._log.pop(endpoint_id, None)
            return self._rows.pop(endpoint_id, None) is not None

    def claim(self, owner: str, now: float, until: float, newest: int) -> Endpoint | None:
        with self._lock:
            due = [e for e in self._rows.values() if _due(e, now, newest)]
            if not due:
                return None
            chosen = min(due, key=lambda e: (e.next_attempt_at, e.id))
            claimed = replace(chosen, lease_owner=owner, lease_until=until)
            self._rows[chosen.id] = claimed
            return claimed

    def advance(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        now: float,
        until: float,
        attempts: Sequence[Attempt] = (),
    ) -> bool:
        with self._lock:
            found = self._rows.get(endpoint_id)
            if found is None or found.lease_owner != owner:
                return False
            succeeded = any(attempt.error is None for attempt in attempts)
            self._rows[endpoint_id] = replace(
                found,
                position=position,
                failures=0 if succeeded else found.failures,
                last_error=None if succeeded else found.last_error,
                last_success_at=now if succeeded else found.last_success_at,
                last_attempt_at=attempts[-1].at if attempts else found.last_attempt_at,
                lease_until=until,
            )
            self._keep(endpoint_id, attempts)
            return found.disabled_at is None

    def failed(
        self,
        endpoint_id: str,
        owner: str,
        position: int,
        attempts: Sequence[Attempt],
        retry_at: float,
        disable: bool,
    ) -> None:
        last = attempts[-1]
        with self._lock:
            found = self._rows.get(endpoint_id)
            if found is None or found.lease_owner != owner:
                return
            succeeded = [attempt.at for attempt in attempts if attempt.error is None]
            self._rows[endpoint_id] = replace(
                found,
                position=position,
                failures=last.attempt,
                last_error=last.error,
                last_attempt_at=last.at,
                last_success_at=succeeded[-1] if succeeded else found.last_success_at,
                next_attempt_at=retry_at,
                disabled_at=last.at if disable else found.disabled_at,
                lease_owner=None,
                lease_until=0.0,
            )
            self._keep(endpoint_id, attempts)

    def release(self, endpoint_id: str, owner: str) -> None:
        with self._lock:
            found = self._rows.get(endpoint_id)
            if found is not None and found.lease_owner == owner:
                self._rows[endpoint_id] = replace(found, lease_owner=None, lease_until=0.0)

    def _keep(self, endpoint_id: str, attempts: Sequence[Attempt]) -> None:
        kept = self._log.setdefault(endpoint_id, [])
        kept.extend(attempts)
        del kept[:-LOG_KEEP]

    def attempts(self, endpoint_id: str, limit: int) -> list[Attempt]:
        with self._lock:
            return list(reversed(self._log.get(endpoint_id, [])))[:limit]


def _due(endpoint: Endpoint, now: float, newest: int) -> bool:
    return (
        endpoint.disabled_at is None
        and endpoint.next_attempt_at <= now
        and (endpoint.lease_owner is None or endpoint.lease_until < now)
        and endpoint.position < newest
    )
