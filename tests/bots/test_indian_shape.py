"""The Indian deficiency's speed measures, each fenced by the plain path it replaces:
the candidate groups asked of the engine per suit and per rank (and kept) against
the engine's `candidates` over the whole hand, and the bounded search against
every choice of disjoint groups tried."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from service.bots.search.indian_shape import (
    _MOST_LACKING,
    HAND,
    _bit,
    _groups,
    deficiency,
    lowering_draws,
)
from service.domain.cards import FULL_DECK, JOKER, RANKS, SUITS, Card, Rank
from service.domain.indian.candidates import MIN_GROUP, PURE, SEQUENCE, candidates
from tests.bots.tables import random_indian_hands


def _near_hands(seed: str, count: int) -> Iterator[tuple[list[Card], Rank]]:
    """Hands built mostly of runs and sets, where groups cross and the search has the
    most to choose from: a few cards from a declaration, or at one."""
    rng = Random(seed)
    deck = [*FULL_DECK, *FULL_DECK, JOKER, JOKER]
    for _ in range(count):
        size = rng.choice((13, 14))
        built = rng.randint(6, size)
        hand: list[Card] = []
        while len(hand) < built:
            if rng.random() < 0.6:
                suit = rng.choice(SUITS)
                start = rng.randint(0, len(RANKS) - 3)
                length = rng.randint(3, 5)
                ranks = [RANKS[(start + at) % len(RANKS)] for at in range(length)]
                hand += [Card(rank, suit) for rank in ranks]
            else:
                rank = rng.choice(RANKS)
                hand += [Card(rank, suit) for suit in rng.sample(SUITS, rng.randint(3, 4))]
        hand = hand[:built]
        hand += rng.sample(deck, size - built)
        yield hand, rng.choice(RANKS)


def _naturals(held: list[Card], wild: Rank) -> tuple[list[Card], int]:
    """`held`'s naturals, a copy counted once, and how many wilds it holds."""
    naturals: dict[str, Card] = {}
    wilds = 0
    for card in held:
        if card.is_joker or card.rank is wild:
            wilds += 1
        else:
            naturals.setdefault(card.code, card)
    return list(naturals.values()), wilds


def _every_group_choice_kept(held: list[Card], wild: Rank) -> int:
    """The most naturals disjoint groups keep with the life (the rule in
    `indian_shape`'s docstring), by trying every choice of the engine's candidate
    groups over the whole hand: no bound, no cache."""
    naturals, wilds = _naturals(held, wild)
    wilds = min(wilds, HAND)
    bit = {card.code: at for at, card in enumerate(naturals)}
    groups = candidates(naturals, bit, _MOST_LACKING)
    best = 0

    def walk(start: int, used: int, kept: int, places: int, others: int, seqs: int, pure: bool):
        nonlocal best
        missing = (0 if pure else 1) + max(0, 2 - seqs - (0 if pure else 1))
        if places + 3 * missing + max(0, wilds - others) <= HAND:
            best = max(best, kept)
        for at in range(start, len(groups)):
            mask, lacking, kind = groups[at]
            size = mask.bit_count()
            if mask & used or places + size + lacking > HAND:
                continue
            sequence = kind in (PURE, SEQUENCE)
            more = min(2, seqs + 1) if sequence else seqs
            after = (at + 1, used | mask, kept + size, places + size + lacking)
            if sequence and not pure:
                walk(*after, others, more, True)
            walk(*after, others + lacking, more, pure)

    walk(0, 0, 0, 0, 0, 0, False)
    return best


@pytest.mark.parametrize("hands", [random_indian_hands("groups", 300), _near_hands("groups", 300)])
def test_the_groups_asked_per_suit_and_rank_are_the_engine_s_groups_of_the_hand(hands) -> None:
    for held, wild in hands:
        naturals, wilds = _naturals(held, wild)
        whole = candidates(naturals, {card.code: _bit(card) for card in naturals}, _MOST_LACKING)
        expected = sorted(
            (mask, mask.bit_count(), lacking, kind in (PURE, SEQUENCE))
            for mask, lacking, kind in whole
        )
        by_low, counted = _groups(held, wild)
        assert sorted(group for starting in by_low for group in starting) == expected, held
        assert counted == wilds
        # Each group is filed under its lowest natural, where the search looks for it.
        for low, starting in enumerate(by_low):
            assert all((mask & -mask).bit_length() - 1 == low for mask, *_ in starting)


@pytest.mark.parametrize(
    "hands", [random_indian_hands("kept", 120), _near_hands("kept", 120)], ids=["any", "near"]
)
def test_the_bounded_search_keeps_as_many_naturals_as_every_choice_of_groups(hands) -> None:
    for held, wild in hands:
        _, wilds = _naturals(held, wild)
        kept = _every_group_choice_kept(held, wild)
        assert deficiency(held, wild) == max(0, HAND - min(wilds, HAND) - kept), (held, wild)


def test_the_near_hands_reach_declarations_and_the_sets_without_a_life() -> None:
    # The near hands are worth their cost only if they hold what the random ones
    # rarely do: hands at or next to a declaration, and sets of three or more.
    near = list(_near_hands("kept", 120))
    lacking = [deficiency(held, wild) for held, wild in near]
    assert min(lacking) == 0
    assert sum(1 for value in lacking if value <= 2) >= 20
    assert any(
        len({card.suit for card in held if card.rank is rank}) >= MIN_GROUP
        for held, _ in near
        for rank in RANKS
    )


@pytest.mark.parametrize(
    "hands", [random_indian_hands("outs", 40), _near_hands("outs", 60)], ids=["any", "near"]
)
def test_the_draws_that_lower_the_deficiency_are_those_the_whole_search_finds(hands) -> None:
    # Each card tried the slow way: the whole search of the hand with it drawn.
    every = [*FULL_DECK, JOKER]
    for held, wild in hands:
        rest = held[:13]
        lacking = deficiency(rest, wild)
        slow = {card.code for card in every if deficiency([*rest, card], wild) < lacking}
        assert lowering_draws(rest, every, wild, lacking) == slow, (rest, wild)
