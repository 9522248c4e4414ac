"""docs/rules.md, the rules players and client authors read, names every option
of `RuleSet`, every value of each, and each default as the code has it."""

from __future__ import annotations

import dataclasses
import json
import re
from enum import StrEnum
from pathlib import Path

import pytest

from service.domain import presets, rule_values, rules

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
# The classic game's options; the variants' own are documented per variant.
OPTIONS = list(rules.CLASSIC.to_dict())
ENUMS = {
    field.name: enum
    for field in dataclasses.fields(rules.RuleSet)
    if field.name in OPTIONS
    for enum in vars(rules).values()
    if isinstance(enum, type) and issubclass(enum, StrEnum) and enum.__name__ == field.type
}


def text() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def section(option: str) -> str:
    """The text under the option's own heading, up to the next heading."""
    parts = re.split(rf"^### `{option}`\n", text(), flags=re.MULTILINE)
    assert len(parts) == 2, f"docs/rules.md has no one section headed ### `{option}`"
    return re.split(r"^#{1,3} ", parts[1], flags=re.MULTILINE)[0]


def table_row(option: str) -> list[str]:
    """The cells of the option's row in the table of options."""
    rows = [line for line in text().splitlines() if line.startswith(f"| [`{option}`](#{option})")]
    assert len(rows) == 1, f"docs/rules.md's table of options has no one row for {option}"
    return [cell.strip() for cell in rows[0].strip("|").split("|")]


def test_every_enum_option_is_found() -> None:
    # The derivation above finds the enum of each option typed by one.
    assert set(ENUMS) == {
        name for name, value in rules.CLASSIC.to_dict().items() if isinstance(value, str)
    }


@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_has_a_section_and_a_row_with_its_default(option: str) -> None:
    assert section(option).strip()
    _, _, default = table_row(option)
    value = rules.CLASSIC.to_dict()[option]
    # As a client writes it in JSON, strings bare as the doc writes values.
    expected = value if isinstance(value, str) else json.dumps(value)
    assert default.startswith(f"`{expected}`"), f"{option}: the default is {expected}"


@pytest.mark.parametrize("option", sorted(ENUMS))
def test_every_value_of_an_option_is_described_in_its_section(option: str) -> None:
    _, values, _ = table_row(option)
    for member in ENUMS[option]:
        assert f"`{member.value}`" in section(option), f"{option}: {member.value}"
        assert f"`{member.value}`" in values, f"{option}: {member.value}"


def test_the_table_lists_the_options_and_nothing_else() -> None:
    listed = re.findall(r"^\| \[`(\w+)`\]\(#\w+\)", text(), flags=re.MULTILINE)
    assert listed == OPTIONS


# --- the variants ----------------------------------------------------------------------------

VARIANT_OPTIONS = [
    field.name for field in dataclasses.fields(rules.RuleSet) if field.name not in OPTIONS
]
"""The options only the variants have (`variant`, `packs`, `jokers`, ...)."""
DASH = "\u2013"
"""The en dash the table writes for "no such option" and in ranges."""
TABLED = [name for name in (*OPTIONS, *VARIANT_OPTIONS) if name != "variant"]


def _plain(value: object) -> str:
    value = value.value if isinstance(value, StrEnum) else value
    return value if isinstance(value, str) else json.dumps(value)


def expected_cell(variant: rule_values.Variant, option: str) -> str:
    """What the table of rule sets must say of `option` in `variant`, read off the
    variant's preset (`presets.VARIANTS`)."""
    preset = presets.VARIANTS[variant]
    if option not in preset.accepted:
        return DASH
    if option in preset.fixed:
        return f"`{_plain(preset.fixed[option])}` fixed"
    default = getattr(rules.RuleSet.from_dict({"variant": variant.value}), option)
    if option in preset.ranges:
        low, high = preset.ranges[option]
        return f"{low}{DASH}{high}, default `{_plain(default)}`"
    if option in preset.caps:
        # A cap on a game's length: its bounds, and a new game's default.
        low, high = preset.caps[option]
        new = rules.RuleSet.from_dict({"variant": variant.value}, players=2)
        default = getattr(new, option)
        return f"{low}{DASH}{high}, default `{_plain(default)}`"
    if option in OPTIONS and default == getattr(rules.CLASSIC, option):
        return "any"
    return f"default `{_plain(default)}`"


