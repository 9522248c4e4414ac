"""Engine throughput: complete games between random legal players, in process.

Every game is seeded, so a run is repeatable:

    uv run python bench/engine.py --games 200 --players 2

prints `engine: N games, M actions in S s: X actions/s, Y games/s`. An action
is one move a player makes (a draw, a meld, a lay-off, a discard, and the
variants' swaps, knocks and concealed going-out lists), each checked, recorded
and followed by what happens by itself, as the service plays it; choosing the
move asks `legal_moves`, as a client offering moves would.

    uv run python -m bench.engine --rules '{"variant": "knock"}'
    uv run python -m bench.engine --variants      # every variant, one line each
    uv run python -m bench.engine --against bf6cd05 --rounds 3

`--against REF` plays the same games with the code of git ref REF (checked
out in a temporary worktree) and this code, alternating, in one run: the
older code is the floor, and the ratio is what a change cost.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from service.domain import concealed, wilds
from service.domain.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Knock,
    LayOff,
    Meld,
    Pass,
    SubmitGroups,
    Swap,
)
from service.domain.cards import Card
from service.domain.decks import SeededDecks
from service.domain.indian import groupings
from service.domain.legal import LegalMoves
from service.domain.play import play, start
from service.domain.rule_values import SwappedWild, Variant
from service.domain.rules import RuleSet
from service.domain.state import Table, indian_of
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


def random_action(table: Table, rng: random.Random) -> tuple[int, Sequence[Action]]:
    """A random legal request for the seat to play, leaning towards melding and laying
    off. (Classic games draw the same random numbers as they always have, so the
    classic games played are the same games from one version to the next.)"""
    hand = table.hand
    assert hand is not None, "a hand is in play until the game is over"
    seat = hand.to_act()
    moves = legal_moves(table, seat)
    if table.rules.variant is Variant.INDIAN and not moves.draw:
        return seat, (_indian_play(table, seat, moves, rng),)
    if moves.can_pass and rng.random() < 0.5:  # gin's upcard offer
        return seat, (Pass(),)
    if moves.draw:
        return seat, (Draw(rng.choice(moves.draw)),)
    if moves.can_go_out:
        request = concealed.going_out_request(table, seat)
        if request is not None:
            return seat, request
    # `melds` then `lay_offs`, as ever; with wilds a meld holding a wild goes with its
    # reading (`as`) and wild lay-offs with theirs. Swaps only where the wild taken is
    # free (under `meld_now` a swap needs a request of its own making); a knock ends
    # the hand, so it is offered once, not once per card.
    plays: list[Action] = [Meld(cards) for cards in moves.melds]
    if moves.meld_readings:
        plays = [Meld(cards, as_) for cards, as_ in moves.meld_readings]
        plays.extend(Meld(cards) for cards in moves.melds if not _holds_wild(cards, table))
    plays.extend(LayOff(card, meld_id) for card, meld_id in moves.lay_offs)
    plays.extend(LayOff(card, meld_id, as_) for card, meld_id, as_ in moves.wild_lay_offs)
    if table.rules.swapped_wild is SwappedWild.FREE:
        plays.extend(Swap(meld_id, card) for meld_id, card, _ in moves.swaps)
    plays.extend(Knock(card) for card in moves.knock[:1])
    if plays and rng.random() < PLAY_CHANCE:
        return seat, (plays[rng.randrange(len(plays))],)
    return seat, (Discard(rng.choice(moves.discard)),)


def _indian_play(table: Table, seat: int, moves: LegalMoves, rng: random.Random) -> Action:
    """Indian Rummy, after the draw: declare when the engine's search finds a valid
    declaration (else nobody would ever win a deal), otherwise a random discard; in
    the show, the best groups. The search is part of what a served game costs."""
    hand = table.hand
    assert hand is not None, "a hand is in play"
    wild = indian_of(hand).wild
    full_count = table.rules.full_count
    assert full_count is not None, "an Indian game"
    held = hand.hands[seat]
    if moves.can_submit:
        return SubmitGroups(groupings.best_grouping(held, wild, full_count).groups)
    taken = hand.taken
    best = groupings.best_declaration(held, wild, full_count, keep=taken)
    if best.valid:
        return Declare(best.finish, best.groups)
    return Discard(rng.choice(moves.discard))


def _holds_wild(cards: Sequence[Card], table: Table) -> bool:
    return any(wilds.is_wild(card, table.rules) for card in cards)


def play_game(rules: RuleSet, players: int, seed: str) -> tuple[int, int]:
    """One complete game from `seed`; returns (actions, hands)."""
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    decks = _decks(rules, players, seed)
    rng = random.Random(seed)
    start(table, decks)
    actions = 0
    while not table.over:
        seat, request = random_action(table, rng)
        play(table, seat, request, decks)
        actions += len(request)
    return actions, table.hands_played


def _decks(rules: RuleSet, players: int, seed: str) -> SeededDecks:
    return SeededDecks(seed=seed, client_seeds=("",) * players, pack=rules.pack)


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
    parser.add_argument("--variants", action="store_true", help="run each variant's preset in turn")
    parser.add_argument(
        "--against", metavar="REF", help="also run git ref REF's code, alternating with this"
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternations with --against")
    return parser.parse_args(argv)


VARIANT_RULES: dict[str, dict[str, object]] = {
    "classic": {},
    "wild": {"variant": "wild"},
    "wild, deuces": {"variant": "wild", "wild_rank": "2", "jokers": 2},
    "boathouse": {"variant": "boathouse"},
    "knock": {"variant": "knock"},
    "wrotham": {"variant": "wrotham"},
    "indian": {"variant": "indian"},
    "indian, pool 101": {"variant": "indian", "format": "pool_101"},
    "gin": {"variant": "gin"},
    "rummy500": {"variant": "rummy500"},
}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.against:
        return _against(args)
    if args.variants:
        for name, given in VARIANT_RULES.items():
            result = run(
                args.games, args.players, RuleSet.from_dict(given, players=args.players), args.seed
            )
            print(f"{name:>14}: {result.line()}")
        return 0
    rules = RuleSet.from_dict(args.rules, players=args.players)
    if args.profile:
        profiler = cProfile.Profile()
        result = profiler.runcall(run, args.games, args.players, rules, args.seed)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    else:
        result = run(args.games, args.players, rules, args.seed)
    print(f"{result.hands} hands, {result.actions / result.games:.0f} actions a game")
    print(result.line())
    return 0


def _against(args: argparse.Namespace) -> int:
    """This code and `args.against`'s, alternating, the same games each time."""
    here = Path(__file__).resolve().parents[1]
    common = ["--games", str(args.games), "--players", str(args.players), "--seed", args.seed]
    common += ["--rules", json.dumps(args.rules)]
    with tempfile.TemporaryDirectory() as scratch:
        old = Path(scratch) / "old"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(old), args.against],
            check=True,
        )
        try:
            rates: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.rounds):
                for label, root in (("old", old), ("new", here)):
                    line = _run_in(root, common)
                    rate = float(re.search(r"([\d,]+) actions/s", line)[1].replace(",", ""))  # type: ignore[index]
                    rates[label].append(rate)
                    print(f"{label} ({args.against if label == 'old' else 'this tree'}): {line}")
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(old)], check=True
            )
    best_old, best_new = max(rates["old"]), max(rates["new"])
    print(f"floor: {args.against}, best of {args.rounds}: {best_old:,.0f} actions/s")
    print(f"this tree, best of {args.rounds}: {best_new:,.0f} actions/s")
    print(f"ratio: {best_new / best_old:.3f} of the floor's speed")
    return 0


def _run_in(root: Path, arguments: list[str]) -> str:
    environment = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.engine", *arguments],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


if __name__ == "__main__":
    raise SystemExit(main())
