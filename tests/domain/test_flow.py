"""What follows by itself (docs/rules.md "End of the game"): the result of a hand, the
next deal with the deal passing on, the end of the game by target or by deals,
ties, three to six seats, and action lists that must not spill into the next hand."""

from __future__ import annotations

import copy

import pytest

from service.domain.actions import Discard, LayOff, Meld
from service.domain.errors import HandOver
from service.domain.events import GameFinished, HandDealt, HandEnded
from service.domain.play import play
from service.domain.rule_values import Exhausted, Scoring
from service.domain.rules import RuleSet, default_hand_size
from service.domain.state import HandEnding, Source, Status
from service.domain.turns import decide, legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, all_cards, card, cards, new_game, seated_game

# docs/rules.md's worked example: seat 0 is left holding K♠ 9♦ 4♣ A♥ = 24 points.
OPPONENT_24 = "KS 9D 4C AH"
NEXT_HAND = "10H JH QH KH AD 2D 3D 4D 5D 6D"


def meld(codes: str) -> Meld:
    return Meld(tuple(cards(codes)))


def clubs_game(rules: RuleSet | None = None) -> Game:
    """Seat 1 (first to move) holds a club run and the 5D; the stock starts 10C 3H 6D."""
    return new_game([OPPONENT_24, "7C 8C 9C 5D"], upcard="2H", stock="10C 3H 6D", rules=rules)


