"""The turn clocks' keeper (service/clocks/timekeeper.py) on every store.

The keeper is driven by a clock of the test's own and a stand-in for the rules'
clock (`FakeClocks`: a game's deadline is its latest event's time plus its
seconds, the seat to act is the hand's turn, and a timeout draws from the stock
for it, if the game is still at the version asked and the time is up), so that
what is checked here is the keeper alone: which rows it finds from stored
state, which it fires, and how it survives a restart or a crash mid-fire.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from uuid import UUID

import pytest

from service.clocks.deadlines import Due
from service.clocks.timekeeper import SKIP_AFTER_FAILURES, ClockKeeper
from service.config import Store
from service.domain.actions import Draw
from service.domain.state import Source
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from tests.game.stores import StoreUnderTest


class FakeClocks:
    """The rules' clock as the keeper sees it (`deadline_of`, `time_out`)."""

    def __init__(self, games: RummyApplication) -> None:
        self.games = games
        self.seconds: dict[UUID, float] = {}
        self.now = 0.0
        self.recorded: Counter[tuple[UUID, int]] = Counter()
        self.calls: Counter[tuple[UUID, int]] = Counter()
        self._lock = threading.Lock()

    def deadline_of(self, game_id: UUID) -> tuple[int, Due | None]:
        state = self.games.state(game_id)
        hand = state.table.hand
        if game_id not in self.seconds or hand is None or state.table.finished:
            return state.version, None
        latest = self.games.events_after(game_id, state.version - 1)[0]
        at = latest.timestamp.timestamp() + self.seconds[game_id]
        return state.version, Due(game_id, state.version, hand.turn, at)

    def time_out(self, game_id: UUID, version: int) -> bool:
        with self._lock:
            self.calls[(game_id, version)] += 1
        now_version, due = self.deadline_of(game_id)
        if due is None or now_version != version or due.at > self.now:
            return False
        try:
            self.games.play(game_id, due.seat, [Draw(Source.STOCK)], expected_version=version)
        except Exception:
            return False  # another firing got there first
        with self._lock:
            self.recorded[(game_id, version)] += 1
        return True

    def keeper(self, games: RummyApplication | None = None) -> ClockKeeper:
        app = games if games is not None else self.games
        return ClockKeeper(app.recorder, self.deadline_of, self.time_out, now=lambda: self.now)


def new_games(games: RummyApplication, count: int) -> list[UUID]:
    return [
        games.create_game(NewGame(seats=[NewSeat("ann"), NewSeat("bob")])).game_id
        for _ in range(count)
    ]


def test_expired_rows_fire_and_future_ones_do_not(store: StoreUnderTest) -> None:
    games = store.games()
    clocks = FakeClocks(games)
    soon, later, unclocked = new_games(games, 3)
    clocks.seconds.update({soon: 10.0, later: 1000.0})
    keeper = clocks.keeper()

    read, fired = keeper.run_once()
    assert read > 0
    assert fired == 0, "nothing is due at time 0"
    rows = {due.game_id: due for due in keeper.rows()}
    assert set(rows) == {soon, later}, "one row per game with a clock running"
    assert rows[soon].version == games.state(soon).version

    clocks.now = rows[soon].at - 0.001
    assert keeper.run_once()[1] == 0, "a deadline not yet passed does not fire"
    clocks.now = rows[soon].at
    assert keeper.run_once()[1] == 1
    assert clocks.recorded == {(soon, rows[soon].version): 1}
    assert games.state(later).version == rows[later].version
    after = {due.game_id: due for due in keeper.rows()}
    assert after[soon].version == rows[soon].version + 1, "the row follows the game"
    assert after[soon].at > clocks.now
    assert after[later] == rows[later]

    # The feed carries the timeout too; reading it changes nothing.
    keeper.run_once()
    assert {due.game_id: due for due in keeper.rows()} == after
    assert unclocked not in after


def test_a_late_duplicate_firing_is_harmless(store: StoreUnderTest) -> None:
    """A keeper that dies after `time_out` recorded but before its row was changed
    leaves the old row: the next firing of it records nothing more."""
    games = store.games()
    clocks = FakeClocks(games)
    (game_id,) = new_games(games, 1)
    clocks.seconds[game_id] = 5.0

    def crash_after_recording(game_id: UUID, version: int) -> bool:
        clocks.time_out(game_id, version)
        raise SystemExit("killed mid-fire")  # not an Exception: the keeper does not catch it

    crashing = ClockKeeper(
        games.recorder, clocks.deadline_of, crash_after_recording, now=lambda: clocks.now
    )
    crashing.run_once()
    (due,) = crashing.rows()
    clocks.now = due.at
    with pytest.raises(SystemExit):
        crashing.run_once()
    crashing.stop()  # on SQLite: lets the next keeper of this process take the lock
    keeper = clocks.keeper()
    assert keeper.rows() == [due], "the crash left the row as it was"
    assert games.state(game_id).version == due.version + 1, "but the timeout was recorded"

    assert keeper.fire_due() == 1, "the old row is claimed again (before the feed is read)"
    assert clocks.calls[(game_id, due.version)] == 2
    assert clocks.recorded == {(game_id, due.version): 1}, "timed out once"
    assert games.state(game_id).version == due.version + 1
    assert [row.version for row in keeper.rows()] == [due.version + 1]


