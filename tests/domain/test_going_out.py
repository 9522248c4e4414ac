"""Going out and going rummy (docs/rules.md "Going out"): by a meld, a lay-off or the
final discard; the `going_out` rule; rummy only with no play in an earlier turn;
each `rummy_bonus` under both scoring modes."""

from __future__ import annotations

import pytest

from service.domain.actions import Discard, LayOff, Meld
from service.domain.events import (
    CardDiscarded,
    CardDrawn,
    CardLaidOff,
    HandDealt,
    HandEnded,
    MeldLaid,
)
from service.domain.rule_values import GoingOut, RummyBonus, Scoring
from service.domain.rules import RuleSet
from service.domain.state import HandEnding
from service.domain.turns import legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, card, cards, new_game

# docs/rules.md's worked example: seat 0 is left holding K♠ 9♦ 4♣ A♥ = 24 points.
OPPONENT_24 = "KS 9D 4C AH"


def meld(codes: str) -> Meld:
    return Meld(tuple(cards(codes)))


def clubs_game(rules: RuleSet | None = None) -> Game:
    """Seat 1 (first to move) holds a club run and the 5D; the stock starts 10C 3H 6D."""
    return new_game([OPPONENT_24, "7C 8C 9C 5D"], upcard="2H", stock="10C 3H 6D", rules=rules)


# --- the three ways out ----------------------------------------------------------------


def test_going_out_by_a_meld_ends_the_hand_at_once() -> None:
    game = new_game([OPPONENT_24, "7C 8C 9C 10C"], upcard="JC", stock="2H")
    made = game.act(1, DISCARD, meld("7C 8C 9C 10C JC"))
    assert [type(e) for e in made] == [CardDrawn, MeldLaid, HandEnded, HandDealt]
    assert game.last.out_seat == 1
    assert game.last.remaining[1] == ()


def test_going_out_by_a_lay_off_ends_the_hand_at_once() -> None:
    game = new_game([OPPONENT_24, "7C 8C 9C 5D"], upcard="2H", stock="10C 3H JC")
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    made = game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), LayOff(card("JC"), "h1-m1"))
    assert [type(e) for e in made[-3:]] == [CardLaidOff, HandEnded, HandDealt]
    assert game.last.out_seat == 1
    assert game.last.how is HandEnding.OUT


def test_going_out_by_the_final_discard_ends_the_hand_at_once() -> None:
    game = clubs_game()
    made = game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert [type(e) for e in made[-3:]] == [CardDiscarded, HandEnded, HandDealt]
    assert game.last.out_seat == 1


def test_under_going_out_discard_a_meld_may_not_empty_the_hand() -> None:
    game = new_game(
        [OPPONENT_24, "7C 8C 9C 10C"],
        upcard="JC",
        stock="2H",
        rules=RuleSet(going_out=GoingOut.DISCARD),
    )
    game.act(1, DISCARD)
    assert game.refuses(1, meld("7C 8C 9C 10C JC")) == "must_discard_last"
    assert cards("7C 8C 9C 10C JC") not in [list(m) for m in legal_moves(game.table, 1).melds]


def test_under_going_out_discard_a_lay_off_may_not_empty_the_hand() -> None:
    rules = RuleSet(going_out=GoingOut.DISCARD)
    game = new_game([OPPONENT_24, "7C 8C 9C 5D"], upcard="2H", stock="10C 3H JC", rules=rules)
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    game.draw(1)
    game.lay_off(1, "10C", "h1-m1")
    assert game.refuses(1, LayOff(card("JC"), "h1-m1")) == "must_discard_last"
    assert legal_moves(game.table, 1).lay_offs == ()
    game.discard(1, "JC")
    assert game.last.out_seat == 1


def test_under_going_out_discard_the_final_discard_goes_out() -> None:
    game = clubs_game(RuleSet(going_out=GoingOut.DISCARD))
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert game.last.out_seat == 1
    assert game.last.how is HandEnding.RUMMY


