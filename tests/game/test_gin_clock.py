"""Gin's upcard offer and the turn clock: each seat offered the upcard has its own
clock (a pass starts the next seat's), and a seat that times out in the offer has
the server's bot take or pass for it."""

from __future__ import annotations

from datetime import timedelta

from service.domain.actions import Pass
from service.domain.rules import RuleSet
from service.domain.state import Phase
from service.game.commands import NewGame, NewSeat
from tests.game.stores import StoreUnderTest
from tests.set_time import SetTime

CLOCKED_GIN = RuleSet.from_dict({"variant": "gin", "turn_seconds": 30}, players=2)


def test_a_pass_starts_the_dealer_s_clock(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = games.create_game(
        NewGame(seats=[NewSeat("P0"), NewSeat("P1")], rules=CLOCKED_GIN, seed="gin-clock")
    ).game_id
    state = games.state(game_id)
    hand = state.table.hand
    assert hand is not None
    assert hand.phase is Phase.UPCARD_OFFER
    offered = hand.turn
    time.now += timedelta(seconds=20)
    games.play(game_id, offered, [Pass()])
    passed = games.events_after(game_id)[-1]
    assert passed.event_type == "upcard_passed"
    after = games.state(game_id)
    assert after.table.hand is not None
    assert after.table.hand.turn == 1 - offered
    assert after.turn_deadline == passed.timestamp + timedelta(seconds=30)


def test_a_timeout_in_the_offer_is_played_by_the_bot(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = games.create_game(
        NewGame(seats=[NewSeat("P0"), NewSeat("P1")], rules=CLOCKED_GIN, seed="gin-clock")
    ).game_id
    state = games.state(game_id)
    assert state.turn_deadline is not None
    assert state.table.hand is not None
    offered = state.table.hand.turn
    time.now = state.turn_deadline + timedelta(seconds=1)
    assert games.time_out(game_id, state.version)
    made = games.events_after(game_id, state.version)
    assert made[0].event_type == "turn_timed_out"
    assert made[1].event_type in ("upcard_passed", "card_drawn")
    assert made[1].seat == offered
    after = games.state(game_id)
    assert after.table.hand is not None
    assert after.table.hand.turn == 1 - offered or after.table.hand.phase is Phase.DRAW
