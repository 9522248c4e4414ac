"""The rule `takeover_bot` (docs/rules.md): in every variant, one of the bot levels,
`basic` by default; stored only when it differs (a game's rules at the default store
and hash as before the rule), shown in views always, refused by name otherwise."""

from __future__ import annotations

import pytest

from service.domain.errors import InvalidRules
from service.domain.hand_chain import rules_digest
from service.domain.rule_values import BotLevel, Variant
from service.domain.rules import CLASSIC, RuleSet


def test_left_out_it_is_basic_not_stored_and_shown() -> None:
    assert CLASSIC.takeover_bot is BotLevel.BASIC
    assert "takeover_bot" not in CLASSIC.to_dict()
    assert CLASSIC.shown()["takeover_bot"] == "basic"
    given_as_default = RuleSet.from_dict({"takeover_bot": "basic"})
    assert given_as_default.to_dict() == CLASSIC.to_dict()
    assert rules_digest(given_as_default.to_dict()) == rules_digest(CLASSIC.to_dict())


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("level", list(BotLevel))
def test_every_variant_takes_every_level_and_reads_it_back(
    variant: Variant, level: BotLevel
) -> None:
    built = RuleSet.from_dict({"variant": variant.value, "takeover_bot": level.value}, players=2)
    assert built.takeover_bot is level
    stored = built.to_dict()
    assert ("takeover_bot" in stored) == (level is not BotLevel.BASIC)
    assert RuleSet.from_dict(stored) == built
    assert built.shown()["takeover_bot"] == level.value


@pytest.mark.parametrize("value", ["superhuman", "Basic", "", 2, True])
def test_a_value_that_is_no_level_is_invalid_rules_naming_the_rule_and_the_levels(
    value: object,
) -> None:
    with pytest.raises(InvalidRules) as refused:
        RuleSet.from_dict({"takeover_bot": value})
    message = str(refused.value)
    assert "takeover_bot" in message
    for level in BotLevel:
        assert level.value in message
