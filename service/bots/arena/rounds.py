"""One round of the arena: one deal, played once with the level under test in
each seat, every other seat the other level.

At two players that is the deal played twice, mirrored (the level under test
first, then second, each time with the other's cards); at N players, N games
with the level under test moving round the table. A round is a pure function
of its job (the deal's seed, the levels, the rules), so it can run in any
process in any order and still come out the same; only its clock readings
differ.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from service.bots.playout import Finish, play_game
from service.bots.search.budget import SCALE_VARIABLE
from service.bots.strategies import strategy
from service.domain.places import finishing_places
from service.domain.rules import RuleSet


@dataclass(frozen=True, slots=True)
class RoundJob:
    """What a worker needs to play a round (plain data: it travels pickled)."""

    rules: dict[str, Any]
    players: int
    tester: str
    other: str
    deal_seed: str
    max_hands: int


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a round, as the level under test saw it."""

    seat: int
    """The seat the level under test had."""
    winner: int | None
    place: float
    """Its finishing place, 1 the winner (ties share the mean of their places)."""
    hands: int

    def score(self, players: int) -> float:
        """1 a win, 0 a loss; an unfinished game is a draw: 1/N, the even share."""
        if self.winner is None:
            return 1 / players
        return 1.0 if self.winner == self.seat else 0.0


@dataclass(slots=True)
class RoundResult:
    games: list[GameOutcome]
    moves: dict[str, list[float]] = field(default_factory=dict)
    """Seconds each level's strategy took per move."""
    floors: dict[str, list[float]] = field(default_factory=dict)
    """Seconds each of those moves' views took: the engine's own move generation."""
    seconds: float = 0.0
    """The round's wall time in its worker."""
    cpu_seconds: float = 0.0
    """The processor time its worker spent on it: a core's work, whatever else
    shares the machine (wall time stretches when the cores are busy)."""

    def score(self, players: int) -> float:
        return sum(game.score(players) for game in self.games) / len(self.games)


def play_arena_round(job: RoundJob) -> RoundResult:
    """Play the round `job` describes."""
    began = time.perf_counter()
    worked = time.process_time()
    rules = RuleSet.from_dict(job.rules, players=job.players)
    moves: dict[str, list[float]] = defaultdict(list)
    floors: dict[str, list[float]] = defaultdict(list)
    games = []
    for seat in range(job.players):
        names = [job.tester if at == seat else job.other for at in range(job.players)]

        def watch(mover: int, viewed: float, decided: float, names: list[str] = names) -> None:
            moves[names[mover]].append(decided)
            floors[names[mover]].append(viewed)

        finish = play_game(
            rules,
            names,
            [strategy(name) for name in names],
            # The same deal every game of the round: only the seating changes.
            deal_seed=job.deal_seed,
            bot_seeds=[f"{job.deal_seed}/{seat}/{at}" for at in range(job.players)],
            max_hands=job.max_hands,
            on_move=watch,
        )
        games.append(
            GameOutcome(
                seat=seat, winner=finish.winner, place=place_of(finish, seat), hands=finish.hands
            )
        )
    return RoundResult(
        games=games,
        moves=dict(moves),
        floors=dict(floors),
        seconds=time.perf_counter() - began,
        cpu_seconds=time.process_time() - worked,
    )


def place_of(finish: Finish, seat: int) -> float:
    """`seat`'s finishing place (service/domain/places.py): 1 for the winner, the
    others by their final totals; in an unfinished game everyone shares them all."""
    return finishing_places(finish.winner, finish.totals)[seat]


def use_budget_scale(scale: float) -> None:
    """Scale every search budget in this process (a worker's initializer)."""
    os.environ[SCALE_VARIABLE] = repr(scale)


@contextmanager
def budget_scale(scale: float) -> Iterator[None]:
    """Scale every search budget in this process for the block, then put it back."""
    before = os.environ.get(SCALE_VARIABLE)
    use_budget_scale(scale)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SCALE_VARIABLE, None)
        else:
            os.environ[SCALE_VARIABLE] = before
