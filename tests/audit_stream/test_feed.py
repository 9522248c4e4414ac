"""The global feed: every event of every game, in commit order, read to the end
across gaps in the positions."""

from __future__ import annotations

import sqlite3
from itertools import pairwise
from typing import Any
from uuid import UUID, uuid4

import httpx
import psycopg
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from psycopg import sql

from service.bootstrap import bootstrap
from service.config import Settings, Store
from service.game.application import RummyApplication
from service.game.event_feed import Feed
from tests.audit_stream.clients import ADMIN_TOKEN, bearer
from tests.audit_stream.conftest import live_settings
from tests.audit_stream.games import new_game, play
from tests.game.stores import StoreUnderTest

ADMIN = bearer(ADMIN_TOKEN)


def make_gap(shared_store: StoreUnderTest, games: RummyApplication) -> None:
    """Use up positions that no event will ever have."""
    settings = shared_store.settings
    table: str = games.recorder.events_table_name  # type: ignore[attr-defined]
    if shared_store.kind is Store.SQLITE:
        # Rows inserted directly, deleted by `drop_gap_rows` once events follow them.
        with sqlite3.connect(settings.sqlite_path) as conn:
            for _ in range(2):
                conn.execute(
                    f"INSERT INTO {table} (originator_id, originator_version, topic, state) "
                    "VALUES (?, 1, 'gap:Gap', x'00')",
                    (uuid4().hex,),
                )
        return
    # PostgreSQL: an insert that is rolled back still uses up its sequence number.
    with psycopg.connect(
        host=settings.postgres_host,
        port=settings.postgres_port,
        user=settings.postgres_user,
        password=settings.postgres_password,
        dbname=settings.postgres_dbname,
    ) as conn:
        for _ in range(3):
            with conn.transaction(force_rollback=True):
                conn.execute(
                    sql.SQL(
                        "INSERT INTO {}.{} (originator_id, originator_version, topic, state) "
                        "VALUES (%s, 1, 'gap:Gap', '\\x00')"
                    ).format(sql.Identifier(settings.postgres_schema), sql.Identifier(table)),
                    (uuid4(),),
                )


def drop_gap_rows(shared_store: StoreUnderTest, games: RummyApplication) -> None:
    if shared_store.kind is Store.SQLITE:
        table: str = games.recorder.events_table_name  # type: ignore[attr-defined]
        with sqlite3.connect(shared_store.settings.sqlite_path) as conn:
            conn.execute(f"DELETE FROM {table} WHERE topic = 'gap:Gap'")


def read_feed(client: TestClient[Litestar] | httpx.Client, limit: int) -> list[dict[str, Any]]:
    """Every item of the feed, page by page, following `next_after` to the end."""
    items: list[dict[str, Any]] = []
    after = 0
    while True:
        page = client.get("/feed", params={"after": after, "limit": limit}, headers=ADMIN).json()
        assert len(page["events"]) <= limit
        items.extend(page["events"])
        if not page["events"]:
            assert page["next_after"] == after
            assert after >= page["last_position"]
            return items
        after = page["next_after"]
        assert after == page["events"][-1]["position"]


def test_the_feed_delivers_every_event_of_every_game_in_commit_order_across_gaps(
    shared_store: StoreUnderTest,
) -> None:
    served = shared_store.bootstrap(live_settings(shared_store.settings))
    games, app = served.games, served.app
    replica = shared_store.games()
    first, _ = new_game(games)
    second, _ = new_game(replica, players=3)
    make_gap(shared_store, games)
    play(games, first, moves=10)
    make_gap(shared_store, games)
    for _ in range(8):  # the two games' moves interleave in the log
        play(replica, second, moves=2)
        play(games, first, moves=1)
    make_gap(shared_store, games)
    third, _ = new_game(replica)
    play(replica, third)
    drop_gap_rows(shared_store, games)

    with TestClient(app) as client:
        items = read_feed(client, limit=7)
        positions = [item["position"] for item in items]
        assert positions == sorted(set(positions)), "in commit order, each once"
        gaps = [b - a for a, b in pairwise(positions) if b - a > 1]
        assert gaps, "the positions really have gaps"
        for game_id in (first, second, third):
            mine = [item["event"] for item in items if item["game_id"] == str(game_id)]
            logged = client.get(f"/games/{game_id}/events", headers=ADMIN).json()["events"]
            assert mine == logged, "every event of the game, as the admin sees it"
        assert len(items) == sum(games.state(game_id).version for game_id in (first, second, third))
        # A cursor in a gap loses nothing either.
        gap_after = next(a + 1 for a, b in pairwise(positions) if b - a > 1)
        page = client.get("/feed", params={"after": gap_after, "limit": 1}, headers=ADMIN).json()
        assert (
            page["events"][0] == items[positions.index(min(p for p in positions if p > gap_after))]
        )


def test_only_the_admin_reads_the_feed(sqlite_store: StoreUnderTest) -> None:
    served = sqlite_store.bootstrap(live_settings(sqlite_store.settings))
    games, app = served.games, served.app
    game_id, tokens = new_game(games)
    with TestClient(app) as client:
        expected = {
            None: (401, "unauthorized"),
            tokens[0]: (403, "forbidden"),
            "not-the-admin-token": (401, "unauthorized"),
        }
        for token, (status, code) in expected.items():
            response = client.get("/feed", headers={} if token is None else bearer(token))
            assert (response.status_code, response.json()["code"]) == (status, code)
        assert client.get("/feed", params={"limit": 0}, headers=ADMIN).status_code == 422
        assert client.get("/feed", params={"after": -1}, headers=ADMIN).status_code == 422
        assert client.get("/feed", headers=ADMIN).json()["events"][0]["game_id"] == str(game_id)


def test_without_an_admin_token_configured_nobody_reads_the_feed(tmp_path: Any) -> None:
    settings = Settings(store=Store.MEMORY)
    app = bootstrap(settings).app
    with TestClient(app) as client:
        assert client.get("/feed", headers=bearer("anything-at-all")).status_code == 401


@pytest.mark.parametrize("limit", [1, 1000])
def test_the_feed_of_an_empty_store_is_empty(limit: int) -> None:
    settings = Settings(store=Store.MEMORY, admin_token=ADMIN_TOKEN)
    app = bootstrap(settings).app
    with TestClient(app) as client:
        page = client.get("/feed", params={"limit": limit}, headers=ADMIN).json()
        assert page == {"events": [], "next_after": 0, "last_position": 0}


def test_feed_entries_name_their_game(sqlite_store: StoreUnderTest) -> None:
    games = sqlite_store.games()
    game_id, _ = new_game(games)
    entries = Feed.of(games).page(0, 100)
    assert {entry.game_id for entry in entries} == {game_id}
    assert isinstance(entries[0].game_id, UUID)
    assert [entry.event.originator_version for entry in entries] == [1, 2]
