"""The slow suites of tests/suites.py are what docs/testing.md and scripts/test
say, and each names files that exist."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

from tests import conftest
from tests.suites import OVER_BUDGET, ROOT, SUITES, banner, by_marker, fast_expression

TABLE_START = "<!-- suites: the table below is tests/suites.py's SUITES"


def test_docs_testing_lists_every_suite_with_its_budget() -> None:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    table = text.split(TABLE_START, 1)[1].split("\n\n", 1)[0].splitlines()[3:]
    assert table == [
        f"| `{suite.marker}` | {suite.what} | {suite.budget_seconds} s |" for suite in SUITES
    ]


def test_every_place_a_suite_names_exists() -> None:
    missing = [
        place
        for suite in SUITES
        for place in suite.places
        if not (ROOT / place.split("::")[0]).exists()
        or (
            "::" in place
            and f"def {place.split('::')[1]}("
            not in (ROOT / place.split("::")[0]).read_text(encoding="utf-8")
        )
    ]
    assert not missing


def test_the_fast_suite_leaves_out_every_slow_suite_and_says_so() -> None:
    said = subprocess.run(
        [sys.executable, "-m", "tests.suites"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert said.strip() == banner(run_all=False)
    left_out = fast_expression().removeprefix("not (").removesuffix(")").split(" or ")
    assert left_out == [suite.marker for suite in SUITES]
    for suite in SUITES:
        assert f"  {suite.marker} " in said
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert 'pytest -m "$(run python -m tests.suites --expression)"' in script
    assert "export RUMMY_REQUIRE_CHROMIUM=1" in script


def test_a_suite_over_twice_its_budget_fails_a_ci_run_and_only_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budget = by_marker()["faults"].budget_seconds
    session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)
    monkeypatch.setenv("CI", "1")
    monkeypatch.setattr(conftest, "_suite_seconds", {"faults": OVER_BUDGET * budget})
    assert conftest._over_budget() == []
    conftest.pytest_sessionfinish(session)  # type: ignore[arg-type]
    assert session.exitstatus == pytest.ExitCode.OK
    monkeypatch.setattr(conftest, "_suite_seconds", {"faults": OVER_BUDGET * budget + 1})
    assert len(conftest._over_budget()) == 1
    conftest.pytest_sessionfinish(session)  # type: ignore[arg-type]
    assert session.exitstatus == pytest.ExitCode.TESTS_FAILED
    monkeypatch.delenv("CI")
    session.exitstatus = pytest.ExitCode.OK
    conftest.pytest_sessionfinish(session)  # type: ignore[arg-type]
    assert session.exitstatus == pytest.ExitCode.OK, "outside CI a warning only"
