"""Versions: If-Match, the game at any version, the events after one, lost write races."""

from __future__ import annotations

from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError

from service.domain.actions import Discard
from service.domain.cards import Card
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import GameNotFound, VersionConflict, VersionNotFound, WriteConflict
from service.game.unit import WRITE_ATTEMPTS
from tests.game.players import DECK, STOCK, act


def new_game(games: RummyApplication, seats=None):
    seats = seats or [NewSeat("ann"), NewSeat("bob")]
    return games.create_game(
        NewGame(seats=seats, seed="versions", decks=[DECK], dealer=0, by_admin=True)
    ).game_id


def test_a_command_with_a_stale_expected_version_is_refused(games: RummyApplication):
    game_id = new_game(games)
    version = games.state(game_id).version
    after = act(games, game_id, 1, [STOCK], expected_version=version)
    stored = games.events_after(game_id)

    with pytest.raises(VersionConflict) as conflict:
        act(games, game_id, 1, [Discard(Card.parse("5S"))], expected_version=version)

    assert conflict.value.code == "version_conflict"
    assert games.events_after(game_id) == stored
    assert act(games, game_id, 1, [Discard(Card.parse("5S"))], expected_version=after) == after + 1


def test_the_game_can_be_read_at_every_version_and_no_other(games: RummyApplication):
    game_id = new_game(games)
    act(games, game_id, 1, [STOCK])
    act(games, game_id, 1, [Discard(Card.parse("5S"))])
    latest = games.state(game_id).version
    assert latest == 4

    assert [games.state(game_id, version=n).version for n in range(1, latest + 1)] == [1, 2, 3, 4]
    drawing, playing = (
        games.state(game_id, version=2).table.hand,
        games.state(game_id, version=3).table.hand,
    )
    assert drawing is not None
    assert playing is not None
    assert (drawing.phase, playing.phase) == ("draw", "play")
    for missing in (latest + 1, latest + 100, 0, -1):
        with pytest.raises(VersionNotFound) as not_found:
            games.state(game_id, version=missing)
        assert not_found.value.code == "version_not_found"


def test_the_events_after_a_version_are_the_rest_in_order(games: RummyApplication):
    game_id = new_game(games)
    act(games, game_id, 1, [STOCK, Discard(Card.parse("5S"))])
    every = games.events_after(game_id)
    assert [event.originator_version for event in every] == [1, 2, 3, 4]
    assert games.events_after(game_id, 2) == every[2:]
    assert games.events_after(game_id, 1, limit=2) == every[1:3]
    assert games.events_after(game_id, 4) == []


def test_an_unknown_game_is_not_found_by_any_command_or_query(games: RummyApplication):
    unknown = uuid4()
    calls = {
        "state": lambda: games.state(unknown),
        "state at a version": lambda: games.state(unknown, version=1),
        "events": lambda: games.events_after(unknown),
        "act": lambda: act(games, unknown, 0, [STOCK]),
        "join": lambda: games.join_game(unknown, NewSeat("x")),
        "seat_of": lambda: games.state(unknown).seat_of("token"),
    }
    for name, call in calls.items():
        with pytest.raises(GameNotFound) as not_found:
            call()
        assert not_found.value.code == "not_found", name


class LosesRaces:
    """Makes `games.save` lose the write race `times` times, as if another
    writer had taken the version first, then lets it through."""

    def __init__(self, games: RummyApplication, times: int) -> None:
        self.save = games.save
        self.times = times
        self.calls = 0

    def __call__(self, *objs, **kwargs):
        self.calls += 1
        if self.calls <= self.times:
            raise IntegrityError("another writer got there first")
        return self.save(*objs, **kwargs)


def test_a_lost_write_race_is_retried(games: RummyApplication, monkeypatch: pytest.MonkeyPatch):
    game_id = new_game(games)
    racing = LosesRaces(games, WRITE_ATTEMPTS - 1)
    monkeypatch.setattr(games, "save", racing)

    version = act(games, game_id, 1, [STOCK])

    assert racing.calls == WRITE_ATTEMPTS
    assert version == games.state(game_id).version == 3


def test_write_conflict_comes_only_after_every_retry(
    games: RummyApplication, monkeypatch: pytest.MonkeyPatch
):
    playing = new_game(games)
    lobby = new_game(games, [NewSeat("ann"), None])
    stored = {game_id: games.events_after(game_id) for game_id in (playing, lobby)}
    racing = LosesRaces(games, times=2 * WRITE_ATTEMPTS)
    monkeypatch.setattr(games, "save", racing)

    with pytest.raises(WriteConflict) as act_conflict:
        act(games, playing, 1, [STOCK])
    assert racing.calls == WRITE_ATTEMPTS
    with pytest.raises(WriteConflict) as join_conflict:
        games.join_game(lobby, NewSeat("bob"))
    assert racing.calls == 2 * WRITE_ATTEMPTS

    assert act_conflict.value.code == join_conflict.value.code == "write_conflict"
    assert {game_id: games.events_after(game_id) for game_id in stored} == stored
