"""Replaces eventsourcing's `project_aggregate`: a 166-event game rebuilt in 0.64 ms, not 5.24.

The figures are docs/performance.md's "Our projector, not the library's". The
library's projector asserts a runtime-checkable Protocol (`CanMutateProtocol`) on
every event it applies, which costs more than applying the event; every stored
event of a game is one of ours (`service.game.events`), which has `mutate`.
tests/game/test_fast_project.py holds it to the library's own projector: the same
game from the same events, and every event class passing the check it skips.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.game.aggregate import Game
from service.game.event_records import GameEvent


def project_game(game: Game | None, events: Iterable[GameEvent]) -> Game | None:
    """`game` (None: not yet created) with `events` applied in order, as the library's
    `project_aggregate` makes it."""
    for event in events:
        game = event.mutate(game)
    return game
