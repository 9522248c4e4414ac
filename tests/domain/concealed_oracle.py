"""A brute-force oracle for concealed turns, written apart from the engine's search
(service/domain/concealed.py): the melds straight from docs/rules.md (natural
cards; and, for Wrotham's jokers, wild melds read by filling the places of a set
or run), and a going-out list found by trying every group of cards."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from service.domain.actions import Action, Discard, Meld
from service.domain.cards import Card
from service.domain.rule_values import Aces, GoingOut
from service.domain.rules import RuleSet
from tests.domain.wild_oracle import target_melds

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
    meld here (games with wilds: `wild_going_out_list`)."""

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


# --- with wild cards (Wrotham's jokers): written from docs/rules.md "Wild cards" ----------


@cache
def _targets(size: int, aces: Aces) -> tuple[frozenset[str], ...]:
    """Every classic set and run of `size` cards, as sets of codes (the wild
    oracle's own list)."""
    return tuple(frozenset(meld) for meld in target_melds(size, aces.value))


def wild_reading(group: Sequence[Card], rules: RuleSet) -> tuple[Card, ...] | None:
    """Some reading of `group` (what each card stands for, parallel to it) that makes
    a meld, or None: non-wild cards stand for themselves, wilds fill the other places
    of a classic set or run (a wild-rank card may also stand for itself), and at
    least `min_natural` cards stand for themselves."""
    assert rules.min_natural is not None
    wild_rank = rules.wild_rank

    def wild(card: Card) -> bool:
        return card.is_joker or (wild_rank is not None and card.code[:-1] == wild_rank)

    naturals = [card.code for card in group if not wild(card)]
    if len(set(naturals)) != len(naturals):
        return None
    for target in _targets(len(group), rules.aces):
        if not set(naturals) <= target:
            continue
        free = set(target) - set(naturals)
        reading: list[str | None] = [None if wild(card) else card.code for card in group]
        natural_count = len(naturals)
        # Wild-rank cards that can stand for themselves do, as far as places allow.
        for index, card in enumerate(group):
            if wild(card) and not card.is_joker and card.code in free:
                reading[index] = card.code
                free.discard(card.code)
                natural_count += 1
        if natural_count < rules.min_natural:
            continue
        left = sorted(free)
        for index, code in enumerate(reading):
            if code is None:
                reading[index] = left.pop()
        return tuple(Card.parse(code) for code in reading if code is not None)
    return None


def wild_going_out_list(
    held: Sequence[Card], rules: RuleSet, taken: Sequence[Card], going_out: GoingOut
) -> list[Action] | None:
    """As `going_out_list`, with wild melds (each sent with its reading) and the
    hand as a multiset (the jokers repeat)."""

    @cache
    def split(
        left: tuple[Card, ...],
    ) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...] | None:
        if not left:
            return ()
        first, rest = left[0], left[1:]
        for size in range(2, len(rest) + 1):
            for others in dict.fromkeys(combinations(rest, size)):
                group = (first, *others)
                reading = wild_reading(group, rules)
                if reading is None:
                    continue
                remaining = list(rest)
                for card in others:
                    remaining.remove(card)
                found = split(tuple(remaining))
                if found is not None:
                    return ((group, reading), *found)
        return None

    ordered = tuple(sorted(held, key=lambda c: c.sort_key))
    if going_out is GoingOut.ANY:
        melds = split(ordered)
        if melds is not None:
            return [Meld(group, reading) for group, reading in melds]
    for thrown in dict.fromkeys(ordered):
        if thrown in taken:
            continue
        left = list(ordered)
        left.remove(thrown)
        melds = split(tuple(left))
        if melds is not None:
            return [*(Meld(group, reading) for group, reading in melds), Discard(thrown)]
    return None
