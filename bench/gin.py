"""Gin Rummy's knock: the time the server takes to reckon one knock, over random
deals: the knocker's least-deadwood arrangement of its ten cards (the knock card
out) and the defender's exact lay-off search (`gin.deadwood.declared` then
`gin.deadwood.defend`), which is all a knock computes besides the scores.

    uv run python -m bench.gin --deals 20000

prints the knock's p50 / p99 / max in microseconds, and a floor measured in the
same run on the same deals: `scoring.hand_value` of both hands (adding the cards
up, the least any count must do), with the ratio of the two p99s. The goal is a
p99 under 2 ms (issue 29). Deals full of melds and lay-offs cost the most: every
other deal is drawn from seven neighbouring ranks, where sets and runs cross and
the defender has much to lay off.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from bench.timing import percentile, timed
from service.domain.cards import FULL_DECK, Card
from service.domain.gin import deadwood
from service.domain.rules import RuleSet
from service.domain.scoring import hand_value

GOAL_MS = 2.0
Deal = tuple[list[Card], Card, list[Card]]
"""The knocker's ten cards (less the knock card), the knock card, the defender's ten."""


def deals(count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    found: list[Deal] = []
    for number in range(count):
        if number % 2:
            low = rng.randint(1, 7)
            pool = [card for card in FULL_DECK if low <= card.rank.value < low + 7]
        else:
            pool = list(FULL_DECK)
        cards = rng.sample(pool, 21)
        found.append((cards[:10], cards[10], cards[11:]))
    return found


def knock(deal: Deal, rules: RuleSet) -> object:
    knocker, _, defender = deal
    arranged = deadwood.declared(knocker, None, rules)
    return deadwood.defend(defender, arranged.melds, rules)


def floor(deal: Deal, rules: RuleSet) -> object:
    knocker, _, defender = deal
    return hand_value(knocker, rules) + hand_value(defender, rules)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args(argv)
    rules = RuleSet.from_dict({"variant": "gin"}, players=2)
    cases = deals(args.deals, args.seed)
    calls = [(deal, rules) for deal in cases]
    timed(knock, calls[:500])  # warm up
    spent = timed(knock, calls)
    base = timed(floor, calls)
    p99 = percentile(spent, 0.99)
    floor_p99 = percentile(base, 0.99)
    print(
        f"gin knock (arrangement + lay-off search), {len(cases)} deals: "
        f"p50 {percentile(spent, 0.5):.0f} µs, p99 {p99:.0f} µs, max {spent[-1]:.0f} µs "
        f"(goal p99 < {GOAL_MS:g} ms)"
    )
    print(
        f"floor (hand_value of both hands, same deals): p99 {floor_p99:.1f} µs; "
        f"ratio knock/floor at p99: {p99 / floor_p99:.0f}x"
    )
    return 0 if p99 < GOAL_MS * 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
