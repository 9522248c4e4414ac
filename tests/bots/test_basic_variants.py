"""The `basic` strategy in the variants, table by table: Knock Rummy by the count,
wild cards (readings, swaps, never a wild thrown), concealed going out."""

from __future__ import annotations

from random import Random

import pytest

from service.bots import knocking
from service.bots.basic import play_basic
from service.bots.strategies import play_random_move, request_of
from service.domain.actions import Discard, Draw, Knock, LayOff, Meld, Swap
from service.domain.melds import MeldKind, TableMeld
from service.domain.rules import RuleSet
from service.domain.state import Phase, Source, Table
from tests.bots.tables import card, cards, finish_turn, table, view_for

OPPONENT = 10
KNOCK = RuleSet.from_dict({"variant": "knock"})
WILD = RuleSet.from_dict({"variant": "wild"})
MELD_NOW = RuleSet.from_dict({"variant": "wild", "swapped_wild": "meld_now"})
BOATHOUSE = RuleSet.from_dict({"variant": "boathouse"})


def decide(board: Table, seat: int = 0):
    return play_basic(view_for(board, seat), Random(0))


# --- Knock Rummy ----------------------------------------------------------------

# Eleven cards after the draw: AC-4C and the fives are melds; throwing KH leaves
# 9C 9D 8S unmatched, a count of 26, the least any one card leaves.
KNOCK_HAND = "AC 2C 3C 4C 5D 5H 5S 9C 9D 8S KH"


@pytest.mark.parametrize(("knock_at", "expected"), [(26, Knock), (25, Discard), (0, Discard)])
def test_knocks_with_the_card_that_leaves_the_lowest_count_once_it_is_low_enough(
    knock_at: int, expected: type, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(knocking, "KNOCK_AT", knock_at)
    board = table([KNOCK_HAND, OPPONENT], phase=Phase.PLAY, rules=KNOCK)
    assert decide(board) == expected(card("KH"))


def test_takes_the_upcard_only_when_it_lowers_the_count():
    # Now 9C 9D KH = 28 unmatched. 5C joins the run and frees the fives' set: 18.
    hand = "AC 2C 3C 4C 5D 5H 5S 9C 9D KH"
    assert decide(table([hand, OPPONENT], discard="2S 5C", rules=KNOCK)) == Draw(Source.DISCARD)
    # QD for KH changes nothing (10 for 10), and KH cannot be thrown back anyway.
    assert decide(table([hand, OPPONENT], discard="2S QD", rules=KNOCK)) == Draw(Source.STOCK)


# --- wild cards -------------------------------------------------------------------


def test_never_throws_a_wild_while_a_natural_card_may_go():
    # Nothing melds, even with the joker: no two naturals share a rank or stand
    # within a run's reach in one suit.
    board = table(["JK 3C 7D 9H QS KD 5S", OPPONENT], phase=Phase.PLAY, rules=WILD)
    chosen = decide(board)
    assert isinstance(chosen, Discard)
    assert chosen.card != card("JK")


def test_a_meld_holding_a_wild_goes_with_its_reading_and_is_accepted():
    # 5H 6H JK reads as 4H or 7H: sent without `as` it would be ambiguous.
    board = table(["5H 6H JK 9C QD KS 2D 8S", OPPONENT], phase=Phase.PLAY, rules=WILD)
    actions = finish_turn(board, play_basic, Random(0))
    melds = [action for action in actions if isinstance(action, Meld)]
    assert melds
    assert card("JK") in melds[0].cards
    assert melds[0].as_ is not None
    assert isinstance(actions[-1], Discard)


def _sevens_with_a_joker(board: Table) -> None:
    """Put 7C 7D JK (the joker as 7H) and 4S 5S 6S on the table, both seat 1's."""
    assert board.hand is not None
    board.hand.melds = [
        TableMeld(
            id="h1-m1",
            kind=MeldKind.SET,
            cards=cards("7C 7D JK"),
            owner=1,
            as_=cards("7C 7D 7H"),
        ),
        TableMeld(
            id="h1-m2",
            kind=MeldKind.RUN,
            cards=cards("4S 5S 6S"),
            owner=1,
            as_=cards("4S 5S 6S"),
        ),
    ]
    board.hand.melds_laid = 2


def test_swaps_a_loose_card_for_a_wild_and_then_plays_the_wild():
    board = table(["7H 2D 9C QH KD", OPPONENT], phase=Phase.PLAY, rules=WILD)
    _sevens_with_a_joker(board)
    actions = finish_turn(board, play_basic, Random(0))
    assert actions[0] == Swap("h1-m1", card("7H"))
    assert any(isinstance(a, LayOff) and a.card == card("JK") for a in actions[1:])


@pytest.mark.parametrize("strategy", [play_basic, play_random_move])
def test_under_meld_now_a_swap_goes_with_a_use_of_its_wild(strategy):
    board = table(["7H 2D 9C QH KD", OPPONENT], phase=Phase.PLAY, rules=MELD_NOW)
    _sevens_with_a_joker(board)
    # `finish_turn` plays each answer as one request: a swap alone would be refused.
    for seed in range(20):
        trial = board.copy()
        actions = finish_turn(trial, strategy, Random(seed))
        if isinstance(actions[0], Swap):
            assert actions[1] in {
                LayOff(card("JK"), "h1-m1", card("7S")),
                LayOff(card("JK"), "h1-m2", card("3S")),
                LayOff(card("JK"), "h1-m2", card("7S")),
            }
            if strategy is play_basic:
                return
    assert strategy is play_random_move, "basic swaps the loose 7H for the joker"


# --- concealed turns ------------------------------------------------------------

GOES_OUT = "AC 2C 3C 5D 5H 5S 9C 10C JC QC KD"
"""Three melds and KD to throw."""


def test_goes_out_of_a_concealed_hand_in_one_request():
    board = table([GOES_OUT, OPPONENT], phase=Phase.PLAY, rules=BOATHOUSE)
    request = request_of(decide(board))
    assert len(request) == 4
    assert request[-1] == Discard(card("KD"))
    finish_turn(board, play_basic, Random(0))
    assert board.last_hand is not None
    assert board.last_hand.out_seat == 0


def test_random_sometimes_goes_out_of_a_concealed_hand_and_otherwise_discards():
    board = table([GOES_OUT, OPPONENT], phase=Phase.PLAY, rules=BOATHOUSE)
    moves = [play_random_move(view_for(board), Random(seed)) for seed in range(20)]
    assert any(isinstance(move, tuple) for move in moves)
    assert any(isinstance(move, Discard) for move in moves)


def test_keeps_the_cards_that_build_melds_in_a_concealed_hand():
    # No going out yet: the pairs and the near run stay, a high loner goes.
    board = table(
        ["AC 2C 5D 5H 9C 10C JC KD 3S 7H 8S", OPPONENT], phase=Phase.PLAY, rules=BOATHOUSE
    )
    chosen = decide(board)
    assert isinstance(chosen, Discard)
    assert chosen.card in cards("KD 3S 7H 8S")
