"""Engine throughput: complete games between random legal players, in process.

Every game is seeded, so a run is repeatable:

    uv run python bench/engine.py --games 200 --players 2

prints `engine: N games, M actions in S s: X actions/s, Y games/s`. An action
is one move a player makes (a draw, a meld, a lay-off or a discard), each
checked, recorded and followed by what happens by itself, as the service plays
it; choosing the move asks `legal_moves`, as a client offering moves would.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Table
from service.domain.turns import legal_moves

PLAY_CHANCE = 0.8
"""How often a random player that may meld or lay off does so, rather than discard."""


@dataclass(frozen=True, slots=True)
class Result:
    games: int
    actions: int
    hands: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def line(self) -> str:
        return (
            f"engine: {self.games} games, {self.actions} actions in {self.seconds:.2f} s: "
            f"{self.actions_per_second:,.0f} actions/s, {self.games_per_second:,.1f} games/s"
        )


def random_action(table: Table, rng: random.Random) -> tuple[int, Action]:
    """A random legal move for the seat to play, leaning towards melding and laying off."""
    hand = table.hand
    assert hand is not None, "a hand is in play until the game is over"
    seat = hand.turn
    moves = legal_moves(table, seat)
    if moves.draw:
        return seat, Draw(rng.choice(moves.draw))
    # In classic games these are `melds` then `lay_offs`, in that order; with wilds
    # a meld holding a wild comes with its reading (`as`), and swaps are left out
    # (under `meld_now` a swap needs a request of its own making).
    plays = [action for action in moves.actions() if isinstance(action, Meld | LayOff)]
    if plays and rng.random() < PLAY_CHANCE:
        return seat, plays[rng.randrange(len(plays))]
    return seat, Discard(rng.choice(moves.discard))


def play_game(rules: RuleSet, players: int, seed: str) -> tuple[int, int]:
    """One complete game from `seed`; returns (actions, hands)."""
    table = Table(rules=rules, players=players, seated=[True] * players)
    decks = SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)
    rng = random.Random(seed)
    start(table, decks)
    actions = 0
    while not table.finished:
        seat, action = random_action(table, rng)
        play(table, seat, (action,), decks)
        actions += 1
    return actions, table.hands_played


def run(games: int, players: int, rules: RuleSet, seed: str) -> Result:
    actions = hands = 0
    began = time.perf_counter()
    for number in range(games):
        made, dealt = play_game(rules, players, f"{seed}/{number}")
        actions += made
        hands += dealt
    return Result(games, actions, hands, time.perf_counter() - began)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--players", type=int, default=2, help="seats, 2 to 6 (default 2)")
    parser.add_argument("--seed", default="bench", help="seed of the first game (default bench)")
    parser.add_argument(
        "--rules",
        type=json.loads,
        default={},
        help="rule set as JSON, as a game is created with, e.g. '{\"recycles\": 0}'",
    )
    parser.add_argument(
        "--profile", type=int, metavar="N", default=0, help="profile, print the top N functions"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rules = RuleSet.from_dict(args.rules)
    if args.profile:
        profiler = cProfile.Profile()
        result = profiler.runcall(run, args.games, args.players, rules, args.seed)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    else:
        result = run(args.games, args.players, rules, args.seed)
    print(f"{result.hands} hands, {result.actions / result.games:.0f} actions a game")
    print(result.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
