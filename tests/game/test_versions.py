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


def new_game(app: RummyApplication, seats=None):
    seats = seats or [NewSeat("ann"), NewSeat("bob")]
    return app.create_game(
        NewGame(seats=seats, seed="versions", decks=[DECK], dealer=0, by_admin=True)
    ).game_id


def test_a_command_with_a_stale_expected_version_is_refused(app: RummyApplication):
    game_id = new_game(app)
    version = app.state(game_id).version
    after = act(app, game_id, 1, [STOCK], expected_version=version)
    stored = app.events_after(game_id)

    with pytest.raises(VersionConflict) as conflict:
        act(app, game_id, 1, [Discard(Card.parse("5S"))], expected_version=version)

    assert conflict.value.code == "version_conflict"
    assert app.events_after(game_id) == stored
    assert act(app, game_id, 1, [Discard(Card.parse("5S"))], expected_version=after) == after + 1


def test_the_game_can_be_read_at_every_version_and_no_other(app: RummyApplication):
    game_id = new_game(app)
    act(app, game_id, 1, [STOCK])
    act(app, game_id, 1, [Discard(Card.parse("5S"))])
    latest = app.state(game_id).version
    assert latest == 4

    assert [app.state(game_id, version=n).version for n in range(1, latest + 1)] == [1, 2, 3, 4]
    drawing, playing = (
        app.state(game_id, version=2).table.hand,
        app.state(game_id, version=3).table.hand,
    )
    assert drawing is not None
    assert playing is not None
    assert (drawing.phase, playing.phase) == ("draw", "play")
    for missing in (latest + 1, latest + 100, 0, -1):
        with pytest.raises(VersionNotFound) as not_found:
            app.state(game_id, version=missing)
        assert not_found.value.code == "version_not_found"


def test_the_events_after_a_version_are_the_rest_in_order(app: RummyApplication):
    game_id = new_game(app)
    act(app, game_id, 1, [STOCK, Discard(Card.parse("5S"))])
    every = app.events_after(game_id)
    assert [event.originator_version for event in every] == [1, 2, 3, 4]
    assert app.events_after(game_id, 2) == every[2:]
    assert app.events_after(game_id, 1, limit=2) == every[1:3]
    assert app.events_after(game_id, 4) == []


def test_an_unknown_game_is_not_found_by_any_command_or_query(app: RummyApplication):
    unknown = uuid4()
    calls = {
        "state": lambda: app.state(unknown),
        "state at a version": lambda: app.state(unknown, version=1),
        "events": lambda: app.events_after(unknown),
        "act": lambda: act(app, unknown, 0, [STOCK]),
        "join": lambda: app.join_game(unknown, NewSeat("x")),
        "seat_of": lambda: app.state(unknown).seat_of("token"),
    }
    for name, call in calls.items():
        with pytest.raises(GameNotFound) as not_found:
            call()
        assert not_found.value.code == "not_found", name


class LosesRaces:
    """Makes `app.save` lose the write race `times` times, as if another
    writer had taken the version first, then lets it through."""

    def __init__(self, app: RummyApplication, times: int) -> None:
        self.save = app.save
        self.times = times
        self.calls = 0

    def __call__(self, *objs, **kwargs):
        self.calls += 1
        if self.calls <= self.times:
            raise IntegrityError("another writer got there first")
        return self.save(*objs, **kwargs)


def test_a_lost_write_race_is_retried(app: RummyApplication, monkeypatch: pytest.MonkeyPatch):
    game_id = new_game(app)
    racing = LosesRaces(app, WRITE_ATTEMPTS - 1)
    monkeypatch.setattr(app, "save", racing)

    version = act(app, game_id, 1, [STOCK])

    assert racing.calls == WRITE_ATTEMPTS
    assert version == app.state(game_id).version == 3


def test_write_conflict_comes_only_after_every_retry(
    app: RummyApplication, monkeypatch: pytest.MonkeyPatch
):
    playing = new_game(app)
    lobby = new_game(app, [NewSeat("ann"), None])
    stored = {game_id: app.events_after(game_id) for game_id in (playing, lobby)}
    racing = LosesRaces(app, times=2 * WRITE_ATTEMPTS)
    monkeypatch.setattr(app, "save", racing)

    with pytest.raises(WriteConflict) as act_conflict:
        act(app, playing, 1, [STOCK])
    assert racing.calls == WRITE_ATTEMPTS
    with pytest.raises(WriteConflict) as join_conflict:
        app.join_game(lobby, NewSeat("bob"))
    assert racing.calls == 2 * WRITE_ATTEMPTS

    assert act_conflict.value.code == join_conflict.value.code == "write_conflict"
    assert {game_id: app.events_after(game_id) for game_id in stored} == stored
