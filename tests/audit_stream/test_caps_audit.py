"""A game aborted at a cap (`game_aborted`, `by: "cap"`) in the audit export and
`rummy verify`: the export reveals the seed as a finished game's does, the referee
finds the abort where the rules put it, and a forged abort (too early, a changed
reason, a raised cap, an abort removed) is named at its event."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.domain.state import Status
from tests.audit_stream.games import export_of, new_game, play
from tests.audit_stream.test_tampering import failure, place_of, rechain
from tests.fairness_oracle import reseal

Export = dict[str, Any]

MAX_HANDS = RuleSet.from_dict({"deals": 3, "max_hands": 1}, players=2)
"""Three deals, but one hand dealt at most: the game is aborted after hand 1."""
MAX_EVENTS = RuleSet.from_dict({"deals": 2, "max_events": 100}, players=2)
"""A game that runs its stock out (no melds before hand 2) holds 100 events soon."""


def _aborted(rules: RuleSet, meld_from_hand: int = 1) -> Export:
    games = open_games(Settings(store=Store.MEMORY))
    game_id, _ = new_game(games, rules=rules)
    play(games, game_id, meld_from_hand=meld_from_hand)
    assert games.state(game_id).table.status is Status.ABORTED
    return export_of(games, game_id)


@pytest.fixture(scope="module")
def by_hands() -> Export:
    return _aborted(MAX_HANDS)


@pytest.fixture(scope="module")
def by_events() -> Export:
    return _aborted(MAX_EVENTS, meld_from_hand=2)


def test_an_aborted_game_s_export_verifies_with_its_seed(
    by_hands: Export, by_events: Export
) -> None:
    for export, cap in ((by_hands, "max_hands"), (by_events, "max_events")):
        last = export["events"][-1]
        assert (last["type"], last["data"]["by"]) == ("game_aborted", "cap")
        assert last["data"]["reason"].startswith(cap)
        assert "seat" not in last
        assert (export["status"], export["winner"]) == ("aborted", None)
        assert isinstance(export["seed"], str), "revealed, as for a finished game"

        verdict = verify_export(export)

        assert verdict.outcome is Outcome.VERIFIED, verdict.report()
        assert "no winner" in verdict.report()


def test_an_abort_before_the_cap_is_named(by_hands: Export) -> None:
    export = copy.deepcopy(by_hands)
    aborted = export["events"][-1]
    early = place_of(export, "card_discarded")  # hand 1 is still in play there
    export["events"][early + 1 :] = [aborted]
    rechain(export)

    found = failure(export)

    assert found.position == early + 2
    assert "game_aborted cannot happen here" in found.message
    assert "no cap" in found.message


def test_an_abort_with_another_reason_is_named(by_events: Export) -> None:
    export = copy.deepcopy(by_events)
    export["events"][-1]["data"]["reason"] = "max_hands: so it was said."
    rechain(export)

    found = failure(export)

    assert found.position == len(export["events"])
    assert "aborted with reason" in found.message


def test_a_log_whose_cap_was_raised_deals_from_another_chain(by_hands: Export) -> None:
    # `max_hands` is the length of the hand-seed chain (docs/fairness.md "A seed per
    # hand"), so a raised cap, digest and commitment resealed, changes every deal
    # (and the first dealer, drawn from hand 1's seed).
    export = copy.deepcopy(by_hands)
    export["events"][0]["data"]["rules"]["max_hands"] = 2
    rechain(reseal(export))

    found = failure(export)

    assert (found.position, found.type) == (2, "hand_dealt")
    assert "the dealer should be" in found.message or "hand 1's deck is not" in found.message


def test_a_log_cut_before_its_abort_is_named(by_events: Export) -> None:
    export = copy.deepcopy(by_events)
    del export["events"][-1]
    rechain(export)

    found = failure(export)

    assert "game_aborted" in found.message


def test_a_game_stored_with_more_than_today_s_caps_plays_and_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The defect's rules, stored before the caps: they load and play as made.
    huge = RuleSet.from_dict({"target": 100_000, "max_turns": 5_000})
    assert (huge.max_hands, huge.max_events) == (None, None)
    games = open_games(Settings(store=Store.MEMORY))
    with monkeypatch.context() as patched:
        patched.setattr(RuleSet, "check_caps", lambda self: None)
        game_id, _ = new_game(games, rules=huge)
    play(games, game_id, moves=60)
    cached = games.state(game_id).table
    assert cached.status is Status.PLAYING
    assert cached.rules.target == 100_000
    export = export_of(games, game_id)

    assert verify_export(export).outcome is Outcome.UNFINISHED
