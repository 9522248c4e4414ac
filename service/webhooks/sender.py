"""The sender: the feed's events, signed, to each endpoint in feed order.

Each process runs one claiming thread and up to `Policy.senders` delivery
threads (never the event loop: a slow receiver holds a thread, not a request).
The claimer claims one due endpoint at a time (`Endpoints.claim`: a lease, so
one sender at a time per endpoint across every replica and worker) while a
delivery slot is free, and hands it to a thread of its own, which reads a page
of the feed after the endpoint's position (`FeedReader`: the admin's view of
each event, as `GET /feed` shows it) and, for each event the endpoint wants,
POSTs it and waits for the answer:

- 2xx: the position moves past the event (and past every unwanted event before
  it) and the failures are cleared, in one write that also extends the lease;
- anything else (another status, a redirect, a refused connection, no answer
  within `Policy.timeout`): the run of failures grows, the error is kept, the
  endpoint is next tried after `backoff(failures)` (exponential with full
  jitter), or disabled once the run reaches its `max_failures`; the lease is
  released. Nothing after the failed event is sent before it: strict feed order
  per endpoint, so each game's events arrive in version order.

Every attempt is logged (`Endpoints.log`). A page done, the lease is released
and the slot is free again, so endpoints take turns. An endpoint whose receiver
does not answer holds its own slot only: the claimer goes on handing the other
due endpoints to the free slots (issue 26 measured a healthy endpoint's
delivery going from 0.1 s to 3-19 s behind six silent ones when two threads
took turns with every endpoint); up to `senders - 1` silent receivers cannot
delay another endpoint. Saves of this process
ring the `Doorbell`; other replicas' events are found by polling every
`Policy.poll` seconds, sooner after a delivery (`AFTER_WORK_SECONDS`, doubled
while nothing comes): on PostgreSQL the feed holds events back while an older
write is in flight, and they are readable milliseconds later.

Messages follow the Standard Webhooks specification: `webhook-id` is the
event's `<game_id>:<version>` (the same on every retry and redelivery, so a
receiver can drop duplicates), `webhook-timestamp` the Unix time of the
attempt, `webhook-signature` `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
made by the `standardwebhooks` library with the endpoint's `whsec_` secret.
"""

from __future__ import annotations

import base64
import functools
import logging
import os
import queue
import random
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar
from uuid import uuid4

import httpx
from standardwebhooks.webhooks import Webhook

from service.config import Settings
from service.webhooks.endpoints import Attempt, Endpoint, Endpoints

log = logging.getLogger("service.webhooks")

_T = TypeVar("_T")

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
"""256-bit keys (the specification asks for 24 to 64 bytes)."""
USER_AGENT = "rummy-webhooks/1"
AFTER_WORK_SECONDS = 0.005
"""The first wait of an idle sender that just delivered (doubled while idle, up to
the poll)."""
CLOSE_SECONDS = 2.0
"""How long a stopping process waits for its requests in flight."""
ERROR_CHARS = 300
"""The longest `last_error` kept."""


def new_secret() -> str:
    """A new signing secret in the specification's form: `whsec_` and base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The Standard Webhooks headers of one message."""
    at = datetime.fromtimestamp(timestamp, tz=UTC)
    signature = Webhook(secret).sign(message_id, at, body.decode())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature,
    }


def backoff(
    failures: int, base: float, cap: float, rng: Callable[[], float] = random.random
) -> float:
    """Seconds to wait after the `failures`-th failure in a row: "full jitter",
    uniform between 0 and `base * 2**(failures-1)` (at most `cap`), so receivers
    that failed together do not all come back at once."""
    ceiling = min(cap, base * float(2 ** min(failures - 1, 62)))
    return rng() * ceiling


@dataclass(frozen=True, slots=True)
class Message:
    """One event of the feed as it is sent."""

    position: int
    game_id: str
    version: int
    event_type: str
    body: bytes
    """The JSON body: `{"position", "game_id", "event"}`, one item of `GET /feed`."""

    @property
    def id(self) -> str:
        """The `webhook-id`: the same event always has the same one."""
        return f"{self.game_id}:{self.version}"


@dataclass(frozen=True, slots=True)
class Batch:
    messages: Sequence[Message]
    next_after: int
    """The position of the last event read (or the one read after, if none)."""


FeedReader = Callable[[int, int], Batch]
"""`(after, limit)`: up to `limit` events of the feed after position `after`."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How the sender works (service/config/ names each setting)."""

    timeout: float = 10.0
    max_failures: int = 50
    retry_base: float = 1.0
    retry_cap: float = 900.0
    lease: float = 60.0
    poll: float = 1.0
    senders: int = 16
    """Endpoints delivered at once by this process (a thread each while busy)."""
    batch: int = 100

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        return cls(
            timeout=settings.webhook_timeout,
            max_failures=settings.webhook_max_failures,
            retry_base=settings.webhook_retry_ms / 1000,
            retry_cap=float(settings.webhook_retry_max),
            lease=float(settings.webhook_lease),
            poll=settings.webhook_poll_ms / 1000,
            senders=settings.webhook_senders,
        )


