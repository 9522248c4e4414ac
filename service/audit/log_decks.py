"""The decks a replayed log is dealt from: the seed's (docs/fairness.md) once it is
revealed (in a `hand_chain` game, each hand's own seed once that hand has ended),
else the log's own (then taken on trust, but still the game's pack)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from service.audit.mismatch import Mismatch, error_text, logged_cards
from service.domain import shuffle
from service.domain.cards import Card
from service.domain.dealing import check_deck
from service.domain.errors import RummyError

if TYPE_CHECKING:
    from service.audit.referee import Referee


@dataclass(frozen=True, slots=True)
class LogDecks:
    """The decks: from the seed (docs/fairness.md) once it is revealed, else from the log."""

    referee: Referee

    def first_dealer(self, players: int) -> int:
        # A `hand_chain` game draws its first dealer from hand 1's seed.
        seed = self.referee.seed_for(1)
        if seed is not None:
            return shuffle.first_dealer(seed, self.referee.client_seeds, players)
        for event in self.referee.recorded:
            if event.get("type") == "hand_dealt":
                return int(event["data"]["dealer"])
        raise Mismatch("the log holds no deal to take the first dealer from")

    def deck(self, hand_number: int) -> list[Card]:
        explicit = self.referee.explicit
        if hand_number <= len(explicit):
            return list(explicit[hand_number - 1])
        seed = self.referee.seed_for(hand_number)
        if seed is not None:
            table = self.referee.table
            assert table is not None, "decks are asked for only once the game is set up"
            return shuffle.deck_order(
                seed, self.referee.client_seeds, hand_number, table.rules.pack
            )
        for event in self.referee.recorded:
            data = event.get("data", {})
            if event.get("type") == "hand_dealt" and data.get("hand_number") == hand_number:
                deck = logged_cards(data.get("deck"), f"hand {hand_number}'s deck")
                # Taken on trust while the seed is secret, but it must still be the
                # game's whole pack: two packs and jokers make it a multiset.
                table = self.referee.table
                assert table is not None, "decks are asked for only once the game is set up"
                try:
                    check_deck(deck, table.rules.pack)
                except RummyError as error:
                    raise Mismatch(
                        f"hand {hand_number}'s deck is not this game's pack: {error_text(error)}"
                    ) from None
                return deck
        raise Mismatch(f"the log holds no deck for hand {hand_number}")

    def recycled_stock(
        self, hand_number: int, recycle_number: int, discards: Sequence[Card]
    ) -> list[Card]:
        seed = self.referee.seed_for(hand_number)
        if seed is not None:
            return shuffle.recycle_order(
                seed, self.referee.client_seeds, hand_number, recycle_number, discards
            )
        hand, recycles = 0, 0
        for event in self.referee.recorded:
            data = event.get("data", {})
            if event.get("type") == "hand_dealt":
                hand, recycles = data.get("hand_number", 0), 0
            elif event.get("type") == "stock_recycled":
                recycles += 1
                if (hand, recycles) == (hand_number, recycle_number):
                    return logged_cards(data.get("stock"), "the recycled stock")
        raise Mismatch(f"the log holds no stock for recycle {recycle_number} of hand {hand_number}")
