"""docs/rules.md "Variants", Boathouse Rum and Wrotham Rummy, read sentence by
sentence: each test quotes the words it holds the engine to.

Every expectation is worked out by hand from the text: hands and decks are
written out, points added up from the card values ("In hand: A `ace_value`,
2-10 face, J Q K 10").
"""

from __future__ import annotations

from collections import Counter

import pytest

from service.domain.actions import Discard, Draw, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, JOKER, Card
from service.domain.errors import InvalidRules
from service.domain.events import CardDrawn, HandEnded, StockRecycled
from service.domain.rule_values import Aces, GoingOut
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, Phase, Source
from service.domain.turns import legal_moves
from tests.domain.tables import (
    DISCARD,
    STOCK,
    Game,
    card,
    cards,
    new_game,
    seated_game,
    starter_deck_for,
)


def boathouse(**options: object) -> RuleSet:
    return RuleSet.from_dict({"variant": "boathouse", **options})


def wrotham(**options: object) -> RuleSet:
    return RuleSet.from_dict({"variant": "wrotham", **options})


def meld(codes: str) -> Meld:
    return Meld(tuple(cards(codes)))


def discard(code: str) -> Discard:
    return Discard(card(code))


# Boathouse's table for most tests: dealer 0, so seat 1 moves first.
SEAT_1 = "AS 2S 5H 7H 9H JC QC 3D 6S 8S"
SEAT_0 = "2C 3C 4C 5C 6C 9D 10D JD QD 4H"
UPCARD = "KH"
STOCK_TOP = ["KS", "KD", "8C"]


def phase_of(game: Game) -> Phase:
    """The hand's phase now (a call, so a type checker does not carry over what an
    earlier assertion about it narrowed)."""
    return game.hand.phase


def boathouse_game(**options: object) -> Game:
    return new_game([SEAT_0, SEAT_1], UPCARD, STOCK_TOP, rules=boathouse(**options))


# --- Boathouse Rum ----------------------------------------------------------------------
# "Two players, 10 cards (`hand_size` may change it); ace high or low, not both ends,
# no wrap; an ace in hand counts 11."


@pytest.mark.parametrize("players", [3, 4, 6])
def test_boathouse_seats_two_players_only(players: int) -> None:
    with pytest.raises(InvalidRules):
        boathouse().check_players(players)
    boathouse().check_players(2)


def test_boathouse_deals_ten_cards_each_unless_hand_size_says_otherwise() -> None:
    game = seated_game(boathouse(), 2, explicit=[FULL_DECK])
    assert [len(held) for held in game.hand.hands] == [10, 10]
    game = seated_game(boathouse(hand_size=7), 2, explicit=[FULL_DECK])
    assert [len(held) for held in game.hand.hands] == [7, 7]
    assert game.hand.discard == [FULL_DECK[14]]


def test_boathouse_aces_are_high_or_low_but_never_turn_the_corner() -> None:
    assert boathouse().aces is Aces.HIGH_OR_LOW
    with pytest.raises(InvalidRules):
        boathouse(aces="around_the_corner")
    # Seat 0 goes out with Q-K-A (ace high) and A-2-3 (ace low)...
    hands = ["QH KH AH AC 2C 3C 5D 6D 7D 9S", "2S 3S 4S 6H 8H 10H JC QC 4D 8D"]
    game = new_game(hands, "5S", ["9C", "4C"], rules=boathouse())
    game.turn(1, "9C")
    game.act(0, STOCK, meld("QH KH AH"), meld("AC 2C 3C 4C"), meld("5D 6D 7D"), discard("9S"))
    assert game.last.out_seat == 0
    # ... but K-A-2 is no run.
    hands = ["KH AH 2H 4C 5C 6C 5D 6D 7D 9S", "2S 3S 4S 6H 8H 10H JC QC 4D 8D"]
    game = new_game(hands, "5S", ["9C", "3C"], rules=boathouse())
    game.turn(1, "9C")
    code = game.refuses(
        0, STOCK, meld("KH AH 2H"), meld("3C 4C 5C 6C"), meld("5D 6D 7D"), discard("9S")
    )
    assert code == "invalid_meld"


