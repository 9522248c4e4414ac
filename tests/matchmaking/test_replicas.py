"""Two matchers over one PostgreSQL store (two replicas) working at once over many
tickets while players cancel: every ticket matched exactly once or cancelled, one
game per match, no player seated twice, every table within its band."""

from __future__ import annotations

import random
import threading
import time

import pytest

from service.domain.rules import RuleSet
from service.matchmaking.bands import fits
from service.matchmaking.matcher import Matcher
from service.matchmaking.tickets import Matchmaking, Opened, Wanted
from service.store.match_tickets import TicketRow, tickets_for
from tests.game.stores import StoreUnderTest
from tests.matchmaking.bands_of import waiting_of
from tests.matchmaking.checks import check_matches

pytestmark = pytest.mark.postgres

TICKETS = 240
WAITED = 200.0
"""The matchers' clock runs this far ahead of the tickets': every band is at its widest
and every bots deadline past."""


def test_two_matchers_at_once_match_every_ticket_once(postgres_store: StoreUnderTest) -> None:
    rng = random.Random(32)
    replicas = [postgres_store.games(), postgres_store.games()]
    ratings = {f"p{n}": rng.uniform(1000, 2100) for n in range(TICKETS)}
    tickets = Matchmaking(
        tickets_for(replicas[0].recorder),
        lambda pseudonym, rules: ratings[pseudonym],
        lambda pseudonyms: {},
    )
    opened: list[Opened] = []
    for n, player in enumerate(ratings):
        seats = 2 if n % 3 else 3
        rules = RuleSet.from_dict({"target": 40}, players=seats)
        bots = 100 if n % 5 == 0 else None
        wanted = Wanted(player, rules, seats, max_wait_seconds=86_400, bots_after_seconds=bots)
        opened.append(tickets.open(wanted))
    matchers = [
        Matcher(tickets_for(games.recorder), games, now=lambda: time.time() + WAITED)
        for games in replicas
    ]
    failures: list[BaseException] = []

    def match(matcher: Matcher) -> None:
        try:
            idle = 0
            while idle < 3:
                idle = idle + 1 if matcher.run_once().matches == 0 else 0
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    def cancel() -> None:
        for ticket in rng.sample(opened, 40):
            tickets.cancel(ticket.ticket_id, ticket.token)

    threads = [threading.Thread(target=match, args=(m,)) for m in matchers]
    threads.append(threading.Thread(target=cancel))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failures, failures
    rows = [tickets.table.get(ticket.ticket_id) for ticket in opened]
    kept = [row for row in rows if row is not None]
    assert len(kept) == TICKETS
    counted = check_matches(replicas[0], kept)
    assert counted.get("matched", 0) > TICKETS // 2
    # What may still wait: fewer than a table of a pool that takes no bots.
    assert counted.get("waiting", 0) < 3 * 2
    _within_bands(kept)


def _within_bands(rows: list[TicketRow]) -> None:
    games: dict[str, list[TicketRow]] = {}
    for row in rows:
        if row.status == "matched" and row.game_id is not None:
            games.setdefault(row.game_id, []).append(row)
    for seated in games.values():
        at = max(row.claimed or 0.0 for row in seated)
        for a in seated:
            for b in seated:
                assert fits(waiting_of(a), waiting_of(b), at)
