"""docs/rules.md "Variants": "Cards and packs" and "Wild cards", sentence by sentence.

Each test names the sentence it holds the engine to; the expectations are worked
out by hand from that text (card values from "Cards and packs", readings from
"Wild cards"), never read back from the engine. Deuces are wild unless a test
says otherwise; seat 1 moves first (dealer seat 0).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from service.domain import scoring, wilds
from service.domain.actions import Action, Discard, LayOff, Meld, Swap
from service.domain.cards import FULL_DECK, JOKER, sorted_cards
from service.domain.errors import IllegalMove, InvalidDeck, WildAmbiguous
from service.domain.events import CardLaidOff, HandDealt, MeldLaid, WildSwapped
from service.domain.melds import End
from service.domain.play import play
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import HandEnding
from service.domain.turns import legal_moves
from tests.domain.tables import STOCK, Game, card, cards, new_game, seated_game


def wild_rules(**options: Any) -> RuleSet:
    return RuleSet.from_dict({"variant": "wild", "wild_rank": "2", **options})


def wild_game(
    seat_0: str, seat_1: str, upcard: str = "KC", stock: str = "QC JC", **options: Any
) -> Game:
    return new_game([seat_0, seat_1], upcard, stock, rules=wild_rules(**options))


def meld(codes: str, as_: str | None = None) -> Meld:
    return Meld(tuple(cards(codes)), None if as_ is None else tuple(cards(as_)))


def refused_request(game: Game, seat: int, *actions: Action) -> str:
    """A request refused as a whole: the service throws the table it played on away
    (play()'s docstring), so it plays on a copy; returns the error code."""
    table = game.table.copy()
    with pytest.raises(IllegalMove) as refused:
        play(table, seat, list(actions), game.decks)
    return refused.value.code


def laid(game: Game, meld_id: str) -> tuple[list[str], list[str]]:
    found = game.hand.meld(meld_id)
    assert found is not None
    assert found.as_ is not None
    return [c.code for c in found.cards], [c.code for c in found.as_]


# === Cards and packs ====================================================================

# "Printed joker: `JK`. Where the pack has none, nobody holds it: 409 `card_not_in_hand`."


def test_in_a_game_without_jokers_nobody_holds_jk() -> None:
    game = new_game(["7C 8C 9C 2D", "5H 6H 7H 2S"], upcard="KD", stock="QD")
    game.draw(1)
    assert game.refuses(1, meld("5H 6H JK")) == "card_not_in_hand"
    assert game.refuses(1, Discard(JOKER)) == "card_not_in_hand"
    assert game.refuses(1, LayOff(JOKER, "h1-m1")) == "card_not_in_hand"


# "Pack: `packs` x 52 + `jokers` x `JK`. Reference order: pack 1 in the 52-card order,
# then pack 2, then the `JK`s"


def test_the_pack_is_the_52_cards_in_reference_order_then_the_jokers() -> None:
    assert wild_rules().pack == (*FULL_DECK, JOKER, JOKER)
    assert wild_rules(jokers=1).pack == (*FULL_DECK, JOKER)
    assert RuleSet.from_dict({"variant": "wild", "jokers": 0, "wild_rank": "7"}).pack == FULL_DECK


def test_a_seeded_deal_shuffles_the_whole_pack_jokers_included() -> None:
    rules = wild_rules()
    game = seated_game(rules, 3, dealer=0, seed="jokers")
    dealt = game.events[0]
    assert isinstance(dealt, HandDealt)
    assert Counter(dealt.deck) == Counter((*FULL_DECK, JOKER, JOKER))
    assert Counter(game.hand.cards()) == Counter(rules.pack)


# "Explicit `decks` must be permutations of this multiset (422 `invalid_deck`)."


def test_an_explicit_deck_must_hold_the_jokers_as_often_as_the_pack() -> None:
    rules = wild_rules()
    check_new_game(rules, 2, decks=[tuple(reversed(rules.pack))])
    with pytest.raises(InvalidDeck):
        check_new_game(rules, 2, decks=[FULL_DECK])  # no jokers
    with pytest.raises(InvalidDeck):
        check_new_game(rules, 2, decks=[(*FULL_DECK[1:], JOKER, JOKER, JOKER)])


# "The deal is" docs/rules.md's ("The deal") "over `deck[0..N-1]`."


def test_the_deal_goes_round_the_seats_over_the_54_card_deck() -> None:
    # The pack reversed: deck[0] and deck[1] are the jokers, then KS, QS, … AC last.
    deck = tuple(reversed(wild_rules().pack))
    game = seated_game(wild_rules(), 2, dealer=0, explicit=[deck])
    hand = game.hand
    assert Counter(hand.hands[1]) == Counter(deck[i] for i in range(0, 20, 2))
    assert Counter(hand.hands[0]) == Counter(deck[i] for i in range(1, 20, 2))
    assert JOKER in hand.hands[0]
    assert JOKER in hand.hands[1]
    assert hand.discard == [deck[20]]
    assert hand.stock[-1] == deck[21]
    assert len(hand.stock) == 54 - 21


# "Codes repeat: hands, piles and melds are multisets; naming a code k times needs k
# copies (`card_not_in_hand`); copies are never told apart."


def test_naming_a_joker_twice_needs_two_jokers_in_hand() -> None:
    game = wild_game("9S 9D 4C 5C", "8C 8D JK 3S")
    game.draw(1)
    assert game.refuses(1, meld("8C 8D JK JK")) == "card_not_in_hand"


def test_two_jokers_swapped_are_one_reading() -> None:
    # 8C 8D and two jokers: one joker 8H, the other 8S; which is which is no choice.
    game = wild_game("9S 9D 4C 5C 6C", "8C 8D JK JK 3S")
    game.draw(1)
    (made,) = game.act(1, meld("JK 8C JK 8D"))
    assert isinstance(made, MeldLaid)
    assert [c.code for c in made.cards] == ["8C", "8D", "JK", "JK"]
    assert [c.code for c in made.as_ or ()] == ["8C", "8D", "8H", "8S"]


# "Sort: rank A 2 … K (ace first whatever its value), then suit C D H S, `JK` last."


def test_cards_sort_ace_first_whatever_it_counts_and_jokers_last() -> None:
    assert sorted_cards(cards("JK KS 2D AC 2C")) == cards("AC 2C 2D KS JK")
    game = wild_game("9S 9D 4C 5C", "JK KS 2D AH", ace_value=11, stock="3C")
    game.draw(1)
    assert [c.code for c in legal_moves(game.table, 1).discard] == [
        "AH",
        "2D",
        "3C",
        "KS",
        "JK",
    ]


# "In hand: A `ace_value`, 2-10 face, J Q K 10, any wild `wild_penalty`."


def test_cards_left_in_hand_count_by_the_variants_values() -> None:
    rules = wild_rules(ace_value=11, wild_penalty=20)
    values = {c: scoring.card_value(card(c), rules) for c in ("AS", "2S", "JK", "7D", "KH")}
    assert values == {"AS": 11, "2S": 20, "JK": 20, "7D": 7, "KH": 10}
    # ace_value null: an ace counts as in the classic game (1 with aces low).
    assert scoring.card_value(card("AS"), wild_rules()) == 1
    assert scoring.card_value(card("2S"), wild_rules()) == 15  # the default penalty


def test_a_hand_ending_counts_wilds_left_in_hand_at_the_penalty() -> None:
    # Seat 1 goes out at once (rummy, doubled); seat 0 holds JK 2C AS KD:
    # 15 + 15 + 1 + 10 = 41, doubled 82.
    game = wild_game("JK 2C AS KD", "5H 6H 7H 8H", upcard="9H", stock="QC")
    game.act(1, STOCK, meld("5H 6H 7H 8H"), Discard(card("QC")))
    assert game.last.values[0] == 41
    assert game.last.points[1] == 82


# === Wild cards =========================================================================

# 1. "Wild: every `JK`, every card of the wild rank (all suits and packs)."


@pytest.mark.parametrize("wild", ["2S", "JK"])
def test_a_joker_or_any_deuce_stands_in_a_run_of_another_suit(wild: str) -> None:
    game = wild_game("9S 9D 4C 5C", f"5H 6H {wild} 3S")
    game.draw(1)
    (made,) = game.act(1, meld(f"5H 6H {wild}", "5H 6H 7H"))
    assert isinstance(made, MeldLaid)
    assert [c.code for c in made.as_ or ()] == ["5H", "6H", "7H"]


def test_with_sevens_wild_a_deuce_is_natural_and_a_seven_is_wild() -> None:
    game = wild_game("9S 9D 4C 5C", "5H 6H 7S 2H", wild_rank="7", jokers=0)
    game.draw(1)
    assert game.refuses(1, meld("5H 6H 2H", "5H 6H 7H")) == "invalid_meld"
    game.act(1, meld("5H 6H 7S", "5H 6H 7H"))


# 2. "A reading says what each card of a meld stands for: a non-wild card itself; a
# `JK` another card; a wild-rank card itself (then it is natural) or another card."


def test_a_non_wild_card_stands_only_for_itself() -> None:
    game = wild_game("9S 9D 4C 5C", "5H 6H 9H JK")
    game.draw(1)
    assert game.refuses(1, meld("5H 6H 9H", "5H 6H 7H")) == "invalid_meld"


def test_a_joker_stands_for_another_card_never_for_jk() -> None:
    game = wild_game("9S 9D 4C 5C", "5H 6H JK 3S")
    game.draw(1)
    assert game.refuses(1, meld("5H 6H JK", "5H 6H JK")) == "invalid_meld"


def test_a_deuce_standing_for_itself_is_natural_and_a_joker_never_is() -> None:
    # min_natural 3: 2H 3H 4H has three naturals; 3H 4H JK only two.
    game = wild_game("9S 9D 4C 5C 6C 7D", "2H 3H 4H 5D JK 8C", min_natural=3)
    game.draw(1)
    assert game.refuses(1, meld("3H 4H JK", "3H 4H 5H")) == "invalid_meld"
    game.act(1, meld("2H 3H 4H"))
    assert laid(game, "h1-m1")[1] == ["2H", "3H", "4H"]


# "A meld is valid if a reading has at least `min_natural` cards standing for
# themselves and represents: a set: 3-4 cards of one rank, suits all different
# (never over 4, even with two packs)"


def test_a_set_never_has_five_cards_even_with_a_joker() -> None:
    game = wild_game("9S 9D 4C 5C 6C 7D", "8C 8D 8H 8S JK 3C")
    game.draw(1)
    assert game.refuses(1, meld("8C 8D 8H 8S JK")) == "invalid_meld"


def test_min_natural_counts_the_cards_standing_for_themselves() -> None:
    game = wild_game("9S 9D 4C 5C", "8C JK JK 3C")  # min_natural 2 by default
    game.draw(1)
    assert game.refuses(1, meld("8C JK JK", "8C 8D 8H")) == "invalid_meld"
    one = wild_game("9S 9D 4C 5C", "8C JK JK 3C", min_natural=1)
    one.draw(1)
    one.act(1, meld("8C JK JK", "8C 8D 8H"))
    assert laid(one, "h1-m1") == (["8C", "JK", "JK"], ["8C", "8D", "8H"])


# "a run: 3+ consecutive cards of one suit, per `aces` (a wild is an ace only where a
# natural ace could be)."


def test_with_aces_low_a_joker_above_the_king_is_no_ace() -> None:
    game = wild_game("9S 9D 4C 5C", "QH KH JK 3C")
    game.draw(1)
    assert game.refuses(1, meld("QH KH JK", "QH KH AH")) == "invalid_meld"
    # The only reading left: the joker is the jack.
    game.act(1, meld("QH KH JK"))
    assert laid(game, "h1-m1") == (["JK", "QH", "KH"], ["JH", "QH", "KH"])


def test_with_aces_high_or_low_a_joker_may_be_the_ace_above_the_king() -> None:
    game = wild_game("9S 9D 4C 5C", "QH KH JK 3C", aces="high_or_low")
    game.draw(1)
    assert game.refuses(1, meld("QH KH JK")) == "wild_ambiguous"  # JH or AH
    game.act(1, meld("QH KH JK", "QH KH AH"))
    assert laid(game, "h1-m1") == (["QH", "KH", "JK"], ["QH", "KH", "AH"])


# 3. "`as`, a list parallel to `cards` (naturals name themselves), gives the reading; an
# `as` that is no valid reading is `invalid_meld`."


def test_as_is_parallel_to_the_cards_as_named() -> None:
    game = wild_game("9S 9D 4C 5C", "5H 6H JK 3S")
    game.draw(1)
    (made,) = game.act(1, meld("JK 6H 5H", "4H 6H 5H"))
    assert isinstance(made, MeldLaid)
    assert [c.code for c in made.cards] == ["JK", "5H", "6H"]  # table order
    assert [c.code for c in made.as_ or ()] == ["4H", "5H", "6H"]


def test_an_as_that_is_no_valid_reading_is_an_invalid_meld() -> None:
    game = wild_game("9S 9D 4C 5C", "5H 6H JK 3S")
    game.draw(1)
    for as_ in ("5H 6H 9H", "5H 6H 6H", "5H 6H 8H", "5H 6H", "5H 6H 7H 8H"):
        assert game.refuses(1, Meld(tuple(cards("5H 6H JK")), tuple(cards(as_)))) == (
            "invalid_meld"
        ), as_


# "Without `as` the server keeps the readings where the most wild-rank cards stand
# for themselves; exactly one must remain …, else 409 `wild_ambiguous`. Deuces wild:
# `3H 4H 2H` → 2H itself; `5H 6H JK` → 4H or 7H: ambiguous; `8C 8D JK` → 8H or 8S:
# ambiguous; `8C 8D 8H JK` → 8S."


def test_rules_example_3h_4h_2h_reads_the_deuce_as_itself() -> None:
    game = wild_game("9S 9D 4C 5C", "3H 4H 2H 9C")
    game.draw(1)
    game.act(1, meld("3H 4H 2H"))
    assert laid(game, "h1-m1") == (["2H", "3H", "4H"], ["2H", "3H", "4H"])


@pytest.mark.parametrize("codes", ["5H 6H JK", "8C 8D JK"])
def test_rules_examples_with_two_readings_are_ambiguous(codes: str) -> None:
    game = wild_game("9S 9D 4C 5C", f"{codes} 9C")
    game.draw(1)
    assert game.refuses(1, meld(codes)) == "wild_ambiguous"


def test_rules_example_8c_8d_8h_jk_reads_the_joker_as_8s() -> None:
    game = wild_game("9S 9D 4C 5C 6C", "8C 8D 8H JK 9C")
    game.draw(1)
    game.act(1, meld("8C 8D 8H JK"))
    assert laid(game, "h1-m1") == (["8C", "8D", "8H", "JK"], ["8C", "8D", "8H", "8S"])


def test_a_deuce_that_could_stand_for_itself_or_another_reads_as_itself() -> None:
    # 2C 2D 2H is a set of deuces (all natural); read otherwise it would need wilds.
    game = wild_game("9S 9D 4C 5C", "2C 2D 2H 9C")
    game.draw(1)
    game.act(1, meld("2H 2C 2D"))
    assert laid(game, "h1-m1") == (["2C", "2D", "2H"], ["2C", "2D", "2H"])


# 4. "A meld's reading is kept (its `as`). Lay-offs extend the represented cards; a
# wild laid off takes an `as` by the same rule. A place a wild holds is filled only
# by a swap."


def joker_run_game(**options: Any) -> Game:
    """Seat 1 has melded 5H 6H JK with the joker as 7H (h1-m1) and discarded."""
    game = wild_game("8H 4H 7H 9S 3D", "5H 6H JK 9C 10C", upcard="KC", stock="QD JD", **options)
    game.act(1, STOCK, meld("5H 6H JK", "5H 6H 7H"), Discard(card("9C")))
    return game


def test_the_reading_is_kept_and_lay_offs_extend_the_represented_cards() -> None:
    game = joker_run_game()
    game.draw(0)
    (above,) = game.act(0, LayOff(card("8H"), "h1-m1"))
    (below,) = game.act(0, LayOff(card("4H"), "h1-m1"))
    assert isinstance(above, CardLaidOff)
    assert isinstance(below, CardLaidOff)
    assert (above.end, above.as_, below.end, below.as_) == (
        End.HIGH,
        card("8H"),
        End.LOW,
        card("4H"),
    )
    assert laid(game, "h1-m1") == (
        ["4H", "5H", "6H", "JK", "8H"],
        ["4H", "5H", "6H", "7H", "8H"],
    )


def test_the_card_a_wild_stands_for_cannot_be_laid_off_beside_it() -> None:
    game = joker_run_game()
    game.draw(0)
    assert game.refuses(0, LayOff(card("7H"), "h1-m1")) == "invalid_lay_off"
    assert game.refuses(0, LayOff(card("7H"), "h1-m1", card("7H"))) == "invalid_lay_off"


def test_a_wild_laid_off_takes_an_as_by_the_same_rule() -> None:
    # JK onto 3H 4H 5H: 2H or 6H, ambiguous; 2H onto it: itself (the deuce is natural
    # there), though it could also be 6H.
    game = wild_game("9S 9D 4C 5C 8D 7D", "3H 4H 5H JK 2H 9C", stock="QD JD")
    game.draw(1)
    game.act(1, meld("3H 4H 5H"))
    assert game.refuses(1, LayOff(JOKER, "h1-m1")) == "wild_ambiguous"
    assert game.refuses(1, LayOff(JOKER, "h1-m1", card("7H"))) == "invalid_lay_off"
    (deuce,) = game.act(1, LayOff(card("2H"), "h1-m1"))
    assert isinstance(deuce, CardLaidOff)
    assert deuce.as_ == card("2H")
    (joker,) = game.act(1, LayOff(JOKER, "h1-m1", card("6H")))
    assert isinstance(joker, CardLaidOff)
    assert joker.as_ == card("6H")
    assert laid(game, "h1-m1")[1] == ["2H", "3H", "4H", "5H", "6H"]


def test_a_joker_laid_off_on_three_of_a_rank_stands_for_the_fourth() -> None:
    game = wild_game("9S 9D 4C 5C 8D 7D", "8C 8H 8S JK 9C 10C", stock="QD JD")
    game.draw(1)
    game.act(1, meld("8C 8H 8S"))
    (joker,) = game.act(1, LayOff(JOKER, "h1-m1"))
    assert isinstance(joker, CardLaidOff)
    assert joker.as_ == card("8D")


# 5. "**Swap** (rule `swap`): in your `play` phase, put into any meld (anyone's;
# `lay_off` does not apply) the exact card one of its wilds stands for, and take that
# wild into your hand (else 409 `invalid_swap`; before drawing: `wrong_phase`)."


def test_a_swap_puts_the_card_in_and_the_wild_in_hand() -> None:
    game = joker_run_game(lay_off="after_own_meld")
    game.draw(0)
    # Seat 0 has no meld of its own: no lay-off onto seat 1's meld, but a swap.
    assert game.refuses(0, LayOff(card("8H"), "h1-m1")) == "lay_off_before_meld"
    (swapped,) = game.act(0, Swap("h1-m1", card("7H")))
    assert swapped == WildSwapped(
        seat=0, meld_id="h1-m1", card=card("7H"), wild=JOKER, as_=card("7H")
    )
    assert laid(game, "h1-m1") == (["5H", "6H", "7H"], ["5H", "6H", "7H"])
    assert JOKER in game.hand.hands[0]
    assert card("7H") not in game.hand.hands[0]


def test_a_swap_needs_a_wild_standing_for_exactly_that_card() -> None:
    game = joker_run_game()
    game.draw(0)
    assert game.refuses(0, Swap("h1-m1", card("8H"))) == "invalid_swap"
    assert game.refuses(0, Swap("h1-m1", card("9S"))) == "invalid_swap"
    assert game.refuses(0, Swap("h1-m9", card("7H"))) == "unknown_meld"
    assert game.refuses(0, Swap("h1-m1", card("7D"))) == "card_not_in_hand"


def test_a_swap_before_drawing_is_the_wrong_phase() -> None:
    game = joker_run_game()
    assert game.refuses(0, Swap("h1-m1", card("7H"))) == "wrong_phase"


def test_with_swaps_off_there_is_no_swap() -> None:
    game = joker_run_game(swap=False)
    game.draw(0)
    assert game.refuses(0, Swap("h1-m1", card("7H"))) == "invalid_swap"
    assert legal_moves(game.table, 0).swaps == ()


# "A wild-rank card standing for itself stays."


def test_a_deuce_standing_for_itself_is_never_swapped_out() -> None:
    game = wild_game("9S 9D 4C 5C 8D", "2H 3H 4H 9C 10C", stock="QD JD")
    game.draw(1)
    game.act(1, meld("2H 3H 4H"), Discard(card("9C")))
    game.draw(0)
    assert legal_moves(game.table, 0).swaps == ()
    assert game.refuses(0, Swap("h1-m1", card("4C"))) == "invalid_swap"


# "`swapped_wild`: `free` (an ordinary card of your hand: meld, lay off, keep or
# discard it)"


def test_a_freely_swapped_wild_may_be_discarded() -> None:
    game = joker_run_game()
    game.act(0, STOCK, Swap("h1-m1", card("7H")), Discard(JOKER))
    assert game.hand.discard[-1] == JOKER


# "or `meld_now` (it must leave your hand by a meld or lay-off in the same request,
# else 409 `swapped_wild_unused`)."


def test_under_meld_now_a_swapped_wild_kept_in_hand_refuses_the_whole_request() -> None:
    game = joker_run_game(swapped_wild="meld_now")
    game.draw(0)
    assert refused_request(game, 0, Swap("h1-m1", card("7H"))) == "swapped_wild_unused"
    assert refused_request(game, 0, Swap("h1-m1", card("7H")), Discard(JOKER)) == (
        "swapped_wild_unused"
    )


def test_under_meld_now_a_swapped_wild_laid_off_in_the_same_request_is_accepted() -> None:
    game = joker_run_game(swapped_wild="meld_now")
    game.draw(0)
    game.act(0, Swap("h1-m1", card("7H")), LayOff(JOKER, "h1-m1", card("8H")))
    assert laid(game, "h1-m1") == (["5H", "6H", "7H", "JK"], ["5H", "6H", "7H", "8H"])
    assert JOKER not in game.hand.hands[0]


# "A swap counts as laying cards for rummy: going out in a later turn of the hand is
# not rummy; going out in the same turn as the swap still is"


def test_going_out_a_turn_after_a_swap_is_not_rummy() -> None:
    game = wild_game("7H 9S 9D 4D 5C", "5H 6H JK 9C 10C", stock="QD 9H JD 4S")
    game.act(1, STOCK, meld("5H 6H JK", "5H 6H 7H"), Discard(card("9C")))
    # Seat 0 draws 9H, swaps its 7H for the joker and keeps it.
    game.act(0, STOCK, Swap("h1-m1", card("7H")), Discard(card("5C")))
    game.turn(1, "10C")
    # Then draws 4S and melds out: 9S 9D 9H and 4D 4S JK.
    game.act(0, STOCK, meld("9S 9D 9H"), meld("4D 4S JK", "4D 4S 4H"))
    assert game.last.out_seat == 0
    assert game.last.how is HandEnding.OUT


def test_going_out_in_the_turn_of_the_swap_is_still_rummy() -> None:
    game = wild_game("7H 9S 9D 4C 4D", "5H 6H JK 9C 10C", stock="QD 9H")
    game.act(1, STOCK, meld("5H 6H JK", "5H 6H 7H"), Discard(card("9C")))
    game.act(
        0,
        STOCK,
        Swap("h1-m1", card("7H")),
        meld("9S 9D 9H"),
        meld("4C 4D JK", "4C 4D 4H"),
    )
    assert game.last.out_seat == 0
    assert game.last.how is HandEnding.RUMMY


# 6. "Melded wilds score nothing."


def test_melded_wilds_score_nothing_only_wilds_in_hand_count() -> None:
    # Seat 1 melds 5H 6H JK and keeps 2S, KD and the QD it drew; seat 0 goes out.
    game = wild_game("8H 9H 10H 4C 4D 4S", "5H 6H JK 2S KD 3C", stock="QD JH")
    game.act(1, STOCK, meld("5H 6H JK", "5H 6H 7H"), Discard(card("3C")))
    game.act(0, STOCK, LayOff(card("8H"), "h1-m1"), meld("9H 10H JH"), meld("4C 4D 4S"))
    assert game.last.out_seat == 0
    assert game.last.values[1] == 15 + 10 + 10  # 2S (wild), KD, QD; the melded JK nothing
    assert game.last.points[0] == 35 * 2  # a rummy: all of it in one turn


# "Decided: `wild_penalty` 15 …; `min_natural` 2"


def test_the_variants_defaults_are_wild_penalty_15_and_min_natural_2() -> None:
    rules = RuleSet.from_dict({"variant": "wild"})
    assert (rules.wild_penalty, rules.min_natural, rules.jokers, rules.wild_rank) == (
        15,
        2,
        2,
        None,
    )
    wrotham = RuleSet.from_dict({"variant": "wrotham"})
    assert (wrotham.wild_penalty, wrotham.min_natural, wrotham.jokers) == (15, 2, 3)


# --- games without wilds ---------------------------------------------------------------


def test_without_wilds_an_as_may_only_name_each_card_itself() -> None:
    game = new_game(["7C 8C 9C 2D", "5H 6H 7H 8H"], upcard="KD", stock="QD")
    game.draw(1)
    assert game.refuses(1, meld("5H 6H 7H", "5H 6H 8H")) == "invalid_meld"
    assert game.refuses(1, meld("5H 6H 7H", "5H 6H")) == "invalid_meld"
    (made,) = game.act(1, meld("5H 6H 7H", "5H 6H 7H"))
    assert isinstance(made, MeldLaid)
    assert made.as_ is None
    assert game.refuses(1, LayOff(card("8H"), "h1-m1", card("4H"))) == "invalid_lay_off"
    game.act(1, LayOff(card("8H"), "h1-m1", card("8H")))


# "Wild cards (`wild`; Wrotham, Indian)": Wrotham's three jokers follow the same rules
# (its deal and concealed turns are docs/rules.md "Wrotham Rummy"'s).


def test_wrotham_reads_its_jokers_by_the_same_rules_and_has_no_wild_rank() -> None:
    wrotham = RuleSet.from_dict({"variant": "wrotham"})
    assert wrotham.has_wilds
    assert wilds.is_wild(JOKER, wrotham)
    assert not any(wilds.is_wild(c, wrotham) for c in FULL_DECK)
    with pytest.raises(WildAmbiguous):
        wilds.meld_reading(cards("5H 6H JK"), None, wrotham)
    reading = wilds.meld_reading(cards("8C 8D 8H JK"), None, wrotham)
    assert reading.as_ == tuple(cards("8C 8D 8H 8S"))
    # A deuce is natural there: 2H 3H JK reads AH or 4H for the joker.
    assert {r.as_ for r in wilds.readings(cards("2H 3H JK"), wrotham)} == {
        tuple(cards("AH 2H 3H")),
        tuple(cards("2H 3H 4H")),
    }
    assert scoring.card_value(JOKER, wrotham) == 15
    assert scoring.card_value(card("2C"), wrotham) == 2


# docs/api.md "legal" (games with wilds): `meld_readings` for every valid reading of
# each legal meld holding a wild; lay-offs of a wild one per reading; `swaps`.


def test_legal_lists_every_reading_each_wild_lay_off_and_each_swap() -> None:
    game = wild_game("8H 4H 7H 9S 3D", "5H 6H JK 9C 10C", stock="QD JD")
    game.draw(1)
    moves = legal_moves(game.table, 1)
    readings = {
        tuple(c.code for c in as_)
        for placed, as_ in moves.meld_readings
        if sorted(c.code for c in placed) == ["5H", "6H", "JK"]
    }
    assert readings == {("4H", "5H", "6H"), ("5H", "6H", "7H")}
    assert Meld(tuple(cards("5H 6H JK"))) not in moves.actions()  # ambiguous without as
    game.act(1, meld("5H 6H JK", "5H 6H 7H"), Discard(card("9C")))
    game.draw(0)
    moves = legal_moves(game.table, 0)
    assert set(moves.lay_offs) == {(card("8H"), "h1-m1"), (card("4H"), "h1-m1")}
    assert moves.swaps == (("h1-m1", card("7H"), JOKER),)
    game.act(0, Swap("h1-m1", card("7H")))
    moves = legal_moves(game.table, 0)
    assert {(c.code, m, s.code) for c, m, s in moves.wild_lay_offs} == {
        ("JK", "h1-m1", "4H"),
        ("JK", "h1-m1", "8H"),
    }
