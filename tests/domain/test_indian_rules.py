"""The rules text of Indian 13-card Rummy read sentence by sentence, at the table:
the pack and the deal, the turn, groups, declaring and the show, the losers' count
and drops (docs/rules.md "Indian 13-card Rummy"; its formats are in
test_indian_formats.py). Each block quotes the sentence it holds the engine to.

The group judge itself is tested in test_indian_groups.py; here every group is
judged through a declaration or a submission made at a table.

Unless a test says otherwise the indicator is 7D (sevens are wild), seat 1 deals
and seat 0 moves first; cards a test does not name come from what is left of
the pack.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from service.domain.actions import (
    Declare,
    Discard,
    Drop,
    Knock,
    LayOff,
    Meld,
    SubmitGroups,
    Swap,
)
from service.domain.cards import FULL_DECK, JOKER, Rank
from service.domain.errors import InvalidDeck, InvalidRules, InvalidSeating
from service.domain.events import (
    CardDrawn,
    Declared,
    Event,
    GroupsSubmitted,
    HandDealt,
    HandEnded,
    PlayerDropped,
)
from service.domain.indian.judge import GroupKind
from service.domain.rules import RuleSet
from service.domain.setup import check_new_game
from service.domain.state import DealStatus, DropKind, HandEnding, Phase, Source, indian_of
from service.domain.turns import legal_moves
from tests.domain.indian_tables import Shoe, groups_of, indian_game, indian_rules
from tests.domain.tables import DISCARD, STOCK, Game, card, cards, seated_game

SEVENS = "7D"
VALID = "5S 6S 7S 9H 10H JK QC QD QS 2C 2D 2H 7C"
"""A hand that declares validly with sevens wild, in these groups:"""
VALID_GROUPS = ("5S 6S 7S", "9H 10H JK", "QC QD QS", "2C 2D 2H 7C")
PURE, SEQUENCE, SET, INVALID = (
    GroupKind.PURE_SEQUENCE,
    GroupKind.SEQUENCE,
    GroupKind.SET,
    GroupKind.INVALID,
)


def table_of(
    *hands: str | None,
    indicator: str = SEVENS,
    upcard: str | None = None,
    stock: str = "",
    dealer: int | None = None,
    **options: object,
) -> Game:
    """A deal of one hand per seat: the codes given, or (None) 13 high cards left in
    the pack; then the upcard and the stock's top cards."""
    rules = indian_rules(len(hands), **options)
    named = [code for hand in hands if hand for code in hand.split()]
    shoe = Shoe(rules, indicator, [*named, *([upcard] if upcard else []), *stock.split()])
    filled = [hand.split() if hand else [c.code for c in shoe.any_cards(13)] for hand in hands]
    return indian_game(
        filled,
        indicator=indicator,
        upcard=upcard or shoe.any_cards(1)[0].code,
        stock=stock.split(),
        dealer=dealer,
        rules=rules,
    )


def declare(game: Game, seat: int, finish: str, *groups: str) -> list[Event]:
    return game.act(seat, Declare(card(finish), groups_of(*groups)))


def declared(made: list[Event]) -> Declared:
    return next(event for event in made if isinstance(event, Declared))


def kinds_of(made: list[Event]) -> list[GroupKind]:
    shown = next(e for e in made if isinstance(e, Declared | GroupsSubmitted))
    return [group.kind for group in shown.groups]


def declaring(
    *groups: str, finish: str = "AD", indicator: str = SEVENS, players: int = 2
) -> list[Event]:
    """Seat 0, holding the cards of `groups`, draws `finish` and declares with it."""
    game = table_of(" ".join(groups), *[None] * (players - 1), indicator=indicator, stock=finish)
    game.act(0, STOCK)
    return declare(game, 0, finish, *groups)


