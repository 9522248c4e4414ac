"""Matchmaking as the tests drive it: the service on the store under test with a time
the test sets, the players' platform, tickets opened over HTTP, and the matcher run
a pass at a time (`run_once`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from service.bootstrap import Wiring, bootstrap, matcher_for
from service.matchmaking.matcher import Matcher
from tests.game.stores import StoreUnderTest
from tests.players.service import ADMIN_TOKEN, Platform, bearer, register
from tests.rates import NO_RATE_LIMITS
from tests.set_time import SetTime


@dataclass
class Served:
    wiring: Wiring
    client: TestClient[Litestar]
    platform: Platform
    matcher: Matcher
    time: SetTime

    def wait(self, seconds: float) -> None:
        self.time.now += timedelta(seconds=seconds)

    def open(self, player: str, **fields: Any) -> Any:
        body = {"player_assertion": self.platform.asserts(player, player.title()), **fields}
        body.setdefault("variant", "classic")
        body.setdefault("seats", 2)
        return self.client.post("/matchmaking", json=body)

    def ticket(self, player: str, **fields: Any) -> tuple[str, str]:
        """A ticket opened for `player`: its id and token."""
        answer = self.open(player, **fields)
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["status"] == "waiting"
        return body["ticket_id"], body["token"]

    def read(self, ticket: tuple[str, str]) -> Any:
        answer = self.client.get(f"/matchmaking/{ticket[0]}", headers=bearer(ticket[1]))
        assert answer.status_code == 200, answer.text
        return answer.json()


def settings_for(store: StoreUnderTest) -> Any:
    return replace(
        store.settings,
        admin_token=ADMIN_TOKEN,
        webhook_senders=0,
        bot_pace_ms=0,
        clocks=False,
        **NO_RATE_LIMITS,
    )


@contextmanager
def served(store: StoreUnderTest) -> Iterator[Served]:
    time = SetTime()
    settings = settings_for(store)
    wiring = bootstrap(settings, now=time)
    store.all_games.append(wiring.games)
    matcher = matcher_for(replace(settings, clocks=True), wiring.games, wiring.matchmaking)
    assert matcher is not None
    with TestClient(wiring.app) as client:
        yield Served(wiring, client, register(client), matcher, time)
