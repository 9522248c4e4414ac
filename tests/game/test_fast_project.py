"""The fence of `project_game` (service/game/fast_project.py): a game rebuilt from its
stored events by it equals the game the library's own `project_aggregate` rebuilds,
at every version, and every stored event passes the check the library's projector
makes and ours skips. Should an eventsourcing upgrade change its projector, this fails.
"""

from __future__ import annotations

import random

from eventsourcing.application import project_aggregate
from eventsourcing.domain import CanMutateProtocol

from service.game.aggregate import Game
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.fast_project import project_game
from tests.game.players import play_to_end, with_rules
from tests.game.stores import StoreUnderTest


def _played(games: RummyApplication) -> list[object]:
    """The stored events of a whole game, as the store gives them back."""
    game_id = games.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(target=50), seed="p")
    ).game_id
    play_to_end(games, game_id, random.Random(5))
    return list(games.events.get(game_id))


def test_a_game_is_rebuilt_as_the_librarys_projector_rebuilds_it(
    sqlite_store: StoreUnderTest,
) -> None:
    events = _played(sqlite_store.games())
    assert len(events) > 20

    for version in (1, 2, len(events) // 2, len(events)):
        ours = project_game(None, events[:version])  # type: ignore[arg-type]
        libraries: Game | None = project_aggregate(None, events[:version])  # type: ignore[arg-type]
        assert ours is not None
        assert ours == libraries
        assert ours.version == version
        assert libraries is not None
        assert ours.table == libraries.table


def test_every_stored_event_passes_the_check_ours_skips(sqlite_store: StoreUnderTest) -> None:
    for event in _played(sqlite_store.games()):
        assert isinstance(event, CanMutateProtocol), type(event).__name__


def test_a_version_is_read_through_the_library_with_our_projector(
    sqlite_store: StoreUnderTest,
) -> None:
    games = sqlite_store.games()
    events = _played(games)
    game_id = events[0].originator_id  # type: ignore[attr-defined]
    at = len(events) // 2
    ours = games.repository.get(game_id, version=at, projector_func=project_game)
    libraries: Game = games.repository.get(
        game_id,
        version=at,
        projector_func=project_aggregate,  # type: ignore[arg-type]
    )
    assert ours == libraries
    assert ours.version == at
