"""What happens by itself: the first deal, the end of a hand, the next deal,
the end of the game. Each follows from the state a move left behind."""

from __future__ import annotations

from collections.abc import Callable

from service.domain import concealed, scoring
from service.domain.decks import DeckSource
from service.domain.errors import GameFull, InvalidSeating
from service.domain.events import Event, GameFinished, HandDealt, HandEnded, PlayerJoined
from service.domain.state import HandEnding, HandState, Status, Table

Record = Callable[[Event], None]
"""Applies an event to the table (and may store it): the caller's side of `settle`."""


def open_seats(table: Table) -> list[int]:
    return [seat for seat, taken in enumerate(table.seated) if not taken]


def decide_join(table: Table, seat: int | None = None) -> PlayerJoined:
    """Take `seat`, or the first open seat."""
    if table.status is not Status.WAITING:
        raise GameFull("The game has already started: every seat is taken.")
    free = open_seats(table)
    if seat is None:
        seat = free[0]
    if not 0 <= seat < table.players:
        raise InvalidSeating(f"Seats are numbered 0 to {table.players - 1}, not {seat}.")
    if seat not in free:
        raise GameFull(f"Seat {seat} is already taken.")
    return PlayerJoined(seat=seat)


def next_event(table: Table, decks: DeckSource) -> Event | None:
    """The event that now happens by itself, or None when a player must act."""
    status = table.status
    if status is Status.FINISHED:
        return None
    if status is Status.WAITING:
        if open_seats(table):
            return None
        dealer = table.first_dealer
        if dealer is None:
            dealer = decks.first_dealer(table.players)
        return HandDealt(hand_number=1, dealer=dealer, deck=tuple(decks.deck(1)))
    hand = table.hand
    if hand is None:
        return _after_hand(table, decks)
    for seat, held in enumerate(hand.hands):
        if not held:
            return _hand_ended_out(table, hand, seat)
    if hand.turns >= table.rules.max_turns:
        return hand_ended_without_out(table, hand, HandEnding.TURN_CAP)
    return None


def settle(table: Table, decks: DeckSource, record: Record) -> None:
    """Record every event that follows by itself, until a player must act."""
    while (event := next_event(table, decks)) is not None:
        record(event)


def hand_ended_without_out(table: Table, hand: HandState, how: HandEnding) -> HandEnded:
    points = scoring.points_for_exhausted(hand.hands, table.rules)
    return _hand_ended(table, hand, how, None, points)


def _hand_ended_out(table: Table, hand: HandState, seat: int) -> HandEnded:
    rummy = not hand.played_before[seat] and concealed.is_rummy_possible(table)
    points = scoring.points_for_out(hand.hands, seat, rummy, table.rules)
    return _hand_ended(table, hand, HandEnding.RUMMY if rummy else HandEnding.OUT, seat, points)


def _hand_ended(
    table: Table, hand: HandState, how: HandEnding, out_seat: int | None, points: list[int]
) -> HandEnded:
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=out_seat,
        remaining=tuple(tuple(held) for held in hand.hands),
        values=tuple(scoring.hand_value(held, table.rules) for held in hand.hands),
        points=tuple(points),
        totals=tuple(total + add for total, add in zip(table.totals, points, strict=True)),
    )


def _after_hand(table: Table, decks: DeckSource) -> Event:
    winner = scoring.game_winner(table.totals, table.hands_played, table.rules)
    if winner is not None:
        return GameFinished(winner=winner, totals=tuple(table.totals))
    assert table.dealer is not None, "a hand has ended, so one was dealt"
    number = table.hands_played + 1
    return HandDealt(
        hand_number=number,
        dealer=(table.dealer + 1) % table.players,
        deck=tuple(decks.deck(number)),
    )
