"""Indian Rummy's groups (docs/rules.md "Indian 13-card Rummy"): what a group of
cards is, whether a declaration is valid, and what a hand shown in groups counts.

A group is read in the player's favour, as the best it can be: a **pure
sequence** (a run whose every card stands for itself), else a **sequence** (a
run under some reading of its wilds), else a **set** (3-4 cards of one rank,
suits different), else **invalid**. Wilds are every `JK` and every card of the
deal's wild rank; a reading needs at least one card standing for itself
(`min_natural` 1), so a group of printed jokers only is invalid.

Because a wild may stand for any card, a group's kind follows from its
*naturals* (the cards that are not wild) alone; no reading is enumerated:

- a sequence: the naturals are of one suit, of different ranks, and fit in a
  run as long as the group (aces high or low, never both ends); with no
  naturals, one wild-rank card stands for itself and the rest fill round it;
- a set: 3-4 cards whose naturals are of one rank and different suits (with no
  naturals, one wild-rank card stands for itself).

The wild judge (`service.domain.wilds`), which enumerates readings, is the
second checker the tests hold this one to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from service.domain.cards import Card, Rank

_MIN_GROUP = 3
_MAX_SET = 4
_MAX_RUN = 13
"""Aces high or low, never both ends: A-K or 2-A at most."""
_ACE_HIGH = 14


class GroupKind(StrEnum):
    PURE_SEQUENCE = "pure_sequence"
    SEQUENCE = "sequence"
    SET = "set"
    INVALID = "invalid"


_PURE = GroupKind.PURE_SEQUENCE
_SEQUENCE = GroupKind.SEQUENCE
_SET = GroupKind.SET
_INVALID = GroupKind.INVALID


def wild_rank_of(indicator: Card) -> Rank:
    """The deal's wild rank from its indicator: the indicator's rank, or the ace when
    the indicator is a printed joker."""
    return Rank.ACE if indicator.is_joker else indicator.rank


def is_wild(card: Card, wild: Rank) -> bool:
    return card.is_joker or card.rank is wild


def card_points(card: Card, wild: Rank) -> int:
    """What a card left ungrouped counts: A K Q J 10 count 10, 2-9 their face, and
    every wild (a `JK` or a card of the wild rank) 0."""
    if is_wild(card, wild):
        return 0
    return min(int(card.rank), 10) if card.rank is not Rank.ACE else 10


def group_kind(cards: Sequence[Card], wild: Rank) -> GroupKind:
    """The best a group can be read as."""
    size = len(cards)
    if size < _MIN_GROUP:
        return _INVALID
    if _is_pure(cards, size):
        return _PURE
    naturals = [card for card in cards if not card.is_joker and card.rank is not wild]
    # A wild-rank card may stand for itself: with no naturals, one does.
    if not naturals and all(card.is_joker for card in cards):
        return _INVALID  # printed jokers only: no card stands for itself
    if size <= _MAX_RUN and _fits_run(naturals, size):
        return _SEQUENCE
    if size <= _MAX_SET and _fits_set(naturals):
        return _SET
    return _INVALID


def _is_pure(cards: Sequence[Card], size: int) -> bool:
    """Every card itself (no `JK`), one suit, consecutive ranks."""
    if size > _MAX_RUN:
        return False
    suit = cards[0].suit
    ranks = set()
    for card in cards:
        if card.is_joker or card.suit is not suit:
            return False
        ranks.add(int(card.rank))
    if len(ranks) != size:
        return False
    return _span(ranks, low=True) == size or _span(ranks, low=False) == size


def _span(ranks: set[int], *, low: bool) -> int:
    """How many run positions the ranks spread over, the ace low (1) or high (14)."""
    positions = ranks if low or 1 not in ranks else (ranks - {1}) | {_ACE_HIGH}
    return max(positions) - min(positions) + 1


def _fits_run(naturals: Sequence[Card], size: int) -> bool:
    """The naturals can stand in one run of `size` cards, the wilds filling the rest.

    Any window of at most 13 positions inside 1..14 holds the ace at one end only,
    so the naturals fit when they are one suit, all different, and spread over no
    more than `size` positions with the ace low or with it high.
    """
    if not naturals:
        return True  # a wild-rank card stands for itself; the other wilds fill round it
    suit = naturals[0].suit
    ranks = {int(card.rank) for card in naturals}
    if len(ranks) != len(naturals) or any(card.suit is not suit for card in naturals):
        return False
    return _span(ranks, low=True) <= size or _span(ranks, low=False) <= size


def _fits_set(naturals: Sequence[Card]) -> bool:
    if not naturals:
        return True  # a set of the wild rank: one stands for itself
    rank = naturals[0].rank
    suits = {card.suit for card in naturals}
    return len(suits) == len(naturals) and all(card.rank is rank for card in naturals)


@dataclass(frozen=True, slots=True)
class Group:
    """A group as shown: its cards, in the order the player gave them, and its kind."""

    cards: tuple[Card, ...]
    kind: GroupKind


def is_sequence(kind: GroupKind) -> bool:
    return kind is _PURE or kind is _SEQUENCE


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown in groups, judged: each group's kind, whether the groups meet the
    declaration rule (every card grouped aside, two sequences, one pure) and what
    the hand counts."""

    kinds: tuple[GroupKind, ...]
    has_life: bool
    """The valid groups hold at least two sequences, at least one of them pure."""
    ungrouped: tuple[Card, ...]
    """The cards in no group or in an invalid one."""
    count: int
    """What the hand counts, before the `full_count` cap."""

    @property
    def valid_declaration(self) -> bool:
        """Every card in a valid group, two sequences, one of them pure."""
        return self.has_life and not self.ungrouped


def judge(
    held: Sequence[Card], groups: Sequence[Sequence[Card]], wild: Rank, full_count: int
) -> tuple[Shown, int]:
    """Judge `groups` shown from `held` (every card of `groups` is in `held`; the
    cards of `held` in no group are ungrouped) and return the judgement and the
    points: the ungrouped cards' value where the valid groups hold two sequences,
    one pure, else all the cards' value; at most `full_count`."""
    kinds = tuple(group_kind(group, wild) for group in groups)
    valid = [kind for kind in kinds if kind is not _INVALID]
    sequences = sum(1 for kind in valid if is_sequence(kind))
    has_life = sequences >= 2 and _PURE in valid
    left = list(held)
    for group, kind in zip(groups, kinds, strict=True):
        if kind is not _INVALID:
            for card in group:
                left.remove(card)
    counted = left if has_life else held
    count = sum(card_points(card, wild) for card in counted)
    return Shown(kinds=kinds, has_life=has_life, ungrouped=tuple(left), count=count), min(
        count, full_count
    )