def test_boathouse_an_ace_left_in_hand_counts_eleven() -> None:
    game = boathouse_game()
    game.act(1, DISCARD, STOCK, discard("5H"))
    game.act(0, STOCK, meld("2C 3C 4C 5C 6C"), meld("9D 10D JD QD KD"), discard("4H"))
    # Seat 1 holds AS 2S 7H 9H JC QC 3D 6S 8S KH KS.
    assert game.last.values[1] == 11 + 2 + 7 + 9 + 10 + 10 + 3 + 6 + 8 + 10 + 10


# "**Draw** the top of the stock; or the top discard and at once (phase `second_draw`)
# the new top discard or the top of the stock — only the stock if the pile is empty;
# an empty stock recycles per [the rules' "Running out of stock"] or the hand ends as
# exhausted."


def test_boathouse_a_stock_draw_is_the_whole_draw() -> None:
    game = boathouse_game()
    game.draw(1, Source.STOCK)
    assert game.hand.phase is Phase.PLAY
    assert card("KS") in game.hand.hands[1]


def test_boathouse_taking_the_top_discard_asks_at_once_for_a_second_card() -> None:
    game = boathouse_game()
    made = game.draw(1, Source.DISCARD)
    assert made == [CardDrawn(seat=1, source=Source.DISCARD, card=card("KH"))]
    assert game.hand.phase is Phase.SECOND_DRAW
    assert game.refuses(1, discard("5H")) == "wrong_phase"
    assert game.refuses(1, meld("7H 9H 5H")) == "wrong_phase"
    # The pile is empty now: only the stock.
    assert legal_moves(game.table, 1).draw == (Source.STOCK,)
    assert game.refuses(1, DISCARD) == "wrong_phase"
    made = game.draw(1, Source.STOCK)
    assert made == [CardDrawn(seat=1, source=Source.STOCK, card=card("KS"), second=True)]
    assert phase_of(game) is Phase.PLAY


def test_boathouse_the_second_card_may_be_the_new_top_discard() -> None:
    game = boathouse_game()
    game.turn(1, "5H")  # the pile: KH, 5H
    game.draw(0, Source.DISCARD)
    assert legal_moves(game.table, 0).draw == (Source.STOCK, Source.DISCARD)
    made = game.draw(0, Source.DISCARD)
    assert made == [CardDrawn(seat=0, source=Source.DISCARD, card=card("KH"), second=True)]
    assert game.hand.discard == []
    assert {card("5H"), card("KH")} <= set(game.hand.hands[0])


def stock_of_three(**options: object) -> Game:
    """24 cards each from the pack in reference order (seat 1 AC 3C ..., seat 0 2C 4C
    ...): deck[48] 10S is the upcard and the stock is JS, QS, KS (JS on top)."""
    return seated_game(boathouse(hand_size=24, **options), 2, dealer=0, explicit=[FULL_DECK])


def test_boathouse_an_empty_stock_on_the_second_draw_recycles() -> None:
    game = stock_of_three(recycle_shuffle=False)
    assert game.hand.discard == [card("10S")]
    game.turn(1, "AC")  # seat 1 holds deck[0], deck[2], ...: AC, 3C, ...
    game.turn(0, "2C")
    game.turn(1, "3C")  # the stock is empty; the pile 10S AC 2C 3C
    game.draw(0, Source.DISCARD)  # 3C
    made = game.draw(0, Source.STOCK)
    # Turned over: the oldest discard on top; 2C stays as the pile.
    assert made == [
        StockRecycled(seat=0, stock=tuple(cards("10S AC")), shuffled=False),
        CardDrawn(seat=0, source=Source.STOCK, card=card("10S"), second=True),
    ]
    assert game.hand.discard == [card("2C")]
    assert game.refuses(0, discard("3C")) == "discard_taken_card"
    game.discard(0, "10S")


def test_boathouse_an_empty_stock_without_a_recycle_ends_the_hand_on_the_second_draw() -> None:
    game = stock_of_three(recycles=0)
    game.turn(1, "AC")
    game.turn(0, "2C")
    game.turn(1, "3C")
    game.draw(0, Source.DISCARD)
    made = game.draw(0, Source.STOCK)
    assert isinstance(made[0], HandEnded)
    assert made[0].how is HandEnding.EXHAUSTED


