"""Gin Rummy's search (`strong`, `expert`), position by position: its fast count
agrees with the server's, it takes a gin-making upcard, it plays on rather than
knock into a likely undercut or for less than waiting is worth, it knocks early
while the other hand is far from its own, and its move is a function of the view
and the seed alone (re-dealing the hidden cards changes nothing)."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.basic import play_basic
from service.bots.search import gin as gin_search
from service.bots.search import gin_masks as gm
from service.bots.search import play_expert, play_strong
from service.bots.strategies import Strategy
from service.domain.actions import Discard, Draw, Knock
from service.domain.cards import FULL_DECK, Card
from service.domain.gin import deadwood
from service.domain.rules import RuleSet
from service.domain.state import GinHand, Phase, Source, Table
from tests.bots.tables import cards, table, view_for

GIN = RuleSet.from_dict({"variant": "gin"}, players=2)


def gin_table(hands: list[str | int], discard: str, phase: Phase, limit: int = 10) -> Table:
    board = table(hands, discard=discard, phase=phase, rules=GIN)
    assert board.hand is not None
    board.hand.gin = GinHand(knock_limit=limit, doubled=False)
    return board


@pytest.mark.parametrize(
    ("deck", "seed"),
    [
        (list(FULL_DECK), 31),
        # Five ranks: sets, runs and cards either could take, often in one hand.
        ([card for card in FULL_DECK if 5 <= card.rank.value <= 9], 33),
    ],
    ids=["any-hand", "sets-and-runs-cross"],
)
def test_the_fast_count_is_the_servers(deck: list[Card], seed: int) -> None:
    rng = Random(seed)
    for _ in range(400):
        hand = rng.sample(deck, rng.choice((10, 11)))
        assert gm.deadwood(gm.mask_of(hand)) == deadwood.least(hand, GIN).count


def test_the_fast_best_throw_leaves_the_least_deadwood() -> None:
    rng = Random(32)
    for _ in range(200):
        hand = rng.sample(list(FULL_DECK), 11)
        left, bit = gm.best_discard(gm.mask_of(hand))
        thrown = gm.CARDS[bit]
        rest = [card for card in hand if card != thrown]
        assert left == deadwood.least(rest, GIN).count
        assert left == min(
            deadwood.least([c for c in hand if c != card], GIN).count for card in hand
        )


@pytest.mark.parametrize("play", [play_strong, play_expert])
def test_takes_an_upcard_that_makes_gin(play: Strategy) -> None:
    # 3C 3D 3H 7S 8S 9S JH QH KH 4C: 10H makes JH QH KH a run of four, and 4C goes:
    # gin next.
    board = gin_table(["3C 3D 3H 7S 8S 9S JH QH KH 4C", 10], "2D 10H", Phase.DRAW)
    assert play(view_for(board, 0), Random(0)) == Draw(Source.DISCARD)


@pytest.mark.parametrize("play", [play_strong, play_expert])
def test_knocks_for_gin(play: Strategy) -> None:
    board = gin_table(["3C 3D 3H 7S 8S 9S JH QH KH 10H KD", 10], "2D", Phase.PLAY)
    move = play(view_for(board, 0), Random(0))
    assert isinstance(move, Knock)
    assert move.card is not None
    assert move.card.code == "KD"


def test_plays_on_rather_than_knock_into_a_likely_undercut() -> None:
    # Late in the hand (most cards gone by in the pile), a knock with 10 left: any
    # hand built from the pile's cards has less, and lays off on the runs. Basic
    # knocks; the search keeps the 10 points and plays on.
    hand = "AC 2C 3C 4C 5C 6C 7C 8C 9C KH 10D"
    pile = "2H 3H 4H 5H 6H 2S 3S 4S 5S 6S AD 2D 3D 4D 5D 6D AH AS 7D 8H"
    board = gin_table([hand, 10], pile, Phase.PLAY)
    view = view_for(board, 0)
    assert isinstance(play_basic(view, Random(0)), Knock)
    assert isinstance(play_strong(view, Random(0)), Discard)


@pytest.mark.parametrize("play", [play_strong, play_expert])
def test_knocks_early_while_the_other_hand_is_far_from_its_own(play: Strategy) -> None:
    # The first turn: 1 left (AD) against a hand just dealt, which holds tens of
    # points: the knock wins more than waiting could.
    board = gin_table(["AC 2C 3C 4C 5C 6C 7C 8C 9C AD KH", 10], "2D", Phase.PLAY)
    move = play(view_for(board, 0), Random(0))
    assert isinstance(move, Knock)
    assert move.card is not None
    assert move.card.code == "KH"


def test_plays_on_a_knock_worth_less_than_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    # Some turns in, 10 left (10H): the knock's mean points are positive (the
    # search with no bar makes it) but below an undercut bonus, so it plays on.
    hand = "AC 2C 3C 7D 8D 9D JS QS KS 10H KH"
    pile = "QC KC JC QD JD 9C 8C 9H"
    board = gin_table([hand, 10], pile, Phase.PLAY)
    view = view_for(board, 0)
    assert isinstance(play_strong(view, Random(0)), Discard)
    monkeypatch.setattr(gin_search, "KNOCK_BAR", 0.0)
    assert isinstance(play_strong(view, Random(0)), Knock)


def test_a_move_is_a_function_of_the_view_and_the_seed() -> None:
    # The same view over two deals of the hidden cards: the other hand and the
    # stock swapped for each other's cards.
    hand = "2C 3C 4C 7D 8D 9H 10S JS QH KD"
    first = gin_table([hand, 10], "5H", Phase.DRAW)
    second = gin_table([hand, 10], "5H", Phase.DRAW)
    assert first.hand is not None
    assert second.hand is not None
    mine = set(cards(hand)) | set(cards("5H"))
    hidden = [card for card in FULL_DECK if card not in mine]
    Random(7).shuffle(hidden)
    second.hand.hands[1] = hidden[:10]
    second.hand.stock = hidden[10:]
    assert second.hand.hands[1] != first.hand.hands[1]
    for play in (play_strong, play_expert):
        moves = {str(play(view_for(board, 0), Random(5))) for board in (first, second)}
        assert len(moves) == 1
        assert view_for(first, 0).my_hand == view_for(second, 0).my_hand
