"""docs/rules.md read line by line: the statements no other domain test pins down.

Every expectation here is worked out by hand from the rules text, not read
back from the engine: the card lists come straight from the example deal,
the points from the card values of "Cards".
"""

from __future__ import annotations

import pytest

from service.domain.actions import Discard, LayOff, Meld
from service.domain.cards import FULL_DECK
from service.domain.errors import InvalidRules
from service.domain.rule_values import Exhausted, GoingOut, LayOffRule
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import HandEnding, Source
from service.domain.turns import legal_moves
from tests.domain.tables import (
    DISCARD,
    STOCK,
    card,
    cards,
    deck_for,
    new_game,
    seated_game,
)

# The deck order of the tests below: FULL_DECK is clubs A-K, diamonds, hearts,
# spades, so deck[0] is AC, deck[19] 7D, deck[20] 8D, deck[21] 9D.
DECK = FULL_DECK


def meld(codes: str) -> Meld:
    return Meld(tuple(cards(codes)))


# --- the deal: docs/rules.md's own example ------------------------------------------------


def test_the_rules_example_deal_at_a_table_of_two_with_dealer_seat_0() -> None:
    # "deck[0] -> seat 1, deck[1] -> seat 0, deck[2] -> seat 1, ..., deck[19] -> seat 0;
    # deck[20] is the upcard; deck[21] is the top of the stock."
    game = seated_game(RuleSet(), 2, dealer=0, explicit=[DECK])
    hand = game.hand
    assert set(hand.hands[1]) == {DECK[i] for i in (0, 2, 4, 6, 8, 10, 12, 14, 16, 18)}
    assert set(hand.hands[0]) == {DECK[i] for i in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19)}
    assert hand.discard == [card("8D")]  # deck[20]
    assert hand.turn == 1  # the player after the dealer moves first
    game.draw(1)
    assert card("9D") in hand.hands[1]  # deck[21] was the top of the stock
    assert hand.stock[-1] == card("10D")  # deck[22] is next


def test_three_seats_with_dealer_seat_2_are_dealt_from_seat_0_round_the_table() -> None:
    # Seats after seat 2 in turn: 0, 1, 2. Seven rounds of three: deck[0..20];
    # deck[21] is the upcard and deck[22] the top of the stock.
    game = seated_game(RuleSet(), 3, dealer=2, explicit=[DECK])
    hand = game.hand
    assert set(hand.hands[0]) == {DECK[i] for i in (0, 3, 6, 9, 12, 15, 18)}
    assert set(hand.hands[1]) == {DECK[i] for i in (1, 4, 7, 10, 13, 16, 19)}
    assert set(hand.hands[2]) == {DECK[i] for i in (2, 5, 8, 11, 14, 17, 20)}
    assert hand.discard == [DECK[21]]
    assert hand.stock[-1] == DECK[22]
    assert hand.turn == 0


# --- hand_size: at least one card left for the stock after the upcard -----------------


def test_six_seats_of_eight_cards_leave_three_for_the_stock() -> None:
    # 6 x 8 = 48 dealt, deck[48] the upcard, deck[49..51] the stock (deck[49] on top).
    rules = RuleSet(hand_size=8)
    check_new_game(rules, 6)
    game = seated_game(rules, 6, dealer=5, explicit=[DECK])
    assert [len(held) for held in game.hand.hands] == [8] * 6
    assert game.hand.discard == [DECK[48]]
    assert game.hand.stock == [DECK[51], DECK[50], DECK[49]]  # top last


def test_seventeen_cards_each_for_three_leave_only_the_upcard_and_are_refused() -> None:
    # 3 x 17 = 51 dealt: deck[51] would be the upcard and nothing would be left for
    # the stock. Sixteen each leaves 52 - 48 - 1 = 3 stock cards.
    with pytest.raises(InvalidRules):
        check_new_game(RuleSet(hand_size=17), 3)
    check_new_game(RuleSet(hand_size=16), 3)


def test_nine_cards_each_for_six_seats_leave_no_stock_and_the_game_is_refused() -> None:
    # 6 x 9 = 54 > 51 cards left after the upcard.
    with pytest.raises(InvalidRules):
        check_new_game(RuleSet(hand_size=9), 6)


def test_twenty_five_cards_each_for_two_leave_exactly_one_stock_card() -> None:
    rules = RuleSet(hand_size=25)
    check_new_game(rules, 2)
    game = seated_game(rules, 2, dealer=0, explicit=[DECK])
    assert game.hand.discard == [DECK[50]]
    assert game.hand.stock == [DECK[51]]


# --- lay_off after_own_meld: "a meld of your own on the table this hand" -----------------