def valid_declaration(game: Game, seat: int = 0) -> list[Event]:
    """`seat`, holding VALID, draws KD (the stock's top) and declares with it."""
    game.act(seat, STOCK)
    return declare(game, seat, "KD", *VALID_GROUPS)


def pass_turn(game: Game, seat: int) -> None:
    """Draw from the stock and discard the card drawn."""
    drawn = next(e.card for e in game.act(seat, STOCK) if isinstance(e, CardDrawn))
    game.act(seat, Discard(drawn))


def statuses(game: Game) -> list[DealStatus]:
    assert game.hand.indian is not None
    return game.hand.indian.statuses


# --- Setup: "One deck + 1 JK for two players, two decks + 2 JK for 3-6" -----------------------


def test_two_players_play_one_pack_and_a_joker_or_two_packs_if_they_ask() -> None:
    # In the reference order: the pack of 52, then the joker.
    assert indian_rules(2).pack == (*FULL_DECK, JOKER)
    game = seated_game(indian_rules(2), 2)
    assert len(next(e for e in game.events if isinstance(e, HandDealt)).deck) == 53
    two = indian_rules(2, packs=2)
    assert (two.packs, two.jokers, two.pack) == (2, 2, (*FULL_DECK, *FULL_DECK, JOKER, JOKER))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_play_two_packs_and_two_jokers(players: int) -> None:
    rules = indian_rules(players)
    assert rules.pack == (*FULL_DECK, *FULL_DECK, JOKER, JOKER)
    with pytest.raises(InvalidRules, match="packs"):
        indian_rules(players, packs=1).check_players(players)


@pytest.mark.parametrize(("packs", "jokers"), [(1, 2), (2, 1)])
def test_the_jokers_are_as_many_as_the_packs(packs: int, jokers: int) -> None:
    with pytest.raises(InvalidRules, match="jokers"):
        indian_rules(2, packs=packs, jokers=jokers)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidSeating):
        check_new_game(indian_rules(2), players)


def test_explicit_decks_are_permutations_of_the_pack_of_the_table() -> None:
    check_new_game(indian_rules(3), 3, [indian_rules(3).pack])
    for deck in (indian_rules(2).pack, (*indian_rules(3).pack[:-1], card("AS"))):
        with pytest.raises(InvalidDeck):
            check_new_game(indian_rules(3), 3, [deck])


# --- "The toss is the first-dealer draw; seats keep their order." -----------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_toss_is_the_classic_games_first_dealer_draw(players: int) -> None:
    for seed in ("a", "b", "c", "d"):
        classic = seated_game(RuleSet(), players, dealer=None, seed=seed)
        indian = seated_game(indian_rules(players), players, dealer=None, seed=seed)
        assert indian.table.dealer == classic.table.dealer


