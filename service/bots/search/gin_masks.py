"""Gin hands as bit masks, for the search's rollouts: the least deadwood, fast.

The domain's count (`gin.deadwood.least`) builds an arrangement of typed cards
(about 50 µs a hand); a search plays thousands of turns a move and needs only the
number. Here a card is a bit (`suit slot * 13 + rank - 1`: aces low, as gin's
are fixed), a hand an int, and the least deadwood of a hand is the value of its
cards less the most value any disjoint choice of its sets and runs covers: the
same number as the domain's (tests/bots/test_gin_search.py checks them against
each other), remembered per hand since samples repeat hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from service.domain.cards import FULL_DECK, SUITS, Card

RANKS = 13
_SUIT_MASK = (1 << RANKS) - 1
_SLOT = {suit: slot for slot, suit in enumerate(SUITS)}

CARDS: tuple[Card, ...] = tuple(
    sorted(
        (card for card in FULL_DECK if not card.is_joker),
        key=lambda card: _SLOT[card.suit] * RANKS + card.rank.value - 1,
    )
)
"""The card of each bit."""
BIT: dict[Card, int] = {card: bit for bit, card in enumerate(CARDS)}
VALUE: tuple[int, ...] = tuple(min(card.rank.value, 10) for card in CARDS)
"""Gin's values: A 1, 2-10 face, J Q K 10."""

_CACHE_LIMIT = 200_000
_counts: dict[int, int] = {}


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << BIT[card]
    return mask


def cards_of(mask: int) -> list[Card]:
    return [CARDS[bit] for bit in bits(mask)]


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def value(mask: int) -> int:
    """The value of every card in `mask`."""
    total = 0
    for slot in range(len(SUITS)):
        total += _CHUNK_VALUE[(mask >> (slot * RANKS)) & _SUIT_MASK]
    return total


def deadwood(mask: int) -> int:
    """The least deadwood of the hand `mask` (gin's count)."""
    found = _counts.get(mask)
    if found is not None:
        return found
    count = value(mask) - _most_covered(mask)
    if len(_counts) >= _CACHE_LIMIT:
        _counts.clear()
    _counts[mask] = count
    return count


def best_discard(mask: int, keep: int = -1) -> tuple[int, int]:
    """(deadwood left, bit thrown) for the best throw from the hand `mask`, never the
    bit `keep` (a card just taken from the pile): the least deadwood, then the
    highest card, then the highest bit (so ties never fall to the generator)."""
    # Throwing a card lowers the least deadwood by at most its value (the hand's best
    # arrangement with that card left over is one of the rest's): so, the cards
    # tried highest first, once even that bound is no better the search stops.
    whole = deadwood(mask)
    best: tuple[int, int, int] | None = None
    for bit in sorted(bits(mask), key=_HIGH_FIRST.__getitem__):
        if bit == keep:
            continue
        if best is not None and whole - VALUE[bit] > best[0]:
            break
        key = (deadwood(mask ^ (1 << bit)), -VALUE[bit], -bit)
        if best is None or key < best:
            best = key
    assert best is not None, "a hand to throw from holds a card it may throw"
    return best[0], -best[2]


def touches(mask: int, bit: int) -> bool:
    """Whether the card `bit` could share a meld with a card of `mask`: one of its
    rank, or one of its suit up to two ranks away."""
    return bool(mask & _NEAR[bit])


def _most_covered(mask: int) -> int:
    """The most value disjoint sets and runs of `mask` cover. Sets are few (a hand of
    eleven holds at most three ranks of three or more cards), so each choice of them
    is tried; what each leaves in a suit is covered best by runs alone, a table
    lookup. Sets of different ranks never share a card, nor runs of different suits."""
    a, b, c, d = (mask >> (slot * RANKS) & _SUIT_MASK for slot in range(4))
    # The ranks held in three suits or four: most hands have none.
    crowded = (a & b & (c | d)) | (c & d & (a | b))
    if not crowded:
        return _RUN_COVER[a] + _RUN_COVER[b] + _RUN_COVER[c] + _RUN_COVER[d]
    choices = [0]
    for rank in bits(crowded):
        sets = _sets_of(mask & _RANK_MASK[rank])
        choices = [chosen | one for chosen in choices for one in (0, *sets)]
    best = 0
    for chosen in choices:
        rest = mask & ~chosen
        best = max(
            best,
            value(chosen)
            + _RUN_COVER[rest & _SUIT_MASK]
            + _RUN_COVER[rest >> RANKS & _SUIT_MASK]
            + _RUN_COVER[rest >> (2 * RANKS) & _SUIT_MASK]
            + _RUN_COVER[rest >> (3 * RANKS)],
        )
    return best


def _chunk_value(chunk: int) -> int:
    return sum(min(rank + 1, 10) for rank in range(RANKS) if chunk >> rank & 1)


def _run_covers() -> tuple[int, ...]:
    """For each suit's cards (a 13-bit chunk), the most value its disjoint runs cover.
    The chunk's lowest card is either outside every run, or starts one (nothing in
    the chunk is lower); each leaves a smaller chunk, whose cover is already known."""
    covers = [0] * (1 << RANKS)
    for chunk in range(1, 1 << RANKS):
        low = (chunk & -chunk).bit_length() - 1
        best = covers[chunk & (chunk - 1)]
        run = 0
        for end in range(low, RANKS):
            if not chunk >> end & 1:
                break
            run |= 1 << end
            if end - low >= 2:
                best = max(best, _CHUNK_VALUE[run] + covers[chunk & ~run])
        covers[chunk] = best
    return tuple(covers)


@cache
def _sets_of(present: int) -> tuple[int, ...]:
    cards = list(bits(present))
    if len(cards) == 3:
        return (present,)
    return (present, *(present ^ (1 << bit) for bit in cards))


_CHUNK_VALUE = tuple(_chunk_value(chunk) for chunk in range(1 << RANKS))
_RUN_COVER = _run_covers()
_RANK_MASK = tuple(
    sum(1 << (slot * RANKS + rank) for slot in range(len(SUITS))) for rank in range(RANKS)
)

_HIGH_FIRST = {bit: (-VALUE[bit], -bit) for bit in range(len(CARDS))}
_NEAR = tuple(
    (
        _RANK_MASK[bit % RANKS]
        | sum(1 << (bit + step) for step in (-2, -1, 1, 2) if 0 <= bit % RANKS + step < RANKS)
    )
    & ~(1 << bit)
    for bit in range(len(CARDS))
)