class AttemptObserver(Protocol):
    """Told of every page of attempts a sender wrote (the metrics)."""

    def attempted(self, attempts: Sequence[Attempt], disabled: bool) -> None:
        """`attempts` were written; `disabled`: the last failure disabled the endpoint."""


class Doorbell:
    """Rung by this process's saves (an observer of the application), so a sender
    waiting for work looks at once rather than at its next poll.

    Only while `armed`: the senders arm it when an enabled endpoint exists (looked
    up at every idle poll; an admin change rings it, so a new endpoint is seen at
    once). A service with no endpoint pays nothing per save: woken by every save,
    the claimer would ask the store for an endpoint to claim (when two threads
    claimed, two queries a save were a third of an action's CPU on SQLite,
    `bench.asgi`)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.armed = False

    def saved(self, events: Sequence[Any]) -> None:
        if self.armed:
            self._event.set()

    def write_conflict(self) -> None:
        pass

    def ring(self) -> None:
        self._event.set()

    def wait(self, seconds: float) -> None:
        self._event.wait(seconds)
        self._event.clear()


class Sender:
    """The threads that deliver this process's share of the endpoints."""

    def __init__(
        self,
        endpoints: Endpoints,
        read: FeedReader,
        newest: Callable[[], int],
        policy: Policy,
        doorbell: Doorbell | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        observer: AttemptObserver | None = None,
        now: Callable[[], float] = time.time,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self.endpoints = endpoints
        self.read = read
        self.newest = newest
        self.policy = policy
        self.doorbell = doorbell or Doorbell()
        self.transport = transport
        self.observer = observer
        self.now = now
        self.rng = rng
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid4().hex[:8]}"
        """This process's senders' name in leases (each delivery slot adds its number)."""
        self._closed = threading.Event()
        self._claimer: threading.Thread | None = None
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        """The delivery slots not in use: a slot's number names its leases."""
        self._delivering: set[threading.Thread] = set()
        self._lock = threading.Lock()
        self._failing = False

    def start(self) -> None:
        """Start the claimer (none with `senders` 0: this process delivers nothing)."""
        if self._claimer is not None or self._closed.is_set() or self.policy.senders < 1:
            return
        for slot in range(self.policy.senders):
            self._free.put(slot)
        self._claimer = threading.Thread(target=self._run, name="rummy-webhooks", daemon=True)
        self._claimer.start()

    def close(self) -> None:
        """Stop: each delivery ends after its request in flight, which gets
        `CLOSE_SECONDS` (one still waiting then is abandoned: its event is sent again
        after the lease)."""
        self._closed.set()
        self.doorbell.ring()
        deadline = time.monotonic() + CLOSE_SECONDS
        with self._lock:
            threads = [*self._delivering, *([self._claimer] if self._claimer else [])]
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def client(self) -> httpx.Client:
        return httpx.Client(
            timeout=self.policy.timeout,
            follow_redirects=False,
            headers={"user-agent": USER_AGENT, "content-type": "application/json"},
            transport=self.transport,
        )

    def _run(self) -> None:
        """The claimer: while a slot is free, claim a due endpoint and hand it to a
        delivery thread of its own; wait for the doorbell or the poll when none is due."""
        pause = self.policy.poll
        with self.client() as client:
            while not self._closed.is_set():
                try:
                    slot = self._free.get(timeout=self.policy.poll)
                except queue.Empty:
                    continue  # every slot busy: look at `_closed` again
                owner = f"{self.owner}/{slot}"
                endpoint = self._attempt(functools.partial(self.claim, owner))
                if endpoint is None:
                    self._free.put(slot)
                    self._arm()
                    self.doorbell.wait(pause)
                    pause = min(pause * 2, self.policy.poll)
                    continue
                # Busy: look again soon when nothing is due (the feed may hold events
                # back for a write in flight, other replicas may be busy too), less
                # often the longer nothing comes, up to the poll.
                pause = AFTER_WORK_SECONDS
                thread = threading.Thread(
                    target=self._deliver_in_slot,
                    args=(client, owner, endpoint, slot),
                    name=f"rummy-webhooks-{slot}",
                    daemon=True,
                )
                with self._lock:
                    self._delivering.add(thread)
                thread.start()
            # The client is shared: let the deliveries in flight end first.
            deadline = time.monotonic() + CLOSE_SECONDS
            with self._lock:
                delivering = list(self._delivering)
            for thread in delivering:
                thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def _deliver_in_slot(
        self, client: httpx.Client, owner: str, endpoint: Endpoint, slot: int
    ) -> None:
        try:
            self._attempt(functools.partial(self.deliver, client, owner, endpoint))
        finally:
            with self._lock:
                self._delivering.discard(threading.current_thread())
            self._free.put(slot)
            self.doorbell.ring()  # the endpoint may have more; a slot is free

    def _attempt(self, work: Callable[[], _T]) -> _T | None:
        """`work()`, or None if it raised (the store failed): logged in one line, no
        traceback, once per outage (every request logs it too)."""
        try:
            found = work()
        except Exception as error:
            if not self._failing:
                log.warning(
                    "webhook sender: %s: %s; trying again", type(error).__name__, str(error).strip()
                )
            self._failing = True
            return None
        self._failing = False
        return found

    def _arm(self) -> None:
        """Let saves ring the doorbell only while an enabled endpoint exists."""
        try:
            self.doorbell.armed = any(e.disabled_at is None for e in self.endpoints.all())
        except Exception:
            self.doorbell.armed = True  # the store failed: wake on saves, as before

    def step(self, client: httpx.Client, owner: str) -> bool:
        """Claim one due endpoint and deliver one page of its events; whether one was due."""
        endpoint = self.claim(owner)
        if endpoint is None:
            return False
        self.deliver(client, owner, endpoint)
        return True

    def claim(self, owner: str) -> Endpoint | None:
        """Lease one due endpoint to `owner`, if any."""
        now = self.now()
        return self.endpoints.claim(owner, now, now + self.policy.lease, self.newest())

    def deliver(self, client: httpx.Client, owner: str, endpoint: Endpoint) -> None:
        """One page of a claimed endpoint's events, then its lease released."""
        try:
            self._deliver(client, owner, endpoint)
        finally:
            self.endpoints.release(endpoint.id, owner)

    def _deliver(self, client: httpx.Client, owner: str, endpoint: Endpoint) -> None:
        """One page of the feed after the endpoint's position. The position and the
        attempts are written together: after a failure, at the end of the page, and
        whenever `lease / 4` has passed since the last write (which keeps the lease);
        so a killed sender sends again at most what it sent since its last write."""
        batch = self.read(endpoint.position, self.policy.batch)
        failures, position, written = endpoint.failures, endpoint.position, self.now()
        attempts: list[Attempt] = []
        for message in batch.messages:
            if self._closed.is_set():
                break
            if not endpoint.wants(message.event_type):
                continue
            status, error, started = self._post(client, endpoint, message)
            now = self.now()
            attempts.append(
                Attempt(
                    endpoint_id=endpoint.id,
                    position=message.position,
                    message_id=message.id,
                    event_type=message.event_type,
                    attempt=failures + 1,
                    status=status,
                    error=error,
                    duration_ms=round((time.monotonic() - started) * 1000, 1),
                    at=now,
                )
            )
            if error is not None:
                failures += 1
                limit = endpoint.max_failures or self.policy.max_failures
                delay = backoff(failures, self.policy.retry_base, self.policy.retry_cap, self.rng)
                self.endpoints.failed(
                    endpoint.id, owner, position, attempts, now + delay, failures >= limit
                )
                self._observe(attempts, disabled=failures >= limit)
                return
            failures, position = 0, message.position
            if now - written >= self.policy.lease / 4:
                if not self._write(owner, endpoint, position, attempts):
                    return  # disabled, changed or taken over meanwhile
                attempts, written = [], now
        else:
            # The whole page went: past its unwanted events at the end too.
            position = max(position, batch.next_after)
        if attempts or position != endpoint.position:
            self._write(owner, endpoint, position, attempts)

    def _write(
        self, owner: str, endpoint: Endpoint, position: int, attempts: list[Attempt]
    ) -> bool:
        now = self.now()
        going_on = self.endpoints.advance(
            endpoint.id, owner, position, now, now + self.policy.lease, attempts
        )
        self._observe(attempts, disabled=False)
        return going_on

    def _observe(self, attempts: Sequence[Attempt], *, disabled: bool) -> None:
        if self.observer is not None and attempts:
            self.observer.attempted(attempts, disabled)

    def _post(
        self, client: httpx.Client, endpoint: Endpoint, message: Message
    ) -> tuple[int | None, str | None, float]:
        """POST one message: the status (None: no answer), the error (None: 2xx), and
        when it started (monotonic)."""
        # The wall clock, not `now` (which schedules): receivers hold it to theirs.
        headers = signed_headers(endpoint.secret, message.id, int(time.time()), message.body)
        started = time.monotonic()
        try:
            with client.stream(
                "POST", endpoint.url, content=message.body, headers=headers
            ) as response:
                status = response.status_code
                _drain(response)
        except httpx.TimeoutException:
            return None, f"no answer within {self.policy.timeout:g} s", started
        except httpx.HTTPError as error:
            return None, f"{type(error).__name__}: {error}"[:ERROR_CHARS], started
        if 200 <= status < 300:
            return status, None, started
        return status, f"answered {status}", started


ANSWER_BYTES = 65_536
"""The most of a receiver's answer read: its body means nothing to the sender, and a
receiver that answers without end must not hold a sender's memory or time. An
answer read to its end keeps its connection for the next delivery."""


def _drain(response: httpx.Response) -> None:
    """Read the answer's body up to `ANSWER_BYTES`, then let the rest go (the
    connection is closed with the response instead of being kept)."""
    read = 0
    for chunk in response.iter_bytes():
        read += len(chunk)
        if read > ANSWER_BYTES:
            return