# --- "Deal 13 each to the m active seats; deck[13m] is the upcard, deck[13m+1] the wild ---------
# indicator (face up, public, out of play) ... Stock from deck[13m+2]." ------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 2), (6, 3)])
def test_thirteen_each_round_the_seats_then_the_upcard_the_indicator_and_the_stock(
    players: int, dealer: int
) -> None:
    game = seated_game(indian_rules(players), players, dealer)
    deck = next(e for e in game.events if isinstance(e, HandDealt)).deck
    hand = game.hand
    for index in range(13 * players):
        # One card at a time from the seat after the dealer, the seats keeping their order.
        seat = (dealer + 1 + index) % players
        assert deck[index] == hand.hands[seat][index // players]
    m = players
    assert hand.discard == [deck[13 * m]]
    assert indian_of(hand).indicator == deck[13 * m + 1]
    assert hand.out_of_play == [deck[13 * m + 1]]
    assert hand.stock[::-1] == list(deck[13 * m + 2 :])
    assert hand.turn == (dealer + 1) % players
    assert (
        next(e.card for e in game.act(hand.turn, STOCK) if isinstance(e, CardDrawn))
        == (deck[13 * m + 2])
    )


# --- "its rank is wild, a JK makes aces wild." -------------------------------------------------


@pytest.mark.parametrize(("indicator", "wild"), [("7D", Rank.SEVEN), ("KC", Rank.KING)])
def test_the_indicators_rank_is_wild_in_every_suit(indicator: str, wild: Rank) -> None:
    game = table_of(None, None, indicator=indicator)
    assert indian_of(game.hand).wild is wild
    # A card of that rank fills a gap of any run: 4H _ 6H with the indicator's rank.
    other = "C" if indicator[-1] != "C" else "D"
    filler = f"{indicator[:-1]}{other}"
    made = declaring(
        f"4H 6H {filler}", "9C 10C JC", "2D 3D 4D", "QS QH QD 8S", finish="5C", indicator=indicator
    )
    assert kinds_of(made) == [SEQUENCE, PURE, PURE, INVALID]


def test_a_joker_as_indicator_makes_the_aces_wild() -> None:
    hand = table_of(None, None, indicator="JK").hand
    assert (indian_of(hand).wild, indian_of(hand).indicator) == (Rank.ACE, JOKER)
    made = declaring(
        "AC 5H 6H", "9C 10C JC", "2D 3D 4D", "QS QH QD AD", finish="8S", indicator="JK"
    )
    assert kinds_of(made) == [SEQUENCE, PURE, PURE, SET]
    assert declared(made).valid


# --- "Ace high or low, not both ends." ---------------------------------------------------------


def test_aces_are_high_or_low_but_not_both_ends_of_a_sequence() -> None:
    made = declaring("QS KS AS", "AH 2H 3H", "KD AD 2D", "9C 9D 9H 8S", finish="4C", indicator="5C")
    assert kinds_of(made) == [PURE, PURE, INVALID, INVALID]


# --- "A K Q J 10, 2-10 face, wilds 0." ---------------------------------------------------------


def test_a_k_q_j_10_count_ten_two_to_nine_their_face_and_wilds_nothing() -> None:
    # Sevens wild: 7H 7S JK count 0. Shown in no group, every card counts.
    game = showing("AC KC QC JC 10C 9D 8D 3S 2S 7H 7S JK 4H")
    assert submitted(game).points == 10 * 5 + 9 + 8 + 3 + 2 + 0 + 0 + 0 + 4


# --- Turn: "Draw one (stock or top discard, wilds too), then discard (not the card just -------
# taken from the discard pile) or declare." ------------------------------------------------------


def test_draw_from_the_stock_or_the_top_discard_even_a_wild() -> None:
    game = table_of(None, None, upcard="JK")
    assert set(legal_moves(game.table, 0).draw) == {Source.STOCK, Source.DISCARD}
    game.act(0, DISCARD)
    assert JOKER in game.hand.hands[0]
    assert game.refuses(0, STOCK) == "wrong_phase"


def test_the_card_just_taken_from_the_discard_pile_cannot_be_discarded() -> None:
    game = table_of(None, None, upcard="4C")
    game.act(0, DISCARD)
    assert card("4C") not in legal_moves(game.table, 0).discard
    assert game.refuses(0, Discard(card("4C"))) == "discard_taken_card"


def test_the_card_just_taken_from_the_discard_pile_is_no_finish_card() -> None:
    game = table_of(VALID, None, upcard="4C")
    game.act(0, DISCARD)
    refused = game.refuses(0, Declare(card("4C"), groups_of(*VALID_GROUPS)))
    assert refused == "discard_taken_card"


def test_a_card_just_drawn_from_the_stock_may_be_discarded() -> None:
    game = table_of(None, None, stock="4C")
    game.act(0, STOCK)
    assert card("4C") in legal_moves(game.table, 0).discard
    game.act(0, Discard(card("4C")))
    assert game.hand.discard[-1] == card("4C")
    assert (game.hand.turn, game.hand.phase) == (1, Phase.DRAW)


def test_a_card_just_drawn_from_the_stock_may_be_the_finish_card() -> None:
    game = table_of(VALID, None, stock="KD")
    made = valid_declaration(game)
    assert declared(made).card == card("KD")


# --- "No table melds." ---------------------------------------------------------------------------


def test_there_are_no_table_melds_lay_offs_swaps_or_knocks() -> None:
    game = table_of(VALID, None)
    game.act(0, STOCK)
    for action in (
        Meld(tuple(cards("QC QD QS"))),
        LayOff(card("QC"), "h1-m1"),
        Swap("h1-m1", card("QC")),
        Knock(card("QC")),
    ):
        assert game.refuses(0, action) == "not_in_variant"


# --- "A dry deal or one at max_turns is void." --------------------------------------------------


def test_a_dry_deal_is_void_and_nobody_scores() -> None:
    game = table_of(None, None, recycles=0)
    stock = len(game.hand.stock)
    for turn in range(stock):
        pass_turn(game, turn % 2)
    game.act(stock % 2, STOCK)
    ended = next(e for e in game.events if isinstance(e, HandEnded))
    assert (ended.how, ended.out_seat, ended.points) == (HandEnding.EXHAUSTED, None, (0, 0))
    assert game.table.totals == [0, 0]


def test_an_empty_stock_is_made_again_from_the_discards_by_default() -> None:
    game = table_of(None, None)
    assert game.table.rules.recycles == 1000
    stock = len(game.hand.stock)
    for turn in range(stock + 1):
        pass_turn(game, turn % 2)
    assert game.table.hand_number == 1
    assert game.hand.recycles == 1


def test_a_deal_at_max_turns_is_void_and_its_drops_and_wrong_shows_score_nothing() -> None:
    game = table_of(None, VALID, None, None, max_turns=3, stock="KD")
    game.act(0, Drop())
    game.act(1, STOCK)
    declare(game, 1, "KD", "5S 6S 7S", "9H 10H JK", "QC QD", "QS 2C 2D 2H 7C")  # wrong
    assert game.table.hand_number == 1
    pass_turn(game, 2)
    ended = game.last
    assert (ended.how, ended.out_seat, ended.points) == (HandEnding.TURN_CAP, None, (0,) * 4)
    assert game.table.totals == [0] * 4


# --- "A seat out of the deal (dropped, wrong show, sitting out, eliminated) cannot act ----------
# (409 not_in_deal)." (sitting out and eliminated: test_indian_formats.py) ------------------------


def test_a_seat_that_dropped_cannot_act_in_the_deal() -> None:
    game = table_of(None, VALID, None, stock="4C 4D KD")
    game.act(0, Drop())
    assert legal_moves(game.table, 0).actions() == []
    for action in (STOCK, Drop(), Discard(game.hand.discard[-1]), SubmitGroups(())):
        assert game.refuses(0, action) == "not_in_deal"
    pass_turn(game, 1)  # 4C
    pass_turn(game, 2)  # 4D
    valid_declaration(game, 1)
    assert game.refuses(0, SubmitGroups(())) == "not_in_deal"


def test_a_seat_that_showed_wrongly_cannot_act_in_the_deal() -> None:
    game = table_of(VALID, None, None, stock="KD")
    game.act(0, STOCK)
    declare(game, 0, "KD", "5S 6S 7S 9H 10H JK QC QD QS 2C 2D 2H 7C")
    assert statuses(game)[0] is DealStatus.WRONG_SHOW
    assert legal_moves(game.table, 0).actions() == []
    for action in (STOCK, Drop(), SubmitGroups(())):
        assert game.refuses(0, action) == "not_in_deal"


# --- Groups: "read by wild rule 2 with min_natural 1, each as the best it can be: pure ---------
# sequence (a run, every card itself: 5S 6S 7S with sevens wild), else sequence (a run under ----
# some reading), else set (3-4, suits different), else invalid. No `as`." ------------------------


def test_each_group_is_read_as_the_best_it_can_be() -> None:
    game = table_of(VALID, None, stock="KD")
    made = valid_declaration(game)
    assert kinds_of(made) == [PURE, SEQUENCE, SET, SET]
    assert declared(made).valid


def test_one_card_standing_for_itself_is_enough_for_a_group() -> None:
    # min_natural 1: 9H with two wilds (a seven and the joker) is a sequence.
    made = declaring("9H 7C JK", "2S 3S 4S", "QC QD QS", "5D 6D 8D 10S")
    assert kinds_of(made)[0] is SEQUENCE


def test_sets_are_three_or_four_cards_of_different_suits_even_with_two_packs() -> None:
    made = declaring("QC QD QS QC", "8H 8C 8D 8S 8H", "2S 3S 4S KD", players=3)
    assert kinds_of(made) == [INVALID, INVALID, INVALID]


# --- "A wild-rank card may stand for itself, so with sevens wild 7H 7S 7C reads best as the ----
# sequence 7H 8H 9H and 7H 7S JK as a sequence too" ----------------------------------------------


def test_three_sevens_with_sevens_wild_are_a_sequence_and_make_a_declaration_valid() -> None:
    made = declaring("7H 7S 7C", "2S 3S 4S", "QC QD QS", "KC KD KH KS")
    assert kinds_of(made) == [SEQUENCE, PURE, SET, SET]
    assert declared(made).valid


def test_two_sevens_and_a_joker_with_sevens_wild_are_a_sequence() -> None:
    made = declaring("7H 7S JK", "2S 3S 4S", "QC QD QS", "KC KD KH KS")
    assert kinds_of(made) == [SEQUENCE, PURE, SET, SET]
    assert declared(made).valid


# --- "a group of printed jokers only has no card standing for itself and is invalid" ------------


def test_a_group_of_printed_jokers_only_is_invalid_a_joker_beside_a_natural_is_not() -> None:
    made = declaring("JK JK", "2S 3S 4S", "QC QD QS", "KC KD KH", "5H 6H", players=3)
    assert kinds_of(made)[0] is INVALID
    made = declaring("JK JK 5H 6H", "2S 3S 4S", "QC QD QS", "KC KD KH", players=3)
    assert kinds_of(made) == [SEQUENCE, PURE, SET, SET]


def test_no_as_the_server_reads_every_group_itself() -> None:
    assert [field.name for field in dataclasses.fields(Declare)] == ["card", "groups"]
    assert [field.name for field in dataclasses.fields(SubmitGroups)] == ["groups"]


# --- Declare: "after drawing, a finish card (out of play; not the card just taken from the ------
# discard pile) and groups of exactly the other 13 (else 409 incomplete_declaration)." -----------


def test_a_declaration_comes_after_the_draw() -> None:
    game = table_of(VALID, None, stock="KD")
    assert not legal_moves(game.table, 0).can_declare
    refused = game.refuses(0, Declare(card("7C"), groups_of(*VALID_GROUPS)))
    assert refused == "wrong_phase"
    game.act(0, STOCK)
    assert legal_moves(game.table, 0).can_declare


def test_the_finish_card_goes_out_of_play() -> None:
    game = table_of(VALID, None, stock="KD")
    valid_declaration(game)
    assert card("KD") in game.hand.out_of_play
    assert card("KD") not in game.hand.hands[0]
    assert card("KD") not in game.hand.discard
    assert len(game.hand.hands[0]) == 13


@pytest.mark.parametrize(
    "groups",
    [
        pytest.param(VALID_GROUPS[:3], id="a group left out"),
        pytest.param((*VALID_GROUPS[:3], "2C 2D 2H"), id="a card left out"),
        pytest.param((*VALID_GROUPS, "KD"), id="the finish card too"),
        pytest.param((*VALID_GROUPS[:3], "2C 2D 2H 8C"), id="a card not held"),
        pytest.param((*VALID_GROUPS, "QC"), id="a card twice"),
        pytest.param((), id="no groups"),
    ],
)
def test_groups_not_exactly_the_other_13_cards_are_an_incomplete_declaration(
    groups: tuple[str, ...],
) -> None:
    game = table_of(VALID, None, stock="KD")
    game.act(0, STOCK)
    assert game.refuses(0, Declare(card("KD"), groups_of(*groups))) == "incomplete_declaration"


def test_a_finish_card_not_held_is_card_not_in_hand() -> None:
    game = table_of(VALID, None, stock="KD")
    game.act(0, STOCK)
    assert game.refuses(0, Declare(card("8C"), groups_of(*VALID_GROUPS))) == "card_not_in_hand"


def test_groups_of_exactly_the_other_13_are_accepted_in_any_order() -> None:
    game = table_of(VALID, None, stock="KD")
    game.act(0, STOCK)
    made = declare(game, 0, "KD", "7C 2H 2D 2C", "QS QD QC", "JK 9H 10H", "7S 5S 6S")
    assert declared(made).valid


# --- "Valid: every group valid, at least two sequences, at least one of them pure (decided: -----
# nothing more)" -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "valid"),
    [
        pytest.param(VALID_GROUPS, True, id="a pure sequence, a sequence, sets"),
        pytest.param(
            ("2S 3S 4S 5S", "9H 10H JH QH KH", "8C 8D 8S 8H"), True, id="two pure sequences"
        ),
        pytest.param(
            ("2S 3S 4S 5S 6S", "7S 8S 9S 10S", "JH QH KH AH"), True, id="nothing but sequences"
        ),
        pytest.param(
            ("5S 6S JK", "9H 10H 7S", "QC QD QS", "2C 2D 2H 7C"),
            False,
            id="two sequences, none pure",
        ),
        pytest.param(("5S 6S 7S", "QC QD QS", "KC KD KH", "2C 2D 2H JK"), False, id="one sequence"),
        pytest.param(
            ("5S 6S 7S", "9H 10H JK", "QC QD QS 2C", "2D 2H 7C"), False, id="an invalid group"
        ),
    ],
)
def test_a_declaration_is_valid_with_every_group_valid_two_sequences_one_pure(
    groups: tuple[str, ...], valid: bool
) -> None:
    assert declared(declaring(*groups)).valid is valid


