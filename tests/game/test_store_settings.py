"""The settings choose the store and the aggregate cache the application runs on."""

from __future__ import annotations

from pathlib import Path

import pytest
from eventsourcing.application import LRUCache
from eventsourcing.popo import POPOApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder

from service.bootstrap import open_games
from service.config import Settings, Store
from service.game.application import RummyApplication


def _games(settings: Settings) -> RummyApplication:
    return open_games(settings)


@pytest.mark.parametrize(
    ("store", "recorder"),
    [(Store.MEMORY, POPOApplicationRecorder), (Store.SQLITE, SQLiteApplicationRecorder)],
)
def test_the_store_setting_chooses_the_recorder(tmp_path: Path, store: Store, recorder: type):
    games = _games(Settings(store=store, sqlite_path=str(tmp_path / "games.sqlite")))
    assert isinstance(games.recorder, recorder)
    games.close()


def test_the_sqlite_store_is_the_file_named(tmp_path: Path):
    path = tmp_path / "games.sqlite"
    _games(Settings(store=Store.SQLITE, sqlite_path=str(path))).close()
    assert path.exists()


def test_the_cache_holds_as_many_games_as_set(tmp_path: Path):
    games = _games(Settings(store=Store.MEMORY, aggregate_cache_size=7))
    cache = games.repository.cache
    assert isinstance(cache, LRUCache)
    assert cache.maxsize == 7
    assert not games.repository.fastforward, "the application brings copies up to date itself"
    assert games.snapshots is None


def test_the_librarys_in_place_fast_forward_cannot_be_turned_on(monkeypatch: pytest.MonkeyPatch):
    # It would change cached games that readers share without a copy.
    monkeypatch.setenv("RUMMY_AGGREGATE_CACHE_FASTFORWARD", "y")
    with pytest.raises(ValueError, match="FASTFORWARD"):
        _games(Settings(store=Store.MEMORY))


def test_a_cache_size_of_zero_turns_the_cache_off():
    # The library alone would read 0 as a cache without any limit.
    games = _games(Settings(store=Store.MEMORY, aggregate_cache_size=0))
    assert games.repository.cache is None
