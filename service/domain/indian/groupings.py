"""Indian Rummy's best grouping (docs/rules.md "Indian 13-card Rummy"): the groups
that make a hand count the least, as `judge` counts it, and the best declaration
after a draw. A bot shows the first in the `show` phase and declares or discards by
the second; a clock may show the first for a silent player. The search that finds
them is `grouping_search`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.domain.cards import Card, Rank
from service.domain.indian.grouping_search import Search
from service.domain.indian.judge import Shown, judge

_HAND = 13


@dataclass(frozen=True, slots=True)
class Grouping:
    """A hand shown in groups, as `groups.judge` judges it."""

    groups: tuple[tuple[Card, ...], ...]
    shown: Shown
    points: int
    """The hand's count: at most `full_count`."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """The best play after a draw: the finish card and the other 13 in groups."""

    finish: Card
    groups: tuple[tuple[Card, ...], ...]
    shown: Shown
    points: int
    """What the other 13 count shown in `groups`: 0 for a valid declaration."""

    @property
    def valid(self) -> bool:
        """Every one of the 13 in a valid group, two sequences, one of them pure."""
        return self.shown.valid_declaration


def best_grouping(held: Sequence[Card], wild: Rank, full_count: int) -> Grouping:
    """The groups of `held` (a hand of at most 13) that count the least under
    `groups.judge`; among those, the fewest ungrouped cards, then the first the
    search meets (the same for the same cards in any order)."""
    _check_size(held, _HAND)
    search = Search(held, wild, finish=False, keep=None)
    groups, _ = search.best(full_count)
    shown, points = judge(held, groups, wild, full_count)
    return Grouping(groups=groups, shown=shown, points=points)


def best_declaration(
    held: Sequence[Card], wild: Rank, full_count: int, keep: Card | None
) -> Declaration:
    """After a draw (`held`, 14 cards): the finish card and the groups of the other 13
    that count the least, as `best_grouping` ranks them. The finish card is never
    `keep` (the card just taken from the discard pile; a copy of it is the same
    card). `valid` says whether the result is a valid declaration: the search finds
    one whenever one exists, since a valid declaration counts 0 with no card left."""
    _check_size(held, _HAND + 1)
    search = Search(held, wild, finish=True, keep=keep)
    groups, finish = search.best(full_count)
    assert finish is not None, "a hand of at least two codes always has a finish card"
    rest = list(held)
    rest.remove(finish)
    shown, points = judge(rest, groups, wild, full_count)
    return Declaration(finish=finish, groups=groups, shown=shown, points=points)


def _check_size(held: Sequence[Card], most: int) -> None:
    # A sequence holds at most 13 cards: the search counts on any spare wilds
    # fitting into one.
    if len(held) > most:
        raise ValueError(f"A hand of {len(held)} cards: an Indian hand has {_HAND}.")