# --- "it scores 0, then every other player in the deal submits groups once, any order ----------
# (phase show); the deal ends at the last (a silent seat holds it open...)" -----------------------


def test_a_valid_declaration_scores_0_and_opens_the_show() -> None:
    game = table_of(VALID, None, None, stock="KD")
    made = valid_declaration(game)
    assert declared(made).points == 0
    assert game.hand.phase is Phase.SHOW
    assert statuses(game) == [DealStatus.DECLARED, DealStatus.TO_SUBMIT, DealStatus.TO_SUBMIT]
    assert [legal_moves(game.table, seat).can_submit for seat in range(3)] == [False, True, True]
    assert game.refuses(0, SubmitGroups(())) == "wrong_phase"


def test_the_others_submit_once_each_in_any_order_and_the_deal_ends_at_the_last() -> None:
    game = table_of(VALID, None, None, stock="KD")
    valid_declaration(game)
    game.act(2, SubmitGroups(()))
    assert statuses(game)[2] is DealStatus.SUBMITTED
    assert game.refuses(2, SubmitGroups(())) == "wrong_phase"
    assert not legal_moves(game.table, 2).can_submit
    # Seat 1 says nothing: the deal waits for it, and nothing else can be done.
    assert game.table.hand_number == 1
    for seat, action in ((1, STOCK), (0, Discard(game.hand.hands[0][0])), (2, Drop())):
        assert game.refuses(seat, action) == "wrong_phase"
    made = game.act(1, SubmitGroups(()))
    ended = next(e for e in made if isinstance(e, HandEnded))
    assert (ended.how, ended.out_seat) == (HandEnding.DECLARED, 0)
    assert [show.seat for show in ended.shows or ()] == [0, 2, 1]


