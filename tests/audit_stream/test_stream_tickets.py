"""The live stream opened with a stream ticket (as a browser's EventSource must), over
a real server: once per ticket, for its game and holder only, never in a log, and
honoured by another replica of the service."""

from __future__ import annotations

import logging
import time
from typing import Any
from uuid import UUID

import httpx
import pytest

from service.api.transport.access_log import JsonFormatter
from tests.audit_stream.clients import ADMIN_TOKEN, Message, bearer, sse
from tests.audit_stream.conftest import served
from tests.audit_stream.test_stream import CLASSIC_TWO_HANDS, events_of
from tests.game.stores import StoreUnderTest


def new_game(client: httpx.Client) -> tuple[UUID, list[str]]:
    created = client.post("/games", json=CLASSIC_TWO_HANDS).json()
    return UUID(created["game_id"]), [player["token"] for player in created["players"]]


def ticket_for(client: httpx.Client, game_id: UUID, token: str) -> str:
    response = client.post(f"/games/{game_id}/stream-tickets", headers=bearer(token))
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    assert response.json()["expires_in"] == 60
    ticket: str = response.json()["ticket"]
    return ticket


def first_events(
    client: httpx.Client,
    game_id: UUID,
    count: int,
    headers: dict[str, str] | None = None,
    **query: Any,
) -> list[Message]:
    """The first `count` event messages of a stream, which is then closed."""
    got: list[Message] = []
    path = f"/games/{game_id}/stream"
    with client.stream("GET", path, params=query, headers=headers or {}) as response:
        assert response.status_code == 200, response.read()
        for message in sse(response):
            if message.id is not None:
                got.append(message)
            if len(got) == count:
                break
    return got


def opening(
    client: httpx.Client, game_id: UUID, headers: dict[str, str] | None = None, **query: str
) -> httpx.Response:
    """The answer to opening the stream; a stream (200) is closed unread, so a test
    that expected a refusal fails instead of reading on."""
    path = f"/games/{game_id}/stream"
    with client.stream("GET", path, params=query, headers=headers or {}) as response:
        if response.status_code != 200:
            response.read()
    return response


def assert_refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.status_code
    assert response.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code
    return problem


def test_a_ticket_opens_the_stream_its_token_would_once(sqlite_store: StoreUnderTest) -> None:
    with served(sqlite_store) as (_, client):
        game_id, tokens = new_game(client)
        ticket = ticket_for(client, game_id, tokens[1])
        version = client.get(f"/games/{game_id}").json()["version"]

        got = first_events(client, game_id, version, ticket=ticket)

        assert [m.data for m in got] == events_of(client, game_id, bearer(tokens[1]))
        again = opening(client, game_id, ticket=ticket)
        problem = assert_refused(again, 401, "stream_ticket_invalid")
        assert "stream-tickets" in problem["detail"]
        assert again.headers["www-authenticate"].startswith("Bearer")


def test_a_ticket_shown_after_its_time_to_live_opens_nothing(
    sqlite_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    with served(sqlite_store) as (wiring, client):
        game_id, tokens = new_game(client)
        ticket = ticket_for(client, game_id, tokens[0])
        issued = time.time()
        # As if the client had waited the whole time to live before opening the stream.
        monkeypatch.setattr(wiring.games.stream_tickets, "now", lambda: issued + 60)
        response = opening(client, game_id, ticket=ticket)
        assert_refused(response, 401, "stream_ticket_invalid")


def test_a_ticket_for_another_game_is_403_and_left_unused(sqlite_store: StoreUnderTest) -> None:
    with served(sqlite_store) as (_, client):
        game_id, tokens = new_game(client)
        other_id, _ = new_game(client)
        ticket = ticket_for(client, game_id, tokens[0])
        wrong = opening(client, other_id, ticket=ticket)
        assert_refused(wrong, 403, "forbidden")
        # Refused there, it still opens its own game's stream, once.
        version = client.get(f"/games/{game_id}").json()["version"]
        got = first_events(client, game_id, version, ticket=ticket)
        assert [m.data for m in got] == events_of(client, game_id, bearer(tokens[0]))
        again = opening(client, game_id, ticket=ticket)
        assert_refused(again, 401, "stream_ticket_invalid")


def test_a_ticket_speaks_for_its_seat_only(sqlite_store: StoreUnderTest) -> None:
    with served(sqlite_store) as (_, client):
        game_id, tokens = new_game(client)
        ticket = ticket_for(client, game_id, tokens[1])

        # A ticket with another seat's token could name two callers: refused.
        both = opening(client, game_id, bearer(tokens[0]), ticket=ticket)
        assert_refused(both, 401, "unauthorized")
        # A token where a ticket goes is refused, saying why.
        token = opening(client, game_id, ticket=tokens[0])
        assert "never be put in a URL" in assert_refused(token, 401, "unauthorized")["detail"]

        deal = first_events(client, game_id, 2, ticket=ticket)[1]
        assert deal.data is not None
        assert deal.data["type"] == "hand_dealt"
        hand = client.get(f"/games/{game_id}", headers=bearer(tokens[1])).json()["my_hand"]
        assert sorted(deal.data["my_cards"]) == sorted(hand), "seat 1's own cards"


def test_the_admin_may_have_a_ticket_and_the_public_needs_none(
    sqlite_store: StoreUnderTest,
) -> None:
    with served(sqlite_store) as (_, client):
        game_id, _ = new_game(client)
        _, other_tokens = new_game(client)
        ticket = ticket_for(client, game_id, ADMIN_TOKEN)
        deal = first_events(client, game_id, 2, ticket=ticket)[1].data
        assert deal is not None
        assert len(deal["deck"]) == 52, "the admin's view of the deal"

        path = f"/games/{game_id}/stream-tickets"
        assert_refused(client.post(path), 401, "unauthorized")
        assert_refused(client.post(path, headers=bearer("not-a-token")), 401, "unauthorized")
        assert_refused(client.post(path, headers=bearer(other_tokens[0])), 403, "forbidden")
        missing = client.post(f"/games/{UUID(int=1)}/stream-tickets", headers=bearer(ADMIN_TOKEN))
        assert_refused(missing, 404, "not_found")


def test_a_ticket_minted_by_one_replica_opens_a_stream_on_another_once(
    shared_store: StoreUnderTest,
) -> None:
    with served(shared_store) as (_, first), served(shared_store) as (_, second):
        game_id, tokens = new_game(first)
        ticket = ticket_for(first, game_id, tokens[0])
        got = first_events(second, game_id, 2, ticket=ticket)
        assert [m.id for m in got] == [1, 2]
        for replica in (first, second):
            again = opening(replica, game_id, ticket=ticket)
            assert_refused(again, 401, "stream_ticket_invalid")


class Lines(logging.Handler):
    """Every record logged in this process, as the service's formatter writes it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_a_ticket_in_a_query_string_never_reaches_a_log(sqlite_store: StoreUnderTest) -> None:
    lines = Lines()
    with served(sqlite_store) as (_, client):
        # After the app set up its logging, which replaces the root's handlers.
        logging.getLogger().addHandler(lines)
        try:
            game_id, tokens = new_game(client)
            ticket = ticket_for(client, game_id, tokens[0])
            first_events(client, game_id, 1, ticket=ticket)
            opening(client, game_id, ticket=ticket)  # 401, spent
        finally:
            logging.getLogger().removeHandler(lines)
    # httpx, in this process, logs each URL it asks for: the ticket in it is masked.
    assert any("ticket=***" in line for line in lines.lines), lines.lines
    assert not [line for line in lines.lines if ticket.removeprefix("st_") in line]
