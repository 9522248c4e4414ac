"""A save whose reply was lost after it committed stands, on every store.

The driver retries an insert whose connection broke; if the first try had
committed, the retry meets the events it stored itself and raises
`IntegrityError`. The recorder here does the same on purpose: it stores the
events, then raises. The application must recognise its own write by the
command id on the events, answer with the command's outcome, and store
nothing twice; while events another command stored at those versions are
still a conflict, decided again on the stored game.
(tests/faults/ does it with a real lost reply on PostgreSQL.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import VersionConflict
from tests.game.players import STOCK, act, to_move, with_rules
from tests.game.stores import StoreUnderTest

TWO = NewGame(seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(target=500), seed="r")


@contextmanager
def replies_lost(games: RummyApplication, times: int = 1) -> Iterator[list[int]]:
    """The next `times` appends are stored, then reported as a version conflict
    (what the driver's retry of a committed insert meets). Yields the count done."""
    recorder: Any = games.recorder
    insert: Callable[..., Any] = recorder.insert_events
    lost: list[int] = []

    def store_then_fail(events: Sequence[Any], **kwargs: Any) -> Any:
        result = insert(events, **kwargs)
        if len(lost) < times:
            lost.append(len(events))
            raise IntegrityError("duplicate key value (the insert's own earlier try)")
        return result

    recorder.insert_events = store_then_fail
    try:
        yield lost
    finally:
        recorder.insert_events = insert


def _stored_versions(games: RummyApplication, game_id: UUID) -> list[int]:
    return [event.originator_version for event in games.events_after(game_id)]


def test_an_action_whose_reply_was_lost_is_answered_once_applied(store: StoreUnderTest) -> None:
    games = store.games()
    game_id = games.create_game(TWO).game_id
    before = games.state(game_id)
    seat = to_move(before.table)

    with replies_lost(games) as lost:
        version = act(games, game_id, seat, [STOCK], expected_version=before.version)

    assert lost, "the reply was lost"
    after = games.state(game_id)
    assert version == after.version == before.version + 1
    assert _stored_versions(games, game_id) == list(range(1, after.version + 1))
    assert after.table.hand is not None
    assert len(after.table.hand.hands[seat]) == len(before.table.hand.hands[seat]) + 1  # type: ignore[union-attr]


def test_a_game_and_a_join_whose_replies_were_lost_are_created_once(store: StoreUnderTest) -> None:
    games = store.games()
    with replies_lost(games, times=2) as lost:
        created = games.create_game(NewGame(seats=[NewSeat("ann"), None]))
        joined = games.join_game(created.game_id, NewSeat("bob"))

    assert len(lost) == 2
    state = games.state(created.game_id)
    assert state.seat_of(joined.token) == joined.seat == 1
    assert state.version == joined.version
    assert _stored_versions(games, created.game_id) == list(range(1, state.version + 1))


def test_another_commands_events_at_those_versions_are_still_a_conflict(
    shared_store: StoreUnderTest,
) -> None:
    ahead, behind = shared_store.games(), shared_store.games()
    game_id = ahead.create_game(TWO).game_id
    cached = behind.state(game_id)
    seat = to_move(cached.table)
    act(ahead, game_id, seat, [STOCK])

    # behind's copy is stale: its save meets ahead's events, not its own.
    with pytest.raises(VersionConflict):
        act(behind, game_id, seat, [STOCK], expected_version=cached.version)
    assert _stored_versions(ahead, game_id) == list(range(1, cached.version + 2))
