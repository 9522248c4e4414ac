"""The turn rules of docs/rules.md "A turn", "Melds and lay-offs" and "Going out":
who moves, in which phase, what may be drawn, played and discarded, going out
and rummy. Every refused move names its code and changes nothing."""

from __future__ import annotations

import pytest

from service.domain.actions import Action, Discard, Draw, LayOff, Meld
from service.domain.events import MeldLaid
from service.domain.legal import NO_MOVES
from service.domain.play import start
from service.domain.rule_values import LayOffRule, MeldsPerTurn
from service.domain.rules import RuleSet
from service.domain.state import Source, Status, Table
from service.domain.turns import legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, card, cards, new_game, seated_game

# Seat 1 (after dealer seat 0) moves first. Seat 0 holds a spade run; seat 1 a
# club run and a pair of fours; the upcard is the 4S.
SEAT_0 = "AS 2S 3S 9D KH"
SEAT_1 = "7C 8C 9C 4D 4H"


def basic(rules: RuleSet | None = None, stock: str = "5S JD QD 10C 6H 2D") -> Game:
    return new_game([SEAT_0, SEAT_1], upcard="4S", stock=stock, rules=rules)


def meld(codes: str) -> Meld:
    return Meld(tuple(cards(codes)))


# --- turn order and phases -----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealer", "first"),
    [(2, 0, 1), (2, 1, 0), (3, 2, 0), (4, 1, 2), (5, 3, 4), (6, 5, 0)],
)
def test_the_player_after_the_dealer_moves_first(players: int, dealer: int, first: int) -> None:
    game = seated_game(RuleSet(), players, dealer)
    assert game.hand.turn == first
    assert legal_moves(game.table, first).draw == (Source.STOCK, Source.DISCARD)
    for seat in range(players):
        if seat != first:
            assert legal_moves(game.table, seat) == NO_MOVES


def test_a_turn_may_start_by_drawing_the_top_of_the_stock() -> None:
    game = basic()
    game.draw(1)
    assert game.held(1) == {*SEAT_1.split(), "5S"}
    assert game.hand.stock[-1] == card("JD")
    assert game.hand.discard == [card("4S")]


def test_a_turn_may_start_by_taking_the_upcard() -> None:
    game = basic()
    game.draw(1, Source.DISCARD)
    assert game.held(1) == {*SEAT_1.split(), "4S"}
    assert game.hand.discard == []
    assert game.hand.stock[-1] == card("5S")


def test_only_the_top_discard_can_be_taken() -> None:
    game = basic()
    game.turn(1, discard="9C")
    game.draw(0, Source.DISCARD)
    assert "9C" in game.held(0)
    assert "4S" not in game.held(0)
    assert game.hand.discard == [card("4S")]


def test_discarding_ends_the_turn_and_passes_it_to_the_next_seat() -> None:
    game = basic()
    game.turn(1, discard="4D")
    assert game.hand.turn == 0
    assert game.hand.discard[-1] == card("4D")
    assert legal_moves(game.table, 0).draw == (Source.STOCK, Source.DISCARD)
    assert legal_moves(game.table, 1) == NO_MOVES