def test_submitting_outside_the_show_is_wrong_phase() -> None:
    game = table_of(VALID, None)
    assert not legal_moves(game.table, 1).can_submit
    assert game.refuses(1, SubmitGroups(())) == "wrong_phase"
    assert game.refuses(0, SubmitGroups(())) == "wrong_phase"


# --- "Invalid: full_count (80), groups shown, out of the deal; play goes on (and if only -------
# one player is then left in the deal, that player wins it with 0)." ------------------------------

WRONG = ("5S 6S 7S 9H 10H JK", "QC QD QS", "2C 2D 2H 7C")


def test_a_wrong_show_scores_the_full_count_shows_its_groups_and_leaves_the_deal() -> None:
    game = table_of(VALID, None, None, stock="KD", full_count=60)
    game.act(0, STOCK)
    made = declare(game, 0, "KD", *WRONG)
    shown = declared(made)
    assert (shown.valid, shown.points) == (False, 60)
    assert [[c.code for c in group.cards] for group in shown.groups] == [g.split() for g in WRONG]
    assert [show.seat for show in indian_of(game.hand).shows] == [0]
    assert statuses(game) == [DealStatus.WRONG_SHOW, DealStatus.IN, DealStatus.IN]
    assert game.hand.hands[0] == []
    assert Counter(cards(VALID + " KD")) <= Counter(game.hand.out_of_play)
    # Play goes on with the next seat.
    assert (game.hand.turn, game.hand.phase) == (1, Phase.DRAW)
    pass_turn(game, 1)
    assert game.hand.turn == 2


