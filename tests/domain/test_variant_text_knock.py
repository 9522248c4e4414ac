"""docs/rules.md "Knock Rummy (`knock`)" read sentence by sentence, at the table.

Each test quotes the sentence it holds the engine to. Every count and pot is
worked out by hand from the rules text (card values of "Cards and packs":
A `ace_value`, 1 with low aces by default, 2-10 face, J Q K 10).

Seats are letters in the rules' examples: here the dealer is seat 2, so seat 0
(A) moves first, then seat 1 (B), then seat 2 (C).
"""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.actions import Discard, Knock, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, Card
from service.domain.changes import apply
from service.domain.events import Event, GameFinished, HandEnded, Knocked
from service.domain.play import play
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Phase
from service.domain.turns import legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, all_cards, card, cards, new_game

A, B, C = 0, 1, 2


def knock_rules(**options: Any) -> RuleSet:
    return RuleSet.from_dict({"variant": "knock", **options})


def codes(found: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in found]


def table(a: str, b: str, c: str, upcard: str = "9C", stock: str = "QC", **options: Any) -> Game:
    """Seats A, B, C dealt `a`, `b`, `c` (seven cards each), A to move; the stock's
    top is QC unless said otherwise."""
    return new_game([a, b, c], upcard=upcard, stock=stock, dealer=C, rules=knock_rules(**options))


def a_knocks(game: Game, with_card: str = "QC") -> list[Event]:
    return game.act(A, STOCK, Knock(card(with_card)))


A_4 = "2C 3C 4C 7D 7H 7S 4D"  # 4D left over: 4
B_2 = "9H 10H JH 5C 5D 5S 2S"  # 2S left over: 2
C_11 = "KC KD KH KS AH 2H 8C"  # AH 2H 8C: 1 + 2 + 8 = 11


# --- "No melds, lay-offs or swaps (409 `not_in_variant`)." ----------------------------------


def test_no_melds_lay_offs_or_swaps() -> None:
    game = table(A_4, B_2, C_11)
    game.act(A, STOCK)
    assert game.refuses(A, Meld(tuple(cards("2C 3C 4C")))) == "not_in_variant"
    assert game.refuses(A, LayOff(card("4D"), "h1-m1")) == "not_in_variant"
    assert game.refuses(A, Swap("h1-m1", card("4D"))) == "not_in_variant"
    # Not even out of turn: the variant has no such move at all.
    assert game.refuses(B, Meld(tuple(cards("5C 5D 5S")))) == "not_in_variant"


# --- "After drawing, discard face up, or knock: discard one card face down (out of ----------
# play, shown in the result; not the card just taken from the pile)." -----------------------


def test_before_drawing_there_is_no_knock() -> None:
    game = table(A_4, B_2, C_11)
    assert game.refuses(A, Knock(card("4D"))) == "wrong_phase"


def test_after_drawing_a_discard_face_up_passes_the_turn_as_in_the_classic_game() -> None:
    game = table(A_4, B_2, C_11)
    game.act(A, STOCK, Discard(card("QC")))
    assert game.hand.discard[-1] == card("QC")
    assert (game.hand.turn, game.hand.phase) == (B, Phase.DRAW)


def test_the_knock_card_goes_face_down_out_of_play_and_is_shown_in_the_result() -> None:
    game = table(A_4, B_2, C_11)
    seen: list[tuple[Event, list[Card], Any]] = []

    def record(event: Event) -> None:
        apply(game.table, event)
        if isinstance(event, Knocked):
            hand = game.table.hand
            assert hand is not None
            # Every card of the pack is still somewhere: the knock card out of play.
            assert sorted(all_cards(game.table).elements(), key=lambda c: c.sort_key) == sorted(
                FULL_DECK, key=lambda c: c.sort_key
            )
            seen.append((event, list(hand.out_of_play), list(hand.discard)))

    play(game.table, A, [STOCK, Knock(card("QC"))], game.decks, record)
    [(knocked, out_of_play, discard)] = seen
    assert knocked == Knocked(seat=A, card=card("QC"))
    assert out_of_play == [card("QC")]
    assert card("QC") not in discard  # face down: not on the pile
    assert game.last.knock_card == card("QC")
    assert card("QC") not in game.last.remaining[A]


