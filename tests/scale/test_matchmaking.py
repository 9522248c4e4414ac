"""Matchmaking under load: two replicas on one PostgreSQL, one SIGKILLed mid-run.

Two `rummy serve` processes share a fresh schema, each matching every 100 ms.
`TICKETS` two-seat tickets are opened over HTTP by as many players (one
platform), sent to the replicas in turn by a few client threads; a tenth of
them are cancelled soon after (a ticket left alone gets a bot after 15 s). Half
way through the opening, one replica is SIGKILLed (its matches in flight are
left to the other after the lease) and started again a little later.

Afterwards, from the tickets and the stored events (tests/matchmaking/checks.py):
every ticket matched exactly once or cancelled (none left waiting), each match's
game the one game in the store made for it (no game made twice, none orphaned
by the kill), no player seated twice, each ticket's seat token opening its own
seat (a sample, read through the replicas).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from psycopg import sql

from service.bootstrap import open_games
from service.config import Settings
from service.matchmaking.matcher import LEASE_SECONDS
from service.store.match_tickets import TABLE, tickets_for
from tests.matchmaking.checks import check_matches
from tests.players.signing import assertion, hmac_key
from tests.postgres import connect, fresh_schema, service_environment
from tests.rates import NO_RATE_LIMITS_ENV
from tests.servers import Replica, clean_environment, running_replicas

pytestmark = pytest.mark.postgres

ADMIN_TOKEN = "matchmaking-scale-admin-token-0123456789"
TICKETS = 1000
CLIENTS = 4
CANCEL_EVERY = 10
"""Every tenth ticket is cancelled right after it was opened (if still waiting)."""
BOTS_AFTER = 15
RESTART_AFTER = 3.0
SETTLE_SECONDS = LEASE_SECONDS + 60
"""How long every ticket may take to be settled after the last was opened: a match
the kill left in flight waits for the lease."""


@pytest.fixture
def store_settings() -> Iterator[Settings]:
    with fresh_schema("rummy_match") as settings:
        yield settings


@pytest.fixture
def replicas(store_settings: Settings, tmp_path: Path) -> Iterator[list[Replica]]:
    env = {
        **clean_environment(),
        **service_environment(store_settings),
        "RUMMY_HOST": "127.0.0.1",
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
        "RUMMY_LOG_LEVEL": "warning",
        "POSTGRES_POOL_SIZE": "4",
        "RUMMY_SHUTDOWN_TIMEOUT": "2",
        "RUMMY_CLOCKS": "on",
        "RUMMY_MATCHMAKING_POLL_MS": "100",
        "RUMMY_WEBHOOK_SENDERS": "0",
        **NO_RATE_LIMITS_ENV,
    }
    with running_replicas(env, 2, tmp_path) as started:
        yield started


def test_two_replicas_one_killed_every_ticket_matched_once_or_cancelled(
    replicas: list[Replica], store_settings: Settings
) -> None:
    key = hmac_key()
    with httpx.Client(timeout=15.0) as client:
        registered = client.post(
            f"{replicas[0].url}/platforms",
            json={"name": "Load", "key": key.body},
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        )
        assert registered.status_code == 201, registered.text
        platform_id = registered.json()["platform_id"]
        opened: dict[int, tuple[str, str]] = {}
        lock = threading.Lock()
        turn = itertools.count()

        def open_one(number: int) -> None:
            body = {
                "player_assertion": assertion(key, platform_id, f"player{number}", "P"),
                "variant": "classic",
                "rules": {"target": 40},
                "seats": 2,
                "max_wait_seconds": 3600,
                # A ticket left alone by the cancels is seated with a bot.
                "bots_after_seconds": BOTS_AFTER,
            }
            for _ in range(20):  # a replica killed or starting: the other one
                url = replicas[next(turn) % 2].url
                try:
                    answer = client.post(f"{url}/matchmaking", json=body)
                except httpx.TransportError:
                    continue
                if answer.status_code == 201:
                    ticket = answer.json()
                    with lock:
                        opened[number] = (ticket["ticket_id"], ticket["token"])
                    if number % CANCEL_EVERY == 0:
                        _cancel(client, url, opened[number])
                    return
                # A 409 after a lost reply: the ticket was stored; found below.
                assert answer.status_code in (409, 503), answer.text
                if answer.status_code == 409:
                    return
            raise AssertionError(f"ticket {number} could not be opened")

        victim = replicas[1]
        with ThreadPoolExecutor(CLIENTS) as pool:
            first = list(pool.map(open_one, range(TICKETS // 2)))
            victim.kill()
            restart = threading.Timer(RESTART_AFTER, victim.start)
            restart.start()
            rest = list(pool.map(open_one, range(TICKETS // 2, TICKETS)))
            restart.join()
        assert len(first) + len(rest) == TICKETS
        victim.wait_ready()

        games = open_games(store_settings)
        try:
            table = tickets_for(games.recorder)
            deadline = time.monotonic() + SETTLE_SECONDS
            while True:
                rows = [
                    row
                    for ticket_id in _all_tickets(store_settings)
                    if (row := table.get(ticket_id))
                ]
                active = [row for row in rows if row.status in ("waiting", "matching")]
                if not active or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert not active, f"{len(active)} tickets not settled in {SETTLE_SECONDS} s"
            assert len(rows) == TICKETS, "one ticket per player, lost replies included"
            assert {ticket_id for ticket_id, _ in opened.values()} <= {r.ticket_id for r in rows}
            counted = check_matches(games, rows)
            assert set(counted) <= {"matched", "cancelled"}
            assert counted["matched"] >= TICKETS * (CANCEL_EVERY - 1) // CANCEL_EVERY - 1
            _tokens_open_their_seats(client, replicas, list(opened.values())[:: TICKETS // 20])
        finally:
            games.close()


def _all_tickets(settings: Settings) -> list[str]:
    table = sql.Identifier(settings.postgres_schema, TABLE)
    with connect(settings) as conn:
        found = conn.execute(sql.SQL("SELECT ticket_id FROM {}").format(table)).fetchall()
    return [row[0] for row in found]


def _cancel(client: httpx.Client, url: str, ticket: tuple[str, str]) -> None:
    # The replica died: the ticket is matched or waits; both are settled below.
    with suppress(httpx.TransportError):
        client.delete(f"{url}/matchmaking/{ticket[0]}", headers=_bearer(ticket[1]))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tokens_open_their_seats(
    client: httpx.Client, replicas: list[Replica], tickets: list[tuple[str, str]]
) -> None:
    for number, (ticket_id, token) in enumerate(tickets):
        url = replicas[number % 2].url
        view: Any = client.get(f"{url}/matchmaking/{ticket_id}", headers=_bearer(token)).json()
        if view["status"] != "matched":
            continue
        game = client.get(f"{url}/games/{view['game_id']}", headers=_bearer(view["token"]))
        assert game.status_code == 200, game.text
        assert game.json()["my_seat"] == view["seat"]
