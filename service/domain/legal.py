"""What a seat may do now (`legal` in views), as the turn rules find it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.domain.actions import (
    Action,
    Discard,
    Draw,
    Drop,
    Knock,
    LayOff,
    Meld,
    Pass,
    SubmitGroups,
    Swap,
)
from service.domain.cards import Card
from service.domain.state import Source


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """Everything a seat may do now; all empty when it is not its turn."""

    draw: tuple[Source, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    lay_offs: tuple[tuple[Card, str], ...] = ()
    """(card, meld id) pairs of natural cards."""
    discard: tuple[Card, ...] = ()
    # The variants' moves; empty (or None) where the variant has none.
    meld_readings: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...] = ()
    """(cards, as) for every valid reading of each legal meld holding a wild."""
    wild_lay_offs: tuple[tuple[Card, str, Card], ...] = ()
    """(wild card, meld id, what it stands for), one per reading."""
    swaps: tuple[tuple[str, Card, Card], ...] = ()
    """(meld id, the natural card put in, the wild taken)."""
    knock: tuple[Card, ...] = ()
    """Knock Rummy: the cards the seat may knock with."""
    # Indian Rummy: what is offered as a flag (validity of groups is never hinted).
    can_declare: bool = False
    """Indian, in the seat's play phase: a declaration may be posted."""
    can_drop: bool = False
    drop_points: int | None = None
    """What a drop would cost now (None when a drop is not allowed)."""
    can_submit: bool = False
    """Indian, in the show: the seat still has to submit its groups."""
    # Gin Rummy.
    can_pass: bool = False
    """Gin, in the upcard offer: the seat offered may pass."""
    big_gin: bool = False
    """Gin: the seat may knock with no card (all eleven cards in melds)."""
    deadwood: int | None = None
    """Gin: the least deadwood of every card the seat holds now."""
    can_go_out: bool | None = None
    """In a concealed turn (Boathouse; Wrotham deals 4-6): whether a list of
    actions that goes out exists now (false before the draws: a list is judged from
    the hand drawn). None in every other turn."""
    pile_counts: tuple[int, ...] = ()
    """500 Rum, in the draw phase: every `count` the seat may take from the spread pile
    now (1 whenever the pile has a card)."""

    def actions(self) -> list[Action]:
        """The same moves as actions, in a stable order (a concealed going-out list
        is not among them: it is several actions)."""
        found: list[Action] = [Draw(source) for source in self.draw]
        found.extend(Draw(Source.DISCARD, count) for count in self.pile_counts if count > 1)
        # A meld holding a wild is listed by its readings: without `as` it may be
        # ambiguous (`wild_ambiguous`).
        read = {multiset(cards) for cards, _ in self.meld_readings}
        found.extend(Meld(cards) for cards in self.melds if multiset(cards) not in read)
        found.extend(Meld(cards, as_) for cards, as_ in self.meld_readings)
        found.extend(LayOff(card, meld_id) for card, meld_id in self.lay_offs)
        found.extend(LayOff(card, meld_id, as_) for card, meld_id, as_ in self.wild_lay_offs)
        found.extend(Swap(meld_id, card) for meld_id, card, _ in self.swaps)
        found.extend(Knock(card) for card in self.knock)
        if self.big_gin:
            found.append(Knock(None))
        if self.can_pass:
            found.append(Pass())
        if self.can_drop:
            found.append(Drop())
        if self.can_submit:
            # Which groups to show is the player's choice; showing none is always one.
            found.append(SubmitGroups(()))
        found.extend(Discard(card) for card in self.discard)
        return found


NO_MOVES = LegalMoves()


def multiset(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(sorted(card.code for card in cards))
