"""The rule set's checks (`RuleSet.__post_init__`, `RuleSet.from_dict`): each
option's type, the leaving options' ranges, and a rule set held to its variant's
preset (`presets.VARIANTS`). Each refusal is an `InvalidRules` naming the option
(and the variant), so an impossible combination fails when a game is created.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from service.domain.cards import RANKS
from service.domain.errors import InvalidRules
from service.domain.presets import (
    GIN_NULLABLE,
    GIN_OPTIONS,
    INDIAN_OPTIONS,
    TIME_BANK_SECONDS,
    TIMEOUTS_BEFORE_TAKEOVER,
    TURN_SECONDS,
    VARIANTS,
    WILD_OPTIONS,
)
from service.domain.rule_values import (
    Abandon,
    Aces,
    BotLevel,
    Exhausted,
    Format,
    GoingOut,
    LayOffRule,
    MeldsPerTurn,
    RummyBonus,
    Scoring,
    SwappedWild,
    Variant,
)

if TYPE_CHECKING:
    from service.domain.rules import RuleSet


def plain_value(value: object) -> object:
    """An option's value as plain data: an enum's value, anything else as it is."""
    return value.value if isinstance(value, StrEnum) else value


_ENUMS: dict[str, type[StrEnum]] = {
    "Variant": Variant,
    "Format": Format,
    "SwappedWild": SwappedWild,
    "Aces": Aces,
    "MeldsPerTurn": MeldsPerTurn,
    "LayOffRule": LayOffRule,
    "GoingOut": GoingOut,
    "RummyBonus": RummyBonus,
    "Exhausted": Exhausted,
    "Scoring": Scoring,
    "Abandon": Abandon,
    "BotLevel": BotLevel,
}


def coerce(name: str, value: object, annotation: object) -> object:
    """A given value read as its option's enum (annotated `annotation`), if it has one."""
    enum = _ENUMS.get(str(annotation).removesuffix(" | None"))
    if enum is None or value is None or isinstance(value, enum):
        return value
    try:
        return enum(value)  # type: ignore[arg-type]
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise InvalidRules(f"Rule {name!r} is one of {choices}, not {value!r}.") from None


def check_type(name: str, value: object, annotation: object) -> None:
    """Refuse a value not of its option's type (`bool` is no whole number here)."""
    spelled = str(annotation)
    optional = spelled.endswith(" | None")
    spelled = spelled.removesuffix(" | None")
    if value is None:
        if not optional:
            raise InvalidRules(f"Rule {name!r} must be set.")
        return
    enum = _ENUMS.get(spelled)
    if enum is not None:
        if not isinstance(value, enum):
            raise InvalidRules(f"Rule {name!r} must be one of its named values, not {value!r}.")
        return
    expected: type = {"bool": bool, "str": str}.get(spelled, int)
    # bool is an int in Python, but `recycles: true` is a mistake, not 1.
    if type(value) is not expected:
        wanted = {bool: "true or false", str: "a string"}.get(expected, "a whole number")
        raise InvalidRules(f"Rule {name!r} must be {wanted}, not {value!r}.")


def check_clock(rules: RuleSet) -> None:
    """The leaving options' ranges, the same in every variant; a time bank only with
    a clock."""
    for name, (low, high), optional in (
        ("turn_seconds", TURN_SECONDS, True),
        ("timeouts_before_takeover", TIMEOUTS_BEFORE_TAKEOVER, False),
        ("time_bank_seconds", TIME_BANK_SECONDS, False),
    ):
        value = getattr(rules, name)
        if value is None and optional:
            continue
        if not low <= value <= high:
            none = " or null (no clock)" if optional else ""
            raise InvalidRules(f"Rule {name!r} is {low} to {high}{none}, not {value}.")
    if rules.time_bank_seconds and rules.turn_seconds is None:
        raise InvalidRules(
            f"Rule 'time_bank_seconds' ({rules.time_bank_seconds}) needs a turn clock: "
            f"set turn_seconds, or leave the bank out."
        )


def check_variant(rules: RuleSet) -> None:
    """Hold a rule set to its variant's preset: unused options unset, fixed ones at
    their value, numbers in range. Each message names the option and the variant."""
    preset = VARIANTS[rules.variant]
    variant = rules.variant.value
    optional = ("wild_rank", *WILD_OPTIONS, "ace_value", "knock_penalty", "knock_bonus")
    for name in (*optional, *INDIAN_OPTIONS, *GIN_OPTIONS):
        if name not in preset.used and getattr(rules, name) is not None:
            raise InvalidRules(f"Rule {name!r} is not an option of variant {variant!r}.")
        nullable = name in ("wild_rank", "ace_value", *GIN_NULLABLE)
        if name in preset.used and not nullable and getattr(rules, name) is None:
            raise InvalidRules(f"Rule {name!r} must be set in variant {variant!r}.")
    for name, value in preset.fixed.items():
        if getattr(rules, name) != value:
            raise InvalidRules(
                f"Rule {name!r} is {plain_value(value)!r} in variant {variant!r}, "
                f"not {plain_value(getattr(rules, name))!r}."
            )
    for name, (low, high) in preset.ranges.items():
        value = getattr(rules, name)
        if value is not None and not low <= value <= high:
            raise InvalidRules(
                f"Rule {name!r} is {low} to {high} in variant {variant!r}, not {value}."
            )
    if rules.wild_rank is not None and rules.wild_rank not in _RANK_CODES:
        raise InvalidRules(
            f"Rule 'wild_rank' is a rank (A 2-10 J Q K) or null, not {rules.wild_rank!r}."
        )
    if rules.variant is Variant.INDIAN:
        _check_indian(rules)
    if rules.variant is Variant.GIN:
        _check_gin(rules)
    if rules.variant is Variant.WILD and not rules.has_wilds:
        raise InvalidRules("Rule 'jokers': variant 'wild' needs at least one joker or a wild_rank.")


def _check_indian(rules: RuleSet) -> None:
    if rules.jokers != rules.packs:
        raise InvalidRules(
            f"Rule 'jokers' is the number of packs in variant 'indian' ({rules.packs}), "
            f"not {rules.jokers}."
        )
    if rules.target is not None:
        raise InvalidRules("Rule 'target' is not an option of variant 'indian'.")
    if rules.format is Format.DEALS:
        if rules.deals is None or rules.deals < 1:
            raise InvalidRules("Rule 'deals' must be at least 1 in format 'deals'.")
    elif rules.deals is not None:
        raise InvalidRules(
            f"Rule 'deals' is an option of format 'deals' only, not of {rules.format}."
        )


def _check_gin(rules: RuleSet) -> None:
    """Oklahoma sets each hand's knock limit from the upcard: `knock_limit` is no
    option then, and without it the option must be set."""
    if rules.oklahoma and rules.knock_limit is not None:
        raise InvalidRules(
            "Rule 'knock_limit' is not an option of variant 'gin' with oklahoma: the "
            "upcard sets each hand's knock limit."
        )
    if not rules.oklahoma and rules.knock_limit is None:
        raise InvalidRules("Rule 'knock_limit' must be set in variant 'gin' (0 to 10).")


_RANK_CODES = frozenset(rank.code for rank in RANKS)
