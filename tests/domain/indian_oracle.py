"""Independent, brute-force checkers for Indian Rummy's groups, written from
docs/rules.md ("Indian 13-card Rummy", "Wild cards") alone: nothing from
service/domain/groups.py or groupings.py.

- `reading_kind`: a group's best kind from its readings. Every classic set or run
  of the group's size is a possible represented meld; the group reads as it when
  every non-wild card is a distinct card of it and the wilds take the other
  places, with at least one card standing for itself (`min_natural` 1).
- `wilds_kind`: the same question put to the engine's wild-meld judge
  (`service.domain.wilds.readings`, a different code path that enumerates readings).
- `oracle_best`: the least (points, ungrouped cards) of a hand shown in groups, by
  listing every group the hand can make (from the represented melds) and trying
  every way of taking them: a plain search over the hand's multiset, remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from service.domain import wilds
from service.domain.cards import Card, Rank
from service.domain.rules import RuleSet

SUIT_CODES = ("C", "D", "H", "S")
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KIND_ORDER = ("pure_sequence", "sequence", "set", "invalid")


def _code(rank: int, suit: str) -> str:
    return f"{RANK_CODES[(rank - 1) % 13]}{suit}"


@cache
def melds_of_size(size: int) -> tuple[tuple[str, frozenset[str]], ...]:
    """Every classic meld of `size` cards as (kind, codes): sets of 3-4 of one rank in
    different suits, runs of one suit with the ace low (A 2 3) or high (Q K A)."""
    found: list[tuple[str, frozenset[str]]] = []
    if 3 <= size <= 4:
        for rank in range(1, 14):
            for suits in combinations(SUIT_CODES, size):
                found.append(("set", frozenset(_code(rank, suit) for suit in suits)))
    if 3 <= size <= 13:
        for suit in SUIT_CODES:
            # positions 1..14, the ace at 1 or 14, never both: start + size - 1 <= 14
            for start in range(1, 16 - size):
                found.append(("run", frozenset(_code(p, suit) for p in range(start, start + size))))
    return tuple(dict.fromkeys(found))


def is_wild(code: str, wild_rank: str) -> bool:
    return code == "JK" or code[:-1] == wild_rank


def reads_as(codes: Sequence[str], meld: frozenset[str], wild_rank: str) -> bool:
    naturals = [code for code in codes if not is_wild(code, wild_rank)]
    if len(set(naturals)) != len(naturals) or not set(naturals) <= meld:
        return False
    if naturals:
        return True
    # No natural: a wild-rank card must stand for itself.
    return any(code != "JK" and code in meld for code in codes)


@cache
def reading_kind(codes: tuple[str, ...], wild_rank: str) -> str:
    """The best kind of the group `codes` (sorted) with `wild_rank` wild."""
    best = "invalid"
    for kind, meld in melds_of_size(len(codes)):
        if kind == "run" and "JK" not in codes and set(codes) == meld:
            return "pure_sequence"  # every card stands for itself
        if reads_as(codes, meld, wild_rank):
            found = "sequence" if kind == "run" else "set"
            best = min(best, found, key=KIND_ORDER.index)
    return best


def wilds_kind(cards: Sequence[Card], wild: Rank) -> str:
    """The best kind by `service.domain.wilds.readings` (rule 2, `min_natural` 1)."""
    rules = RuleSet.from_dict(
        {"variant": "wild", "wild_rank": wild.code, "min_natural": 1, "aces": "high_or_low"}
    )
    found = wilds.readings(cards, rules)
    if any(r.kind.value == "run" and r.cards == r.as_ for r in found):
        return "pure_sequence"
    if any(r.kind.value == "run" for r in found):
        return "sequence"
    return "set" if found else "invalid"


def points(code: str, wild_rank: str) -> int:
    if is_wild(code, wild_rank):
        return 0
    rank = code[:-1]
    return 10 if rank in ("A", "10", "J", "Q", "K") else int(rank)


def hand_groups(codes: Sequence[str], wild_rank: str) -> dict[tuple[str, ...], str]:
    """Every group (sorted codes, a sub-multiset of `codes`) with its best kind: each
    represented meld, filled by the naturals held in it and any wilds held; a group
    read as several melds keeps the best."""
    held = Counter(codes)
    wild_cards = sorted(code for code in codes if is_wild(code, wild_rank))
    found: dict[tuple[str, ...], str] = {}
    for size in range(3, min(len(codes), 13) + 1):
        for kind, meld in melds_of_size(size):
            inside = sorted(code for code in meld if held[code] and not is_wild(code, wild_rank))
            for count in range(len(inside) + 1):
                if size - count > len(wild_cards):
                    continue
                for naturals in combinations(inside, count):
                    for fill in set(combinations(wild_cards, size - count)):
                        group = tuple(sorted(naturals + fill))
                        if not reads_as(group, meld, wild_rank):
                            continue
                        if kind == "set":
                            read = "set"
                        elif "JK" not in group and set(group) == meld:
                            read = "pure_sequence"
                        else:
                            read = "sequence"
                        if group not in found or KIND_ORDER.index(read) < KIND_ORDER.index(
                            found[group]
                        ):
                            found[group] = read
    return found


@dataclass(frozen=True)
class Best:
    """The oracle's answer for a hand."""

    points: int
    cards: int
    """Ungrouped cards."""
    declarable: bool
    """Some grouping puts every card in a valid group, with two sequences, one pure."""


