"""docs/rules.md, the rules players and client authors read, names every option
of `RuleSet`, every value of each, and each default as the code has it."""

from __future__ import annotations

import dataclasses
import json
import re
from enum import StrEnum
from pathlib import Path

import pytest

from service.domain import rules

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
