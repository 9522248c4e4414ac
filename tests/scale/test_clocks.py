"""Turn clocks under load: two replicas on one PostgreSQL, one SIGKILLed mid-run.

Two `rummy serve` processes share a fresh schema. `GAMES` games are created
over a few seconds (on each replica, and a third by the test's own process,
which keeps no clocks: those deadlines the replicas find in the feed only),
each with a person who never moves (seat 0) against a bot, on the shortest
clock the rules allow (`turn_seconds` 5; the seat is taken over by a bot
after `TAKEOVER` timeouts, and the replicas' keepers then play the bots out).
While the first clocks run out one replica is SIGKILLed, and started again a
little later.

Afterwards, from the stored events (each game replayed save by save with
the rules' own `turn_deadline`):
- every turn the silent person had while a deadline ran was timed out, once:
  every save after the creation is a timeout (nobody else moves that seat;
  the bots move within the saves that make it their turn), made when the
  game at rest had a deadline, until the takeover left only bots (then each
  save is the waiting bot's one request); `/feed` lists each
  `turn_timed_out` once;
- none was timed out early: its stored time is at or after the deadline;
- every game finished, the cards conserved at every version, and every
  game's audit export is VERIFIED by the verifier `rummy verify` runs.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.clock import bot_move_due, turn_deadline
from service.game.commands import NewGame, NewSeat
from tests.postgres import fresh_schema, service_environment
from tests.rates import NO_RATE_LIMITS_ENV
from tests.scale.test_scale_out import _check_cards_conserved
from tests.servers import (
    Replica,
    clean_environment,
    rummy_serve,
    running_replicas,
)

ADMIN_TOKEN = "clocks-test-admin-token-0123456789"
GAMES = 40
TURN_SECONDS = 5
"""The least `turn_seconds` the rules allow."""
TAKEOVER = 2
"""Timeouts before the clock's bot takes the seat over for good."""
RULES = {"deals": 1, "exhausted": "score", "max_turns": 30}
CREATE_SECONDS = 3.0
"""Games are created over this long, so their deadlines come in waves."""
KILL_AT = 6.5
"""Seconds after the first game was created: the first clocks are running out."""
RESTART_AT = 10.0
FINISH_SECONDS = 60.0
"""How long the games may take to finish (each needs about TAKEOVER x 5 s)."""


@pytest.fixture
def store_settings() -> Iterator[Settings]:
    with fresh_schema("rummy_clocks") as settings:
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
        **NO_RATE_LIMITS_ENV,
    }
    with running_replicas(env, 2, tmp_path) as started:
        yield started


@pytest.mark.postgres
def test_two_replicas_one_killed_every_expired_turn_timed_out_once(
    replicas: list[Replica], store_settings: Settings
) -> None:
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    rules = RuleSet.from_dict(
        {**RULES, "turn_seconds": TURN_SECONDS, "timeouts_before_takeover": TAKEOVER}
    )
    # A third of them created by a process of the test's own (no keeper): the
    # replicas find those deadlines in the feed only; the others by each replica.
    games = open_games(store_settings)
    game_ids: list[UUID] = []
    start = time.monotonic()
    with httpx.Client(timeout=10.0) as client:
        for index in range(GAMES):
            if index % 3 == 2:
                created = games.create_game(
                    NewGame(
                        seats=[NewSeat(f"silent{index}"), NewSeat("bo", bot="basic")], rules=rules
                    )
                )
                game_ids.append(created.game_id)
            else:
                response = client.post(
                    f"{replicas[index % 3].url}/games",
                    json={
                        "players": [{"name": f"silent{index}"}, {"name": "bo", "bot": "basic"}],
                        "rules": rules.shown(),
                    },
                )
                assert response.status_code == 201, response.text
                game_ids.append(UUID(response.json()["game_id"]))
            time.sleep(max(0.0, start + CREATE_SECONDS * (index + 1) / GAMES - time.monotonic()))

        time.sleep(max(0.0, start + KILL_AT - time.monotonic()))
        victim = replicas[1]
        victim.kill()
        time.sleep(max(0.0, start + RESTART_AT - time.monotonic()))
        victim.start()
        victim.wait_ready()

        unfinished = set(game_ids)
        until = time.monotonic() + FINISH_SECONDS
        while unfinished and time.monotonic() < until:
            unfinished = {g for g in unfinished if not games.state(g).table.finished}
            time.sleep(0.5)
        assert not unfinished, f"{len(unfinished)} games did not finish in {FINISH_SECONDS} s"

        feed_timeouts = _feed_timeouts(client, replicas[0].url, admin)
        exports = [
            client.get(f"{replicas[0].url}/games/{game_id}/audit", headers=admin).json()
            for game_id in game_ids
        ]
    try:
        timed_out = sum(_check_game(games, game_id) for game_id in game_ids)
    finally:
        games.close()
    assert timed_out >= GAMES, "every game had its silent seat timed out"
    assert sum(feed_timeouts.values()) == timed_out, "the feed lists every timeout"
    assert set(feed_timeouts.values()) == {1}, "each (game, version) once in the feed"
    for export in exports:
        verdict = verify_export(export)
        assert verdict.outcome is Outcome.VERIFIED, verdict


