"""The slow suites of tests/suites.py are what docs/testing.md and scripts/test
say, and each names files that exist."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from types import SimpleNamespace

import pytest

from tests import conftest
from tests.suites import (
    ALL_MINUTES,
    FAST_MINUTES,
    OVER_BUDGET,
    ROOT,
    SUITES,
    banner,
    by_marker,
    fast_expression,
)

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
    assert "set -- -n auto" in script, "without arguments, on every core (pytest-xdist)"
    addopts = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("\naddopts = ")[1]
    assert "--dist loadgroup" in addopts.splitlines()[0], "xdist_group marks are kept"


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


def test_a_suite_is_timed_from_its_reports_as_they_reach_the_xdist_controller(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under pytest-xdist the controller has no items, only the workers' reports,
    serialized and rebuilt by these hooks: a report must name its suites itself."""
    item = SimpleNamespace(iter_markers=lambda: iter([pytest.mark.faults.mark]))
    wrapper = conftest.pytest_runtest_makereport(item)  # type: ignore[arg-type]
    next(wrapper)
    made = pytest.TestReport("tests/faults/t.py::t", ("t", 0, "t"), {}, "passed", None, "call")
    made.duration = 3.0
    with pytest.raises(StopIteration) as finished:
        wrapper.send(made)
    data = pytestconfig.hook.pytest_report_to_serializable(
        config=pytestconfig, report=finished.value.value
    )
    arrived = pytestconfig.hook.pytest_report_from_serializable(config=pytestconfig, data=data)
    monkeypatch.setattr(conftest, "_suite_seconds", defaultdict(float))
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    conftest.pytest_runtest_logreport(arrived)
    assert conftest._suite_seconds == {}, "a worker leaves the count to its controller"
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    conftest.pytest_runtest_logreport(arrived)
    assert conftest._suite_seconds == {"faults": 3.0}


def test_the_readme_gives_the_measured_times_of_tests_suites() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"scripts/test          # the fast suite: under {FAST_MINUTES} minutes" in readme
    assert (
        f"scripts/test --all    # every suite, as CI runs it: about {ALL_MINUTES} minutes" in readme
    )


def test_pytest_xdist_can_group_tests_on_this_pytest(request: pytest.FixtureRequest) -> None:
    """`--dist loadgroup` tags each grouped test's node id with its group (`@postgres`);
    pytest 9.2 ignores the tag, so every group would be split up without a word
    (pytest-xdist issue 1386): pyproject.toml keeps pytest below 9.2 until it is fixed."""
    node = request.node
    before = node.nodeid
    try:
        node._nodeid = f"{before}@probe"  # what pytest-xdist's worker does
        assert node.nodeid == f"{before}@probe"
    finally:
        node._nodeid = before
