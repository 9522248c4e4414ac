"""How far an Indian hand is from a valid declaration: its deficiency, the fewest
cards it must still draw (docs/rules.md "Indian 13-card Rummy": every card in a
group, two sequences, one of them pure).

The engine's grouping search counts points, which is what a loser pays but not
how soon a hand declares: a hand without the life counts all its cards however
near it is. The race is won by cards, so the search also asks this.

A declaration is 13 cards in groups of three or more. Keep some groups started
by the hand's naturals (the engine's own candidate groups, `candidates`, each
with the cards it still lacks, at most `_MOST_LACKING`); every wild is kept,
filling a gap or lengthening a sequence. Every other place of the 13 is a card
to draw. So the deficiency is 13 less the wilds less the most naturals some
choice of disjoint groups keeps, where the groups' cards and gaps fit in 13, one
group is a run whose gaps are drawn (the pure sequence: no wild in it), and
another is a sequence; a sequence none of the groups makes takes three places
of cards still to draw. A natural held twice counts once (the second copy is
spare). Cards that are out of play are not known here: a group may wait on a
card nobody can draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import suppress
from functools import cache, lru_cache

from service.domain.cards import RANKS, SUITS, Card, Rank
from service.domain.indian.candidates import MIN_GROUP, PURE, SEQUENCE, candidates
from service.domain.indian.judge import is_wild

HAND = 13
_RUN = 3
_MOST_LACKING = 1


def deficiency(held: Sequence[Card], wild: Rank) -> int:
    """The fewest cards `held` (13 or 14 cards) must still draw to declare."""
    by_low, wilds = _groups(held, wild)
    kept = _most_kept(by_low, min(wilds, HAND))
    return max(0, HAND - wilds - kept)


def deficiency_below(held: Sequence[Card], wild: Rank, limit: int, holding: int = 0) -> bool:
    """Whether `deficiency(held, wild) < limit`, decided by the same search stopped
    at the first choice of groups that keeps enough naturals, and pruned from the
    start by what it needs: an out (`lowering_draws`) asks only this, and the
    first way to reach it ends the search. Given `holding` (a natural's `_bit`),
    only the choices with that natural in a group are tried. Checked against
    `deficiency` in tests/bots/test_search_indian.py."""
    if limit <= 0:
        return False
    by_low, wilds = _groups(held, wild)
    # max(0, HAND - wilds - kept) < limit, with limit > 0: kept >= goal.
    goal = HAND - wilds - limit + 1
    if goal <= 0:
        return True
    return _most_kept(by_low, min(wilds, HAND), enough=goal, holding=holding) >= goal


def lowering_draws(
    rest: Sequence[Card], cards: Iterable[Card], wild: Rank, lacking: int
) -> set[str]:
    """The codes of those of `cards` whose draw brings `rest` (13 cards, `lacking`
    = its `deficiency`) nearer its declaration, `deficiency([*rest, card], wild) <
    lacking`: the outs (`indian_outs`).

    Every wild does the same, so one is tried (`deficiency_below`). A natural
    not yet held can only do it from inside a group: any choice of groups
    without it is one of `rest`'s own, which keep no more naturals than
    `lacking` says. So each natural's search starts from the groups holding it,
    and never tries the choices without it, where a card that is no out would
    spend most of its time proving so. Checked against `deficiency` card by card
    in tests/bots/test_indian_shape.py."""
    if lacking <= 0:
        return set()
    found: set[str] = set()
    wilds: list[Card] = []
    draws: dict[str, Card] = {}
    held = {card.code for card in rest}
    for card in cards:
        if is_wild(card, wild):
            wilds.append(card)
        elif card.code not in held:  # a natural held twice counts once
            draws[card.code] = card
    if wilds and deficiency_below([*rest, wilds[0]], wild, lacking):
        found.update(card.code for card in wilds)
    # Only a choice with the card in a group can keep more than `rest`'s own.
    found.update(
        code
        for code, card in draws.items()
        if deficiency_below([*rest, card], wild, lacking, holding=1 << _bit(card))
    )
    return found


Group = tuple[int, int, int, bool]
"""A candidate group: its naturals as a mask over `_bit`, how many, the cards it
lacks, and whether it is a sequence."""


def _groups(held: Sequence[Card], wild: Rank) -> tuple[list[tuple[Group, ...]], int]:
    """The candidate groups of `held`'s naturals (a copy counted once) by their
    lowest natural (`_bit`), runs before sets and the larger first among each,
    and how many wilds it holds.

    A group is a run within one suit or a set within one rank, so the engine's
    `candidates` is asked per suit and per rank, and each answer is kept, filed
    (`_suit_groups`, `_rank_groups`): a search meets the same suits again and
    again, hand after hand, while one draw changes one suit and one rank.
    Checked against `candidates` over the whole hand in
    tests/bots/test_indian_shape.py."""
    ranks_of = [0] * len(SUITS)
    suits_of = [0] * _PER_SUIT
    wilds = 0
    for card in held:
        if is_wild(card, wild):
            wilds += 1
        else:
            at, rank = _SUIT_AT[card.suit], card.rank - 1
            ranks_of[at] |= 1 << rank
            suits_of[rank] |= 1 << at
    by_low = [filed for at, ranks in enumerate(ranks_of) for filed in _suit_groups(at, ranks)]
    for rank, suits in enumerate(suits_of):
        if suits.bit_count() >= MIN_GROUP - _MOST_LACKING:
            for low, groups in _rank_groups(rank, suits):
                by_low[low] += groups
    return by_low, wilds


_PER_SUIT = len(RANKS)
_SUIT_AT = {suit: at for at, suit in enumerate(SUITS)}


def _bit(card: Card) -> int:
    """A natural's place in a group's mask: its suit's block of 13, then its rank."""
    return _SUIT_AT[card.suit] * _PER_SUIT + card.rank - 1


@lru_cache(maxsize=1 << 14)
def _suit_groups(at: int, ranks: int) -> tuple[tuple[Group, ...], ...]:
    """The runs of suit `SUITS[at]` when it holds `ranks` (bit r: rank r + 1), filed
    by their lowest natural within the suit's block of `_bit`. Kept for the 16,384
    holdings met most lately, about 15 MB at most (0.9 KB each, measured): a hand
    holds six of a suit or fewer nearly always, some 16,000 holdings in all."""
    cards = [Card(rank, SUITS[at]) for rank in RANKS if ranks >> (rank - 1) & 1]
    filed = _filed(cards)
    return tuple(filed.get(at * _PER_SUIT + rank, ()) for rank in range(_PER_SUIT))


@cache
def _rank_groups(rank: int, suits: int) -> tuple[tuple[int, tuple[Group, ...]], ...]:
    """The sets of `RANKS[rank]` when the suits in `suits` hold it, filed by their
    lowest natural's `_bit` (13 ranks times 16 holdings: all kept)."""
    cards = [Card(RANKS[rank], suit) for at, suit in enumerate(SUITS) if suits >> at & 1]
    return tuple(_filed(cards).items())


def _filed(cards: list[Card]) -> dict[int, tuple[Group, ...]]:
    """The engine's candidate groups of `cards`, by their lowest natural's `_bit`,
    the larger first (and of those, the one lacking less): the search tries them
    in this order, and the sooner it finds a large choice the more it cuts."""
    bit = {card.code: _bit(card) for card in cards}
    filed: dict[int, list[Group]] = {}
    for mask, lacking, kind in candidates(cards, bit, _MOST_LACKING):
        low = (mask & -mask).bit_length() - 1
        filed.setdefault(low, []).append(
            (mask, mask.bit_count(), lacking, kind in (PURE, SEQUENCE))
        )
    return {
        low: tuple(sorted(groups, key=lambda group: (-group[1], group[2])))
        for low, groups in filed.items()
    }


class _Enough(Exception):
    """A search asked for `enough` kept naturals found them: nothing more to learn."""


def _most_kept(
    by_low: list[tuple[Group, ...]],
    wilds: int,
    enough: int | None = None,
    holding: int = 0,
) -> int:
    """The most naturals disjoint groups keep with the life (see the module): a
    branch and bound, the larger groups tried first, that stops a branch once
    even keeping every natural left that some group holds, or as many as the
    places left allow, could not beat the best found (checked against every
    choice of groups in tests/bots/test_indian_shape.py). Given `enough`, only
    whether that many can be kept is asked: a branch is cut unless it could
    reach `enough`, and the first that does ends the search (the answer is then
    `enough`, else less). Given `holding` (one natural's bit), only the choices
    with that natural in a group are tried."""
    # Only a natural some group holds can be kept: the others are left out at once.
    held_by_any = 0
    for starting in by_low:
        for group in starting:
            held_by_any |= group[0]
    # Asked for `enough`, a choice keeping fewer is as good as none: bound from there.
    best = 0 if enough is None else enough - 1

    def search(
        used: int,
        kept: int,
        places: int,
        others_lack: int,
        seqs: int,
        pure: bool,
        only: Sequence[Group] = (),
    ) -> None:
        # places: the 13's places the groups fill, cards and gaps; others_lack: the
        # gaps of the groups but the pure sequence (a wild may fill those; spare
        # wilds need places of their own).
        nonlocal best
        # The life still missing is built from drawn cards: a run of three for each
        # sequence it lacks (the pure one among them; it counts among `seqs`).
        missing = 2 - seqs if pure else (1 if seqs else 2)
        spare = wilds - others_lack if wilds > others_lack else 0
        taken = places + spare
        if kept > best and taken + _RUN * missing <= HAND:
            best = kept
            if enough is not None and best >= enough:
                raise _Enough
        free = held_by_any & ~used
        if not free:
            return
        # A bound: each natural kept from here takes a place of its own, and a
        # group's gaps take places that the spare wilds would otherwise take, so
        # places and spare wilds together grow by at least the naturals kept.
        room = HAND - taken
        left = free.bit_count()
        if kept + (left if left < room else room) <= best:
            return
        # The first choice may be given (`holding`'s groups): nothing is left out then.
        low = -1 if only else (free & -free).bit_length() - 1
        for mask, size, lacking, is_sequence in only or by_low[low]:
            if mask & used or places + size + lacking > HAND:
                continue
            after, held, filled = used | mask, kept + size, places + size + lacking
            more = (2 if seqs else 1) if is_sequence else seqs
            if is_sequence and not pure:
                # This run as the pure sequence: its gaps are drawn, never wild.
                search(after, held, filled, others_lack, more, True)
            search(after, held, filled, others_lack + lacking, more, pure)
        if low >= 0:
            # Or leave the lowest natural out.
            search(used | (1 << low), kept, places, others_lack, seqs, pure)

    holders: list[Group] = []
    if holding:
        holders = [group for starting in by_low for group in starting if group[0] & holding]
        if not holders:
            return best
    with suppress(_Enough):  # the search found `enough`: `best` says so
        search(0, 0, 0, 0, 0, False, holders)
    return best
