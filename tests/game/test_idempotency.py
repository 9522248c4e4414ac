"""Idempotent requests: a retried request applies once and answers the same."""

from __future__ import annotations

from typing import Any

import pytest

from service.domain.actions import Action, Discard
from service.domain.cards import Card
from service.domain.errors import NotYourTurn, WrongPhase
from service.domain.turns import is_legal
from service.game.aggregate import IdempotentRequest
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import IdempotencyKeyReused, VersionConflict
from tests.game.players import DECK, STOCK, act
from tests.game.stores import StoreUnderTest

TURN: list[Action] = [STOCK, Discard(Card.parse("5S"))]
"""Seat 1's first turn: draw 5S, discard it."""


def new_game(games: RummyApplication):
    return games.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], seed="idem", decks=[DECK], dealer=0)
    ).game_id


def test_the_same_request_twice_applies_once_and_returns_the_same_version(games: RummyApplication):
    game_id = new_game(games)
    request = IdempotentRequest(seat=1, key="turn-1", digest="d1")
    first = act(games, game_id, 1, TURN, request=request)
    stored = games.events_after(game_id)

    again = act(games, game_id, 1, TURN, request=request)

    assert again == first
    assert games.events_after(game_id) == stored


def test_a_request_repeated_after_the_game_moved_on_still_returns_its_version(
    games: RummyApplication,
):
    game_id = new_game(games)
    request = IdempotentRequest(seat=1, key="turn-1", digest="d1")
    first = act(games, game_id, 1, TURN, request=request)
    later = act(games, game_id, 0, [STOCK])
    stored = games.events_after(game_id)

    # Even with an If-Match that is stale by now: the retry is answered, not refused.
    again = act(games, game_id, 1, TURN, request=request, expected_version=first)

    assert again == first < later
    assert games.events_after(game_id) == stored


def test_the_same_key_with_a_different_body_is_refused(games: RummyApplication):
    game_id = new_game(games)
    act(games, game_id, 1, TURN, request=IdempotentRequest(seat=1, key="k", digest="d1"))
    stored = games.events_after(game_id)

    with pytest.raises(IdempotencyKeyReused) as reused:
        act(games, game_id, 1, [STOCK], request=IdempotentRequest(seat=1, key="k", digest="d2"))

    assert reused.value.code == "idempotency_key_reused"
    assert games.events_after(game_id) == stored


def test_the_same_key_from_another_seat_is_another_request(games: RummyApplication):
    game_id = new_game(games)
    first = act(games, game_id, 1, TURN, request=IdempotentRequest(seat=1, key="k", digest="d"))

    second = act(games, game_id, 0, [STOCK], request=IdempotentRequest(seat=0, key="k", digest="d"))

    assert second == first + 1
    assert games.state(game_id).version == second


def test_a_refused_request_repeated_after_the_game_moved_on_is_refused_alike(
    games: RummyApplication,
):
    game_id = new_game(games)
    early = IdempotentRequest(seat=0, key="k", digest="draw")
    with pytest.raises(NotYourTurn) as first:
        act(games, game_id, 0, [STOCK], request=early)
    act(games, game_id, 1, TURN)
    stored = games.events_after(game_id)
    assert is_legal(games.state(game_id).table, 0, STOCK), "now the same draw would be legal"

    with pytest.raises(NotYourTurn) as again:
        act(games, game_id, 0, [STOCK], request=early)

    assert again.value.message == first.value.message
    assert games.events_after(game_id) == stored
    # Another key is another request: the draw itself was never barred.
    assert (
        act(games, game_id, 0, [STOCK], request=IdempotentRequest(0, "k2", "draw"))
        == len(stored) + 1
    )


def test_a_refused_key_may_not_be_reused_for_a_different_request(games: RummyApplication):
    game_id = new_game(games)
    with pytest.raises(WrongPhase):
        act(
            games,
            game_id,
            1,
            TURN[1:],
            request=IdempotentRequest(seat=1, key="k", digest="discard first"),
        )
    stored = games.events_after(game_id)

    with pytest.raises(IdempotencyKeyReused):
        act(
            games, game_id, 1, TURN, request=IdempotentRequest(seat=1, key="k", digest="whole turn")
        )

    assert games.events_after(game_id) == stored


def count_kept(games: RummyApplication, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every refusal record the application writes from now on, as it writes it."""
    written: list[object] = []
    insert = games.refusals.recorder.insert_events

    def counting(records: Any, **kwargs: Any) -> Any:
        written.extend(records)
        return insert(records, **kwargs)

    monkeypatch.setattr(games.refusals.recorder, "insert_events", counting)
    return written


def test_a_refusal_is_not_kept_without_a_key_and_a_stale_if_match_is_not_kept_at_all(
    games: RummyApplication, monkeypatch: pytest.MonkeyPatch
):
    game_id = new_game(games)
    written = count_kept(games, monkeypatch)
    request = IdempotentRequest(seat=1, key="k", digest="turn")
    with pytest.raises(NotYourTurn):
        act(games, game_id, 0, [STOCK])
    with pytest.raises(VersionConflict):
        act(games, game_id, 1, TURN, request=request, expected_version=0)

    assert written == []
    # A stale If-Match is a precondition of the moment, not the request's outcome.
    assert act(games, game_id, 1, TURN, request=request) == 4


def test_a_refusal_is_kept_once_however_often_it_is_retried(
    games: RummyApplication, monkeypatch: pytest.MonkeyPatch
):
    game_id = new_game(games)
    written = count_kept(games, monkeypatch)
    request = IdempotentRequest(seat=0, key="k", digest="draw")
    for _ in range(3):
        with pytest.raises(NotYourTurn):
            act(games, game_id, 0, [STOCK], request=request)
    act(games, game_id, 1, TURN)
    with pytest.raises(NotYourTurn):
        act(games, game_id, 0, [STOCK], request=request)

    assert len(written) == 1


def test_a_refusal_holds_on_every_replica_and_after_a_restart(shared_store: StoreUnderTest):
    first = shared_store.games()
    game_id = new_game(first)
    early = IdempotentRequest(seat=0, key="k", digest="draw")
    with pytest.raises(NotYourTurn):
        act(first, game_id, 0, [STOCK], request=early)
    act(first, game_id, 1, TURN)
    first.close()

    other = shared_store.games()
    with pytest.raises(NotYourTurn):
        act(other, game_id, 0, [STOCK], request=early)
    assert other.state(game_id).version == 4


def test_only_a_refusal_by_the_game_as_stored_is_kept(shared_store: StoreUnderTest):
    ahead, behind = shared_store.games(), shared_store.games()
    game_id = new_game(ahead)
    behind.state(game_id)  # behind caches the game with seat 1 to move
    act(ahead, game_id, 1, TURN)
    request = IdempotentRequest(seat=0, key="k", digest="draw")

    # On behind's cached copy it is not seat 0's turn; as stored, it is.
    assert act(behind, game_id, 0, [STOCK], request=request) == 5

    assert behind.refusals.find(game_id, request) is None
    assert ahead.state(game_id).version == 5


def test_the_first_refusal_kept_for_a_key_stands(games: RummyApplication):
    game_id = new_game(games)
    request = IdempotentRequest(seat=0, key="k", digest="draw")
    kept = games.refusals.keep(game_id, request, NotYourTurn("first"))

    again = games.refusals.keep(game_id, request, WrongPhase("second"))

    assert again == kept == games.refusals.find(game_id, request)
    assert (kept.code, kept.message) == ("not_your_turn", "first")
