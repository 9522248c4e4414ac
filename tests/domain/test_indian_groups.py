"""service/domain/groups.py, Indian Rummy's group judge: each sentence of the
"Groups" and "Losers" paragraphs of docs/rules.md "Indian 13-card Rummy" (and what
its Setup and Declare paragraphs say of aces, points and a valid declaration),
then thousands of random groups and shown hands against the independent checkers
of indian_oracle.py and the wild-meld judge (service.domain.wilds.readings)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from service.domain.cards import JOKER, Card, Rank
from service.domain.indian.judge import (
    GroupKind,
    Shown,
    card_points,
    group_kind,
    judge,
    wild_rank_of,
)
from tests.domain.indian_hands import declared_hand, random_group, random_groups, random_hand
from tests.domain.indian_oracle import oracle_judge, reading_kind, wilds_kind
from tests.domain.tables import cards

SEVENS = Rank.SEVEN
PURE = GroupKind.PURE_SEQUENCE
SEQUENCE = GroupKind.SEQUENCE
SET = GroupKind.SET
INVALID = GroupKind.INVALID


def kind(codes: str, wild: Rank = SEVENS) -> GroupKind:
    return group_kind(cards(codes) if codes else [], wild)


def shown(held: str, groups: Sequence[str], full_count: int = 80) -> tuple[Shown, int]:
    return judge(cards(held), [cards(group) for group in groups], SEVENS, full_count)


def worth(codes: str) -> int:
    return sum(card_points(card, SEVENS) for card in cards(codes))


# --- Groups ------------------------------------------------------------------------


def test_a_run_of_cards_each_itself_is_pure_even_holding_a_wild_rank_card() -> None:
    assert kind("5S 6S 7S") is PURE  # the rules' example, sevens wild
    assert kind("9H 10H JH QH KH") is PURE


def test_no_as_a_group_is_read_whatever_the_order_of_its_cards() -> None:
    assert kind("7S 5S 6S") is PURE
    assert kind("8C JK 8D") is SET


def test_a_run_under_some_reading_of_its_wilds_is_a_sequence() -> None:
    assert kind("5S 6S JK") is SEQUENCE
    assert kind("5S JK 7S") is SEQUENCE  # the joker is 6S
    assert kind("5S 8S 7H JK") is SEQUENCE  # 7H and JK stand for 6S and 7S
    assert kind("5S 6S 7H") is SEQUENCE  # 7H (wild) is 7S: not every card is itself


def test_a_sequence_never_holds_two_cards_of_one_rank() -> None:
    assert kind("5S 5S 6S JK") is INVALID  # two packs: 5S twice is no run, and no set
    assert kind("5S 6S 6S") is INVALID


def test_three_or_four_of_a_rank_in_different_suits_is_a_set() -> None:
    assert kind("8C 8D 8H") is SET
    assert kind("8C 8D 8H 8S") is SET
    assert kind("8C 8D JK") is SET
    assert kind("8C 8D 7H 7S") is SET  # sevens wild: 8C 8D 8H 8S


def test_a_set_never_holds_two_cards_of_one_suit_even_with_two_packs() -> None:
    assert kind("8C 8C 8D") is INVALID
    assert kind("8C 8C 8D 8H") is INVALID


def test_a_set_is_never_over_four_cards_even_with_two_packs() -> None:
    assert kind("8C 8D 8H 8S 8C") is INVALID
    assert kind("8C 8D 8H 8S JK") is INVALID


def test_anything_else_is_invalid() -> None:
    assert kind("5S 6S 8H") is INVALID
    assert kind("5S 6S") is INVALID  # under three cards
    assert kind("5S JK") is INVALID
    assert kind("5S 9S JK") is INVALID  # 5 to 9 is five places for three cards
    assert kind("") is INVALID


def test_a_wild_rank_card_may_stand_for_itself_so_three_sevens_are_a_sequence() -> None:
    assert kind("7H 7S 7C") is SEQUENCE  # best as 7H 8H 9H, sevens wild
    assert kind("7H 7S JK") is SEQUENCE
    assert kind("7H JK JK") is SEQUENCE
    assert kind("7H 7S 7C 7D") is SEQUENCE  # better than the set it also is


def test_a_group_of_printed_jokers_only_is_invalid() -> None:
    assert kind("JK JK JK") is INVALID
    assert kind("JK JK JK JK") is INVALID


def test_aces_are_high_or_low_but_not_both_ends() -> None:
    assert kind("AH 2H 3H") is PURE
    assert kind("QH KH AH") is PURE
    assert kind("KH AH 2H") is INVALID
    assert kind("KH AH JK") is SEQUENCE  # QH KH AH
    assert kind("KH AH 2H JK") is INVALID
    assert kind("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH") is PURE  # A to K


def test_a_sequence_is_at_most_thirteen_cards() -> None:
    assert kind("AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH JK") is SEQUENCE
    assert kind("AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH JK JK") is INVALID


def test_a_printed_joker_as_indicator_makes_aces_wild() -> None:
    assert wild_rank_of(JOKER) is Rank.ACE
    assert wild_rank_of(Card.parse("7D")) is SEVENS
    assert kind("AH AS JK", Rank.ACE) is SEQUENCE
    assert kind("QH KH AH", Rank.ACE) is PURE  # the ace stands for itself


def test_a_k_q_j_10_count_ten_the_others_their_face_and_wilds_nothing() -> None:
    codes = ["AH", "KH", "QH", "JH", "10H", "9H", "2H"]
    points = {code: card_points(Card.parse(code), SEVENS) for code in codes}
    assert points == {"AH": 10, "KH": 10, "QH": 10, "JH": 10, "10H": 10, "9H": 9, "2H": 2}
    assert card_points(JOKER, SEVENS) == 0
    assert card_points(Card.parse("7S"), SEVENS) == 0
    assert card_points(Card.parse("AS"), Rank.ACE) == 0


# --- Losers ------------------------------------------------------------------------

HELD = "AH 2H 3H 5S 6S JK 9C 9D 9H KC KD 4D 8C"
"""Sevens wild: a pure sequence, a sequence, a set, and KC KD 4D 8C besides."""


def test_cards_in_no_group_or_an_invalid_one_are_ungrouped() -> None:
    result, _ = shown(HELD, ["AH 2H 3H", "5S 6S JK", "KC KD 4D"])
    assert result.kinds == (PURE, SEQUENCE, INVALID)
    assert Counter(result.ungrouped) == Counter(cards("9C 9D 9H KC KD 4D 8C"))


def test_with_two_sequences_one_pure_only_the_ungrouped_cards_count() -> None:
    result, points = shown(HELD, ["AH 2H 3H", "5S 6S JK", "9C 9D 9H"])
    assert result.has_life
    assert points == worth("KC KD 4D 8C")


def test_two_pure_sequences_are_the_two_sequences_too() -> None:
    result, points = shown("AH 2H 3H 5S 6S 7S KC", ["AH 2H 3H", "5S 6S 7S"])
    assert result.has_life
    assert points == 10


def test_without_a_pure_sequence_all_the_cards_count() -> None:
    held = "AH 2H JK 5S 6S JK 9C 9D 9H KC 3D 4D 8C"
    result, points = shown(held, ["AH 2H JK", "5S 6S JK", "9C 9D 9H"])
    assert not result.has_life
    assert points == worth(held) == 75


def test_a_pure_sequence_without_a_second_sequence_is_not_enough() -> None:
    result, points = shown(HELD, ["AH 2H 3H", "9C 9D 9H"])
    assert not result.has_life
    assert points == min(worth(HELD), 80)


def test_an_invalid_group_is_never_the_second_sequence() -> None:
    result, points = shown(HELD, ["AH 2H 3H", "5S 6S 8C"])
    assert not result.has_life
    assert points == min(worth(HELD), 80)


def test_the_count_is_at_most_full_count() -> None:
    held = "KC KD KH QC QD JH JS 10C 10D 9H 9S 8C 8D"
    result, points = shown(held, [])
    assert result.count == worth(held) == 124
    assert points == 80
    assert shown(held, [], full_count=200)[1] == 124


def test_empty_groups_are_allowed_and_every_card_counts() -> None:
    result, points = shown(HELD, [])
    assert result.kinds == ()
    assert not result.has_life
    assert points == min(worth(HELD), 80)


# --- Declare: what a valid declaration is ---------------------------------------------


def test_a_declaration_is_valid_with_every_card_grouped_two_sequences_one_pure() -> None:
    held = "AH 2H 3H 5S 6S JK 9C 9D 9H KC KD 7D"
    result, points = shown(held, ["AH 2H 3H", "5S 6S JK", "9C 9D 9H", "KC KD 7D"])
    assert result.valid_declaration
    assert points == 0


def test_a_declaration_of_two_pure_sequences_and_sets_is_valid_nothing_more_asked() -> None:
    result, _ = shown("AH 2H 3H 5S 6S 7S 9C 9D 9H", ["AH 2H 3H", "5S 6S 7S", "9C 9D 9H"])
    assert result.valid_declaration


def test_a_declaration_with_a_card_left_out_or_a_wrong_group_is_not_valid() -> None:
    held = "AH 2H 3H 5S 6S JK 9C 9D 9H KC KD 7D 8C"
    left_out, points = shown(held, ["AH 2H 3H", "5S 6S JK", "9C 9D 9H", "KC KD 7D"])
    assert not left_out.valid_declaration
    assert points == 8
    wrong, points = shown(held, ["AH 2H 3H", "5S 6S JK", "9C 9D 9H", "KC KD 7D 8C"])
    assert wrong.kinds[-1] is INVALID
    assert not wrong.valid_declaration
    assert points == worth("KC KD 8C")


def test_a_declaration_without_a_pure_sequence_is_not_valid() -> None:
    held = "AH 2H JK 5S 6S JK 9C 9D 9H"
    result, points = shown(held, ["AH 2H JK", "5S 6S JK", "9C 9D 9H"])
    assert not result.valid_declaration
    assert points == worth(held)


# --- against the independent checkers -----------------------------------------------


def test_group_kinds_agree_with_the_readings_of_the_rules_and_of_the_wild_judge() -> None:
    rng = random.Random(1414)
    seen: Counter[str] = Counter()
    asked_wilds = 0
    for _ in range(6000):
        group, wild = random_group(rng)
        found = group_kind(group, wild).value
        codes = tuple(sorted(card.code for card in group))
        assert found == reading_kind(codes, wild.code), (codes, wild.code)
        wilds = sum(1 for card in group if card.is_joker or card.rank is wild)
        if len(group) <= 8 and wilds <= 3 and asked_wilds < 2500:
            asked_wilds += 1
            assert found == wilds_kind(group, wild), (codes, wild.code)
        seen[found] += 1
    # Every kind came often.
    assert min(seen[kind.value] for kind in GroupKind) > 600, seen


def test_shown_hands_are_judged_as_the_losers_rule_says() -> None:
    rng = random.Random(1415)
    valid = lives = 0
    for number in range(1500):
        if number % 3:
            held, wild = random_hand(rng)
            groups = random_groups(rng, held, wild)
        else:
            held, wild, groups = declared_hand(rng)
            if rng.random() < 0.5:
                groups = [list(group) for group in groups]
                groups[rng.randrange(len(groups))].pop()  # a card left out
        result, points = judge(held, groups, wild, 80)
        expected, declares, ungrouped = oracle_judge(held, groups, wild, 80)
        assert (points, result.valid_declaration) == (expected, declares), (held, groups)
        assert Counter(card.code for card in result.ungrouped) == ungrouped
        assert result.count >= points
        valid += declares
        lives += result.has_life
    assert valid > 150, valid
    assert lives > 500, lives
