"""No variant is named outside the engines' rooms, the presets and the schema
builders that read them (docs/architecture.md, "The engine seam").

A rule that differs between variants goes behind the seam: the game's engine
(`service.domain.engine.engine_for`) or a feature of its rule set
(`RuleSet.features`, `RuleSet.has_wilds`). This test greps `service/` for a
variant named in code (a `Variant` member, a comparison of a variant, a variant's
name in quotes on a line about variants) and fails on one that is not below, each
with its reason. Files are named by their name, not their path, so a room's files
may move.
"""

from __future__ import annotations

import re
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "service"

ROOMS = (
    SERVICE / "domain" / "western",
    SERVICE / "domain" / "indian",
    SERVICE / "domain" / "gin",
    SERVICE / "domain" / "rummy500",
)
"""The engines' rooms: each names its own variants."""

PRESETS_AND_SCHEMAS = {
    "rules.py": "the rule set: its Indian defaults and stored form, read by variant",
    "presets.py": "the presets: `VARIANTS`, one per variant (moved out of rules.py)",
    "rule_checks.py": "the rule set's checks against its variant's preset (out of rules.py)",
    "engine.py": "the seam itself: its docstring names the families' variants",
    "new_game_schema.py": "the schema builder: the `Rules` oneOf made from the presets",
    "schemas.py": "the schema builder: the request bodies' bounds read from the presets",
}

ALLOWED = {
    (
        "convert.py",
        'accepted = VARIANTS[given.get("variant", Variant.CLASSIC)].accepted',
    ): "a body's rules read against its variant's preset; classic when none is named",
    (
        "convert.py",
        'variant = given.get("variant", Variant.CLASSIC).value',
    ): "the variant named in a refusal of an option its preset lacks",
    ("games.py", '"variant": "wild",'): "an OpenAPI example of creating a wild game",
    ("games.py", '"rules": {"variant": "boathouse"},'): "an OpenAPI example",
    (
        "games.py",
        'value={"seats": 4, "rules": {"variant": "knock", "knock_bonus": 50}},',
    ): "an OpenAPI example",
    (
        "games.py",
        'value={"seats": 3, "rules": {"variant": "wrotham", "swap": False}},',
    ): "an OpenAPI example",
    ("games.py", '"rules": {"variant": "indian", "format": "pool_101"},'): "an OpenAPI example",
    (
        "games.py",
        'value={"seats": 5, "rules": {"variant": "rummy500", "target": 300}},',
    ): "an OpenAPI example",
    (
        "games.py",
        '"rules": {"variant": "gin", "oklahoma": True, "target": 150},',
    ): "an OpenAPI example",
    ("lobby.py", '"variant": "classic",'): "an OpenAPI example of a lobby row",
    ("matchmaking.py", '"variant": "gin",'): "an OpenAPI example of a ticket",
    (
        "lobby.py",
        '"rules": {"variant": "classic", "packs": 1, "jokers": 0, "target": 100},',
    ): "an OpenAPI example of a lobby row",
}
"""(file name, the line stripped) → why it may name a variant."""

NAMES = "classic|wild|boathouse|knock|wrotham|indian|gin|rummy500"
PATTERNS = (
    re.compile(r"\bVariant\.[A-Z]"),
    re.compile(r"\bvariant\s+(is|is not|==|!=|not in|in)\s+(Variant\b|_[A-Z]|[\"'(\[{])"),
    re.compile(rf"variant.*[\"']({NAMES})[\"']|[\"']({NAMES})[\"'].*variant", re.IGNORECASE),
)


def _outside_the_seam() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(SERVICE.rglob("*.py")):
        if any(path.is_relative_to(room) for room in ROOMS):
            continue
        if path.name in PRESETS_AND_SCHEMAS and path.parent.name in ("domain", "api"):
            continue
        if path.name in PRESETS_AND_SCHEMAS and path.parent.parent.name == "api":
            continue  # a schema builder in a room of api/
        for number, line in enumerate(path.read_text().splitlines(), 1):
            text = line.strip()
            if text.startswith("#"):
                continue
            if any(pattern.search(text) for pattern in PATTERNS):
                found.append((path.name, number, text))
    return found


def test_no_variant_is_named_outside_the_engines_the_presets_and_the_schemas() -> None:
    named = [
        f"service/…/{name}:{number}: {text}"
        for name, number, text in _outside_the_seam()
        if (name, text) not in ALLOWED
    ]
    assert named == [], (
        "A variant is named outside the engine seam: ask the game's engine "
        "(engine_for(rules)) or a feature of its rules (rules.features) instead, or, "
        "if it is a preset or a schema, add it to ALLOWED with its reason:\n" + "\n".join(named)
    )


def test_every_allowed_line_is_still_there() -> None:
    lines = {(name, text) for name, _, text in _outside_the_seam()}
    assert sorted(set(ALLOWED) - lines) == []


def test_the_grep_finds_what_it_is_for() -> None:
    for line in (
        "if table.rules.variant is Variant.KNOCK:",
        "if rules.variant is _INDIAN:",
        'if rules.variant == "wrotham":',
        "if rules.variant in (Variant.WILD, Variant.WROTHAM):",
    ):
        assert any(pattern.search(line) for pattern in PATTERNS), line
    for line in (
        "if query.variant is None or game.variant == query.variant:",
        'legal.knock = card_codes(moves.knock) if "knock" in keys else None',
    ):
        assert not any(pattern.search(line) for pattern in PATTERNS), line