# "One discard, so the hand grows by one."


def test_boathouse_a_turn_that_took_the_pile_ends_with_one_more_card() -> None:
    game = boathouse_game()
    game.act(1, DISCARD, STOCK, discard("5H"))
    assert len(game.hand.hands[1]) == 11
    assert game.hand.turn == 0
    assert game.hand.phase is Phase.DRAW


# "No card taken from the pile this turn may be discarded this turn."


def test_boathouse_neither_card_taken_from_the_pile_may_be_discarded() -> None:
    game = boathouse_game()
    game.turn(1, "5H")
    game.act(0, DISCARD, DISCARD)  # 5H, then KH
    assert game.refuses(0, discard("5H")) == "discard_taken_card"
    assert game.refuses(0, discard("KH")) == "discard_taken_card"
    offered = legal_moves(game.table, 0).discard
    assert set(offered) == set(cards(SEAT_0))
    game.discard(0, "4H")
    # On a later turn they may go.
    game.turn(1, "7H")
    game.turn(0, "5H")


# "**Concealed**: melds only inside one request whose actions empty the hand (its melds
# and, as `going_out` requires, a final discard); any other meld, lay-off or swap is 409
# `meld_only_going_out`."


def test_boathouse_a_meld_on_its_own_is_meld_only_going_out() -> None:
    game = boathouse_game()
    game.turn(1, "5H")
    game.draw(0)
    assert game.refuses(0, meld("2C 3C 4C")) == "meld_only_going_out"
    assert game.refuses(0, Swap("h1-m1", card("2C"))) == "meld_only_going_out"
    moves = legal_moves(game.table, 0)
    assert (moves.melds, moves.lay_offs, moves.swaps) == ((), (), ())
    assert moves.can_go_out is True


def test_boathouse_melds_in_a_request_that_leaves_cards_are_meld_only_going_out() -> None:
    game = boathouse_game()
    game.turn(1, "5H")
    game.draw(0)
    code = game.refuses(0, meld("2C 3C 4C 5C 6C"), discard("4H"))
    assert code == "meld_only_going_out"
    # Melding all but one card and stopping there does not go out either.
    code = game.refuses(0, meld("2C 3C 4C 5C 6C"), meld("9D 10D JD QD KD"))
    assert code == "meld_only_going_out"


def test_boathouse_melds_alone_may_empty_the_hand_when_going_out_is_any() -> None:
    hands = ["2C 3C 4C 5C 6C 7C 9D 10D JD QD", SEAT_1]
    game = new_game(hands, UPCARD, ["KS", "KD"], rules=boathouse())
    game.turn(1, "5H")
    game.act(0, STOCK, meld("2C 3C 4C 5C 6C 7C"), meld("9D 10D JD QD KD"))
    assert game.last.out_seat == 0


def test_boathouse_under_going_out_discard_the_list_ends_with_the_discard() -> None:
    hands = ["2C 3C 4C 5C 6C 7C 9D 10D JD QD", SEAT_1]
    game = new_game(hands, UPCARD, ["KS", "KD"], rules=boathouse(going_out="discard"))
    assert game.table.rules.going_out is GoingOut.DISCARD
    game.turn(1, "5H")
    code = game.refuses(0, STOCK, meld("2C 3C 4C 5C 6C 7C"), meld("9D 10D JD QD KD"))
    assert code == "must_discard_last"
    game.act(0, STOCK, meld("2C 3C 4C 5C 6C 7C"), meld("9D 10D JD QD"), discard("KD"))
    assert game.last.out_seat == 0


def test_boathouse_a_going_out_list_may_meld_both_cards_taken_from_the_pile() -> None:
    hands = ["2C 3C 4C 5C 6C 7C 9D 10D JD 9S", SEAT_1]
    game = new_game(hands, "KD", ["QD"], rules=boathouse())
    game.turn(1, "QD")  # the pile: KD, QD
    game.act(0, DISCARD, DISCARD)  # QD, KD
    assert legal_moves(game.table, 0).can_go_out is True
    game.act(0, meld("2C 3C 4C 5C 6C 7C"), meld("9D 10D JD QD KD"), discard("9S"))
    assert game.last.out_seat == 0


