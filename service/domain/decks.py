"""Where each hand's deck order and each recycled stock come from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from service.domain import shuffle
from service.domain.cards import FULL_DECK, Card


class DeckSource(Protocol):
    """Decides the cards; the rules only ask."""

    def first_dealer(self, players: int) -> int: ...

    def deck(self, hand_number: int) -> list[Card]: ...

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        """The new stock, top first, from the discards (oldest first) under the top one."""
        ...


@dataclass(frozen=True, slots=True)
class SeededDecks:
    """Decks from the secret seed and the client seeds (docs/fairness.md), except
    for the first hands when explicit deck orders were given."""

    seed: str
    client_seeds: tuple[str, ...]
    explicit: tuple[tuple[Card, ...], ...] = ()
    pack: tuple[Card, ...] = FULL_DECK
    """The game's whole pack in reference order, which each deck shuffles."""

    def first_dealer(self, players: int) -> int:
        return shuffle.first_dealer(self.seed, self.client_seeds, players)

    def deck(self, hand_number: int) -> list[Card]:
        if hand_number <= len(self.explicit):
            return list(self.explicit[hand_number - 1])
        return shuffle.deck_order(self.seed, self.client_seeds, hand_number, self.pack)

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        return shuffle.recycle_order(
            self.seed, self.client_seeds, hand_number, recycle_number, discards
        )


@dataclass(frozen=True, slots=True)
class ChainedDecks:
    """Decks of a `hand_chain` game (docs/fairness.md "A seed per hand"): hand H, its
    recycles and (from hand 1's seed) the first dealer come from hand H's own seed
    and the client seeds, by the algorithm `SeededDecks` uses with the game's seed;
    explicit deck orders, if given, deal the first hands as they are."""

    hand_seeds: tuple[str, ...]
    """Seeds of hands 1, 2, … (`service.domain.hand_chain.hand_seeds`)."""
    client_seeds: tuple[str, ...]
    explicit: tuple[tuple[Card, ...], ...] = ()
    pack: tuple[Card, ...] = FULL_DECK

    def seed_of(self, hand_number: int) -> str:
        if not 1 <= hand_number <= len(self.hand_seeds):
            # `max_hands` aborts a game before its chain runs out (docs/rules.md "Caps").
            raise ValueError(
                f"hand {hand_number} is past the game's chain of {len(self.hand_seeds)} seeds."
            )
        return self.hand_seeds[hand_number - 1]

    def first_dealer(self, players: int) -> int:
        return shuffle.first_dealer(self.seed_of(1), self.client_seeds, players)

    def deck(self, hand_number: int) -> list[Card]:
        if hand_number <= len(self.explicit):
            return list(self.explicit[hand_number - 1])
        seed = self.seed_of(hand_number)
        return shuffle.deck_order(seed, self.client_seeds, hand_number, self.pack)

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        seed = self.seed_of(hand_number)
        return shuffle.recycle_order(seed, self.client_seeds, hand_number, recycle_number, discards)
