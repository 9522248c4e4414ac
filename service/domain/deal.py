"""The deal, exactly as docs/rules.md orders it, from a given deck order and dealer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.domain.cards import FULL_DECK, Card
from service.domain.errors import InvalidDeck


@dataclass(frozen=True, slots=True)
class Deal:
    """What a deck order gives: each seat's hand, the upcard and the stock."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]
    """Top of the stock first: `stock[0]` is the next card drawn."""


def deal(deck: Sequence[Card], dealer: int, players: int, hand_size: int) -> Deal:
    """Deal one card at a time from the seat after the dealer round the table,
    `hand_size` rounds; the next card is the upcard, the rest the stock."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    first = (dealer + 1) % players
    dealt = players * hand_size
    for index in range(dealt):
        hands[(first + index) % players].append(deck[index])
    return Deal(
        hands=tuple(tuple(hand) for hand in hands),
        upcard=deck[dealt],
        stock=tuple(deck[dealt + 1 :]),
    )


def check_deck(deck: Sequence[Card]) -> None:
    """A deck order must hold each of the 52 cards exactly once."""
    if len(deck) != len(FULL_DECK):
        raise InvalidDeck(f"A deck has 52 cards, not {len(deck)}.")
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise InvalidDeck(f"The deck holds {card} twice.")
        seen.add(card)