def go_rummy(game: Game) -> None:
    """Seat 1 melds the 7C-10C and discards the 5D: 48 points in the classic game."""
    game.act(1, STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")))


def go_out(game: Game) -> None:
    """Seat 1 melds, then goes out on its next turn: 24 points in the classic game."""
    game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    game.turn(0, discard="3H")
    game.act(1, STOCK, LayOff(card("10C"), "h1-m1"), Discard(card("6D")))


# --- the result of a hand ------------------------------------------------------------


def test_the_result_of_a_hand_stays_readable_as_last_hand() -> None:
    game = clubs_game()
    go_rummy(game)
    last = game.last
    assert last.hand_number == 1
    assert last.how is HandEnding.RUMMY
    assert last.out_seat == 1
    assert last.remaining == (tuple(cards(OPPONENT_24)), ())
    assert last.values == (24, 0)
    assert last.points == (0, 48)
    assert last.totals == (0, 48)
    assert game.table.totals == [0, 48]
    assert game.table.hands_played == 1


def test_a_plain_out_scores_the_cards_left_in_the_other_hands() -> None:
    game = clubs_game()
    go_out(game)
    assert (game.last.how, game.last.points) == (HandEnding.OUT, (0, 24))


def test_totals_add_up_over_hands() -> None:
    # Hand 2 (dealer 1, seat 0 first) deals the same hands again.
    again = new_game([OPPONENT_24, "7C 8C 9C 5D"], upcard="2H", stock="10C 3H 6D", dealer=1)
    game = new_game(
        [OPPONENT_24, "7C 8C 9C 5D"],
        upcard="2H",
        stock="10C 3H 6D",
        later=[again.decks.explicit[0]],
    )
    go_rummy(game)
    game.turn(0, discard="10C")
    game.act(1, DISCARD, meld("7C 8C 9C 10C"), Discard(card("5D")))
    assert game.last.hand_number == 2
    assert game.last.totals == (0, 96)
    assert game.table.totals == [0, 96]


# --- the next deal -------------------------------------------------------------------


def test_the_next_hand_is_dealt_at_once_with_the_deal_passing_on() -> None:
    game = clubs_game()
    go_rummy(game)
    assert isinstance(game.events[-2], HandEnded)
    assert isinstance(game.events[-1], HandDealt)
    hand = game.hand
    assert (hand.number, hand.dealer, hand.turn) == (2, 1, 0)
    assert game.table.dealer == 1
    assert [len(held) for held in hand.hands] == [4, 4]
    assert hand.melds == []
    assert sum(all_cards(game.table).values()) == 52
    assert legal_moves(game.table, 0).draw == (Source.STOCK, Source.DISCARD)


def test_the_deal_passes_on_after_a_void_hand_too() -> None:
    game = new_game(["2C 3D AH", "KC 3S 2S"], upcard="5C", stock="9D", rules=RuleSet(max_turns=1))
    game.turn(1, discard="9D")
    assert game.last.points == (0, 0)
    assert (game.hand.number, game.hand.dealer, game.hand.turn) == (2, 1, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_deal_goes_round_every_seat(players: int) -> None:
    game = seated_game(RuleSet(max_turns=1), players, dealer=0)
    dealers = []
    for _ in range(players + 1):
        dealers.append(game.hand.dealer)
        assert game.hand.turn == (game.hand.dealer + 1) % players
        seat = game.hand.turn
        game.act(seat, STOCK, Discard(game.hand.hands[seat][-1]))
    assert dealers == [seat % players for seat in range(players + 1)]


# --- the end of the game -------------------------------------------------------------


def test_the_game_ends_when_a_hand_takes_a_winner_to_the_target() -> None:
    game = clubs_game(RuleSet(target=48))
    go_rummy(game)
    assert game.events[-1] == GameFinished(winner=1, totals=(0, 48))
    assert game.table.status is Status.FINISHED
    assert game.table.winner == 1
    assert game.table.hand is None
    assert game.last.points == (0, 48)


def test_the_game_goes_on_below_the_target() -> None:
    game = clubs_game(RuleSet(target=49))
    go_rummy(game)
    assert game.table.status is Status.PLAYING
    assert game.table.hand_number == 2


def test_under_penalty_scoring_the_game_ends_when_someone_reaches_the_target() -> None:
    game = clubs_game(RuleSet(scoring=Scoring.PENALTY, target=40))
    go_rummy(game)
    assert game.last.points == (48, 0)
    assert game.table.finished
    assert game.table.winner == 1  # the lowest total wins


def test_a_game_of_one_deal_ends_after_one_hand_with_the_best_total() -> None:
    game = clubs_game(RuleSet.from_dict({"deals": 1}))
    go_out(game)
    assert game.table.finished
    assert game.table.winner == 1
    assert game.events[-1] == GameFinished(winner=1, totals=(0, 24))


def test_a_game_of_deals_under_penalty_scoring_is_won_by_the_lowest_total() -> None:
    game = clubs_game(RuleSet.from_dict({"deals": 1, "scoring": "penalty"}))
    go_out(game)
    assert game.events[-1] == GameFinished(winner=1, totals=(24, 0))


def test_the_first_dealer_is_drawn_from_the_seed_unless_given() -> None:
    for players in range(2, 7):
        game = seated_game(RuleSet(), players, dealer=None, seed=f"dealer-{players}")
        assert game.hand.dealer == game.decks.first_dealer(players)
        assert game.hand.turn == (game.hand.dealer + 1) % players


def test_a_game_of_two_deals_deals_a_second_hand() -> None:
    game = clubs_game(RuleSet.from_dict({"deals": 2}))
    go_out(game)
    assert not game.table.finished
    assert game.table.hand_number == 2


def test_a_tie_after_the_last_deal_means_another_hand() -> None:
    # A void first hand leaves 0-0: the single deal does not end the game.
    game = new_game(
        ["2C 3D AH", "KC 3S 2S"],
        upcard="5C",
        stock="9D",
        rules=RuleSet.from_dict({"deals": 1, "max_turns": 1}),
    )
    game.turn(1, discard="9D")
    assert game.table.hands_played == 1
    assert not game.table.finished
    assert game.table.hand_number == 2


def test_a_tie_for_the_win_at_the_target_means_another_hand() -> None:
    # Penalty scoring, exhausted hands counted: both hands hold 10 and reach the target.
    rules = RuleSet(scoring=Scoring.PENALTY, exhausted=Exhausted.SCORE, target=10, max_turns=2)
    game = new_game(["KS", "KH"], upcard="5C", stock="2D 3D", rules=rules)
    game.turn(1, discard="2D")
    game.turn(0, discard="3D")
    assert game.last.totals == (10, 10)
    assert not game.table.finished
    assert game.table.hand_number == 2


def test_after_a_tie_the_next_clear_result_ends_the_game() -> None:
    rules = RuleSet.from_dict({"deals": 1, "max_turns": 1, "exhausted": "score"})
    hand_2 = new_game(["2C 3D AH", "KC 3S 2S"], upcard="5C", stock="9D", dealer=1)
    game = new_game(
        ["2C 3D AH", "3S 2H AS"],
        upcard="5C",
        stock="9D",
        rules=rules,
        later=[hand_2.decks.explicit[0]],
    )
    # Hand 1: both hold 6, so both are lowest and there is nothing to share.
    game.turn(1, discard="9D")
    assert game.last.points == (0, 0)
    assert not game.table.finished
    # Hand 2: dealer 1, seat 0 moves; 6 against 15 gives seat 0 nine points.
    game.turn(0, discard="9D")
    assert game.events[-1] == GameFinished(winner=0, totals=(9, 0))


# --- three to six seats --------------------------------------------------------------

OTHERS = ["2D 3H 4S", "5D 6H 7S", "KD QH JS", "AD AH AS", "9D 9H 9S"]
OTHER_VALUES = [9, 18, 30, 3, 27]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_seats_are_dealt_the_rules_hand_size(players: int) -> None:
    game = seated_game(RuleSet(), players, dealer=0)
    size = default_hand_size(players)
    assert size == {3: 7, 4: 7, 5: 6, 6: 6}[players]
    assert [len(held) for held in game.hand.hands] == [size] * players
    assert sum(all_cards(game.table).values()) == 52


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_going_out_at_a_bigger_table_scores_every_other_hand(players: int) -> None:
    hands = [OTHERS[0], "7C 8C 9C", *OTHERS[1 : players - 1]]
    game = new_game(hands, upcard="2C", stock="10C", rules=RuleSet(target=500))
    game.act(1, STOCK, meld("7C 8C 9C 10C"))
    others = sum(OTHER_VALUES[: players - 1])
    assert game.last.how is HandEnding.RUMMY
    assert game.last.points == (0, 2 * others, *([0] * (players - 2)))
    assert (game.hand.dealer, game.hand.turn) == (1, 2)


# --- lists of actions and stale hands ------------------------------------------------


def test_a_list_of_actions_is_played_in_order() -> None:
    game = clubs_game()
    made = game.act(1, STOCK, meld("7C 8C 9C"), Discard(card("5D")))
    assert [type(e).__name__ for e in made] == ["CardDrawn", "MeldLaid", "CardDiscarded"]
    assert game.hand.turn == 0


def test_a_list_may_not_spill_over_into_the_next_hand() -> None:
    game = clubs_game()
    reference = clubs_game()
    go_rummy(reference)
    with pytest.raises(HandOver):
        play(game.table, 1, [STOCK, meld("7C 8C 9C 10C"), Discard(card("5D")), DISCARD], game.decks)
    # The actions before the refused one stand; the new hand is as dealt.
    assert game.table == reference.table


def test_deciding_for_a_hand_that_is_over_is_refused() -> None:
    game = clubs_game()
    go_rummy(game)
    before = copy.deepcopy(game.table)
    with pytest.raises(HandOver) as refused:
        decide(game.table, 0, STOCK, game.decks, hand_number=1)
    assert refused.value.code == "hand_over"
    assert game.table == before
    assert decide(game.table, 0, STOCK, game.decks, hand_number=2)


def test_once_a_player_is_out_nobody_may_lay_off_to_cut_their_count() -> None:
    # Seat 0 holds the JC, which would fit seat 1's clubs, when seat 1 goes out;
    # hand 2 deals seat 0 the same cards again.
    hands = ["JC 9D 4C AH", "7C 8C 9C 5D"]
    again = new_game(hands, upcard="2H", stock="10C 3H 6D", dealer=1)
    game = new_game(hands, upcard="2H", stock="10C 3H 6D", later=[again.decks.explicit[0]])
    go_out(game)
    last = copy.deepcopy(game.last)
    assert last.values == (24, 0)
    with pytest.raises(HandOver):
        decide(game.table, 0, LayOff(card("JC"), "h1-m1"), game.decks, hand_number=1)
    assert game.hand.melds == []
    game.draw(0)
    assert game.refuses(0, LayOff(card("JC"), "h1-m1")) == "unknown_meld"
    assert game.refuses(0, meld("7C 8C 9C")) == "card_not_in_hand"
    assert game.last == last
