"""Redocly and Spectral, as client authors run them, find nothing in the
committed document: no error and no warning, but for the rules that
redocly.yaml and .spectral.yaml beside this module turn off, each with its
reason."""

from __future__ import annotations

import json

from tests.clients.tools import HERE, OPENAPI_PATH, npm_tool, run


def test_redocly_finds_nothing() -> None:
    redocly = npm_tool("redocly")
    config = HERE / "redocly.yaml"
    result = run([redocly, "lint", "--config", config, "--format", "json", OPENAPI_PATH])
    assert result.stdout.strip(), result.stderr
    report = json.loads(result.stdout)
    problems = [
        f"{problem['severity']} {problem['ruleId']}: {problem['message']} "
        f"at {[location.get('pointer') for location in problem.get('location', [])]}"
        for problem in report["problems"]
    ]
    assert not problems, "\n".join(problems)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}
    assert result.returncode == 0, result.stderr


def test_spectral_finds_nothing() -> None:
    spectral = npm_tool("spectral")
    ruleset = HERE / ".spectral.yaml"
    result = run(
        [
            spectral,
            "lint",
            "--quiet",
            "--ruleset",
            ruleset,
            "--format",
            "json",
            "--fail-severity",
            "hint",
            OPENAPI_PATH,
        ]
    )
    # Spectral prints `[]` when it finds nothing.
    assert result.stdout.strip(), result.stderr
    found = json.loads(result.stdout)
    problems = [
        f"{item['code']}: {item['message'][:200]} at {'.'.join(map(str, item['path']))}"
        for item in found
    ]
    assert not problems, "\n".join(problems)
    assert result.returncode == 0, result.stderr