def test_a_wrong_show_that_leaves_one_player_gives_that_player_the_deal_with_0() -> None:
    game = table_of(VALID, None, stock="KD")
    game.act(0, STOCK)
    declare(game, 0, "KD", *WRONG)
    ended = game.last
    assert (ended.how, ended.out_seat, ended.points) == (HandEnding.LAST_STANDING, 1, (80, 0))
    assert game.table.totals == [-80, 80]


# --- Losers: "cards in no group or an invalid one are ungrouped. If its valid groups hold at ---
# least two sequences, at least one pure, only the ungrouped cards count; else all 13 do. At ----
# most full_count. Empty groups is allowed." ------------------------------------------------------

LOSER = "3H 4H 5H 8C 9C 10C KS KH KC AD 4C 6D 9S"


def submitted(game: Game, *groups: str) -> GroupsSubmitted:
    made = game.act(1, SubmitGroups(groups_of(*groups)))
    return next(e for e in made if isinstance(e, GroupsSubmitted))


def showing(loser: str, **options: Any) -> Game:
    """Seat 1 holds `loser`; seat 0 has declared validly (13 cards in pure runs)."""
    shoe = Shoe(indian_rules(2, **options), SEVENS, loser.split())
    declaration = shoe.declaration()
    finish = shoe.any_cards(1)[0].code
    held = " ".join(c.code for group in declaration for c in group)
    game = table_of(held, loser, stock=finish, **options)
    game.act(0, STOCK)
    game.act(0, Declare(card(finish), declaration))
    return game


