"""500 Rum's search (`strong`, `expert`), position by position: the spread pile is
no hidden place (every unseen card is in a hand or the stock), it digs into the
pile for a called card worth melding, and its move is a function of the view and
the seed alone (re-dealing the hidden cards changes nothing)."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.search import play_expert, play_strong
from service.bots.search.unknown import Unknown
from service.bots.strategies import Strategy
from service.bots.view import BotView
from service.domain.cards import Card
from service.projections.views import GameView, Viewer, game_view
from tests.domain.tables import Game
from tests.domain.test_rummy500 import pile, three_player_pile
from tests.projections.snapshots import snapshot


def view_of(game: Game, seat: int) -> GameView:
    return game_view(snapshot(game.table, ["A", "B", "C"]), Viewer(seat=seat))


def test_the_spread_pile_hides_nothing() -> None:
    game = three_player_pile()
    view = view_of(game, 0)
    bot = BotView.read(view)
    unknown = Unknown.of(view, bot)
    assert unknown.buried_count == 0
    assert not set(unknown.pool) & set(bot.pile)
    assert len(unknown.pool) == sum(unknown.hand_counts.values()) + unknown.stock_count


@pytest.mark.parametrize("play", [play_strong, play_expert])
def test_digs_for_a_called_card_that_melds(play: Strategy) -> None:
    game = three_player_pile()
    game.turn(1, "2D")
    game.turn(2, "8C")
    # Seat 0 holds 7D 8D; 9D lies at the bottom of the pile: 7D 8D 9D scores 24 at
    # once, and the stock's card is worth less whatever it is.
    assert play(view_of(game, 0), Random(0)) == pile(6)


def test_a_move_is_a_function_of_the_view_and_the_seed() -> None:
    game = three_player_pile()
    game.turn(1, "2D")
    other = three_player_pile()
    other.turn(1, "2D")
    hand = other.table.hand
    assert hand is not None
    # Seat 2 is to move: seats 0 and 1 and the stock re-dealt from their own cards.
    hidden: list[Card] = [*hand.hands[0], *hand.hands[1], *hand.stock]
    Random(3).shuffle(hidden)
    first, second = len(hand.hands[0]), len(hand.hands[1])
    hand.hands[0] = hidden[:first]
    hand.hands[1] = hidden[first : first + second]
    hand.stock = hidden[first + second :]
    views = [view_of(board, 2) for board in (game, other)]
    assert views[0].my_hand == views[1].my_hand
    assert views[0].discard_pile == views[1].discard_pile
    assert game.table.hand is not None
    assert game.table.hand.hands[0] != hand.hands[0]
    for play in (play_strong, play_expert):
        assert play(views[0], Random(5)) == play(views[1], Random(5))


def test_expert_remembers_the_cards_it_saw_taken_and_strong_forgets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = three_player_pile()
    game.turn(1, "2D")
    game.turn(2, "8C")
    view = view_of(game, 0)
    remembered: list[Unknown] = []
    real = Unknown.remembering

    def remembering(unknown: Unknown, bot: BotView) -> Unknown:
        remembered.append(unknown)
        return real(unknown, bot)

    monkeypatch.setattr(Unknown, "remembering", remembering)
    play_strong(view, Random(0))
    assert not remembered
    play_expert(view, Random(0))
    assert remembered
