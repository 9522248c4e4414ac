"""A bot decides from its own seat's view and nothing else, so it cannot cheat."""

from __future__ import annotations

import inspect
from random import Random

import msgspec
import pytest

from service.api.schemas import BotName
from service.bots.strategies import STRATEGIES, Strategy, request_of
from service.bots.view import NotAPlayerView
from service.domain.decks import SeededDecks
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import Status, Table
from service.projections.views import ADMIN, PUBLIC, GameView, game_view
from tests.bots.tables import snapshot, view_for

NAMES = sorted(STRATEGIES)


def test_every_bot_the_api_accepts_has_a_strategy():
    assert {name.value for name in BotName} == set(STRATEGIES)


@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_is_handed_only_a_view_and_a_random_generator(name: str):
    signature = inspect.signature(STRATEGIES[name])
    assert list(signature.parameters) == ["view", "rng"]
    assert signature.parameters["view"].annotation in (GameView, "GameView")
    assert signature.parameters["rng"].annotation in (Random, "Random")


@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_refuses_the_admin_view_that_shows_hidden_cards(name: str):
    board = _mid_hand(seed="admin")
    view = game_view(snapshot(board), ADMIN)
    view.my_seat = view.turn
    with pytest.raises(NotAPlayerView):
        STRATEGIES[name](view, Random(0))


@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_refuses_the_public_view(name: str):
    view = game_view(snapshot(_mid_hand(seed="public")), PUBLIC)
    with pytest.raises(NotAPlayerView):
        STRATEGIES[name](view, Random(0))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("moves", range(4, 16))
def test_a_decision_does_not_change_when_the_hidden_cards_do(name: str, moves: int):
    """Shuffle every card the seat cannot see (the other hands and the stock)
    among their places: its view is the same, and so is its decision."""
    strategy = STRATEGIES[name]
    seed = f"hidden-{moves}"
    board = _mid_hand(seed=seed, moves=moves)
    assert board.hand is not None
    seat = board.hand.turn
    swapped = _hidden_cards_shuffled(board, seat, Random(seed))
    assert swapped.hand is not None
    assert [swapped.hand.hands[s] for s in _others(board, seat)] != [
        board.hand.hands[s] for s in _others(board, seat)
    ], "the hidden cards did change"
    view, same_view = view_for(board, seat), view_for(swapped, seat)
    assert msgspec.json.encode(view) == msgspec.json.encode(same_view)
    assert strategy(view, Random(1)) == strategy(same_view, Random(1))


@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_leaves_the_view_it_was_handed_as_it_was(name: str):
    board = _mid_hand(seed="untouched")
    assert board.hand is not None
    view = view_for(board, board.hand.turn)
    before = msgspec.json.encode(view)
    STRATEGIES[name](view, Random(3))
    assert msgspec.json.encode(view) == before


@pytest.mark.parametrize("name", NAMES)
def test_the_same_view_and_seed_make_the_same_decision(name: str):
    strategy: Strategy = STRATEGIES[name]
    for number in range(10):
        board = _mid_hand(seed=f"same-{number}")
        assert board.hand is not None
        view = view_for(board, board.hand.turn)
        assert strategy(view, Random(number)) == strategy(view, Random(number))


def _mid_hand(seed: str, moves: int = 9) -> Table:
    """A three-player table some moves into its first hand, played by `basic`."""
    table = Table(rules=RuleSet(), seat_count=3, seated=[True] * 3)
    decks = SeededDecks(seed=seed, client_seeds=("",) * 3)
    start(table, decks)
    rng = Random(seed)
    for _ in range(moves):
        assert table.status is Status.PLAYING
        assert table.hand is not None
        seat = table.hand.turn
        play(table, seat, request_of(STRATEGIES["basic"](view_for(table, seat), rng)), decks)
    return table


def _others(table: Table, seat: int) -> list[int]:
    return [other for other in range(table.seat_count) if other != seat]


def _hidden_cards_shuffled(table: Table, seat: int, rng: Random) -> Table:
    """A copy of `table` where the cards `seat` cannot see have changed places,
    every hand and the stock keeping its size."""
    copied = table.copy()
    hand = copied.hand
    assert hand is not None
    others = _others(table, seat)
    hidden = [card for other in others for card in hand.hands[other]] + hand.stock
    rng.shuffle(hidden)
    for other in others:
        size = len(hand.hands[other])
        hand.hands[other], hidden = hidden[:size], hidden[size:]
    hand.stock = hidden
    return copied
