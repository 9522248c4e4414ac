"""Knock Rummy: the count of a hand, the pot, and the knock at the table.

Counts and pots are worked out by hand from docs/rules.md "Knock Rummy";
random hands are checked against an independent brute-force counter
(tests/domain/knock_oracle.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain import events
from service.domain.actions import Discard, Knock, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, Card
from service.domain.events import HandEnded, Knocked
from service.domain.knock import arrange, pot
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from service.domain.state import HandEnding
from service.domain.turns import legal_moves
from tests.domain import knock_oracle
from tests.domain.tables import DISCARD, STOCK, card, cards, new_game

KNOCK = RuleSet.from_dict({"variant": "knock"})


def knock_rules(**options: Any) -> RuleSet:
    return RuleSet.from_dict({"variant": "knock", **options})


def codes(found: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in found]


# --- the count ------------------------------------------------------------------------


def test_the_count_is_the_least_value_left_outside_melds() -> None:
    # A run 3H-6H leaves 5C 5D (10); the fives as a set leave 3H 4H 6H (13).
    shown = arrange(cards("5C 3H 6H 5D 4H 5H"), KNOCK)
    assert shown.count == 10
    assert codes(shown.unmatched) == ["5C", "5D"]
    assert [codes(m) for m in shown.melds] == [["3H", "4H", "5H", "6H"]]


def test_a_hand_without_melds_counts_every_card() -> None:
    shown = arrange(cards("KS 9D 4C AH 2S"), KNOCK)
    assert shown.count == 10 + 9 + 4 + 1 + 2
    assert codes(shown.unmatched) == ["AH", "2S", "4C", "9D", "KS"]
    assert shown.melds == ()


def test_aces_follow_the_games_aces_rule_in_runs_and_in_value() -> None:
    hand = cards("QS KS AS 2H")
    # Low aces: Q K A is no run; everything counts, the ace 1.
    assert arrange(hand, KNOCK).count == 10 + 10 + 1 + 2
    # High or low: Q K A is a run; only 2H is left.
    high = arrange(hand, knock_rules(aces="high_or_low"))
    assert (high.count, codes(high.unmatched)) == (2, ["2H"])
    # An ace left in hand counts 15 where aces may be high, or `ace_value`.
    assert arrange(cards("AS 5D"), knock_rules(aces="high_or_low")).count == 20
    assert arrange(cards("AS 5D"), knock_rules(ace_value=11)).count == 16
    # Round the corner: K A 2 is a run.
    corner = arrange(cards("KD AD 2D 7C"), knock_rules(aces="around_the_corner"))
    assert (corner.count, [codes(m) for m in corner.melds]) == (7, [["KD", "AD", "2D"]])


def test_a_tie_shows_the_arrangement_with_fewer_unmatched_cards() -> None:
    # The four threes and the three fours leave 5C 5D (10, two cards); the runs
    # 3C 4C 5C and 3D 4D 5D leave 3H 3S 4H (10, three cards).
    shown = arrange(cards("3C 3D 3H 3S 4C 4D 4H 5C 5D"), KNOCK)
    assert shown.count == 10
    assert codes(shown.unmatched) == ["5C", "5D"]
    assert sorted(codes(m) for m in shown.melds) == [["3C", "3D", "3H", "3S"], ["4C", "4D", "4H"]]


def test_a_tie_of_as_many_cards_shows_the_unmatched_list_that_comes_first() -> None:
    # The fives leave 4H 6H 6S (16); the run 4H 5H 6H leaves 5C 5S 6S (16). Card
    # by card 4H comes before 5C.
    shown = arrange(cards("4H 5C 5H 5S 6H 6S"), KNOCK)
    assert shown.count == 16
    assert codes(shown.unmatched) == ["4H", "6H", "6S"]
    assert [codes(m) for m in shown.melds] == [["5C", "5H", "5S"]]


def test_the_shown_melds_are_in_table_order_ordered_by_their_first_card() -> None:
    shown = arrange(cards("9S 7S 8S 2C 2H 2D"), KNOCK)
    assert [codes(m) for m in shown.melds] == [["2C", "2D", "2H"], ["7S", "8S", "9S"]]
    assert shown.count == 0


def test_a_hand_naming_a_card_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="distinct"):
        arrange(cards("5C 5C 6D"), KNOCK)


# --- the count against the brute-force oracle -----------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> list[Card]:
    """Up to 11 cards, often from a few neighbouring ranks, where melds cross."""
    if draw(st.booleans()):
        low = draw(st.integers(1, 13))
        width = draw(st.integers(2, 5))
        pool = [c for c in FULL_DECK if (c.rank.value - low) % 13 < width]
    else:
        pool = list(FULL_DECK)
    # Mostly full hands (10 dealt and the draw), and every smaller size too.
    size = min(len(pool), draw(st.sampled_from([11, 10, 9, 8, 11, 7, 6, 5, 4, 3, 2, 1])))
    # Any `size` cards of the pool, in any order.
    picked = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    event(f"{len(picked)} cards")
    return picked


@st.composite
def count_rules(draw: st.DrawFn) -> RuleSet:
    options: dict[str, Any] = {"aces": draw(st.sampled_from([a.value for a in Aces]))}
    if draw(st.booleans()):
        options["ace_value"] = draw(st.integers(1, 15))
    return knock_rules(**options)


@settings(max_examples=400, deadline=None)
@given(hands(), count_rules())
def test_the_count_and_the_shown_arrangement_match_the_brute_force_oracle(
    hand: list[Card], rules: RuleSet
) -> None:
    shown = arrange(hand, rules)
    expected = knock_oracle.best(hand, rules)
    assert shown.count == expected.count
    # The same unmatched cards: the fewest, then the first in sort order.
    assert shown.unmatched == expected.unmatched
    # The melds shown are disjoint valid melds holding exactly the other cards.
    for meld in shown.melds:
        assert knock_oracle.is_meld(meld, rules.aces), meld
    placed = [c for meld in shown.melds for c in meld] + list(shown.unmatched)
    assert sorted(placed, key=lambda c: c.sort_key) == sorted(hand, key=lambda c: c.sort_key)
    assert shown.count == sum(knock_oracle.value(c, rules) for c in shown.unmatched)


# --- the pot ----------------------------------------------------------------------------


def settle(counts: list[int], knocker: int = 0, penalty: int = 10, bonus: int = 25) -> Any:
    return pot(counts, knocker, penalty=penalty, bonus=bonus)


def test_the_rules_worked_pots() -> None:
    # A knocks 4, B 2, C 11 -> B 2 + 10 + 9 = 21.
    first = settle([4, 2, 11])
    assert (first.undercut, first.winners, first.pot, first.points) == (True, (1,), 21, (0, 21, 0))
    # B 4 -> B 0 + 10 + 7 = 17.
    second = settle([4, 4, 11])
    assert (second.undercut, second.winners, second.pot, second.points) == (
        True,
        (1,),
        17,
        (0, 17, 0),
    )
    # A 0, B 3, C 8 -> A 3 + 25 + 8 + 25 = 61.
    third = settle([0, 3, 8])
    assert (third.undercut, third.winners, third.pot, third.points) == (False, (0,), 61, (61, 0, 0))


def test_a_knocker_with_the_lowest_count_alone_wins_the_differences() -> None:
    result = settle([3, 5, 9], knocker=0)
    assert (result.undercut, result.winners, result.pot) == (False, (0,), 2 + 6)


def test_a_tie_with_the_knocker_goes_against_the_knocker_even_at_zero() -> None:
    result = settle([0, 0, 6], knocker=0)
    # Undercut: no bonus, the penalty instead; seat 1 wins 0 + 10 + 6.
    assert (result.undercut, result.winners, result.points) == (True, (1,), (0, 16, 0))


def test_the_knockers_seat_does_not_matter() -> None:
    assert settle([11, 4, 2], knocker=1).points == (0, 0, 21)


def test_the_undercut_penalty_and_the_bonus_are_the_rules_options() -> None:
    assert settle([4, 2], penalty=0).pot == 2
    assert settle([4, 2], penalty=50).pot == 52
    assert settle([0, 7, 3], bonus=0).pot == 10
    assert settle([0, 7, 3], bonus=100).pot == 10 + 200
    # A knocker winning with more than 0 gets no bonus.
    assert settle([1, 7, 3], bonus=100).pot == 6 + 2


def test_winners_share_the_pot_equally_rounded_down() -> None:
    # Seat 0 knocks 5; seats 1 and 2 undercut with 3; seat 3 has 10.
    # Pot: (5 - 3) + 10 + (10 - 3) = 19: 9 each, the odd point is lost.
    result = settle([5, 3, 3, 10])
    assert (result.winners, result.pot, result.points) == ((1, 2), 19, (0, 9, 9, 0))


@given(
    st.lists(st.integers(0, 150), min_size=2, max_size=6),
    st.data(),
    st.integers(0, 50),
    st.integers(0, 100),
)
def test_nobody_loses_points_and_only_the_lowest_eligible_win(
    counts: list[int], data: st.DataObject, penalty: int, bonus: int
) -> None:
    knocker = data.draw(st.integers(0, len(counts) - 1))
    result = pot(counts, knocker, penalty=penalty, bonus=bonus)
    others = [counts[s] for s in range(len(counts)) if s != knocker]
    assert result.undercut == (min(others) <= counts[knocker])
    eligible = [s for s in range(len(counts)) if s != knocker or not result.undercut]
    lowest = min(counts[s] for s in eligible)
    assert result.winners == tuple(s for s in eligible if counts[s] == lowest)
    assert all(points >= 0 for points in result.points)
    share = result.pot // len(result.winners)
    assert result.points == tuple(share if s in result.winners else 0 for s in range(len(counts)))


# --- at the table -------------------------------------------------------------------------

# Seat 1 moves first (dealer 0) and knocks KD, the top of the stock.
# Seat 1: 5C 6C 7C, 9D 9H 9S and 4H: count 4.
# Seat 2: JH QH KH, 8C 8D 8H and 2D: count 2.
# Seat 0: 10C 10D 10H 10S, and 2H 4S 5S: count 11.
WORKED = (
    "10C 10D 10H 10S 2H 4S 5S",
    "5C 6C 7C 9D 9H 9S 4H",
    "JH QH KH 8C 8D 8H 2D",
)


def test_a_knock_ends_the_hand_at_once_and_pays_the_pot() -> None:
    game = new_game(WORKED, upcard="AC", stock="KD", rules=KNOCK)
    made = game.act(1, STOCK, Knock(card("KD")))
    assert isinstance(made[1], Knocked)
    assert (made[1].seat, made[1].card) == (1, card("KD"))
    ended = made[2]
    assert isinstance(ended, HandEnded)
    assert ended.how is HandEnding.KNOCK
    assert (ended.knocker, ended.knock_card, ended.out_seat) == (1, card("KD"), None)
    assert ended.counts == (11, 4, 2)
    assert ended.pot == 21
    assert ended.points == (0, 0, 21)
    assert ended.totals == (0, 0, 21)
    assert ended.unmatched is not None
    assert ended.arranged is not None
    assert [codes(u) for u in ended.unmatched] == [["2H", "4S", "5S"], ["4H"], ["2D"]]
    assert [[codes(m) for m in melds] for melds in ended.arranged] == [
        [["10C", "10D", "10H", "10S"]],
        [["5C", "6C", "7C"], ["9D", "9H", "9S"]],
        [["8C", "8D", "8H"], ["JH", "QH", "KH"]],
    ]
    # The knocker's remaining cards are its hand without the knock card.
    assert card("KD") not in ended.remaining[1]
    assert len(ended.remaining[1]) == 7
    # `values` keep their meaning: the face value of every card left in hand.
    assert ended.values == (10 * 4 + 2 + 4 + 5, 5 + 6 + 7 + 27 + 4, 30 + 24 + 2)
    assert game.table.hand_number == 2


def test_any_turn_any_count_even_the_first_turn_with_a_high_count() -> None:
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", stock="10H", rules=KNOCK)
    game.act(1, STOCK, Knock(card("JS")))
    # Seat 1 knocked 8D 7C 10H = 25 against seat 0's 29: it wins 4.
    assert game.last.counts == (29, 25)
    assert game.last.points == (0, 4)


def test_a_knock_with_the_card_just_taken_from_the_pile_is_refused() -> None:
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", rules=KNOCK)
    game.act(1, DISCARD)
    assert game.refuses(1, Knock(card("2H"))) == "discard_taken_card"
    assert card("2H") not in legal_moves(game.table, 1).knock
    game.act(1, Knock(card("JS")))
    assert game.last.how is HandEnding.KNOCK


def test_a_knock_before_drawing_or_out_of_turn_or_not_held_is_refused() -> None:
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", rules=KNOCK)
    assert game.refuses(1, Knock(card("JS"))) == "wrong_phase"
    assert game.refuses(0, Knock(card("KS"))) == "not_your_turn"
    game.act(1, STOCK)
    assert game.refuses(1, Knock(card("KS"))) == "card_not_in_hand"


def test_melds_lay_offs_and_swaps_are_not_in_knock_rummy() -> None:
    game = new_game(["KS QD 9C", "5H 6H 7H"], upcard="2H", rules=KNOCK)
    game.act(1, STOCK)
    assert game.refuses(1, Meld(tuple(cards("5H 6H 7H")))) == "not_in_variant"
    assert game.refuses(1, LayOff(card("7H"), "h1-m1")) == "not_in_variant"
    assert game.refuses(1, Swap("h1-m1", card("7H"))) == "not_in_variant"
    moves = legal_moves(game.table, 1)
    assert moves.melds == ()
    assert moves.lay_offs == ()


def test_a_knock_is_not_in_the_classic_game() -> None:
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H")
    game.act(1, STOCK)
    assert game.refuses(1, Knock(card("JS"))) == "not_in_variant"
    assert legal_moves(game.table, 1).knock == ()


def test_legal_offers_knocks_and_discards_with_every_card_but_the_one_taken() -> None:
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", stock="10H", rules=KNOCK)
    assert legal_moves(game.table, 1).knock == ()  # before the draw
    game.act(1, STOCK)
    moves = legal_moves(game.table, 1)
    assert codes(moves.knock) == ["7C", "8D", "10H", "JS"]
    assert moves.discard == moves.knock
    assert legal_moves(game.table, 0).knock == ()
    game.act(1, Discard(card("10H")))
    game.act(0, DISCARD)
    assert codes(legal_moves(game.table, 0).knock) == ["9C", "QD", "KS"]


def test_a_hand_that_runs_out_scores_the_arranged_counts() -> None:
    # Two seats of 25 cards, the upcard 9S and one stock card, AS. Seat 1 draws it
    # and discards it; seat 0 finds the stock empty with no recycle: exhausted.
    clubs = [c.code for c in FULL_DECK if c.suit.value == "C"]
    diamonds = [c.code for c in FULL_DECK if c.suit.value == "D"]
    hearts = [c.code for c in FULL_DECK if c.suit.value == "H"]
    # Seat 0: clubs A-K, 8D-KD, 10S-KS, and 2S 3H left over: 5.
    seat0 = [*clubs, *diamonds[7:], "10S", "JS", "QS", "KS", "2S", "3H"]
    # Seat 1: AD-7D, 4H-KH, 3S-8S, and AH 2H left over (3H is seat 0's): 3.
    seat1 = [*diamonds[:7], *[h for h in hearts if h != "3H"], "3S", "4S", "5S", "6S", "7S", "8S"]
    rules = knock_rules(exhausted="score", recycles=0, hand_size=25)
    game = new_game([seat0, seat1], upcard="9S", stock="AS", rules=rules)
    game.act(1, STOCK, Discard(card("AS")))
    game.act(0, STOCK)
    last = game.last
    assert last.how is HandEnding.EXHAUSTED
    assert last.counts == (5, 3)
    # Not the face values of the hands, which are far higher.
    assert last.values[0] > 5
    assert last.values[1] > 3
    # The lowest count wins the difference.
    assert last.points == (0, 2)
    assert last.knocker is None
    assert last.pot is None
    assert last.knock_card is None


def test_a_hand_cut_short_scores_the_counts_lowest_wins_the_differences() -> None:
    # One turn only: seat 1 draws 10H and discards JS. Seat 0: KS QD 9C = 29.
    # Seat 1: 8D 7C 10H = 25: it wins 4.
    rules = knock_rules(exhausted="score", max_turns=1)
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", stock="10H", rules=rules)
    game.act(1, STOCK, Discard(card("JS")))
    assert game.last.how is HandEnding.TURN_CAP
    assert game.last.counts == (29, 25)
    assert game.last.points == (0, 4)


def test_a_void_hand_that_runs_out_scores_nothing_but_shows_the_counts() -> None:
    rules = knock_rules(max_turns=1)
    game = new_game(["KS QD 9C", "JS 8D 7C"], upcard="2H", stock="10H", rules=rules)
    game.act(1, STOCK, Discard(card("JS")))
    assert game.last.counts == (29, 25)
    assert game.last.points == (0, 0)


def test_a_classic_hand_result_stores_no_knock_fields() -> None:
    game = new_game(["KS QD 9C", "5H 6H 7H"], upcard="2H", stock="8H")
    game.act(1, STOCK, Meld(tuple(cards("5H 6H 7H 8H"))))
    ended = next(e for e in game.events if isinstance(e, HandEnded))
    _, data = events.plain(ended)
    assert set(data) == {
        "hand_number",
        "how",
        "out_seat",
        "remaining",
        "values",
        "points",
        "totals",
    }


def test_a_knock_result_reads_back_from_its_plain_form() -> None:
    game = new_game(WORKED, upcard="AC", stock="KD", rules=KNOCK)
    game.act(1, STOCK, Knock(card("KD")))
    ended = next(e for e in game.events if isinstance(e, HandEnded))
    name, data = events.plain(ended)
    assert data["knock_card"] == "KD"
    assert data["arranged"][1] == [["5C", "6C", "7C"], ["9D", "9H", "9S"]]
    assert events.from_plain(name, None, data) == ended
