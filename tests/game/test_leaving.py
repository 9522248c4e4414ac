"""Leaving and the turn clock through the application, on every store: a timeout is
recorded with the bot's move in one save, only when due and only at the version it
was computed at; it fires once however often (or however many replicas) fire it;
the deadline survives a restart; a leave answers like an action."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.actions import Discard, Draw
from service.domain.errors import SeatLeft
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, Phase, Source, Status
from service.game.application import RummyApplication
from service.game.clock import turn_deadline
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.errors import VersionConflict
from tests.game.stores import StoreUnderTest
from tests.set_time import SetTime

CLOCKED = RuleSet.from_dict({"turn_seconds": 30, "timeouts_before_takeover": 2})


def new_game(
    games: RummyApplication, rules: RuleSet = CLOCKED, players: int = 2, seed: str = "leaving"
) -> UUID:
    seats = [NewSeat(f"P{seat}") for seat in range(players)]
    return games.create_game(NewGame(seats=seats, rules=rules, seed=seed)).game_id


def due(games: RummyApplication, time: SetTime, game_id: UUID) -> int:
    """Set the clock just past the deadline; the version it was computed at."""
    state = games.state(game_id)
    assert state.turn_deadline is not None
    time.now = state.turn_deadline + timedelta(seconds=1)
    return state.version


def test_the_deadline_is_the_turn_s_start_plus_turn_seconds(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games)
    stored = games.events_after(game_id)
    dealt = stored[-1]
    assert dealt.event_type == "hand_dealt"
    assert games.state(game_id).turn_deadline == dealt.timestamp + timedelta(seconds=30)


def test_the_application_names_the_deadline_to_arm(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games)
    state = games.state(game_id)
    deadline = games.deadline(game_id)
    assert deadline is not None
    assert state.table.hand is not None
    assert (deadline.game_id, deadline.version, deadline.seat, deadline.at) == (
        game_id,
        state.version,
        state.table.hand.turn,
        state.turn_deadline,
    )
    assert games.deadline(new_game(games, RuleSet())) is None


def test_no_clock_no_deadline_and_no_timeout(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games, RuleSet())
    state = games.state(game_id)
    assert state.turn_deadline is None
    time.now = datetime(2100, 1, 1, tzinfo=UTC)
    assert not games.time_out(game_id, state.version)
    assert games.state(game_id).version == state.version


def test_a_timeout_before_the_deadline_records_nothing(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    version = due(games, time, game_id)
    time.now -= timedelta(seconds=2)
    assert not games.time_out(game_id, version)
    assert games.state(game_id).version == version


def test_a_due_timeout_records_it_and_the_seat_s_whole_turn_in_one_save(
    store: StoreUnderTest,
) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    before = games.state(game_id)
    assert before.table.hand is not None
    seat = before.table.hand.turn
    version = due(games, time, game_id)
    assert games.time_out(game_id, version)
    made = games.events_after(game_id, version)
    assert [event.event_type for event in made][:2] == ["turn_timed_out", "card_drawn"]
    assert made[0].data() == {"player": seat, "timeouts": 1}
    assert made[-1].event_type == "card_discarded"
    assert {event.seat for event in made[1:]} == {seat}
    assert len({event.command_id for event in made}) == 1, "one save"
    after = games.state(game_id)
    assert after.table.hand is not None
    assert after.table.hand.turn != seat, "the turn passed on"
    assert after.turn_deadline is not None
    assert after.turn_deadline == made[-1].timestamp + timedelta(seconds=30)


def test_a_timeout_at_a_version_the_game_has_left_records_nothing(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    version = due(games, time, game_id)
    state = games.state(game_id)
    assert state.table.hand is not None
    games.play(game_id, state.table.hand.turn, [Draw(Source.STOCK)])
    assert not games.time_out(game_id, version)
    assert not games.time_out(game_id, version + 5), "nor at one it never reached"


def test_a_timeout_fired_twice_is_recorded_once(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    version = due(games, time, game_id)
    assert games.time_out(game_id, version)
    after = games.state(game_id).version
    assert not games.time_out(game_id, version)
    assert games.state(game_id).version == after


def test_two_replicas_firing_at_once_record_one_timeout(store: StoreUnderTest) -> None:
    if not store.shared:
        pytest.skip("the in-memory store belongs to one application")
    time = SetTime()
    replicas = [store.games(time), store.games(time)]
    game_id = new_game(replicas[0])
    version = due(replicas[0], time, game_id)
    for games in replicas:
        games.state(game_id)  # each caches the game at that version
    barrier = threading.Barrier(len(replicas))
    fired: list[bool] = []

    def fire(games: RummyApplication) -> None:
        barrier.wait()
        fired.append(games.time_out(game_id, version))

    threads = [threading.Thread(target=fire, args=(games,)) for games in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(fired) == [False, True]
    kinds = [event.event_type for event in replicas[0].events_after(game_id, version)]
    assert kinds.count("turn_timed_out") == 1


def test_the_deadline_survives_a_restart(store: StoreUnderTest) -> None:
    if not store.shared:
        pytest.skip("the in-memory store belongs to one application")
    games = store.games(SetTime())
    game_id = new_game(games)
    before = games.state(game_id)
    restarted = store.games(SetTime())
    assert restarted.state(game_id).turn_deadline == before.turn_deadline
    loaded = restarted._load(game_id)
    deadline = turn_deadline(loaded)
    assert deadline is not None
    assert (deadline.game_id, deadline.version, deadline.at) == (
        game_id,
        before.version,
        before.turn_deadline,
    )


def test_the_takeover_hands_the_seat_to_the_bot_which_plays_on(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games, players=3)
    state = games.state(game_id)
    assert state.table.hand is not None
    seat = state.table.hand.turn
    for _ in range(2):
        while (hand := games.state(game_id).table.hand) is not None and hand.turn != seat:
            games.play(game_id, hand.turn, [Draw(Source.STOCK)])
            hand = games.state(game_id).table.hand
            assert hand is not None
            games.play(game_id, hand.turn, [Discard(hand.hands[hand.turn][-1])])
        assert games.time_out(game_id, due(games, time, game_id))
    after = games.state(game_id)
    assert after.table.left[seat]
    assert after.seats[seat] is not None
    assert after.seats[seat].bot == "basic"  # type: ignore[union-attr]
    reasons = [
        event.data() for event in games.events_after(game_id) if event.event_type == "player_left"
    ]
    assert reasons == [{"player": seat, "reason": "timed_out", "replaced": True}]
    assert after.table.hand is None or after.table.hand.turn != seat, "the bot moved at once"


def test_indian_a_silent_show_is_submitted_for_every_seat_still_to_show(
    store: StoreUnderTest,
) -> None:
    time = SetTime()
    games = store.games(time)
    rules = RuleSet.from_dict(
        {"variant": "indian", "turn_seconds": 60, "timeouts_before_takeover": 100}, players=3
    )
    game_id = new_game(games, rules, players=3)
    # Every turn timed out until the clock's bot declares for someone (it does when it can).
    for _ in range(400):
        state = games.state(game_id)
        hand = state.table.hand
        if hand is None or hand.phase is Phase.SHOW or state.table.status is not Status.PLAYING:
            break
        assert games.time_out(game_id, due(games, time, game_id))
    else:
        pytest.fail("nobody declared")
    state = games.state(game_id)
    hand = state.table.hand
    assert hand is not None
    assert hand.phase is Phase.SHOW
    assert hand.indian is not None
    silent = [
        seat for seat, status in enumerate(hand.indian.statuses) if status is DealStatus.TO_SUBMIT
    ]
    version = due(games, time, game_id)
    assert games.time_out(game_id, version)
    made = games.events_after(game_id, version)
    timed_out = [event.data()["player"] for event in made if event.event_type == "turn_timed_out"]
    submitted = [event.seat for event in made if event.event_type == "groups_submitted"]
    assert timed_out == silent
    assert submitted[: len(silent)] == silent


def test_a_leave_answers_like_an_action_and_a_seat_leaves_once(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games, players=3)
    key = Idempotency("leave-1", "digest")
    left = games.leave(game_id, 1, idempotency=key)
    assert left.seat == 1
    assert left.state.table.left[1]
    again = games.leave(game_id, 1, idempotency=key)
    assert again.state.version == left.state.version, "the same key answers as before"
    with pytest.raises(SeatLeft):
        games.leave(game_id, 1)
    state = games.state(game_id)
    assert state.table.hand is not None
    with pytest.raises(SeatLeft):
        games.play(game_id, 1, [Draw(Source.STOCK)])


def test_a_leave_honours_if_match(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games, players=3)
    version = games.state(game_id).version
    with pytest.raises(VersionConflict):
        games.leave(game_id, 0, expected_version=version - 1)
    assert games.leave(game_id, 0, expected_version=version).state.table.left[0]


def test_a_resignation_at_two_seats_ends_the_game(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games, RuleSet())
    left = games.leave(game_id, 0, resign=True)
    assert left.state.table.status is Status.FINISHED
    assert left.state.table.winner == 1


class Heard:
    """An observer of saves, as the live streams' channels are."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def saved(self, events: Sequence[Any]) -> None:
        self.events.extend(events)

    def write_conflict(self) -> None:
        pass


def test_the_streams_hear_a_timeout_as_it_is_recorded() -> None:
    time = SetTime()
    heard = Heard()
    games = open_games(Settings(store=Store.MEMORY), observers=(heard,), now=time)
    game_id = new_game(games)
    version = due(games, time, game_id)
    heard.events.clear()
    assert games.time_out(game_id, version)
    assert heard.events[0].event_type == "turn_timed_out"
    assert [event.originator_version for event in heard.events] == [
        event.originator_version for event in games.events_after(game_id, version)
    ]
