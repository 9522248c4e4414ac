"""The slow suites: what `scripts/test` leaves out, and the time each may take.

`scripts/test` runs the fast suite: everything but the suites below (ruff,
mypy and pytest `-m "not (...)"`). `scripts/test --all` runs them too, as CI
does (.ci/run), and fails rather than skips when Chromium is missing.

A test belongs to a suite by where it is (`places`), by its own mark
(`@pytest.mark.slow`), or, for `browser`, because it launches Chromium
(tests/chromium.py). Each suite has a time budget: the sum of its tests'
durations (setup, call, teardown) on this kind of machine (2 cores, shared),
with room. Every run that includes a suite reports its time against the
budget at the end; under `CI` a suite that takes more than `OVER_BUDGET`
times its budget fails the run, so a suite that grows is noticed long before
CI's 90 minutes are.

`python -m tests.suites` prints what `scripts/test` says when it starts;
`python -m tests.suites --expression` the marker expression of the fast
suite; `python -m tests.suites --all` what `scripts/test --all` says.
docs/testing.md has the same table (a test holds it to this module).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Suite:
    marker: str
    what: str
    """What it holds, for the marker's description and the tables."""
    budget_seconds: int
    """The most its tests may take together on a 2-core machine (with room)."""
    places: tuple[str, ...] = ()
    """Folders, files and single tests (`file::test`), from the repository's root,
    whose tests all belong to it."""

    def holds(self, nodeid: str) -> bool:
        """Whether the test of this pytest node id (from the root) is in one of its places."""
        return any(
            nodeid == place or nodeid.startswith((f"{place}/", f"{place}::", f"{place}["))
            for place in self.places
        )


