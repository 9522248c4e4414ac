"""The deal, exactly as docs/rules.md orders it, from a given deck order and dealer."""

from __future__ import annotations

from collections import Counter
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


@dataclass(frozen=True, slots=True)
class StarterDeal:
    """Wrotham's deal: no upcard; the starter (the seat after the dealer) holds one
    card more than the others and opens without drawing."""

    hands: tuple[tuple[Card, ...], ...]
    starter: int
    stock: tuple[Card, ...]
    """Top of the stock first: `stock[0]` is the next card drawn."""


def deal_to_starter(deck: Sequence[Card], dealer: int, players: int, hand_size: int) -> StarterDeal:
    """`hand_size` rounds from the starter as `deal` does, then `deck[hand_size * n]`
    to the starter; the stock starts at the next card and the pile is empty."""
    dealt = deal(deck, dealer, players, hand_size)
    starter = (dealer + 1) % players
    extra = players * hand_size
    hands = tuple(
        (*held, deck[extra]) if seat == starter else held for seat, held in enumerate(dealt.hands)
    )
    return StarterDeal(hands=hands, starter=starter, stock=tuple(deck[extra + 1 :]))


@dataclass(frozen=True, slots=True)
class IndianDeal:
    """Indian Rummy's deal to the seats still in the game: their hands (in the order of
    `seats`), the upcard, the wild indicator and the stock."""

    hands: tuple[tuple[Card, ...], ...]
    starter: int
    upcard: Card
    indicator: Card
    """Face up and out of play: its rank is wild (a `JK` makes aces wild)."""
    stock: tuple[Card, ...]
    """Top of the stock first."""


def deal_among(
    deck: Sequence[Card], dealer: int, seats: Sequence[int], hand_size: int
) -> IndianDeal:
    """`deal` round the m `seats` only (in seat order, from the one after the dealer):
    `deck[size * m]` is the upcard, the next card the wild indicator, the stock the
    rest."""
    m = len(seats)
    dealt = deal(deck, seats.index(dealer), m, hand_size)
    return IndianDeal(
        hands=dealt.hands,
        starter=seats[(seats.index(dealer) + 1) % m],
        upcard=dealt.upcard,
        indicator=dealt.stock[0],
        stock=dealt.stock[1:],
    )


def check_deck(deck: Sequence[Card], pack: Sequence[Card] = FULL_DECK) -> None:
    """A deck order must be a permutation of the game's whole pack (by default the
    52 cards, each once; with two packs or jokers, codes repeat as often as the pack
    holds them)."""
    if len(deck) != len(pack):
        raise InvalidDeck(f"A deck of this game has {len(pack)} cards, not {len(deck)}.")
    wanted = Counter(pack)
    held = Counter(deck)
    for card in deck:
        if held[card] > wanted[card]:
            copies = wanted[card]
            times = "once" if copies == 1 else f"{copies} times"
            if copies == 0:
                raise InvalidDeck(f"The deck holds {card}, which this game's pack has not.")
            raise InvalidDeck(
                f"The deck holds {card} {held[card]} times; this game's pack has it {times}."
            )
