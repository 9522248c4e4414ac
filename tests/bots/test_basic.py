"""The `basic` strategy plays the way the issue describes, table by table."""

from __future__ import annotations

from random import Random

from service.bots.basic import play_basic
from service.domain.actions import Discard, Draw, LayOff, Meld
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Phase, Source
from tests.bots.tables import Laid, card, finish_turn, table, view_for

STOCK = Draw(Source.STOCK)
DISCARD = Draw(Source.DISCARD)
OPPONENT = 10
"""Ten cards nobody else holds."""


def decide(board, seat: int = 0):
    return play_basic(view_for(board, seat), Random(0))


# --- the draw ----------------------------------------------------------------


def test_takes_the_upcard_that_completes_a_set():
    board = table(["7C 7D 2H 4S 9D JC QH KS 3C 5D", OPPONENT], discard="10C 7H")
    assert decide(board) == DISCARD


def test_takes_the_upcard_that_extends_a_run_in_hand():
    board = table(["4C 5C 6C 2H 4S 9D JH QH KS 10D", OPPONENT], discard="10C 7C")
    assert decide(board) == DISCARD


def test_takes_the_upcard_that_extends_a_meld_on_the_table():
    board = table(
        ["2C 4C 6C 2H 3H 9D JH QH KS 10D", 7],
        discard="10C 7S",
        melds_on_table=[Laid("4S 5S 6S")],
    )
    assert decide(board) == DISCARD


def test_draws_from_the_stock_when_the_upcard_fits_nothing():
    board = table(["7C 7D 2H 4S 9D JC QH 3C 5D AS", OPPONENT], discard="10C KH")
    assert decide(board) == STOCK


def test_draws_from_the_stock_when_the_upcard_only_pairs_up():
    # A pair is not a meld: the upcard must complete or extend one.
    board = table(["7C 2H 4S 9D JC QH KS 3C 5D AS", OPPONENT], discard="10C 7H")
    assert decide(board) == STOCK


# --- melding early, and holding back for a rummy -------------------------------

# Three melds and two loose cards: KH fits nothing, 6C waits for 5C (or the
# seven and spade melds wait for 7C, 8S, QS). Discarding KH leaves the whole
# hand one draw from going out at once.
ONE_DRAW_FROM_RUMMY = "2C 3C 4C 7D 7H 7S 9S 10S JS 6C KH"


def test_melds_as_soon_as_it_can():
    board = table(["3C 4C 5C 2H 9D JD QH KS 7S 8H AD", OPPONENT], phase=Phase.PLAY)
    assert decide(board) == Meld(tuple(cards_of("3C 4C 5C")))


def test_holds_its_melds_back_when_going_rummy_is_one_draw_away():
    board = table([ONE_DRAW_FROM_RUMMY, OPPONENT], phase=Phase.PLAY)
    assert decide(board) == Discard(card("KH"))


def test_melds_anyway_once_it_has_played_this_hand():
    board = table(
        ["2C 3C 4C 7D 7H 7S 6C KH", OPPONENT],
        phase=Phase.PLAY,
        melds_on_table=[Laid("9S 10S JS", owner=0)],
        played_before=[True, False],
    )
    assert isinstance(decide(board), Meld)


def test_melds_anyway_when_the_rules_pay_no_rummy_bonus():
    board = table(
        [ONE_DRAW_FROM_RUMMY, OPPONENT],
        phase=Phase.PLAY,
        rules=RuleSet.from_dict({"rummy_bonus": "none"}),
    )
    assert isinstance(decide(board), Meld)


def test_melds_anyway_when_an_opponent_is_about_to_go_out():
    board = table([ONE_DRAW_FROM_RUMMY, 3], phase=Phase.PLAY)
    assert isinstance(decide(board), Meld)


def test_goes_rummy_when_the_whole_hand_goes_at_once():
    board = table(["2C 3C 4C 7D 7H 7S 9S 10S JS QS KH", OPPONENT], phase=Phase.PLAY)
    actions = finish_turn(board, play_basic, Random(0))
    assert actions[-1] == Discard(card("KH"))
    assert board.last_hand is not None
    assert board.last_hand.how is HandEnding.RUMMY
    assert board.last_hand.out_seat == 0


# --- lay-offs and the discard -------------------------------------------------


def test_lays_off_everything_it_can_before_discarding():
    board = table(
        ["7S 8S 2H 4D 9D JC QH KC 3C 5D AH", OPPONENT],
        phase=Phase.PLAY,
        melds_on_table=[Laid("4S 5S 6S")],
    )
    actions = finish_turn(board, play_basic, Random(0))
    assert actions[:2] == [LayOff(card("7S"), "h1-m1"), LayOff(card("8S"), "h1-m1")]
    assert isinstance(actions[2], Discard)
    assert len(actions) == 3


def test_discards_a_high_card_that_fits_nothing():
    board = table(["QC 2D 2H 5S 6S 8H 8D 10H JH 4C 4D", OPPONENT], phase=Phase.PLAY)
    assert decide(board) == Discard(card("QC"))


def test_discards_a_dead_rank_before_a_live_high_card():
    # Every other eight is on the table, and so are 7C and 9C: 8C can never meld.
    board = table(
        ["8C KH 2D 2H 4S 5S JC QC AH AS 3D", OPPONENT],
        phase=Phase.PLAY,
        discard="3H 9C",
        melds_on_table=[
            Laid("8D 9D 10D"),
            Laid("6H 7H 8H"),
            Laid("8S 9S 10S"),
            Laid("7C 7D 7S"),
        ],
    )
    assert decide(board) == Discard(card("8C"))


def test_avoids_discarding_a_card_that_extends_a_meld_on_the_table():
    # Under `after_own_meld` it may not lay 7S off yet, but it will not hand it
    # to the opponent either; without that meld on the table it would let it go.
    hand = "7S 2C 3C QC QD 4H 5H JC JD 9D 8D"
    rules = RuleSet.from_dict({"lay_off": "after_own_meld"})
    with_meld = table([hand, 7], phase=Phase.PLAY, melds_on_table=[Laid("4S 5S 6S")], rules=rules)
    without = table([hand, 10], phase=Phase.PLAY, rules=rules)
    assert decide(without) == Discard(card("7S"))
    chosen = decide(with_meld)
    assert isinstance(chosen, Discard)
    assert chosen.card != card("7S")


def test_never_discards_the_card_it_took_from_the_discard_pile():
    board = table(
        ["7C 7D 7H 2H 4S 9D JC QH KS 3C 5D", OPPONENT],
        phase=Phase.PLAY,
        taken="7H",
        discard="10C",
        played_before=[True, False],
        melds_on_table=[Laid("8S 9S 10S", owner=0)],
    )
    actions = finish_turn(board, play_basic, Random(0))
    assert Discard(card("7H")) not in actions


def cards_of(codes: str):
    return [card(code) for code in codes.split()]
