"""Leaving a game and the turn clock (docs/rules.md "Leaving and turn clocks").

`decide_leave` is a player leaving or resigning; `decide_timeout` is the clock
running out on the seat to act; `decide_bank_use` is a seat spending its time
bank (the rule `time_bank_seconds`) once its turn's clock ran out. Each returns
the events that record it, which `changes.apply` plays like any other: what the
clock's bot then plays for the seat, and what a replaced seat's bot plays later,
are ordinary moves.

No clock is read here: whether the time is up, and how much of a bank a seat
used, is the application's question (service/game/clock.py); the rules only say
what a timeout does, and that a bank is never overdrawn nor refilled and is
spent before a timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from service.domain.events import Event, PlayerLeft, TimeBankUsed, TurnTimedOut
from service.domain.indian import turn as indian
from service.domain.indian.groupings import best_grouping
from service.domain.indian.options import indian_options
from service.domain.rule_values import Abandon
from service.domain.state import DealStatus, LeaveReason, Phase, Status, Table, indian_of


def leave_problem(table: Table, seat: int) -> IllegalMove | None:
    """Why `seat` may not leave now, or None."""
    if table.status is Status.WAITING:
        return GameNotStarted("The game has not started: there is no seat to leave yet.")
    if table.over:
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
    if hand is None or hand.phase is not Phase.SHOW or hand.indian is None:
        return False
    return hand.indian.statuses[seat] is DealStatus.DECLARED


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
    # Gin's upcard offer passes from seat to seat without a turn ending: each pass
    # starts the next seat's clock (passes and turns only grow within a hand).
    passes = 0 if hand.gin is None else hand.gin.passes
    return hand.number, hand.turns + passes, hand.phase is Phase.SHOW


def waits_for(table: Table, seat: int) -> bool:
    """Whether the game waits for `seat`: its turn, or in Indian's show its submission."""
    hand = table.hand
    if table.status is not Status.PLAYING or hand is None:
        return False
    if hand.phase is Phase.SHOW:
        return hand.indian is not None and hand.indian.statuses[seat] is DealStatus.TO_SUBMIT
    return hand.turn == seat and not table.forfeited[seat]


def acting_seats(table: Table) -> list[int]:
    """The seats the game waits for (`waits_for`): the seat whose turn it is, or in
    Indian's show every seat still to show."""
    return [seat for seat in range(table.seat_count) if waits_for(table, seat)]


def people_to_move(table: Table, bots: Sequence[bool]) -> bool:
    """Whether a person is still to play this game: a seat that no bot plays (`bots`,
    seat by seat) and whose player has neither left nor been taken over. Once none
    is (everyone left, resigned, was taken over or, in a pool, eliminated), the rest
    of the game is the bots' alone."""
    if table.status is not Status.PLAYING:
        return False
    return any(
        not bots[seat] and not table.left[seat] and not table.eliminated[seat]
        for seat in range(table.seat_count)
    )


def seats_timing_out(
    table: Table, seat: int, bots: Sequence[bool], overdue: Callable[[int], bool]
) -> list[int]:
    """The seats the clock that ran out on `seat` times out: that seat; in Indian's
    show (one clock for every seat still to show) each seat still to show that no bot
    plays (`bots`, seat by seat) and whose own time bank is spent too (`overdue`:
    the application's clock answers it, seat by seat)."""
    hand = table.hand
    if hand is None or hand.phase is not Phase.SHOW:
        return [seat]
    return [each for each in acting_seats(table) if not bots[each] and overdue(each)]


def timeout_problem(table: Table, seat: int) -> IllegalMove | None:
    """Why the clock cannot time `seat` out now, or None: the game has a clock, waits
    for the seat, and its player has not left (a left seat's bot moves at once)."""
    if table.rules.turn_seconds is None:
        return WrongPhase("This game has no turn clock (turn_seconds is not set).")
    if table.left[seat]:
        return SeatLeft(f"Seat {seat}'s player has left: the server's bot plays it at once.")
    if not waits_for(table, seat):
        return NotYourTurn(f"The game does not wait for seat {seat}: its clock is not running.")
    if table.bank_left[seat] > 0:
        return WrongPhase(
            f"Seat {seat} has {table.bank_left[seat]} s of its time bank left: it times out "
            f"only once its bank is spent."
        )
    return None


def bank_problem(table: Table, seat: int, seconds: int) -> IllegalMove | None:
    """Why `seat` cannot spend `seconds` of its time bank now, or None: the game has a
    bank, waits for the seat, and the seat has that much left (whole seconds, at
    least 1: a bank is never refilled, nor spent below 0)."""
    if table.rules.time_bank_seconds == 0:
        return WrongPhase("This game has no time bank (time_bank_seconds is 0).")
    if table.left[seat]:
        return SeatLeft(f"Seat {seat}'s player has left: the server's bot plays it at once.")
    if not waits_for(table, seat):
        return NotYourTurn(f"The game does not wait for seat {seat}: its clock is not running.")
    if type(seconds) is not int or seconds < 1:
        return IllegalMove(f"A time bank is spent a whole second at least, not {seconds!r}.")
    if seconds > table.bank_left[seat]:
        return IllegalMove(
            f"Seat {seat} has {table.bank_left[seat]} s of its time bank left, not {seconds}."
        )
    return None


def decide_bank_use(table: Table, seat: int, seconds: int) -> list[Event]:
    """`seat` spends `seconds` of its time bank: its turn's clock ran out, and it acts
    now or its bank runs out too (the application decides how long, by its clock)."""
    problem = bank_problem(table, seat, seconds)
    if problem is not None:
        raise problem
    return [TimeBankUsed(player=seat, seconds=seconds)]


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
    if hand is None or hand.indian is None:
        return [PlayerLeft(player=seat, reason=reason, replaced=False)]
    status = hand.indian.statuses[seat]
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
    full_count = indian_options(table.rules).full_count
    grouping = best_grouping(hand.hands[seat], indian_of(hand).wild, full_count)
    return SubmitGroups(groups=grouping.groups)
