"""The searching levels in Gin Rummy and 500 Rum: the time of one move.

    uv run python -m bench.search_cards --level strong --variant gin
    uv run python -m bench.search_cards --level expert --variant rummy500 --players 4

Positions come from games `basic` plays against itself (every decision of every
seat, `--moves` of them: `bench/positions.py`); the level then decides each one from the same view,
timed on its own. Printed: the move's p50 / p99 / max, and the floor measured in
the same run on the same positions: the engine building that seat's view, its
`legal` block included (`game_view`), which every bot move costs before it
thinks. The goals (issue 31): p99 at most 100 ms for `strong`, 500 ms for
`expert`.
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=sorted(LEVELS), default="strong")
    parser.add_argument("--variant", choices=("gin", "rummy500"), default="gin")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(argv)
    rules = RuleSet.from_dict({"variant": args.variant}, players=args.players)
    views, floor = basic_positions(rules, args.players, args.seed, count=args.moves)
    level = LEVELS[args.level]
    spent = timed(level, [(view, Random(number)) for number, view in enumerate(views)])
    goal = GOALS_MS[args.level]
    p99 = percentile(spent, 0.99) / 1000
    print(
        f"{args.level} in {args.variant} ({args.players} players), {len(views)} moves: "
        f"p50 {percentile(spent, 0.5) / 1000:.1f} ms, p99 {p99:.1f} ms, "
        f"max {spent[-1] / 1000:.1f} ms (goal p99 <= {goal:g} ms)"
    )
    print(
        f"floor (the seat's view with its legal moves, same positions): "
        f"p50 {percentile(floor, 0.5) / 1000:.2f} ms, p99 {percentile(floor, 0.99) / 1000:.2f} ms"
    )
    return 0 if p99 <= goal else 1


if __name__ == "__main__":
    raise SystemExit(main())
