"""Whole games through the application, on every store, to a winner."""

from __future__ import annotations

import random

import pytest

from service.domain import events as domain
from service.domain.errors import GameFull, GameNotStarted, GameOver
from service.domain.shuffle import deck_order
from service.domain.state import HandEnding, Status
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_records import PlayerJoined
from tests.fairness_oracle import chain_of, creation_rules
from tests.game.players import (
    DECK,
    GO_OUT,
    SEAT_0_HAND_VALUE,
    STOCK,
    act,
    check_cards_conserved,
    play_to_end,
    with_rules,
)


def test_a_complete_multi_hand_game_plays_to_its_winner(games: RummyApplication):
    # Every seat named: the creator may choose the deal (and, with decks, gives no
    # client seeds: they could not change the decks given).
    seats = [NewSeat("ann"), NewSeat("bob"), NewSeat("cy")]
    created = games.create_game(
        NewGame(seats=seats, rules=with_rules(deals=3), seed="complete", decks=[DECK], dealer=1)
    )
    played = play_to_end(
        games,
        created.game_id,
        random.Random(7),
        after_each=lambda s: check_cards_conserved(s.table),
    )

    stored = games.events_after(created.game_id)
    final = games.state(created.game_id)
    assert [event.originator_version for event in stored] == list(range(1, final.version + 1))
    events = [event.to_domain() for event in stored[1:]]
    deals = [event for event in events if isinstance(event, domain.HandDealt)]
    ended = [event for event in events if isinstance(event, domain.HandEnded)]
    finished = [event for event in events if isinstance(event, domain.GameFinished)]
    assert len(deals) == len(ended) >= 3
    assert [deal.hand_number for deal in deals] == list(range(1, len(deals) + 1))
    assert [deal.dealer for deal in deals] == [(1 + n) % 3 for n in range(len(deals))]
    # The first deck is the one given; every later one comes from the seed.
    assert deals[0].deck == tuple(DECK)
    chain = chain_of(
        "complete", creation_rules(games, created.game_id)
    )  # hand H is dealt from link H
    for deal in deals[1:]:
        seed = chain[deal.hand_number - 1]
        assert list(deal.deck) == deck_order(seed, ("", "", ""), deal.hand_number)
    # Each hand's points add up to the totals, which the game ends on.
    totals = [0, 0, 0]
    for hand in ended:
        totals = [total + points for total, points in zip(totals, hand.points, strict=True)]
        assert list(hand.totals) == totals
    assert len(finished) == 1
    assert isinstance(events[-1], domain.GameFinished)
    assert list(finished[0].totals) == list(ended[-1].totals) == final.table.totals
    assert finished[0].winner == final.table.winner
    assert final.table.totals[final.table.winner] == max(final.table.totals)
    assert final.table.totals.count(max(final.table.totals)) == 1, "a tie deals another hand"
    assert final.table.status is Status.FINISHED
    assert final.table.hands_played == len(ended)
    assert played.commands[-1][2] == final.version


def test_a_game_with_open_seats_deals_when_the_last_seat_is_joined(games: RummyApplication):
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), None, None],
            rules=with_rules(target=15),
            seed="lobby",
            by_admin=True,
        )
    )
    assert set(created.tokens) == {0}
    assert created.version == 1
    waiting = games.state(created.game_id)
    assert waiting.table.status is Status.WAITING
    assert waiting.seats[1] is None
    with pytest.raises(GameNotStarted) as refused:
        act(games, created.game_id, 0, [STOCK])
    assert refused.value.code == "game_not_started"

    bob = games.join_game(created.game_id, NewSeat("bob", client_seed="b0b"))
    assert (bob.seat, bob.version) == (1, 2)
    assert games.state(created.game_id).table.status is Status.WAITING
    cy = games.join_game(created.game_id, NewSeat("cy"))
    assert cy.seat == 2
    assert cy.version == 4, "the last join deals hand 1 at once"
    joined = games.events_after(created.game_id, 1)
    assert [event.event_type for event in joined] == [
        "player_joined",
        "player_joined",
        "hand_dealt",
    ]
    assert [event.data()["name"] for event in joined[:2] if isinstance(event, PlayerJoined)] == [
        "bob",
        "cy",
    ]
    seats = games.state(created.game_id).seats
    assert [seat.name if seat else None for seat in seats] == ["ann", "bob", "cy"]
    assert seats[1] is not None
    assert seats[1].client_seed == "b0b"

    with pytest.raises(GameFull) as full:
        games.join_game(created.game_id, NewSeat("dee"))
    assert full.value.code == "game_full"
    assert games.state(created.game_id).version == 4

    play_to_end(games, created.game_id, random.Random(3))
    final = games.state(created.game_id)
    last = games.events_after(created.game_id, final.version - 1)[0].to_domain()
    assert isinstance(last, domain.GameFinished)
    assert last.winner == final.table.winner
    assert max(last.totals) >= 15


def test_a_finished_game_refuses_every_move(games: RummyApplication):
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), NewSeat("bob")],
            rules=with_rules(target=10),
            decks=[DECK],
            dealer=0,
        )
    )
    version = act(games, created.game_id, 1, GO_OUT)
    final = games.state(created.game_id)
    assert final.version == version
    assert final.table.status is Status.FINISHED
    assert final.table.winner == 1
    assert final.table.totals == [0, 2 * SEAT_0_HAND_VALUE], "rummy doubles"
    ended, finished = (
        event.to_domain() for event in games.events_after(created.game_id, version - 2)
    )
    assert isinstance(ended, domain.HandEnded)
    assert (ended.how, ended.out_seat) == (HandEnding.RUMMY, 1)
    assert isinstance(finished, domain.GameFinished)
    for seat in (0, 1):
        with pytest.raises(GameOver) as over:
            act(games, created.game_id, seat, [STOCK])
        assert over.value.code == "game_over"
    assert games.state(created.game_id).version == version
