"""service/domain/wilds.py against an independent brute-force reader (wild_oracle.py):
the readings of a meld, the one read without `as`, an explicit `as`, the melds a
whole hand can make, and what a wild laid off may stand for."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from service.domain import table_wilds, wilds
from service.domain.cards import FULL_DECK, JOKER, Card
from service.domain.errors import InvalidLayOff, InvalidMeld, WildAmbiguous
from service.domain.melds import MeldKind, TableMeld
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from tests.domain.tables import cards
from tests.domain.wild_oracle import (
    RANK_CODES,
    Key,
    oracle_choice,
    oracle_readings,
    target_melds,
)

DEUCES = RuleSet.from_dict({"variant": "wild", "wild_rank": "2"})


def rules_with(**options: Any) -> RuleSet:
    return RuleSet.from_dict({"variant": "wild", **options})


def key_of(reading: wilds.Reading) -> Key:
    return reading.key


# --- docs/rules.md's own examples (deuces wild) ------------------------------------


def test_a_deuce_in_a_run_it_can_stand_in_naturally_stands_for_itself() -> None:
    reading = wilds.meld_reading(cards("3H 4H 2H"), None, DEUCES)
    assert reading.cards == tuple(cards("2H 3H 4H"))
    assert reading.as_ == tuple(cards("2H 3H 4H"))
    # The other reading exists (2H as 5H) but has fewer wild-rank cards as themselves.
    assert {r.as_ for r in wilds.readings(cards("3H 4H 2H"), DEUCES)} == {
        tuple(cards("2H 3H 4H")),
        tuple(cards("3H 4H 5H")),
    }


@pytest.mark.parametrize("meld", ["5H 6H JK", "8C 8D JK"])
def test_a_joker_that_could_stand_for_two_cards_is_ambiguous(meld: str) -> None:
    with pytest.raises(WildAmbiguous):
        wilds.meld_reading(cards(meld), None, DEUCES)


def test_a_joker_completing_three_of_a_rank_stands_for_the_fourth_suit() -> None:
    reading = wilds.meld_reading(cards("8C 8D 8H JK"), None, DEUCES)
    assert reading.kind is MeldKind.SET
    assert dict(zip(reading.cards, reading.as_, strict=True))[JOKER] == Card.parse("8S")


# --- readings against the oracle ---------------------------------------------------

RULE_SETS = st.builds(
    lambda wild_rank, min_natural, aces, jokers: rules_with(
        wild_rank=wild_rank, min_natural=min_natural, aces=aces, jokers=jokers
    ),
    st.sampled_from([None, "2", "A", "7", "K"]),
    st.integers(1, 3),
    st.sampled_from([a.value for a in Aces]),
    st.integers(1, 2),
)


@st.composite
def melds_to_read(draw: st.DrawFn, rules: RuleSet) -> list[Card]:
    """Cards that often are a meld: a set or a run with some cards turned into wilds,
    or any cards of the pack."""
    pack = list(rules.pack)
    if draw(st.booleans()):
        size = draw(st.integers(3, 6))
        return draw(st.permutations(pack).map(lambda shuffled: shuffled[:size]))
    size = draw(st.integers(3, 6))
    targets = target_melds(size, rules.aces.value)
    chosen = cards(list(draw(st.sampled_from(targets))))
    wild_codes = ["JK"] * rules.jokers
    if rules.wild_rank is not None:
        wild_codes += [f"{rules.wild_rank}{suit}" for suit in "CDHS"]
    for index in draw(st.lists(st.integers(0, size - 1), max_size=3, unique=True)):
        replacement = Card.parse(draw(st.sampled_from(wild_codes)))
        if replacement not in chosen or replacement.is_joker:
            chosen[index] = replacement
    if Counter(chosen)[JOKER] > rules.jokers:
        chosen = [c for c in chosen if not c.is_joker] + [JOKER] * rules.jokers
    return draw(st.permutations(chosen))


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_readings_of_a_meld_are_exactly_the_oracles(data: st.DataObject) -> None:
    rules = data.draw(RULE_SETS)
    meld = data.draw(melds_to_read(rules))
    expected = oracle_readings(meld, rules.wild_rank, rules.min_natural or 0, rules.aces.value)
    found = [key_of(r) for r in wilds.readings(meld, rules)]
    assert len(found) == len(set(found)), "each reading is listed once"
    assert set(found) == expected
    event(f"readings: {min(len(expected), 3)}")
    for reading in wilds.readings(meld, rules):
        # Table order: the represented cards as a meld lays them out.
        assert Counter(reading.cards) == Counter(meld)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_without_as_the_server_reads_as_the_oracle_chooses(data: st.DataObject) -> None:
    rules = data.draw(RULE_SETS)
    meld = data.draw(melds_to_read(rules))
    verdict, key = oracle_choice(meld, rules.wild_rank, rules.min_natural or 0, rules.aces.value)
    event(verdict)
    if verdict == "invalid":
        with pytest.raises(InvalidMeld):
            wilds.meld_reading(meld, None, rules)
    elif verdict == "ambiguous":
        with pytest.raises(WildAmbiguous):
            wilds.meld_reading(meld, None, rules)
    else:
        assert wilds.meld_reading(meld, None, rules).key == key


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_an_explicit_as_is_accepted_exactly_when_it_is_a_valid_reading(
    data: st.DataObject,
) -> None:
    rules = data.draw(RULE_SETS)
    meld = data.draw(melds_to_read(rules))
    expected = oracle_readings(meld, rules.wild_rank, rules.min_natural or 0, rules.aces.value)
    for key in expected:
        # Give the reading in the order the cards were named.
        pairs = list(key)
        as_ = []
        for card in meld:
            pair = next(p for p in pairs if p[0] == card.code)
            pairs.remove(pair)
            as_.append(Card.parse(pair[1]))
        assert wilds.meld_reading(meld, as_, rules).key == key
    guess = [data.draw(st.sampled_from(FULL_DECK)) if data.draw(st.booleans()) else c for c in meld]
    guess_key = tuple(sorted(zip([c.code for c in meld], [g.code for g in guess], strict=True)))
    if guess_key in expected:
        assert wilds.meld_reading(meld, guess, rules).key == guess_key
    else:
        with pytest.raises(InvalidMeld):
            wilds.meld_reading(meld, guess, rules)


def test_an_as_of_another_length_or_naming_a_joker_is_no_reading() -> None:
    with pytest.raises(InvalidMeld):
        wilds.meld_reading(cards("5H 6H JK"), cards("5H 6H"), DEUCES)
    with pytest.raises(InvalidMeld):
        wilds.meld_reading(cards("5H 6H JK"), cards("5H 6H JK"), DEUCES)
    with pytest.raises(InvalidMeld):
        # A natural card names itself.
        wilds.meld_reading(cards("5H 6H JK"), cards("4H 6H 7H"), DEUCES)


# --- a whole hand ------------------------------------------------------------------


def sub_multisets(held: list[Card]) -> set[tuple[str, ...]]:
    return {
        tuple(sorted(c.code for c in group))
        for size in range(3, len(held) + 1)
        for group in combinations(held, size)
    }


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_hands_melds_and_readings_are_every_sub_multiset_the_judge_reads(
    data: st.DataObject,
) -> None:
    rules = data.draw(RULE_SETS)
    held = data.draw(st.permutations(list(rules.pack)).map(lambda pack: pack[:8]))
    # Lean towards hands with wilds and neighbours.
    if data.draw(st.booleans()):
        held = held[:5] + [JOKER] * min(rules.jokers, 2) + cards("7H 8H")[: 3 - rules.jokers]
    found = {
        tuple(sorted(c.code for c in meld)): {wilds.Reading(*r).key for r in read}
        for meld, read in wilds.hand_melds(held, rules)
    }
    for meld, read in wilds.hand_melds(held, rules):
        assert len(read) == len({wilds.Reading(*r).key for r in read}), "each reading once"
        for kind, placed, as_ in read:
            assert Counter(placed) == Counter(meld)
            assert wilds.meld_reading(placed, as_, rules).kind is kind
    expected = {}
    for codes in sub_multisets(held):
        keys = {r.key for r in wilds.readings(cards(list(codes)), rules)}
        if keys:
            expected[codes] = keys
    assert found == expected
    event(f"melds: {min(len(found), 5)}")


# --- lay-offs ------------------------------------------------------------------------


def table_meld(reading: wilds.Reading) -> TableMeld:
    return TableMeld("h1-m1", reading.kind, list(reading.cards), 1, as_=list(reading.as_))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_card_laid_off_may_stand_for_exactly_what_extends_the_represented_meld(
    data: st.DataObject,
) -> None:
    rules = data.draw(RULE_SETS)
    meld = data.draw(melds_to_read(rules))
    read = wilds.readings(meld, rules)
    if not read:
        return
    reading = data.draw(st.sampled_from(read))
    laid = table_meld(reading)
    # Often a wild, or a card of the meld's own rank or suit.
    near = [c for c in FULL_DECK if c.suit is reading.as_[0].suit or c.rank is reading.as_[0].rank]
    wild_rank = [c for c in FULL_DECK if c.rank.code == rules.wild_rank]
    card = data.draw(
        st.sampled_from([JOKER, *wild_rank]) | st.sampled_from(near) | st.sampled_from(FULL_DECK)
    )
    wild = card.is_joker or card.rank.code == rules.wild_rank
    represented = {c.code for c in reading.as_}
    longer = set(target_melds(len(meld) + 1, rules.aces.value))
    expected = {
        stands.code
        for stands in FULL_DECK
        if (wild or stands == card)
        and stands.code not in represented
        and tuple(sorted(represented | {stands.code})) in longer
    }
    found = {stands.code for stands, _ in table_wilds.lay_off_readings(laid, card, rules)}
    assert found == expected
    event(f"lay-off readings: {len(found)}")
    for stands in FULL_DECK:
        if stands.code in expected:
            assert table_wilds.lay_off_reading(laid, card, stands, rules)[0] == stands
        else:
            with pytest.raises(InvalidLayOff):
                table_wilds.lay_off_reading(laid, card, stands, rules)
    natural = card.code in expected
    if natural or len(expected) == 1:
        chosen = card if natural else Card.parse(next(iter(expected)))
        assert table_wilds.lay_off_reading(laid, card, None, rules)[0] == chosen
    elif expected:
        with pytest.raises(WildAmbiguous):
            table_wilds.lay_off_reading(laid, card, None, rules)
    else:
        with pytest.raises(InvalidLayOff):
            table_wilds.lay_off_reading(laid, card, None, rules)


def test_a_natural_card_a_wild_stands_for_cannot_be_laid_off_beside_it() -> None:
    laid = table_meld(wilds.meld_reading(cards("5H 6H JK"), cards("5H 6H 7H"), DEUCES))
    with pytest.raises(InvalidLayOff, match="swap"):
        table_wilds.lay_off_reading(laid, Card.parse("7H"), None, DEUCES)
    assert table_wilds.lay_off_reading(laid, Card.parse("8H"), None, DEUCES)[0] == Card.parse("8H")


# --- swaps -------------------------------------------------------------------------


def test_a_swap_finds_the_wild_standing_for_the_card_and_never_a_natural_deuce() -> None:
    reading = wilds.meld_reading(cards("2H 3H JK 5H"), None, DEUCES)
    laid = table_meld(reading)
    assert laid.as_ == cards("2H 3H 4H 5H")
    assert table_wilds.swap_place(laid, Card.parse("4H"), DEUCES) == 2
    assert table_wilds.swap_place(laid, Card.parse("2H"), DEUCES) is None  # 2H is itself
    assert table_wilds.swap_place(laid, Card.parse("6H"), DEUCES) is None
    deuce_for_six = table_meld(wilds.meld_reading(cards("4H 5H 2C"), cards("4H 5H 6H"), DEUCES))
    assert table_wilds.swaps_for(deuce_for_six, cards("6H 9C"), DEUCES) == [
        (Card.parse("6H"), Card.parse("2C"))
    ]


# --- what counts as wild -------------------------------------------------------------


def test_every_joker_and_every_card_of_the_wild_rank_is_wild_and_nothing_else() -> None:
    for rank in RANK_CODES:
        for card in FULL_DECK:
            assert wilds.is_wild(card, rules_with(wild_rank=rank)) == (card.rank.code == rank)
        assert wilds.is_wild(JOKER, rules_with(wild_rank=rank))
    assert not any(wilds.is_wild(card, rules_with()) for card in FULL_DECK)
