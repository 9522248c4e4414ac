"""What happens by itself: the first deal, the end of a hand, the next deal,
the end of the game. Each follows from the state a move left behind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from service.domain import concealed, indian_deals, knock, scoring
from service.domain.decks import DeckSource
from service.domain.errors import GameFull, InvalidSeating
from service.domain.events import Event, GameFinished, HandDealt, HandEnded, PlayerJoined
from service.domain.rules import Variant
from service.domain.state import HandEnding, HandState, Status, Table

# Enum members read once: attribute lookups on Enum classes are slow on 3.11
# (EnumType.__getattr__), and these are read for every move.
_KNOCK = Variant.KNOCK
_INDIAN = Variant.INDIAN

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
        if table.rules.variant is _INDIAN:
            return indian_deals.first_deal(table, decks)
        dealer = table.first_dealer
        if dealer is None:
            dealer = decks.first_dealer(table.players)
        return HandDealt(hand_number=1, dealer=dealer, deck=tuple(decks.deck(1)))
    if table.rules.variant is _INDIAN:
        return indian_deals.next_event(table, decks)
    if any(table.forfeited):
        # A Western game forfeited down to one seat ends at once: it wins.
        still_in = [seat for seat, out in enumerate(table.forfeited) if not out]
        if len(still_in) == 1:
            return GameFinished(winner=still_in[0], totals=tuple(table.totals))
    hand = table.hand
    if hand is None:
        return _after_hand(table, decks)
    if hand.knocker is not None:
        return _hand_ended_knock(table, hand, hand.knocker)
    out = someone_out(table, hand)
    if out is not None:
        return _hand_ended_out(table, hand, out)
    if hand.turns >= table.rules.max_turns:
        return hand_ended_without_out(table, hand, HandEnding.TURN_CAP)
    return None


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
    if table.rules.variant is _INDIAN:
        return indian_deals.void_deal(table, hand, how)
    if table.rules.variant is _KNOCK:
        # Knock Rummy scores a hand that runs out by the arranged counts.
        shown = _arranged(table, hand)
        points = scoring.points_for_values(
            [each.count for each in shown], table.rules, out=_forfeited(table)
        )
        return _hand_ended(table, hand, how, None, points, _shown(table, shown))
    points = scoring.points_for_exhausted(hand.hands, table.rules, out=_forfeited(table))
    return _hand_ended(table, hand, how, None, points)


def _hand_ended_knock(table: Table, hand: HandState, knocker: int) -> HandEnded:
    shown = _arranged(table, hand)
    rules = table.rules
    assert rules.knock_penalty is not None, "a knock game has a knock penalty"
    assert rules.knock_bonus is not None, "and a knock bonus"
    settled = knock.pot(
        [each.count for each in shown],
        knocker,
        penalty=rules.knock_penalty,
        bonus=rules.knock_bonus,
        out=_forfeited(table),
    )
    return _hand_ended(
        table,
        hand,
        HandEnding.KNOCK,
        None,
        list(settled.points),
        # The knock card is the one card a knock puts out of play.
        {"knocker": knocker, "knock_card": hand.out_of_play[-1], "pot": settled.pot}
        | _shown(table, shown),
    )


def _arranged(table: Table, hand: HandState) -> list[knock.Arrangement]:
    return [knock.arrange(held, table.rules) for held in hand.hands]


def _shown(table: Table, shown: Sequence[knock.Arrangement]) -> dict[str, Any]:
    """The arranged hands as a Knock Rummy result shows them (a forfeiter's face
    down: its count only)."""
    hidden = table.forfeited
    return {
        "counts": tuple(each.count for each in shown),
        "unmatched": tuple(
            () if hidden[seat] else each.unmatched for seat, each in enumerate(shown)
        ),
        "arranged": tuple(() if hidden[seat] else each.melds for seat, each in enumerate(shown)),
    }


def _forfeited(table: Table) -> tuple[int, ...]:
    """The seats that forfeited: they lose like anyone, and never win."""
    return tuple(seat for seat, out in enumerate(table.forfeited) if out)


def _hand_ended_out(table: Table, hand: HandState, seat: int) -> HandEnded:
    rummy = not hand.played_before[seat] and concealed.is_rummy_possible(table)
    points = scoring.points_for_out(hand.hands, seat, rummy, table.rules)
    return _hand_ended(table, hand, HandEnding.RUMMY if rummy else HandEnding.OUT, seat, points)


def _hand_ended(
    table: Table,
    hand: HandState,
    how: HandEnding,
    out_seat: int | None,
    points: list[int],
    knock_result: dict[str, Any] | None = None,
) -> HandEnded:
    return HandEnded(
        hand_number=hand.number,
        how=how,
        out_seat=out_seat,
        # A forfeiter's cards stay face down: counted (`values`), never shown.
        remaining=tuple(
            () if table.forfeited[seat] else tuple(held) for seat, held in enumerate(hand.hands)
        ),
        values=tuple(scoring.hand_value(held, table.rules) for held in hand.hands),
        points=tuple(points),
        totals=tuple(total + add for total, add in zip(table.totals, points, strict=True)),
        **(knock_result or {}),
    )


def _after_hand(table: Table, decks: DeckSource) -> Event:
    out = _forfeited(table)
    winner = scoring.game_winner(table.totals, table.hands_played, table.rules, out=out)
    if winner is not None:
        return GameFinished(winner=winner, totals=tuple(table.totals))
    assert table.dealer is not None, "a hand has ended, so one was dealt"
    number = table.hands_played + 1
    # The deal passes to the next seat still in; a forfeiter is dealt no more.
    dealer = next(
        (table.dealer + step) % table.players
        for step in range(1, table.players + 1)
        if (table.dealer + step) % table.players not in out
    )
    still_in = tuple(seat for seat in range(table.players) if seat not in out)
    return HandDealt(
        hand_number=number,
        dealer=dealer,
        deck=tuple(decks.deck(number)),
        seats=still_in if out else None,
    )
