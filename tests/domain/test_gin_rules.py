"""Gin Rummy's options (docs/rules.md "Gin Rummy"): its defaults, ranges and fixed
values, Oklahoma's knock limit, big gin turned off by null, and every other option
refused (422 `invalid_rules`)."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.errors import InvalidRules
from service.domain.presets import VARIANTS
from service.domain.rule_values import Aces, Variant
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game

GIN = {"variant": "gin"}


def new(**options: Any) -> RuleSet:
    rules = RuleSet.from_dict({**GIN, **options}, players=2)
    check_new_game(rules, 2)
    return rules


def test_the_defaults_are_the_rules_page_s() -> None:
    rules = new()
    assert (rules.hand_size, rules.aces, rules.packs, rules.jokers) == (10, Aces.LOW, 1, 0)
    assert rules.knock_limit == 10
    assert (rules.gin_bonus, rules.big_gin_bonus, rules.undercut_bonus) == (25, 31, 25)
    assert (rules.oklahoma, rules.target, rules.game_bonus, rules.box_bonus) == (
        False,
        100,
        100,
        25,
    )
    assert rules.shutout is True
    assert rules.max_turns == 500


@pytest.mark.parametrize(
    ("option", "low", "high"),
    [
        ("knock_limit", 0, 10),
        ("gin_bonus", 0, 50),
        ("big_gin_bonus", 0, 50),
        ("undercut_bonus", 0, 50),
        ("target", 10, 500),
        ("game_bonus", 0, 500),
        ("box_bonus", 0, 100),
    ],
)
def test_each_number_is_taken_in_its_range_and_refused_outside(
    option: str, low: int, high: int
) -> None:
    assert getattr(new(**{option: low}), option) == low
    assert getattr(new(**{option: high}), option) == high
    for value in (low - 1, high + 1):
        with pytest.raises(InvalidRules, match=option):
            new(**{option: value})


def test_two_players_only() -> None:
    rules = new()
    rules.check_players(2)
    with pytest.raises(InvalidRules, match="seats 2"):
        rules.check_players(3)


@pytest.mark.parametrize(("option", "value"), [("hand_size", 9), ("aces", "high_or_low")])
def test_the_fixed_options_take_only_their_value(option: str, value: object) -> None:
    with pytest.raises(InvalidRules, match=option):
        new(**{option: value})


def test_oklahoma_has_no_knock_limit_option() -> None:
    rules = new(oklahoma=True)
    assert rules.knock_limit is None
    with pytest.raises(InvalidRules, match="knock_limit"):
        new(oklahoma=True, knock_limit=5)


def test_null_turns_big_gin_off_and_is_stored_so() -> None:
    rules = new(big_gin_bonus=None)
    assert rules.big_gin_bonus is None
    stored = rules.to_dict()
    assert stored["big_gin_bonus"] is None
    assert RuleSet.from_dict(stored) == rules


def test_every_option_gin_lacks_is_refused() -> None:
    preset = VARIANTS[Variant.GIN]
    lacking = [
        "melds_per_turn",
        "lay_off",
        "going_out",
        "rummy_bonus",
        "recycles",
        "recycle_shuffle",
        "exhausted",
        "scoring",
        "deals",
        "wild_rank",
        "ace_value",
        "knock_penalty",
        "format",
    ]
    for option in lacking:
        assert option not in preset.accepted
        with pytest.raises(InvalidRules, match=option):
            RuleSet.from_dict({**GIN, option: 1}, players=2)


def test_the_gin_options_are_refused_in_other_variants() -> None:
    with pytest.raises(InvalidRules, match="knock_limit"):
        RuleSet.from_dict({"variant": "knock", "knock_limit": 5}, players=2)
