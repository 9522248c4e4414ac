"""Seats, tokens and the seed: what is stored, what a state shows."""

from __future__ import annotations

import dataclasses
import hashlib

from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_records import GameCreated, PlayerJoined
from service.game.results import GameState
from service.game.tokens import hash_token
from tests.fairness_oracle import commitment as oracle_commitment
from tests.fairness_oracle import creation_rules


def _everything_in(state: GameState) -> str:
    """Every value a state holds but the token hashes it keeps to authenticate
    players (`GameState.seat_of`), as text, to search for what must not be there."""
    return repr(dataclasses.replace(state, token_hashes=()))


def test_each_token_finds_its_own_seat_and_no_other(games: RummyApplication):
    created = games.create_game(
        NewGame(seats=[NewSeat("ann"), None, NewSeat("cy")], seed="t", by_admin=True)
    )
    joined = games.join_game(created.game_id, NewSeat("bob"))
    tokens = {**created.tokens, joined.seat: joined.token}
    assert set(tokens) == {0, 1, 2}
    assert len(set(tokens.values())) == 3

    for seat, token in tokens.items():
        assert games.state(created.game_id).seat_of(token) == seat
    assert games.state(created.game_id).seat_of("not-a-token") is None
    assert games.state(created.game_id).seat_of(hash_token(tokens[0])) is None, (
        "the hash is no token"
    )
    other = games.create_game(NewGame(seats=[NewSeat("x"), NewSeat("y")]))
    assert games.state(other.game_id).seat_of(tokens[0]) is None


def test_only_token_hashes_are_stored_and_no_state_shows_either(games: RummyApplication):
    created = games.create_game(NewGame(seats=[NewSeat("ann"), None]))
    joined = games.join_game(created.game_id, NewSeat("bob"))
    tokens = [created.tokens[0], joined.token]
    hashes = [hashlib.sha256(token.encode()).hexdigest() for token in tokens]

    events = games.events_after(created.game_id)
    stored = repr([vars(event) for event in events])
    for token, token_hash in zip(tokens, hashes, strict=True):
        assert token not in stored
        assert token_hash in stored
    created_event, joined_event = events[0], events[1]
    assert isinstance(created_event, GameCreated)
    assert created_event.seats[0] is not None
    assert created_event.seats[0]["token_hash"] == hashes[0]
    assert isinstance(joined_event, PlayerJoined)
    assert joined_event.token_hash == hashes[1]

    for version in range(1, games.state(created.game_id).version + 1):
        state = games.state(created.game_id, version=version)
        assert all(token not in repr(state) for token in tokens)
        shown = _everything_in(state)
        assert all(token_hash not in shown for token_hash in hashes)
    assert games.state(created.game_id).token_hashes == tuple(hashes)


def test_the_seed_is_kept_and_committed_to_with_the_rules(games: RummyApplication):
    created = games.create_game(NewGame(seats=[NewSeat("ann"), NewSeat("bob")], seed="s3cr3t"))
    state = games.state(created.game_id)
    assert state.seed == "s3cr3t"
    rules = creation_rules(games, created.game_id)
    assert state.seed_commitment == oracle_commitment("s3cr3t", rules)
    first = games.events_after(created.game_id)[0]
    assert isinstance(first, GameCreated)
    assert first.seed_commitment == state.seed_commitment


def test_a_game_created_without_a_seed_gets_a_fresh_secret_one(games: RummyApplication):
    seats = [NewSeat("ann"), NewSeat("bob")]
    one = games.state(games.create_game(NewGame(seats=seats)).game_id)
    two = games.state(games.create_game(NewGame(seats=seats)).game_id)
    assert one.seed != two.seed
    assert len(one.seed) >= 32
    rules = creation_rules(games, one.game_id)
    assert one.seed_commitment == oracle_commitment(one.seed, rules)
