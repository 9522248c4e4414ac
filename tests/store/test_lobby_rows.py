"""The lobby on every store: which games it lists, its order and paging, and that it
stays right when a process dies after saving or when replicas share it."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from service.domain.rule_values import Variant
from service.domain.rules import RuleSet
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.store import lobby_store
from service.store.lobby_rows import Cursor, LobbyQuery, OpenGame
from tests.game.stores import StoreUnderTest


def _open(games: RummyApplication, seats: int, named: int = 0, **options: object) -> UUID:
    wanted: list[NewSeat | None] = [NewSeat(f"p{seat}") for seat in range(named)]
    wanted += [None] * (seats - named)
    return games.create_game(NewGame(seats=wanted, **options)).game_id  # type: ignore[arg-type]


def _all(games: RummyApplication, **query: object) -> list[OpenGame]:
    """Every game the lobby lists, page by page (`limit` per page)."""
    listed: list[OpenGame] = []
    after: Cursor | None = None
    while True:
        page = games.lobby_page(LobbyQuery(after=after, **query))  # type: ignore[arg-type]
        listed += page.games
        if page.next is None:
            return listed
        after = page.next


def test_lists_games_with_open_seats_newest_first(games: RummyApplication):
    first = _open(games, 3, named=1)
    second = _open(games, 2)

    listed = _all(games)

    assert [game.game_id for game in listed] == [second, first]
    older = listed[1]
    assert (older.seats, older.seats_taken, older.open_seats) == (3, 1, 2)
    assert [None if seat is None else seat.name for seat in older.players] == ["p0", None, None]
    assert older.rules == RuleSet().shown()
    assert listed[0].created_at >= older.created_at


def test_leaves_out_full_and_unlisted_games(games: RummyApplication):
    _open(games, 2, named=2)
    _open(games, 3, unlisted=True)
    listed = _open(games, 3)

    assert [game.game_id for game in _all(games)] == [listed]


def test_a_join_takes_a_seat_and_the_last_seat_removes_the_game(games: RummyApplication):
    game_id = _open(games, 3, named=1)

    games.join_game(game_id, NewSeat("bob"))
    (listed,) = _all(games)
    assert (listed.seats_taken, listed.open_seats) == (2, 1)
    assert [None if seat is None else seat.name for seat in listed.players] == [
        "p0",
        "bob",
        None,
    ]

    games.join_game(game_id, NewSeat("cleo"))
    assert _all(games) == []
    assert games.state(game_id).table.hand_number == 1, "the last seat dealt"


def test_an_unlisted_game_is_still_joined_by_its_id(games: RummyApplication):
    game_id = _open(games, 2, unlisted=True)
    assert games.join_game(game_id, NewSeat("bob")).seat == 0
    assert _all(games) == []


def test_filters_by_variant_seats_and_open_seats(games: RummyApplication):
    knock = _open(games, 3, rules=RuleSet.from_dict({"variant": "knock"}, players=3))
    two = _open(games, 2)
    almost = _open(games, 4, named=3)

    assert [game.game_id for game in _all(games, variant=Variant.KNOCK.value)] == [knock]
    assert [game.game_id for game in _all(games, players=2)] == [two]
    assert {game.game_id for game in _all(games, min_open=2)} == {knock, two}
    assert {game.game_id for game in _all(games)} == {knock, two, almost}


def test_pages_hold_every_game_once_in_order(games: RummyApplication):
    made = [_open(games, 2) for _ in range(7)]

    listed = _all(games, limit=3)

    assert [game.game_id for game in listed] == made[::-1]


def test_paging_is_stable_while_games_are_created(games: RummyApplication):
    before = [_open(games, 2) for _ in range(10)]
    seen: list[UUID] = []
    after: Cursor | None = None
    while True:
        page = games.lobby_page(LobbyQuery(limit=3, after=after))
        seen += [game.game_id for game in page.games]
        # Between every two pages, new tables open (newer than any listed).
        _open(games, 2)
        _open(games, 3)
        if page.next is None:
            break
        after = page.next

    assert sorted(seen) == sorted(before)
    assert len(seen) == len(set(seen))
    assert seen == before[::-1]


def test_a_dead_process_loses_nothing_the_next_one_reads_on(shared_store: StoreUnderTest):
    # The lobby is read up to a stored position with its rows in one transaction:
    # events saved by a process that never read the lobby are read by the next one.
    writer = shared_store.games()
    listed = _open(writer, 2)
    joined = _open(writer, 3)
    writer.join_game(joined, NewSeat("bob"))
    writer.close()

    reader = shared_store.games()

    found = {game.game_id: game for game in _all(reader)}
    assert set(found) == {listed, joined}
    assert found[joined].seats_taken == 1


def test_replicas_see_the_same_lobby(shared_store: StoreUnderTest):
    one, two = shared_store.games(), shared_store.games()
    made = [_open(one, 2), _open(two, 3), _open(one, 4)]
    assert [game.game_id for game in _all(one)] == made[::-1]
    two.join_game(made[0], NewSeat("bob"))
    two.join_game(made[0], NewSeat("cleo"))

    assert [game.game_id for game in _all(one)] == made[:0:-1]
    assert [game.game_id for game in _all(two)] == made[:0:-1]


def test_a_cursor_it_did_not_make_is_refused():
    from service.store.lobby_rows import BadCursor

    cursor = Cursor(1_796_146_304_110_288, UUID(int=7))
    assert Cursor.decode(cursor.encode()) == cursor
    for bad in ("", "zzz", "12.abc", f"-1.{'0' * 32}", f"1.{'A' * 32}", f"1{'0' * 18}.{'0' * 32}"):
        with pytest.raises(BadCursor):
            Cursor.decode(bad)


def test_replicas_reading_and_writing_at_once_lose_no_event(
    shared_store: StoreUnderTest,
):
    # Every reader catches the lobby up; two replicas' readers race to move the one
    # stored position. A creation or a join lost in the race shows in the rows.
    replicas = [shared_store.games(), shared_store.games()]
    made: list[UUID] = []
    errors: list[BaseException] = []

    def work(number: int) -> None:
        games = replicas[number % 2]
        try:
            for _ in range(6):
                game_id = _open(games, 3)
                made.append(game_id)
                games.join_game(game_id, NewSeat(f"w{number}"))
                games.lobby_page(LobbyQuery())
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for games in replicas:
        listed = _all(games, limit=7)
        assert sorted(game.game_id for game in listed) == sorted(made)
        assert {(game.seats_taken, game.open_seats) for game in listed} == {(1, 2)}


def test_a_catch_up_that_fails_half_way_changes_nothing(
    shared_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    # The position moves first in the catch-up's transaction, then the rows: a
    # process that dies in between must leave both as they were, or the games it
    # was reading would never be listed.
    games = shared_store.games()
    first = _open(games, 2)
    assert [game.game_id for game in _all(games)] == [first]
    second = _open(games, 3)

    def dies(*_: object) -> None:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(lobby_store, "fold", dies)
    with pytest.raises(RuntimeError):
        games.lobby_page(LobbyQuery())
    monkeypatch.undo()

    assert [game.game_id for game in _all(shared_store.games())] == [second, first]


def test_a_long_backlog_is_read_over_several_listings(
    games: RummyApplication, monkeypatch: pytest.MonkeyPatch
):
    # A store upgraded with many games stored: each listing reads a bounded part of
    # the backlog, oldest first, and the listings after it read on.
    made = [_open(games, 2) for _ in range(7)]
    monkeypatch.setattr(lobby_store, "BATCH", 2)
    monkeypatch.setattr(lobby_store, "MAX_BATCHES", 2)

    first = [game.game_id for game in games.lobby_page(LobbyQuery()).games]
    second = [game.game_id for game in games.lobby_page(LobbyQuery()).games]

    assert first == made[3::-1]
    assert second == made[::-1]
