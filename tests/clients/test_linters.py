"""Redocly and Spectral, as client authors run them with no configuration of
ours (Redocly's built-in `recommended`, Spectral's plain `spectral:oas`), find
no error in the committed document, and no warning but those docs/api.md
lists ("Linting the document"), each with its reason there."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.clients.tools import OPENAPI_PATH, ROOT, npm_tool, run

SPECTRAL_SEVERITIES = {0: "error", 1: "warning", 2: "info", 3: "hint"}
REDOCLY_SEVERITIES = {"error": "error", "warn": "warning"}

Finding = tuple[str, str, str, str]
"""(linter, severity, rule, where), `where` as docs/api.md writes it."""


def documented() -> set[Finding]:
    """The rows of docs/api.md's table of the linters' warnings."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    _, _, section = text.partition("### Linting the document")
    rows = re.findall(
        r"^\| (Spectral|Redocly) \| (\w+) \| `([\w-]+)` \| `([^`]+)` \|", section, re.M
    )
    assert rows, "docs/api.md lists no linter findings under 'Linting the document'"
    return {(linter, severity, rule, where) for linter, severity, rule, where in rows}


def _where(steps: list[str]) -> str:
    """`GET /health` for an operation's place, the steps joined by `.` elsewhere."""
    if len(steps) >= 3 and steps[0] == "paths":
        return f"{steps[2].upper()} {steps[1]}"
    return ".".join(steps)


def _pointer_steps(pointer: str) -> list[str]:
    return [
        step.replace("~1", "/").replace("~0", "~") for step in pointer.removeprefix("#/").split("/")
    ]


def redocly_findings(into: Path) -> set[Finding]:
    # Run where no redocly.yaml is: Redocly reads one from the working directory.
    result = run([npm_tool("redocly"), "lint", "--format", "json", OPENAPI_PATH], cwd=into)
    assert result.stdout.strip(), result.stderr
    report = json.loads(result.stdout)
    assert "No configurations were provided" in result.stderr, result.stderr
    assert report["totals"]["errors"] == 0, report["problems"]
    assert result.returncode == 0, result.stderr
    return {
        (
            "Redocly",
            REDOCLY_SEVERITIES[problem["severity"]],
            problem["ruleId"],
            _where(_pointer_steps(location["pointer"])),
        )
        for problem in report["problems"]
        for location in problem["location"]
    }


def spectral_findings(into: Path) -> set[Finding]:
    # Spectral 6 lints only with a ruleset file: this one is the plain `spectral:oas`.
    ruleset = into / ".spectral.yaml"
    ruleset.write_text('extends: ["spectral:oas"]\n', encoding="utf-8")
    result = run(
        [
            npm_tool("spectral"),
            "lint",
            "--quiet",
            "--ruleset",
            ruleset,
            "--format",
            "json",
            "--fail-severity",
            "error",
            OPENAPI_PATH,
        ],
        cwd=into,
    )
    assert result.stdout.strip(), result.stderr
    found = json.loads(result.stdout)
    errors = [
        f"{item['code']}: {item['message'][:200]} at {'.'.join(map(str, item['path']))}"
        for item in found
        if item["severity"] == 0
    ]
    assert not errors, "\n".join(errors)
    assert result.returncode == 0, result.stderr
    return {
        (
            "Spectral",
            SPECTRAL_SEVERITIES[item["severity"]],
            item["code"],
            _where([str(step) for step in item["path"]]),
        )
        for item in found
    }


def test_redocly_recommended_finds_no_error_and_only_the_documented_warnings(
    tmp_path: Path,
) -> None:
    listed = {finding for finding in documented() if finding[0] == "Redocly"}
    assert redocly_findings(tmp_path) == listed


def test_plain_spectral_oas_finds_no_error_and_only_the_documented_warnings(
    tmp_path: Path,
) -> None:
    listed = {finding for finding in documented() if finding[0] == "Spectral"}
    assert spectral_findings(tmp_path) == listed


def test_no_linter_configuration_of_ours_turns_a_rule_off() -> None:
    """The linters run as client authors run them: no ruleset or config in the tree."""
    names = {".spectral.yaml", ".spectral.yml", ".spectral.json", "redocly.yaml", ".redocly.yaml"}
    found = [
        path.relative_to(ROOT)
        for directory in (ROOT, ROOT / "openapi", ROOT / "tests" / "clients")
        for path in directory.iterdir()
        if path.name in names
    ]
    assert found == []
