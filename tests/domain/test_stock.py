"""Running out of stock (docs/rules.md): recycling the discards shuffled or turned over,
the `recycles` count and Block Rummy, the `exhausted` rule, and the turn cap."""

from __future__ import annotations

import pytest

from service.domain.cards import FULL_DECK
from service.domain.events import CardDrawn, HandDealt, HandEnded, StockRecycled
from service.domain.rule_values import Exhausted, Scoring
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Source
from service.domain.turns import decide, legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, card, cards, new_game

UPCARD = "4S"
STOCK_CARDS = "5S 6S 7S"


def short_stock(rules: RuleSet | None = None) -> Game:
    """Every card but the upcard and three stock cards is dealt: 24 to each seat,
    in reference order. Seat 0 holds the clubs and AD..JD (150 points), seat 1
    QD KD, the hearts and the other spades (168 points)."""
    kept = cards(f"{UPCARD} {STOCK_CARDS}")
    rest = [c.code for c in FULL_DECK if c not in kept]
    return new_game([rest[:24], rest[24:]], UPCARD, STOCK_CARDS, rules=rules)


def run_out(game: Game) -> None:
    """Three plain turns, each discarding the card drawn: the stock is empty, the
    discard pile 4S 5S 6S 7S, and seat 0 is to draw."""
    for seat, code in [(1, "5S"), (0, "6S"), (1, "7S")]:
        game.turn(seat, discard=code)
    assert game.hand.stock == []
    assert game.hand.turn == 0


# --- recycling -----------------------------------------------------------------------


def test_drawing_from_an_empty_stock_shuffles_the_discards_under_the_top_into_a_stock() -> None:
    game = short_stock()
    run_out(game)
    expected = game.decks.recycled_stock(1, 1, cards("4S 5S 6S"))
    made = game.draw(0)
    assert made == [
        StockRecycled(seat=0, stock=tuple(expected), shuffled=True),
        CardDrawn(seat=0, source=Source.STOCK, card=expected[0]),
    ]
    assert expected[0] in game.hand.hands[0]
    assert game.hand.stock == list(reversed(expected[1:]))
    assert game.hand.recycles == 1


def test_the_top_discard_stays_as_the_new_discard_pile() -> None:
    game = short_stock()
    run_out(game)
    game.draw(0)
    assert game.hand.discard == [card("7S")]


def test_without_recycle_shuffle_the_discards_are_turned_over_oldest_on_top() -> None:
    game = short_stock(RuleSet(recycle_shuffle=False))
    run_out(game)
    made = game.draw(0)
    assert made[0] == StockRecycled(seat=0, stock=tuple(cards("4S 5S 6S")), shuffled=False)
    assert "4S" in game.held(0)
    assert game.hand.stock == cards("6S 5S")  # the 5S is next
    assert game.hand.discard == [card("7S")]


def recycle_once_then_run_out(game: Game) -> None:
    """After one turned-over recycle, play the new stock out again: seat 1 to draw."""
    run_out(game)
    game.turn(0, discard="4S")
    game.turn(1, discard="5S")
    game.turn(0, discard="6S")
    assert game.hand.stock == []
    assert game.hand.discard == cards("7S 4S 5S 6S")


def test_a_hand_has_one_recycle_by_default_and_then_ends_exhausted() -> None:
    game = short_stock(RuleSet(recycle_shuffle=False))
    recycle_once_then_run_out(game)
    made = game.draw(1)
    assert [type(e) for e in made] == [HandEnded, HandDealt]
    assert game.last.how is HandEnding.EXHAUSTED
    assert game.last.out_seat is None


def test_recycles_counts_how_many_times_the_stock_is_renewed() -> None:
    game = short_stock(RuleSet(recycle_shuffle=False, recycles=2))
    recycle_once_then_run_out(game)
    made = game.draw(1)
    assert made[0] == StockRecycled(seat=1, stock=tuple(cards("7S 4S 5S")), shuffled=False)
    assert game.hand.recycles == 2
    assert game.hand.discard == [card("6S")]


def test_block_rummy_ends_the_hand_when_the_stock_first_runs_out() -> None:
    game = short_stock(RuleSet(recycles=0))
    run_out(game)
    made = game.draw(0)
    assert [type(e) for e in made] == [HandEnded, HandDealt]
    assert game.last.how is HandEnding.EXHAUSTED
    assert not any(isinstance(e, StockRecycled) for e in game.events)


def test_with_nothing_under_the_top_discard_the_hand_ends_as_if_no_recycle_were_left() -> None:
    # Legal play cannot reach this (a stock draw that empties the stock is
    # followed by a discard, so two cards are in the pile), so set the table up.
    game = short_stock()
    run_out(game)
    hand = game.hand
    hand.hands[1].extend(hand.discard[:-1])
    del hand.discard[:-1]
    assert hand.recycles < game.table.rules.recycles
    [ended] = decide(game.table, 0, STOCK, game.decks)
    assert isinstance(ended, HandEnded)
    assert ended.how is HandEnding.EXHAUSTED


