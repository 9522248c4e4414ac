"""service/domain/groupings.py, Indian Rummy's best grouping: hands that show each
thing the search must know, then random hands against the brute-force oracle of
indian_oracle.py (best_grouping), and against the oracle asked once per possible
finish card (best_declaration)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from service.domain.cards import Card, Rank
from service.domain.indian.groupings import Declaration, Grouping, best_declaration, best_grouping
from service.domain.indian.judge import GroupKind, card_points
from tests.domain.indian_hands import random_hand
from tests.domain.indian_oracle import oracle_best
from tests.domain.tables import cards

SEVENS = Rank.SEVEN


def grouping(codes: str, wild: Rank = SEVENS, full_count: int = 80) -> Grouping:
    return best_grouping(cards(codes), wild, full_count)


def declaration(codes: str, keep: str | None = None, wild: Rank = SEVENS) -> Declaration:
    return best_declaration(cards(codes), wild, 80, Card.parse(keep) if keep else None)


def assert_shown_from(held: Sequence[Card], groups: Sequence[Sequence[Card]]) -> None:
    """Every card shown is one held, no card twice."""
    shown = Counter(card for group in groups for card in group)
    assert not shown - Counter(held), (held, groups)


# --- what the search must know --------------------------------------------------


def test_a_hand_that_declares_is_shown_with_every_card_in_a_group() -> None:
    found = grouping("AH 2H 3H 5S 6S JK 9C 9D 9H KC KD 7D 4C")
    assert found.points == 4
    assert found.shown.has_life
    assert list(found.shown.ungrouped) == cards("4C")


def test_a_wild_rank_card_stands_for_itself_to_make_the_pure_sequence() -> None:
    # The only pure sequence is 5S 6S 7S, sevens wild.
    found = grouping("5S 6S 7S 9C 10C JK 2D 2H 2C KD KH KS 4C")
    assert GroupKind.PURE_SEQUENCE in found.shown.kinds
    assert found.points == 4


def test_spare_wilds_go_into_groups_rather_than_stay_ungrouped() -> None:
    found = grouping("AH 2H 3H 5S 6S 7S 9C 9D 9H JK 7D KC KD")
    assert found.points == 0
    assert found.shown.valid_declaration  # JK and 7D go with KC KD, or into a sequence


def test_wilds_make_the_second_sequence_with_a_card_that_has_no_other_group() -> None:
    found = grouping("AH 2H 3H 9C 9D 9H KC KD KS 7D 7C JK 5S")
    assert found.shown.valid_declaration  # 5S JK 7C 7D (or 7D alone with KC KD KS)


def test_a_group_of_wilds_alone_is_a_sequence_when_no_natural_is_spare() -> None:
    found = grouping("AH 2H 3H 7C 7D JK")
    assert found.shown.valid_declaration
    assert tuple(cards("7C 7D JK")) in {tuple(sorted(group, key=str)) for group in found.groups}


def test_spare_wilds_join_a_pure_sequence_when_another_pure_one_keeps_the_life() -> None:
    found = grouping("AH 2H 3H 8H 9H 10H 7C 7D")
    assert found.shown.valid_declaration
    assert sorted(found.shown.kinds) == [GroupKind.PURE_SEQUENCE, GroupKind.SEQUENCE]


def test_without_a_sequence_a_spare_wild_joins_a_set_of_three() -> None:
    found = grouping("9C 9D 9H KC KD KS JK 4C 2D")
    assert not found.shown.has_life
    assert Counter(found.shown.ungrouped) == Counter(cards("4C 2D"))


def test_without_the_life_every_card_counts_and_the_fewest_are_left_out() -> None:
    found = grouping("AH 2H JK 5S 6S JK 9C 9D 9H KC 3D 4D 8C")
    assert not found.shown.has_life
    assert found.points == 75  # no pure sequence can be made
    assert len(found.shown.ungrouped) == 4  # KC 3D 4D 8C: no group holds them


def test_the_count_is_capped_and_the_groups_there_are_still_shown() -> None:
    found = grouping("KC KD KH QC QD JH JS 10C 10D 9H 9S 8C 8D")
    assert found.points == 80
    assert found.shown.count == 124
    assert found.groups == (tuple(cards("KC KD KH")),)  # the only group: the fewest left


def test_aces_go_high_or_low_but_not_round_the_corner() -> None:
    assert grouping("QH KH AH 2S 3S 4S 9C 9D 9H 5D 6D JK 8C").points == 8
    found = grouping("KH AH 2H 2S 3S 4S 9C 9D 9H 5D 6D JK 8C")
    assert found.points == 2 + 5 + 6 + 8  # KH AH JK (QH KH AH), 2H left
    assert Counter(found.shown.ungrouped) == Counter(cards("2H 5D 6D 8C"))


def test_the_same_cards_in_any_order_give_the_same_grouping() -> None:
    codes = ["AH", "2H", "3H", "5S", "6S", "JK", "9C", "9D", "9H", "KC", "KD", "7D", "4C"]
    first = best_grouping(cards(codes), SEVENS, 80)
    for seed in range(5):
        random.Random(seed).shuffle(codes)
        assert best_grouping(cards(codes), SEVENS, 80) == first


def test_a_code_held_three_times_is_refused() -> None:
    with pytest.raises(ValueError, match="two packs"):
        grouping("5S 5S 5S 6S JK")


def test_a_hand_over_thirteen_cards_is_refused_and_a_draw_over_fourteen() -> None:
    with pytest.raises(ValueError, match="13"):
        grouping("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS")
    with pytest.raises(ValueError, match="13"):
        declaration("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS 2S")


DECLARES = "AH 2H 3H 4S 5S 6S JK 9C 9D 9H KC KD 7D 10S"
"""Sevens wild: AH 2H 3H, 4S 5S 6S JK, 9C 9D 9H, KC KD 7D, and 10S to finish with."""


def test_a_declaration_finishes_with_the_card_it_does_not_need() -> None:
    found = declaration(DECLARES)
    assert found.valid
    assert found.points == 0
    assert found.finish == Card.parse("10S")


def test_the_card_taken_from_the_discard_pile_is_never_the_finish_card() -> None:
    found = declaration(DECLARES, keep="10S")
    assert found.finish != Card.parse("10S")
    assert not found.valid
    assert found.points == 10  # 10S fits nowhere


def test_a_copy_of_the_card_taken_is_that_card() -> None:
    found = declaration(DECLARES.replace("AH", "10S"), keep="10S")
    assert found.finish != Card.parse("10S")


def test_a_wild_is_the_finish_card_when_every_natural_is_needed() -> None:
    found = declaration("AH 2H 3H 7C 7D JK JK")
    assert found.valid
    assert found.finish.is_joker


def test_a_wild_taken_from_the_discard_pile_is_not_the_finish_card_either() -> None:
    found = declaration("AH 2H 3H 7C 7D 7S JK", keep="JK")
    assert found.valid
    assert found.finish.rank is SEVENS


def test_a_declaration_that_is_not_valid_discards_its_dearest_useless_card() -> None:
    found = declaration("AH 2H 3H 5S 6S JK 9C 9D 9H KC 2D 4C 8D")
    assert not found.valid
    assert found.finish == Card.parse("KC")
    assert found.points == 2 + 4 + 8


# --- against the oracle ---------------------------------------------------------


def test_best_grouping_counts_what_the_oracle_counts_on_random_hands() -> None:
    rng = random.Random(2024)
    lives = declarable = 0
    for _ in range(300):
        held, wild = random_hand(rng)
        found = best_grouping(held, wild, 80)
        expected = oracle_best(held, wild, 80)
        assert (found.points, len(found.shown.ungrouped)) == (expected.points, expected.cards), (
            " ".join(card.code for card in held),
            wild.code,
        )
        assert found.shown.valid_declaration == expected.declarable
        assert_shown_from(held, found.groups)
        lives += found.shown.has_life
        declarable += expected.declarable
    assert lives > 100, lives
    assert declarable > 10, declarable


def test_best_declaration_finds_the_best_finish_card_as_the_oracle_does() -> None:
    rng = random.Random(2025)
    valid = 0
    for number in range(30):
        held, wild = random_hand(rng, size=14)
        keep = None if number % 3 == 0 else rng.choice(held)
        found = best_declaration(held, wild, 80, keep)
        options = []
        for finish in dict.fromkeys(held):
            if keep is not None and finish == keep:
                continue
            rest = list(held)
            rest.remove(finish)
            options.append(oracle_best(rest, wild, 80))
        best = min((option.points, option.cards) for option in options)
        assert (found.points, len(found.shown.ungrouped)) == best, (
            " ".join(card.code for card in held),
            wild.code,
            keep,
        )
        assert found.valid == any(option.declarable for option in options)
        assert keep is None or found.finish != keep
        rest = list(held)
        rest.remove(found.finish)
        assert_shown_from(rest, found.groups)
        assert sum(card_points(card, wild) for card in found.shown.ungrouped) <= found.shown.count
        valid += found.valid
    assert valid >= 3, valid
