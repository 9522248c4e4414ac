"""What happens by itself: the first deal, the end of a hand, the next deal,
the end of the game, and its abort at a cap (`caps`). Each follows from the state
a move left behind; the table's engine (`Table.engine`) says what its family does."""

from __future__ import annotations

from collections.abc import Callable

from service.domain import caps
from service.domain.decks import DeckSource
from service.domain.enum_members import DRAW_PHASE as _DRAW
from service.domain.errors import GameFull, GameOver, InvalidSeating
from service.domain.events import Event, HandEnded, PlayerJoined
from service.domain.state import HandEnding, HandState, Status, Table

_OVER = (Status.FINISHED, Status.ABORTED)

Record = Callable[[Event], None]
"""Applies an event to the table (and may store it): the caller's side of `settle`."""


def open_seats(table: Table) -> list[int]:
    return [seat for seat, taken in enumerate(table.seated) if not taken]


def decide_join(table: Table, seat: int | None = None) -> PlayerJoined:
    """Take `seat`, or the first open seat."""
    if table.status in _OVER:
        raise GameOver("The game is over: there is no seat to join.")
    if table.status is not Status.WAITING:
        raise GameFull("The game has already started: every seat is taken.")
    free = open_seats(table)
    if seat is None:
        seat = free[0]
    if not 0 <= seat < table.seat_count:
        raise InvalidSeating(f"Seats are numbered 0 to {table.seat_count - 1}, not {seat}.")
    if seat not in free:
        raise GameFull(f"Seat {seat} is already taken.")
    return PlayerJoined(seat=seat)


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself, or None when a player must act.

    A turn about to begin (the hand waits for a draw) is where the rules look at the
    game's `max_events` (`caps.before_turn`); a deal about to be made, at its
    `max_hands` too (`caps.before_deal`)."""
    event = _next_event(table, decks)
    if event is None and table.rules.max_events is not None:
        hand = table.hand
        if hand is not None and hand.phase is _DRAW and table.status is Status.PLAYING:
            return caps.before_turn(table)
    return event


def _next_event(table: Table, decks: DeckSource) -> Event | None:
    status = table.status
    if status in _OVER:
        return None
    if status is Status.WAITING:
        if open_seats(table):
            return None
        return table.engine.first_deal(table, decks)
    return table.engine.next_event(table, decks)


def someone_out(table: Table, hand: HandState) -> int | None:
    """The seat that went out (its hand empty), if any. A forfeited seat, dealt no
    cards after its forfeit, is not out."""
    if all(hand.hands):
        return None
    forfeited = table.forfeited
    for seat, held in enumerate(hand.hands):
        if not held and not forfeited[seat]:
            return seat
    return None


def settle(table: Table, decks: DeckSource, record: Record) -> None:
    """Record every event that follows by itself, until a player must act."""
    while (event := next_event(table, decks)) is not None:
        record(event)


def hand_ended_without_out(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    """A hand that ends with nobody out: the stock exhausted, or the turn cap."""
    return table.engine.hand_ended_without_out(table, hand, how)
