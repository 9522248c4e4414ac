"""Games left to bots alone (docs/bots.md), on every store: no request plays them;
the clocks' keeper does, one bot request per firing, in due order across games,
exactly once by the version, and again after a restart from stored state.

The keeper is the one `rummy serve` runs (`service.bootstrap.clock_keeper`, the
bots' pace 0), driven by `run_once` in the test's thread.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any
from uuid import UUID

import pytest

from service.audit.verify import Outcome, verify_export
from service.bootstrap import clock_keeper
from service.clocks import timekeeper
from service.clocks.deadlines import Due
from service.clocks.timekeeper import ClockKeeper
from service.domain.actions import Discard, Draw
from service.domain.rules import RuleSet
from service.domain.state import Source
from service.game import bot_turns
from service.game.application import RummyApplication
from service.game.clock import Fired
from service.game.commands import NewGame, NewSeat
from service.game.event_feed import Feed
from tests.audit_stream.games import export_of
from tests.game.players import bots_alone, play_out
from tests.game.stores import StoreUnderTest

BOTS = 5
"""The issue's table: one person and five `basic` bots."""


def bot_table(games: RummyApplication, seed: str, target: int = 300) -> UUID:
    """A game of one person (seat 0) and `BOTS` basic bots, dealt."""
    seats = [NewSeat("Ann"), *(NewSeat(f"Bot {n}", bot="basic") for n in range(BOTS))]
    rules = RuleSet.from_dict({"target": target})
    return games.create_game(NewGame(seats=seats, rules=rules, seed=seed)).game_id


def left_to_bots(games: RummyApplication, seed: str, target: int = 300) -> tuple[UUID, int]:
    """`bot_table` after Ann left: the game and the version her leave answered with."""
    game_id = bot_table(games, seed, target)
    return game_id, games.leave(game_id, 0).state.version


class Told:
    """The keeper's observer (the metrics, in `rummy serve`): what it was told."""

    def __init__(self) -> None:
        self.timeouts = 0
        self.bot_moves = 0

    def timed_out(self, lag_seconds: float) -> None:
        self.timeouts += 1

    def bot_moved(self) -> None:
        self.bot_moves += 1


def keeper_of(
    store: StoreUnderTest, games: RummyApplication, told: Told | None = None
) -> ClockKeeper:
    """The keeper `rummy serve` runs, with the bots' pace 0."""
    keeper = clock_keeper(replace(store.settings, bot_pace_ms=0), games, observer=told)
    assert keeper is not None
    return keeper


def run_until_finished(keeper: ClockKeeper, games: RummyApplication, *ids: UUID) -> None:
    for _ in range(10_000):
        if all(games.state(game_id).table.finished for game_id in ids):
            return
        keeper.run_once()
    pytest.fail("the keeper did not finish the games")


def moves(games: RummyApplication, game_id: UUID, after: int = 1) -> list[tuple[str, Any]]:
    """The game's events after version `after` as stored: type and data."""
    return [(event.event_type, event.data()) for event in games.events_after(game_id, after)]


