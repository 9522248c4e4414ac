"""The Western search's time a move (`strong`, `expert`) in every Western variant.

    uv run python -m bench.western_search --positions 60

Positions are collected from two-player games `basic` plays against itself
(seeded), every decision of the seat to move (`bench/positions.py`); each level then decides each
position once, timed on its own. Printed per variant and level: p50 / p99 /
max in milliseconds against the goal (issue 31: `strong` p99 <= 100 ms,
`expert` p99 <= 500 ms), and the floor measured in the same run on the same
positions: the engine's own view of the seat with its legal moves
(`game_view`), what any bot's move costs before it thinks at all.

The search is timed in every variant, also where `strong` and `expert` play
`basic`'s moves for now (`western.SEARCHED`; marked "gated"): what it would
cost there. Also printed: the processor time's p99 ("cpu p99"), which a machine
shared with other work stretches less than the wall time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from random import Random

from bench.positions import basic_positions
from bench.timing import percentile
from service.bots.search import western
from service.bots.strategies import STRATEGIES
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.projections.views import GameView

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
    searched = western.SEARCHED
    # Timed wherever it would play, gated or not.
    western.SEARCHED = frozenset(western.GAMES)
    print(
        f"{'variant':<16} {'level':<7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'goal':>6}"
        f" {'cpu p99':>8}"
    )
    for variant in VARIANTS:
        rules = RuleSet.from_dict({"variant": variant.value}, players=2)
        found, floor = basic_positions(rules, 2, args.seed, count=args.positions)
        gated = western.game_of(rules) not in searched
        views = [(view,) for view in found]
        print(
            f"{variant.value + (' gated' if gated else ''):<16} {'floor':<7} "
            f"{percentile(floor, 0.5) / 1000:>8.2f} "
            f"{percentile(floor, 0.99) / 1000:>8.2f} {floor[-1] / 1000:>8.2f}    view+legal"
        )
        for level in levels:
            strategy = STRATEGIES[level]
            spent, worked = _times(strategy, views)
            p99 = percentile(spent, 0.99) / 1000
            goal = GOALS_MS.get(level)
            failed |= goal is not None and p99 > goal
            print(
                f"{'':<16} {level:<7} {percentile(spent, 0.5) / 1000:>8.2f} {p99:>8.2f} "
                f"{spent[-1] / 1000:>8.2f} {'' if goal is None else f'{goal:g}':>6}"
                f" {percentile(worked, 0.99) / 1000:>8.2f}"
            )
    return 1 if failed else 0


def _times(
    work: Callable[[GameView, Random], object], views: Sequence[tuple[GameView]]
) -> tuple[list[float], list[float]]:
    """The wall time and the processor time of `work(view, Random(7))` for each view,
    in microseconds, each sorted."""
    wall, cpu = [], []
    for (view,) in views:
        began, worked = time.perf_counter(), time.process_time()
        work(view, Random(7))
        wall.append((time.perf_counter() - began) * 1e6)
        cpu.append((time.process_time() - worked) * 1e6)
    return sorted(wall), sorted(cpu)


if __name__ == "__main__":
    raise SystemExit(main())
