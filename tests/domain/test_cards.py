"""Cards per docs/rules.md: the 52 card codes, rank then suit, and nothing else."""

from __future__ import annotations

import pytest

from service.domain.cards import FULL_DECK, Card, Rank, Suit, parse_cards, sorted_cards
from service.domain.errors import InvalidInput, UnknownCard

# Spelled as docs/rules.md spells them, independently of the code under test.
RANK_CODES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_CODES = ["C", "D", "H", "S"]
ALL_CODES = [rank + suit for rank in RANK_CODES for suit in SUIT_CODES]


def cards(codes: str) -> list[Card]:
    """Cards from space-separated codes: `cards("KS 9D 4C AH")`."""
    return [Card.parse(code) for code in codes.split()]


# --- the 52 codes ---------------------------------------------------------------------


def test_there_are_fifty_two_codes_to_check() -> None:
    assert len(set(ALL_CODES)) == 52


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_code_parses_and_prints_back_unchanged(code: str) -> None:
    card = Card.parse(code)
    assert card.code == code
    assert str(card) == code


def test_the_52_codes_parse_to_the_52_cards_of_the_deck() -> None:
    assert {Card.parse(code) for code in ALL_CODES} == set(FULL_DECK)


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("2C", Rank.TWO, Suit.CLUBS),
        ("9D", Rank.NINE, Suit.DIAMONDS),
        ("10H", Rank.TEN, Suit.HEARTS),
        ("JC", Rank.JACK, Suit.CLUBS),
        ("QD", Rank.QUEEN, Suit.DIAMONDS),
        ("KS", Rank.KING, Suit.SPADES),
    ],
)
def test_a_code_is_the_rank_then_the_suit(code: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(code) == Card(rank, suit)


def test_the_ten_is_written_10() -> None:
    ten = Card(Rank.TEN, Suit.HEARTS)
    assert ten.code == "10H"
    assert str(ten) == "10H"
    assert Card.parse("10H") == ten


@pytest.mark.parametrize("code", ["TH", "tH", "T H"])
def test_the_ten_is_not_written_t(code: str) -> None:
    with pytest.raises(UnknownCard):
        Card.parse(code)


def test_a_parsed_card_equals_the_same_card_built_directly() -> None:
    assert Card.parse("QD") == Card(Rank.QUEEN, Suit.DIAMONDS)
    assert hash(Card.parse("QD")) == hash(Card(Rank.QUEEN, Suit.DIAMONDS))


# --- anything else is an unknown card, named -----------------------------------------

BAD_CODES = [
    "as",
    "As",
    "aS",
    "10h",
    "qd",
    "1H",
    "11H",
    "T H",
    "TH",
    "",
    " AS",
    "AS ",
    "A S",
    "0S",
    "AX",
    "A",
    "S",
    "10",
    "ASS",
    "AS KD",
    "♠A",
    "A♠",
]


@pytest.mark.parametrize("code", BAD_CODES)
def test_an_unknown_code_is_rejected_with_a_message_naming_it(code: str) -> None:
    with pytest.raises(UnknownCard) as raised:
        Card.parse(code)
    error = raised.value
    assert error.code == "unknown_card"
    # Quoted, so that an empty code or a stray space is visible in the message.
    assert repr(code) in error.message
    assert str(error) == error.message


@pytest.mark.parametrize("value", [None, 10, 1.5, b"AS", ["AS"], ("A", "S"), {"AS"}])
def test_a_value_that_is_not_a_string_is_an_unknown_card(value: object) -> None:
    with pytest.raises(UnknownCard) as raised:
        Card.parse(value)  # type: ignore[arg-type]
    assert raised.value.code == "unknown_card"
    assert repr(value) in raised.value.message


def test_a_card_value_is_not_accepted_in_place_of_a_code() -> None:
    with pytest.raises(UnknownCard):
        Card.parse(Card(Rank.ACE, Suit.SPADES))  # type: ignore[arg-type]


def test_an_unknown_card_is_invalid_input() -> None:
    # The HTTP layer maps InvalidInput to 422, which docs/rules.md asks for.
    with pytest.raises(InvalidInput):
        Card.parse("1H")


# --- many codes -----------------------------------------------------------------------


def test_parse_cards_keeps_the_order_given() -> None:
    assert parse_cards(["KS", "10H", "AC"]) == [
        Card(Rank.KING, Suit.SPADES),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.ACE, Suit.CLUBS),
    ]


def test_parse_cards_accepts_a_tuple_and_an_empty_list() -> None:
    assert parse_cards(("QD",)) == [Card(Rank.QUEEN, Suit.DIAMONDS)]
    assert parse_cards([]) == []


def test_parse_cards_stops_at_the_first_bad_code_and_names_it() -> None:
    with pytest.raises(UnknownCard) as raised:
        parse_cards(["AS", "1H", "KD", "ZZ"])
    assert "'1H'" in raised.value.message
    assert "ZZ" not in raised.value.message


# --- display order --------------------------------------------------------------------


def test_sorted_cards_orders_by_rank_then_suit() -> None:
    assert sorted_cards(cards("KS 10C 2D AS JH AC 2C AH 9S QD")) == cards(
        "AC AH AS 2C 2D 9S 10C JH QD KS"
    )


def test_sorted_cards_puts_ten_after_nine_not_after_one() -> None:
    assert sorted_cards(cards("10S 9S 2S AS")) == cards("AS 2S 9S 10S")


def test_sorted_cards_orders_one_rank_by_suit_c_d_h_s() -> None:
    assert sorted_cards(cards("7S 7H 7C 7D")) == cards("7C 7D 7H 7S")


def test_sorted_cards_accepts_sets_and_leaves_the_input_alone() -> None:
    given = cards("QH 3D 3C")
    assert sorted_cards(set(given)) == cards("3C 3D QH")
    assert sorted_cards(frozenset(given)) == cards("3C 3D QH")
    assert sorted_cards(tuple(given)) == cards("3C 3D QH")
    assert given == cards("QH 3D 3C")


def test_sorting_the_whole_deck_gives_every_rank_in_four_suits() -> None:
    ordered = sorted_cards(list(reversed(FULL_DECK)))
    assert [card.code for card in ordered] == ALL_CODES


# --- the deck -------------------------------------------------------------------------


def test_the_full_deck_has_52_distinct_cards() -> None:
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52


def test_the_full_deck_has_every_rank_in_every_suit_and_no_joker() -> None:
    assert {card.code for card in FULL_DECK} == set(ALL_CODES)


# --- ranks ----------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "value"), list(zip(RANK_CODES, range(1, 14), strict=True)))
def test_a_rank_parses_from_its_code_and_prints_back(code: str, value: int) -> None:
    rank = Rank.parse(code)
    assert rank.value == value
    assert rank.code == code


@pytest.mark.parametrize("code", ["", "1", "0", "11", "T", "a", "j", "k", "AS", " A", "A ", "14"])
def test_an_unknown_rank_is_an_unknown_card_naming_it(code: str) -> None:
    with pytest.raises(UnknownCard) as raised:
        Rank.parse(code)
    assert raised.value.code == "unknown_card"
    assert repr(code) in raised.value.message


@pytest.mark.parametrize("value", [None, 1, 10])
def test_a_rank_that_is_not_a_string_is_an_unknown_card(value: object) -> None:
    with pytest.raises(UnknownCard) as raised:
        Rank.parse(value)  # type: ignore[arg-type]
    assert repr(value) in raised.value.message
