"""The rule `takeover_bot` through the application, on every store: the level it names
is the one asked for every decision of a seat its player left, of the rest of a
timed-out turn, and of a seat the clock took over; the replaced seat shows that level,
also when the game is rebuilt from the store; and a game stored without the rule
(before it existed, or at its default) plays on with `basic`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from uuid import UUID

import pytest

from service.bootstrap import open_games
from service.bots.seats import BotSeats, bot_to_move
from service.domain.actions import Action
from service.domain.rule_values import BotLevel
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.results import GameState
from service.projections.views import GameSnapshot
from tests.game.stored_events import V1, V2, load, read
from tests.game.stores import StoreUnderTest
from tests.set_time import SetTime

LEVELS = [level.value for level in BotLevel]


class AskedBots(BotSeats):
    """The service's computer players, noting the seat and the strategy each
    decision is asked of."""

    def __init__(self) -> None:
        super().__init__(processes=0)
        self.asked: list[tuple[int, str]] = []

    def next_move(self, game: GameSnapshot, seed: str) -> tuple[int, Sequence[Action]] | None:
        found = bot_to_move(game)
        if found is not None:
            self.asked.append(found)
        return super().next_move(game, seed)

    def move_for(self, game: GameSnapshot, seat: int, strategy: str, seed: str) -> Sequence[Action]:
        self.asked.append((seat, strategy))
        return super().move_for(game, seat, strategy, seed)

    def strategies_of(self, seat: int) -> set[str]:
        return {name for asked_seat, name in self.asked if asked_seat == seat}


def opened(store: StoreUnderTest, bots: AskedBots, time: SetTime) -> RummyApplication:
    games = open_games(store.settings, bots=bots, now=time)
    store.all_games.append(games)
    return games


def people(games: RummyApplication, rules: RuleSet, players: int = 3) -> UUID:
    seats = [NewSeat(f"P{seat}") for seat in range(players)]
    return games.create_game(NewGame(seats=seats, rules=rules, seed="takeover")).game_id


def bot_of(state: GameState, seat: int) -> str | None:
    """The bot that plays `seat` (None: a person)."""
    entry = state.seats[seat]
    assert entry is not None, "a taken seat"
    return entry.bot


def seat_to_act(games: RummyApplication, game_id: UUID) -> int:
    hand = games.state(game_id).table.hand
    assert hand is not None
    return hand.turn


@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_its_player_left_is_played_by_the_takeover_bot_level(
    store: StoreUnderTest, level: str
) -> None:
    bots = AskedBots()
    games = opened(store, bots, SetTime())
    game_id = people(games, RuleSet.from_dict({"takeover_bot": level}))
    seat = seat_to_act(games, game_id)
    left = games.leave(game_id, seat)
    # Two people are still at the table: the bot took the turn at once, in the leave.
    assert bots.strategies_of(seat) == {level}
    assert left.state.table.hand is None or left.state.table.hand.turn != seat
    assert bot_of(left.state, seat) == level
    # Rebuilt from the stored events (the rule is read from the stored rules).
    assert bot_of(games.state(game_id, version=left.state.version), seat) == level


@pytest.mark.parametrize("level", ["random", "expert"])
def test_the_rest_of_a_timed_out_turn_is_played_by_the_takeover_bot_level(
    store: StoreUnderTest, level: str
) -> None:
    time = SetTime()
    bots = AskedBots()
    games = opened(store, bots, time)
    rules = RuleSet.from_dict({"turn_seconds": 30, "takeover_bot": level})
    game_id = people(games, rules, players=2)
    seat = seat_to_act(games, game_id)
    state = games.state(game_id)
    assert state.turn_deadline is not None
    time.now = state.turn_deadline + timedelta(seconds=1)
    assert games.time_out(game_id, state.version)
    assert bots.strategies_of(seat) == {level}
    after = games.state(game_id)
    assert not after.table.left[seat], "one timeout of three: still the person's seat"
    assert bot_of(after, seat) is None
    assert seat_to_act(games, game_id) != seat, "the bot ended the turn"


def test_a_seat_the_clock_takes_over_goes_to_the_takeover_bot_level(store: StoreUnderTest) -> None:
    time = SetTime()
    bots = AskedBots()
    games = opened(store, bots, time)
    rules = RuleSet.from_dict(
        {"turn_seconds": 30, "timeouts_before_takeover": 1, "takeover_bot": "strong"}
    )
    game_id = people(games, rules)
    seat = seat_to_act(games, game_id)
    state = games.state(game_id)
    assert state.turn_deadline is not None
    time.now = state.turn_deadline + timedelta(seconds=1)
    assert games.time_out(game_id, state.version)
    after = games.state(game_id)
    assert after.table.left[seat]
    assert bot_of(after, seat) == "strong"
    assert bots.strategies_of(seat) == {"strong"}


def test_a_game_at_the_default_stores_its_rules_as_before_and_plays_on_with_basic(
    store: StoreUnderTest,
) -> None:
    bots = AskedBots()
    games = opened(store, bots, SetTime())
    game_id = people(games, RuleSet.from_dict({}))
    created = games.events_after(game_id)[0]
    assert created.event_type == "game_created"
    assert "takeover_bot" not in created.data()["rules"], "stored as games made before the rule"
    seat = seat_to_act(games, game_id)
    left = games.leave(game_id, seat)
    assert bot_of(games.state(game_id, version=left.state.version), seat) == "basic"
    assert bots.strategies_of(seat) == {"basic"}


@pytest.mark.parametrize("path", [V1, V2], ids=["v1", "v2"])
def test_a_game_stored_before_the_rule_reads_it_as_basic(
    store: StoreUnderTest, path: object
) -> None:
    games = opened(store, AskedBots(), SetTime())
    fixture = read(path)  # type: ignore[arg-type]
    assert "takeover_bot" not in fixture["events"][0]["state"]["rules"]
    game_id = load(games, fixture)
    state = games.state(game_id)
    assert state.table.rules.takeover_bot is BotLevel.BASIC
    assert state.table.rules.to_dict() == fixture["events"][0]["state"]["rules"]
