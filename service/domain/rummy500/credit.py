"""500 Rum's meld credit and scores (docs/rules.md "500 Rum"): each card put down
counts for the seat that put it down (a meld's cards for its owner, each laid-off
card for whoever laid it off), an ace as 1 at the low end of a run (A-2-3) and 15
anywhere else; a hand's score is what a seat put down less what it holds."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain.cards import Card, Rank
from service.domain.melds import MeldKind, TableMeld
from service.domain.rules import RuleSet
from service.domain.scoring import card_value, hand_value
from service.domain.state import Table

LOW_ACE = 1
"""An ace melded or laid off as the low end of a run."""


def put_down_value(card: Card, meld: TableMeld, rules: RuleSet) -> int:
    """What `card`, one of `meld`'s, counts for the seat that put it down."""
    if card.rank is Rank.ACE and meld.kind is MeldKind.RUN and _ace_low(meld):
        return LOW_ACE
    return card_value(card, rules)


def _ace_low(meld: TableMeld) -> bool:
    """A run holds at most one ace (never at both ends): low when it leads an A-2."""
    cards = meld.cards
    return cards[0].rank is Rank.ACE and cards[1].rank is Rank.TWO


def credits(melds: Sequence[TableMeld], seats: int, rules: RuleSet) -> list[int]:
    """Each seat's values put down this hand, from the melds on the table."""
    points = [0] * seats
    for meld in melds:
        owned = list(meld.cards)
        for card, seat in meld.laid_off:
            owned.remove(card)  # copies are never told apart: one of equal value
            points[seat] += put_down_value(card, meld, rules)
        for card in owned:
            points[meld.owner] += put_down_value(card, meld, rules)
    return points


def hand_points(
    melds: Sequence[TableMeld], hands: Sequence[Sequence[Card]], rules: RuleSet
) -> tuple[list[int], list[int], list[int]]:
    """Each seat's values put down, values left in hand, and the hand's score (the
    first less the second; it may be negative)."""
    melded = credits(melds, len(hands), rules)
    held = [hand_value(cards, rules) for cards in hands]
    return melded, held, [put - left for put, left in zip(melded, held, strict=True)]


def melded_now(table: Table) -> list[int] | None:
    """Each seat's values put down so far in the hand in play, where the hand has a
    spread pile (500 Rum; the views' `melded_points`), else None."""
    hand = table.hand
    if hand is None or hand.spread is None:
        return None
    return credits(hand.melds, table.seat_count, table.rules)


def called_card(table: Table, seat: int) -> Card | None:
    """The called card `seat` has still to use this turn (500 Rum), if any: only
    that seat's view shows it."""
    hand = table.hand
    if hand is None or hand.spread is None or hand.turn != seat:
        return None
    return hand.spread.called
