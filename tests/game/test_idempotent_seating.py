"""Creating and joining with an `Idempotency-Key`: done once, answered alike.

As for actions (test_idempotency.py): the same key and body again answer with
the first outcome (the same game, seat and tokens, the version it left) and
store nothing; another body with the key is `idempotency_key_reused`; on
every replica and after a restart. The key stands for the tokens it returns,
so only its hash is stored, and the raw key nowhere.
"""

from __future__ import annotations

from uuid import UUID

import pytest

from service.domain.actions import Discard
from service.domain.cards import Card
from service.domain.errors import GameFull
from service.game.application import RummyApplication
from service.game.commands import Idempotency, NewGame, NewSeat
from service.game.errors import GameNotFound, IdempotencyKeyReused
from service.game.event_feed import Feed
from service.game.results import CreateResult
from service.game.tokens import hash_token, keyed_token
from tests.game.players import DECK, STOCK, act
from tests.game.stores import StoreUnderTest

KEY = "7b0c7c1e-9a52-4f0e-8f4a-3d1c2b6a9e01"
NAMED = NewGame(seats=[NewSeat("ann"), NewSeat("bob")], seed="keyed", decks=[DECK], dealer=0)
OPEN = NewGame(seats=[NewSeat("ann"), None, None])


def keyed(digest: str = "body-1", key: str = KEY) -> Idempotency:
    return Idempotency(key, digest)


def stored_records(games: RummyApplication, game_id: UUID) -> list[bytes]:
    return [record.state for record in games.recorder.select_events(game_id)]


def test_the_same_creation_twice_makes_one_game_and_answers_alike(games: RummyApplication):
    first = games.create_game(NAMED, keyed())
    stored = games.events_after(first.game_id)
    position = Feed.of(games).last_position()

    again = games.create_game(NAMED, keyed())

    assert again == first
    assert games.events_after(first.game_id) == stored
    assert Feed.of(games).last_position() == position, "no other game was made"
    assert games.state(first.game_id).seat_of(again.tokens[1]) == 1
    # Without the key, the same body is a new game.
    assert games.create_game(NAMED).game_id != first.game_id


def test_a_creation_repeated_after_the_game_moved_on_still_answers_its_version(
    games: RummyApplication,
):
    first = games.create_game(NAMED, keyed())
    act(games, first.game_id, 1, [STOCK, Discard(Card.parse("5S"))])

    again = games.create_game(NAMED, keyed())

    assert again == first
    assert games.state(first.game_id).version == first.version + 2


def test_a_creation_key_with_another_body_is_refused_and_makes_nothing(games: RummyApplication):
    first = games.create_game(NAMED, keyed("body-1"))
    position = Feed.of(games).last_position()

    with pytest.raises(IdempotencyKeyReused) as reused:
        games.create_game(OPEN, keyed("body-2"))

    assert reused.value.code == "idempotency_key_reused"
    assert Feed.of(games).last_position() == position
    assert games.state(first.game_id).version == first.version


def test_the_admins_keys_and_everyone_elses_are_apart(games: RummyApplication):
    by_anyone = games.create_game(OPEN, keyed())
    by_admin = games.create_game(
        NewGame(seats=OPEN.seats, seed="chosen", by_admin=True), keyed("body-2")
    )

    assert by_admin.game_id != by_anyone.game_id


def test_a_refused_creation_keeps_nothing_and_leaves_its_key_free(games: RummyApplication):
    everyone_a_bot = NewGame(seats=[NewSeat("r1", bot="random"), NewSeat("r2", bot="random")])
    with pytest.raises(Exception, match="person"):
        games.create_game(everyone_a_bot, keyed("body-1"))

    created = games.create_game(OPEN, keyed("body-2"))

    assert games.state(created.game_id).version == created.version


def test_the_tokens_of_a_keyed_creation_are_not_the_tokens_of_another_key(
    games: RummyApplication,
):
    one = games.create_game(OPEN, keyed(key=KEY))
    other = games.create_game(OPEN, keyed(key=KEY + "-2"))

    assert one.game_id != other.game_id
    assert one.tokens[0] != other.tokens[0]
    assert games.state(one.game_id).seat_of(other.tokens[0]) is None


def test_the_same_join_twice_takes_one_seat_and_answers_alike(games: RummyApplication):
    game_id = games.create_game(OPEN).game_id
    first = games.join_game(game_id, NewSeat("cleo"), keyed())
    stored = games.events_after(game_id)

    again = games.join_game(game_id, NewSeat("cleo"), keyed())

    assert again == first
    assert games.events_after(game_id) == stored
    state = games.state(game_id)
    assert [seat is None for seat in state.seats] == [False, False, True], "one seat left"
    assert state.seat_of(again.token) == first.seat


def test_a_join_repeated_after_the_game_filled_and_was_dealt_answers_its_version(
    games: RummyApplication,
):
    game_id = games.create_game(OPEN).game_id
    first = games.join_game(game_id, NewSeat("cleo"), keyed())
    games.join_game(game_id, NewSeat("dan"))  # the last seat: the first hand is dealt

    again = games.join_game(game_id, NewSeat("cleo"), keyed())

    assert again == first
    assert games.state(game_id).version > first.version
    with pytest.raises(GameFull):
        games.join_game(game_id, NewSeat("cleo"), keyed(key=KEY + "-new"))


