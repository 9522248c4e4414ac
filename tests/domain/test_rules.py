"""The rule set per docs/rules.md: the classic defaults, every house rule by name, and the
impossible combinations that fail when a game is created."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.errors import InvalidRules, InvalidSeating
from service.domain.rule_values import (
    Aces,
    Exhausted,
    GoingOut,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
)
from service.domain.rules import CLASSIC, RuleSet
from service.domain.setup import check_playable

# The classic game, option by option, as docs/rules.md writes it (names and plain values).
CLASSIC_AS_WRITTEN: dict[str, Any] = {
    "aces": "low",
    "hand_size": None,  # "by players": 10 / 7 / 7 / 6 / 6
    "melds_per_turn": "unlimited",
    "lay_off": "anytime",
    "going_out": "any",
    "rummy_bonus": "double",
    "recycles": 1,
    "recycle_shuffle": True,
    "exhausted": "void",
    "max_turns": 500,
    "scoring": "winner",
    "target": 100,
    "deals": None,
}

# docs/rules.md: 2 players 10 each; 3-4 players 7 each; 5-6 players 6 each.
DEFAULT_HAND_SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}

# docs/rules.md's choices for each named option.
CHOICES: dict[str, list[str]] = {
    "aces": ["low", "high_or_low", "around_the_corner"],
    "melds_per_turn": ["unlimited", "one"],
    "lay_off": ["anytime", "after_own_meld"],
    "going_out": ["any", "discard"],
    "rummy_bonus": ["double", "plus_10", "none"],
    "exhausted": ["void", "score"],
    "scoring": ["winner", "penalty"],
}


def invalid(data: dict[str, Any]) -> InvalidRules:
    with pytest.raises(InvalidRules) as raised:
        RuleSet.from_dict(data)
    return raised.value


# --- the classic defaults -------------------------------------------------------------


def test_the_default_rule_set_is_the_classic_game() -> None:
    rules = RuleSet()
    assert rules.aces is Aces.LOW
    assert rules.hand_size is None
    assert rules.melds_per_turn is MeldsPerTurn.UNLIMITED
    assert rules.lay_off is LayOffRule.ANYTIME
    assert rules.going_out is GoingOut.ANY
    assert rules.rummy_bonus is RummyBonus.DOUBLE
    assert rules.recycles == 1
    assert rules.recycle_shuffle is True
    assert rules.exhausted is Exhausted.VOID
    assert rules.max_turns == 500
    assert rules.scoring is Scoring.WINNER
    assert rules.target == 100
    assert rules.deals is None


def test_the_classic_rule_set_written_out_names_every_option_as_rules_md_does() -> None:
    assert RuleSet().to_dict() == CLASSIC_AS_WRITTEN


def test_classic_is_the_default_rule_set() -> None:
    assert RuleSet() == CLASSIC


def test_an_empty_rules_object_is_the_classic_game() -> None:
    assert RuleSet.from_dict({}) == RuleSet()


@pytest.mark.parametrize(("players", "size"), sorted(DEFAULT_HAND_SIZES.items()))
def test_the_classic_hand_size_depends_on_the_number_of_players(players: int, size: int) -> None:
    assert RuleSet().hand_size_for(players) == size


def test_the_rules_written_out_are_plain_json() -> None:
    written = RuleSet().to_dict()
    assert json.loads(json.dumps(written)) == written
    assert all(type(value) in (str, int, bool, type(None)) for value in written.values())


# --- every house rule, by its docs/rules.md name and value ---------------------------------

HOUSE_RULES = [
    *[(name, value) for name, values in CHOICES.items() for value in values],
    ("hand_size", 1),
    ("hand_size", 5),
    ("hand_size", 25),
    ("hand_size", None),
    ("recycles", 0),
    ("recycles", 3),
    ("recycle_shuffle", False),
    ("recycle_shuffle", True),
    ("max_turns", 1),
    ("max_turns", 50),
    ("scoring", "penalty"),
    ("target", 1),
    ("target", 250),
]


@pytest.mark.parametrize(("name", "value"), HOUSE_RULES)
def test_every_option_is_set_by_its_rules_md_name_and_value(name: str, value: object) -> None:
    rules = RuleSet.from_dict({name: value})
    written = rules.to_dict()
    assert written[name] == value
    # Everything else stays classic.
    assert {k: v for k, v in written.items() if k != name} == {
        k: v for k, v in CLASSIC_AS_WRITTEN.items() if k != name
    }


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("aces", "high_or_low", Aces.HIGH_OR_LOW),
        ("aces", "around_the_corner", Aces.AROUND_THE_CORNER),
        ("melds_per_turn", "one", MeldsPerTurn.ONE),
        ("lay_off", "after_own_meld", LayOffRule.AFTER_OWN_MELD),
        ("going_out", "discard", GoingOut.DISCARD),
        ("rummy_bonus", "plus_10", RummyBonus.PLUS_10),
        ("rummy_bonus", "none", RummyBonus.NONE),
        ("exhausted", "score", Exhausted.SCORE),
        ("scoring", "penalty", Scoring.PENALTY),
    ],
)
def test_a_named_choice_becomes_its_typed_value(name: str, value: str, expected: object) -> None:
    assert getattr(RuleSet.from_dict({name: value}), name) is expected


def test_block_rummy_is_zero_recycles() -> None:
    assert RuleSet.from_dict({"recycles": 0}).recycles == 0


def test_a_game_that_sets_deals_has_no_target() -> None:
    rules = RuleSet.from_dict({"deals": 3})
    assert rules.deals == 3
    assert rules.target is None


def test_deals_with_an_explicit_null_target_is_accepted() -> None:
    rules = RuleSet.from_dict({"deals": 5, "target": None})
    assert (rules.deals, rules.target) == (5, None)


def test_typed_values_are_accepted_as_well_as_their_names() -> None:
    assert RuleSet.from_dict({"aces": Aces.HIGH_OR_LOW}).aces is Aces.HIGH_OR_LOW


# A valid rule set written with docs/rules.md's names: any choice of every option, and
# exactly one way to end the game.
options = st.fixed_dictionaries(
    {
        **{name: st.sampled_from(values) for name, values in CHOICES.items()},
        "hand_size": st.none() | st.integers(min_value=1, max_value=25),
        "recycles": st.integers(min_value=0, max_value=10),
        "recycle_shuffle": st.booleans(),
        "max_turns": st.integers(min_value=1, max_value=10_000),
    }
)
endings = st.one_of(
    st.fixed_dictionaries({"target": st.integers(min_value=1, max_value=10_000)}).map(
        lambda ending: {**ending, "deals": None}
    ),
    st.fixed_dictionaries({"deals": st.integers(min_value=1, max_value=100)}).map(
        lambda ending: {**ending, "target": None}
    ),
)
written_rules = st.builds(lambda chosen, ending: {**chosen, **ending}, options, endings)


@given(written_rules)
def test_any_valid_rules_read_back_exactly_as_written(data: dict[str, Any]) -> None:
    rules = RuleSet.from_dict(data)
    assert rules.to_dict() == data


@given(written_rules)
def test_writing_and_reading_a_rule_set_gives_the_same_rule_set(data: dict[str, Any]) -> None:
    rules = RuleSet.from_dict(data)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@given(written_rules, st.data())
def test_a_partial_rules_object_fills_in_the_classic_defaults(
    data: dict[str, Any], draw: st.DataObject
) -> None:
    names = draw.draw(st.sets(st.sampled_from(sorted(data))))
    partial = {name: data[name] for name in names if name not in ("target", "deals")}
    written = RuleSet.from_dict(partial).to_dict()
    assert written == {**CLASSIC_AS_WRITTEN, **partial}


# --- impossible rules fail when the game is created -----------------------------------


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"jokers": True}, "jokers"),
        ({"Aces": "low"}, "Aces"),
        ({"hand size": 7}, "hand size"),
        ({"aces": "high"}, "aces"),
        ({"aces": "LOW"}, "aces"),
        ({"aces": None}, "aces"),
        ({"aces": 1}, "aces"),
        ({"melds_per_turn": "two"}, "melds_per_turn"),
        ({"lay_off": "never"}, "lay_off"),
        ({"going_out": "meld"}, "going_out"),
        ({"rummy_bonus": "plus_20"}, "rummy_bonus"),
        ({"rummy_bonus": None}, "rummy_bonus"),
        ({"exhausted": "replay"}, "exhausted"),
        ({"scoring": "lowest"}, "scoring"),
        ({"recycles": True}, "recycles"),
        ({"max_turns": True}, "max_turns"),
        ({"hand_size": True}, "hand_size"),
        ({"target": True}, "target"),
        ({"deals": True}, "deals"),
        ({"recycles": "1"}, "recycles"),
        ({"recycles": 1.0}, "recycles"),
        ({"recycles": None}, "recycles"),
        ({"max_turns": None}, "max_turns"),
        ({"target": 99.5}, "target"),
        ({"recycle_shuffle": "true"}, "recycle_shuffle"),
        ({"recycle_shuffle": "false"}, "recycle_shuffle"),
        ({"recycle_shuffle": 1}, "recycle_shuffle"),
        ({"recycle_shuffle": 0}, "recycle_shuffle"),
        ({"recycle_shuffle": None}, "recycle_shuffle"),
        ({"recycles": -1}, "recycles"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": -5}, "max_turns"),
        ({"deals": 0}, "deals"),
        ({"deals": -1}, "deals"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": -3}, "hand_size"),
        ({"target": 0}, "target"),
    ],
)
def test_an_impossible_rule_is_refused_with_a_sentence_naming_it(
    data: dict[str, Any], named: str
) -> None:
    error = invalid(data)
    assert error.code == "invalid_rules"
    assert named in error.message
    assert error.message.endswith(".")


@pytest.mark.parametrize(
    "data",
    [
        {"target": 100, "deals": 3},
        {"deals": 3, "target": 50},
        {"target": None},
        {"target": None, "deals": None},
    ],
)
def test_a_game_ends_by_a_target_or_by_deals_but_not_both_nor_neither(
    data: dict[str, Any],
) -> None:
    error = invalid(data)
    assert error.code == "invalid_rules"
    assert "target" in error.message
    assert "deals" in error.message


def test_a_hand_size_too_big_for_even_two_players_is_refused_at_creation() -> None:
    # 26 each for two players is all 52 cards: no upcard, no stock.
    error = invalid({"hand_size": 26})
    assert "hand_size" in error.message
    assert "26" in error.message
    assert "stock" in error.message


@pytest.mark.parametrize("data", [[], "classic", None, [("aces", "low")]])
def test_rules_that_are_not_an_object_are_refused(data: object) -> None:
    with pytest.raises(InvalidRules):
        RuleSet.from_dict(data)  # type: ignore[arg-type]


def test_the_same_checks_apply_when_a_rule_set_is_built_in_code() -> None:
    with pytest.raises(InvalidRules):
        RuleSet(recycles=-1)
    with pytest.raises(InvalidRules):
        RuleSet(deals=3)  # target 100 is still set
    with pytest.raises(InvalidRules):
        RuleSet(recycles=True)


# --- hand size and seating ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_chosen_hand_size_overrides_the_classic_one(players: int) -> None:
    assert RuleSet(hand_size=5).hand_size_for(players) == 5


def test_a_hand_size_that_leaves_no_stock_for_the_players_is_refused_saying_why() -> None:
    # Six hands of ten are 60 cards: more than the 51 left once the upcard is turned.
    rules = RuleSet(hand_size=10)
    assert rules.hand_size_for(2) == 10
    with pytest.raises(InvalidRules) as raised:
        rules.hand_size_for(6)
    message = raised.value.message
    assert raised.value.code == "invalid_rules"
    assert "10" in message
    assert "6 players" in message
    assert "stock" in message


# docs/rules.md: at least one card is left for the stock after the upcard, so
# players * hand_size + 1 upcard + 1 stock card <= 52.
LARGEST_HAND_SIZES = {2: 25, 3: 16, 4: 12, 5: 10, 6: 8}


@pytest.mark.parametrize(("players", "largest"), sorted(LARGEST_HAND_SIZES.items()))
def test_the_largest_hand_size_leaving_one_stock_card_is_allowed(
    players: int, largest: int
) -> None:
    assert players * largest + 2 <= 52  # the table above is right
    assert RuleSet(hand_size=largest).hand_size_for(players) == largest


@pytest.mark.parametrize(("players", "largest"), sorted(LARGEST_HAND_SIZES.items()))
def test_one_more_card_each_than_the_largest_hand_size_is_refused(
    players: int, largest: int
) -> None:
    assert players * (largest + 1) + 2 > 52  # the table above is right
    with pytest.raises(InvalidRules) as raised:
        RuleSet(hand_size=largest + 1).hand_size_for(players)
    assert "stock" in raised.value.message


@given(st.integers(min_value=2, max_value=6), st.integers(min_value=1, max_value=25))
def test_a_hand_size_is_allowed_exactly_when_a_stock_card_is_left(
    players: int, hand_size: int
) -> None:
    rules = RuleSet(hand_size=hand_size)
    leaves_a_stock_card = 52 - players * hand_size - 1 >= 1
    if leaves_a_stock_card:
        assert rules.hand_size_for(players) == hand_size
    else:
        with pytest.raises(InvalidRules):
            rules.hand_size_for(players)


@pytest.mark.parametrize("players", [-1, 0, 1, 7, 8, 52])
@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(hand_size=1), RuleSet(hand_size=10)])
def test_a_game_seats_two_to_six_players(rules: RuleSet, players: int) -> None:
    with pytest.raises(InvalidSeating) as raised:
        rules.hand_size_for(players)
    assert raised.value.code == "invalid_seating"
    assert str(players) in raised.value.message


# --- ace values and immutability ------------------------------------------------------


@pytest.mark.parametrize(
    ("aces", "value"), [("low", 1), ("high_or_low", 15), ("around_the_corner", 15)]
)
def test_an_ace_left_in_hand_counts_one_or_fifteen_where_it_may_be_high(
    aces: str, value: int
) -> None:
    assert RuleSet.from_dict({"aces": aces}).ace_points == value


@pytest.mark.parametrize(("name", "value"), [("target", 50), ("aces", Aces.HIGH_OR_LOW)])
def test_a_rule_set_cannot_be_changed_once_built(name: str, value: object) -> None:
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rules, name, value)
    assert rules == RuleSet()


def test_changing_a_rule_means_building_a_new_checked_rule_set() -> None:
    with pytest.raises(InvalidRules):
        dataclasses.replace(RuleSet(), max_turns=0)
    assert dataclasses.replace(RuleSet(), max_turns=20).max_turns == 20


@pytest.mark.parametrize(
    ("data", "players", "seats"),
    [({"variant": "gin"}, 7, "gin seats 2)."), ({"variant": "rummy500"}, 9, "seats 2 to 8).")],
)
def test_a_seat_count_past_every_game_names_what_the_variant_seats(
    data: dict[str, Any], players: int, seats: str
) -> None:
    with pytest.raises(InvalidSeating) as refused:
        check_playable(RuleSet.from_dict(data), players)
    assert refused.value.message.endswith(seats), refused.value.message