def variant_table() -> dict[str, dict[str, str]]:
    """The table of rule sets: row name -> variant -> cell."""
    after = text().split("<!-- variant-table:", 1)[1].split("\n", 1)[1]
    lines = []
    for line in after.splitlines():
        if not line.startswith("|"):
            break
        lines.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    header, _, *rows = lines
    assert header[0] == "option"
    return {row[0].strip("`"): dict(zip(header[1:], row[1:], strict=True)) for row in rows}


def test_the_table_of_rule_sets_has_a_column_per_variant_and_a_row_per_option() -> None:
    table = variant_table()
    assert list(table) == ["players", *TABLED]
    for row in table.values():
        assert list(row) == [variant.value for variant in rule_values.Variant]


@pytest.mark.parametrize("variant", list(rule_values.Variant))
def test_the_table_of_rule_sets_agrees_with_the_presets(variant: rule_values.Variant) -> None:
    table = variant_table()
    low, high = presets.VARIANTS[variant].players
    assert table["players"][variant.value] == (f"{low}" if low == high else f"{low}{DASH}{high}")
    for option in TABLED:
        assert table[option][variant.value] == expected_cell(variant, option), option


@pytest.mark.parametrize("option", VARIANT_OPTIONS)
def test_every_variant_option_has_its_own_section(option: str) -> None:
    body = section(option)
    assert body.strip()
    for variant, preset in presets.VARIANTS.items():
        bounds = preset.ranges.get(option) or preset.caps.get(option)
        if bounds is not None:
            low, high = bounds
            assert f"{low} to {high}" in body, f"{option}: {variant.value}'s range"


@pytest.mark.parametrize("option", ["target", "deals", "max_turns"])
def test_every_capped_classic_option_states_its_caps_in_its_section(option: str) -> None:
    body = section(option)
    for variant, preset in presets.VARIANTS.items():
        if option in preset.caps:
            low, high = preset.caps[option]
            assert f"{low} to {high}" in body, f"{option}: {variant.value}'s cap"


def test_the_sections_name_every_variant_and_every_swapped_wild_value() -> None:
    for variant in rule_values.Variant:
        assert f"`{variant.value}`" in section("variant")
    for value in rule_values.SwappedWild:
        assert f"`{value.value}`" in section("swapped_wild")


def _pot(
    counts: dict[str, int], knocker: str, penalty: int = 10, bonus: int = 25
) -> tuple[list[str], int]:
    """Knock Rummy's winners and pot as the rules text words them, written apart from
    the service's code."""
    others = {seat: count for seat, count in counts.items() if seat != knocker}
    undercut = min(others.values()) <= counts[knocker]
    field = others if undercut else counts
    lowest = min(field.values())
    winners = sorted(seat for seat, count in field.items() if count == lowest)
    pot = sum(count - lowest for seat, count in counts.items() if seat not in winners)
    if undercut:
        pot += penalty
    elif winners == [knocker] and counts[knocker] == 0:
        pot += bonus * len(others)
    return winners, pot


def test_the_worked_pots_follow_the_rules_text() -> None:
    rows = re.findall(
        r"^\s*\| (A \d+, B \d+, C \d+) \| (\w) .*\*\*(\d+)\*\* \|$", text(), flags=re.MULTILINE
    )
    assert len(rows) == 3
    for counts_text, winner, pot in rows:
        counts = {seat: int(count) for seat, count in re.findall(r"(\w) (\d+)", counts_text)}
        assert _pot(counts, knocker="A") == ([winner], int(pot)), counts_text