def test_boathouse_a_going_out_list_may_not_end_on_a_card_taken_from_the_pile() -> None:
    hands = ["2C 3C 4C 5C 6C 7C 9D 10D JD QD", SEAT_1]
    game = new_game(hands, "6H", ["KD"], rules=boathouse())
    game.turn(1, "KD")  # the pile: 6H, KD
    game.act(0, DISCARD, DISCARD)  # KD, 6H
    # The second meld would leave only 6H, which may not be discarded this turn.
    code = game.refuses(0, meld("2C 3C 4C 5C 6C 7C"), meld("9D 10D JD QD KD"), discard("6H"))
    assert code == "would_strand_taken_card"
    assert legal_moves(game.table, 0).can_go_out is False
    game.discard(0, "2C")


# "(No meld is on the table before the hand ends, so there is nothing to lay off onto.)"


def test_boathouse_a_lay_off_is_meld_only_going_out_and_no_meld_is_ever_on_the_table() -> None:
    game = boathouse_game()
    game.act(1, DISCARD, STOCK, discard("5H"))
    game.draw(0)
    assert game.hand.melds == []
    assert game.refuses(0, LayOff(card("4H"), "h1-m1")) == "meld_only_going_out"


def test_boathouse_a_going_out_list_may_lay_off_onto_its_own_meld() -> None:
    game = boathouse_game()
    game.turn(1, "5H")
    made = game.act(
        0,
        STOCK,
        meld("2C 3C 4C 5C"),
        LayOff(card("6C"), "h1-m1"),
        meld("9D 10D JD QD KD"),
        discard("4H"),
    )
    ended = [event for event in made if isinstance(event, HandEnded)]
    assert [event.out_seat for event in ended] == [0]


# "Turns: `[draw discard, draw stock, discard]`; `[draw stock, meld, meld, discard]`
# goes out."


def test_boathouse_the_rules_example_turns() -> None:
    game = boathouse_game()
    game.act(1, Draw(Source.DISCARD), Draw(Source.STOCK), discard("5H"))
    assert game.held(1) == set(SEAT_1.split()) - {"5H"} | {"KH", "KS"}
    made = game.act(
        0, Draw(Source.STOCK), meld("2C 3C 4C 5C 6C"), meld("9D 10D JD QD KD"), discard("4H")
    )
    ended = [event for event in made if isinstance(event, HandEnded)]
    assert [(event.out_seat, event.how) for event in ended] == [(0, HandEnding.OUT)]


# "The winner scores the loser's whole hand; no rummy bonus (every going out is in one
# turn), and `last_hand` shows `rummy: false`."


def test_boathouse_the_winner_scores_the_losers_whole_hand_without_a_rummy_bonus() -> None:
    # Seat 1 holds a meld of its own (7H 8H 9H): it counts all the same.
    hands = [SEAT_0, "AS 2S 8H 7H 9H JC QC 3D 6S 8S"]
    game = new_game(hands, UPCARD, STOCK_TOP, rules=boathouse())
    game.turn(1, "2S")
    game.act(0, STOCK, meld("2C 3C 4C 5C 6C"), meld("9D 10D JD QD KD"), discard("4H"))
    whole = 11 + 8 + 7 + 9 + 10 + 10 + 3 + 6 + 8 + 10  # AS 8H 7H 9H JC QC 3D 6S 8S KS
    assert game.last.points == (whole, 0)
    assert game.last.how is HandEnding.OUT
    assert game.last.rummy is False
    assert game.table.totals == [whole, 0]


# --- Wrotham Rummy ----------------------------------------------------------------------
# "52 + 3 wild `JK` (55); swaps (seed 002); six deals."


