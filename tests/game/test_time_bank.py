"""The time bank (docs/rules.md `time_bank_seconds`) through the application, with a
time the test sets, on every store: the deadline is the turn's clock and then the
seat's bank; a seat that acts past its turn's clock spends what it used beyond it
(whole seconds, a part counted whole), in the save of its move; a timeout fires only
once the bank is spent too, and spends what is left first; the bank is never
refilled; views show it; a game rebuilt from the store has the same banks and
deadlines as the live one."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

import pytest

from service.domain.actions import Discard, Draw
from service.domain.errors import IllegalMove
from service.domain.rules import RuleSet
from service.domain.state import DealStatus, Phase, Source, Status
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.projections.views import PUBLIC, game_view
from tests.game.stores import StoreUnderTest
from tests.set_time import SetTime

TURN = 30
BANK = 60
BANKED = RuleSet.from_dict({"turn_seconds": TURN, "time_bank_seconds": BANK})


def new_game(games: RummyApplication, rules: RuleSet = BANKED, players: int = 2) -> UUID:
    seats = [NewSeat(f"P{seat}") for seat in range(players)]
    return games.create_game(NewGame(seats=seats, rules=rules, seed="bank")).game_id


def turn_started(games: RummyApplication, game_id: UUID) -> datetime:
    """The stored time of the event that began the turn in play (the latest one, here)."""
    return games.events_after(game_id)[-1].timestamp


def seat_to_act(games: RummyApplication, game_id: UUID) -> int:
    hand = games.state(game_id).table.hand
    assert hand is not None
    return hand.turn


def kinds_after(games: RummyApplication, game_id: UUID, version: int) -> list[str]:
    return [event.event_type for event in games.events_after(game_id, version)]


def test_the_deadline_is_the_turn_s_clock_then_the_seat_s_bank(store: StoreUnderTest) -> None:
    games = store.games(SetTime())
    game_id = new_game(games)
    state = games.state(game_id)
    assert state.turn_deadline == turn_started(games, game_id) + timedelta(seconds=TURN + BANK)
    players = game_view(state, PUBLIC).players
    assert [player.time_bank_left for player in players] == [BANK, BANK]


def test_a_move_within_the_turn_s_clock_spends_nothing(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    version = games.state(game_id).version
    time.now = turn_started(games, game_id) + timedelta(seconds=TURN - 1)
    games.play(game_id, seat_to_act(games, game_id), [Draw(Source.STOCK)])
    assert kinds_after(games, game_id, version) == ["card_drawn"]
    assert games.state(game_id).table.bank_left == [BANK, BANK]


def test_a_move_past_the_turn_s_clock_spends_the_bank_in_whole_seconds_never_refilled(
    store: StoreUnderTest,
) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    seat = seat_to_act(games, game_id)
    started = turn_started(games, game_id)
    version = games.state(game_id).version
    time.now = started + timedelta(seconds=TURN + 10.2)
    games.play(game_id, seat, [Draw(Source.STOCK)])
    made = games.events_after(game_id, version)
    assert [event.event_type for event in made] == ["time_bank_used", "card_drawn"]
    assert made[0].data() == {"player": seat, "seconds": 11}, "a part of a second counts whole"
    assert made[0].seat is None, "the system's event, naming the seat"
    # The second request of the turn spends only what it used beyond the first.
    time.now = started + timedelta(seconds=TURN + 15.5)
    version = games.state(game_id).version
    hand = games.state(game_id).table.hand
    assert hand is not None
    games.play(game_id, seat, [Discard(hand.hands[seat][-1])])
    made = games.events_after(game_id, version)
    assert [event.event_type for event in made] == ["time_bank_used", "card_discarded"]
    assert made[0].data() == {"player": seat, "seconds": 5}
    state = games.state(game_id)
    assert state.table.bank_left[seat] == BANK - 16
    assert game_view(state, PUBLIC).players[seat].time_bank_left == BANK - 16
    # The other seat's turn: its bank is whole; then the first seat's next turn has
    # what is left of its own, no more.
    other = 1 - seat
    assert state.turn_deadline == turn_started(games, game_id) + timedelta(seconds=TURN + BANK)
    time.now = turn_started(games, game_id) + timedelta(seconds=1)
    games.play(game_id, other, [Draw(Source.STOCK)])
    hand = games.state(game_id).table.hand
    assert hand is not None
    games.play(game_id, other, [Discard(hand.hands[other][-1])])
    state = games.state(game_id)
    assert state.turn_deadline == turn_started(games, game_id) + timedelta(seconds=TURN + BANK - 16)


def test_a_refused_move_spends_nothing(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    seat = seat_to_act(games, game_id)
    version = games.state(game_id).version
    time.now = turn_started(games, game_id) + timedelta(seconds=TURN + 20)
    hand = games.state(game_id).table.hand
    assert hand is not None
    with pytest.raises(IllegalMove):
        games.play(game_id, seat, [Discard(hand.hands[seat][0])])  # no draw yet
    assert games.state(game_id).version == version
    assert games.state(game_id).table.bank_left == [BANK, BANK]


def test_a_timeout_fires_only_once_the_bank_is_spent_and_spends_what_is_left(
    store: StoreUnderTest,
) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games)
    seat = seat_to_act(games, game_id)
    started = turn_started(games, game_id)
    version = games.state(game_id).version
    time.now = started + timedelta(seconds=TURN + 1)
    assert not games.time_out(game_id, version), "the turn's clock ran out, not the bank"
    time.now = started + timedelta(seconds=TURN + 20)
    games.play(game_id, seat, [Draw(Source.STOCK)])  # spends 20
    version = games.state(game_id).version
    time.now = started + timedelta(seconds=TURN + BANK) - timedelta(milliseconds=1)
    assert not games.time_out(game_id, version)
    time.now = started + timedelta(seconds=TURN + BANK)
    assert games.time_out(game_id, version)
    made = games.events_after(game_id, version)
    assert [event.event_type for event in made][:2] == ["time_bank_used", "turn_timed_out"]
    assert made[0].data() == {"player": seat, "seconds": BANK - 20}
    state = games.state(game_id)
    assert state.table.bank_left[seat] == 0
    assert game_view(state, PUBLIC).players[seat].time_bank_left == 0
    # Its next turn has the turn's clock alone.
    other = 1 - seat
    time.now = turn_started(games, game_id)
    games.play(game_id, other, [Draw(Source.STOCK)])
    hand = games.state(game_id).table.hand
    assert hand is not None
    games.play(game_id, other, [Discard(hand.hands[other][-1])])
    state = games.state(game_id)
    assert state.turn_deadline == turn_started(games, game_id) + timedelta(seconds=TURN)
    version = state.version
    time.now = state.turn_deadline
    assert games.time_out(game_id, version)
    assert kinds_after(games, game_id, version)[0] == "turn_timed_out", "no bank left to spend"


def test_a_game_rebuilt_from_the_store_has_the_live_banks_and_deadline(
    store: StoreUnderTest,
) -> None:
    time = SetTime()
    games = store.games(time)
    game_id = new_game(games, players=3)
    for spent in (7, 13, 70):  # the third seat's bank runs out: it times out
        state = games.state(game_id)
        seat = seat_to_act(games, game_id)
        time.now = turn_started(games, game_id) + timedelta(seconds=TURN + spent)
        if spent > BANK:
            assert games.time_out(game_id, state.version)
            continue
        games.play(game_id, seat, [Draw(Source.STOCK)])
        hand = games.state(game_id).table.hand
        assert hand is not None
        games.play(game_id, seat, [Discard(hand.hands[seat][-1])])
    live = games.state(game_id)
    assert sorted(live.table.bank_left) == [0, BANK - 13, BANK - 7]
    rebuilt = games._load(game_id)
    assert rebuilt.table.bank_left == live.table.bank_left
    assert rebuilt.turn_banks == tuple(live.table.bank_left)
    assert games.state(game_id, live.version).turn_deadline == live.turn_deadline
    if store.shared:
        assert store.games(time).state(game_id).turn_deadline == live.turn_deadline


def test_indian_each_seat_still_to_show_times_out_on_its_own_bank(store: StoreUnderTest) -> None:
    time = SetTime()
    games = store.games(time)
    rules = RuleSet.from_dict(
        {"variant": "indian", "turn_seconds": 60, "time_bank_seconds": 30}, players=3
    )
    seats = [NewSeat("Bot", bot="basic"), NewSeat("P1"), NewSeat("P2")]
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed="bank")).game_id
    # The people draw and throw the card drawn, in time, but P1 once 10 s into its
    # bank; the bot declares when it can.
    slow = True
    for _ in range(400):
        state = games.state(game_id)
        hand = state.table.hand
        if hand is None or hand.phase is Phase.SHOW or state.table.status is not Status.PLAYING:
            break
        seat = hand.turn
        time.now = turn_started(games, game_id) + timedelta(seconds=1)
        if seat == 1 and slow:
            time.now += timedelta(seconds=60 + 8.5)  # 9.5 s over: 10 spent
            slow = False
        games.play(game_id, seat, [Draw(Source.STOCK)])
        hand = games.state(game_id).table.hand
        assert hand is not None
        games.play(game_id, seat, [Discard(hand.hands[seat][-1])])
    else:
        pytest.fail("nobody declared")
    state = games.state(game_id)
    hand = state.table.hand
    assert hand is not None
    assert hand.phase is Phase.SHOW, "the bot declared validly"
    assert hand.indian is not None
    assert [hand.indian.statuses[1], hand.indian.statuses[2]] == [DealStatus.TO_SUBMIT] * 2
    assert state.table.bank_left == [30, 20, 30]
    shown = turn_started(games, game_id)
    # The show's one clock, then P1's bank: P1 times out alone; P2 shows on.
    assert state.turn_deadline == shown + timedelta(seconds=60 + 20)
    time.now = state.turn_deadline
    version = state.version
    assert games.time_out(game_id, version)
    made = games.events_after(game_id, version)
    assert [(event.event_type, event.data().get("player")) for event in made[:2]] == [
        ("time_bank_used", 1),
        ("turn_timed_out", 1),
    ]
    assert "turn_timed_out" not in [event.event_type for event in made[2:]]
    state = games.state(game_id)
    assert state.table.bank_left == [30, 0, 30]
    assert state.turn_deadline == shown + timedelta(seconds=60 + 30)
    time.now = state.turn_deadline
    version = state.version
    assert games.time_out(game_id, version)
    made = games.events_after(game_id, version)
    assert [(event.event_type, event.data().get("player")) for event in made[:2]] == [
        ("time_bank_used", 2),
        ("turn_timed_out", 2),
    ]
