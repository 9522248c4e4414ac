"""The `basic` strategy in Gin Rummy, table by table: the upcard taken only when it
lowers the deadwood, a knock whenever the rules allow it, with the arrangement that
leaves the defender least to lay off, big gin when it can."""

from __future__ import annotations

from random import Random

from service.bots.basic import play_basic
from service.domain.actions import Action, Discard, Draw, Knock, Pass
from service.domain.gin import deadwood
from service.domain.rules import RuleSet
from service.domain.state import Source
from tests.bots.tables import view_for
from tests.domain.tables import Game, card, cards, new_game

A, B = 0, 1
GIN = RuleSet.from_dict({"variant": "gin"}, players=2)
OTHER = "10S 5D 5C 5H AC AD 4H 6D 8D 9D"


def decide(game: Game, seat: int) -> Action | tuple[Action, ...]:
    return play_basic(view_for(game.table, seat), Random(0))


def test_takes_the_upcard_when_it_lowers_the_deadwood_else_passes() -> None:
    # 3C 3D 3H 7S 8S 9S JH QH KH 4C: deadwood 4 (4C). KC would change nothing.
    hand = "3C 3D 3H 7S 8S 9S JH QH KH 4C"
    taking = new_game([hand, OTHER], "10H", "2D", dealer=B, rules=GIN)
    # 10H joins JH QH KH, and 4C goes: deadwood 0.
    assert decide(taking, A) == Draw(Source.DISCARD)
    passing = new_game([hand, OTHER], "KC", "2D", dealer=B, rules=GIN)
    assert decide(passing, A) == Pass()


def test_knocks_with_the_card_that_leaves_the_least_deadwood() -> None:
    game = new_game(["3C 3D 3H 7S 8S 9S JH QH KH 4C", OTHER], "KC", "2D", dealer=B, rules=GIN)
    game.act(A, Pass())
    game.act(B, Pass())
    game.draw(A)  # 2D
    move = decide(game, A)
    assert isinstance(move, Knock)
    assert move.card == card("4C")
    assert move.melds is not None
    assert sorted(c.code for meld in move.melds for c in meld) == sorted(
        ["3C", "3D", "3H", "7S", "8S", "9S", "JH", "QH", "KH"]
    )


def test_chooses_the_arrangement_that_offers_fewest_lay_offs() -> None:
    # AH 2H 3H 2C 2D: the run with 2C 2D loose, or the deuces with AH 3H loose, both
    # 4 (AC 1 more). The server would show the deuces (Knock Rummy's tie-break); but
    # they offer 2S a place, while the run's one place, 4H, is the upcard in sight:
    # the bot knocks with the run.
    other = "10C 5C 6C 7D 8D JH QH KC 4S 6D"
    hand = "AH 2H 3H 2C 2D 7S 8S 9S 10S AC"
    game = new_game([hand, other], "4H", "KD", dealer=B, rules=GIN)
    server = deadwood.least(cards(hand), GIN).melds
    assert frozenset(cards("2C 2D 2H")) in {frozenset(meld) for meld in server}
    game.act(A, Pass())
    game.act(B, Pass())
    game.draw(A)  # KD
    move = decide(game, A)
    assert isinstance(move, Knock)
    assert move.card == card("KD")
    assert move.melds is not None
    shown = {frozenset(meld) for meld in move.melds}
    assert frozenset(cards("AH 2H 3H")) in shown
    assert frozenset(cards("7S 8S 9S 10S")) in shown


def test_discards_a_highest_card_when_it_cannot_knock() -> None:
    other = "10S 7C 7D 7H AC AD 4H 6D 8D 9D"
    game = new_game(["2C 5D 8H JS QD 3S 6C 9H KS 4D", other], "KC", "AH", dealer=B, rules=GIN)
    game.act(A, Pass())
    game.act(B, Pass())
    game.draw(A)  # AH
    move = decide(game, A)
    assert isinstance(move, Discard)
    assert move.card.rank.value >= 10