def test_wrotham_plays_six_deals_of_a_pack_of_fifty_five_with_three_jokers() -> None:
    rules = wrotham()
    assert rules.deck_size == 55
    assert Counter(rules.pack)[JOKER] == 3
    assert rules.deals == 6
    assert rules.target is None
    assert rules.swap is True
    with pytest.raises(InvalidRules):
        wrotham(deals=5)


# "**Deal** (n players): 7 rounds from the starter (after the dealer), then `deck[7n]` to
# the starter; no upcard, the pile starts empty, the stock at `deck[7n+1]`. The
# starter's first turn has no draw (phase `play`)."


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 2), (6, 4)])
def test_wrotham_deals_seven_rounds_then_an_eighth_card_to_the_starter(
    players: int, dealer: int
) -> None:
    rules = wrotham()
    deck = rules.pack
    game = seated_game(rules, players, dealer=dealer, explicit=[deck])
    hand = game.hand
    starter = (dealer + 1) % players
    for seat in range(players):
        offset = (seat - starter) % players
        rounds = [deck[offset + players * round_] for round_ in range(7)]
        extra = [deck[7 * players]] if seat == starter else []
        assert Counter(hand.hands[seat]) == Counter(rounds + extra)
    assert hand.discard == []
    assert hand.stock[-1] == deck[7 * players + 1]
    assert len(hand.stock) == 55 - 7 * players - 1
    assert hand.turn == starter
    assert hand.phase is Phase.PLAY


def test_wrotham_the_starters_first_turn_has_no_draw() -> None:
    rules = wrotham()
    game = seated_game(rules, 2, dealer=0, explicit=[rules.pack])
    assert legal_moves(game.table, 1).draw == ()
    assert game.refuses(1, STOCK) == "wrong_phase"
    assert game.refuses(1, DISCARD) == "wrong_phase"
    held = game.hand.hands[1]
    game.act(1, Discard(held[0]))
    # The next seat draws as usual, from the stock or the one discard.
    assert legal_moves(game.table, 0).draw == (Source.STOCK, Source.DISCARD)
    game.draw(0, Source.DISCARD)
    assert game.hand.discard == []


# "Deals 1-3: as `wild`."


WINNER_RUN = "AC 2C 3C 4C 5C 6C 7C"
LOSER = "2D 3H 5S 7D 9H JS KD"  # 2 + 3 + 5 + 7 + 9 + 10 + 10 = 46
HIGH_LOSER = "KD QD JD 10D KH QH 9S"  # 6 x 10 + 9 = 69


def opening_deck(dealer: int, loser: str = LOSER, last: str = "8H") -> tuple[Card, ...]:
    """Two seats: the starter holds WINNER_RUN and `last`, the other `loser`."""
    starter = (dealer + 1) % 2
    hands = [loser, loser]
    hands[starter] = f"{WINNER_RUN} {last}"
    return starter_deck_for(hands, (), dealer, wrotham().pack)


def go_out_at_once(game: Game, last: str = "8H") -> None:
    """The starter melds its run and discards `last`, in its opening turn."""
    game.act(game.hand.turn, meld(WINNER_RUN), discard(last))


def test_wrotham_deals_one_to_three_allow_melds_as_wild_does() -> None:
    game = seated_game(wrotham(), 2, dealer=0, explicit=[opening_deck(0)])
    game.act(1, meld("AC 2C 3C"))
    assert len(game.hand.melds) == 1
    # A rummy there is a rummy: going out in one turn doubles (rummy_bonus double).
    game.act(1, meld("4C 5C 6C 7C"), discard("8H"))
    assert game.last.how is HandEnding.RUMMY
    assert game.last.points == (0, 2 * 46)


# "Deals 4-6: no meld, lay-off or swap except in the request that goes out by melding
# all cards but one and discarding it (a meld, lay-off or swap elsewhere:
# `meld_only_going_out`; such a request without the final discard:
# `must_discard_last`). No meld is on the table before that request ends the hand."


def at_deal_four(fourth: tuple[Card, ...] | None = None, *later: tuple[Card, ...]) -> Game:
    """Two seats, dealer 0: deals 1-3 go out at once; deal 4 (dealer 1, starter 0)."""
    decks = [opening_deck(dealer) for dealer in (0, 1, 0)]
    game = seated_game(wrotham(), 2, dealer=0, explicit=[*decks, fourth or opening_deck(1), *later])
    for _ in range(3):
        go_out_at_once(game)
    assert game.hand.number == 4
    return game