def test_the_card_just_taken_from_the_pile_is_no_knock_card() -> None:
    game = table(A_4, B_2, C_11, upcard="QC", stock="QD")
    game.act(A, DISCARD)
    assert game.refuses(A, Knock(card("QC"))) == "discard_taken_card"
    assert card("QC") not in legal_moves(game.table, A).knock
    # The card taken from the stock is a knock card like any other (as above).


# --- "The hand ends at once." -------------------------------------------------------------


def test_the_hand_ends_at_once() -> None:
    game = table(A_4, B_2, C_11)
    made = a_knocks(game)
    assert [type(e).__name__ for e in made[:3]] == ["CardDrawn", "Knocked", "HandEnded"]
    assert game.last.how is HandEnding.KNOCK
    assert game.last.knocker == A
    # Nothing more can be played in that hand: the next hand is dealt.
    assert game.table.hand_number == 2


# --- "Any turn, any count." ----------------------------------------------------------------


def test_any_turn_any_count() -> None:
    game = table(A_4, B_2, C_11)
    game.act(A, STOCK, Discard(card("QC")))
    # B knocks on the hand's second turn, with QC taken from the pile, keeping
    # 9H 10H 2S QC unmatched (5C 5D 5S a set): 9 + 10 + 2 + 10 = 31.
    game.act(B, DISCARD, Knock(card("JH")))
    assert game.last.knocker == B
    assert game.last.counts == (4, 31, 11)
    # A undercuts: (31 - 4) + 10 + (11 - 4) = 44.
    assert game.last.points == (44, 0, 0)


# --- "Count: the server arranges every hand (the knocker's without the knock card): the -----
# least total value left outside disjoint valid melds (classic sets and runs, the game's ---
# `aces`)." -----------------------------------------------------------------------------------


def test_the_count_is_the_least_value_left_outside_disjoint_melds() -> None:
    # C holds 3H 4H 5H 6H and 5C 5D: one 5H cannot be in both the run and a set.
    # The run 3H-6H leaves 5C 5D KS = 20; the set of fives leaves 3H 4H 6H KS = 23.
    game = table(A_4, "9H 10H JH 8C 8D 8S 2S", "3H 4H 5H 6H 5C 5D KS")
    a_knocks(game)
    assert game.last.counts == (4, 2, 20)
    assert game.last.unmatched is not None
    assert codes(game.last.unmatched[C]) == ["5C", "5D", "KS"]


def test_the_knockers_count_leaves_out_the_knock_card() -> None:
    # A draws QC and knocks 4D instead: 4D is out of play, QC counts 10.
    game = table(A_4, B_2, C_11)
    a_knocks(game, with_card="4D")
    assert game.last.counts is not None
    assert game.last.counts[A] == 10
    assert game.last.knock_card == card("4D")


@pytest.mark.parametrize(
    ("aces", "count"),
    [("low", 10 + 10 + 1), ("high_or_low", 0), ("around_the_corner", 0)],
)
def test_runs_follow_the_games_aces(aces: str, count: int) -> None:
    # C holds Q K A of spades: a run unless aces are low.
    game = table(A_4, B_2, "QS KS AS 8H 8D 8S 3D", aces=aces)
    a_knocks(game)
    assert game.last.counts is not None
    assert game.last.counts[C] == count + 3


# --- "The result shows a best arrangement with the fewest unmatched cards, then the one -----
# whose sorted unmatched list comes first, card by card in sort order (which melds are ------
# shown is informative)." -------------------------------------------------------------------


