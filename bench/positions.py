"""Positions for the searching levels' benches: every decision of games `basic`
plays against itself (seeded), as the view of the seat to move.

One helper for bench/western_search.py, search_cards.py and indian_search.py,
played by `service.bots.playout.play_game` (the simulator's and the arena's
game loop), which also times each view: the floor every bench prints, the
engine's own move generation (`game_view`, its `legal` block included).
"""

from __future__ import annotations

from random import Random

from service.bots.basic import play_basic
from service.bots.playout import play_game
from service.bots.strategies import Move
from service.domain.rules import RuleSet
from service.projections.views import GameView

DEFAULT_MAX_HANDS = 1000


def basic_positions(
    rules: RuleSet,
    players: int,
    seed: str,
    *,
    count: int | None = None,
    games: int | None = None,
    max_hands: int = DEFAULT_MAX_HANDS,
) -> tuple[list[GameView], list[float]]:
    """The views of the first `count` decisions (or of `games` whole games, each
    stopped after `max_hands` hands), and the µs each took to build, sorted."""
    if count is None and games is None:
        raise ValueError("say how many positions (`count`) or games (`games`)")
    views: list[GameView] = []
    floor: list[float] = []

    def basic_recorded(view: GameView, rng: Random) -> Move:
        views.append(view)
        return play_basic(view, rng)

    def timed_view(seat: int, viewed: float, decided: float) -> None:
        floor.append(viewed * 1e6)

    number = 0
    while (count is None or len(views) < count) and (games is None or number < games):
        play_game(
            rules,
            ["basic"] * players,
            [basic_recorded] * players,
            deal_seed=f"{seed}/{number}",
            bot_seeds=[f"{seed}/{number}/{seat}" for seat in range(players)],
            number=number,
            max_hands=max_hands,
            on_move=timed_view,
        )
        number += 1
    if count is not None:
        del views[count:], floor[count:]
    return views, sorted(floor)
