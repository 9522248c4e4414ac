"""Indian Rummy's candidate groups (docs/rules.md "Indian 13-card Rummy"): every
group a hand's naturals can make that is worth taking in the best grouping's search
(`grouping_search`), as a bit mask of its members, the fewest wilds it needs, and
its kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from service.domain.cards import RANKS, SUITS, Card, Rank, Suit

MIN_GROUP = 3
_MAX_SET = 4
_MAX_RUN = 13
_ACE_HIGH = 14

_RANKS_BY_VALUE = {rank.value: rank for rank in RANKS}

PURE, SEQUENCE, SET3, SET4 = range(4)
"""What a group brings to the life rule and to placing spare wilds: a pure
sequence; another sequence (it takes any spare wilds); a set of 3 (it takes one);
a set of 4."""

Candidate = tuple[int, int, int]
"""A group as (its members as a bit mask over the hand's codes, the wilds it needs
besides, its kind: `PURE` ...)."""


def candidates(naturals: list[Card], bit: dict[str, int], wild_count: int) -> list[Candidate]:
    """Every group worth taking: its naturals (and wild-rank cards standing for
    themselves) and the fewest wilds it needs. More wilds in a group are spares,
    placed at the end."""
    pure: dict[int, int] = {}
    sequence: dict[int, int] = {}
    sets: list[Candidate] = []
    by_rank: dict[Rank, list[Card]] = {}
    for card in naturals:  # distinct codes: one rank's cards have different suits
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        for size in range(MIN_GROUP - 1, min(len(cards), _MAX_SET) + 1):
            fillers = max(0, MIN_GROUP - size)
            if fillers <= wild_count:
                kind = SET3 if size + fillers == MIN_GROUP else SET4
                sets.extend(
                    (_mask(chosen, bit), fillers, kind) for chosen in combinations(cards, size)
                )
    for suit in SUITS:
        # Pure: every run position held, by a natural or a wild-rank card as itself.
        line = [bit.get(code) for code in _LINES[suit]]
        for start in range(_ACE_HIGH):
            mask = 0
            for end in range(start, min(start + _MAX_RUN, _ACE_HIGH)):
                at = line[end]
                if at is None:
                    break
                mask |= 1 << at
                if end - start + 1 >= MIN_GROUP:
                    pure[mask] = 0
        if not wild_count:
            continue
        # Sequences: some naturals of the suit, wilds in the gaps and up to 3 cards.
        held = [card for card in naturals if card.suit is suit]
        for high in (False, True):
            if high and not any(card.rank is Rank.ACE for card in held):
                continue
            placed = sorted((_position(card, high), bit[card.code]) for card in held)
            for i, (low, low_bit) in enumerate(placed):
                for j in range(i, len(placed)):
                    span = placed[j][0] - low + 1
                    if span > _MAX_RUN:
                        break
                    ends = (1 << low_bit) | (1 << placed[j][1])
                    inner = [1 << at for _, at in placed[i + 1 : j]]
                    kept = len(inner) + (1 if i == j else 2)
                    for skipped in range(len(inner) + 1):
                        fillers = max(MIN_GROUP, span) - kept + skipped
                        if fillers > wild_count:
                            break
                        if fillers == 0:
                            continue  # every card itself: a pure sequence
                        for left_out in combinations(inner, skipped):
                            mask = ends | (sum(inner) - sum(left_out))
                            if sequence.get(mask, fillers) >= fillers:
                                sequence[mask] = fillers
    found = [(mask, 0, PURE) for mask in pure]
    found += [(mask, fillers, SEQUENCE) for mask, fillers in sequence.items() if mask not in pure]
    return found + sets


# Each suit's run positions 1 (the ace low) to 14 (the ace high), as codes.
_LINES: dict[Suit, tuple[str, ...]] = {
    suit: tuple(
        Card(_RANKS_BY_VALUE[(position - 1) % _MAX_RUN + 1], suit).code
        for position in range(1, _ACE_HIGH + 1)
    )
    for suit in SUITS
}


def _position(card: Card, high: bool) -> int:
    rank = card.sort_key[0]
    return _ACE_HIGH if high and rank == 1 else rank


def _mask(cards: Sequence[Card], bit: dict[str, int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << bit[card.code]
    return mask