def test_with_the_life_only_cards_in_no_group_or_an_invalid_one_count() -> None:
    # AD 4C: in an invalid group; 6D 9S: in none. 10 + 4 + 6 + 9.
    game = showing(LOSER)
    shown = submitted(game, "3H 4H 5H", "8C 9C 10C", "KS KH KC", "AD 4C")
    assert [g.kind for g in shown.groups] == [PURE, PURE, SET, INVALID]
    assert shown.points == 29


def test_without_the_life_all_13_count() -> None:
    # One pure sequence and a set: no second sequence, so every card counts:
    # 3+4+5 + 8+9+10 + 10+10+10 + 10+4+6+9 = 98, at most 80; under a full count of 120, 98.
    assert submitted(showing(LOSER), "3H 4H 5H", "KS KH KC").points == 80
    assert submitted(showing(LOSER, full_count=120), "3H 4H 5H", "KS KH KC").points == 98


def test_a_hand_counts_at_most_the_full_count() -> None:
    assert submitted(showing(LOSER, full_count=25), "3H 4H 5H", "8C 9C 10C").points == 25


def test_empty_groups_are_a_submission_and_every_card_counts() -> None:
    shown = submitted(showing(LOSER, full_count=200))
    assert (shown.groups, shown.points) == ((), 98)


