"""The outs of an Indian hand: the unseen cards whose draw brings it a card nearer
its declaration (`indian_shape.deficiency` falls), counted with their copies.

A deal at two seats is a race of stock draws, and a hand's chance to step
forward on its next draw is its outs over the unseen cards. `expert` keeps, of
the discards that leave the least deficiency, the one whose hand has the most
outs, and `strong` does so once that deficiency is 2 or less (docs/bots.md).
Only a card that could share a group with the hand's
naturals (its rank, or its suit within two ranks) or a wild can lower the
deficiency, so only those are tried; the pool is the seat's unseen cards
(`unknown.Unknown`), so nothing here reads more than the view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from service.bots.search.indian_value import Scorer, feeds
from service.domain.cards import Card

_REACH = 2
"""Two naturals of a suit this many ranks apart or fewer can share a run of three."""


def outs(rest: Sequence[Card], unseen: Counter[Card], scorer: Scorer) -> int:
    """How many of the `unseen` cards (copies counted) lower the deficiency of `rest`
    (13 cards) when drawn."""
    base = scorer.shape(rest)
    if base == 0:
        return sum(unseen.values())
    naturals = [card for card in rest if not scorer.is_wild(card)]
    ranks = {card.rank for card in naturals}
    tried = [
        card
        for card in unseen
        if scorer.is_wild(card) or card.rank in ranks or _near(card, naturals)
    ]
    lowering = scorer.lowering(rest, tried)
    return sum(copies for card, copies in unseen.items() if card.code in lowering)


def linked(rest: Sequence[Card], unseen: Counter[Card], scorer: Scorer) -> int:
    """A cheap stand-in for `outs`: how many of the `unseen` cards (copies counted)
    would complete a group of three with the cards of `rest` (`indian_value.feeds`),
    whether or not that lowers the deficiency."""
    return sum(copies for card, copies in unseen.items() if feeds(card, rest, scorer))


def _near(card: Card, naturals: Sequence[Card]) -> bool:
    """Whether a natural of `card`'s suit lies within `_REACH` ranks (the ace low or high)."""
    mine = _positions(card)
    for other in naturals:
        if other.suit is not card.suit:
            continue
        for theirs in _positions(other):
            if any(0 < abs(theirs - at) <= _REACH for at in mine):
                return True
    return False


def _positions(card: Card) -> tuple[int, ...]:
    rank = int(card.rank)
    return (1, 14) if rank == 1 else (rank,)
