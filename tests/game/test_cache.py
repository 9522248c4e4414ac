"""The games cache: shared by readers, never changed, and never trusted by a command.

Two applications on one store stand for two replicas: `ahead` plays on while
`behind` still caches an older version. A command on `behind` acts on its
stale copy without reading the store first; these tests show that nothing it
decides on that copy stands unless the stored game agrees.
"""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from service.domain.errors import IllegalMove
from service.domain.turns import is_legal
from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import VersionConflict
from service.game.results import GameState
from tests.game.players import STOCK, Player, act, play_moves, to_move, with_rules
from tests.game.stores import StoreUnderTest


def _game(games: RummyApplication) -> UUID:
    return games.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], rules=with_rules(target=500), seed="c")
    ).game_id


@pytest.fixture
def stale(
    shared_store: StoreUnderTest,
) -> tuple[RummyApplication, RummyApplication, UUID, GameState]:
    """(ahead, behind, game, the version behind caches): ahead moved on by three moves."""
    ahead, behind = shared_store.games(), shared_store.games()
    game_id = _game(ahead)
    cached = behind.state(game_id)
    play_moves(ahead, game_id, Player(random.Random(3)), 3)
    return ahead, behind, game_id, cached


def test_a_move_only_the_stored_game_allows_is_accepted_from_a_stale_cache(stale):
    ahead, behind, game_id, cached = stale
    latest = ahead.state(game_id)
    seat = to_move(latest.table)
    move = Player(random.Random(1)).move(latest.table, seat)
    assert not is_legal(cached.table, seat, move), "the cached version would refuse it"

    version = act(behind, game_id, seat, [move])

    assert version == latest.version + 1
    assert ahead.state(game_id) == behind.state(game_id)


def test_if_match_is_checked_against_the_stored_version_not_the_cached_one(stale):
    ahead, behind, game_id, cached = stale
    latest = ahead.state(game_id)
    seat = to_move(latest.table)
    move = Player(random.Random(2)).move(latest.table, seat)

    with pytest.raises(VersionConflict):
        act(behind, game_id, seat, [move], expected_version=cached.version)
    assert act(behind, game_id, seat, [move], expected_version=latest.version) > latest.version


def test_a_request_applied_elsewhere_is_answered_not_applied_again_from_a_stale_cache(
    shared_store: StoreUnderTest,
):
    ahead, behind = shared_store.games(), shared_store.games()
    game_id = _game(ahead)
    behind.state(game_id)
    seat = to_move(ahead.state(game_id).table)
    request = IdempotentRequest(seat=seat, key="draw-1", digest="draw from the stock")
    first = act(ahead, game_id, seat, [STOCK], request=request)

    again = act(behind, game_id, seat, [STOCK], request=request)

    assert again == first
    assert len(ahead.events_after(game_id)) == first


def test_a_query_reads_what_another_writer_stored(stale):
    ahead, behind, game_id, cached = stale
    assert behind.state(game_id) == ahead.state(game_id)
    assert behind.state(game_id).version > cached.version


def test_a_game_read_once_is_not_changed_by_later_commands(shared_store: StoreUnderTest):
    # Readers share the cached game without a copy: commands must never change it.
    games = shared_store.games()
    game_id = _game(games)
    before = games.state(game_id)
    hands = [list(held) for held in before.table.hand.hands] if before.table.hand else []

    after = play_moves(games, game_id, Player(random.Random(3)), 6)
    with pytest.raises(IllegalMove):
        act(games, game_id, (to_move(after.table) + 1) % 2, [STOCK])

    assert before == games.state(game_id, version=before.version)
    assert before.table.hand is not None
    assert [list(held) for held in before.table.hand.hands] == hands
    assert after == games.state(game_id)


def test_on_sqlite_a_query_asks_the_library_only_when_the_store_has_newer_events(
    sqlite_store: StoreUnderTest,
):
    # The cheap check (service/store/freshness.py) stands in for the library's read
    # when nothing is newer; when something is, the library reads it as before.
    ahead, behind = sqlite_store.games(), sqlite_store.games()
    game_id = _game(ahead)
    cached = behind.state(game_id)
    reads: list[int] = []
    select = behind.recorder.select_events

    def counted(*args, **kwargs):
        reads.append(1)
        return select(*args, **kwargs)

    behind.recorder.select_events = counted  # type: ignore[method-assign]
    for _ in range(5):
        assert behind.state(game_id) == cached
    assert reads == [], "nothing newer: the library was not asked"

    play_moves(ahead, game_id, Player(random.Random(3)), 2)
    assert behind.state(game_id) == ahead.state(game_id)
    assert reads, "something newer: the library read it"
