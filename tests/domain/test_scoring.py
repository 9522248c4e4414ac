"""Scoring per docs/rules.md: card values, points when a hand ends, and the end of the game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, Card, Rank
from service.domain.rule_values import Aces, Exhausted, RummyBonus, Scoring
from service.domain.rules import RuleSet
from service.domain.scoring import (
    card_value,
    game_winner,
    hand_value,
    points_for_exhausted,
    points_for_out,
)

CLASSIC = RuleSet()
PENALTY = RuleSet(scoring=Scoring.PENALTY)


def hand(codes: str = "") -> list[Card]:
    """A hand from space-separated card codes: `hand("KS 9D 4C AH")`."""
    return [Card.parse(code) for code in codes.split()]


# docs/rules.md's worked example: the opponent is left holding K♠ 9♦ 4♣ A♥ = 24.
OPPONENT_24 = hand("KS 9D 4C AH")

# docs/rules.md's exhausted example, as real hands: A 6, B 15, C 7, D 21.
A_6 = hand("4C 2D")
B_15 = hand("KC 5D")
C_7 = hand("7H")
D_21 = hand("QS JS AS")


# --- card and hand values -------------------------------------------------------------


@pytest.mark.parametrize("rank", ["2", "3", "4", "5", "6", "7", "8", "9", "10"])
def test_number_cards_count_their_face_value(rank: str) -> None:
    assert card_value(Card.parse(f"{rank}H"), CLASSIC) == int(rank)


@pytest.mark.parametrize("code", ["JC", "QD", "KS"])
def test_jack_queen_and_king_count_ten(code: str) -> None:
    assert card_value(Card.parse(code), CLASSIC) == 10


def test_ace_counts_one_when_aces_are_low() -> None:
    assert card_value(Card.parse("AS"), RuleSet(aces=Aces.LOW)) == 1


@pytest.mark.parametrize("aces", [Aces.HIGH_OR_LOW, Aces.AROUND_THE_CORNER])
def test_ace_counts_fifteen_when_aces_may_be_high(aces: Aces) -> None:
    assert card_value(Card.parse("AS"), RuleSet(aces=aces)) == 15


@pytest.mark.parametrize("aces", list(Aces))
def test_ace_high_rules_change_only_the_ace(aces: Aces) -> None:
    rules = RuleSet(aces=aces)
    for card in FULL_DECK:
        if card.rank is not Rank.ACE:
            assert card_value(card, rules) == card_value(card, CLASSIC)


def test_hand_value_adds_up_the_cards() -> None:
    assert hand_value(OPPONENT_24, CLASSIC) == 24


def test_hand_value_counts_aces_high_under_an_ace_high_rule() -> None:
    assert hand_value(OPPONENT_24, RuleSet(aces=Aces.HIGH_OR_LOW)) == 38


def test_empty_hand_is_worth_nothing() -> None:
    assert hand_value([], CLASSIC) == 0


def test_whole_deck_is_worth_340_with_low_aces_and_396_with_high_aces() -> None:
    assert hand_value(FULL_DECK, CLASSIC) == 340
    assert hand_value(FULL_DECK, RuleSet(aces=Aces.AROUND_THE_CORNER)) == 396


# --- going out: winner scoring ----------------------------------------------------------


def test_going_out_scores_the_opponents_hand_as_in_the_worked_example() -> None:
    assert points_for_out([[], OPPONENT_24], 0, rummy=False, rules=CLASSIC) == [24, 0]


def test_rummy_doubles_the_winners_points_as_in_the_worked_example() -> None:
    assert points_for_out([[], OPPONENT_24], 0, rummy=True, rules=CLASSIC) == [48, 0]


def test_rummy_plus_10_adds_ten_to_the_winners_points() -> None:
    rules = RuleSet(rummy_bonus=RummyBonus.PLUS_10)
    assert points_for_out([OPPONENT_24, []], 1, rummy=True, rules=rules) == [0, 34]


def test_rummy_bonus_none_gives_a_rummy_the_plain_points() -> None:
    rules = RuleSet(rummy_bonus=RummyBonus.NONE)
    assert points_for_out([[], OPPONENT_24], 0, rummy=True, rules=rules) == [24, 0]


@pytest.mark.parametrize("bonus", list(RummyBonus))
def test_no_bonus_without_a_rummy(bonus: RummyBonus) -> None:
    rules = RuleSet(rummy_bonus=bonus)
    assert points_for_out([[], OPPONENT_24], 0, rummy=False, rules=rules) == [24, 0]


def test_winner_scores_every_other_hand_at_a_four_player_table() -> None:
    hands = [A_6, B_15, [], D_21]
    assert points_for_out(hands, 2, rummy=False, rules=CLASSIC) == [0, 0, 42, 0]


def test_winner_scores_aces_high_under_an_ace_high_rule() -> None:
    rules = RuleSet(aces=Aces.AROUND_THE_CORNER)
    assert points_for_out([[], OPPONENT_24], 0, rummy=False, rules=rules) == [38, 0]
    assert points_for_out([[], OPPONENT_24], 0, rummy=True, rules=rules) == [76, 0]


# --- going out: penalty scoring ---------------------------------------------------------


def test_penalty_each_other_player_adds_their_own_hand_and_the_winner_adds_nothing() -> None:
    hands = [OPPONENT_24, [], C_7]
    assert points_for_out(hands, 1, rummy=False, rules=PENALTY) == [24, 0, 7]


def test_penalty_rummy_doubles_what_each_other_player_adds() -> None:
    rules = RuleSet(scoring=Scoring.PENALTY, rummy_bonus=RummyBonus.DOUBLE)
    hands = [OPPONENT_24, [], C_7]
    assert points_for_out(hands, 1, rummy=True, rules=rules) == [48, 0, 14]


def test_penalty_rummy_plus_10_adds_ten_to_each_other_player() -> None:
    rules = RuleSet(scoring=Scoring.PENALTY, rummy_bonus=RummyBonus.PLUS_10)
    hands = [OPPONENT_24, [], C_7]
    assert points_for_out(hands, 1, rummy=True, rules=rules) == [34, 0, 17]


def test_penalty_rummy_bonus_none_adds_the_plain_hands() -> None:
    rules = RuleSet(scoring=Scoring.PENALTY, rummy_bonus=RummyBonus.NONE)
    hands = [OPPONENT_24, [], C_7]
    assert points_for_out(hands, 1, rummy=True, rules=rules) == [24, 0, 7]


def test_penalty_counts_aces_high_under_an_ace_high_rule() -> None:
    rules = RuleSet(scoring=Scoring.PENALTY, aces=Aces.HIGH_OR_LOW)
    assert points_for_out([[], OPPONENT_24], 0, rummy=False, rules=rules) == [0, 38]


# Every combination of the options that could touch going out. `exhausted` must not:
# it only governs hands that end with nobody out. Table: 3 seats, seat 0 out,
# the others hold 24 and 8.
OUT_HANDS = [[], OPPONENT_24, hand("5H 3H")]
OUT_EXPECTED = {
    (Scoring.WINNER, RummyBonus.DOUBLE, False): [32, 0, 0],
    (Scoring.WINNER, RummyBonus.DOUBLE, True): [64, 0, 0],
    (Scoring.WINNER, RummyBonus.PLUS_10, False): [32, 0, 0],
    (Scoring.WINNER, RummyBonus.PLUS_10, True): [42, 0, 0],
    (Scoring.WINNER, RummyBonus.NONE, False): [32, 0, 0],
    (Scoring.WINNER, RummyBonus.NONE, True): [32, 0, 0],
    (Scoring.PENALTY, RummyBonus.DOUBLE, False): [0, 24, 8],
    (Scoring.PENALTY, RummyBonus.DOUBLE, True): [0, 48, 16],
    (Scoring.PENALTY, RummyBonus.PLUS_10, False): [0, 24, 8],
    (Scoring.PENALTY, RummyBonus.PLUS_10, True): [0, 34, 18],
    (Scoring.PENALTY, RummyBonus.NONE, False): [0, 24, 8],
    (Scoring.PENALTY, RummyBonus.NONE, True): [0, 24, 8],
}


@pytest.mark.parametrize("exhausted", list(Exhausted))
@pytest.mark.parametrize(("scoring", "bonus", "rummy"), list(OUT_EXPECTED))
def test_going_out_scores_every_option_combination(
    scoring: Scoring, bonus: RummyBonus, rummy: bool, exhausted: Exhausted
) -> None:
    rules = RuleSet(scoring=scoring, rummy_bonus=bonus, exhausted=exhausted)
    assert points_for_out(OUT_HANDS, 0, rummy, rules) == OUT_EXPECTED[scoring, bonus, rummy]


@pytest.mark.parametrize("seat", [-1, 2, 5])
def test_going_out_rejects_a_seat_that_is_not_at_the_table(seat: int) -> None:
    with pytest.raises(ValueError, match="not at a table of 2 seats"):
        points_for_out([[], OPPONENT_24], seat, rummy=False, rules=CLASSIC)


# --- nobody out -------------------------------------------------------------------------


def test_lowest_hand_wins_the_differences_as_in_the_rules_example() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    assert points_for_exhausted([A_6, B_15, C_7, D_21], rules) == [25, 0, 0, 0]


def test_lowest_hand_wins_wherever_it_sits() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    assert points_for_exhausted([D_21, C_7, B_15, A_6], rules) == [0, 0, 0, 25]


def test_penalty_with_nobody_out_everyone_adds_their_own_hand() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE, scoring=Scoring.PENALTY)
    assert points_for_exhausted([A_6, B_15, C_7, D_21], rules) == [6, 15, 7, 21]


# Every combination: `void` scores nothing in either mode; the rummy bonus never applies.
@pytest.mark.parametrize("bonus", list(RummyBonus))
@pytest.mark.parametrize(
    ("scoring", "exhausted", "expected"),
    [
        (Scoring.WINNER, Exhausted.VOID, [0, 0, 0, 0]),
        (Scoring.WINNER, Exhausted.SCORE, [25, 0, 0, 0]),
        (Scoring.PENALTY, Exhausted.VOID, [0, 0, 0, 0]),
        (Scoring.PENALTY, Exhausted.SCORE, [6, 15, 7, 21]),
    ],
)
def test_nobody_out_scores_every_option_combination(
    scoring: Scoring, exhausted: Exhausted, bonus: RummyBonus, expected: list[int]
) -> None:
    rules = RuleSet(scoring=scoring, exhausted=exhausted, rummy_bonus=bonus)
    assert points_for_exhausted([A_6, B_15, C_7, D_21], rules) == expected


def test_void_is_the_default_and_nobody_scores() -> None:
    assert points_for_exhausted([A_6, B_15, C_7, D_21], CLASSIC) == [0, 0, 0, 0]


def test_two_players_tied_for_lowest_share_the_winnings() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    # 5, 5, 12, 20: differences 0 + 0 + 7 + 15 = 22, 11 each.
    hands = [hand("5C"), hand("3D 2D"), hand("10S 2S"), hand("KH QH")]
    assert points_for_exhausted(hands, rules) == [11, 11, 0, 0]


def test_two_players_tied_for_lowest_share_rounded_down() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    # 5, 5, 12: 7 between two is 3.5, so 3 each.
    hands = [hand("5C"), hand("3D 2D"), hand("10S 2S")]
    assert points_for_exhausted(hands, rules) == [3, 3, 0]


def test_three_players_tied_for_lowest_share_rounded_down() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    # 4, 4, 4, 9, 10: differences 5 + 6 = 11; 11 // 3 = 3 each, 2 points lost.
    hands = [hand("4C"), hand("4D"), hand("3H AH"), hand("9S"), hand("KC")]
    assert points_for_exhausted(hands, rules) == [3, 3, 3, 0, 0]


def test_three_players_tied_for_lowest_share_exactly_when_it_divides() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    # 4, 4, 4, 16: difference 12, 4 each.
    hands = [hand("4C"), hand("4D"), hand("4H"), hand("KS 6S")]
    assert points_for_exhausted(hands, rules) == [4, 4, 4, 0]


def test_all_hands_equal_nobody_scores() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE)
    hands = [hand("KC"), hand("QD"), hand("10H")]
    assert points_for_exhausted(hands, rules) == [0, 0, 0]


def test_high_aces_can_change_who_holds_the_lowest_hand() -> None:
    hands = [hand("AS"), hand("KD 2C")]
    # Low aces: 1 against 12, seat 0 wins 11. High aces: 15 against 12, seat 1 wins 3.
    low = RuleSet(exhausted=Exhausted.SCORE, aces=Aces.LOW)
    high = RuleSet(exhausted=Exhausted.SCORE, aces=Aces.HIGH_OR_LOW)
    assert points_for_exhausted(hands, low) == [11, 0]
    assert points_for_exhausted(hands, high) == [0, 3]


def test_penalty_with_nobody_out_counts_aces_high() -> None:
    rules = RuleSet(exhausted=Exhausted.SCORE, scoring=Scoring.PENALTY, aces=Aces.HIGH_OR_LOW)
    assert points_for_exhausted([hand("AS"), hand("KD 2C")], rules) == [15, 12]


# --- end of the game: target ------------------------------------------------------------


def test_game_goes_on_while_everyone_is_under_the_target() -> None:
    assert game_winner([99, 60], 5, CLASSIC) is None


def test_reaching_exactly_the_target_wins_under_winner_scoring() -> None:
    assert game_winner([40, 100], 3, CLASSIC) == 1


def test_highest_total_wins_when_several_pass_the_target() -> None:
    assert game_winner([120, 135, 20], 7, CLASSIC) == 1


def test_tie_for_highest_over_the_target_deals_again() -> None:
    assert game_winner([110, 110, 30], 7, CLASSIC) is None


def test_tie_for_highest_is_settled_by_the_next_hand() -> None:
    assert game_winner([110, 110, 30], 7, CLASSIC) is None
    assert game_winner([110, 122, 30], 8, CLASSIC) == 1


def test_tie_below_the_leader_does_not_stop_the_win() -> None:
    assert game_winner([105, 50, 50], 4, CLASSIC) == 0


def test_a_custom_target_is_honoured() -> None:
    rules = RuleSet.from_dict({"target": 250})
    assert game_winner([249, 100], 9, rules) is None
    assert game_winner([250, 100], 10, rules) == 0


def test_target_game_ignores_the_number_of_hands_played() -> None:
    assert game_winner([10, 20], 1000, CLASSIC) is None


def test_penalty_game_goes_on_while_everyone_is_under_the_target() -> None:
    assert game_winner([99, 20], 5, PENALTY) is None


def test_penalty_reaching_exactly_the_target_ends_the_game_and_the_lowest_wins() -> None:
    assert game_winner([100, 40], 4, PENALTY) == 1


def test_penalty_lowest_total_wins_when_someone_passes_the_target() -> None:
    assert game_winner([130, 60, 45], 6, PENALTY) == 2


def test_penalty_tie_for_lowest_deals_again() -> None:
    assert game_winner([100, 45, 45], 6, PENALTY) is None


def test_penalty_tie_among_the_losers_does_not_stop_the_win() -> None:
    assert game_winner([100, 100, 45], 6, PENALTY) == 2


# --- end of the game: deals -------------------------------------------------------------


def test_deals_game_goes_on_until_the_last_deal_whatever_the_totals() -> None:
    rules = RuleSet.from_dict({"deals": 3})
    assert rules.target is None
    assert game_winner([500, 0], 2, rules) is None


def test_deals_game_ends_after_the_last_deal_and_the_highest_wins() -> None:
    rules = RuleSet(target=None, deals=3)
    assert game_winner([12, 40, 7], 3, rules) == 1


def test_deals_game_under_penalty_ends_after_the_last_deal_and_the_lowest_wins() -> None:
    rules = RuleSet.from_dict({"deals": 3, "scoring": "penalty"})
    assert game_winner([12, 40, 7], 3, rules) == 2


def test_deals_game_tie_for_highest_deals_again_until_one_is_clear() -> None:
    rules = RuleSet(target=None, deals=3)
    assert game_winner([40, 40, 7], 3, rules) is None
    assert game_winner([40, 40, 9], 4, rules) is None
    assert game_winner([52, 40, 9], 5, rules) == 0


def test_deals_game_under_penalty_tie_for_lowest_deals_again_until_one_is_clear() -> None:
    rules = RuleSet(scoring=Scoring.PENALTY, target=None, deals=3)
    assert game_winner([12, 7, 7], 3, rules) is None
    assert game_winner([12, 7, 19], 4, rules) == 1


def test_a_single_deal_game_ends_after_one_hand() -> None:
    rules = RuleSet(target=None, deals=1)
    assert game_winner([24, 0], 1, rules) == 0


def test_game_end_needs_at_least_one_seat() -> None:
    with pytest.raises(ValueError, match="at least one seat"):
        game_winner([], 1, CLASSIC)


# --- properties -------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> list[list[Card]]:
    """2-6 seats, each holding 1-8 distinct cards from one deck."""
    players = draw(st.integers(min_value=2, max_value=6))
    deck = draw(st.permutations(FULL_DECK))
    sizes = draw(st.lists(st.integers(1, 8), min_size=players, max_size=players))
    hands: list[list[Card]] = []
    start = 0
    for size in sizes:
        hands.append(list(deck[start : start + size]))
        start += size
    return hands


rule_sets = st.builds(
    RuleSet,
    aces=st.sampled_from(Aces),
    rummy_bonus=st.sampled_from(RummyBonus),
    exhausted=st.sampled_from(Exhausted),
    scoring=st.sampled_from(Scoring),
)


def _bonus(points: int, rummy: bool, bonus: RummyBonus) -> int:
    if rummy and bonus is RummyBonus.DOUBLE:
        return points * 2
    if rummy and bonus is RummyBonus.PLUS_10:
        return points + 10
    return points


@given(tables(), st.data(), st.booleans(), rule_sets)
def test_going_out_gives_the_others_hands_to_the_winner_or_to_themselves(
    hands: list[list[Card]], data: st.DataObject, rummy: bool, rules: RuleSet
) -> None:
    out = data.draw(st.integers(0, len(hands) - 1))
    hands[out] = []
    values = [hand_value(h, rules) for h in hands]
    points = points_for_out(hands, out, rummy, rules)
    if rules.scoring is Scoring.WINNER:
        # Exactly one seat scores, and it is the others' hands with the bonus.
        assert [seat for seat, p in enumerate(points) if p] == [out]
        assert points[out] == _bonus(sum(values), rummy, rules.rummy_bonus)
    else:
        assert points[out] == 0
        for seat, value in enumerate(values):
            if seat != out:
                assert points[seat] == _bonus(value, rummy, rules.rummy_bonus) > 0


@given(tables(), rule_sets)
def test_with_nobody_out_only_the_lowest_hands_score_and_share_equally(
    hands: list[list[Card]], rules: RuleSet
) -> None:
    points = points_for_exhausted(hands, rules)
    values = [hand_value(h, rules) for h in hands]
    if rules.exhausted is Exhausted.VOID:
        assert points == [0] * len(hands)
    elif rules.scoring is Scoring.PENALTY:
        assert points == values
    else:
        lowest = min(values)
        tied = [seat for seat, value in enumerate(values) if value == lowest]
        differences = sum(values) - lowest * len(hands)
        assert all(points[seat] == 0 for seat in range(len(hands)) if seat not in tied)
        assert len({points[seat] for seat in tied}) == 1
        # Rounding down loses less than one point per tied player.
        assert 0 <= differences - sum(points) < len(tied)


@given(
    st.lists(st.integers(0, 300), min_size=2, max_size=6),
    st.integers(0, 20),
    st.sampled_from(Scoring),
    st.one_of(
        st.builds(dict, target=st.integers(1, 300)),
        st.builds(dict, deals=st.integers(1, 20)),
    ),
)
def test_a_game_winner_is_always_the_single_clear_best_total(
    totals: list[int], hands_played: int, scoring: Scoring, ending: dict[str, int]
) -> None:
    rules = RuleSet.from_dict({"scoring": scoring.value, **ending})
    winner = game_winner(totals, hands_played, rules)
    best = max(totals) if scoring is Scoring.WINNER else min(totals)
    clear = totals.count(best) == 1
    if rules.target is not None:
        ended = max(totals) >= rules.target
    else:
        assert rules.deals is not None
        ended = hands_played >= rules.deals
    if ended and clear:
        assert winner == totals.index(best)
    else:
        assert winner is None
