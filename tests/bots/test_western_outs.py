"""The throw near going out (`search/western_outs.py`): Boathouse's `strong`, and
`expert` in classic, wild and Wrotham, throw the card that leaves the most outs;
`basic`'s throw everywhere else."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.basic import play_basic
from service.bots.melding import best_cover
from service.bots.search import play_expert, play_strong, western
from service.bots.search.western_outs import NEAR, outs
from service.bots.view import BotView
from service.domain.actions import Discard
from service.domain.rules import RuleSet
from service.domain.state import Phase
from tests.bots.tables import card, cards, table, view_for

BOATHOUSE = RuleSet.from_dict({"variant": "boathouse"})
NEARLY_OUT = "QH QD QC QS 5C 5S 5H AS KS KC 8H"
"""Seat 0 after its draw: four queens, three fives, A-K of spades (a run with the
QS), and two cards left over: KC and 8H. `basic` throws the king, the higher; kept,
the king goes out on KD and KH too (a set with the KS, the queens then a set)."""


def test_near_going_out_strong_throws_the_card_that_leaves_more_outs() -> None:
    view = view_for(table([NEARLY_OUT, 10], discard="2D", phase=Phase.PLAY, rules=BOATHOUSE), 0)
    assert play_basic(view, Random(1)) == Discard(card("KC"))
    bot = BotView.read(view)
    without_king = [c for c in cards(NEARLY_OUT) if c != card("KC")]
    without_eight = [c for c in cards(NEARLY_OUT) if c != card("8H")]
    assert outs(without_eight, bot.unseen, BOATHOUSE) > outs(without_king, bot.unseen, BOATHOUSE)
    for level in (play_strong, play_expert):
        assert level(view, Random(1)) == Discard(card("8H"))


def test_far_from_going_out_strong_throws_as_basic_does() -> None:
    far = "QH QD 9C 2S 5C 6S 5H AS JS KC 8H"
    view = view_for(table([far, 10], discard="2D", phase=Phase.PLAY, rules=BOATHOUSE), 0)
    assert len(best_cover(cards(far), BOATHOUSE).deadwood) > NEAR
    assert play_strong(view, Random(1)) == play_basic(view, Random(1))


def test_outside_the_games_it_counts_outs_in_strong_throws_as_basic_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = view_for(table([NEARLY_OUT, 10], discard="2D", phase=Phase.PLAY, rules=BOATHOUSE), 0)
    assert western.game_of(BOATHOUSE) in western.OUTS
    monkeypatch.setattr(western, "OUTS", frozenset())
    assert play_strong(view, Random(1)) == play_basic(view, Random(1))


CLASSIC = RuleSet.from_dict({"variant": "classic"})
HELD = "2C 3C 4C 5C 6C AD AH AS 10C 10D QD"
"""Seat 0 after its draw in classic, holding its melds back. `basic` throws the queen,
leaving the tens, out on 10H or 10S. Thrown instead, the 2C (the run keeps 3C-6C)
leaves 10C 10D QD, out on those two and on JD too (10D JD QD, the 10C thrown)."""


def test_in_classic_expert_throws_for_more_outs_and_strong_as_basic_does() -> None:
    view = view_for(table([HELD, 10], discard="3H", phase=Phase.PLAY, rules=CLASSIC), 0)
    assert play_strong(view, Random(1)) == Discard(card("QD"))
    assert play_expert(view, Random(1)) == Discard(card("2C"))
    bot = BotView.read(view)
    without_two = [c for c in cards(HELD) if c != card("2C")]
    without_queen = [c for c in cards(HELD) if c != card("QD")]
    assert outs(without_two, bot.unseen, CLASSIC) == 3
    assert outs(without_queen, bot.unseen, CLASSIC) == 2


def test_in_a_game_with_wild_cards_an_unseen_wild_is_an_out() -> None:
    wild = RuleSet.from_dict({"variant": "wild"})
    hand = cards("5C 6C 7C 8C JS JD JH KD KS 4H")
    # The joker makes a set of the kings and the 4H goes: out. The QC joins nothing.
    assert outs(hand, cards("JK"), wild) == 1
    assert outs(hand, cards("QC"), wild) == 0
