"""Fair deals with strangers, in the application (docs/fairness.md).

A joiner's client seed is mixed into the deals of a game whose seed the
server chose (bots or not), or refused where decks given at creation would
deal regardless; a chosen deal needs the admin or a full table; and the
game says which kind of deal it has.
"""

from __future__ import annotations

from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.bootstrap import open_games
from service.config import Settings, Store
from service.domain.cards import card_codes
from service.domain.errors import ClientSeedNotUsed
from service.domain.fairness import DealMode, is_server_seed
from service.domain.shuffle import deck_order
from service.game import application
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.errors import ExplicitDealForbidden
from service.game.tokens import new_seed
from tests.fairness_oracle import chain_of, creation_rules
from tests.game.players import DECK


def first_deck(games: RummyApplication, game_id: UUID) -> list[str]:
    dealt = [
        event.data() for event in games.events_after(game_id) if event.event_type == "hand_dealt"
    ]
    return list(dealt[0]["deck"])


def memory_games() -> RummyApplication:
    return open_games(Settings(store=Store.MEMORY))


SERVER_SEED = "0f" * 32


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    mine=st.text(min_size=1, max_size=16),
    theirs=st.text(min_size=1, max_size=16),
)
def test_a_joiners_client_seed_changes_the_deal_of_a_game_the_server_seeds(
    mine: str, theirs: str
) -> None:
    """Two games on the same server seed, joined with different client seeds, deal
    different decks: each deal is the one docs/fairness.md derives with the joiner's seed."""
    games = memory_games()
    decks = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(application, "new_seed", lambda: SERVER_SEED)
        for client_seed in {mine, theirs}:
            game_id = games.create_game(NewGame(seats=[NewSeat("host"), None])).game_id
            assert games.state(game_id).deal_mode is DealMode.COMMIT_REVEAL
            games.join_game(game_id, NewSeat("stranger", client_seed=client_seed))
            decks[client_seed] = first_deck(games, game_id)
            hand_1 = chain_of(SERVER_SEED, creation_rules(games, game_id))[0]
            assert decks[client_seed] == card_codes(deck_order(hand_1, ["", client_seed], 1))
    assert len(set(map(tuple, decks.values()))) == len({mine, theirs})


def test_a_joiners_client_seed_is_mixed_in_beside_a_bot() -> None:
    games = memory_games()
    game_id = games.create_game(NewGame(seats=[None, NewSeat("Robo", bot="basic")])).game_id
    games.join_game(game_id, NewSeat("Ann", client_seed="ann's own"))
    state = games.state(game_id)
    assert state.deal_mode is DealMode.COMMIT_REVEAL
    assert is_server_seed(state.seed)
    hand_1 = chain_of(state.seed, creation_rules(games, game_id))[0]
    assert first_deck(games, game_id) == card_codes(deck_order(hand_1, ["ann's own", ""], 1))


def test_every_server_seed_has_the_shape_old_games_are_told_apart_by() -> None:
    assert all(is_server_seed(new_seed()) for _ in range(100))


def test_a_chosen_deal_with_open_seats_needs_the_admin(games: RummyApplication) -> None:
    for chosen in ({"seed": "known"}, {"decks": [DECK]}):
        with pytest.raises(ExplicitDealForbidden) as refused:
            games.create_game(NewGame(seats=[NewSeat("Cheat"), None], **chosen))
        assert refused.value.code == "explicit_deal_forbidden"
        by_admin = games.create_game(
            NewGame(seats=[NewSeat("Host"), None], by_admin=True, **chosen)
        )
        assert by_admin.deal_mode is DealMode.EXPLICIT
        full = games.create_game(NewGame(seats=[NewSeat("Ann"), NewSeat("Bob")], **chosen))
        assert games.state(full.game_id).deal_mode is DealMode.EXPLICIT


def test_a_client_seed_that_given_decks_would_leave_unused_is_refused_and_nothing_stored(
    games: RummyApplication,
) -> None:
    with pytest.raises(ClientSeedNotUsed):
        games.create_game(
            NewGame(seats=[NewSeat("Ann", client_seed="mine"), NewSeat("Bob")], decks=[DECK])
        )
    game_id = games.create_game(
        NewGame(seats=[NewSeat("Host"), None], decks=[DECK], by_admin=True)
    ).game_id
    before = games.events_after(game_id)
    with pytest.raises(ClientSeedNotUsed) as refused:
        games.join_game(game_id, NewSeat("Stranger", client_seed="mine"))
    assert refused.value.code == "client_seed_not_used"
    assert games.events_after(game_id) == before
    assert games.state(game_id).version == before[-1].originator_version
    games.join_game(game_id, NewSeat("Stranger"))
    assert first_deck(games, game_id) == card_codes(DECK)
