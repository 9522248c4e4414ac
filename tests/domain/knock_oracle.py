"""An independent Knock Rummy counter for tests: every set of disjoint melds, tried.

It shares no code with service/domain/knock.py or melds.py: melds are judged
here from docs/rules.md's words (a set is 3-4 cards of one rank in different
suits; a run is 3+ cards of one suit in consecutive ranks, the ace low, or
also high, or also round the corner), every subset of the hand of 3 or more
cards is judged, and every collection of disjoint melds is enumerated. Slow
on purpose: hands of up to about 11 cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

from service.domain.cards import Card, Rank
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet

COURT = 10


def value(card: Card, rules: RuleSet) -> int:
    """docs/rules.md: A `ace_value` (1 with low aces, else 15, by default), 2-10 face,
    J Q K 10."""
    if card.rank is Rank.ACE:
        if rules.ace_value is not None:
            return rules.ace_value
        return 1 if rules.aces is Aces.LOW else 15
    return min(int(card.rank), COURT)


def is_set(cards: Sequence[Card]) -> bool:
    return (
        3 <= len(cards) <= 4
        and len({c.rank for c in cards}) == 1
        and len({c.suit for c in cards}) == len(cards)
    )


def is_run(cards: Sequence[Card], aces: Aces) -> bool:
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(int(c.rank) for c in cards)
    if len(set(ranks)) != len(ranks):
        return False
    n = len(ranks)

    def consecutive(line: list[int]) -> bool:
        return all(b == a + 1 for a, b in pairwise(line))

    if consecutive(ranks):
        return True  # the ace low (or no ace)
    if aces is Aces.HIGH_OR_LOW and ranks[0] == 1:
        return consecutive([*ranks[1:], 14])  # the ace above the king
    if aces is Aces.AROUND_THE_CORNER and n <= 13:
        # Some rotation of the 13 ranks reads these ranks as consecutive.
        return any(consecutive(sorted((r - start) % 13 for r in ranks)) for start in range(1, 14))
    return False


def is_meld(cards: Sequence[Card], aces: Aces) -> bool:
    return is_set(cards) or is_run(cards, aces)


@dataclass(frozen=True)
class Best:
    count: int
    unmatched: tuple[Card, ...]
    """In sort order."""
    melds: tuple[frozenset[Card], ...]


def arrangements(hand: Sequence[Card], aces: Aces) -> Iterator[tuple[frozenset[Card], ...]]:
    """Every collection of disjoint melds within `hand` (the empty one included)."""
    candidates = [
        frozenset(group)
        for size in range(3, len(hand) + 1)
        for group in combinations(hand, size)
        if is_meld(group, aces)
    ]

    def extend(
        start: int, used: frozenset[Card], chosen: tuple[frozenset[Card], ...]
    ) -> Iterator[tuple[frozenset[Card], ...]]:
        yield chosen
        for index in range(start, len(candidates)):
            meld = candidates[index]
            if not meld & used:
                yield from extend(index + 1, used | meld, (*chosen, meld))

    yield from extend(0, frozenset(), ())


def best(hand: Sequence[Card], rules: RuleSet) -> Best:
    """The least count; among those, the fewest unmatched; among those, the sorted
    unmatched list that comes first card by card (docs/rules.md, Knock Rummy, "Count")."""
    found: tuple[tuple[int, int, list[tuple[int, str]]], Best] | None = None
    for chosen in arrangements(hand, rules.aces):
        used = frozenset().union(*chosen)
        unmatched = tuple(sorted((c for c in hand if c not in used), key=lambda c: c.sort_key))
        count = sum(value(c, rules) for c in unmatched)
        key = (count, len(unmatched), [c.sort_key for c in unmatched])
        if found is None or key < found[0]:
            found = (key, Best(count, unmatched, chosen))
    assert found is not None
    return found[1]