def test_groups_may_name_only_cards_held() -> None:
    game = showing(LOSER)
    assert game.refuses(1, SubmitGroups(groups_of("3H 4H 5H 6H"))) == "card_not_in_hand"
    assert game.refuses(1, SubmitGroups(groups_of("3H 4H 5H", "3H 4H 5H"))) == "card_not_in_hand"


# --- Drop: "on your turn before drawing: first_drop if you have drawn nothing this deal, -------
# else middle_drop; the hand is set aside, never shown." ------------------------------------------


def test_a_drop_is_made_on_your_own_turn_before_drawing() -> None:
    game = table_of(None, None, None)
    assert legal_moves(game.table, 1).can_drop is False
    assert game.refuses(1, Drop()) == "not_your_turn"
    moves = legal_moves(game.table, 0)
    assert (moves.can_drop, moves.drop_points) == (True, 20)
    game.act(0, STOCK)
    assert (legal_moves(game.table, 0).can_drop, legal_moves(game.table, 0).drop_points) == (
        False,
        None,
    )
    assert game.refuses(0, Drop()) == "wrong_phase"


def test_a_drop_before_any_draw_is_a_first_drop_and_after_one_a_middle_drop() -> None:
    game = table_of(None, None, None, first_drop=15, middle_drop=35)
    pass_turn(game, 0)
    first = game.act(1, Drop())
    assert first[0] == PlayerDropped(seat=1, kind=DropKind.FIRST, points=15)
    pass_turn(game, 2)
    assert legal_moves(game.table, 0).drop_points == 35
    middle = game.act(0, Drop())
    assert middle[0] == PlayerDropped(seat=0, kind=DropKind.MIDDLE, points=35)
    assert game.last.points == (35, 15, 0)


def test_a_dropped_hand_is_set_aside_and_never_shown() -> None:
    game = table_of(None, VALID, None, stock="4C 4D KD")
    held = list(game.hand.hands[0])
    game.act(0, Drop())
    assert game.hand.hands[0] == []
    assert Counter(held) <= Counter(game.hand.out_of_play)
    pass_turn(game, 1)
    pass_turn(game, 2)
    valid_declaration(game, 1)
    game.act(2, SubmitGroups(()))
    ended = game.last
    assert ended.remaining[0] == ()
    assert ended.values[0] == 0
    assert 0 not in {show.seat for show in ended.shows or ()}
    assert ended.statuses is not None
    assert ended.statuses[0] is DealStatus.DROPPED


# --- "Whenever only one player is left in a deal (the others dropped or showed wrongly), -------
# that player wins it with 0 and the deal ends." --------------------------------------------------


def test_the_one_player_left_wins_the_deal_with_0_and_its_hand_is_not_shown() -> None:
    game = table_of(VALID, None, None, stock="KD")
    game.act(0, STOCK)
    declare(game, 0, "KD", *WRONG)
    made = game.act(1, Drop())
    ended = next(e for e in made if isinstance(e, HandEnded))
    assert (ended.how, ended.out_seat, ended.points) == (HandEnding.LAST_STANDING, 2, (80, 20, 0))
    assert ended.remaining == ((), (), ())
    assert game.table.totals == [-80, -20, 100]
