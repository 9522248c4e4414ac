"""The deal per docs/rules.md: one card at a time from the seat after the dealer, round
the table, `hand_size` rounds; then the upcard; the rest is the stock, in deck order."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, Card, sorted_cards
from service.domain.dealing import Deal, check_deck, deal
from service.domain.errors import InvalidDeck


def cards(codes: str) -> list[Card]:
    """Cards from space-separated codes: `cards("KS 9D 4C AH")`."""
    return [Card.parse(code) for code in codes.split()]


def deck_starting(codes: str) -> list[Card]:
    """A full deck whose top cards are `codes`, the rest in reference order."""
    top = cards(codes)
    return top + [card for card in FULL_DECK if card not in top]


def same_cards(hand: Sequence[Card], expected: Sequence[Card]) -> bool:
    # docs/rules.md fixes which cards a seat gets, not the order it holds them in.
    return sorted_cards(list(hand)) == sorted_cards(list(expected))


# --- docs/rules.md's example: two players, dealer seat 0 -----------------------------------

# deck[0] -> seat 1, deck[1] -> seat 0, ..., deck[19] -> seat 0; deck[20] the upcard;
# deck[21] the top of the stock.
EXAMPLE = deck_starting("7H QS 2C 10D AS KH 5D 3S JC 9H 4D 8C QH 6S 10C 2D KD AH 3C 5S  JD  8S")
EVEN_POSITIONS = cards("7H 2C AS 5D JC 4D QH 10C KD 3C")  # deck[0], deck[2], ... deck[18]
ODD_POSITIONS = cards("QS 10D KH 3S 9H 8C 6S 2D AH 5S")  # deck[1], deck[3], ... deck[19]


def test_the_example_deck_is_a_whole_deck() -> None:
    check_deck(EXAMPLE)


def test_with_dealer_seat_0_the_first_card_goes_to_seat_1_and_the_second_to_seat_0() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=10)
    assert len(dealt.hands) == 2
    assert same_cards(dealt.hands[1], EVEN_POSITIONS)
    assert same_cards(dealt.hands[0], ODD_POSITIONS)


def test_each_of_two_players_gets_ten_cards_in_the_example() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=10)
    assert [len(hand) for hand in dealt.hands] == [10, 10]


def test_the_card_after_the_hands_is_the_upcard() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=10)
    assert dealt.upcard == Card.parse("JD")
    assert dealt.upcard == EXAMPLE[20]


def test_the_card_after_the_upcard_is_the_top_of_the_stock() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=10)
    assert dealt.stock[0] == Card.parse("8S")
    assert dealt.stock[0] == EXAMPLE[21]


def test_the_stock_is_the_rest_of_the_deck_in_deck_order() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=10)
    assert len(dealt.stock) == 52 - 20 - 1
    assert list(dealt.stock) == EXAMPLE[21:]


def test_with_dealer_seat_1_the_first_card_goes_to_seat_0() -> None:
    dealt = deal(EXAMPLE, dealer=1, players=2, hand_size=10)
    assert same_cards(dealt.hands[0], EVEN_POSITIONS)
    assert same_cards(dealt.hands[1], ODD_POSITIONS)
    assert dealt.upcard == Card.parse("JD")
    assert dealt.stock[0] == Card.parse("8S")


def test_the_same_deck_and_dealer_always_give_the_same_deal() -> None:
    assert deal(EXAMPLE, 0, 2, 10) == deal(list(EXAMPLE), 0, 2, 10)


def test_a_chosen_hand_size_deals_that_many_rounds() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=3)
    assert same_cards(dealt.hands[1], cards("7H 2C AS"))
    assert same_cards(dealt.hands[0], cards("QS 10D KH"))
    assert dealt.upcard == Card.parse("5D")
    assert dealt.stock[0] == Card.parse("3S")


def test_the_largest_hand_size_for_two_leaves_one_card_of_stock() -> None:
    dealt = deal(EXAMPLE, dealer=0, players=2, hand_size=25)
    assert [len(hand) for hand in dealt.hands] == [25, 25]
    assert dealt.upcard == EXAMPLE[50]
    assert dealt.stock == (EXAMPLE[51],)


# --- more players, the dealer anywhere -------------------------------------------------

# A fixed shuffle, so that a card's place in the deck is not its place in FULL_DECK.
SHUFFLED = random.Random(20240611).sample(FULL_DECK, k=52)


@pytest.mark.parametrize(
    ("players", "dealer", "hand_size", "seats_in_dealing_order", "upcard_at"),
    [
        # Default sizes from docs/rules.md: 3-4 players 7 each, 5-6 players 6 each.
        (3, 1, 7, [2, 0, 1], 21),
        (4, 2, 7, [3, 0, 1, 2], 28),
        (5, 2, 6, [3, 4, 0, 1, 2], 30),
        (6, 3, 6, [4, 5, 0, 1, 2, 3], 36),
        # The dealer in the last seat: the deal wraps to seat 0.
        (3, 2, 7, [0, 1, 2], 21),
        (6, 5, 6, [0, 1, 2, 3, 4, 5], 36),
        # The dealer in the first seat.
        (4, 0, 7, [1, 2, 3, 0], 28),
        (5, 0, 6, [1, 2, 3, 4, 0], 30),
    ],
)
def test_cards_go_round_the_table_from_the_seat_after_the_dealer(
    players: int,
    dealer: int,
    hand_size: int,
    seats_in_dealing_order: list[int],
    upcard_at: int,
) -> None:
    dealt = deal(SHUFFLED, dealer=dealer, players=players, hand_size=hand_size)
    assert len(dealt.hands) == players
    for turn, seat in enumerate(seats_in_dealing_order):
        # Round r gives this seat deck[turn + r * players].
        expected = [SHUFFLED[turn + rnd * players] for rnd in range(hand_size)]
        assert same_cards(dealt.hands[seat], expected), f"seat {seat}"
    assert dealt.upcard == SHUFFLED[upcard_at]
    assert list(dealt.stock) == SHUFFLED[upcard_at + 1 :]


def test_three_players_dealer_seat_1_written_out() -> None:
    deck = deck_starting("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H 8H  9H  10H")
    dealt = deal(deck, dealer=1, players=3, hand_size=7)
    assert same_cards(dealt.hands[2], cards("AS 4S 7S 10S KS 3H 6H"))
    assert same_cards(dealt.hands[0], cards("2S 5S 8S JS AH 4H 7H"))
    assert same_cards(dealt.hands[1], cards("3S 6S 9S QS 2H 5H 8H"))
    assert dealt.upcard == Card.parse("9H")
    assert dealt.stock[0] == Card.parse("10H")


# --- every card accounted for ---------------------------------------------------------


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], int, int, int]:
    deck = draw(st.permutations(FULL_DECK))
    players = draw(st.integers(min_value=2, max_value=6))
    dealer = draw(st.integers(min_value=0, max_value=players - 1))
    # Up to the largest hand that leaves a stock card after the upcard.
    hand_size = draw(st.integers(min_value=1, max_value=(52 - 2) // players))
    return list(deck), dealer, players, hand_size


@given(deals())
def test_every_card_is_dealt_exactly_once(setup: tuple[list[Card], int, int, int]) -> None:
    deck, dealer, players, hand_size = setup
    dealt = deal(deck, dealer=dealer, players=players, hand_size=hand_size)
    everything = [card for hand in dealt.hands for card in hand] + [dealt.upcard, *dealt.stock]
    assert len(everything) == 52
    assert Counter(everything) == Counter(FULL_DECK)


@given(deals())
def test_every_seat_gets_hand_size_cards_and_the_stock_is_never_empty(
    setup: tuple[list[Card], int, int, int],
) -> None:
    deck, dealer, players, hand_size = setup
    dealt = deal(deck, dealer=dealer, players=players, hand_size=hand_size)
    assert [len(hand) for hand in dealt.hands] == [hand_size] * players
    assert dealt.upcard == deck[players * hand_size]
    assert len(dealt.stock) == 52 - players * hand_size - 1 >= 1
    assert dealt.stock[0] == deck[players * hand_size + 1]


@given(deals())
def test_the_player_after_the_dealer_gets_the_first_card(
    setup: tuple[list[Card], int, int, int],
) -> None:
    deck, dealer, players, hand_size = setup
    dealt = deal(deck, dealer=dealer, players=players, hand_size=hand_size)
    assert deck[0] in dealt.hands[(dealer + 1) % players]
    # ... and the dealer gets the last card of the first round.
    assert deck[players - 1] in dealt.hands[dealer]


@given(st.permutations(FULL_DECK))
def test_any_order_of_the_52_cards_is_a_valid_deck(deck: list[Card]) -> None:
    check_deck(deck)
    check_deck(tuple(deck))


def test_a_deal_is_frozen() -> None:
    dealt = deal(EXAMPLE, 0, 2, 10)
    assert isinstance(dealt, Deal)
    with pytest.raises(AttributeError):
        dealt.upcard = Card.parse("AS")  # type: ignore[misc]


# --- a deck must be the 52 cards, each once -------------------------------------------


def test_a_deck_of_51_cards_is_refused() -> None:
    with pytest.raises(InvalidDeck) as raised:
        check_deck(FULL_DECK[:-1])
    assert raised.value.code == "invalid_deck"
    assert "51" in raised.value.message


def test_a_deck_of_53_cards_is_refused() -> None:
    with pytest.raises(InvalidDeck) as raised:
        check_deck([*FULL_DECK, Card.parse("QS")])
    assert raised.value.code == "invalid_deck"
    assert "53" in raised.value.message


def test_an_empty_deck_is_refused() -> None:
    with pytest.raises(InvalidDeck):
        check_deck([])


def test_a_deck_holding_a_card_twice_is_refused_naming_the_card() -> None:
    # 52 cards, but the king of diamonds replaced by a second queen of spades.
    deck = [Card.parse("QS") if card == Card.parse("KD") else card for card in SHUFFLED]
    assert len(deck) == 52
    with pytest.raises(InvalidDeck) as raised:
        check_deck(deck)
    assert raised.value.code == "invalid_deck"
    assert "QS" in raised.value.message
    assert "KD" not in raised.value.message
