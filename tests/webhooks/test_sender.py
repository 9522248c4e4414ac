"""The sender on every store, against a receiver made of an httpx MockTransport: feed
order, positions moved only after a 2xx, backoff with full jitter, disabling,
filters, leases between senders, redelivery; every signature checked with the
receiver's own library (standardwebhooks)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import pytest
from standardwebhooks.webhooks import Webhook

from service.api.transport.metrics import Metrics
from service.game.application import RummyApplication
from service.webhooks.admin import WebhookAdmin
from service.webhooks.endpoint_tables import endpoints_for
from service.webhooks.endpoints import LOG_KEEP, Endpoints
from service.webhooks.sender import (
    ANSWER_BYTES,
    Batch,
    Doorbell,
    Message,
    Policy,
    Sender,
    backoff,
    new_secret,
    signed_headers,
)
from tests.game.stores import StoreUnderTest


class SetSeconds:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Feed:
    """A feed of made-up events: positions 10, 20, 30, ... (gaps, as on PostgreSQL)."""

    messages: list[Message] = field(default_factory=list)

    def add(self, game: str, version: int, event_type: str = "card_drawn") -> Message:
        position = 10 * (len(self.messages) + 1)
        body = json.dumps(
            {
                "position": position,
                "game_id": game,
                "event": {"type": event_type, "version": version},
            }
        ).encode()
        message = Message(position, game, version, event_type, body)
        self.messages.append(message)
        return message

    def read(self, after: int, limit: int) -> Batch:
        found = [m for m in self.messages if m.position > after][:limit]
        return Batch(found, found[-1].position if found else after)

    def newest(self) -> int:
        return self.messages[-1].position if self.messages else 0


@dataclass
class Receiver:
    """Answers each request with `answer(request)`; keeps what it verified."""

    secret: str = ""
    answer: Callable[[httpx.Request], httpx.Response] = lambda _: httpx.Response(204)
    got: list[dict[str, object]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        payload = Webhook(self.secret).verify(request.content, dict(request.headers))
        self.got.append(payload)
        self.ids.append(request.headers["webhook-id"])
        return self.answer(request)


@pytest.fixture
def games(store: StoreUnderTest) -> RummyApplication:
    return store.games()


@dataclass
class Rig:
    endpoints: Endpoints
    feed: Feed
    clock: SetSeconds
    receiver: Receiver
    admin: WebhookAdmin
    sender: Sender
    client: httpx.Client

    def register(self, **options: object) -> str:
        endpoint = self.admin.register("https://receiver.test/hook", after=0, **options)  # type: ignore[arg-type]
        self.receiver.secret = endpoint.secret
        return endpoint.id

    def run(self, owner: str = "a") -> int:
        """Steps until nothing is due; how many steps worked."""
        steps = 0
        while self.sender.step(self.client, owner):
            steps += 1
            assert steps < 1000
        return steps


@pytest.fixture
def rig(games: RummyApplication) -> Iterator[Rig]:
    endpoints = endpoints_for(games.recorder)
    feed, clock, receiver = Feed(), SetSeconds(), Receiver()
    policy = Policy(timeout=1, max_failures=3, retry_base=2, retry_cap=60, lease=10, batch=4)
    sender = Sender(
        endpoints,
        feed.read,
        feed.newest,
        policy,
        transport=httpx.MockTransport(receiver),
        now=clock,
        rng=lambda: 1.0,  # the ceiling of each wait: the test knows when a retry is due
    )
    admin = WebhookAdmin(endpoints, feed.newest, Doorbell(), clock)
    with sender.client() as client:
        yield Rig(endpoints, feed, clock, receiver, admin, sender, client)


def test_backoff_is_full_jitter_under_a_doubling_ceiling() -> None:
    assert [backoff(n, 1.0, 100.0, lambda: 1.0) for n in (1, 2, 3, 4, 8, 9)] == [
        1.0,
        2.0,
        4.0,
        8.0,
        100.0,
        100.0,
    ]
    assert backoff(5, 1.0, 100.0, lambda: 0.0) == 0.0
    assert backoff(3, 0.5, 100.0, lambda: 0.25) == 0.5
    assert 0 <= backoff(1000, 1.0, 100.0) <= 100.0


def test_a_signature_verifies_with_the_receivers_library_and_fails_when_tampered() -> None:
    secret = new_secret()
    assert secret.startswith("whsec_")
    body = b'{"position":1}'
    headers = signed_headers(secret, "g:1", int(time.time()), body)
    assert Webhook(secret).verify(body, headers) == {"position": 1}
    with pytest.raises(Exception, match="signature"):
        Webhook(secret).verify(b'{"position":2}', headers)
    with pytest.raises(Exception, match="signature"):
        Webhook(new_secret()).verify(body, headers)


def test_events_go_in_feed_order_and_the_position_follows_each_2xx(rig: Rig) -> None:
    endpoint_id = rig.register()
    sent = [rig.feed.add(game, version) for version in (1, 2, 3) for game in ("g1", "g2")]
    rig.run()
    assert rig.receiver.ids == [m.id for m in sent]
    assert [p["position"] for p in rig.receiver.got] == [m.position for m in sent]
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.position == sent[-1].position
    assert stored.failures == 0
    log = rig.endpoints.attempts(endpoint_id, 100)
    assert [a.position for a in log] == [m.position for m in reversed(sent)]
    assert all(a.status == 204 and a.error is None and a.attempt == 1 for a in log)


def test_a_failing_event_blocks_the_ones_after_it_until_a_retry_succeeds(rig: Rig) -> None:
    endpoint_id = rig.register()
    first, second = rig.feed.add("g1", 1), rig.feed.add("g1", 2)
    failing = {"on": True}
    rig.receiver.answer = lambda _: httpx.Response(503 if failing["on"] else 200)
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert rig.receiver.ids == [first.id], "nothing after the failed event"
    assert (stored.position, stored.failures, stored.last_error) == (0, 1, "answered 503")
    assert stored.next_attempt_at == rig.clock.now + 2.0  # base 2 s, rng at its top
    rig.clock.now += 1.9
    assert rig.run() == 0, "not due before its backoff"
    rig.clock.now += 0.2
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.next_attempt_at == rig.clock.now + 4.0, "the second failure waits twice as long"
    failing["on"] = False
    rig.clock.now += 4.1
    rig.run()
    assert rig.receiver.ids == [first.id, first.id, first.id, second.id]
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert (stored.position, stored.failures) == (second.position, 0)
    attempts = [a.attempt for a in reversed(rig.endpoints.attempts(endpoint_id, 10))]
    assert attempts == [1, 2, 3, 1]


def test_a_success_clears_the_last_error_which_the_delivery_log_keeps(rig: Rig) -> None:
    endpoint_id = rig.register()
    first, second = rig.feed.add("g1", 1), rig.feed.add("g1", 2)
    failing = {"on": True}
    rig.receiver.answer = lambda _: httpx.Response(503 if failing["on"] else 204)
    rig.run()
    failed = rig.endpoints.get(endpoint_id)
    assert failed is not None
    assert failed.last_error == "answered 503"
    failing["on"] = False
    rig.clock.now += 2.1
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert (stored.position, stored.failures, stored.last_error) == (second.position, 0, None)
    log = rig.endpoints.attempts(endpoint_id, 10)
    assert [(a.message_id, a.error) for a in reversed(log)] == [
        (first.id, "answered 503"),
        (first.id, None),
        (second.id, None),
    ]


def test_an_endpoint_is_disabled_after_its_run_of_failures_and_gets_nothing_more(
    rig: Rig,
) -> None:
    endpoint_id = rig.register()
    rig.feed.add("g1", 1)
    rig.receiver.answer = lambda _: httpx.Response(500)
    for _ in range(10):
        rig.run()
        rig.clock.now += 100
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.disabled_at is not None
    assert stored.failures == 3
    assert len(rig.receiver.ids) == 3, "max_failures 3: three attempts, then nothing"
    rig.feed.add("g1", 2)
    rig.run()
    assert len(rig.receiver.ids) == 3
    rig.receiver.answer = lambda _: httpx.Response(200)
    rig.admin.change(endpoint_id, enabled=True)
    rig.run()
    assert rig.receiver.ids[3:] == ["g1:1", "g1:2"], "enabled again: from where it stopped"


def test_an_endpoint_may_set_its_own_run_of_failures(rig: Rig) -> None:
    endpoint_id = rig.register(max_failures=1)
    rig.feed.add("g1", 1)
    rig.receiver.answer = lambda _: httpx.Response(500)
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.disabled_at is not None


def test_a_timeout_or_a_refused_connection_is_a_failure(rig: Rig) -> None:
    endpoint_id = rig.register()
    rig.feed.add("g1", 1)

    def timing_out(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    rig.receiver.answer = timing_out
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.last_error == "no answer within 1 s"

    def refusing(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    rig.receiver.answer = refusing
    rig.clock.now += 100
    rig.run()
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.last_error is not None
    assert "ConnectError" in stored.last_error
    assert [a.status for a in rig.endpoints.attempts(endpoint_id, 10)] == [None, None]


def test_an_answer_without_end_is_read_no_further_than_the_cap(rig: Rig) -> None:
    endpoint_id = rig.register()
    first = rig.feed.add("g1", 1)
    second = rig.feed.add("g1", 2)
    served: list[int] = []

    class Endless(httpx.SyncByteStream):
        def __iter__(self) -> Iterator[bytes]:
            while True:
                served.append(4096)
                yield b"x" * 4096

    rig.receiver.answer = lambda _: httpx.Response(200, stream=Endless())
    rig.run()
    # Both delivered, each answer read only to just past the cap.
    assert rig.receiver.ids == [first.id, second.id]
    assert sum(served) <= 2 * (ANSWER_BYTES + 4096)
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.position == second.position
    assert stored.last_error is None


def test_only_the_wanted_types_are_sent_and_the_position_passes_the_others(rig: Rig) -> None:
    endpoint_id = rig.register(events=["game_finished"])
    for version in range(1, 7):
        rig.feed.add("g1", version)
    finished = rig.feed.add("g1", 7, "game_finished")
    tail = rig.feed.add("g2", 1)
    rig.run()
    assert rig.receiver.ids == [finished.id]
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.position == tail.position


def test_a_leased_endpoint_is_not_claimed_by_another_sender_until_the_lease_ends(
    rig: Rig,
) -> None:
    endpoint_id = rig.register()
    rig.feed.add("g1", 1)
    now = rig.clock.now
    claimed = rig.endpoints.claim("a", now, now + 10, rig.feed.newest())
    assert claimed is not None
    assert claimed.id == endpoint_id
    assert rig.endpoints.claim("b", now + 5, now + 15, rig.feed.newest()) is None
    taken = rig.endpoints.claim("b", now + 11, now + 21, rig.feed.newest())
    assert taken is not None
    assert taken.lease_owner == "b"
    assert not rig.endpoints.advance(endpoint_id, "a", 10, now + 12, now + 22), "a lost it"
    stored = rig.endpoints.get(endpoint_id)
    assert stored is not None
    assert stored.position == 0
    assert rig.endpoints.advance(endpoint_id, "b", 10, now + 12, now + 22)


def test_redelivery_sends_again_with_the_same_ids(rig: Rig) -> None:
    endpoint_id = rig.register()
    sent = [rig.feed.add("g1", version) for version in (1, 2, 3)]
    rig.run()
    rig.admin.redeliver(endpoint_id, after=sent[0].position)
    rig.run()
    assert rig.receiver.ids == [m.id for m in sent] + [m.id for m in sent[1:]]
    rig.admin.redeliver(endpoint_id)
    rig.run()
    assert rig.receiver.ids[-1] == sent[-1].id, "from the newest attempt's event"


def test_the_log_keeps_the_newest_attempts(rig: Rig) -> None:
    endpoint_id = rig.register()
    for version in range(1, LOG_KEEP + 6):
        rig.feed.add("g1", version)
    rig.run()
    log = rig.endpoints.attempts(endpoint_id, 1000)
    assert len(log) == LOG_KEEP
    assert log[0].message_id == f"g1:{LOG_KEEP + 5}"


def test_a_removed_endpoint_gets_nothing(rig: Rig) -> None:
    endpoint_id = rig.register()
    rig.admin.remove(endpoint_id)
    rig.feed.add("g1", 1)
    rig.run()
    assert rig.receiver.ids == []
    assert rig.endpoints.attempts(endpoint_id, 10) == []


def test_the_metrics_count_each_attempt_and_each_endpoint_disabled(
    games: RummyApplication,
) -> None:
    metrics = Metrics()
    feed, receiver = Feed(), Receiver()
    endpoints = endpoints_for(games.recorder)
    sender = Sender(
        endpoints,
        feed.read,
        feed.newest,
        Policy(max_failures=2, retry_base=0.001, retry_cap=0.001),
        transport=httpx.MockTransport(receiver),
        observer=metrics,
    )
    admin = WebhookAdmin(endpoints, feed.newest, Doorbell())
    receiver.secret = admin.register("https://receiver.test/ok", after=0).secret
    feed.add("g1", 1)
    feed.add("g1", 2)
    with sender.client() as client:
        while sender.step(client, "a"):
            pass
        failing = admin.register("https://receiver.test/failing", after=0)
        receiver.secret = failing.secret
        receiver.answer = lambda _: httpx.Response(500)
        for _ in range(3):
            time.sleep(0.002)
            sender.step(client, "a")
    sample = metrics.registry.get_sample_value
    assert sample("rummy_webhook_attempts_total", {"outcome": "delivered"}) == 2
    assert sample("rummy_webhook_attempts_total", {"outcome": "failed"}) == 2
    assert sample("rummy_webhooks_disabled_total") == 1
    assert sample("rummy_webhook_attempt_duration_seconds_count") == 4


def test_saves_wake_the_senders_only_while_an_endpoint_is_enabled(rig: Rig) -> None:
    bell = rig.sender.doorbell
    rig.sender._arm()  # what an idle sender does at each poll
    assert not bell.armed
    bell.saved([object()])
    assert not bell._event.is_set(), "no endpoint: a save wakes nobody"
    endpoint_id = rig.register()
    rig.sender._arm()
    assert bell.armed
    bell.saved([object()])
    assert bell._event.is_set(), "an enabled endpoint: a save wakes the senders"
    bell.wait(0)
    rig.admin.change(endpoint_id, enabled=False)
    rig.sender._arm()
    assert not bell.armed, "a disabled endpoint is not waited for"
