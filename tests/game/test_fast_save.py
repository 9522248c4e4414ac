"""The fence of `SavesGamesDirectly.save` (service/game/fast_save.py): a `Game` saved
through it and through the library's own `Application.save` leaves the same rows and
notifications in the store, tells the same hooks and observers, caches the same
game, and fails the same way when its versions are stored already. Should an
eventsourcing upgrade change what its `save` does, this fails.

Each test saves copies of one game, with the same pending events, on two stores of
the same kind: through the service's `save` on one, the library's on the other.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from unittest import mock
from uuid import UUID, uuid4

import pytest
from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.persistence import IntegrityError, Recording

from service.bootstrap import open_games
from service.game.aggregate import Game, SeatEntry
from service.game.application import RummyApplication
from tests.game.players import Player, to_move, with_rules
from tests.game.stores import StoreUnderTest, open_store


@dataclass
class Told:
    """An observer of saves (`SaveObserver`), and the library's deprecated `notify`
    hook: what each was told."""

    saves: list[list[Any]] = field(default_factory=list)
    conflicts: int = 0
    notified: list[list[Any]] = field(default_factory=list)
    hooks: list[tuple[Any, ...]] = field(default_factory=list)
    """The library's hooks a save calls (`_record`, `_take_snapshots`), with what
    they were given."""

    def saved(self, events: Sequence[Any]) -> None:
        self.saves.append(list(events))

    def write_conflict(self) -> None:
        self.conflicts += 1

    def notify(self, events: list[Any]) -> None:
        self.notified.append(list(events))

    def spy(self, name: str, hook: Any) -> Any:
        """`hook`, telling this what it was given first."""

        def spied(processing_event: ProcessingEvent[UUID]) -> Any:
            given = processing_event
            self.hooks.append(
                (
                    name,
                    list(given.events),
                    {key: value.version for key, value in given.aggregates.items()},
                    given.tracking,
                    dict(given.saved_kwargs),
                )
            )
            return hook(given)

        return spied


@dataclass
class Side:
    """One application and what it told."""

    games: RummyApplication
    told: Told


@pytest.fixture
def sides(
    store: StoreUnderTest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Side, Side]]:
    """(the service's save, the library's save): one application each, on stores of
    the kind under test that share nothing."""
    library_path = tmp_path / "library"
    library_path.mkdir()
    with open_store(store.kind, library_path) as library_store:
        pair = []
        for opened in (store, library_store):
            told = Told()
            games = open_games(opened.settings, observers=(told,))
            opened.all_games.append(games)
            monkeypatch.setattr(games, "notify", told.notify)
            for hook in ("_record", "_take_snapshots"):
                monkeypatch.setattr(games, hook, told.spy(hook, getattr(games, hook)))
            pair.append(Side(games, told))
        yield pair[0], pair[1]


def _new_game() -> Game:
    """Two seats taken: created and dealt, three events pending."""
    return Game.create(
        game_id=uuid4(),
        rules=with_rules(),
        seats=[SeatEntry("ann", "hash-ann"), SeatEntry("bob", "hash-bob")],
        seed="fence",
        seed_chosen=True,
        command_id="command-1",
    )


def _play(game: Game, moves: int, command_id: str) -> None:
    """`moves` moves of whoever is to move, recorded on `game` (pending)."""
    game.command_id = command_id
    player = Player(random.Random(7))
    for _ in range(moves):
        seat = to_move(game.table)
        game.act(seat, [player.move(game.table, seat)])


def _save_ours(side: Side, game: Game) -> list[Recording[UUID]]:
    """The service's save, refusing the library's way of collecting events: the
    path measured is the one saved by."""
    refused = AssertionError("the library's collect_events was used")
    with mock.patch.object(ProcessingEvent, "collect_events", side_effect=refused):
        return side.games.save(game)


def _save_libraries(side: Side, game: Game) -> list[Recording[UUID]]:
    return Application.save(side.games, game)


def _rows(games: RummyApplication, game_id: UUID) -> list[tuple[Any, ...]]:
    return [
        (str(stored.originator_id), stored.originator_version, stored.topic, stored.state)
        for stored in games.recorder.select_events(game_id)
    ]


def _notifications(games: RummyApplication) -> list[tuple[Any, ...]]:
    """The feed, without its ids: the PostgreSQL recorder makes them from transaction
    ids, which differ between two stores."""
    return [
        (str(found.originator_id), found.originator_version, found.topic, found.state)
        for found in games.recorder.select_notifications(start=None, limit=1000)
    ]


def _recorded(recordings: list[Recording[UUID]]) -> list[tuple[Any, ...]]:
    return [
        (
            recording.domain_event,
            str(recording.notification.originator_id),
            recording.notification.originator_version,
            recording.notification.topic,
            recording.notification.state,
        )
        for recording in recordings
    ]


def _cached(games: RummyApplication, game_id: UUID) -> Game:
    cache = games.repository.cache
    assert cache is not None, "the application caches games"
    return cast(Game, cache.get(game_id))


def test_a_game_is_saved_as_the_library_saves_it(sides: tuple[Side, Side]) -> None:
    ours, libraries = sides
    game = _new_game()
    steps = [(None, 0), ("command-2", 1), ("command-3", 3)]
    for command_id, moves in steps:
        if command_id is not None:
            _play(game, moves, command_id)
        pending = list(game.pending_events)
        mine, theirs = deepcopy(game), deepcopy(game)

        saved_by_us = _save_ours(ours, mine)
        saved_by_library = _save_libraries(libraries, theirs)

        assert _recorded(saved_by_us) == _recorded(saved_by_library)
        assert [r.domain_event for r in saved_by_us] == pending
        assert ours.told == libraries.told, "the same observers and hooks, told the same"
        assert ours.told.saves[-1] == pending
        assert ours.told.notified[-1] == pending
        assert not mine.pending_events, "collected"
        assert not theirs.pending_events
        assert _cached(ours.games, game.id) is mine
        assert _cached(libraries.games, game.id) is theirs
        game = mine

    assert _rows(ours.games, game.id) == _rows(libraries.games, game.id)
    assert len(_rows(ours.games, game.id)) == game.version
    assert _notifications(ours.games) == _notifications(libraries.games)


def test_a_version_stored_already_fails_alike(sides: tuple[Side, Side]) -> None:
    ours, libraries = sides
    created = _new_game()
    game = deepcopy(created)
    _save_ours(ours, game)
    _save_libraries(libraries, deepcopy(created))
    _play(game, 2, "command-2")
    mine, theirs = deepcopy(game), deepcopy(game)
    _save_ours(ours, mine)
    _save_libraries(libraries, theirs)
    rows = _rows(ours.games, game.id)
    told = deepcopy(ours.told)

    with pytest.raises(IntegrityError) as by_us:
        _save_ours(ours, deepcopy(game))
    with pytest.raises(IntegrityError) as by_library:
        _save_libraries(libraries, deepcopy(game))

    assert type(by_us.value) is type(by_library.value)
    assert ours.told == libraries.told, "the same hooks called (the record fails)"
    assert ours.told.hooks[-1][0] == "_record"
    assert (ours.told.saves, ours.told.notified) == (told.saves, told.notified), "told nothing"
    assert ours.games.write_failure is None
    assert libraries.games.write_failure is None
    assert _cached(ours.games, game.id) is mine, "the cache keeps the stored game"
    assert _cached(libraries.games, game.id) is theirs
    assert _rows(ours.games, game.id) == rows == _rows(libraries.games, game.id)


def test_anything_but_one_game_is_saved_by_the_library(sides: tuple[Side, Side]) -> None:
    ours, _ = sides
    game = _new_game()
    with mock.patch.object(Application, "save", autospec=True, return_value=[]) as library_save:
        ours.games.save(game, None)
        ours.games.save(game, kwarg="x")
    assert [call.args[1:] for call in library_save.call_args_list] == [(game, None), (game,)]
