"""Leaving a game and the turn clock (docs/rules.md "Leaving and turn clocks").

`decide_leave` is a player leaving or resigning; `decide_timeout` is the clock
running out on the seat to act. Each returns the events that record it, which
`events.apply` plays like any other: what the clock's bot then plays for the
seat, and what a replaced seat's bot plays later, are ordinary moves.

No clock is read here: whether the time is up is the application's question
(service/game/clock.py); the rules only say what a timeout does.
"""

from __future__ import annotations

from service.domain import indian
from service.domain.actions import SubmitGroups
from service.domain.decks import DeckSource
from service.domain.errors import (
    GameNotStarted,
    GameOver,
    IllegalMove,
    NotYourTurn,
    SeatLeft,
    WrongPhase,
)
from service.domain.events import Event, PlayerLeft, TurnTimedOut
from service.domain.groupings import best_grouping
from service.domain.rules import Abandon, Variant
from service.domain.state import DealStatus, LeaveReason, Phase, Status, Table


def leave_problem(table: Table, seat: int) -> IllegalMove | None:
    """Why `seat` may not leave now, or None."""
    if table.status is Status.WAITING:
        return GameNotStarted("The game has not started: there is no seat to leave yet.")
    if table.status is Status.FINISHED:
        return GameOver("The game is over: there is nothing left to leave.")
    if table.left[seat]:
        return SeatLeft(f"Seat {seat}'s player has already left this game.")
    if _declared_and_shown(table, seat):
        return WrongPhase(
            "Your valid declaration is being shown: leave once the others have shown."
        )
    return None


def _declared_and_shown(table: Table, seat: int) -> bool:
    """Indian: `seat`'s valid declaration is in its show (the deal is all but won)."""
    hand = table.hand
    if hand is None or hand.phase is not Phase.SHOW or hand.statuses is None:
        return False
    return hand.statuses[seat] is DealStatus.DECLARED


def decide_leave(table: Table, seat: int, decks: DeckSource, *, resign: bool) -> list[Event]:
    """`seat`'s player leaves (`resign`: concedes). A resignation forfeits; a leave
    follows the rule `abandon`."""
    problem = leave_problem(table, seat)
    if problem is not None:
        raise problem
    reason = LeaveReason.RESIGNED if resign else LeaveReason.LEFT
    forfeit = resign or table.rules.abandon is Abandon.FORFEIT
    return abandon(table, seat, decks, reason, forfeit=forfeit)


def turn_key(table: Table) -> tuple[int, int, bool] | None:
    """What one clock times: the hand and turn in play (a turn's draw and its discard
    share one clock), or Indian's whole show (one clock for every seat to show). None
    while nobody is to act."""
    hand = table.hand
    if table.status is not Status.PLAYING or hand is None:
        return None
    return hand.number, hand.turns, hand.phase is Phase.SHOW


def waits_for(table: Table, seat: int) -> bool:
    """Whether the game waits for `seat`: its turn, or in Indian's show its submission."""
    hand = table.hand
    if table.status is not Status.PLAYING or hand is None:
        return False
    if hand.phase is Phase.SHOW:
        return hand.statuses is not None and hand.statuses[seat] is DealStatus.TO_SUBMIT
    return hand.turn == seat and not table.forfeited[seat]


def timeout_problem(table: Table, seat: int) -> IllegalMove | None:
    """Why the clock cannot time `seat` out now, or None: the game has a clock, waits
    for the seat, and its player has not left (a left seat's bot moves at once)."""
    if table.rules.turn_seconds is None:
        return WrongPhase("This game has no turn clock (turn_seconds is not set).")
    if table.left[seat]:
        return SeatLeft(f"Seat {seat}'s player has left: the server's bot plays it at once.")
    if not waits_for(table, seat):
        return NotYourTurn(f"The game does not wait for seat {seat}: its clock is not running.")
    return None


def decide_timeout(table: Table, seat: int, decks: DeckSource) -> list[Event]:
    """The clock ran out on `seat`: its timeout, and if that makes
    `timeouts_before_takeover` in a row, its abandonment by the rule `abandon`."""
    problem = timeout_problem(table, seat)
    if problem is not None:
        raise problem
    count = table.timeouts[seat] + 1
    made: list[Event] = [TurnTimedOut(player=seat, timeouts=count)]
    if count >= table.rules.timeouts_before_takeover:
        forfeit = table.rules.abandon is Abandon.FORFEIT
        made.extend(abandon(table, seat, decks, LeaveReason.TIMED_OUT, forfeit=forfeit))
    return made


def abandon(
    table: Table, seat: int, decks: DeckSource, reason: LeaveReason, *, forfeit: bool
) -> list[Event]:
    """The events of `seat` abandoned: replaced by the server's bot, or forfeited."""
    if not forfeit:
        return [PlayerLeft(player=seat, reason=reason, replaced=True)]
    hand = table.hand
    if table.rules.variant is not Variant.INDIAN or hand is None or hand.statuses is None:
        return [PlayerLeft(player=seat, reason=reason, replaced=False)]
    status = hand.statuses[seat]
    if status is DealStatus.IN:
        # Scored as a drop, first or middle as its own drop would be.
        kind, points = indian.drop_cost(table, hand, seat)
        return [PlayerLeft(player=seat, reason=reason, replaced=False, drop=kind, points=points)]
    made: list[Event] = [PlayerLeft(player=seat, reason=reason, replaced=False)]
    if status is DealStatus.TO_SUBMIT and hand.phase is Phase.SHOW:
        # In the show its best grouping is shown for it, as the clock would.
        made.extend(indian.decide(table, seat, clock_submission(table, seat), decks))
    return made


def clock_submission(table: Table, seat: int) -> SubmitGroups:
    """Indian's show: the best grouping of `seat`'s hand, submitted for a silent
    player (groupings.best_grouping)."""
    hand = table.hand
    assert hand is not None, "an Indian deal in its show"
    assert hand.wild is not None, "an Indian deal has its wild rank"
    assert table.rules.full_count is not None, "an Indian game has a full count"
    grouping = best_grouping(hand.hands[seat], hand.wild, table.rules.full_count)
    return SubmitGroups(groups=grouping.groups)
