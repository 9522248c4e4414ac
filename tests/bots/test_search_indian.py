"""The Indian family's search (`strong`, `expert`), position by position: what it
sees, what it declares, takes and keeps, and that its move is a function of the
view and its seed."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from service.bots.search import play_expert, play_strong
from service.bots.search.budget import Budget
from service.bots.search.indian import search_indian
from service.bots.search.indian_drop import drop_wins
from service.bots.search.indian_outs import linked, outs
from service.bots.search.indian_shape import deficiency, deficiency_below
from service.bots.search.indian_value import Scorer, feeds
from service.bots.search.unknown import Unknown
from service.bots.view import BotView
from service.domain.actions import Declare, Discard, Draw, Drop
from service.domain.cards import FULL_DECK, JOKER, Card, Rank
from service.domain.state import Source
from tests.bots.tables import card, cards, random_indian_hands, view_for
from tests.domain.indian_tables import indian_game

# Eights are wild (the indicator 8C). Seat 0 holds a pure run of hearts, one of
# spades, three nines and 10D JD QD: one more diamond (KD, or 9D's other side)
# or a wild, and the loose 4C goes as the finish card.
READY = "2H 3H 4H 5S 6S 7S 9C 9D 9S 10D JD QD 4C"
OTHER = "2C 3D 5D 6D 7H 9H JC QC KC KS AH AD 2S"
LOOSE = "KH"
"""The stock's top in most positions: a card that fits nothing of seat 0's."""


def game(*, upcard: str = "6C", stock: tuple[str, ...] = (LOOSE,), hands=(READY, OTHER)):
    return indian_game(list(hands), indicator="8C", upcard=upcard, stock=stock)


def strong(board, seat: int = 0, seed: int = 0):
    return play_strong(view_for(board.table, seat), Random(seed))


def test_the_unseen_pool_leaves_out_the_face_up_wild_indicator() -> None:
    board = game()
    view = view_for(board.table, 0)
    unknown = Unknown.of(view, BotView.read(view))
    assert card("8C") not in unknown.pool  # one pack at two seats: its only copy
    assert card("6C") not in unknown.pool  # the upcard
    assert not set(cards(READY)) & set(unknown.pool)
    hidden = sum(unknown.hand_counts.values()) + unknown.stock_count + unknown.buried_count
    assert len(unknown.pool) == hidden
    deal = unknown.sample(Random(1))
    assert sorted(c.code for c in deal.hands[1]) == sorted(
        c.code for c in unknown.pool if c in deal.hands[1]
    )
    assert len(deal.hands[1]) == 13
    assert len(deal.stock) == view.stock_count


def test_takes_the_top_discard_that_completes_a_declaration() -> None:
    assert strong(game(upcard="KD")) == Draw(Source.DISCARD)


def test_leaves_a_top_discard_that_fits_nothing() -> None:
    assert strong(game(upcard="KS", hands=(READY, OTHER.replace("KS", "6C")))) == Draw(Source.STOCK)


@pytest.mark.parametrize("level", [play_strong, play_expert])
def test_declares_when_the_draw_completes_the_groups(level) -> None:
    board = game(stock=("KD",))
    board.act(0, Draw(Source.STOCK))
    move = level(view_for(board.table, 0), Random(3))
    assert isinstance(move, Declare)
    assert move.card == card("4C")


def test_never_throws_a_wild_while_a_loose_card_may_go() -> None:
    # A joker and an eight (wild) with a hand short of its groups: the wilds stay.
    hand = "2H 3H 4H 5S 6S JK 8D 9C 9D KH QD 4C 2D"
    board = game(hands=(hand, OTHER), stock=("7D",))
    board.act(0, Draw(Source.STOCK))
    move = strong(board)
    assert isinstance(move, Discard)
    assert move.card not in (card("JK"), card("8D"))


def test_keeps_a_pair_that_builds_a_run_and_throws_a_lone_card_of_the_same_value() -> None:
    # After the draw: KS QS could be a run with JS, AS or a wild; JD is alone (the
    # other seat holds 10D and QD). All three count 10: only the chances differ.
    hand = "2H 3H 4H 5D 6D 7D 9C 9D 9S KS QS JD 3C"
    other = "2C 4D 10D QD 7H 9H JC QC KC 10S AH AD 2S"
    board = game(hands=(hand, other), stock=("4S",))
    board.act(0, Draw(Source.STOCK))
    move = strong(board)
    assert isinstance(move, Discard)
    assert move.card == card("JD")


def test_a_discard_feeds_the_hand_it_completes_a_group_of() -> None:
    scorer = Scorer(Rank.EIGHT, 80)
    assert feeds(card("7H"), cards("5H 6H KC"), scorer)
    assert feeds(card("7H"), cards("7C 7S 2D"), scorer)
    assert feeds(card("7H"), cards("9H JK 2D"), scorer)
    assert feeds(card("8S"), cards("2C"), scorer)  # a wild fits anything
    assert not feeds(card("7H"), cards("7C 9S 2D"), scorer)
    assert not feeds(card("AH"), cards("QH 2D 5C"), scorer)
    assert feeds(card("AH"), cards("KH QH 5C"), scorer)  # the ace is high too


@pytest.mark.parametrize("samples", [8, 96])  # the strong and the expert shapes
def test_the_move_is_a_function_of_the_view_and_the_seed(samples: int) -> None:
    # Two deals that show seat 0 the same view: the other hand and the stock under
    # its top differ. Several discards leave the same deficiency, so the samples
    # decide among them.
    hand = "2H 3H 4H 5D 6D 7D 9C 9D 9S KS QS JD 3C"
    other = "2C 4D 10D QD 7H 9H JC QC KC 10S AH AD 2S"
    one = game(hands=(hand, other), stock=("4S", "5C", "6H"))
    two = game(hands=(hand, other.replace("2C", "6H")), stock=("4S", "5C", "2C"))
    for board in (one, two):
        board.act(0, Draw(Source.STOCK))
    view_one, view_two = view_for(one.table, 0), view_for(two.table, 0)
    assert view_one.my_hand == view_two.my_hand
    budget = Budget(samples=samples, cap_seconds=60.0)
    for seed in range(2):
        first = search_indian(view_one, BotView.read(view_one), Random(seed), budget)
        again = search_indian(view_one, BotView.read(view_one), Random(seed), budget)
        moved = search_indian(view_two, BotView.read(view_two), Random(seed), budget)
        assert isinstance(first, Discard)
        assert first == again == moved


def test_a_card_is_wild_by_the_deal_s_rank_or_as_a_joker() -> None:
    scorer = Scorer(Rank.EIGHT, 80)
    assert scorer.is_wild(Card.parse("JK"))
    assert scorer.is_wild(card("8H"))
    assert not scorer.is_wild(card("9H"))


# --- the deficiency: cards still to draw -------------------------------------------


def test_a_valid_declaration_lacks_nothing_and_a_hand_one_card_short_lacks_one() -> None:
    assert deficiency(cards(f"{READY} KD"), Rank.EIGHT) == 0
    assert deficiency(cards(READY), Rank.EIGHT) == 1


def test_a_hand_of_loose_cards_lacks_all_but_its_pairs() -> None:
    # AS 2S and 4D 5D are the only starts of groups: 13 - 4 cards to draw.
    loose = cards("2H 5D 9C JS KH 3C 6S 10H QC 4D 7H AS 2S")
    assert deficiency(loose, Rank.EIGHT) == 9
    # A wild in place of a loose card (2H) is one card nearer.
    assert deficiency([Card.parse("JK"), *loose[1:]], Rank.EIGHT) == 8


def test_sets_alone_are_no_declaration() -> None:
    # Every card but one in a valid set, yet no sequence: the life is still to make.
    sets = cards("2C 2D 2H 5C 5D 5H 9C 9D 9H QC QD QH KS")
    assert deficiency(sets, Rank.EIGHT) >= 3


# --- the drop ----------------------------------------------------------------------

HOPELESS = "2H 5D 9C JS KH 3C 7S 10H QC 4D 7H AS 10S"
"""No wild (eights), no pure sequence, and two pairs that could start one."""
HOPELESS_OTHER = "2C 3D 5S 6D 6H 9H JC 4C KC KS AH AD 2S"


@pytest.mark.parametrize(
    ("format_", "score", "drops"),
    [
        ("pool_101", 0, True),
        ("deals", 0, True),
        ("points", 0, False),  # one deal is the game: a drop loses it
        ("pool_101", 81, False),  # the drop itself would eliminate the seat
    ],
)
def test_drops_first_a_hand_with_nothing_to_build_on_where_points_outlive_the_deal(
    format_: str, score: int, drops: bool
) -> None:
    board = indian_game(
        [HOPELESS, HOPELESS_OTHER], indicator="8C", upcard="6C", stock=("6S",), format=format_
    )
    board.table.totals[0] = score
    move = strong(board)
    assert isinstance(move, Drop) is drops
    if not drops:
        assert isinstance(move, Draw)


def test_plays_on_with_a_pure_sequence_in_a_pool() -> None:
    hand = HOPELESS.replace("2H", "JH").replace("QC", "QH")  # 10H JH QH
    board = indian_game(
        [hand, HOPELESS_OTHER], indicator="8C", upcard="6C", stock=("6S",), format="pool_101"
    )
    assert isinstance(strong(board), Draw)


def last_deal(hands: tuple[str, ...], lead: int, deals: int = 1):
    """Format `deals` at the first turn of its last deal (`deals` 1: the only one),
    seat 0 `lead` chips ahead of every other seat."""
    stock = (LOOSE,) if READY in hands else ("6S",)
    board = indian_game(
        list(hands), indicator="8C", upcard="6C", stock=stock, format="deals", deals=deals
    )
    start = board.table.totals[1]
    board.table.totals[:] = [start + lead, *[start] * (len(hands) - 1)]
    return board


@pytest.mark.parametrize(
    ("lead", "wins"),
    [(41, True), (40, False), (0, False), (-60, False)],
)
def test_in_the_last_deal_a_drop_wins_only_from_a_lead_above_twice_the_drop(
    lead: int, wins: bool
) -> None:
    # Two seats, the first drop 20: the drop costs 20 and gives the other 20.
    view = view_for(last_deal((READY, OTHER), lead).table, 0)
    assert drop_wins(view, BotView.read(view)) is wins


def test_at_three_seats_the_winner_may_also_take_the_other_losers_full_count() -> None:
    # Ahead of both by 120: 2 x 20 for the drop and 80 for the third seat's count.
    for lead, wins in ((120, False), (121, True)):
        view = view_for(last_deal((READY, OTHER, HOPELESS_OTHER), lead).table, 0)
        assert drop_wins(view, BotView.read(view)) is wins


def test_before_the_last_deal_and_in_the_other_formats_the_hand_decides() -> None:
    view = view_for(last_deal((READY, OTHER), 100, deals=2).table, 0)
    assert drop_wins(view, BotView.read(view)) is None
    view = view_for(game().table, 0)
    assert drop_wins(view, BotView.read(view)) is None


def test_experts_last_deal_drop_is_the_one_that_wins_the_game() -> None:
    # A good hand, 50 ahead: strong plays it; expert drops, and the game is its.
    ahead = view_for(last_deal((READY, OTHER), 50).table, 0)
    assert isinstance(play_strong(ahead, Random(0)), Draw)
    assert isinstance(play_expert(ahead, Random(0)), Drop)
    # A hopeless hand, 20 ahead: strong drops it and loses the game; expert plays on.
    short = view_for(last_deal((HOPELESS, HOPELESS_OTHER), 20).table, 0)
    assert isinstance(play_strong(short, Random(0)), Drop)
    assert isinstance(play_expert(short, Random(0)), Draw)


def test_an_open_ended_run_has_more_outs_than_one_with_a_gap() -> None:
    scorer = Scorer(Rank.EIGHT, 80)
    unseen = Counter(cards("4H 6H 7H 3H 9H 8D JK 5C KD QC"))
    # Equal deficiency; 5H 6H grows at both ends (4H, 7H), 5H 7H only in its gap (6H).
    base = "2C 3C 4C 9S 10S JS KH KS 2D 4D 7S"
    open_ended = cards(f"{base} 5H 6H")
    gapped = cards(f"{base} 5H 7H")
    assert scorer.shape(open_ended) == scorer.shape(gapped)
    assert outs(open_ended, unseen, scorer) > outs(gapped, unseen, scorer)
    # A wild (8D, the joker) is an out of both; a card that fits nothing is not.
    assert outs(cards(f"{base} 5H 6H"), Counter(cards("KD")), scorer) == 1  # KH KS KD
    assert outs(open_ended, Counter(cards("8D JK")), scorer) == 2
    assert outs(open_ended, Counter(cards("9D")), scorer) == 0


def test_asking_whether_a_hand_lacks_fewer_cards_agrees_with_counting_them() -> None:
    # The stopped search (`deficiency_below`, what a wild out asks) answers as the
    # whole one does, at every limit around the hand's own deficiency.
    for hand, wild in random_indian_hands("below", 300):
        lacking = deficiency(hand, wild)
        for limit in range(lacking - 2, lacking + 3):
            assert deficiency_below(hand, wild, limit) == (lacking < limit), (hand, wild, limit)


def test_the_outs_are_the_unseen_cards_that_lower_the_deficiency() -> None:
    # Counted the slow way: every unseen card tried with the whole search.
    for hand, wild in random_indian_hands("outs", 40):
        rest = hand[:13]
        scorer = Scorer(wild, 80)
        unseen = Counter(card for card in FULL_DECK if card not in rest)
        unseen[JOKER] = 1
        base = deficiency(rest, wild)
        slow = sum(n for card, n in unseen.items() if deficiency([*rest, card], wild) < base)
        assert outs(rest, unseen, scorer) == slow, (rest, wild)


def test_linked_counts_the_unseen_cards_that_complete_a_group_of_three() -> None:
    scorer = Scorer(Rank.EIGHT, 80)
    base = "2C 3C 4C 9S 10S JS KH KS 2D 9D 7S"
    unseen = Counter(cards("4H 7H 6H KD 8D QC 5C"))
    # 4H and 7H complete 5H 6H, 6H only 5H 7H; KD the kings; the wild 8D fits
    # anything; 5C lengthens 2C 3C 4C; QC fits nothing.
    open_ended = linked(cards(f"{base} 5H 6H"), unseen, scorer)
    gapped = linked(cards(f"{base} 5H 7H"), unseen, scorer)
    assert open_ended == 5  # 4H 7H KD 8D 5C
    assert gapped == 4  # 6H KD 8D 5C
