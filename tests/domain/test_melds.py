"""Melds and lay-offs per docs/rules.md: sets, runs under the three ace rules, lay-offs.

The property tests compare the module against an oracle written independently
of it: the runs each ace rule allows are spelled out as windows of a line of
ranks, and every subset of a small hand is checked by brute force.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, SUITS, Card
from service.domain.errors import IllegalMove, InvalidLayOff, InvalidMeld
from service.domain.melds import (
    End,
    MeldKind,
    TableMeld,
    arrange,
    can_lay_off,
    extend,
    is_meld,
    lay_off_end,
    meld_kind,
    possible_lay_offs,
    possible_melds,
)
from service.domain.rule_values import Aces

LOW = Aces.LOW
HIGH_OR_LOW = Aces.HIGH_OR_LOW
AROUND = Aces.AROUND_THE_CORNER
ALL_ACES = list(Aces)
ACE_MAY_BE_HIGH = [HIGH_OR_LOW, AROUND]
NO_WRAP = [LOW, HIGH_OR_LOW]

HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def cards(codes: str) -> list[Card]:
    """Cards from space-separated codes: `cards("KS 9D 4C AH")`."""
    return [Card.parse(code) for code in codes.split()]


def run(meld_id: str, codes: str, owner: int = 0) -> TableMeld:
    """A run on the table, its cards given in table order."""
    return TableMeld(id=meld_id, kind=MeldKind.RUN, cards=cards(codes), owner=owner)


def a_set(meld_id: str, codes: str, owner: int = 0) -> TableMeld:
    """A set on the table, its cards given in table order."""
    return TableMeld(id=meld_id, kind=MeldKind.SET, cards=cards(codes), owner=owner)


# --- the oracle -----------------------------------------------------------------------

# The ranks a run may climb through under each ace rule, written out by hand
# (A = 1 ... K = 13): every run is a window of 3 to 13 consecutive entries.
RANK_LINE = {
    LOW: list(range(1, 14)),  # A 2 ... K
    HIGH_OR_LOW: [*range(1, 14), 1],  # A 2 ... K A: the ace at one end or the other
    AROUND: [*range(1, 14), *range(1, 14)],  # round and round, 13 cards at most
}
RUN_WINDOWS = {
    aces: {
        tuple(line[start : start + length])
        for length in range(3, 14)
        for start in range(len(line) - length + 1)
    }
    for aces, line in RANK_LINE.items()
}
RUN_RANK_SETS = {aces: {frozenset(window) for window in RUN_WINDOWS[aces]} for aces in Aces}


def oracle_is_meld(hand: list[Card], aces: Aces) -> bool:
    if len(hand) < 3 or len(set(hand)) != len(hand):
        return False
    if len({card.rank for card in hand}) == 1:
        return True
    if len({card.suit for card in hand}) != 1:
        return False
    return frozenset(int(card.rank) for card in hand) in RUN_RANK_SETS[aces]


def oracle_in_run_order(hand: list[Card], aces: Aces) -> bool:
    return (
        len(set(hand)) == len(hand)
        and len({card.suit for card in hand}) == 1
        and tuple(int(card.rank) for card in hand) in RUN_WINDOWS[aces]
    )


def oracle_melds(hand: list[Card], aces: Aces) -> set[frozenset[Card]]:
    return {
        frozenset(subset)
        for size in range(3, len(hand) + 1)
        for subset in combinations(hand, size)
        if oracle_is_meld(list(subset), aces)
    }


def oracle_end(meld: TableMeld, card: Card, aces: Aces) -> End | None:
    """Where `card` goes on `meld`, or None: brute force on the resulting cards."""
    if meld.kind is MeldKind.SET:
        return End.HIGH if oracle_is_meld([*meld.cards, card], aces) else None
    if oracle_in_run_order([*meld.cards, card], aces):
        return End.HIGH
    if oracle_in_run_order([card, *meld.cards], aces):
        return End.LOW
    return None


@st.composite
def hands(draw: st.DrawFn, max_size: int = 10) -> list[Card]:
    """Distinct cards from one to four suits: few suits make runs likely."""
    suits = draw(st.lists(st.sampled_from(list(SUITS)), min_size=1, max_size=4, unique=True))
    pool = [card for card in FULL_DECK if card.suit in suits]
    return draw(st.lists(st.sampled_from(pool), max_size=max_size, unique=True))


@st.composite
def tables(draw: st.DrawFn, aces: Aces) -> list[TableMeld]:
    """Up to six melds that some hand could make, with ids m0, m1, ..."""
    offered = possible_melds(draw(hands(max_size=13)), aces)
    if not offered:
        return []
    chosen = draw(st.lists(st.sampled_from(offered), max_size=6))
    return [
        TableMeld(f"m{i}", meld_kind(meld, aces), list(meld), owner=i % 2)
        for i, meld in enumerate(chosen)
    ]


def codes_of(melds: list[list[Card]]) -> list[str]:
    return [" ".join(card.code for card in meld) for meld in melds]


def test_the_oracle_spells_the_rules_examples() -> None:
    assert (1, 2, 3) in RUN_WINDOWS[LOW]
    assert (12, 13, 1) not in RUN_WINDOWS[LOW]
    assert (12, 13, 1) in RUN_WINDOWS[HIGH_OR_LOW]
    assert (13, 1, 2) not in RUN_WINDOWS[HIGH_OR_LOW]
    assert (13, 1, 2) in RUN_WINDOWS[AROUND]
    assert (12, 13, 1, 2, 3) in RUN_WINDOWS[AROUND]


# --- sets -----------------------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_three_cards_of_one_rank_are_a_set(aces: Aces) -> None:
    assert meld_kind(cards("7C 7D 7H"), aces) is MeldKind.SET
    assert is_meld(cards("7C 7D 7H"), aces)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_four_cards_of_one_rank_are_a_set(aces: Aces) -> None:
    assert meld_kind(cards("QS QH QD QC"), aces) is MeldKind.SET


@pytest.mark.parametrize("aces", ALL_ACES)
def test_three_aces_are_a_set_under_every_ace_rule(aces: Aces) -> None:
    assert meld_kind(cards("AS AC AH"), aces) is MeldKind.SET


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_set_may_not_repeat_a_card(aces: Aces) -> None:
    with pytest.raises(InvalidMeld, match=r"^7H 7H 7S is not a meld: it repeats 7H"):
        meld_kind(cards("7H 7H 7S"), aces)
    assert not is_meld(cards("7H 7H 7S"), aces)


def test_five_cards_of_one_rank_are_never_a_meld_with_one_deck() -> None:
    with pytest.raises(InvalidMeld, match="it repeats 7C"):
        meld_kind(cards("7C 7D 7H 7S 7C"), LOW)


def test_three_copies_of_one_card_are_not_a_set() -> None:
    with pytest.raises(InvalidMeld, match="it repeats 9D"):
        meld_kind(cards("9D 9D 9D"), LOW)


# --- runs -----------------------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_three_consecutive_cards_of_one_suit_are_a_run(aces: Aces) -> None:
    assert meld_kind(cards("5H 6H 7H"), aces) is MeldKind.RUN
    assert is_meld(cards("5H 6H 7H"), aces)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_may_be_given_in_any_order(aces: Aces) -> None:
    assert meld_kind(cards("9S JS 8S 10S"), aces) is MeldKind.RUN


@pytest.mark.parametrize("aces", ALL_ACES)
def test_ace_two_three_is_a_run_under_every_ace_rule(aces: Aces) -> None:
    assert meld_kind(cards("AD 2D 3D"), aces) is MeldKind.RUN


def test_queen_king_ace_is_not_a_run_when_aces_are_low() -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards("QH KH AH"), LOW)
    assert raised.value.message == (
        "QH KH AH is not a run: aces are low, so an ace goes only below a two, never above a king."
    )
    assert not is_meld(cards("QH KH AH"), LOW)


@pytest.mark.parametrize("aces", ACE_MAY_BE_HIGH)
def test_queen_king_ace_is_a_run_when_the_ace_may_be_high(aces: Aces) -> None:
    assert meld_kind(cards("QH KH AH"), aces) is MeldKind.RUN


@pytest.mark.parametrize("aces", ACE_MAY_BE_HIGH)
def test_a_long_run_may_end_on_a_high_ace(aces: Aces) -> None:
    assert meld_kind(cards("9C 10C JC QC KC AC"), aces) is MeldKind.RUN


@pytest.mark.parametrize("aces", NO_WRAP)
def test_king_ace_two_is_not_a_run_unless_aces_go_around_the_corner(aces: Aces) -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards("KS AS 2S"), aces)
    assert raised.value.message == (
        "KS AS 2S is not a run: it turns the corner from king through ace to two, "
        "which only the around_the_corner ace rule allows."
    )
    assert not is_meld(cards("KS AS 2S"), aces)


def test_king_ace_two_is_a_run_around_the_corner() -> None:
    assert meld_kind(cards("KS AS 2S"), AROUND) is MeldKind.RUN


@pytest.mark.parametrize("aces", NO_WRAP)
def test_queen_king_ace_two_three_does_not_wrap_unless_around_the_corner(aces: Aces) -> None:
    with pytest.raises(InvalidMeld, match="turns the corner"):
        meld_kind(cards("QD KD AD 2D 3D"), aces)


def test_queen_king_ace_two_three_is_a_run_around_the_corner() -> None:
    assert meld_kind(cards("3D QD AD KD 2D"), AROUND) is MeldKind.RUN


@pytest.mark.parametrize("aces", ALL_ACES)
def test_the_whole_suit_is_one_run_under_every_ace_rule(aces: Aces) -> None:
    assert meld_kind(cards(HEARTS), aces) is MeldKind.RUN
    assert meld_kind(list(reversed(cards(HEARTS))), aces) is MeldKind.RUN


def test_two_to_king_and_an_ace_is_the_whole_suit_under_high_or_low() -> None:
    assert meld_kind(cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), HIGH_OR_LOW) is MeldKind.RUN


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_with_a_gap_is_not_a_meld(aces: Aces) -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards("4H 5H 7H"), aces)
    assert raised.value.message == "4H 5H 7H is not a run: there is a gap between 5H and 7H."
    assert not is_meld(cards("4H 5H 7H"), aces)


def test_a_gap_is_named_where_the_run_would_turn_the_corner() -> None:
    with pytest.raises(InvalidMeld, match="a gap between KH and 2H"):
        meld_kind(cards("2H 3H KH"), AROUND)


def test_a_gap_is_named_on_the_high_ace_side_when_the_ace_is_nearer_the_king() -> None:
    with pytest.raises(InvalidMeld, match="a gap between 9C and QC"):
        meld_kind(cards("AC 9C QC KC"), HIGH_OR_LOW)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_may_not_repeat_a_card(aces: Aces) -> None:
    with pytest.raises(InvalidMeld, match=r"^5H 6H 6H 7H is not a meld: it repeats 6H"):
        meld_kind(cards("5H 6H 6H 7H"), aces)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_cards_of_mixed_ranks_and_suits_are_not_a_meld(aces: Aces) -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards("7H 8S 9H"), aces)
    assert raised.value.message == (
        "7H 8S 9H is not a meld: a set needs cards of one rank and a run cards of one "
        "suit, and these mix ranks and suits."
    )


def test_a_pair_and_another_card_mix_ranks_and_suits() -> None:
    with pytest.raises(InvalidMeld, match="mix ranks and suits"):
        meld_kind(cards("7H 7S 8H"), LOW)


def test_a_repeated_card_is_named_even_among_mixed_ranks_and_suits() -> None:
    with pytest.raises(InvalidMeld, match="it repeats 7H"):
        meld_kind(cards("7H 8S 7H"), LOW)


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        ("", "A meld needs at least 3 cards, and none were given."),
        ("7H", "7H is not a meld: a meld needs at least 3 cards, not 1."),
        ("7H 8H", "7H 8H is not a meld: a meld needs at least 3 cards, not 2."),
        ("7H 7S", "7H 7S is not a meld: a meld needs at least 3 cards, not 2."),
    ],
)
def test_fewer_than_three_cards_are_not_a_meld(codes: str, message: str) -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards(codes), LOW)
    assert raised.value.message == message
    assert str(raised.value) == message
    assert not is_meld(cards(codes), LOW)


@pytest.mark.parametrize(
    ("codes", "aces"),
    [
        ("7H", LOW),
        ("7H 7H 7S", LOW),
        ("7H 8S 9H", LOW),
        ("4H 5H 7H", AROUND),
        ("QH KH AH", LOW),
        ("KH AH 2H", HIGH_OR_LOW),
    ],
)
def test_every_invalid_meld_is_an_illegal_move_with_code_invalid_meld(
    codes: str, aces: Aces
) -> None:
    with pytest.raises(InvalidMeld) as raised:
        meld_kind(cards(codes), aces)
    assert raised.value.code == "invalid_meld"
    assert isinstance(raised.value, IllegalMove)


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(FULL_DECK[13:39]), max_size=8),  # diamonds and hearts
    st.sampled_from(ALL_ACES),
)
def test_is_meld_and_meld_kind_agree_with_the_oracle(hand: list[Card], aces: Aces) -> None:
    expected = oracle_is_meld(hand, aces)
    assert is_meld(hand, aces) is expected
    if expected:
        kind = MeldKind.SET if len({card.rank for card in hand}) == 1 else MeldKind.RUN
        assert meld_kind(hand, aces) is kind
    else:
        with pytest.raises(InvalidMeld):
            meld_kind(hand, aces)


@settings(deadline=None)
@given(hands(max_size=13), st.sampled_from(ALL_ACES))
def test_is_meld_agrees_with_the_oracle_on_single_suits_and_sets(
    hand: list[Card], aces: Aces
) -> None:
    assert is_meld(hand, aces) is oracle_is_meld(hand, aces)


# --- arrange --------------------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_arrange_puts_a_run_from_its_low_end_to_its_high_end(aces: Aces) -> None:
    assert arrange(cards("9S JS 8S 10S"), aces) == cards("8S 9S 10S JS")


@pytest.mark.parametrize("aces", ALL_ACES)
def test_arrange_puts_a_low_ace_first(aces: Aces) -> None:
    assert arrange(cards("3D AD 2D"), aces) == cards("AD 2D 3D")


@pytest.mark.parametrize("aces", ACE_MAY_BE_HIGH)
def test_arrange_puts_a_high_ace_last(aces: Aces) -> None:
    assert arrange(cards("AH QH KH"), aces) == cards("QH KH AH")


def test_arrange_starts_a_wrapping_run_with_its_first_card() -> None:
    assert arrange(cards("2C AC KC QC"), AROUND) == cards("QC KC AC 2C")
    assert arrange(cards("2C AC KC"), AROUND) == cards("KC AC 2C")
    assert arrange(cards("3D QD AD KD 2D"), AROUND) == cards("QD KD AD 2D 3D")


@pytest.mark.parametrize("aces", ALL_ACES)
def test_arrange_reads_the_whole_suit_ace_low(aces: Aces) -> None:
    shuffled = cards("7H KH AH 2H QH 3H 10H 4H JH 5H 9H 6H 8H")
    assert arrange(shuffled, aces) == cards(HEARTS)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_arrange_sorts_a_set_by_suit(aces: Aces) -> None:
    assert arrange(cards("QS QH QC"), aces) == cards("QC QH QS")
    assert arrange(cards("5H 5S 5D 5C"), aces) == cards("5C 5D 5H 5S")


def test_arrange_rejects_cards_that_are_not_a_meld() -> None:
    with pytest.raises(InvalidMeld, match="aces are low"):
        arrange(cards("QH KH AH"), LOW)


def test_arrange_leaves_the_cards_it_was_given_alone() -> None:
    given = cards("AH QH KH")
    arrange(given, HIGH_OR_LOW)
    assert given == cards("AH QH KH")


@settings(deadline=None)
@given(hands(), st.sampled_from(ALL_ACES))
def test_every_arranged_run_reads_in_run_order(hand: list[Card], aces: Aces) -> None:
    for meld in possible_melds(hand, aces):
        shuffled = list(reversed(meld))
        arranged = arrange(shuffled, aces)
        assert sorted(arranged, key=lambda card: card.sort_key) == sorted(
            meld, key=lambda card: card.sort_key
        )
        if meld_kind(meld, aces) is MeldKind.RUN:
            assert oracle_in_run_order(arranged, aces)
        assert arrange(arranged, aces) == arranged


# --- lay-offs onto sets ---------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_set_of_three_takes_its_missing_fourth_card_at_the_high_end(aces: Aces) -> None:
    sevens = a_set("m1", "7C 7D 7S")
    assert lay_off_end(sevens, Card.parse("7H"), aces) is End.HIGH
    assert can_lay_off(sevens, Card.parse("7H"), aces)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_set_of_four_is_full(aces: Aces) -> None:
    sevens = a_set("m2", "7C 7D 7H 7S")
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(sevens, Card.parse("7H"), aces)
    assert raised.value.message == (
        "7H cannot be laid off on meld m2 (7C 7D 7H 7S): the set already has all four sevens."
    )
    assert raised.value.code == "invalid_lay_off"
    assert not can_lay_off(sevens, Card.parse("7H"), aces)


def test_a_set_takes_no_card_of_another_rank() -> None:
    sixes = a_set("m3", "6C 6D 6H")
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(sixes, Card.parse("7S"), LOW)
    assert raised.value.message == (
        "7S cannot be laid off on meld m3 (6C 6D 6H): that is a set of sixes."
    )
    assert not can_lay_off(sixes, Card.parse("7S"), LOW)


def test_a_card_already_in_a_set_cannot_be_laid_off_on_it() -> None:
    kings = a_set("m4", "KC KD KH")
    with pytest.raises(InvalidLayOff, match=r"m4 .*: KD is already in that meld"):
        lay_off_end(kings, Card.parse("KD"), LOW)


def test_a_set_is_full_once_its_fourth_card_is_laid_off() -> None:
    jacks = a_set("m5", "JC JH JS")
    extend(jacks, Card.parse("JD"), lay_off_end(jacks, Card.parse("JD"), LOW), seat=1)
    assert jacks.cards == cards("JC JH JS JD")
    assert not can_lay_off(jacks, Card.parse("JD"), LOW)


# --- lay-offs onto runs ---------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_takes_the_next_card_at_its_high_end(aces: Aces) -> None:
    assert lay_off_end(run("m1", "5H 6H 7H"), Card.parse("8H"), aces) is End.HIGH


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_takes_the_next_card_at_its_low_end(aces: Aces) -> None:
    assert lay_off_end(run("m1", "5H 6H 7H"), Card.parse("4H"), aces) is End.LOW


def test_a_run_takes_no_card_of_another_suit() -> None:
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(run("m7", "5H 6H 7H"), Card.parse("8S"), LOW)
    assert raised.value.message == (
        "8S cannot be laid off on meld m7 (5H 6H 7H): that is a run of hearts."
    )


def test_a_run_takes_only_the_next_card_at_either_end() -> None:
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(run("m8", "5H 6H 7H"), Card.parse("9H"), LOW)
    assert raised.value.message == (
        "9H cannot be laid off on meld m8 (5H 6H 7H): a run takes only the next card at "
        "either end, here 4H or 8H."
    )
    assert raised.value.code == "invalid_lay_off"


def test_a_card_already_in_a_run_cannot_be_laid_off_on_it() -> None:
    with pytest.raises(InvalidLayOff, match="6H is already in that meld"):
        lay_off_end(run("m9", "5H 6H 7H"), Card.parse("6H"), LOW)


@pytest.mark.parametrize("aces", ALL_ACES)
def test_an_ace_goes_below_a_two_under_every_ace_rule(aces: Aces) -> None:
    assert lay_off_end(run("m1", "2C 3C 4C"), Card.parse("AC"), aces) is End.LOW


def test_an_ace_does_not_go_above_a_king_when_aces_are_low() -> None:
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(run("m1", "JC QC KC"), Card.parse("AC"), LOW)
    assert raised.value.message == (
        "AC cannot be laid off on meld m1 (JC QC KC): aces are low, so an ace goes only "
        "below a two, never above a king."
    )


@pytest.mark.parametrize("aces", ACE_MAY_BE_HIGH)
def test_an_ace_goes_above_a_king_when_it_may_be_high(aces: Aces) -> None:
    assert lay_off_end(run("m1", "JC QC KC"), Card.parse("AC"), aces) is End.HIGH


@pytest.mark.parametrize("aces", NO_WRAP)
def test_a_king_does_not_go_below_a_low_ace_unless_around_the_corner(aces: Aces) -> None:
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(run("m1", "AS 2S 3S"), Card.parse("KS"), aces)
    assert raised.value.message == (
        "KS cannot be laid off on meld m1 (AS 2S 3S): it would turn the corner from king "
        "through ace to two, which only the around_the_corner ace rule allows."
    )


def test_a_king_goes_below_an_ace_around_the_corner() -> None:
    assert lay_off_end(run("m1", "AS 2S 3S"), Card.parse("KS"), AROUND) is End.LOW


def test_a_two_does_not_go_above_a_high_ace_under_high_or_low() -> None:
    with pytest.raises(InvalidLayOff, match="turn the corner"):
        lay_off_end(run("m1", "QD KD AD"), Card.parse("2D"), HIGH_OR_LOW)


def test_a_two_goes_above_a_high_ace_around_the_corner() -> None:
    assert lay_off_end(run("m1", "QD KD AD"), Card.parse("2D"), AROUND) is End.HIGH


@pytest.mark.parametrize("aces", ACE_MAY_BE_HIGH)
def test_a_run_ending_on_a_high_ace_still_takes_a_card_at_its_low_end(aces: Aces) -> None:
    assert lay_off_end(run("m1", "QD KD AD"), Card.parse("JD"), aces) is End.LOW


def test_a_card_fitting_both_ends_of_a_run_goes_at_the_high_end_under_high_or_low() -> None:
    two_to_king = run("m1", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    assert lay_off_end(two_to_king, Card.parse("AH"), HIGH_OR_LOW) is End.HIGH


@pytest.mark.parametrize(
    ("codes", "card"),
    [
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", "KH"),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH"),
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2H"),
        ("9H 10H JH QH KH AH 2H 3H 4H 5H 6H 7H", "8H"),
    ],
)
def test_a_card_fitting_both_ends_of_a_run_goes_at_the_high_end_around_the_corner(
    codes: str, card: str
) -> None:
    assert lay_off_end(run("m1", codes), Card.parse(card), AROUND) is End.HIGH


def test_a_twelve_card_run_from_a_low_ace_takes_the_king_only_above_under_high_or_low() -> None:
    ace_to_queen = run("m1", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH")
    assert lay_off_end(ace_to_queen, Card.parse("KH"), HIGH_OR_LOW) is End.HIGH
    assert lay_off_end(ace_to_queen, Card.parse("KH"), LOW) is End.HIGH


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_run_of_the_whole_suit_is_full(aces: Aces) -> None:
    whole = run("m6", HEARTS)
    with pytest.raises(InvalidLayOff) as raised:
        lay_off_end(whole, Card.parse("AH"), aces)
    assert raised.value.message == (
        f"AH cannot be laid off on meld m6 ({HEARTS}): the run already holds all 13 hearts."
    )
    assert not can_lay_off(whole, Card.parse("KH"), aces)


def test_laying_off_the_ace_on_two_to_king_under_high_or_low_fills_the_run() -> None:
    meld = run("m1", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    ace = Card.parse("AH")
    extend(meld, ace, lay_off_end(meld, ace, HIGH_OR_LOW), seat=1)
    assert meld.cards == cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    with pytest.raises(InvalidLayOff, match="all 13 hearts"):
        lay_off_end(meld, ace, HIGH_OR_LOW)


def test_a_run_keeps_growing_round_the_corner_until_it_holds_the_whole_suit() -> None:
    meld = run("m1", "QS KS AS")
    for code, end in [
        ("2S", End.HIGH),
        ("JS", End.LOW),
        ("3S", End.HIGH),
        ("10S", End.LOW),
        ("4S", End.HIGH),
        ("9S", End.LOW),
        ("5S", End.HIGH),
        ("8S", End.LOW),
        ("6S", End.HIGH),
        ("7S", End.HIGH),
    ]:
        card = Card.parse(code)
        assert lay_off_end(meld, card, AROUND) is end
        extend(meld, card, end, seat=0)
    assert meld.cards == cards("8S 9S 10S JS QS KS AS 2S 3S 4S 5S 6S 7S")
    assert not can_lay_off(meld, Card.parse("7S"), AROUND)


# --- extend ---------------------------------------------------------------------------


def test_extend_at_the_low_end_puts_the_card_before_the_first() -> None:
    meld = run("m1", "5H 6H 7H", owner=0)
    extend(meld, Card.parse("4H"), End.LOW, seat=1)
    assert meld.cards == cards("4H 5H 6H 7H")
    assert meld.laid_off == [(Card.parse("4H"), 1)]


def test_extend_at_the_high_end_puts_the_card_after_the_last() -> None:
    meld = run("m1", "5H 6H 7H", owner=0)
    extend(meld, Card.parse("8H"), End.HIGH, seat=0)
    assert meld.cards == cards("5H 6H 7H 8H")
    assert meld.laid_off == [(Card.parse("8H"), 0)]


def test_extend_records_every_lay_off_in_order_with_its_seat() -> None:
    meld = run("m1", "5H 6H 7H", owner=2)
    extend(meld, Card.parse("8H"), End.HIGH, seat=0)
    extend(meld, Card.parse("4H"), End.LOW, seat=1)
    extend(meld, Card.parse("9H"), End.HIGH, seat=0)
    assert meld.cards == cards("4H 5H 6H 7H 8H 9H")
    assert meld.laid_off == [(Card.parse("8H"), 0), (Card.parse("4H"), 1), (Card.parse("9H"), 0)]
    assert meld.owner == 2
    assert meld.id == "m1"


@settings(deadline=None)
@given(st.data(), st.sampled_from(ALL_ACES))
def test_lay_off_end_and_can_lay_off_agree_with_the_oracle(data: st.DataObject, aces: Aces) -> None:
    for meld in data.draw(tables(aces)):
        for card in FULL_DECK:
            expected = oracle_end(meld, card, aces)
            assert can_lay_off(meld, card, aces) is (expected is not None)
            if expected is None:
                with pytest.raises(InvalidLayOff, match=f"^{card} cannot be laid off on meld"):
                    lay_off_end(meld, card, aces)
            else:
                assert lay_off_end(meld, card, aces) is expected
                grown = TableMeld(meld.id, meld.kind, list(meld.cards), meld.owner)
                extend(grown, card, expected, seat=1)
                assert is_meld(grown.cards, aces)


# --- possible melds -------------------------------------------------------------------


@pytest.mark.parametrize("aces", ALL_ACES)
def test_an_empty_hand_has_no_melds(aces: Aces) -> None:
    assert possible_melds([], aces) == []


@pytest.mark.parametrize("aces", ALL_ACES)
def test_a_hand_without_melds_offers_none(aces: Aces) -> None:
    assert possible_melds(cards("2C 5D 8H JS KC AD 7H 7S"), aces) == []


@pytest.mark.parametrize("aces", ALL_ACES)
def test_possible_melds_lists_every_set_then_every_run_in_order(aces: Aces) -> None:
    hand = cards("10H 2S 7S 9H 4S 7H 7C 3S 8H 7D")
    assert codes_of(possible_melds(hand, aces)) == [
        "7C 7D 7H",
        "7C 7D 7S",
        "7C 7H 7S",
        "7D 7H 7S",
        "7C 7D 7H 7S",
        "7H 8H 9H",
        "7H 8H 9H 10H",
        "8H 9H 10H",
        "2S 3S 4S",
    ]


def test_possible_melds_offers_queen_king_ace_only_when_the_ace_may_be_high() -> None:
    hand = cards("QH KH AH 2H")
    assert codes_of(possible_melds(hand, LOW)) == []
    assert codes_of(possible_melds(hand, HIGH_OR_LOW)) == ["QH KH AH"]
    assert codes_of(possible_melds(hand, AROUND)) == [
        "QH KH AH",
        "QH KH AH 2H",
        "KH AH 2H",
    ]


def test_possible_melds_offers_an_ace_at_either_end_under_high_or_low() -> None:
    hand = cards("AC 2C 3C QC KC")
    assert codes_of(possible_melds(hand, HIGH_OR_LOW)) == ["AC 2C 3C", "QC KC AC"]
    assert codes_of(possible_melds(hand, LOW)) == ["AC 2C 3C"]


def test_possible_melds_offers_wrapping_runs_only_around_the_corner() -> None:
    hand = cards("JD QD KD AD 2D 3D")
    assert codes_of(possible_melds(hand, AROUND)) == [
        "AD 2D 3D",
        "JD QD KD",
        "JD QD KD AD",
        "JD QD KD AD 2D",
        "JD QD KD AD 2D 3D",
        "QD KD AD",
        "QD KD AD 2D",
        "QD KD AD 2D 3D",
        "KD AD 2D",
        "KD AD 2D 3D",
    ]
    assert codes_of(possible_melds(hand, HIGH_OR_LOW)) == [
        "AD 2D 3D",
        "JD QD KD",
        "JD QD KD AD",
        "QD KD AD",
    ]


@pytest.mark.parametrize(("aces", "count"), [(LOW, 66), (HIGH_OR_LOW, 76), (AROUND, 131)])
def test_possible_melds_counts_every_run_in_a_whole_suit(aces: Aces, count: int) -> None:
    # low: windows of A..K; high_or_low: of A..K A, the whole suit once;
    # around: 13 starts times lengths 3..12, and the whole suit once.
    offered = possible_melds(cards(HEARTS), aces)
    assert len(offered) == count
    assert codes_of(offered).count(HEARTS) == 1


def test_possible_melds_ignores_a_repeated_card_in_the_hand() -> None:
    assert codes_of(possible_melds(cards("5H 6H 7H 6H"), LOW)) == ["5H 6H 7H"]


def melds_order(meld: list[Card]) -> tuple[object, ...]:
    """The order possible_melds documents: sets by rank, then runs by suit and start."""
    suits = list(SUITS)
    if len({card.rank for card in meld}) == 1:
        return (0, int(meld[0].rank), len(meld), [suits.index(card.suit) for card in meld])
    return (1, suits.index(meld[0].suit), int(meld[0].rank), len(meld))


@settings(deadline=None)
@given(hands(), st.sampled_from(ALL_ACES))
def test_possible_melds_are_exactly_the_melds_among_all_subsets_of_the_hand(
    hand: list[Card], aces: Aces
) -> None:
    offered = possible_melds(hand, aces)
    assert {frozenset(meld) for meld in offered} == oracle_melds(hand, aces)
    assert len(offered) == len({frozenset(meld) for meld in offered})  # no duplicates
    assert all(meld == arrange(meld, aces) for meld in offered)
    assert offered == sorted(offered, key=melds_order)


@settings(deadline=None)
@given(st.data(), hands(), st.sampled_from(ALL_ACES))
def test_possible_melds_do_not_depend_on_the_order_of_the_hand(
    data: st.DataObject, hand: list[Card], aces: Aces
) -> None:
    shuffled = data.draw(st.permutations(hand))
    assert possible_melds(shuffled, aces) == possible_melds(hand, aces)


# --- possible lay-offs ----------------------------------------------------------------


def test_possible_lay_offs_go_by_meld_order_then_card_order() -> None:
    table = [
        run("m1", "5H 6H 7H"),
        a_set("m2", "QC QD QS"),
        run("m3", "9S 10S JS"),
        a_set("m4", "2C 2D 2H 2S"),
    ]
    hand = cards("QS 8H QH 4H 8S KS 2H 3C")
    offered = possible_lay_offs(hand, table, LOW)
    assert [(card.code, meld.id) for card, meld in offered] == [
        ("4H", "m1"),
        ("8H", "m1"),
        ("QH", "m2"),
        ("8S", "m3"),
        ("QS", "m3"),
    ]
    assert all(meld is table[int(meld.id[1]) - 1] for _, meld in offered)


def test_possible_lay_offs_offer_a_card_fitting_both_ends_once() -> None:
    table = [run("m1", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")]
    offered = possible_lay_offs(cards("AH"), table, HIGH_OR_LOW)
    assert [(card.code, meld.id) for card, meld in offered] == [("AH", "m1")]


def test_possible_lay_offs_offer_a_card_for_each_meld_it_fits() -> None:
    table = [run("m1", "8C 9C 10C"), a_set("m2", "JD JH JS"), run("m3", "QC KC AC")]
    offered = possible_lay_offs(cards("JC"), table, HIGH_OR_LOW)
    assert [(card.code, meld.id) for card, meld in offered] == [
        ("JC", "m1"),
        ("JC", "m2"),
        ("JC", "m3"),
    ]


def test_possible_lay_offs_follow_the_ace_rule() -> None:
    table = [run("m1", "JC QC KC"), run("m2", "AD 2D 3D")]
    hand = cards("AC KD")
    assert possible_lay_offs(hand, table, LOW) == []
    assert [(c.code, m.id) for c, m in possible_lay_offs(hand, table, HIGH_OR_LOW)] == [
        ("AC", "m1")
    ]
    assert [(c.code, m.id) for c, m in possible_lay_offs(hand, table, AROUND)] == [
        ("AC", "m1"),
        ("KD", "m2"),
    ]


@pytest.mark.parametrize("aces", ALL_ACES)
def test_possible_lay_offs_offer_nothing_onto_full_melds(aces: Aces) -> None:
    table = [a_set("m1", "9C 9D 9H 9S"), run("m2", HEARTS)]
    assert possible_lay_offs(cards(f"9S {HEARTS}"), table, aces) == []


@pytest.mark.parametrize("aces", ALL_ACES)
def test_possible_lay_offs_with_no_hand_or_no_melds_are_empty(aces: Aces) -> None:
    assert possible_lay_offs([], [run("m1", "5H 6H 7H")], aces) == []
    assert possible_lay_offs(cards("4H 8H"), [], aces) == []


@settings(deadline=None)
@given(st.data(), hands(), st.sampled_from(ALL_ACES))
def test_possible_lay_offs_are_exactly_the_pairs_the_oracle_accepts(
    data: st.DataObject, hand: list[Card], aces: Aces
) -> None:
    table = data.draw(tables(aces))
    in_card_order = sorted(hand, key=lambda card: card.sort_key)
    expected = [
        (card.code, meld.id)
        for meld in table
        for card in in_card_order
        if oracle_end(meld, card, aces) is not None
    ]
    offered = possible_lay_offs(hand, table, aces)
    assert [(card.code, meld.id) for card, meld in offered] == expected
    assert all(can_lay_off(meld, card, aces) for card, meld in offered)