def test_the_result_shows_the_fewest_unmatched_cards() -> None:
    # Two seats dealt nine cards; A draws QS and knocks it. A's four threes and
    # three fours leave 5C 5D (10, two cards); the runs 3C 4C 5C and 3D 4D 5D
    # leave 3H 3S 4H (10, three cards, though 3H comes before 5C).
    game = new_game(
        ["3C 3D 3H 3S 4C 4D 4H 5C 5D", "KS QD 9C 8H 2S JD 10C 7S 6D"],
        upcard="KH",
        stock="QS",
        dealer=B,
        rules=knock_rules(),
    )
    game.act(A, STOCK, Knock(card("QS")))
    assert game.last.counts is not None
    assert game.last.counts[A] == 10
    assert game.last.unmatched is not None
    assert codes(game.last.unmatched[A]) == ["5C", "5D"]


def test_then_the_sorted_unmatched_list_that_comes_first_card_by_card() -> None:
    # C: the fives leave 2D 4H 6H 6S (18); the run 4H 5H 6H leaves 2D 5C 5S 6S
    # (18): as many cards, and 2D 4H comes before 2D 5C card by card.
    game = table(A_4, "9H 10H JH 8C 8D 8S 2S", "4H 5C 5H 5S 6H 6S 2D")
    a_knocks(game)
    assert game.last.unmatched is not None
    assert game.last.arranged is not None
    assert codes(game.last.unmatched[C]) == ["2D", "4H", "6H", "6S"]
    assert [codes(m) for m in game.last.arranged[C]] == [["5C", "5H", "5S"]]


# --- "Winners: the lowest count wins." ----------------------------------------------------


def test_the_lowest_count_wins() -> None:
    # A knocks 4; B 6 (6S left: 9H 10H JH 5C 5D 5S 6S), C 11: A wins 2 + 7.
    game = table(A_4, "9H 10H JH 5C 5D 5S 6S", C_11)
    a_knocks(game)
    assert game.last.counts == (4, 6, 11)
    assert game.last.points == (2 + 7, 0, 0)


# --- "The knocker is undercut when another player's count is lower than or equal to the -----
# knocker's: then the lowest counts among the others win (seed 003: ties go against the ----
# knocker), and the knocker is not a winner." ----------------------------------------------


def test_a_lower_count_undercuts_the_knocker() -> None:
    game = table(A_4, B_2, C_11)
    a_knocks(game)
    assert game.last.counts == (4, 2, 11)
    assert game.last.points[A] == 0
    assert game.last.points[B] > 0


def test_an_equal_count_undercuts_the_knocker_and_equal_others_all_win() -> None:
    # B and C both count 4 like A: the tie goes against A; B and C win together.
    # Pot: (4 - 4) + 10 = 10: 5 each.
    game = table(A_4, "9H 10H JH 5C 5D 5S 4S", "KC KD KH KS AH 2H AD")
    a_knocks(game)
    assert game.last.counts == (4, 4, 1 + 2 + 1)
    assert game.last.points == (0, 5, 5)


# --- "Pot: every non-winner puts in its count minus the lowest; an undercut knocker adds ---
# `knock_penalty`; a knocker winning alone with 0 gets `knock_bonus` from each other ------
# player." -----------------------------------------------------------------------------------


def test_the_knock_penalty_is_the_rules_option() -> None:
    game = table(A_4, B_2, C_11, knock_penalty=3)
    a_knocks(game)
    assert game.last.pot == 2 + 3 + 9


def test_the_knock_bonus_is_the_rules_option_and_only_for_a_count_of_0() -> None:
    game = table("2C 3C 4C 7D 7H 7S 7C", "9H 10H JH 5C 5D 5S 3S", C_11, knock_bonus=7)
    a_knocks(game)
    assert game.last.counts == (0, 3, 11)
    assert game.last.pot == 3 + 7 + 11 + 7


