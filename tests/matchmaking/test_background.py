"""The matcher as the service runs it: a thread started with the app where the clocks
are kept; on SQLite one process of the file matches; a webhook endpoint may ask for
`match_found`."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from litestar.testing import TestClient

from service.bootstrap import bootstrap, matcher_for
from service.config import Settings, Store
from tests.game.stores import StoreUnderTest
from tests.matchmaking.service import served, settings_for
from tests.players.service import ADMIN, bearer, register


def test_the_app_s_matcher_seats_tickets_without_being_asked(store: StoreUnderTest) -> None:
    settings = replace(settings_for(store), clocks=True, matchmaking_poll_ms=20)
    wiring = bootstrap(settings)
    store.all_games.append(wiring.games)
    assert wiring.matcher is not None
    with TestClient(wiring.app) as client:
        platform = register(client)
        tickets = []
        for player in ("ann", "bob"):
            body = {"player_assertion": platform.asserts(player), "variant": "knock", "seats": 2}
            answer = client.post("/matchmaking", json=body)
            assert answer.status_code == 201, answer.text
            tickets.append(answer.json())
        statuses: set[str] = set()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            statuses = {
                client.get(
                    f"/matchmaking/{ticket['ticket_id']}", headers=bearer(ticket["token"])
                ).json()["status"]
                for ticket in tickets
            }
            if statuses == {"matched"}:
                break
            time.sleep(0.05)
        assert statuses == {"matched"}


def test_on_sqlite_one_process_of_the_file_matches(tmp_path: Path) -> None:
    settings = Settings(store=Store.SQLITE, sqlite_path=str(tmp_path / "rummy.sqlite"))
    with_clocks = replace(settings, clocks=True)
    first = bootstrap(settings)
    second = bootstrap(settings)
    try:
        matchers = [
            matcher_for(with_clocks, wiring.games, wiring.matchmaking) for wiring in (first, second)
        ]
        assert matchers[0] is not None
        assert matchers[1] is not None
        assert matchers[0].matches_here()
        assert not matchers[1].matches_here()
        assert matchers[0].matches_here(), "it keeps matching"
    finally:
        first.games.close()
        second.games.close()


def test_an_endpoint_may_ask_for_match_found_only(store: StoreUnderTest) -> None:
    with served(store) as service:
        answer = service.client.post(
            "/webhooks",
            json={"url": "https://example.org/hook", "events": ["match_found"]},
            headers=ADMIN,
        )
        assert answer.status_code == 201, answer.text
        assert answer.json()["events"] == ["match_found"]
