"""docs/rules.md through the application, on every store: the deal, the hand_size limit
and the deal passing on after a void hand, as a stored game replays them.

Expectations are worked out by hand from the rules text.
"""

from __future__ import annotations

import pytest

from service.domain.actions import Discard
from service.domain.cards import FULL_DECK
from service.domain.errors import InvalidRules
from service.domain.state import HandEnding
from service.game.application import RummyApplication
from service.game.commands import NewGame, NewSeat
from service.game.event_feed import Feed
from tests.game.players import STOCK, act, with_rules

# FULL_DECK is clubs A-K, diamonds, hearts, spades: deck[20] is the 8D, deck[21] the 9D.
DECK = FULL_DECK


def test_the_rules_example_deal_is_what_a_stored_game_holds(games: RummyApplication) -> None:
    created = games.create_game(
        NewGame(seats=[NewSeat("ann"), NewSeat("bob")], seed="text", decks=[DECK], dealer=0)
    )
    hand = games.state(created.game_id).table.hand
    assert hand is not None
    assert (hand.dealer, hand.turn) == (0, 1)
    assert set(hand.hands[1]) == {DECK[i] for i in range(0, 20, 2)}
    assert set(hand.hands[0]) == {DECK[i] for i in range(1, 20, 2)}
    assert hand.discard == [DECK[20]]
    assert hand.stock[-1] == DECK[21]


def test_a_hand_size_leaving_no_stock_is_refused_at_creation_and_stores_nothing(
    games: RummyApplication,
) -> None:
    # Six seats of nine cards need 54 + 1 upcard: more than one deck.
    before = Feed.of(games).last_position()
    with pytest.raises(InvalidRules):
        games.create_game(
            NewGame(seats=[NewSeat(f"p{n}") for n in range(6)], rules=with_rules(hand_size=9))
        )
    assert Feed.of(games).last_position() == before


def test_the_deal_passes_on_after_a_void_hand_in_a_stored_game(games: RummyApplication) -> None:
    # max_turns 1: the first completed turn ends hand 1 with nobody out; void by default.
    created = games.create_game(
        NewGame(
            seats=[NewSeat("ann"), NewSeat("bob")],
            rules=with_rules(max_turns=1),
            seed="void",
            decks=[DECK],
            dealer=0,
        )
    )
    # Seat 1 draws the 9D (deck[21]) and discards it.
    act(games, created.game_id, 1, [STOCK, Discard(DECK[21])])
    table = games.state(created.game_id).table
    assert table.last_hand is not None
    assert (table.last_hand.how, table.last_hand.points) == (HandEnding.TURN_CAP, (0, 0))
    assert table.totals == [0, 0]
    assert table.hand is not None
    assert (table.hand.number, table.hand.dealer, table.hand.turn) == (2, 1, 0)