def _feed_timeouts(client: httpx.Client, url: str, admin: dict[str, str]) -> Counter[Any]:
    """`turn_timed_out` events in the feed, per (game, version)."""
    found: Counter[Any] = Counter()
    after = 0
    while True:
        page = client.get(
            f"{url}/feed", params={"after": after, "limit": 1000}, headers=admin
        ).json()
        for item in page["events"]:
            if item["event"]["type"] == "turn_timed_out":
                found[(item["game_id"], item["event"]["version"])] += 1
        if not page["events"]:
            return found
        after = page["next_after"]


def _check_game(games: RummyApplication, game_id: UUID) -> int:
    """Replay one game, command by command (the events of one save share a
    `command_id`): every command after the creation is a timeout (the silent seat
    never moves; the bots move within the commands that make it their turn), each
    made when the game at rest had a deadline, at or after it; once the takeover
    left only bots, a bot's one request, made when the game at rest waited for
    that bot (the keeper's firing, docs/bots.md); the game at rest afterwards.
    The timeouts counted."""
    stored: list[Any] = list(games.events.get(game_id))
    _check_cards_conserved(stored)
    game: Any = None
    timeouts = 0
    for before, event in zip([None, *stored], stored, strict=False):
        starts_command = before is None or event.command_id != before.command_id
        where = f"{game_id} v{event.originator_version}"
        if before is not None and starts_command and turn_deadline(game) is None:
            waiting = bot_move_due(game, timedelta(0))
            assert waiting is not None, f"{where}: {event.event_type} began a save, nobody due"
            assert event.seat == waiting.seat, f"{where}: not the waiting bot's request"
        elif before is not None and starts_command:
            deadline = turn_deadline(game)
            assert event.event_type == "turn_timed_out", f"{where}: {event.event_type} began a save"
            assert deadline is not None, f"{where}: timed out with no clock running"
            assert event.timestamp >= deadline.at, (
                f"{where}: timed out {(deadline.at - event.timestamp).total_seconds():.3f} s early"
            )
            timeouts += 1
        game = event.mutate(game)
    assert game.table.finished, f"{game_id} did not finish"
    assert turn_deadline(game) is None
    return timeouts


def test_sqlite_with_two_workers_one_keeps_the_clocks(tmp_path: Path) -> None:
    """`rummy serve --workers 2` on SQLite: one worker (the lock holder) keeps the
    clocks; each game's clock fires once, and /metrics counts each timeout once
    whichever worker answers."""
    env = {
        "RUMMY_STORE": "sqlite",
        "RUMMY_SQLITE_PATH": str(tmp_path / "rummy.sqlite"),
        "RUMMY_WORKERS": "2",
        "RUMMY_LOG_LEVEL": "warning",
        "RUMMY_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    rules = {"deals": 1, "turn_seconds": TURN_SECONDS, "timeouts_before_takeover": 1}
    with rummy_serve(env) as server, httpx.Client(timeout=10.0) as client:
        game_ids = []
        for index in range(6):
            response = client.post(
                f"{server.url}/games",
                json={
                    "players": [{"name": f"silent{index}"}, {"name": "bo", "bot": "basic"}],
                    "rules": {**rules, "abandon": "forfeit"},
                },
            )
            assert response.status_code == 201, response.text
            game_ids.append(response.json()["game_id"])
        finished: Counter[str] = Counter()
        until = time.monotonic() + FINISH_SECONDS
        while len(finished) < len(game_ids) and time.monotonic() < until:
            time.sleep(0.5)
            finished = _feed_kinds(client, server.url, admin, "game_finished")
        timeouts = _feed_kinds(client, server.url, admin, "turn_timed_out")
        metrics = client.get(f"{server.url}/metrics", headers={"Connection": "close"}).text
    assert set(finished) == set(game_ids), "every clock ran out and forfeited its game"
    assert timeouts == Counter(dict.fromkeys(game_ids, 1)), "one timeout a game"
    assert f"rummy_turn_timeouts_total {float(len(game_ids))}" in metrics


def _feed_kinds(client: httpx.Client, url: str, admin: dict[str, str], kind: str) -> Counter[str]:
    """The events of one kind in the feed, per game."""
    page = client.get(f"{url}/feed", params={"limit": 1000}, headers=admin).json()
    return Counter(item["game_id"] for item in page["events"] if item["event"]["type"] == kind)
