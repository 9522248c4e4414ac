"""Gin Rummy's counts (docs/rules.md "Gin Rummy"): a hand's least deadwood, the
knocker's declared arrangement, and the defender's lay-offs.

**Least deadwood** is Knock Rummy's count (`knock.arrange`: the least value left
outside disjoint sets and runs, ties broken as Knock Rummy shows them), under gin's
fixed aces low: A counts 1, J Q K 10.

**The defender's lay-offs** are one exact search, Knock Rummy's with more groups
to choose from. Besides the defender's own melds, each block of its cards that can
go onto one of the knocker's melds is a group: the fourth card of a three-card set,
and for a run the cards continuing it below or above through cards the defender
holds (a chain: 8♥ then 9♥ on 5♥ 6♥ 7♥; the two ends of one run are two groups).
Taking the first card left, it stays unmatched or goes into one of the groups that
hold it among the cards left; the best for each set of cards left (a bit mask) is
remembered. A card that fits two places is in two groups, and disjointness lets it
go to one. The weight of a result: the deadwood's value first, then one step per
card laid off (the defender keeps its own melds where it loses nothing by it), then
Knock Rummy's weight of the unmatched cards (fewest, then first in sort order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from service.domain import melds
from service.domain.cards import SUITS, Card, sorted_cards
from service.domain.errors import CardNotInHand
from service.domain.knock import Arrangement, arrange
from service.domain.rules import RuleSet
from service.domain.scoring import card_value, hand_value
from service.domain.state import LaidOff


def least(cards: Sequence[Card], rules: RuleSet) -> Arrangement:
    """The least-deadwood arrangement of `cards` (Knock Rummy's count and tie-break)."""
    return arrange(cards, rules)


@dataclass(frozen=True, slots=True)
class Declared:
    """The knocker's arrangement: its melds in table order and the deadwood."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    count: int


def declared(
    held: Sequence[Card], given: Sequence[Sequence[Card]] | None, rules: RuleSet
) -> Declared:
    """The knocker's arrangement of `held` (its hand less the knock card): `given`
    checked (each card held once: `card_not_in_hand`; each meld valid:
    `invalid_meld`), or the server's least-deadwood one when None."""
    if given is None:
        best = least(held, rules)
        return Declared(melds=best.melds, deadwood=best.unmatched, count=best.count)
    left = Counter(held)
    for meld in given:
        for card in meld:
            if left[card] <= 0:
                twice = card in held
                raise CardNotInHand(
                    f"{card} is named twice in your knock."
                    if twice
                    else f"{card} is not among the cards you knock with (your hand less the "
                    f"knock card)."
                )
            left[card] -= 1
    shown = tuple(tuple(melds.arrange(list(meld), rules.aces)) for meld in given)  # invalid_meld
    deadwood = tuple(sorted_cards(list(left.elements())))
    return Declared(
        melds=tuple(sorted(shown, key=lambda meld: min(card.sort_key for card in meld))),
        deadwood=deadwood,
        count=hand_value(deadwood, rules),
    )


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's hand after its lay-offs: its own melds, its deadwood and its
    count, and each card laid off with the knocker's meld it went on."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    count: int
    laid_off: tuple[LaidOff, ...]


def defend(held: Sequence[Card], knocker: Sequence[Sequence[Card]], rules: RuleSet) -> Defence:
    """The defender's least deadwood after laying off on the knocker's melds (see the
    module docstring for the search and its tie-break)."""
    hand = sorted(held, key=lambda card: card.sort_key)
    index = {card: position for position, card in enumerate(hand)}
    weights = [_weight(card, rules) for card in hand]
    # Each group as (bit mask over `hand`, its cost, its lay-offs or None for the
    # defender's own meld), filed under its first card: the search only ever asks
    # for the groups of the first card left.
    starting: list[list[tuple[int, int, tuple[LaidOff, ...] | None]]] = [[] for _ in hand]

    def file(cards: Sequence[Card], cost: int, laid: tuple[LaidOff, ...] | None) -> None:
        mask = 0
        for card in cards:
            mask |= 1 << index[card]
        starting[(mask & -mask).bit_length() - 1].append((mask, cost, laid))

    for own_meld in melds.possible_melds(hand, rules.aces):
        file(own_meld, 0, None)
    for number, meld in enumerate(knocker):
        for block in _extensions(hand, meld):
            file(block, _LAID_UNIT * len(block), tuple(LaidOff(card, number) for card in block))

    best: dict[int, tuple[int, int]] = {0: (0, -1)}
    """For each set of cards left: the least weight, and the group taken first (its
    place in the first card's list; -1 when the first card stays unmatched)."""

    def search(left: int) -> int:
        found = best.get(left)
        if found is not None:
            return found[0]
        low = left & -left
        first = low.bit_length() - 1
        least_weight = weights[first] + search(left ^ low)
        taken = -1
        for place, (mask, cost, _) in enumerate(starting[first]):
            if mask & left == mask:
                weight = cost + search(left ^ mask)
                if weight < least_weight:
                    least_weight, taken = weight, place
        best[left] = (least_weight, taken)
        return least_weight

    left = (1 << len(hand)) - 1
    search(left)
    own: list[tuple[Card, ...]] = []
    laid_off: list[LaidOff] = []
    unmatched: list[Card] = []
    while left:
        low = left & -left
        first = low.bit_length() - 1
        taken = best[left][1]
        if taken < 0:
            unmatched.append(hand[first])
            left ^= low
            continue
        mask, _, group = starting[first][taken]
        if group is None:
            cards = [hand[bit] for bit in range(len(hand)) if mask >> bit & 1]
            own.append(tuple(melds.arrange(cards, rules.aces)))
        else:
            laid_off.extend(group)
        left ^= mask
    own.sort(key=lambda meld: min(card.sort_key for card in meld))
    laid_off.sort(key=lambda each: each.meld)  # stable: each block stays in its order
    return Defence(
        melds=tuple(own),
        deadwood=tuple(unmatched),
        count=hand_value(unmatched, rules),
        laid_off=tuple(laid_off),
    )


_VALUE_UNIT = 1 << 58
_LAID_UNIT = 1 << 56
_CARD_UNIT = 1 << 52
_LAST_PLACE = 51
_SUIT_SLOT = {suit: slot for slot, suit in enumerate(SUITS)}


def _weight(card: Card, rules: RuleSet) -> int:
    """An unmatched card's weight: its value first, then one card more, then its place
    in sort order (Knock Rummy's weight: domain/knock.py proves the order)."""
    place = (card.rank.value - 1) * len(SUITS) + _SUIT_SLOT[card.suit]
    return card_value(card, rules) * _VALUE_UNIT + _CARD_UNIT - (1 << (_LAST_PLACE - place))


def _extensions(hand: Sequence[Card], meld: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The blocks of the defender's cards that can go onto one knocker's meld, each in
    the order they are laid: the fourth card of a three-card set; for a run, the
    cards continuing it below (down from its low end, a chain) or above (up from its
    high end). Blocks at the two ends of one run are separate groups: both may go."""
    holding = {(card.rank.value, card.suit): card for card in hand}
    ranks = {card.rank.value for card in meld}
    if len(ranks) == 1:
        if len(meld) != 3:
            return []
        (rank,) = ranks
        suits = {card.suit for card in meld}
        return [(card,) for card in hand if card.rank.value == rank and card.suit not in suits]
    suit = meld[0].suit
    blocks: list[tuple[Card, ...]] = []
    for start, step in ((min(ranks) - 1, -1), (max(ranks) + 1, 1)):
        chain: list[Card] = []
        rank = start
        while (rank, suit) in holding:
            chain.append(holding[(rank, suit)])
            blocks.append(tuple(chain))
            rank += step
    return blocks
