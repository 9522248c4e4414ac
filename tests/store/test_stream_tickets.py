"""Stream tickets in the event store's database: single use, short-lived, only a hash
kept, and honoured by every replica on a shared store, exactly once."""

from __future__ import annotations

import re
import threading
from typing import Any
from uuid import uuid4

from eventsourcing.postgres import PostgresRecorder
from eventsourcing.sqlite import SQLiteRecorder
from psycopg.sql import SQL, Identifier

from service.game.application import RummyApplication
from service.game.tokens import hash_token
from service.store.stream_tickets import SWEEP_SECONDS, TABLE, TICKET_PATTERN, Grant, StreamTickets
from tests.game.stores import StoreUnderTest


class SetSeconds:
    """A time source (seconds) the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def stored(games: RummyApplication, tickets: StreamTickets) -> list[tuple[Any, ...]]:
    """Every row the ticket table holds, whatever the store."""
    recorder = games.recorder
    if isinstance(recorder, SQLiteRecorder):
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT * FROM {TABLE}")
            return [tuple(row) for row in cursor.fetchall()]
    if isinstance(recorder, PostgresRecorder):
        query = SQL("SELECT * FROM {}").format(Identifier(recorder.datastore.schema, TABLE))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(query)
            return [tuple(row.values()) for row in cursor.fetchall()]
    return [(key, grant) for key, grant in vars(tickets.table)["_grants"].items()]


def test_a_ticket_opens_once_for_its_game_and_seat(games: RummyApplication) -> None:
    clock = SetSeconds()
    tickets = StreamTickets(games.recorder, clock)
    game_id = uuid4()
    seat_ticket = tickets.issue(game_id, 1, 60)
    admin_ticket = tickets.issue(game_id, None, 60)
    assert seat_ticket != admin_ticket
    assert tickets.redeem(seat_ticket, game_id) == Grant(game_id, 1, clock.now + 60)
    assert tickets.redeem(seat_ticket, game_id) is None, "spent"
    assert tickets.redeem(admin_ticket, game_id) == Grant(game_id, None, clock.now + 60)
    assert tickets.redeem("st_" + "A" * 43, game_id) is None


def test_a_ticket_shown_to_another_game_is_left_unused(games: RummyApplication) -> None:
    clock = SetSeconds()
    tickets = StreamTickets(games.recorder, clock)
    game_id, other_id = uuid4(), uuid4()
    ticket = tickets.issue(game_id, 1, 60)
    grant = Grant(game_id, 1, clock.now + 60)
    assert tickets.redeem(ticket, other_id) == grant, "answered, for the caller to refuse"
    assert len(stored(games, tickets)) == 1, "not spent"
    assert tickets.redeem(ticket, game_id) == grant
    assert tickets.redeem(ticket, game_id) is None, "spent on its own game"
    assert stored(games, tickets) == []


def test_a_ticket_expires_after_its_time_to_live(games: RummyApplication) -> None:
    clock = SetSeconds()
    tickets = StreamTickets(games.recorder, clock)
    game_id = uuid4()
    in_time, too_late = tickets.issue(game_id, 0, 60), tickets.issue(game_id, 0, 60)
    clock.now += 59.9
    assert tickets.redeem(in_time, game_id) is not None
    clock.now += 0.1
    assert tickets.redeem(too_late, game_id) is None
    assert stored(games, tickets) == [], "an expired ticket shown is gone as well"


def test_only_a_hash_of_a_ticket_is_stored(store: StoreUnderTest) -> None:
    games = store.games()
    tickets = StreamTickets(games.recorder, SetSeconds())
    ticket = tickets.issue(uuid4(), 0, 60)
    rows = repr(stored(games, tickets))
    assert hash_token(ticket) in rows
    assert ticket not in rows
    assert ticket.removeprefix("st_") not in rows
    assert re.fullmatch(TICKET_PATTERN, ticket)


def test_expired_tickets_nobody_used_are_swept_by_a_later_one(games: RummyApplication) -> None:
    clock = SetSeconds()
    tickets = StreamTickets(games.recorder, clock)
    game_id = uuid4()
    for _ in range(3):
        tickets.issue(game_id, 0, 30)
    assert len(stored(games, tickets)) == 3
    clock.now += SWEEP_SECONDS
    kept = tickets.issue(game_id, 0, 30)
    assert len(stored(games, tickets)) == 1
    assert tickets.redeem(kept, game_id) is not None


def test_a_ticket_minted_by_one_replica_opens_on_another_once(
    shared_store: StoreUnderTest,
) -> None:
    minting, other = shared_store.games(), shared_store.games()
    game_id = uuid4()
    ticket = minting.stream_tickets.issue(game_id, 2, 60)
    grant = other.stream_tickets.redeem(ticket, game_id)
    assert grant is not None
    assert (grant.game_id, grant.seat) == (game_id, 2)
    assert minting.stream_tickets.redeem(ticket, game_id) is None
    assert other.stream_tickets.redeem(ticket, game_id) is None


def test_two_replicas_shown_the_same_tickets_at_once_open_each_exactly_once(
    shared_store: StoreUnderTest,
) -> None:
    replicas = [shared_store.games(), shared_store.games()]
    game_id = uuid4()
    tickets = [replicas[0].stream_tickets.issue(game_id, 0, 60) for _ in range(20)]
    won: list[list[str]] = [[], []]
    start = threading.Barrier(2)

    def redeem_all(index: int) -> None:
        start.wait()
        for ticket in tickets:
            if replicas[index].stream_tickets.redeem(ticket, game_id) is not None:
                won[index].append(ticket)

    threads = [threading.Thread(target=redeem_all, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(won[0] + won[1]) == sorted(tickets), "each ticket opened exactly once"
