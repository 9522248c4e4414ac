"""The Western search's time a move (`strong`, `expert`) in every Western variant.

    uv run python -m bench.western_search --positions 60

Positions are collected from two-player games `basic` plays against itself
(seeded), every decision of the seat to move (`bench/positions.py`); each level then decides each
position once, timed on its own. Printed per variant and level: p50 / p99 /
max in milliseconds against the goal (issue 31: `strong` p99 <= 100 ms,
`expert` p99 <= 500 ms), and the floor measured in the same run on the same
positions: the engine's own view of the seat with its legal moves
(`game_view`), what any bot's move costs before it thinks at all.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from random import Random

from bench.positions import basic_positions
from bench.timing import percentile, timed
from service.bots.strategies import STRATEGIES
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet

VARIANTS = (Variant.CLASSIC, Variant.WILD, Variant.BOATHOUSE, Variant.KNOCK, Variant.WROTHAM)
GOALS_MS = {"basic": None, "strong": 100.0, "expert": 500.0}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="positions per variant")
    parser.add_argument("--seed", default="bench-western")
    parser.add_argument("--levels", default="basic,strong,expert")
    args = parser.parse_args(argv)
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    failed = False
    print(f"{'variant':<10} {'level':<7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'goal':>6}")
    for variant in VARIANTS:
        rules = RuleSet.from_dict({"variant": variant.value}, players=2)
        found, floor = basic_positions(rules, 2, args.seed, count=args.positions)
        views = [(view,) for view in found]
        print(
            f"{variant.value:<10} {'floor':<7} {percentile(floor, 0.5) / 1000:>8.2f} "
            f"{percentile(floor, 0.99) / 1000:>8.2f} {floor[-1] / 1000:>8.2f}    view+legal"
        )
        for level in levels:
            strategy = STRATEGIES[level]
            spent = timed(lambda view, play=strategy: play(view, Random(7)), views)
            p99 = percentile(spent, 0.99) / 1000
            goal = GOALS_MS.get(level)
            failed |= goal is not None and p99 > goal
            print(
                f"{'':<10} {level:<7} {percentile(spent, 0.5) / 1000:>8.2f} {p99:>8.2f} "
                f"{spent[-1] / 1000:>8.2f} {'' if goal is None else f'{goal:g}':>6}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
