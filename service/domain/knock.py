"""Knock Rummy (docs/rules.md "Knock Rummy"): the count of a hand, and the pot.

No melds reach the table in Knock Rummy: when a player knocks (or the hand
runs out), the server arranges every hand into disjoint sets and runs (the
game's `aces`, no wilds) so that the cards left outside them are worth as
little as possible. That least value is the hand's **count**.

Several arrangements may reach it. The one shown has the fewest unmatched
cards, and then the sorted unmatched list that comes first card by card in
sort order (`Card.sort_key`). All three criteria are folded into one whole
number per card (`_weight`), so that a smaller sum is a better arrangement:

    weight = value * 2**58 + 2**52 - 2**(51 - place)

where `place` is the card's position in sort order among the 52 (0 for AC,
51 for KS). The value part dominates (at most 52 cards of 2**52 each stay
under 2**58); then each unmatched card adds about 2**52, so fewer unmatched
cards win; for as many cards, the sum is smaller when the set of unmatched
cards holds the earliest card where two sets differ, which is exactly the
card-by-card order of their sorted lists. Being a sum, the weight of an
arrangement is the weights of its parts added, so a search that picks the
best arrangement of each remainder also picks the best of the whole.

The search: take the hand's first card left; either it stays unmatched, or
it goes into one of the melds that hold it among the cards left; remember
the best for each set of cards left (a bit mask). Each card is weighed, and
each meld found, once per hand.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from service.domain import melds
from service.domain.cards import SUITS, Card
from service.domain.rules import RuleSet
from service.domain.scoring import card_value

_VALUE_UNIT = 1 << 58
_CARD_UNIT = 1 << 52
_LAST_PLACE = 51
_SUIT_SLOT = {suit: slot for slot, suit in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One hand arranged for its count."""

    count: int
    """The value of the unmatched cards: the least any arrangement leaves."""
    melds: tuple[tuple[Card, ...], ...]
    """The melds shown, each in table order, ordered by their first card in sort order."""
    unmatched: tuple[Card, ...]
    """The cards outside those melds, in sort order."""


def arrange(cards: Sequence[Card], rules: RuleSet) -> Arrangement:
    """The hand's count and the arrangement shown for it (see the module docstring).

    The cards are one pack's (Knock Rummy plays with one pack): no code repeats.
    """
    hand = sorted(cards, key=lambda card: card.sort_key)
    if len({card.code for card in hand}) != len(hand):
        raise ValueError("A knock count needs distinct cards: Knock Rummy plays one pack.")
    index = {card.code: position for position, card in enumerate(hand)}
    weights = [_weight(card, rules) for card in hand]
    # Each meld as a bit mask over `hand`, filed under its first card (its lowest
    # bit): the search only ever asks for the melds of the first card left.
    starting: list[list[int]] = [[] for _ in hand]
    for meld in melds.possible_melds(hand, rules.aces):
        mask = 0
        for card in meld:
            mask |= 1 << index[card.code]
        starting[(mask & -mask).bit_length() - 1].append(mask)

    best: dict[int, tuple[int, int]] = {0: (0, 0)}
    """For each set of cards left: the least weight, and the meld taken first (0 when
    the first card stays unmatched)."""

    def search(left: int) -> int:
        found = best.get(left)
        if found is not None:
            return found[0]
        low = left & -left
        first = low.bit_length() - 1
        least = weights[first] + search(left ^ low)
        taken = 0
        for meld in starting[first]:
            if meld & left == meld:
                weight = search(left ^ meld)
                if weight < least:
                    least, taken = weight, meld
        best[left] = (least, taken)
        return least

    everything = (1 << len(hand)) - 1
    search(everything)
    shown: list[tuple[Card, ...]] = []
    unmatched: list[Card] = []
    left = everything
    while left:
        taken = best[left][1]
        if taken:
            meld_cards = [hand[i] for i in range(len(hand)) if taken >> i & 1]
            shown.append(tuple(melds.arrange(meld_cards, rules.aces)))
            left ^= taken
        else:
            low = left & -left
            unmatched.append(hand[low.bit_length() - 1])
            left ^= low
    shown.sort(key=lambda meld: min(card.sort_key for card in meld))
    return Arrangement(
        count=sum(card_value(card, rules) for card in unmatched),
        melds=tuple(shown),
        unmatched=tuple(unmatched),
    )


def _weight(card: Card, rules: RuleSet) -> int:
    place = (card.rank.value - 1) * len(SUITS) + _SUIT_SLOT[card.suit]
    return card_value(card, rules) * _VALUE_UNIT + _CARD_UNIT - (1 << (_LAST_PLACE - place))


@dataclass(frozen=True, slots=True)
class Pot:
    """What a knock wins: who wins it, how much is in it, and each seat's share."""

    undercut: bool
    winners: tuple[int, ...]
    pot: int
    points: tuple[int, ...]
    """Each seat's share of the pot (0 for a non-winner): nobody loses points."""


@dataclass(frozen=True, slots=True)
class KnockOptions:
    """The options every Knock game sets (its preset)."""

    penalty: int
    """What an undercut knocker adds to the pot (the rule `knock_penalty`)."""
    bonus: int
    """What a knocker winning with 0 gets from each other player (`knock_bonus`)."""


def knock_options(rules: RuleSet) -> KnockOptions:
    """The knock options of `rules`, which the caller knows to be a Knock game's.
    Read once a hand, when it is knocked: made each time, not cached."""
    penalty, bonus = rules.knock_penalty, rules.knock_bonus
    assert penalty is not None, "a knock game has a knock penalty"
    assert bonus is not None, "a knock game has a knock bonus"
    return KnockOptions(penalty=penalty, bonus=bonus)


def pot(
    counts: Sequence[int], knocker: int, *, penalty: int, bonus: int, out: Collection[int] = ()
) -> Pot:
    """Settle a knock: `counts` holds every seat's count (the knocker's without its
    knock card).

    The lowest count wins. The knocker is undercut when another count is lower
    than or equal to its own: then the lowest counts among the others win. Every
    non-winner puts in its count minus the lowest; an undercut knocker adds
    `penalty` (the rule `knock_penalty`); a knocker winning with 0 gets `bonus`
    (`knock_bonus`) from each other player. The winners share the pot equally, rounded down.
    A seat `out` (forfeited) neither undercuts nor wins; it puts in its count minus the
    lowest, never less than 0.
    """
    if not 0 <= knocker < len(counts):
        raise ValueError(f"Seat {knocker} cannot knock at a table of {len(counts)} seats.")
    others = [seat for seat in range(len(counts)) if seat != knocker]
    contenders = [seat for seat in others if seat not in out]
    undercut = any(counts[seat] <= counts[knocker] for seat in contenders)
    if undercut:
        lowest = min(counts[seat] for seat in contenders)
        winners = tuple(seat for seat in contenders if counts[seat] == lowest)
    else:
        lowest = counts[knocker]
        winners = (knocker,)
    total = sum(max(count - lowest, 0) for seat, count in enumerate(counts) if seat not in winners)
    if undercut:
        total += penalty
    elif lowest == 0:
        total += bonus * len(others)
    share = total // len(winners)
    return Pot(
        undercut=undercut,
        winners=winners,
        pot=total,
        points=tuple(share if seat in winners else 0 for seat in range(len(counts))),
    )