def test_a_join_key_with_another_body_is_refused_and_takes_no_seat(games: RummyApplication):
    game_id = games.create_game(OPEN).game_id
    games.join_game(game_id, NewSeat("cleo"), keyed("cleo"))
    stored = games.events_after(game_id)

    with pytest.raises(IdempotencyKeyReused):
        games.join_game(game_id, NewSeat("dan"), keyed("dan"))

    assert games.events_after(game_id) == stored


def test_the_key_that_created_a_game_does_not_join_it(games: RummyApplication):
    created = games.create_game(OPEN, keyed("create"))

    with pytest.raises(IdempotencyKeyReused):
        games.join_game(created.game_id, NewSeat("cleo"), keyed("join"))


def test_one_key_joins_two_games_as_two_requests(games: RummyApplication):
    one, other = games.create_game(OPEN).game_id, games.create_game(OPEN).game_id

    in_one = games.join_game(one, NewSeat("cleo"), keyed())
    in_other = games.join_game(other, NewSeat("cleo"), keyed())

    assert in_one.token != in_other.token
    assert games.state(other).seat_of(in_other.token) == in_other.seat


def test_the_key_is_never_stored_only_its_hash(games: RummyApplication):
    created = games.create_game(OPEN, keyed("create", key="creation-key-" + KEY))
    joined = games.join_game(created.game_id, NewSeat("cleo"), keyed("join"))

    records = b"".join(stored_records(games, created.game_id))

    assert KEY.encode() not in records
    for token in (*created.tokens.values(), joined.token):
        assert token.encode() not in records
        assert hash_token(token).encode() in records


def test_a_bot_seat_gets_no_token_a_key_can_give(games: RummyApplication):
    """Nobody acts for a bot: its token stays random, even in a keyed creation."""
    with_bot = NewGame(seats=[NewSeat("ann"), NewSeat("robo", bot="random")])
    created = games.create_game(with_bot, keyed())

    assert set(created.tokens) == {0}
    bot_token_hash = games.state(created.game_id).token_hashes[1]
    assert bot_token_hash != hash_token(keyed_token(created.game_id, KEY, "seat1"))


# --- replicas and restarts ----------------------------------------------------------


def test_a_creation_is_answered_alike_by_another_replica_and_after_a_restart(
    shared_store: StoreUnderTest,
):
    first = shared_store.games()
    created = first.create_game(NAMED, keyed())
    first.close()

    other = shared_store.games()
    position = Feed.of(other).last_position()

    assert other.create_game(NAMED, keyed()) == created
    assert Feed.of(other).last_position() == position
    with pytest.raises(IdempotencyKeyReused):
        other.create_game(OPEN, keyed("body-2"))


def test_the_same_creation_sent_to_two_replicas_at_once_makes_one_game(
    shared_store: StoreUnderTest, monkeypatch: pytest.MonkeyPatch
):
    ahead, behind = shared_store.games(), shared_store.games()
    created = ahead.create_game(NAMED, keyed())
    # `behind` looked for the key's game before `ahead` stored it: it makes the game
    # too, and its save meets the stored one.
    looked: list[UUID] = []

    def not_yet(game_id: UUID) -> object:
        looked.append(game_id)
        monkeypatch.undo()
        raise GameNotFound(f"There is no game {game_id}.")

    monkeypatch.setattr(behind, "_current", not_yet)

    answered = behind.create_game(NAMED, keyed())

    assert looked == [created.game_id]
    assert answered == created
    assert len(ahead.events_after(created.game_id)) == created.version


def test_a_join_is_answered_alike_by_another_replica_even_from_a_stale_cache(
    shared_store: StoreUnderTest,
):
    ahead, behind = shared_store.games(), shared_store.games()
    game_id = ahead.create_game(OPEN).game_id
    behind.state(game_id)  # `behind` caches the game with both seats open
    joined = ahead.join_game(game_id, NewSeat("cleo"), keyed())

    # On its cached copy the key is new: it takes a seat, its save loses, and the
    # join is decided again on the game as stored.
    again = behind.join_game(game_id, NewSeat("cleo"), keyed())

    assert again == joined
    assert [seat is None for seat in behind.state(game_id).seats] == [False, False, True]


def test_a_keyed_creation_keeps_its_answer_across_a_restart_of_every_replica(
    shared_store: StoreUnderTest,
):
    created: CreateResult = shared_store.games().create_game(OPEN, keyed())
    join = keyed("join", key=KEY + "-join")
    joined = shared_store.games().join_game(created.game_id, NewSeat("cleo"), join)
    for opened in shared_store.all_games:
        opened.close()

    restarted = shared_store.games()

    assert restarted.create_game(OPEN, keyed()) == created
    assert restarted.join_game(created.game_id, NewSeat("cleo"), join) == joined