def test_facing_an_empty_stock_a_player_may_take_the_discard_without_a_recycle() -> None:
    game = short_stock()
    run_out(game)
    assert legal_moves(game.table, 0).draw == (Source.STOCK, Source.DISCARD)
    made = game.act(0, DISCARD)
    assert made == [CardDrawn(seat=0, source=Source.DISCARD, card=card("7S"))]
    assert game.hand.stock == []
    assert game.hand.recycles == 0
    assert game.hand.discard == cards("4S 5S 6S")


def test_under_block_rummy_taking_the_discard_from_an_empty_stock_goes_on() -> None:
    game = short_stock(RuleSet(recycles=0))
    run_out(game)
    game.act(0, DISCARD)
    game.discard(0, "AC")
    assert game.table.hand_number == 1
    assert game.hand.turn == 1


# --- the exhausted rule --------------------------------------------------------------


def test_an_exhausted_hand_is_void_by_default_and_the_deal_passes_on() -> None:
    game = short_stock(RuleSet(recycles=0))
    run_out(game)
    game.draw(0)
    last = game.last
    assert (last.hand_number, last.how, last.out_seat) == (1, HandEnding.EXHAUSTED, None)
    assert last.values == (150, 168)
    assert last.points == (0, 0)
    assert last.totals == (0, 0)
    assert game.table.totals == [0, 0]
    assert (game.hand.number, game.hand.dealer, game.hand.turn) == (2, 1, 0)


@pytest.mark.parametrize(
    ("scoring", "points"),
    [(Scoring.WINNER, (18, 0)), (Scoring.PENALTY, (150, 168))],
)
def test_an_exhausted_hand_is_counted_under_exhausted_score(
    scoring: Scoring, points: tuple[int, int]
) -> None:
    game = short_stock(RuleSet(recycles=0, exhausted=Exhausted.SCORE, scoring=scoring))
    run_out(game)
    game.draw(0)
    assert game.last.points == points
    assert game.table.totals == list(points)


# --- the turn cap --------------------------------------------------------------------

# docs/rules.md's example: A 6, B 15, C 7, D 21 -> A scores 9 + 1 + 15 = 25.
EXAMPLE_HANDS = ["2C 3D AH", "KC 3S 2S", "4H 2H AD", "QS JS AC"]


def capped(rules: RuleSet) -> Game:
    """Four seats (dealer 3, so seat 0 first) play one plain turn each."""
    game = new_game(EXAMPLE_HANDS, upcard="5C", stock="9D 9H 9S 9C", dealer=3, rules=rules)
    for seat, drawn in [(0, "9D"), (1, "9H"), (2, "9S"), (3, "9C")]:
        game.turn(seat, discard=drawn)
    return game


@pytest.mark.parametrize(
    ("scoring", "points"),
    [(Scoring.WINNER, (25, 0, 0, 0)), (Scoring.PENALTY, (6, 15, 7, 21))],
)
def test_the_turn_cap_ends_the_hand_and_it_counts_under_exhausted_score(
    scoring: Scoring, points: tuple[int, ...]
) -> None:
    game = capped(RuleSet(max_turns=4, exhausted=Exhausted.SCORE, scoring=scoring))
    last = game.last
    assert (last.how, last.out_seat) == (HandEnding.TURN_CAP, None)
    assert last.values == (6, 15, 7, 21)
    assert last.points == points


def test_seats_tied_for_the_lowest_hand_share_the_winnings_rounded_down() -> None:
    # 6, 6, 7 and 21: the two sixes share 0 + 1 + 15 = 16, eight each.
    hands = ["2C 3D AH", "3S 2S AS", "4H 2H AD", "QS JS AC"]
    rules = RuleSet(max_turns=1, exhausted=Exhausted.SCORE)
    game = new_game(hands, upcard="5C", stock="9D", dealer=3, rules=rules)
    game.turn(0, discard="9D")
    assert game.last.values == (6, 6, 7, 21)
    assert game.last.points == (8, 8, 0, 0)


def test_a_hand_ended_by_the_turn_cap_is_void_by_default() -> None:
    game = capped(RuleSet(max_turns=4))
    assert game.last.how is HandEnding.TURN_CAP
    assert game.last.points == (0, 0, 0, 0)
    assert game.hand.number == 2


def test_the_turn_cap_counts_whole_turns() -> None:
    game = new_game(EXAMPLE_HANDS, upcard="5C", stock="9D", dealer=3, rules=RuleSet(max_turns=1))
    game.draw(0)
    assert game.table.hand_number == 1
    game.discard(0, "9D")
    assert game.last.how is HandEnding.TURN_CAP
    assert game.table.hand_number == 2
