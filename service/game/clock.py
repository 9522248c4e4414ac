"""Turn deadlines (docs/rules.md "Leaving and turn clocks"), from stored state only.

A game with `turn_seconds` gives the seat it waits for that long from the
moment it began to wait: the stored time of the event that made it the seat to
act (`Game.turn_started`, kept as the events are applied, so a rebuilt game has
the same deadline). Indian's show has one deadline for every seat still to
show, from the declaration's time. The clocks' scheduler fires a deadline
through `RummyApplication.time_out(game_id, version)`; the version makes a late
or repeated firing a no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.leaving import waits_for
from service.domain.state import Phase

if TYPE_CHECKING:
    from service.game.aggregate import Game


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the game `game_id`, still at `version`, times out `seat`."""

    game_id: UUID
    version: int
    seat: int
    at: datetime
    """In UTC."""


def turn_deadline(game: Game) -> Deadline | None:
    """The deadline of the seat `game` waits for, or None: no clock, nobody to act, or
    the seat is a bot's (which moves at once, in the command that made it its turn)."""
    table = game.table
    seconds = table.rules.turn_seconds
    hand = table.hand
    started = game.turn_started
    if seconds is None or hand is None or started is None:
        return None
    seat = hand.to_act() if hand.phase is Phase.SHOW else hand.turn
    if not waits_for(table, seat) or table.left[seat]:
        return None
    info = game.seats[seat]
    if info is None or info["bot"] is not None:
        return None
    return Deadline(game.id, game.version, seat, started + timedelta(seconds=seconds))
