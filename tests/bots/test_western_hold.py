"""`strong` holds its melds back in the going-out games (`search/western_hold.py`):
when it does, when it lays as `basic` does, and that it still only throws what
`basic` would."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.basic import play_basic
from service.bots.search import play_expert, play_strong, western
from service.bots.search.western_hold import HOLD_UNTIL
from service.domain.actions import Discard, Meld
from service.domain.rules import RuleSet
from service.domain.state import Phase
from tests.bots.tables import Laid, cards, finish_turn, table, view_for

RUN = set(cards("2C 3C 4C"))
HAND = "2C 3C 4C 7D 8D 9H KS QH JD 5S 6H"
"""Seat 0 after its draw: a club run to lay and eight loose cards (no rummy near)."""


def test_with_a_meld_to_lay_and_the_other_seat_far_from_out_strong_throws_instead() -> None:
    view = view_for(table([HAND, 10], discard="2D 5C", phase=Phase.PLAY), 0)
    assert isinstance(play_basic(view, Random(1)), Meld)
    for level in (play_strong, play_expert):
        move = level(view, Random(1))
        assert isinstance(move, Discard)
        assert move.card not in RUN


def test_a_held_hand_goes_out_whole_as_basic_lays_it() -> None:
    # Three melds and one loose card: out this turn, a rummy; nothing to hold.
    hand = "2C 3C 4C 7D 8D 9D KS KH KD KC 5S"
    board = table([hand, 10], discard="2D 5C", phase=Phase.PLAY)
    basic = play_basic(view_for(board, 0), Random(1))
    assert isinstance(basic, Meld)
    assert play_strong(view_for(board, 0), Random(1)) == basic
    played = finish_turn(board, play_strong, Random(1))
    assert board.hand is None or not board.hand.hands[0]
    assert isinstance(played[-1], Discard)


def test_once_the_other_seat_is_near_out_strong_lays_as_basic_does() -> None:
    view = view_for(table([HAND, HOLD_UNTIL], discard="2D 5C", phase=Phase.PLAY), 0)
    basic = play_basic(view, Random(1))
    assert isinstance(basic, Meld)
    assert play_strong(view, Random(1)) == basic


def test_once_the_seat_has_laid_a_meld_it_lays_the_rest_as_basic_does() -> None:
    board = table(
        ["2C 3C 4C 7D 8D 9H KS QH 5S 6H", 10],
        discard="2D 5C",
        melds_on_table=[Laid("JD JH JS", owner=0)],
        played_before=[True, False],
        phase=Phase.PLAY,
    )
    view = view_for(board, 0)
    basic = play_basic(view, Random(1))
    assert isinstance(basic, Meld)
    assert play_strong(view, Random(1)) == basic


def test_at_three_seats_it_holds_and_at_six_it_lays_as_basic_does() -> None:
    three = view_for(table([HAND, 7, 7], discard="2D 5C", phase=Phase.PLAY), 0)
    assert isinstance(play_strong(three, Random(1)), Discard)
    board = table([HAND, 6, 6, 6, 6, 6], discard="2D 5C", phase=Phase.PLAY)
    view = view_for(board, 0)
    basic = play_basic(view, Random(1))
    assert isinstance(basic, Meld)
    assert play_strong(view, Random(1)) == basic


def test_outside_the_games_it_holds_in_strong_lays_as_basic_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = view_for(table([HAND, 10], discard="2D 5C", phase=Phase.PLAY), 0)
    rules = RuleSet.from_dict({"variant": "classic"}, players=2)
    assert western.game_of(rules) in western.HOLDING
    monkeypatch.setattr(western, "HOLDING", frozenset())
    assert play_strong(view, Random(1)) == play_basic(view, Random(1))
