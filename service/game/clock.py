"""Turn deadlines (docs/rules.md "Leaving and turn clocks"), from stored state only.

A game with `turn_seconds` gives the seat it waits for that long from the
moment it began to wait: the stored time of the event that made it the seat to
act (`Game.turn_started`, kept as the events are applied, so a rebuilt game has
the same deadline). Indian's show has one deadline for every seat still to
show, from the declaration's time. The clocks' scheduler fires a deadline
through `RummyApplication.time_out(game_id, version)`; the version makes a late
or repeated firing a no-op.

With a time bank (`time_bank_seconds`) a seat's deadline is the turn's clock and
then its bank as it stood when the turn began (`Game.turn_banks`): one deadline
per turn, from stored state, whatever the seat spends of it in between. What it
spends is the application's clock's to find (`bank_to_spend`) and a stored
event's to keep (`time_bank_used`), so a replay never reads a clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum
from typing import TYPE_CHECKING
from uuid import UUID

from service.domain.leaving import acting_seats, people_to_move, waits_for
from service.domain.state import Phase

if TYPE_CHECKING:
    from service.game.aggregate import Game


class Fired(IntEnum):
    """What a firing of the clocks' keeper recorded (`RummyApplication.fire`). A
    `bool` reads as one: True is a timeout."""

    NOTHING = 0
    """The game had moved on, or nothing was due."""
    TIMED_OUT = 1
    """A turn's clock ran out: its timeout and the bot's move for the seat."""
    BOT_MOVED = 2
    """A bot seat's request, with no person to make it move."""


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
    seat = hand.to_act()
    if not _clocked(game, seat):
        return None
    if hand.phase is Phase.SHOW:
        # One clock for the show, then each seat still to show has its own bank:
        # the earliest of their deadlines is the game's.
        seat = min(
            (each for each in acting_seats(table) if _clocked(game, each)),
            key=lambda each: _bank_at_start(game, each),
        )
    return Deadline(game.id, game.version, seat, seat_deadline(game, seat))


def _clocked(game: Game, seat: int) -> bool:
    """Whether a clock runs for `seat`: the game waits for it, and a person plays it."""
    if not waits_for(game.table, seat) or game.table.left[seat]:
        return False
    info = game.seats[seat]
    return info is not None and info["bot"] is None


def seat_deadline(game: Game, seat: int) -> datetime:
    """When `seat`, which the game waits for, times out: the turn's start, its clock
    (`turn_seconds`), then the seat's time bank as it stood when the turn began."""
    seconds = game.table.rules.turn_seconds
    assert seconds is not None, "a game with a clock"
    assert game.turn_started is not None, "a turn in play"
    return game.turn_started + timedelta(seconds=seconds + _bank_at_start(game, seat))


def _bank_at_start(game: Game, seat: int) -> int:
    return game.turn_banks[seat] if game.turn_banks else 0


def bank_to_spend(game: Game, seat: int, now: datetime) -> int:
    """The whole seconds of its time bank `seat` has used by `now` and not yet spent
    this turn (a part of a second counts whole): 0 without a bank, for a seat no
    clock runs for, or before the turn's own clock ran out. Never more than what is
    left: a seat acting after its deadline (before the clocks' keeper fired it) has
    used the whole bank."""
    table = game.table
    seconds = table.rules.turn_seconds
    started = game.turn_started
    if not table.rules.time_bank_seconds or seconds is None or started is None:
        return 0
    if not _clocked(game, seat):
        return 0
    over = (now - started).total_seconds() - seconds
    if over <= 0:
        return 0
    at_start = _bank_at_start(game, seat)
    used = min(math.ceil(over), at_start)
    return max(0, used - (at_start - table.bank_left[seat]))


def bot_move_due(game: Game, pace: timedelta) -> Deadline | None:
    """When the bot seat `game` waits for moves, or None: nobody to act, or a person
    is (a person's request, or its clock, brings the bots' replies). A game with a
    person still to play moves at once (the rest of a round cut short:
    `RummyApplication` bounds one), a game of bots alone `pace` after its last
    event: the clocks' keeper fires it (`RummyApplication.fire`)."""
    table = game.table
    waiting = acting_seats(table)
    bots = [entry is not None and entry["bot"] is not None for entry in game.seats]
    seat = next((seat for seat in waiting if bots[seat]), None)
    if seat is None or not all(bots[each] for each in waiting):
        return None  # a person must act first: its request, or its clock, moves the bots
    wait = pace if not people_to_move(table, bots) else timedelta(0)
    return Deadline(game.id, game.version, seat, game.modified_on + wait)


def keeper_due(game: Game, pace: timedelta) -> Deadline | None:
    """The one row the clocks' keeper keeps for `game`: its turn deadline, or when
    its bot moves (`bot_move_due`), or None."""
    return turn_deadline(game) or bot_move_due(game, pace)
