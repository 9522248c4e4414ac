"""Matchmaking with 1,000 tickets waiting, on SQLite and PostgreSQL.

Run it as a module from the project root:

    uv run python -m bench.matchmaking 2>/dev/null
    uv run python -m bench.matchmaking --stores postgres --tickets 2000 --matchers 2

For each store (a fresh temporary SQLite file, or a schema of its own on the
local PostgreSQL server, dropped afterwards) it opens the application as `rummy
serve` does (service/bootstrap.py) and:

1. **Floor**: creates `--tickets / 2` two-seat games of two vouched players with
   `create_game` alone, keyed as the matcher keys them: what seating a match
   costs at least, in the same run.
2. Opens `--tickets` two-seat classic tickets at once (players rated uniformly
   between 1450 and 1550, so the tightest band, ±100, pairs any two: what is
   timed is the service's work, not players waiting for their bands), then
   starts `--matchers`
   matchers (threads here, each with its own application on the store, as
   replicas would be; on SQLite one) polling every 50 ms, and waits until every
   ticket is matched.

It prints the time from the matchers' start (every ticket waiting) to each
ticket's seat (its match finished: its seat token readable) as p50 and p99,
the matches per second from the first claim to the last finish, and that over
the floor's games per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bench.stores import run_on_stores, store_settings
from service.bootstrap import open_games
from service.config import Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import Idempotency, NewGame, NewSeat
from service.matchmaking.matcher import Matcher
from service.matchmaking.tickets import Matchmaking, Wanted
from service.store.match_tickets import TicketTable, tickets_for

POLL_SECONDS = 0.05
RULES = RuleSet.from_dict({}, players=2)


def floor(games: RummyApplication, count: int) -> float:
    """Games a second `create_game` makes alone, seated as a match seats them."""
    started = time.perf_counter()
    for number in range(count):
        seats = [NewSeat("", player=f"floor-{number}-{seat}") for seat in range(2)]
        games.create_game(
            NewGame(seats=seats, rules=RULES, rated=True),
            Idempotency(key=f"match/floor-{number}/key", digest=f"floor-{number}"),
        )
    return count / (time.perf_counter() - started)


class Timed:
    """A ticket table that notes when each ticket's match was finished."""

    def __init__(self, table: TicketTable, finished: dict[str, float]) -> None:
        self.table = table
        self.finished = finished

    def finish(self, match_id: str, sealed: Mapping[str, str]) -> None:
        self.table.finish(match_id, sealed)
        at = time.perf_counter()
        for ticket_id in sealed:
            self.finished.setdefault(ticket_id, at)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)


def bench_store(store: Store, args: argparse.Namespace) -> list[str]:
    with store_settings(store) as settings:
        apps = [open_games(settings)]
        try:
            games_per_second = floor(apps[0], args.tickets // 2)
            rng = random.Random(32)
            ratings = {f"p{n}": rng.uniform(1450, 1550) for n in range(args.tickets)}
            tickets = Matchmaking(
                tickets_for(apps[0].recorder),
                lambda pseudonym, rules: ratings[pseudonym],
                lambda pseudonyms: {},
            )
            opened: dict[str, float] = {}
            for player in ratings:
                ticket = tickets.open(Wanted(player, RULES, seats=2, max_wait_seconds=3600))
                opened[ticket.ticket_id] = time.perf_counter()
            replicas = args.matchers if store is Store.POSTGRES else 1
            apps += [open_games(settings) for _ in range(replicas - 1)]
            finished: dict[str, float] = {}
            matchers = []
            for games in apps:
                timed = Timed(tickets_for(games.recorder), finished)
                matcher = Matcher(timed, games, poll_seconds=POLL_SECONDS)
                matchers.append(matcher)
            first_claim = time.perf_counter()
            for matcher in matchers:
                matcher.start()
            deadline = time.monotonic() + args.timeout
            while len(finished) < len(opened) and time.monotonic() < deadline:
                time.sleep(0.05)
            for matcher in matchers:
                matcher.stop()
            last = max(finished.values())
            # Every ticket waits when the matchers start: timed from then.
            waits = sorted(finished[t] - max(first_claim, opened[t]) for t in finished)
            matches = len(finished) / 2
            rate = matches / (last - first_claim)
            p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
            return [
                f"{store.value}: {len(opened)} tickets, {replicas} matcher(s), "
                f"{len(finished)} seated",
                f"  floor: create_game alone   {games_per_second:8.1f} games/s",
                f"  ticket to seat             p50 {statistics.median(waits):6.2f} s  "
                f"p99 {p99:6.2f} s (from the matchers' start, every ticket waiting)",
                f"  matches                    {rate:8.1f} /s  "
                f"({rate / games_per_second:.2f}x the floor's games/s)",
            ]
        finally:
            for games in apps:
                games.close()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--tickets", type=int, default=1000)
    parser.add_argument("--matchers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    run_on_stores(bench_store, parse_args(argv))


if __name__ == "__main__":
    main()