def test_the_turn_goes_round_three_seats_and_back() -> None:
    game = seated_game(RuleSet(), players=3, dealer=0)
    order = []
    for _ in range(6):
        seat = game.hand.turn
        order.append(seat)
        drawn = game.hand.stock[-1]
        game.act(seat, STOCK, Discard(drawn))
    assert order == [1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize(
    "action",
    [meld("7C 8C 9C"), LayOff(card("4D"), "h1-m1"), Discard(card("4D"))],
    ids=["meld", "lay_off", "discard"],
)
def test_playing_or_discarding_before_drawing_is_the_wrong_phase(action: Action) -> None:
    game = basic()
    assert game.refuses(1, action) == "wrong_phase"


@pytest.mark.parametrize("first", [STOCK, DISCARD], ids=["stock", "discard"])
@pytest.mark.parametrize("second", [STOCK, DISCARD], ids=["stock", "discard"])
def test_drawing_twice_is_the_wrong_phase(first: Draw, second: Draw) -> None:
    game = basic()
    game.act(1, first)
    assert game.refuses(1, second) == "wrong_phase"


@pytest.mark.parametrize(
    "action",
    [STOCK, DISCARD, meld("AS 2S 3S"), LayOff(card("KH"), "h1-m1"), Discard(card("9D"))],
    ids=["stock", "discard", "meld", "lay_off", "discard_card"],
)
@pytest.mark.parametrize("drawn", [False, True], ids=["draw_phase", "play_phase"])
def test_acting_out_of_turn_is_refused(action: Action, drawn: bool) -> None:
    game = basic()
    if drawn:
        game.draw(1)
    assert game.refuses(0, action) == "not_your_turn"


ANY_ACTION = [STOCK, DISCARD, meld("AS 2S 3S"), LayOff(card("KH"), "h1-m1"), Discard(card("9D"))]


@pytest.mark.parametrize("action", ANY_ACTION, ids=["stock", "discard", "meld", "lay", "drop"])
@pytest.mark.parametrize("seat", [0, 1])
def test_nothing_can_be_played_before_every_seat_is_taken(action: Action, seat: int) -> None:
    table = Table(rules=RuleSet(), seat_count=2, seated=[True, False], first_dealer=0)
    game = Game(table, basic().decks)
    assert start(table, game.decks) == []
    assert table.status is Status.WAITING
    assert game.refuses(seat, action) == "game_not_started"
    assert legal_moves(table, seat) == NO_MOVES


@pytest.mark.parametrize("action", ANY_ACTION, ids=["stock", "discard", "meld", "lay", "drop"])
@pytest.mark.parametrize("seat", [0, 1])
def test_nothing_can_be_played_after_the_game_is_over(action: Action, seat: int) -> None:
    game = new_game(["AS 2S 3S", "7C 8C 9C"], upcard="4D", stock="10C", rules=RuleSet(target=1))
    game.act(1, STOCK, meld("7C 8C 9C 10C"))
    assert game.table.status is Status.FINISHED
    assert game.table.winner == 1
    assert game.refuses(seat, action) == "game_over"
    assert legal_moves(game.table, seat) == NO_MOVES


# --- discarding ----------------------------------------------------------------------


def test_cannot_discard_the_card_taken_from_the_discard_pile() -> None:
    game = basic()
    game.draw(1, Source.DISCARD)
    assert game.refuses(1, Discard(card("4S"))) == "discard_taken_card"
    assert card("4S") not in legal_moves(game.table, 1).discard


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    game = basic()
    game.draw(1)
    assert card("5S") in legal_moves(game.table, 1).discard
    game.discard(1, "5S")
    assert game.hand.discard[-1] == card("5S")


def test_the_card_taken_from_the_discard_pile_may_be_discarded_on_a_later_turn() -> None:
    game = basic()
    game.act(1, DISCARD, Discard(card("4D")))
    game.turn(0, discard="5S")
    game.draw(1)
    game.discard(1, "4S")
    assert game.hand.discard[-1] == card("4S")


def test_every_other_card_may_be_discarded_after_taking_the_upcard() -> None:
    game = basic()
    game.draw(1, Source.DISCARD)
    assert set(legal_moves(game.table, 1).discard) == set(cards(SEAT_1))


# --- a play may not strand the taken card -------------------------------------------


def test_a_meld_that_would_leave_only_the_taken_card_is_refused() -> None:
    game = new_game(["AS 2S 3S", "7C 8C 9C"], upcard="KH")
    game.draw(1, Source.DISCARD)
    assert game.refuses(1, meld("7C 8C 9C")) == "would_strand_taken_card"
    assert legal_moves(game.table, 1).melds == ()


def test_a_lay_off_that_would_leave_only_the_taken_card_is_refused() -> None:
    game = new_game(["AS 2S 3S 9D", "7C 8C 9C 10C"], upcard="KH")
    game.act(1, DISCARD, meld("7C 8C 9C"))
    assert game.refuses(1, LayOff(card("10C"), "h1-m1")) == "would_strand_taken_card"
    assert legal_moves(game.table, 1).lay_offs == ()


def test_a_play_may_leave_only_a_card_drawn_from_the_stock() -> None:
    game = new_game(["AS 2S 3S", "7C 8C 9C"], upcard="KH", stock="QD")
    game.act(1, STOCK, meld("7C 8C 9C"))
    assert game.held(1) == {"QD"}
    game.discard(1, "QD")
    assert game.last.out_seat == 1


def test_a_meld_that_uses_the_taken_card_and_empties_the_hand_goes_out() -> None:
    game = new_game(["AS 2S 3S", "7C 8C 9C"], upcard="10C")
    game.act(1, DISCARD, meld("7C 8C 9C 10C"))
    assert game.last.out_seat == 1


def test_laying_off_the_taken_card_first_lets_the_last_meld_empty_the_hand() -> None:
    # Seat 1 takes the 10C, which fits seat 0's clubs. Melding the fives first
    # would strand the 10C; laying it off first and then melding goes out.
    game = new_game(["7C 8C 9C 2D", "5C 5D 5H 5S"], upcard="KS", stock="JH 10C")
    game.turn(1, discard="JH")
    game.act(0, STOCK, meld("7C 8C 9C"), Discard(card("10C")))
    game.draw(1, Source.DISCARD)
    assert game.refuses(1, meld("5C 5D 5H 5S")) == "would_strand_taken_card"
    game.act(1, LayOff(card("10C"), "h1-m1"), meld("5C 5D 5H 5S"))
    assert game.last.out_seat == 1


# --- melds per turn ------------------------------------------------------------------


def test_several_melds_may_be_laid_in_one_turn_by_default() -> None:
    game = basic()
    made = game.act(1, DISCARD, meld("7C 8C 9C"), meld("4D 4H 4S"))
    assert [e.meld_id for e in made if isinstance(e, MeldLaid)] == ["h1-m1", "h1-m2"]


def test_only_one_meld_a_turn_under_melds_per_turn_one() -> None:
    rules = RuleSet(melds_per_turn=MeldsPerTurn.ONE)
    game = new_game(
        ["AS 2S 3S 9D KH QS JS", "7C 8C 9C 4D 4H 4C 2H"], upcard="KD", stock="5S 6D 7H", rules=rules
    )
    game.act(1, STOCK, meld("7C 8C 9C"))
    assert legal_moves(game.table, 1).melds == ()
    assert game.refuses(1, meld("4C 4D 4H")) == "meld_limit"
    game.discard(1, "5S")
    game.turn(0, discard="6D")
    game.act(1, STOCK, meld("4C 4D 4H"))
    assert [m.owner for m in game.hand.melds] == [1, 1]


def test_the_one_meld_limit_still_allows_lay_offs_that_turn() -> None:
    game = basic(RuleSet(melds_per_turn=MeldsPerTurn.ONE), stock="10C JD")
    game.act(1, STOCK, meld("7C 8C 9C"), LayOff(card("10C"), "h1-m1"))
    assert game.hand.melds[0].cards == cards("7C 8C 9C 10C")


# --- laying off ----------------------------------------------------------------------


def test_a_card_may_be_laid_off_onto_anyones_meld_by_default() -> None:
    # Seat 1 has no meld of its own and lays the 4S off onto seat 0's spades.
    game = new_game(["AS 2S 3S 9D", "4S 8C 9H 2D"], upcard="KH", stock="6D 7D")
    game.turn(1, discard="6D")
    game.act(0, STOCK, meld("AS 2S 3S"), Discard(card("7D")))
    game.act(1, DISCARD, LayOff(card("4S"), "h1-m1"))
    meld_ = game.hand.melds[0]
    assert meld_.cards == cards("AS 2S 3S 4S")
    assert meld_.owner == 0
    assert meld_.laid_off == [(card("4S"), 1)]


def after_own_meld_game() -> Game:
    """Seat 0 has melded the spades; seat 1 holds the 4S and a club run."""
    rules = RuleSet(lay_off=LayOffRule.AFTER_OWN_MELD)
    game = new_game(
        ["AS 2S 3S 9D 8H", "4S 7C 8C 9C 2H"], upcard="KH", stock="6D 7D 10C JH", rules=rules
    )
    game.turn(1, discard="6D")
    game.act(0, STOCK, meld("AS 2S 3S"), Discard(card("7D")))
    game.draw(1)
    return game


def test_after_own_meld_refuses_a_lay_off_onto_anothers_meld_before_an_own_meld() -> None:
    game = after_own_meld_game()
    assert game.refuses(1, LayOff(card("4S"), "h1-m1")) == "lay_off_before_meld"
    assert legal_moves(game.table, 1).lay_offs == ()


def test_after_own_meld_allows_a_lay_off_once_an_own_meld_is_laid_this_turn() -> None:
    game = after_own_meld_game()
    game.meld(1, "7C 8C 9C")
    assert (card("4S"), "h1-m1") in legal_moves(game.table, 1).lay_offs
    game.lay_off(1, "4S", "h1-m1")
    assert game.hand.melds[0].laid_off == [(card("4S"), 1)]


def test_after_own_meld_always_allows_a_lay_off_onto_an_own_meld() -> None:
    game = after_own_meld_game()
    game.meld(1, "7C 8C 9C")
    game.lay_off(1, "10C", "h1-m2")
    assert game.hand.melds[1].cards == cards("7C 8C 9C 10C")


def test_after_own_meld_allows_lay_offs_on_later_turns_too() -> None:
    game = after_own_meld_game()
    game.act(1, meld("7C 8C 9C"), Discard(card("10C")))
    game.turn(0, discard="JH")
    game.act(1, DISCARD, LayOff(card("4S"), "h1-m1"))
    assert game.hand.melds[0].cards == cards("AS 2S 3S 4S")


# --- codes for moves that are no move ------------------------------------------------


def test_laying_off_onto_an_unknown_meld_is_refused() -> None:
    game = basic()
    game.draw(1)
    assert game.refuses(1, LayOff(card("4D"), "h1-m9")) == "unknown_meld"


@pytest.mark.parametrize(
    "action",
    [meld("7C 8C 10C"), LayOff(card("QS"), "h1-m1"), Discard(card("QS"))],
    ids=["meld", "lay_off", "discard"],
)
def test_a_card_not_in_hand_is_refused(action: Action) -> None:
    game = basic()
    game.act(1, STOCK, meld("7C 8C 9C"))
    assert game.refuses(1, action) == "card_not_in_hand"


def test_a_card_of_another_seats_hand_is_not_in_mine() -> None:
    game = basic()
    game.draw(1)
    assert game.refuses(1, Discard(card("KH"))) == "card_not_in_hand"


@pytest.mark.parametrize(
    "codes",
    ["7C 8C", "7C 8C 4D", "7C 9C 4H", "4D 4H 7C", "4D 4H", "7C 8C 9C 4D"],
    ids=["two", "mixed", "gap_and_suit", "set_plus_one", "pair", "run_plus_one"],
)
def test_cards_that_are_no_meld_are_refused(codes: str) -> None:
    game = basic()
    game.draw(1)
    assert game.refuses(1, meld(codes)) == "invalid_meld"


def test_a_card_that_does_not_fit_the_meld_is_refused() -> None:
    game = basic(stock="JC 2D")
    game.act(1, STOCK, meld("7C 8C 9C"))
    assert game.refuses(1, LayOff(card("JC"), "h1-m1")) == "invalid_lay_off"
    assert game.refuses(1, LayOff(card("4D"), "h1-m1")) == "invalid_lay_off"


def test_a_repeated_card_is_no_meld() -> None:
    game = basic()
    game.draw(1)
    assert game.refuses(1, meld("7C 7C 8C")) == "invalid_meld"


def test_a_meld_gets_a_stable_id_and_remembers_who_laid_it() -> None:
    game = basic(stock="5S 10C")
    game.act(1, STOCK, meld("9C 7C 8C"), Discard(card("5S")))
    game.act(0, STOCK, meld("3S 2S AS"), Discard(card("10C")))
    game.act(1, DISCARD, LayOff(card("10C"), "h1-m1"), Discard(card("4D")))
    first, second = game.hand.melds
    assert (first.id, first.owner, first.cards) == ("h1-m1", 1, cards("7C 8C 9C 10C"))
    assert first.laid_off == [(card("10C"), 1)]
    assert (second.id, second.owner, second.cards) == ("h1-m2", 0, cards("AS 2S 3S"))
