"""Idempotent requests: a retried request applies once and answers the same."""

from __future__ import annotations

import pytest

from service.domain.actions import Action, Discard
from service.domain.cards import Card
from service.domain.errors import WrongPhase
from service.game.aggregate import Request
from service.game.application import NewGame, NewSeat, RummyApplication
from service.game.errors import IdempotencyKeyReused
from tests.game.players import DECK, STOCK

TURN: list[Action] = [STOCK, Discard(Card.parse("5S"))]
"""Seat 1's first turn: draw 5S, discard it."""


def new_game(app: RummyApplication):
    return app.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], seed="idem", decks=[DECK], dealer=0)
    ).game_id


def test_the_same_request_twice_applies_once_and_returns_the_same_version(app: RummyApplication):
    game_id = new_game(app)
    request = Request(seat=1, key="turn-1", digest="d1")
    first = app.act(game_id, 1, TURN, request=request)
    stored = app.events_after(game_id)

    again = app.act(game_id, 1, TURN, request=request)

    assert again == first
    assert app.events_after(game_id) == stored


def test_a_request_repeated_after_the_game_moved_on_still_returns_its_version(
    app: RummyApplication,
):
    game_id = new_game(app)
    request = Request(seat=1, key="turn-1", digest="d1")
    first = app.act(game_id, 1, TURN, request=request)
    later = app.act(game_id, 0, [STOCK])
    stored = app.events_after(game_id)

    # Even with an If-Match that is stale by now: the retry is answered, not refused.
    again = app.act(game_id, 1, TURN, request=request, expected_version=first)

    assert again == first < later
    assert app.events_after(game_id) == stored


def test_the_same_key_with_a_different_body_is_refused(app: RummyApplication):
    game_id = new_game(app)
    app.act(game_id, 1, TURN, request=Request(seat=1, key="k", digest="d1"))
    stored = app.events_after(game_id)

    with pytest.raises(IdempotencyKeyReused) as reused:
        app.act(game_id, 1, [STOCK], request=Request(seat=1, key="k", digest="d2"))

    assert reused.value.code == "idempotency_key_reused"
    assert app.events_after(game_id) == stored


def test_the_same_key_from_another_seat_is_another_request(app: RummyApplication):
    game_id = new_game(app)
    first = app.act(game_id, 1, TURN, request=Request(seat=1, key="k", digest="d"))

    second = app.act(game_id, 0, [STOCK], request=Request(seat=0, key="k", digest="d"))

    assert second == first + 1
    assert app.state(game_id).version == second


def test_a_refused_request_leaves_nothing_to_remember_it_by(app: RummyApplication):
    game_id = new_game(app)
    with pytest.raises(WrongPhase):
        app.act(game_id, 1, TURN[1:], request=Request(seat=1, key="k", digest="discard first"))

    # The key was never applied, so it is free for the corrected request.
    version = app.act(game_id, 1, TURN, request=Request(seat=1, key="k", digest="whole turn"))

    assert version == app.state(game_id).version == 4
