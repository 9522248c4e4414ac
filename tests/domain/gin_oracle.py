"""A brute-force oracle for Gin Rummy's counts, written apart from the service's
search (no bit masks, no memo, no candidate pruning, no shared meld code): the
least deadwood of a hand by trying every set of disjoint melds, and the defender's
least deadwood after lay-offs by trying every subset of its cards laid off, every
way of sharing them among the knocker's melds (a lay-off is legal exactly when
each knocker's meld with the cards given to it is still a meld: a set of at most
four of a rank, or a run of one suit without a gap), and the best arrangement of
what is left.

Cards are (rank 1-13, suit letter) pairs; values A 1, 2-10 face, J Q K 10.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

Plain = tuple[int, str]


def value(card: Plain) -> int:
    return min(card[0], 10)


def is_meld(cards: Iterable[Plain]) -> bool:
    """A set of 3-4 cards of one rank, or a run of 3+ cards of one suit in sequence
    (ace low only: no Q K A, no K A 2)."""
    group = list(cards)
    if len(group) < 3 or len(set(group)) != len(group):
        return False
    ranks = {rank for rank, _ in group}
    suits = {suit for _, suit in group}
    if len(ranks) == 1:
        return len(group) <= 4
    if len(suits) != 1:
        return False
    ordered = sorted(ranks)
    return len(ordered) == len(group) and ordered[-1] - ordered[0] == len(group) - 1


def all_melds(hand: Sequence[Plain]) -> list[frozenset[Plain]]:
    """Every meld the hand holds, by trying every subset of 3 cards or more."""
    found = []
    for size in range(3, len(hand) + 1):
        for group in combinations(hand, size):
            if is_meld(group):
                found.append(frozenset(group))
    return found


def least_deadwood(hand: Sequence[Plain]) -> int:
    """The least value outside disjoint melds: every choice of disjoint melds tried."""
    melds = all_melds(hand)
    best = sum(value(card) for card in hand)

    def search(start: int, used: frozenset[Plain]) -> None:
        nonlocal best
        best = min(best, sum(value(card) for card in hand if card not in used))
        for index in range(start, len(melds)):
            meld = melds[index]
            if not meld & used:
                search(index + 1, used | meld)

    search(0, frozenset())
    return best


def layable(cards: Sequence[Plain], knocker: Sequence[Sequence[Plain]]) -> bool:
    """Whether `cards` can all be laid off on `knocker`'s melds (chains included):
    some sharing of them among the melds leaves every meld a meld."""
    if not cards:
        return True
    choices = [[i for i, meld in enumerate(knocker) if _may_join(card, meld)] for card in cards]
    for owners in product(*choices):
        grown = [list(meld) for meld in knocker]
        for card, owner in zip(cards, owners, strict=True):
            grown[owner].append(card)
        if all(is_meld(meld) for meld in grown):
            return True
    return False


def _may_join(card: Plain, meld: Sequence[Plain]) -> bool:
    """A card can only ever join a set of its rank or a run of its suit."""
    ranks = {rank for rank, _ in meld}
    suits = {suit for _, suit in meld}
    if len(ranks) == 1:
        return card[0] in ranks
    return card[1] in suits


def defender_deadwood(hand: Sequence[Plain], knocker: Sequence[Sequence[Plain]]) -> int:
    """The defender's least deadwood after its lay-offs: every subset of the cards
    that could join some meld laid off."""
    best = least_deadwood(hand)
    joinable = [card for card in hand if any(_may_join(card, meld) for meld in knocker)]
    for size in range(1, len(joinable) + 1):
        for laid in combinations(joinable, size):
            if not layable(laid, knocker):
                continue
            rest = [card for card in hand if card not in laid]
            best = min(best, least_deadwood(rest))
    return best