def test_defaults_are_a_penalty_of_10_and_a_bonus_of_25() -> None:
    rules = knock_rules()
    assert (rules.knock_penalty, rules.knock_bonus) == (10, 25)


# --- "The winners score the pot, shared equally, rounded down; nobody loses points." ---------


def test_winners_share_rounded_down_and_nobody_loses_points() -> None:
    # B 3 (3S), C 3 (AH 2H; 9S-KS a run) undercut A's 4: the pot is
    # (4 - 3) + 10 = 11, 5 each; the odd point goes to nobody.
    game = table(A_4, "9H 10H JH 5C 5D 5S 3S", "9S 10S JS QS KS AH 2H")
    a_knocks(game)
    assert game.last.counts == (4, 3, 3)
    assert game.last.pot == 11
    assert game.last.points == (0, 5, 5)
    assert game.table.totals == [0, 5, 5]


# --- "A knocks 4, B 2, C 11 → B 2+10+9 = 21. B 4 → B 0+10+7 = 17. A 0, B 3, C 8 → A ------
# 3+25+8+25 = 61." ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "c", "counts", "points"),
    [
        (A_4, B_2, C_11, (4, 2, 11), (0, 21, 0)),
        (A_4, "9H 10H JH 5C 5D 5S 4S", C_11, (4, 4, 11), (0, 17, 0)),
        (
            "2C 3C 4C 7D 7H 7S 7C",
            "9H 10H JH 5C 5D 5S 3S",
            "KC KD KH KS AH 2H 5H",
            (0, 3, 8),
            (61, 0, 0),
        ),
    ],
)
def test_the_rules_worked_pots(
    a: str, b: str, c: str, counts: tuple[int, ...], points: tuple[int, ...]
) -> None:
    game = table(a, b, c)
    a_knocks(game)
    assert game.last.counts == counts
    assert game.last.points == points
    assert game.last.pot == sum(points)
    assert game.table.totals == list(points)


# --- "`exhausted: score` uses arranged counts (lowest wins the differences, ties share)." -----


def test_a_hand_that_runs_out_scores_the_arranged_counts_and_ties_share() -> None:
    # One turn (max_turns 1), three cards each. A draws 2H and discards KS: AC 2D 2H
    # (5). B: AH AD 3C (5). C: 5S 3S 2C (10). A and B tie lowest: C's 5 is shared,
    # 2 each, rounded down.
    rules = knock_rules(exhausted="score", max_turns=1)
    game = new_game(
        ["AC 2D KS", "AH AD 3C", "5S 3S 2C"], upcard="9D", stock="2H", dealer=C, rules=rules
    )
    game.act(A, STOCK, Discard(card("KS")))
    assert game.last.how is HandEnding.TURN_CAP
    assert game.last.counts == (5, 5, 10)
    assert game.last.points == (2, 2, 0)


def test_arranged_counts_not_face_values_decide_a_hand_that_runs_out() -> None:
    # B's cards are worth 29 + 15 + 2 = 46 face up, but count 2 (2S) arranged.
    game = table(A_4, B_2, C_11, exhausted="score", max_turns=1)
    game.act(A, STOCK, Discard(card("QC")))
    assert game.last.counts == (4, 2, 11)
    assert game.last.values[B] == 46
    assert game.last.points == (0, 2 + 9, 0)


# --- "Game: `target` or `deals`, highest wins." --------------------------------------------


def test_the_game_ends_at_the_target_and_the_highest_total_wins() -> None:
    game = table(A_4, B_2, C_11, target=21)
    a_knocks(game)
    finished = [e for e in game.events if isinstance(e, GameFinished)]
    assert finished == [GameFinished(winner=B, totals=(0, 21, 0))]


def test_the_game_ends_after_its_deals_and_the_highest_total_wins() -> None:
    game = table(A_4, B_2, C_11, deals=1)
    a_knocks(game)
    assert game.table.finished
    assert game.table.winner == B
    assert any(isinstance(e, HandEnded) for e in game.events)
