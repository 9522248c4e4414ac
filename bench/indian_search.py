"""Indian Rummy's searching levels (`strong`, `expert`): the time of one move, over
the positions of whole games, with the engine's own view and `legal` as the floor
measured in the same run.

    uv run python -m bench.indian_search --games 6 --format points

Positions come from games `basic` plays against itself (2 players, the format
given; `bench/positions.py`); at each, the seat to move's view is made
(`game_view`, whose `legal` is the engine's move generation: the floor), then
each level decides from it. The
goal (issue 31): p99 of `strong` at most 100 ms, of `expert` at most 500 ms.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from random import Random

from bench.positions import basic_positions
from bench.timing import percentile, timed
from service.bots.search import play_expert, play_strong
from service.domain.rules import RuleSet

GOALS_MS = {"strong": 100.0, "expert": 500.0}
LEVELS = {"strong": play_strong, "expert": play_expert}
MAX_DEALS = 3
"""Deals of a game (pool and deals formats) the positions are taken from."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games of positions (default 6)")
    parser.add_argument("--format", default="points", help="the Indian format (default points)")
    parser.add_argument("--seed", default="bench", help="seed of the games")
    args = parser.parse_args(argv)
    rules = RuleSet.from_dict({"variant": "indian", "format": args.format}, players=2)
    views, floor = basic_positions(rules, 2, args.seed, games=args.games, max_hands=MAX_DEALS)
    print(f"indian search, {len(views)} positions of {args.games} games ({args.format}):")
    floor_p99 = percentile(floor, 0.99)
    worst = 0.0
    for name, level in LEVELS.items():
        spent = timed(lambda view, level=level: level(view, Random(0)), [(v,) for v in views])
        p50, p99 = percentile(spent, 0.5) / 1e3, percentile(spent, 0.99) / 1e3
        print(
            f"  {name}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {spent[-1] / 1e3:.1f} ms "
            f"(goal p99 <= {GOALS_MS[name]:g} ms); p99 {p99 * 1e3 / floor_p99:.0f}x the floor's"
        )
        worst = max(worst, p99 / GOALS_MS[name])
    print(f"floor (the engine's view of the seat, its `legal` included): p99 {floor_p99:.1f} µs")
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
