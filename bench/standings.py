"""The players' standings (service/standings/): games rated a second, the lag behind
the feed, and a leaderboard page beside `/health`, on SQLite and PostgreSQL.

Run it as a module from the project root:

    uv run python -m bench.standings 2>/dev/null                  # 2,000 games, both stores
    uv run python -m bench.standings --stores sqlite --games 500 2>/dev/null

For each store (a fresh temporary SQLite file, or a schema of its own on the
local PostgreSQL server, dropped afterwards) it builds the service as `rummy
serve` does (service/bootstrap.py), registers a platform, vouches for
`--players` players (assertions signed with its HMAC key, as a platform would)
and plays `--games` rated classic games of one hand (`target` 1) between two to
four of them, to their end (not timed). Then:

1. **Rated a second**: a rebuild of the standings into a table of their own
   (every creation, join and ending read from the feed and folded, each game
   rated), timed; the floor is reading the same notifications from the feed and
   turning them into events (what any projection of them pays), timed in the
   same run.
2. **Lag**: one more game is finished, and the next read's catch-up (what a
   reader waits for before the game's ratings show) is timed, `--repeat` times.
3. **A leaderboard page** (`GET /leaderboards/classic`, 20 entries) and `GET
   /health` (the floor), interleaved through litestar's test client.

It prints medians and p99s, and each over its floor.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace

from litestar.testing import TestClient

from bench.stores import run_on_stores, store_settings, timed
from service.bootstrap import bootstrap
from service.config import Store
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.players.identities import Identities
from service.standings.standings import BATCH, TOPIC_NAMES, Standings
from service.store.player_tables import KeyRow, player_tables
from service.store.postgres import read_now
from tests.game.players import play_to_end
from tests.players.signing import assertion, hmac_key
from tests.rates import NO_RATE_LIMITS

RULES = RuleSet.from_dict({"target": 1})
"""One hand a game."""


def play_rated(games: RummyApplication, pseudonyms: Sequence[str], rng: random.Random) -> None:
    seats = [NewSeat("", player=pseudonym) for pseudonym in pseudonyms]
    game_id = games.create_game(NewGame(seats=seats, rules=RULES, rated=True)).game_id
    play_to_end(games, game_id, rng)


def read_feed(games: RummyApplication) -> int:
    """The floor: the standings' notifications read and turned into events."""
    recorder = games.recorder
    position = read = 0
    while True:
        notes = read_now(recorder, position, BATCH, TOPIC_NAMES)
        if not notes:
            return read
        read += len([games.mapper.to_domain_event(note) for note in notes])
        position = notes[-1].id


def summary(values: list[float], floor: float | None = None) -> str:
    ordered = sorted(values)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    ratio = "" if floor is None else f"  {median / floor:6.1f}x floor"
    return f"median {median * 1000:8.2f} ms  p99 {p99 * 1000:8.2f} ms{ratio}"


def bench_store(store: Store, args: argparse.Namespace) -> list[str]:
    rng = random.Random(args.seed)
    with store_settings(store) as settings:
        wiring = bootstrap(replace(settings, **NO_RATE_LIMITS, clocks=False))
        games = wiring.games
        identities = Identities(player_tables(games.recorder))  # the app's own tables
        key = hmac_key()
        platform = identities.register(
            "Bench", KeyRow(kid=key.kid, alg=key.alg, material=key.body["secret"])
        ).platform_id
        pseudonyms = [
            identities.vouch(assertion(key, platform, f"p{n}", f"P{n}")).pseudonym
            for n in range(args.players)
        ]
        began = time.perf_counter()
        for _ in range(args.games):
            play_rated(games, rng.sample(pseudonyms, rng.randint(2, 4)), rng)
        lines = [
            f"{store.value}: {args.games} rated games among {args.players} players "
            f"played in {time.perf_counter() - began:.1f} s"
        ]
        floor = timed(lambda: read_feed(games))
        rebuild = Standings(games.recorder, games.mapper, "rummy_standings_bench")
        rated = timed(rebuild.catch_up)
        lines.append(
            f"  rebuild: {args.games / rated:8.0f} games rated/s ({rated:.2f} s; reading the "
            f"feed alone {floor:.2f} s: {rated / floor:.1f}x floor)"
        )
        live = Standings(games.recorder, games.mapper)
        live.catch_up()
        lags = []
        for _ in range(args.repeat):
            play_rated(games, rng.sample(pseudonyms, 2), rng)
            lags.append(timed(live.catch_up))
        lines.append(f"  lag (a read's catch-up of one game)      {summary(lags)}")
        with TestClient(wiring.app) as client:

            def get(path: str) -> None:
                assert client.get(path).status_code == 200

            health, board = [], []
            for _ in range(args.repeat):
                health.append(timed(lambda: get("/health")))
                board.append(timed(lambda: get("/leaderboards/classic?limit=20")))
        floor_health = statistics.median(health)
        lines.append(f"  GET /health (floor)                      {summary(health)}")
        lines.append(f"  GET /leaderboards/classic?limit=20       {summary(board, floor_health)}")
        games.close()
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    run_on_stores(bench_store, parse_args(argv))


if __name__ == "__main__":
    main()
