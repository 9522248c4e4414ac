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

from collections.abc import Sequence
from contextlib import suppress

from service.domain.cards import Card, Rank
from service.domain.indian.candidates import PURE, SEQUENCE, candidates

HAND = 13
_RUN = 3
_MOST_LACKING = 1


def deficiency(held: Sequence[Card], wild: Rank) -> int:
    """The fewest cards `held` (13 or 14 cards) must still draw to declare."""
    by_low, count, wilds = _groups(held, wild)
    kept = _most_kept(by_low, count, min(wilds, HAND))
    return max(0, HAND - wilds - kept)


def deficiency_below(held: Sequence[Card], wild: Rank, limit: int) -> bool:
    """Whether `deficiency(held, wild) < limit`, decided by the same search stopped
    at the first choice of groups that keeps enough naturals, and pruned from the
    start by what it needs: an out (`indian_outs`) asks only this, and the first
    way to reach it ends the search. Checked against `deficiency` in
    tests/bots/test_search_indian.py."""
    if limit <= 0:
        return False
    by_low, count, wilds = _groups(held, wild)
    # max(0, HAND - wilds - kept) < limit, with limit > 0: kept >= goal.
    goal = HAND - wilds - limit + 1
    if goal <= 0:
        return True
    return _most_kept(by_low, count, min(wilds, HAND), enough=goal) >= goal


def _groups(
    held: Sequence[Card], wild: Rank
) -> tuple[list[list[tuple[int, int, int, bool]]], int, int]:
    """The candidate groups of `held`'s naturals (a copy counted once) by their
    lowest natural, how many naturals, and how many wilds."""
    naturals: list[Card] = []
    seen: set[str] = set()
    wilds = 0
    for card in held:
        if card.is_joker or card.rank is wild:
            wilds += 1
        elif card.code not in seen:
            seen.add(card.code)
            naturals.append(card)
    bit = {card.code: index for index, card in enumerate(naturals)}
    groups = candidates(naturals, bit, _MOST_LACKING)
    by_low: list[list[tuple[int, int, int, bool]]] = [[] for _ in naturals]
    for mask, lacking, kind in groups:
        low = (mask & -mask).bit_length() - 1
        size = mask.bit_count()
        by_low[low].append((mask, size, lacking, kind in (PURE, SEQUENCE)))
    return by_low, len(naturals), wilds


class _Enough(Exception):
    """A search asked for `enough` kept naturals found them: nothing more to learn."""


def _most_kept(
    by_low: list[list[tuple[int, int, int, bool]]],
    count: int,
    wilds: int,
    enough: int | None = None,
) -> int:
    """The most naturals disjoint groups keep with the life (see the module): a
    branch and bound, the larger groups tried first, that stops a branch once
    even keeping every natural left could not beat the best found. Given
    `enough`, only whether that many can be kept is asked: a branch is cut
    unless it could reach `enough`, and the first that does ends the search
    (the answer is then `enough`, else less)."""
    full = (1 << count) - 1
    # Asked for `enough`, a choice keeping fewer is as good as none: bound from there.
    best = 0 if enough is None else enough - 1
    for starting in by_low:
        starting.sort(key=lambda group: (-group[1], group[2]))

    def search(used: int, kept: int, places: int, others_lack: int, seqs: int, pure: bool) -> None:
        # places: the 13's places the groups fill, cards and gaps; others_lack: the
        # gaps of the groups but the pure sequence (a wild may fill those; spare
        # wilds need places of their own).
        nonlocal best
        # The life still missing is built from drawn cards: a run of three for each
        # sequence it lacks (the pure one among them).
        missing = (0 if pure else 1) + max(0, 2 - seqs - (0 if pure else 1))
        spare = max(0, wilds - others_lack)
        if kept > best and places + _RUN * missing + spare <= HAND:
            best = kept
            if enough is not None and best >= enough:
                raise _Enough
        free = full & ~used
        if not free or kept + free.bit_count() <= best:
            return
        low = (free & -free).bit_length() - 1
        for mask, size, lacking, is_sequence in by_low[low]:
            if mask & used or places + size + lacking > HAND:
                continue
            after, held, filled = used | mask, kept + size, places + size + lacking
            more = min(2, seqs + 1) if is_sequence else seqs
            if is_sequence and not pure:
                # This run as the pure sequence: its gaps are drawn, never wild.
                search(after, held, filled, others_lack, more, True)
            search(after, held, filled, others_lack + lacking, more, pure)
        # Or leave the lowest natural out.
        search(used | (1 << low), kept, places, others_lack, seqs, pure)

    with suppress(_Enough):  # the search found `enough`: `best` says so
        search(0, 0, 0, 0, 0, False)
    return best
