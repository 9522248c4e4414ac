"""Every error the rules can raise, each with a stable machine-readable `code`.

The tree::

    RummyError
    ├── InvalidInput                      something that can never be valid
    │   ├── UnknownCard          unknown_card
    │   ├── InvalidRules         invalid_rules
    │   ├── InvalidDeck          invalid_deck
    │   └── InvalidSeating       invalid_seating
    └── IllegalMove                       valid input the rules forbid now
        ├── GameNotStarted       game_not_started
        ├── GameFull             game_full
        ├── ClientSeedNotUsed    client_seed_not_used
        ├── GameOver             game_over
        ├── HandOver             hand_over
        ├── NotYourTurn          not_your_turn
        ├── WrongPhase           wrong_phase
        ├── CardNotInHand        card_not_in_hand
        ├── InvalidMeld          invalid_meld
        ├── UnknownMeld          unknown_meld
        ├── InvalidLayOff        invalid_lay_off
        ├── LayOffBeforeMeld     lay_off_before_meld
        ├── MeldLimit            meld_limit
        ├── MustDiscardLast      must_discard_last
        ├── DiscardTakenCard     discard_taken_card
        ├── WouldStrandTakenCard would_strand_taken_card
        ├── WildAmbiguous        wild_ambiguous
        ├── InvalidSwap          invalid_swap
        ├── SwappedWildUnused    swapped_wild_unused
        ├── MeldOnlyGoingOut     meld_only_going_out
        ├── NotInVariant         not_in_variant
        ├── IncompleteDeclaration incomplete_declaration
        ├── NotInDeal            not_in_deal
        ├── SeatLeft             seat_left
        ├── UpcardDeclined       upcard_declined
        ├── KnockTooHigh         knock_too_high
        ├── InvalidKnock         invalid_knock
        ├── PileCardUnusable     pile_card_unusable
        ├── TakenCardUnused      taken_card_unused
        └── PileTooShort         pile_too_short

The HTTP layer maps `InvalidInput` to 422 and `IllegalMove` to 409.
"""

from __future__ import annotations


class RummyError(Exception):
    """Base of every rules error. `code` is stable: clients switch on it."""

    code = "rummy_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(RummyError):
    code = "invalid_input"


class UnknownCard(InvalidInput):
    code = "unknown_card"


class InvalidRules(InvalidInput):
    code = "invalid_rules"


class InvalidDeck(InvalidInput):
    code = "invalid_deck"


class InvalidSeating(InvalidInput):
    code = "invalid_seating"


class IllegalMove(RummyError):
    code = "illegal_move"


class GameNotStarted(IllegalMove):
    code = "game_not_started"


class GameFull(IllegalMove):
    code = "game_full"


class ClientSeedNotUsed(IllegalMove):
    """A client seed that no deal would mix in: the game deals from deck orders
    chosen at creation (docs/fairness.md). Refused, never silently ignored."""

    code = "client_seed_not_used"


class GameOver(IllegalMove):
    code = "game_over"


class HandOver(IllegalMove):
    code = "hand_over"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"


class WrongPhase(IllegalMove):
    code = "wrong_phase"


class CardNotInHand(IllegalMove):
    code = "card_not_in_hand"


class InvalidMeld(IllegalMove):
    code = "invalid_meld"


class UnknownMeld(IllegalMove):
    code = "unknown_meld"


class InvalidLayOff(IllegalMove):
    code = "invalid_lay_off"


class LayOffBeforeMeld(IllegalMove):
    code = "lay_off_before_meld"


class MeldLimit(IllegalMove):
    code = "meld_limit"


class MustDiscardLast(IllegalMove):
    code = "must_discard_last"


class DiscardTakenCard(IllegalMove):
    code = "discard_taken_card"


class WouldStrandTakenCard(IllegalMove):
    code = "would_strand_taken_card"


class WildAmbiguous(IllegalMove):
    """A meld or lay-off with a wild card that reads more than one way, sent
    without `as`: the player must say what the wild stands for."""

    code = "wild_ambiguous"


class InvalidSwap(IllegalMove):
    code = "invalid_swap"


class SwappedWildUnused(IllegalMove):
    """Under `swapped_wild: meld_now`, a request that ends with the wild it took
    by a swap still in hand."""

    code = "swapped_wild_unused"


class MeldOnlyGoingOut(IllegalMove):
    """A meld, lay-off or swap in a concealed turn (Boathouse; Wrotham deals 4-6)
    outside the one request that goes out."""

    code = "meld_only_going_out"


class NotInVariant(IllegalMove):
    """An action the game's variant does not have (a schema-valid action is
    never a 422)."""

    code = "not_in_variant"


class IncompleteDeclaration(IllegalMove):
    """Indian: a declaration whose groups are not exactly the other 13 cards."""

    code = "incomplete_declaration"


class NotInDeal(IllegalMove):
    """Indian: a seat that dropped, showed wrongly, sits out or is eliminated acts."""

    code = "not_in_deal"


class SeatLeft(IllegalMove):
    """The seat's player left or resigned (or its clock took it over): it acts no more."""

    code = "seat_left"


class UpcardDeclined(IllegalMove):
    """Gin: both players passed the upcard; the first draw is from the stock."""

    code = "upcard_declined"


class KnockTooHigh(IllegalMove):
    """Gin: the knock leaves more deadwood than this hand's knock limit."""

    code = "knock_too_high"


class InvalidKnock(IllegalMove):
    """Gin: a knock without a card (big gin) when big gin is off or not every card
    is in a meld."""

    code = "invalid_knock"


class PileCardUnusable(IllegalMove):
    """500 Rum: a draw of several pile cards whose deepest (the called card) no meld
    or lay-off could use this turn."""

    code = "pile_card_unusable"


class TakenCardUnused(IllegalMove):
    """500 Rum: the turn would end (a discard, going out), or the called card be left
    with no meld or lay-off to use it, while the called card is still in hand."""

    code = "taken_card_unused"


class PileTooShort(IllegalMove):
    """500 Rum: a draw of more cards than the discard pile holds."""

    code = "pile_too_short"


def all_error_classes() -> list[type[RummyError]]:
    """Every concrete error class, for documentation and exhaustive tests."""
    found: list[type[RummyError]] = []
    pending: list[type[RummyError]] = [RummyError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found