_FIELD = 3  # bits per code's count in a packed multiset: counts 0..3, a guard bit


def oracle_best(cards: Sequence[Card], wild: Rank, full_count: int) -> Best:
    """The least (points, ungrouped cards) any grouping of `cards` gets under the
    Losers rule: with two sequences, one pure, among the valid groups only the
    cards in no group count, else all; at most `full_count`."""
    wild_rank = wild.code
    codes = sorted(card.code for card in cards)
    order = sorted(set(codes))
    # A multiset of the hand's codes as one int, each code's count in a field of
    # its own; the top bit of each field is a guard that a subtraction borrows from.
    guard = sum(4 << (_FIELD * index) for index in range(len(order)))

    def pack(group: Sequence[str]) -> int:
        return sum(1 << (_FIELD * order.index(code)) for code in group)

    starting: dict[int, list[tuple[int, str]]] = {index: [] for index in range(len(order))}
    for group, kind in hand_groups(codes, wild_rank).items():
        starting[min(order.index(code) for code in group)].append((pack(group), kind))
    start = pack(codes)
    total = sum(points(code, wild_rank) for code in codes)

    def first(left: int) -> int:
        return ((left & -left).bit_length() - 1) // _FIELD

    def minus(left: int, take: int) -> int | None:
        rest = (left | guard) - take
        return None if rest & guard != guard else rest & ~guard

    @cache
    def with_life(left: int, pures: int, sequences: int) -> tuple[int, int] | None:
        """The least (points, cards) left ungrouped when the groups taken from here end
        with two sequences, one pure (`pures`, `sequences` so far, up to 2)."""
        if not left:
            return (0, 0) if pures >= 1 and sequences >= 2 else None
        index = first(left)
        best = with_life(left - (1 << (_FIELD * index)), pures, sequences)
        if best is not None:
            best = (best[0] + points(order[index], wild_rank), best[1] + 1)
        for take, kind in starting[index]:
            rest = minus(left, take)
            if rest is None:
                continue
            found = with_life(
                rest,
                min(2, pures + (kind == "pure_sequence")),
                min(2, sequences + (kind != "set")),
            )
            if found is not None and (best is None or found < best):
                best = found
        return best

    @cache
    def fewest(left: int) -> int:
        """The fewest cards left ungrouped, whatever the groups."""
        if not left:
            return 0
        index = first(left)
        best = fewest(left - (1 << (_FIELD * index))) + 1
        for take, _ in starting[index]:
            rest = minus(left, take)
            if rest is not None:
                best = min(best, fewest(rest))
        return best

    life = with_life(start, 0, 0)
    options = [(min(total, full_count), fewest(start))]
    if life is not None:
        options.append((min(life[0], full_count), life[1]))
    points_, cards_ = min(options)
    return Best(points=points_, cards=cards_, declarable=life == (0, 0))


def oracle_judge(
    held: Sequence[Card], groups: Sequence[Sequence[Card]], wild: Rank, full_count: int
) -> tuple[int, bool, Counter[str]]:
    """A shown hand by the Losers and Declare paragraphs: (points, whether it is a
    valid declaration, the ungrouped cards as a multiset of codes)."""
    wild_rank = wild.code
    kinds = [
        reading_kind(tuple(sorted(card.code for card in group)), wild_rank) for group in groups
    ]
    ungrouped = Counter(card.code for card in held)
    for group, kind in zip(groups, kinds, strict=True):
        if kind != "invalid":
            ungrouped -= Counter(card.code for card in group)
    pures = kinds.count("pure_sequence")
    sequences = pures + kinds.count("sequence")
    life = pures >= 1 and sequences >= 2
    counted = ungrouped.elements() if life else (card.code for card in held)
    count = sum(points(code, wild_rank) for code in counted)
    return min(count, full_count), life and not ungrouped, ungrouped