def test_wrotham_deal_four_refuses_a_meld_outside_the_going_out_request() -> None:
    game = at_deal_four()
    assert game.hand.turn == 0
    assert game.refuses(0, meld("AC 2C 3C")) == "meld_only_going_out"
    assert game.refuses(0, meld("AC 2C 3C"), discard("8H")) == "meld_only_going_out"
    assert game.refuses(0, LayOff(card("8H"), "h4-m1")) == "meld_only_going_out"
    assert game.refuses(0, Swap("h4-m1", card("8H"))) == "meld_only_going_out"
    moves = legal_moves(game.table, 0)
    assert (moves.melds, moves.lay_offs, moves.swaps) == ((), (), ())
    assert moves.can_go_out is True
    assert game.hand.melds == []


def test_wrotham_deal_four_a_request_without_the_final_discard_is_must_discard_last() -> None:
    game = at_deal_four()
    assert game.refuses(0, meld("AC 2C 3C"), meld("4C 5C 6C 7C")) == "must_discard_last"
    # Melding all eight (8H makes no meld here: an eight-card run instead).
    game = at_deal_four(opening_deck(1, last="8C"))
    assert game.refuses(0, meld(f"{WINNER_RUN} 8C")) == "must_discard_last"
    go_out_at_once(game, "8C")
    assert game.last.out_seat == 0


# "Decided: "all seven at once" = the hand less the final discard, so the starter's
# opening eight go 7 + 1 like anyone's eight after a draw."


def test_wrotham_the_starter_goes_out_seven_and_one_and_so_does_a_player_after_a_draw() -> None:
    game = at_deal_four()
    go_out_at_once(game)
    assert game.last.out_seat == 0
    # Deal 5 (dealer 0): the starter, seat 1, discards; seat 0 draws 7C and goes out.
    hands = ["AC 2C 3C 4C 5C 6C 9S", f"{LOSER} 8S"]
    game = at_deal_four(None, starter_deck_for(hands, ["7C"], 0, wrotham().pack))
    go_out_at_once(game)
    assert game.hand.number == 5
    game.discard(1, "8S")
    game.act(0, STOCK, meld(WINNER_RUN), discard("9S"))
    assert game.last.out_seat == 0


# "No rummy bonus there (`rummy: false`): going out at once is the rule, not a feat."


def test_wrotham_going_out_in_deals_four_to_six_is_no_rummy() -> None:
    game = at_deal_four()
    go_out_at_once(game)
    assert game.last.how is HandEnding.OUT
    assert game.last.rummy is False
    assert game.last.points == (46, 0)


# "After six deals the best total wins (per `scoring`); ties play on."


def six_deals(sixth_loser: str) -> Game:
    # Starters: seat 1, 0, 1, 0, 1, 0. Seat 0 loses deals 1, 3 and 5 with 46; seat 1
    # loses deals 2 and 4 with 46, or 69, and deal 6 with `sixth_loser`.
    losers = [LOSER, LOSER, LOSER, HIGH_LOSER, LOSER, sixth_loser]
    decks = [opening_deck(number % 2, losers[number]) for number in range(6)]
    game = seated_game(wrotham(), 2, dealer=0, explicit=decks)
    for _ in range(6):
        go_out_at_once(game)
    return game


def test_wrotham_after_six_deals_the_best_total_wins() -> None:
    game = six_deals(LOSER)
    # Seat 1: 2 x 46 + 2 x 46 + 46 = 230; seat 0: 2 x 46 + 69 + 46 = 207.
    assert game.table.totals == [207, 230]
    assert game.table.finished
    assert game.table.winner == 1


def test_wrotham_a_tie_after_six_deals_plays_on() -> None:
    game = six_deals(HIGH_LOSER)
    # Seat 0: 2 x 46 + 69 + 69 = 230, as seat 1.
    assert game.table.totals == [230, 230]
    assert not game.table.finished
    assert game.hand.number == 7
