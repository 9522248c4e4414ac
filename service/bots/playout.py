"""One whole game between bot strategies, in process: the machinery `rummy
simulate` and `rummy arena` share.

No event store and no HTTP: the game is a domain `Table` played with the
domain's own `play`, and every bot decides from the same player view the
service would give its seat. Whoever calls says what to count, by watching
the events (`on_event`) and the moves (`on_move`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from random import Random
from uuid import UUID

from service.bots.strategies import Strategy, request_of
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.events import Event, GameFinished
from service.domain.fairness import DealMode
from service.domain.hand_chain import SeedScheme
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.projections.views import Viewer, game_view

DEFAULT_MAX_HANDS = 1000
"""A game still going after this many hands is stopped and counted unfinished."""


@dataclass(frozen=True, slots=True)
class _Seat:
    """A seat of a played-out game: its name, and its strategy."""

    name: str
    bot: str | None
    pseudonym: str | None = None
    """Never a vouched-for player: a played-out game seats nobody a platform knows."""


@dataclass(slots=True)
class _Snapshot:
    """The game as `game_view` reads it (a `GameSnapshot`)."""

    game_id: UUID
    table: Table
    seats: tuple[_Seat, ...]
    version: int = 0
    seed_commitment: str = ""
    deal_mode: DealMode = DealMode.EXPLICIT
    """The simulator chooses every game's seed."""
    turn_deadline: datetime | None = None
    """The simulator has no clock."""
    seed_scheme: SeedScheme = SeedScheme.GAME
    """The simulator deals every game from one seed of its own (`SeededDecks`)."""
    rules_digest: str = ""
    hand_seeds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Finish:
    """How a game ended: its winner (None if it was stopped or aborted), the final
    totals, and the hands played."""

    winner: int | None
    totals: tuple[int, ...]
    hands: int


MoveWatcher = Callable[[int, float, float], None]
"""Told of each move: the seat, the seconds its view took (the engine's own move
generation, the `legal` block included) and the seconds its strategy took."""


def play_game(
    rules: RuleSet,
    names: Sequence[str],
    strategies: Sequence[Strategy],
    *,
    deal_seed: str,
    bot_seeds: Sequence[str],
    number: int = 0,
    max_hands: int = DEFAULT_MAX_HANDS,
    on_event: Callable[[Event], None] | None = None,
    on_move: MoveWatcher | None = None,
) -> Finish:
    """Play one whole game: seat i is `names[i]` playing `strategies[i]` with a
    generator seeded by `bot_seeds[i]`; the deck comes from `deal_seed` alone, so
    the same seed deals the same cards to the same seats whoever sits there."""
    players = len(names)
    table = Table(rules=rules, seat_count=players, seated=[True] * players)
    snapshot = _Snapshot(
        game_id=UUID(int=number),
        table=table,
        seats=tuple(_Seat(name=f"{name} {seat}", bot=name) for seat, name in enumerate(names)),
    )
    decks = SeededDecks(seed=deal_seed, client_seeds=("",) * players, pack=rules.pack)
    generators = [Random(seed) for seed in bot_seeds]
    winner: list[int] = []

    def record(event: Event) -> None:
        apply(table, event)
        snapshot.version += 1
        if isinstance(event, GameFinished):
            winner.append(event.winner)
        if on_event is not None:
            on_event(event)

    start(table, decks, record)
    clock = time.perf_counter
    while table.status is Status.PLAYING and table.hands_played < max_hands:
        assert table.hand is not None
        seat = table.hand.to_act()
        began = clock()
        view = game_view(snapshot, Viewer(seat=seat))
        viewed = clock()
        move = strategies[seat](view, generators[seat])
        decided = clock()
        if on_move is not None:
            on_move(seat, viewed - began, decided - viewed)
        play(table, seat, request_of(move), decks, record)
    return Finish(
        winner=winner[0] if winner else None,
        totals=tuple(table.totals),
        hands=table.hands_played,
    )
