"""An independent, brute-force reader of melds with wild cards, written from
docs/rules.md "Wild cards" alone (nothing from service/domain/wilds.py or melds.py).

It lists every classic set or run of the meld's size as plain (rank, suit) pairs,
tries every way of matching the meld's cards to it, and keeps the matchings the
rules allow: a non-wild card stands for itself; a `JK` for any other card; a
wild-rank card for itself (natural) or another card; at least `min_natural`
cards stand for themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, permutations

from service.domain.cards import Card

RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_CODES = ("C", "D", "H", "S")

Key = tuple[tuple[str, str], ...]
"""A reading as sorted (card code, code it stands for) pairs: identical cards
swapped give the same key."""


def _code(rank: int, suit: str) -> str:
    return f"{RANK_CODES[rank - 1]}{suit}"


def target_melds(size: int, aces: str) -> list[tuple[str, ...]]:
    """Every classic set and run of `size` cards, as card codes (each once, as a set
    of codes)."""
    found: set[frozenset[str]] = set()
    if 3 <= size <= 4:
        for rank in range(1, 14):
            for suits in combinations(SUIT_CODES, size):
                found.add(frozenset(_code(rank, suit) for suit in suits))
    if 3 <= size <= 13:
        for suit in SUIT_CODES:
            for start in range(1, 14):
                # Positions start, start+1, …; above 13 the ace (14), the two (15), …
                top = start + size - 1
                if aces == "low" and top > 13:
                    continue
                if aces == "high_or_low" and top > 14:
                    continue
                ranks = [(start - 1 + step) % 13 + 1 for step in range(size)]
                found.add(frozenset(_code(rank, suit) for rank in ranks))
    return [tuple(sorted(meld)) for meld in found]


def is_wild(code: str, wild_rank: str | None) -> bool:
    return code == "JK" or (wild_rank is not None and code[:-1] == wild_rank)


def oracle_readings(
    cards: Sequence[Card], wild_rank: str | None, min_natural: int, aces: str
) -> set[Key]:
    codes = [card.code for card in cards]
    found: set[Key] = set()
    for target in target_melds(len(codes), aces):
        for order in permutations(target):
            naturals = 0
            allowed = True
            for code, stands in zip(codes, order, strict=True):
                if code == stands:
                    naturals += 1
                elif not is_wild(code, wild_rank):
                    allowed = False
                    break
            if allowed and naturals >= min_natural:
                found.add(tuple(sorted(zip(codes, order, strict=True))))
    return found


def wild_rank_naturals(key: Key, wild_rank: str | None) -> int:
    return sum(1 for code, stands in key if code == stands and wild_rank and code[:-1] == wild_rank)


def oracle_choice(
    cards: Sequence[Card], wild_rank: str | None, min_natural: int, aces: str
) -> tuple[str, Key | None]:
    """What the server must do without `as`: ("invalid", None), ("ambiguous", None)
    or ("read", the one reading left when the most wild-rank cards stand for
    themselves)."""
    found = oracle_readings(cards, wild_rank, min_natural, aces)
    if not found:
        return "invalid", None
    best = max(wild_rank_naturals(key, wild_rank) for key in found)
    kept = [key for key in found if wild_rank_naturals(key, wild_rank) == best]
    if len(kept) > 1:
        return "ambiguous", None
    return "read", kept[0]