SUITES = (
    Suite(
        "fuzz",
        "fuzzing the HTTP API from its OpenAPI document (schemathesis) and random "
        "games played through every variant and every way of leaving",
        240,
        (
            "tests/contract/test_schemathesis.py",
            "tests/game/test_leaving_fuzz.py",
            "tests/game/test_variant_fuzz.py",
            "tests/domain/test_boathouse.py::test_random_boathouse_play_keeps_every_rule_and_replays_to_the_same_table",
            "tests/domain/test_wrotham.py::test_random_play_of_the_concealed_deals_keeps_every_rule_to_the_end_of_the_game",
            "tests/bots/test_variant_games.py",
            "tests/bots/test_strength.py",
            "tests/bots/test_rummy500_bots.py::test_basic_beats_random_in_at_least_90_percent_of_games",
            "tests/audit_stream/test_independent_gin_500.py",
        ),
    ),
    Suite(
        "processes",
        "`rummy serve` processes started, signalled and killed: the entry command "
        "and its workers, webhook deliveries across a kill and between replicas, "
        "the shipped nginx in front",
        240,
        (
            "tests/deploy/test_entrypoint.py",
            "tests/deploy/test_forwarded.py",
            "tests/webhooks/test_delivery.py",
            "tests/webhooks/test_docs_receiver.py",
        ),
    ),
    Suite(
        "scale",
        "replicas of `rummy serve` on one PostgreSQL, one killed mid-game; the "
        "clocks, matchmaking and the store's start across processes",
        240,
        ("tests/scale",),
    ),
    Suite(
        "faults",
        "the database broken on purpose (a proxy that drops, freezes and cuts "
        "connections; a full disk)",
        120,
        ("tests/faults",),
    ),
    Suite(
        "browser",
        "headless Chromium: the web client played against a live server, "
        "EventSource, the docs page",
        240,
        ("tests/webclient",),
    ),
    Suite(
        "clients",
        "generated Python and TypeScript clients play whole games; Redocly and "
        "Spectral lint the contract (Node.js and the npm tools of tests/clients)",
        150,
        ("tests/clients",),
    ),
    Suite(
        "image",
        "the container image built from the Dockerfile (scripts/image: root, "
        "buildah) and played against",
        300,
        ("tests/deploy/test_image.py",),
    ),
    Suite(
        "properties",
        "property and oracle tests over thousands of random hands, moves and games: "
        "the engines' legal moves and groupings, the shuffle's statistics, the schema "
        "of the rules, what a response may show, replay at every version",
        240,
        (
            "tests/contract/test_rules_schema.py::test_the_schema_allows_exactly_the_rules_the_service_accepts",
            "tests/domain/test_shuffle_statistics.py",
            "tests/domain/test_wild_play_properties.py",
            "tests/domain/test_play_properties.py",
            "tests/domain/test_indian_properties.py",
            "tests/domain/test_indian_groupings.py::test_best_grouping_counts_what_the_oracle_counts_on_random_hands",
            "tests/domain/test_indian_groupings.py::test_best_declaration_finds_the_best_finish_card_as_the_oracle_does",
            "tests/domain/test_wilds.py::test_the_readings_of_a_meld_are_exactly_the_oracles",
            "tests/domain/test_wilds.py::test_without_as_the_server_reads_as_the_oracle_chooses",
            "tests/domain/test_wilds.py::test_an_explicit_as_is_accepted_exactly_when_it_is_a_valid_reading",
            "tests/domain/test_gin_play.py::test_legal_is_exactly_what_is_accepted",
            "tests/domain/test_indian_groups.py::test_shown_hands_are_judged_as_the_losers_rule_says",
            "tests/api/test_redaction.py::test_no_response_shows_a_player_more_than_a_player_may_know",
            "tests/game/test_replay.py::test_replay_at_every_version_equals_live_play_in_memory",
            "tests/bots/test_legal.py::test_bots_only_ever_make_moves_their_view_offers",
        ),
    ),
    Suite(
        "slow",
        "the README's commands installed for real from nothing but python3",
        240,
    ),
)
BROWSER_NAMES = frozenset({"chromium", "offline_page", "offline_pages"})
"""Names of tests/chromium.py: a test that uses one launches Chromium."""
OVER_BUDGET = 2.0
"""How far over its budget a suite may go under CI before the run fails: load
on a shared machine, not a regression, stays inside it."""
FAST_MINUTES = 6
"""What the fast suite takes here on two free cores, at most (ruff and mypy
included; pytest-xdist; 8 with another job on one core; measured: docs/testing.md)."""
ALL_MINUTES = 30
"""What `--all` takes here, about (measured: docs/testing.md)."""


def by_marker() -> dict[str, Suite]:
    return {suite.marker: suite for suite in SUITES}


def fast_expression() -> str:
    """The pytest `-m` expression of the fast suite."""
    return "not (" + " or ".join(suite.marker for suite in SUITES) + ")"


def _left_out() -> str:
    width = max(len(suite.marker) for suite in SUITES)
    return "\n".join(
        f"  {suite.marker:<{width}} (budget {suite.budget_seconds} s): {suite.what}"
        for suite in SUITES
    )


def banner(run_all: bool) -> str:
    """What `scripts/test` says when it starts."""
    if run_all:
        return (
            f"scripts/test --all: ruff, mypy and every test, the slow suites too "
            f"(about {ALL_MINUTES} min on 2 cores); a missing Chromium fails instead of "
            f"skipping (RUMMY_REQUIRE_CHROMIUM=1). Slow suites, each with its budget:\n"
            f"{_left_out()}"
        )
    return (
        f"scripts/test: ruff, mypy and the fast suite (under {FAST_MINUTES} min on 2 free cores; "
        f"PostgreSQL's tests included when it answers). Left out, run by "
        f"`scripts/test --all` (about {ALL_MINUTES} min, as CI does) or one by one with "
        f"`scripts/test -m MARKER`:\n{_left_out()}"
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["--expression"]:
        print(fast_expression())
    else:
        print(banner(run_all=sys.argv[1:] == ["--all"]))
