"""500 Rum's `legal` with a deep spread pile: the time to list a seat's legal moves
at the start of its turn when the discard pile holds 40 cards, so every count from
1 to 40 is judged (is the called card usable?).

    uv run python -m bench.rummy500 --tables 2000

prints `legal`'s p50 / p99 / max in microseconds and a floor measured in the same
run on the same tables: the Western family's `legal` for the same seat (the draw
sources only: what a turn's `legal` costs without the spread pile), with the ratio
of the two p99s. The goal is a p99 under 2 ms (issue 29). The tables come from
random play at five to eight seats (two packs, so the stock lasts) that draws
from the stock and melds and lays off, until the pile holds 40 cards.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from bench.timing import percentile, timed
from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source, Table
from service.domain.turns import legal_moves
from service.domain.western import turn as western

PILE = 40
GOAL_MS = 2.0


def deep_table(seed: str, rng: random.Random) -> Table | None:
    """A 500 Rum table at a draw whose pile holds `PILE` cards, or None if the hand
    ended first."""
    players = rng.randint(5, 8)
    rules = RuleSet.from_dict({"variant": "rummy500"}, players=players)
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
    start(table, decks)
    while table.hand is not None and table.hand.number == 1:
        hand = table.hand
        seat = hand.turn
        if hand.phase is Phase.DRAW and len(hand.discard) >= PILE:
            return table
        moves = legal_moves(table, seat)
        action: Action
        if moves.draw:
            action = Draw(Source.STOCK)
        else:
            plays: list[Action] = [Meld(cards) for cards in moves.melds]
            plays.extend(LayOff(card, meld_id) for card, meld_id in moves.lay_offs)
            if plays and rng.random() < 0.3:
                action = rng.choice(plays)
            else:
                action = Discard(rng.choice(moves.discard))
        play(table, seat, [action], decks)
    return None


def _turn(table: Table) -> int:
    assert table.hand is not None
    return table.hand.turn


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tables: list[Table] = []
    number = 0
    while len(tables) < args.tables:
        found = deep_table(f"bench-500/{number}", rng)
        number += 1
        if found is not None:
            tables.append(found)
    counts = [len(legal_moves(table, table.hand.turn).pile_counts) for table in tables]  # type: ignore[union-attr]
    calls = [(table, _turn(table)) for table in tables]
    timed(legal_moves, calls[:200])  # warm up
    spent = timed(legal_moves, calls)
    floor = timed(western.legal_moves, calls)
    p99 = percentile(spent, 0.99)
    floor_p99 = percentile(floor, 0.99)
    print(
        f"500 Rum legal with a {PILE}-card pile, {len(tables)} tables "
        f"(counts offered: mean {sum(counts) / len(counts):.1f}, max {max(counts)}): "
        f"p50 {percentile(spent, 0.5):.0f} µs, p99 {p99:.0f} µs, max {spent[-1]:.0f} µs "
        f"(goal p99 < {GOAL_MS:g} ms)"
    )
    print(
        f"floor (the Western legal, same tables): p99 {floor_p99:.1f} µs; "
        f"ratio legal/floor at p99: {p99 / floor_p99:.0f}x"
    )
    return 0 if p99 < GOAL_MS * 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