def test_a_leave_that_leaves_only_bots_answers_with_no_bot_move_stored(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    game_id, answered = left_to_bots(games, "leave-at-once")
    stored = games.events_after(game_id)
    assert stored[-1].originator_version == answered, "nothing stored after the leave's answer"
    assert stored[-1].event_type == "player_left"
    state = games.state(game_id)
    assert not state.table.finished
    assert bots_alone(state)
    version, row = games.keeper_row(game_id, timedelta(milliseconds=300))
    assert row is not None, "the keeper's row: the waiting bot's move"
    assert version == answered
    assert row.at == stored[-1].timestamp + timedelta(milliseconds=300), "paced"
    seat = state.seats[row.seat]
    assert seat is not None
    assert seat.bot is not None


def test_a_timeout_that_takes_the_last_person_over_answers_at_once(
    store: StoreUnderTest,
) -> None:
    now = [datetime.now(UTC)]
    games = store.games(lambda: now[0])
    seats = [NewSeat("Ann"), NewSeat("Bot", bot="basic")]
    rules = RuleSet.from_dict({"turn_seconds": 30, "timeouts_before_takeover": 1})
    game_id = games.create_game(NewGame(seats=seats, rules=rules, seed="taken-over")).game_id
    deadline = games.deadline(game_id)
    assert deadline is not None, "Ann is to play"
    now[0] = deadline.at + timedelta(seconds=1)
    assert games.time_out(game_id, deadline.version)
    stored = games.events_after(game_id, deadline.version)
    assert [event.event_type for event in stored] == ["turn_timed_out", "player_left"]
    assert bots_alone(games.state(game_id)), "the rest is the keeper's"
    assert play_out(games, game_id) > 0
    assert games.state(game_id).table.finished


def test_a_person_s_action_still_brings_the_bots_replies_up_to_her_turn(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    game_id = bot_table(games, "round")
    state = games.state(game_id)
    hand = state.table.hand
    assert hand is not None
    assert hand.turn == 0, "the bots played up to Ann's turn"
    assert not bots_alone(state)
    assert games.keeper_row(game_id, timedelta(0))[1] is None, "no clock, no bot waits"
    assert Fired.NOTHING is games.fire(game_id, state.version), "the keeper has nothing to do"


def test_a_round_cut_short_by_its_bound_is_played_on_at_once_by_the_keeper(
    store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_turns, "MOST_ROUND_REQUESTS", 1)
    games = store.games()
    game_id = bot_table(games, "bounded")
    fire_until_ann_s_turn(games, game_id)  # the creation's round, cut short too
    games.play(game_id, 0, [Draw(Source.STOCK)])
    hand = games.state(game_id).table.hand
    assert hand is not None
    before = games.state(game_id).version
    answered = games.play(game_id, 0, [Discard(hand.hands[0][-1])]).state
    saved = games.events_after(game_id, before)
    assert len({event.command_id for event in saved}) == 1, "one save"
    movers = {event.seat for event in saved if event.seat is not None}
    assert len(movers - {0}) == 1, "Ann's discard and ONE bot request: the bound"
    assert answered.table.hand is not None
    assert answered.table.hand.turn != 0, "the round was cut short"
    version, row = games.keeper_row(game_id, timedelta(seconds=60))
    assert row is not None
    assert version == answered.version
    last = games.events_after(game_id, version - 1)[-1]
    assert row.at == last.timestamp, "not paced: a person is still to play"
    fired = fire_until_ann_s_turn(games, game_id)
    assert fired >= BOTS - 1, "each bot's turn takes a request or more"


def fire_until_ann_s_turn(games: RummyApplication, game_id: UUID) -> int:
    """What the keeper does for a round cut short: fire until Ann (seat 0) is to act."""
    fired = 0
    while (state := games.state(game_id)).table.hand.turn != 0:  # type: ignore[union-attr]
        assert games.fire(game_id, state.version) is Fired.BOT_MOVED
        fired += 1
    return fired


def test_the_keeper_finishes_a_game_of_bots_alone_and_its_events_equal_a_replay(
    store: StoreUnderTest,
) -> None:
    games = store.games()
    game_id, answered = left_to_bots(games, "played-out")
    told = Told()
    keeper = keeper_of(store, games, told)
    run_until_finished(keeper, games, game_id)
    keeper.stop()
    live = games.state(game_id)
    assert live.version > answered + 1
    requests = {event.command_id for event in games.events_after(game_id, answered)}
    assert (told.bot_moves, told.timeouts) == (len(requests), 0), "a save per bot request"
    assert games.state(game_id, version=live.version).table == live.table, "the events rebuild it"
    assert verify_export(export_of(games, game_id)).outcome is Outcome.VERIFIED
    # The same game played out by the application alone, one firing after another:
    # the keeper's firings made the same moves (a bot decides from its view and a
    # generator seeded by the game's seed and version).
    replay_id, _ = left_to_bots(games, "played-out")
    play_out(games, replay_id)
    assert moves(games, game_id) == moves(games, replay_id)


def test_games_of_bots_alone_advance_in_turn_a_request_each(store: StoreUnderTest) -> None:
    games = store.games()
    first, _ = left_to_bots(games, "fair-1")
    second, _ = left_to_bots(games, "fair-2")
    start = Feed.of(games).last_position()
    keeper = keeper_of(store, games)
    run_until_finished(keeper, games, first, second)
    keeper.stop()
    commands: list[tuple[UUID, str | None]] = []
    for entry in Feed.of(games).page(start, limit=100_000):
        command = (entry.game_id, entry.event.command_id)
        if not commands or commands[-1] != command:
            commands.append(command)
    order = [game_id for game_id, _ in commands]
    both = order[: min(order.count(first), order.count(second)) * 2]
    assert len(both) > 40, "both games moved many times"
    assert all(a != b for a, b in pairwise(both)), (
        "one request of each game in turn, until the shorter game ended"
    )
    assert all(games.state(game_id).table.finished for game_id in (first, second))


def test_a_game_left_mid_way_is_finished_by_a_new_keeper_on_the_same_store(
    shared_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = shared_store.games()
    game_id, answered = left_to_bots(games, "restarted")
    stopped = keeper_of(shared_store, games)
    monkeypatch.setattr(timekeeper, "FIRES_PER_ROUND", 5)
    assert stopped.run_once()[1] == 5, "five bot requests, then the process stops"
    stopped.stop()
    games.close()
    mid_way = shared_store.games().state(game_id)
    assert not mid_way.table.finished
    assert mid_way.version > answered
    monkeypatch.undo()

    restarted = shared_store.games()
    keeper = keeper_of(shared_store, restarted)
    keeper.follow()
    assert [row.game_id for row in keeper.rows()] == [game_id], "found again from stored state"
    run_until_finished(keeper, restarted, game_id)
    keeper.stop()
    assert verify_export(export_of(restarted, game_id)).outcome is Outcome.VERIFIED


@pytest.mark.postgres
def test_two_keepers_on_postgres_never_both_move_one_game(
    postgres_store: StoreUnderTest,
) -> None:
    """Two replicas' keepers play four games of bots at once: no row is fired by both
    at the same time (the claim's `FOR UPDATE SKIP LOCKED`), and each version moves
    once. A row may be fired again after its move (a follower's write from an older
    read, clocks.md): that firing records nothing."""
    ids = []
    replicas = [postgres_store.games(), postgres_store.games()]
    for number in range(4):
        ids.append(left_to_bots(replicas[number % 2], f"replicas-{number}", target=200)[0])
    fired: list[tuple[int, UUID, int, Fired, int, int]] = []
    """(keeper, game, version, outcome, tick at the start, tick at the end)."""
    ticks = itertools.count()
    lock = threading.Lock()
    keepers = []
    for number, games in enumerate(replicas):

        def fire(
            game_id: UUID, version: int, games: RummyApplication = games, n: int = number
        ) -> Fired:
            with lock:
                began = next(ticks)
            outcome = games.fire(game_id, version)
            with lock:
                fired.append((n, game_id, version, outcome, began, next(ticks)))
            return outcome

        def row(game_id: UUID, games: RummyApplication = games) -> tuple[int, Due | None]:
            version, due = games.keeper_row(game_id, timedelta(0))
            return version, None if due is None else Due.of(due)

        keepers.append(ClockKeeper(games.recorder, row, fire))

    def run(keeper: ClockKeeper) -> None:
        run_until_finished(keeper, replicas[0], *ids)

    threads = [threading.Thread(target=run, args=(keeper,)) for keeper in keepers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for keeper in keepers:
        keeper.stop()
    assert {n for n, *_ in fired} == {0, 1}, "both keepers fired"
    moved = Counter(
        (game, version) for _, game, version, out, *_ in fired if out is Fired.BOT_MOVED
    )
    assert moved, "the games moved"
    assert max(moved.values()) == 1, "each version moved once"
    by_row: dict[tuple[UUID, int], list[tuple[int, int]]] = {}
    for _, game, version, _, began, ended in fired:
        by_row.setdefault((game, version), []).append((began, ended))
    for (game, version), spans in by_row.items():
        spans.sort()
        assert all(a[1] < b[0] for a, b in pairwise(spans)), (
            f"{game} v{version}: two firings of one row at once"
        )
    for game_id in ids:
        stored = {event.originator_version for event in replicas[0].events_after(game_id)}
        assert {version for (game, version) in moved if game == game_id} <= stored
        assert replicas[0].state(game_id).table.finished