def test_after_own_meld_a_meld_laid_in_an_earlier_hand_does_not_count() -> None:
    rules = RuleSet(lay_off=LayOffRule.AFTER_OWN_MELD, target=1000)
    # Hand 2: dealer 1, so seat 0 moves first and melds the hearts; seat 1 holds the 5H.
    hand_2 = deck_for(["2H 3H 4H 9S", "5H QD QC 6S"], upcard="KD", stock="10D JD", dealer=1)
    game = new_game(
        ["KS 9D 4C AH", "7C 8C 9C 10C"], upcard="JC", stock="2S", rules=rules, later=[hand_2]
    )
    # Hand 1: seat 1 takes the JC and goes out by its own meld.
    game.act(1, DISCARD, meld("7C 8C 9C 10C JC"))
    assert game.last.out_seat == 1
    assert game.hand.number == 2
    game.act(0, STOCK, meld("2H 3H 4H"), Discard(card("9S")))
    game.draw(1)
    assert game.refuses(1, LayOff(card("5H"), "h2-m1")) == "lay_off_before_meld"


# --- going rummy: "in any earlier turn of this hand" ------------------------------------


def test_a_meld_in_an_earlier_hand_does_not_spoil_a_rummy_in_the_next() -> None:
    hands = ["KS 9D 4C AH", "7C 8C 9C 5D"]  # seat 0 holds 10 + 9 + 4 + 1 = 24
    hand_2 = deck_for(hands, upcard="2H", stock="3H 10C 6D", dealer=1)
    game = new_game(hands, upcard="2H", stock="10C 3H 6D", later=[hand_2])
    # Hand 1: seat 1 melds on its first turn and goes out on its second: no rummy.
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), Discard(card("6D")))
    assert (game.last.how, game.last.points) == (HandEnding.OUT, (0, 24))
    # Hand 2: seat 0 moves first; seat 1 then melds and discards in one turn.
    game.turn(0, discard="3H")
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert game.last.hand_number == 2
    assert (game.last.how, game.last.points) == (HandEnding.RUMMY, (0, 48))
    assert game.table.totals == [0, 72]


# --- the taken card ----------------------------------------------------------------------


def test_the_discard_taken_instead_of_drawing_from_an_empty_stock_may_not_be_discarded() -> None:
    # Twenty-five cards each, so the stock is the 5S alone. Seat 1 draws it and
    # discards it; seat 0 then faces an empty stock and takes the 5S instead.
    rest = [c.code for c in FULL_DECK if c.code not in ("9D", "5S")]
    game = new_game([rest[:25], rest[25:]], upcard="9D", stock="5S")
    game.turn(1, discard="5S")
    assert game.hand.stock == []
    game.draw(0, Source.DISCARD)
    assert game.hand.recycles == 0
    assert game.refuses(0, Discard(card("5S"))) == "discard_taken_card"
    assert card("5S") not in legal_moves(game.table, 0).discard
    game.discard(0, rest[0])
    assert "5S" in game.held(0)


@pytest.mark.parametrize("going_out", list(GoingOut))
def test_a_meld_leaving_only_the_taken_card_is_refused_under_either_going_out_rule(
    going_out: GoingOut,
) -> None:
    game = new_game(["AS 2S 3S", "7C 8C 9C"], upcard="KH", rules=RuleSet(going_out=going_out))
    game.draw(1, Source.DISCARD)
    assert game.refuses(1, meld("7C 8C 9C")) == "would_strand_taken_card"


# --- last_hand ---------------------------------------------------------------------------


def test_last_hand_stays_readable_while_the_next_hand_is_played() -> None:
    game = new_game(["KS 9D 4C AH", "7C 8C 9C 5D"], upcard="2H", stock="10C 3H 6D")
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))
    ended = game.last
    assert (ended.hand_number, ended.points) == (1, (0, 48))
    # Hand 2 is dealt at once (dealer 1, seat 0 first) and its turns change nothing.
    seat = game.hand.turn
    game.act(seat, STOCK, Discard(game.hand.hands[seat][0]))
    assert game.table.hand_number == 2
    assert game.table.hand is not None
    assert game.last == ended


# --- the turn cap is there "so a game can never run for ever" -------------------------


@pytest.mark.parametrize(
    ("hand_size", "going_out", "exhausted", "can_end"),
    [
        # One card dealt: two held after the draw, never the three of a first meld.
        (1, GoingOut.ANY, Exhausted.VOID, False),
        (1, GoingOut.DISCARD, Exhausted.VOID, False),
        # Two dealt: a meld of all three held empties the hand, which `discard` forbids.
        (2, GoingOut.DISCARD, Exhausted.VOID, False),
        (2, GoingOut.ANY, Exhausted.VOID, True),
        (3, GoingOut.DISCARD, Exhausted.VOID, True),
        # A hand that runs out scores under `exhausted: score`, so the game ends anyway.
        (1, GoingOut.ANY, Exhausted.SCORE, True),
        (2, GoingOut.DISCARD, Exhausted.SCORE, True),
    ],
)
def test_rules_under_which_no_hand_could_ever_score_are_refused_at_creation(
    hand_size: int, going_out: GoingOut, exhausted: Exhausted, can_end: bool
) -> None:
    rules = RuleSet(hand_size=hand_size, going_out=going_out, exhausted=exhausted)
    if can_end:
        check_new_game(rules, 2)
        return
    with pytest.raises(InvalidRules) as refused:
        check_new_game(rules, 2)
    assert "never end" in refused.value.message
    smallest = 3 if going_out is GoingOut.DISCARD else 2
    assert f"at least {smallest} cards" in refused.value.message
