"""The Western search's time a move (`strong`, `expert`) in every Western variant.

    uv run python -m bench.western_search --positions 60

Positions are collected from two-player games `basic` plays against itself
(seeded), every decision of the seat to move; each level then decides each
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

from bench.timing import percentile, timed
from service.bots.strategies import STRATEGIES, request_of
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.projections.views import GameView, Viewer, game_view
from tests.bots.tables import snapshot

VARIANTS = (Variant.CLASSIC, Variant.WILD, Variant.BOATHOUSE, Variant.KNOCK, Variant.WROTHAM)
GOALS_MS = {"basic": None, "strong": 100.0, "expert": 500.0}


def positions(variant: Variant, count: int, seed: str) -> list[tuple[Table, int]]:
    """Tables (copies) at `count` decisions of games `basic` plays against itself."""
    rules = RuleSet.from_dict({"variant": variant.value}, players=2)
    found: list[tuple[Table, int]] = []
    game = 0
    while len(found) < count:
        table = Table(rules=rules, seat_count=2, seated=[True, True])
        decks = SeededDecks(seed=f"{seed}/{game}", client_seeds=("", ""), pack=rules.pack)
        start(table, decks)
        rng = Random(f"{seed}/{game}")
        while table.status is Status.PLAYING and len(found) < count:
            assert table.hand is not None
            seat = table.hand.to_act()
            found.append((table.copy(), seat))
            move = STRATEGIES["basic"](_view(table, seat), rng)
            play(table, seat, request_of(move), decks)
        game += 1
    return found


def _view(table: Table, seat: int) -> GameView:
    return game_view(snapshot(table), Viewer(seat=seat))


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
        cases = positions(variant, args.positions, args.seed)
        floor = timed(_view, cases)
        views = [(_view(table, seat),) for table, seat in cases]
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