def test_a_restarted_keeper_finds_the_deadlines_again(store: StoreUnderTest) -> None:
    if store.kind is Store.MEMORY:
        pytest.skip("the memory store keeps nothing across a restart")
    games = store.games()
    clocks = FakeClocks(games)
    first = new_games(games, 2)
    clocks.seconds.update(dict.fromkeys(first, 5.0))
    stopped = clocks.keeper()
    stopped.run_once()
    stopped.stop()
    second = new_games(games, 2)  # saved after the last keeper read the feed
    clocks.seconds.update(dict.fromkeys(second, 5.0))

    restarted_games = store.games()
    restarted = FakeClocks(restarted_games)
    restarted.seconds = clocks.seconds
    keeper = restarted.keeper()
    read, _ = keeper.run_once()
    assert 0 < read < sum(len(games.events_after(game_id)) for game_id in first + second), (
        "the restarted keeper reads on from the stored position"
    )
    rows = keeper.rows()
    assert {due.game_id for due in rows} == set(first + second)
    restarted.now = max(due.at for due in rows)
    assert keeper.run_once()[1] == 4
    assert restarted.recorded == Counter({(due.game_id, due.version): 1 for due in rows})


def test_replicas_fire_each_row_once(shared_store: StoreUnderTest) -> None:
    """Two keepers of two applications on one store, firing at once (on SQLite the
    one holding the lock fires; on PostgreSQL both, each row claimed by one)."""
    games = shared_store.games()
    clocks = FakeClocks(games)
    ids = new_games(games, 12)
    clocks.seconds.update(dict.fromkeys(ids, 5.0))
    keepers = [clocks.keeper(), clocks.keeper(shared_store.games())]
    keepers[0].run_once()
    rows = keepers[0].rows()
    clocks.now = max(due.at for due in rows)

    fired: list[int] = []
    threads = [
        threading.Thread(target=lambda keeper=keeper: fired.append(keeper.run_once()[1]))
        for keeper in keepers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(fired) == len(ids), "every row fired by one keeper"
    assert clocks.calls == Counter({(due.game_id, due.version): 1 for due in rows}), (
        "no row fired twice"
    )
    assert sum(clocks.recorded.values()) == len(ids)
    if shared_store.kind is Store.SQLITE:
        assert sorted(fired) == [0, len(ids)], "one process keeps SQLite's clocks"
    for keeper in keepers:
        keeper.stop()


def test_the_threads_fire_what_is_due_and_stop(store: StoreUnderTest) -> None:
    games = store.games()
    clocks = FakeClocks(games)
    (game_id,) = new_games(games, 1)
    clocks.seconds[game_id] = 5.0
    version = games.state(game_id).version
    keeper = ClockKeeper(
        games.recorder,
        clocks.deadline_of,
        clocks.time_out,
        poll_seconds=0.05,
        now=lambda: clocks.now,
    )
    keeper.start()
    try:
        clocks.now = time.time() + 5.0
        until = time.monotonic() + 30.0
        while not clocks.recorded and time.monotonic() < until:
            time.sleep(0.05)
    finally:
        keeper.stop(timeout=5.0)
    assert not keeper.running
    assert clocks.recorded == {(game_id, version): 1}


def test_a_game_whose_deadline_cannot_be_read_stops_no_other_clock(store: StoreUnderTest) -> None:
    games = store.games()
    clocks = FakeClocks(games)
    broken, sound = new_games(games, 2)
    clocks.seconds.update({broken: 5.0, sound: 5.0})
    read_deadline = clocks.deadline_of

    def deadline_of(game_id: UUID) -> tuple[int, Due | None]:
        if game_id == broken:
            raise RuntimeError("cannot read this game")
        return read_deadline(game_id)

    keeper = ClockKeeper(games.recorder, deadline_of, clocks.time_out, now=lambda: clocks.now)
    for _ in range(SKIP_AFTER_FAILURES - 1):
        with pytest.raises(RuntimeError):
            keeper.follow()
        assert keeper.rows() == [], "the page is read again, nothing half-written"
    assert keeper.follow() > 0
    assert [due.game_id for due in keeper.rows()] == [sound]
