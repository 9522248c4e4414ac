"""The verifier replays leaving and the turn clock with the rules (docs/audit.md):
a forged timeout count, a takeover turned into a forfeit, a leave the rules do not
allow, or a timeout of a seat the game was not waiting for each fail at that event,
even with the chain rewritten; the genuine export verifies without any clock."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.rules import RuleSet
from service.game.commands import NewGame, NewSeat
from tests.audit_stream.games import export_of
from tests.audit_stream.test_tampering import failure, place_of, rechain
from tests.game.players import play_out
from tests.set_time import SetTime

Export = dict[str, Any]


@pytest.fixture(scope="module")
def original() -> Export:
    """Three seats: timeouts until the first takeover by the bot, then the others
    leave and the bots play the game out."""
    time = SetTime()
    games = open_games(Settings(store=Store.MEMORY), now=time)
    rules = RuleSet.from_dict({"turn_seconds": 30, "timeouts_before_takeover": 2, "deals": 1})
    seats = [NewSeat(f"P{seat}") for seat in range(3)]
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed="leaving")).game_id
    for _ in range(4):  # each seat times out once, then seat 0 a second time
        state = games.state(game_id)
        assert state.turn_deadline is not None
        time.now = state.turn_deadline + timedelta(seconds=1)
        assert games.time_out(game_id, state.version)
    people = [seat for seat in range(3) if not games.state(game_id).table.left[seat]]
    for seat in people:
        if games.state(game_id).table.finished:
            break
        games.leave(game_id, seat)
    play_out(games, game_id)  # the bots alone: the clocks' keeper's part
    assert games.state(game_id).table.finished
    export = export_of(games, game_id)
    assert verify_export(export).outcome is Outcome.VERIFIED, verify_export(export).report()
    return export


@pytest.fixture
def export(original: Export) -> Export:
    return copy.deepcopy(original)


def test_a_forged_timeout_count_fails_there(export: Export) -> None:
    index = place_of(export, "turn_timed_out")
    export["events"][index]["data"]["timeouts"] = 2
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "turn_timed_out")


def test_a_takeover_turned_into_a_forfeit_fails_there(export: Export) -> None:
    index = place_of(export, "player_left", reason="timed_out")
    export["events"][index]["data"]["replaced"] = False
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "player_left")


def test_a_takeover_without_its_timeouts_fails(export: Export) -> None:
    index = place_of(export, "player_left", reason="timed_out")
    del export["events"][index - 1]  # the timeout that reached the limit
    found = failure(rechain(export))
    assert found.position is not None
    assert found.position <= index


def test_a_timeout_of_a_seat_the_game_was_not_waiting_for_fails_there(export: Export) -> None:
    index = place_of(export, "turn_timed_out")
    seat = export["events"][index]["data"]["player"]
    export["events"][index]["data"]["player"] = (seat + 1) % 3
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "turn_timed_out")
    assert "not waiting" in found.message or "does not wait" in found.message


def test_a_leave_recorded_as_a_takeover_fails_there(export: Export) -> None:
    index = place_of(export, "player_left", reason="left")
    export["events"][index]["data"]["reason"] = "timed_out"
    found = failure(rechain(export))
    assert (found.position, found.type) == (index + 1, "player_left")