# --- going rummy ---------------------------------------------------------------------


def test_melding_everything_in_one_turn_is_rummy() -> None:
    game = new_game([OPPONENT_24, "7C 8C 9C 10C"], upcard="JC", stock="2H")
    game.act(1, DISCARD, meld("7C 8C 9C 10C JC"))
    assert game.last.how is HandEnding.RUMMY
    assert game.last.rummy


def test_melding_then_discarding_the_last_card_in_the_same_turn_is_rummy() -> None:
    game = clubs_game()
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert game.last.how is HandEnding.RUMMY
    assert game.last.points == (0, 48)


def test_going_out_by_lay_offs_with_no_earlier_play_is_rummy() -> None:
    # Seat 0 melds first; seat 1's only plays come in the turn it goes out.
    game = new_game(["7C 8C 9C 2D", "4H 4D 4S 10C"], upcard="KS", stock="KD QH JC", rules=RuleSet())
    game.turn(1, discard="KD")
    game.act(0, STOCK, meld("7C 8C 9C"), Discard(card("QH")))
    made = game.act(
        1, STOCK, meld("4D 4H 4S"), LayOff(card("10C"), "h1-m1"), LayOff(card("JC"), "h1-m1")
    )
    assert isinstance(made[-3], CardLaidOff)
    assert game.last.how is HandEnding.RUMMY
    assert game.last.out_seat == 1


def test_a_meld_in_an_earlier_turn_means_no_rummy() -> None:
    game = clubs_game()
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), Discard(card("6D")))
    assert game.last.how is HandEnding.OUT
    assert game.last.points == (0, 24)


def test_a_lay_off_in_an_earlier_turn_means_no_rummy() -> None:
    game = new_game(
        ["7C 8C 9C 2D", "10C 5H 5D 5S"], upcard="KS", stock="KD QH JH 2H 5C", rules=RuleSet()
    )
    game.turn(1, discard="KD")
    game.act(0, STOCK, meld("7C 8C 9C"), Discard(card("QH")))
    game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), Discard(card("JH")))
    game.turn(0, discard="2H")
    game.act(1, STOCK, meld("5C 5D 5H 5S"))
    assert game.last.how is HandEnding.OUT
    assert game.last.out_seat == 1


def test_turns_without_a_play_before_going_out_keep_the_rummy() -> None:
    game = clubs_game()
    game.turn(1, discard="5D")
    game.turn(0, discard="3H")
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("6D")))
    assert game.last.how is HandEnding.RUMMY
    assert game.last.points == (0, 48)


@pytest.mark.parametrize(
    ("scoring", "bonus", "points"),
    [
        (Scoring.WINNER, RummyBonus.DOUBLE, (0, 48)),
        (Scoring.WINNER, RummyBonus.PLUS_10, (0, 34)),
        (Scoring.WINNER, RummyBonus.NONE, (0, 24)),
        (Scoring.PENALTY, RummyBonus.DOUBLE, (48, 0)),
        (Scoring.PENALTY, RummyBonus.PLUS_10, (34, 0)),
        (Scoring.PENALTY, RummyBonus.NONE, (24, 0)),
    ],
)
def test_each_rummy_bonus(scoring: Scoring, bonus: RummyBonus, points: tuple[int, int]) -> None:
    game = clubs_game(RuleSet(scoring=scoring, rummy_bonus=bonus))
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert game.last.how is HandEnding.RUMMY
    assert game.last.points == points
    assert game.last.totals == points


@pytest.mark.parametrize(
    ("scoring", "points"), [(Scoring.WINNER, (0, 24)), (Scoring.PENALTY, (24, 0))]
)
def test_no_bonus_without_a_rummy(scoring: Scoring, points: tuple[int, int]) -> None:
    game = clubs_game(RuleSet(scoring=scoring, rummy_bonus=RummyBonus.PLUS_10))
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), Discard(card("6D")))
    assert game.last.how is HandEnding.OUT
    assert game.last.points == points
