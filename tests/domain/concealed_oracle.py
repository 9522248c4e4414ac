"""A brute-force oracle for concealed turns, written apart from the engine's search
(service/domain/concealed.py): the melds straight from docs/rules.md (natural
cards only), and a going-out list found by trying every group of cards."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from service.domain.actions import Action, Discard, Meld
from service.domain.cards import Card
from service.domain.rules import Aces, GoingOut

# Ranks a run may climb through (A = 1 ... K = 13), written out by hand: every run is
# a window of 3 to 13 consecutive entries of its line.
_LINES = {
    Aces.LOW: list(range(1, 14)),
    Aces.HIGH_OR_LOW: [*range(1, 14), 1],
    Aces.AROUND_THE_CORNER: [*range(1, 14), *range(1, 14)],
}
_RUNS = {
    aces: {
        frozenset(line[start : start + length])
        for length in range(3, 14)
        for start in range(len(line) - length + 1)
    }
    for aces, line in _LINES.items()
}


def is_meld(group: Sequence[Card], aces: Aces) -> bool:
    """3-4 cards of one rank in different suits, or 3+ of one suit in a run."""
    if len(group) < 3 or len(set(group)) != len(group) or any(c.is_joker for c in group):
        return False
    if len({c.rank for c in group}) == 1:
        return True
    if len({c.suit for c in group}) != 1:
        return False
    return frozenset(int(c.rank) for c in group) in _RUNS[aces]


def going_out_list(
    held: Sequence[Card],
    aces: Aces,
    taken: Sequence[Card],
    going_out: GoingOut,
) -> list[Action] | None:
    """A list of melds (and a final discard, not a card taken from the pile) that
    empties `held`, or None if there is none. Only jokers repeat, and they make no
    meld here (the engine's finder is classic until the wild melds come)."""

    @cache
    def split(left: frozenset[Card]) -> tuple[tuple[Card, ...], ...] | None:
        """Some split of `left` into melds, or None."""
        if not left:
            return ()
        first = min(left, key=lambda c: c.sort_key)
        # Any meld holding `first` is of its rank or of its suit.
        kin = sorted(
            (c for c in left - {first} if c.rank is first.rank or c.suit is first.suit),
            key=lambda c: c.sort_key,
        )
        # A meld holding `first` holds a meld of three holding it: none, no split.
        if not any(is_meld((first, *pair), aces) for pair in combinations(kin, 2)):
            return None
        for size in range(2, len(kin) + 1):
            for others in combinations(kin, size):
                group = (first, *others)
                if is_meld(group, aces):
                    rest = split(left - set(group))
                    if rest is not None:
                        return (group, *rest)
        return None

    whole = frozenset(held)
    # A card in no meld of three is in no meld at all: it can only be the discard.
    melded = {c for group in combinations(held, 3) if is_meld(group, aces) for c in group}
    loose = [c for c in held if c not in melded]  # with its copies (jokers)
    if len(loose) > 1:
        return None
    if going_out is GoingOut.ANY:
        melds = split(whole)
        if melds is not None:
            return [Meld(group) for group in melds]
    for thrown in held:
        if thrown in taken:
            continue
        melds = split(whole - {thrown})
        if melds is not None:
            return [*(Meld(group) for group in melds), Discard(thrown)]
    return None
