"""The verifier holds the time bank to the rules (docs/audit.md): a bank spent
beyond what is left, a refill (a spend of 0 or less), a spend by a seat the game
was not waiting for, or a timeout whose bank was not spent first each fail at that
event, even with the chain rewritten; the genuine export verifies without any
time source."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.actions import Discard, Draw
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.game.commands import NewGame, NewSeat
from tests.audit_stream.games import export_of
from tests.audit_stream.test_tampering import failure, place_of, rechain
from tests.game.players import play_out
from tests.set_time import SetTime

Export = dict[str, Any]
BANK = 20


@pytest.fixture(scope="module")
def original() -> Export:
    """Three seats, a 20 s bank each: seat by seat, a turn played 5 s into the bank,
    then a turn timed out (what is left spent first), until the takeovers; then the
    bots play the game out."""
    time = SetTime()
    games = open_games(Settings(store=Store.MEMORY), now=time)
    rules = RuleSet.from_dict(
        {"turn_seconds": 30, "time_bank_seconds": BANK, "timeouts_before_takeover": 1, "deals": 1}
    )
    seats = [NewSeat(f"P{seat}") for seat in range(3)]
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed="bank")).game_id
    for _ in range(3):  # each seat spends 5 s of its bank in a turn of its own
        state = games.state(game_id)
        hand = state.table.hand
        assert hand is not None
        assert state.turn_deadline is not None
        seat = hand.turn
        time.now = state.turn_deadline - timedelta(seconds=BANK - 4.5)
        games.play(game_id, seat, [Draw(Source.STOCK)])
        hand = games.state(game_id).table.hand
        assert hand is not None
        games.play(game_id, seat, [Discard(hand.hands[seat][-1])])
    for _ in range(3):  # then each times out: taken over by the bot at once
        state = games.state(game_id)
        if state.table.over or state.turn_deadline is None:
            break
        time.now = state.turn_deadline
        assert games.time_out(game_id, state.version)
    play_out(games, game_id)
    assert games.state(game_id).table.over
    export = export_of(games, game_id)
    verdict = verify_export(export)
    assert verdict.outcome is Outcome.VERIFIED, verdict.report()
    return export


@pytest.fixture
def export(original: Export) -> Export:
    return copy.deepcopy(original)


def test_the_genuine_export_spends_and_times_out_as_the_rules_say(original: Export) -> None:
    spent = [
        (event["data"]["player"], event["data"]["seconds"])
        for event in original["events"]
        if event["type"] == "time_bank_used"
    ]
    assert [seconds for _, seconds in spent[:3]] == [5, 5, 5]
    assert all(seconds == BANK - 5 for _, seconds in spent[3:])
    first_timeout = place_of(original, "turn_timed_out")
    assert original["events"][first_timeout - 1]["type"] == "time_bank_used"


def test_a_bank_overdrawn_fails_there(export: Export) -> None:
    index = place_of(export, "time_bank_used")
    export["events"][index]["data"]["seconds"] = BANK + 1
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "time_bank_used")
    assert "left" in found.message


@pytest.mark.parametrize("seconds", [0, -5])
def test_a_bank_refilled_fails_there(export: Export, seconds: int) -> None:
    index = place_of(export, "time_bank_used")
    export["events"][index]["data"]["seconds"] = seconds
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "time_bank_used")


def test_a_bank_spent_by_a_seat_the_game_was_not_waiting_for_fails_there(export: Export) -> None:
    index = place_of(export, "time_bank_used")
    seat = export["events"][index]["data"]["player"]
    export["events"][index]["data"]["player"] = (seat + 1) % 3
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "time_bank_used")


def test_a_timeout_before_the_bank_is_spent_fails_there(export: Export) -> None:
    index = place_of(export, "turn_timed_out")
    assert export["events"][index - 1]["type"] == "time_bank_used"
    del export["events"][index - 1]
    found = failure(rechain(export))
    assert (found.position, found.type) == (index, "turn_timed_out")
    assert "time bank left" in found.message


def test_a_bank_spend_that_is_not_a_whole_number_is_malformed_or_refused(export: Export) -> None:
    index = place_of(export, "time_bank_used")
    export["events"][index]["data"]["seconds"] = 4.5
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "time_bank_used")
