"""The rules for names and client seeds (service/api/printable.py): the pattern
the decoder enforces, the words that explain a refusal, the pattern the
OpenAPI document states (read by a JSON Schema validator, as clients read
it), and Python's own Unicode tables all agree.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.api.printable import (
    CLIENT_SEED_PATTERN,
    DOCUMENTED_NAME_PATTERN,
    NAME_MAX_LENGTH,
    NAME_PATTERN,
    client_seed_problem,
    name_problem,
)

OPENAPI = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text(encoding="utf-8")
)
NAME = re.compile(NAME_PATTERN)
CLIENT_SEED = re.compile(CLIENT_SEED_PATTERN)

# What spoofing uses, and what a pattern is easily wrong about, among any other text.
TRICKY = st.sampled_from(
    [
        " ", "\n", "\r", "\t", "\x00", "\x7f", "\x85", "\u00a0", "\u00ad", "\u061c",
        "\u115f", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e", "\u202e", "\u2028",
        "\u2066", "\u2069", "\u2800", "\u3000", "\u3164", "\ufeff", "\ufe0f", "\ue000",
        "\uffff", "\U0001f600", "\U000e0041", "\U000e0100", "\U000f0000", "\U0010ffff",
    ]
)  # fmt: skip
TEXT = st.lists(st.one_of(TRICKY, st.characters(codec="utf-8")), max_size=70).map("".join)


def _schema(component: str, field: str) -> dict[str, Any]:
    schema: dict[str, Any] = OPENAPI["components"]["schemas"][component]["properties"][field]
    strings: list[dict[str, Any]] = [
        branch for branch in schema.get("anyOf", []) if branch.get("type") == "string"
    ]
    return strings[0] if strings else schema


@settings(max_examples=1000, deadline=None)
@given(TEXT)
@example("Ann\n")
@example(" ")
def test_a_name_is_refused_by_the_pattern_exactly_when_the_words_say_why(text: str) -> None:
    assert (NAME.search(text) is None) == (name_problem(text) is not None)


@settings(max_examples=500, deadline=None)
@given(TEXT)
@example("seed\n")
def test_a_client_seed_is_refused_by_the_pattern_exactly_when_the_words_say_why(
    text: str,
) -> None:
    assert (CLIENT_SEED.search(text) is None) == (client_seed_problem(text) is not None)


@pytest.mark.parametrize("component", ["NewPlayer", "JoinGame"])
@settings(max_examples=300, deadline=None)
@given(text=TEXT)
@example(text="Ann\n")
def test_the_documented_name_schema_takes_what_the_service_takes(component: str, text: str) -> None:
    # A JSON Schema validator reads the committed document's pattern as clients do
    # (`$` is the end of the text there, not also before a final newline). The
    # pattern states the rule up to U+FFFF: above, what the service refuses is in
    # the description only, so the schema judges the text as if each such code
    # point were a letter.
    validator = jsonschema_rs.validator_for(_schema(component, "name"))
    in_the_bmp = "".join("x" if ord(char) > 0xFFFF else char for char in text)
    accepted = name_problem(in_the_bmp) is None and 1 <= len(text) <= NAME_MAX_LENGTH
    assert validator.is_valid(text) == accepted
    if name_problem(text) is None and 1 <= len(text) <= NAME_MAX_LENGTH:
        assert validator.is_valid(text)


@pytest.mark.parametrize("component", ["NewPlayer", "JoinGame"])
def test_the_documented_name_pattern_is_in_the_bmp_and_its_description_names_the_rest(
    component: str,
) -> None:
    """Engines without Unicode mode (JavaScript's without `u`: Spectral, ajv by
    default) read a class's range above U+FFFF as UTF-16 halves "out of order"."""
    schema = _schema(component, "name")
    assert max(map(ord, schema["pattern"])) <= 0xFFFF
    assert schema["pattern"] == DOCUMENTED_NAME_PATTERN.removesuffix("\\Z") + "$"
    for beyond in ("U+110BD", "U+1D173-U+1D17A", "U+E0000-U+E00FF", "U+E01F0-U+E0FFF"):
        assert beyond in schema["description"]
        first = int(beyond.split("-")[0].removeprefix("U+"), 16)
        assert name_problem(f"a{chr(first)}b") is not None


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_the_documented_client_seed_schema_takes_what_the_service_takes(text: str) -> None:
    validator = jsonschema_rs.validator_for(_schema("JoinGame", "client_seed"))
    assert validator.is_valid(text) == (client_seed_problem(text) is None)


def test_every_control_format_and_separator_character_and_noncharacter_is_refused() -> None:
    # Held to the Unicode tables of the Python running the tests: a format character
    # that a newer Unicode adds fails here until the list in printable.py has it.
    refused = {"Cc", "Cf", "Zl", "Zp"}
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        category = unicodedata.category(char)
        noncharacter = 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE
        if category in refused or (category == "Zs" and char != " ") or noncharacter:
            assert NAME.search(f"a{char}b") is None, f"U+{point:04X} {category}"
        if category == "Cc":
            assert CLIENT_SEED.search(f"a{char}b") is None, f"U+{point:04X}"


@pytest.mark.parametrize(
    "name",
    ["Ann", 'Zoë "Z"', "O'Brien-Smith", "名前", "Ἀλέξανδρος", "محمد", "🂡 Ace", "❤\ufe0f", "a:b"],
)
def test_names_in_any_script_with_symbols_and_emoji_are_printable(name: str) -> None:
    assert name_problem(name) is None
    assert NAME.search(name)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Ann\u202egnp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE, a bidi control"),
        ("Ann\x00", "U+0000, a control character"),
        ("A\u200bnn", "U+200B ZERO WIDTH SPACE, a zero-width character"),
        ("\u3164", "U+3164 HANGUL FILLER, a letter that shows as nothing"),
        ("Ann ", "start or end with a space"),
        ("   ", "start or end with a space"),
    ],
)
def test_the_words_name_the_character_and_what_it_is(name: str, says: str) -> None:
    problem = name_problem(name)
    assert problem is not None
    assert says in problem
