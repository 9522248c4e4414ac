"""Gin Rummy's hands as docs/rules.md "Gin Rummy" words them: the deal, the upcard
offer, the turn, the knock (the player's arrangement or the server's), gin and big
gin, the defender's lay-offs, undercut, void hands, Oklahoma, the dealer, the game's
end with its bonuses, and a forfeit."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.actions import Action, Discard, Draw, Knock, LayOff, Meld, Pass
from service.domain.cards import Card
from service.domain.changes import apply
from service.domain.decks import SeededDecks
from service.domain.events import GameFinished, HandDealt, HandEnded
from service.domain.flow import settle
from service.domain.leaving import decide_leave
from service.domain.play import play, start
from service.domain.rules import RuleSet
from service.domain.state import HandEnding, LaidOff, Phase, Source, Table
from service.domain.turns import is_legal, legal_moves
from tests.domain.tables import DISCARD, STOCK, Game, card, cards, new_game

A, B = 0, 1
# The rules page's example: A knocks with 4C, K = 2; B melds the 5s, lays 10S off.
A_HAND = "3C 3D 3H 7S 8S 9S JH QH KH 4C"
B_HAND = "10S 5D 5C 5H AC AD 4H 6D 8D 9D"


def gin(hands: tuple[str, str], upcard: str, stock: str = "", **options: Any) -> Game:
    """Hand 1 dealt by B (seat 1), so A (seat 0) is offered the upcard first."""
    rules = RuleSet.from_dict({"variant": "gin", **options}, players=2)
    return new_game(list(hands), upcard, stock, dealer=B, rules=rules)


def melds(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(cards(meld)) for meld in text.split(" / "))


def both_pass(game: Game) -> None:
    game.act(A, Pass())
    game.act(B, Pass())


def example() -> Game:
    game = gin((A_HAND, B_HAND), "KC", "2D")
    both_pass(game)
    game.draw(A)
    return game


def test_the_deal_offers_the_upcard_to_the_non_dealer() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D")
    hand = game.hand
    assert hand.phase is Phase.UPCARD_OFFER
    assert hand.turn == A
    assert [c.code for c in hand.discard] == ["KC"]
    assert len(hand.stock) == 31
    assert hand.stock[-1] == card("2D")
    moves = legal_moves(game.table, A)
    assert moves.draw == (Source.DISCARD,)
    assert moves.can_pass
    assert legal_moves(game.table, B).draw == ()


def test_the_offer_refuses_the_stock_then_passes_to_the_dealer() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D")
    assert game.refuses(A, STOCK) == "wrong_phase"
    assert game.refuses(B, Pass()) == "not_your_turn"
    game.act(A, Pass())
    assert (game.hand.phase, game.hand.turn) == (Phase.UPCARD_OFFER, B)
    assert game.refuses(B, STOCK) == "wrong_phase"
    game.act(B, Pass())
    assert (game.hand.phase, game.hand.turn) == (Phase.DRAW, A)
    assert game.refuses(A, DISCARD) == "upcard_declined"
    assert game.refuses(A, Pass()) == "wrong_phase"
    game.turn(A, "4C")
    # The declined upcard is under 4C now; the pile's top is B's to take.
    game.act(B, DISCARD)
    assert game.hand.hands[B][-1] == card("4C")


def test_the_dealer_may_take_the_upcard_and_the_non_dealer_plays_next() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D")
    game.act(A, Pass())
    game.act(B, DISCARD)
    assert game.refuses(B, Discard(card("KC"))) == "discard_taken_card"
    assert game.refuses(B, Knock(card("KC"))) == "discard_taken_card"
    game.discard(B, "4H")
    assert (game.hand.phase, game.hand.turn) == (Phase.DRAW, A)
    assert legal_moves(game.table, A).draw == (Source.STOCK, Source.DISCARD)


def test_melds_and_lay_offs_are_not_in_the_variant() -> None:
    game = example()
    assert game.refuses(A, Meld(tuple(cards("3C 3D 3H")))) == "not_in_variant"
    assert game.refuses(A, LayOff(card("4C"), "h1-m1")) == "not_in_variant"
    assert game.refuses(B, Pass()) == "wrong_phase"


def test_the_rules_page_example_scores_27() -> None:
    game = example()
    assert 4 in {c.rank.value for c in legal_moves(game.table, A).knock}
    assert legal_moves(game.table, A).deadwood == 6  # 2D and 4C, all eleven held
    made = game.act(A, Knock(card("4C")))
    ended = next(event for event in made if isinstance(event, HandEnded))
    assert ended.how is HandEnding.KNOCK
    assert ended.knocker == A
    assert ended.knock_card == card("4C")
    assert ended.arranged is not None
    assert ended.counts == (2, 29)
    assert ended.arranged[A] == melds("3C 3D 3H / 7S 8S 9S / JH QH KH")
    assert ended.arranged[B] == melds("5C 5D 5H")
    assert ended.laid_off == ((), (LaidOff(card=card("10S"), meld=1),))
    assert ended.deadwood == (tuple(cards("2D")), tuple(cards("AC AD 4H 6D 8D 9D")))
    assert ended.points == (27, 0)
    assert ended.hand_winner == A
    assert game.table.hands_won == [1, 0]


def test_a_declared_arrangement_is_the_knocker_s_own() -> None:
    game = example()
    # Leaving the spades unmelded keeps 10S in B's deadwood, but A's count is then too high.
    assert game.refuses(A, Knock(card("4C"), melds("3C 3D 3H / JH QH KH"))) == "knock_too_high"
    assert game.refuses(A, Knock(card("4C"), melds("3C 3D 3H / 3C 3D 3H"))) == "card_not_in_hand"
    assert game.refuses(A, Knock(card("4C"), melds("4C 3C 2D"))) == "card_not_in_hand"
    assert game.refuses(A, Knock(card("4C"), melds("3C 3D 9S"))) == "invalid_meld"
    assert game.refuses(A, Knock(card("4C"), melds("AS 2S 3S"))) == "card_not_in_hand"
    made = game.act(A, Knock(card("2D"), melds("3C 3D 3H / 7S 8S 9S / JH QH KH")))
    ended = next(event for event in made if isinstance(event, HandEnded))
    # K = 4C: 4; B lays off 10S on the spades, and no 4 fits A's melds: 29 - 4.
    assert ended.counts == (4, 29)
    assert ended.points == (25, 0)


def test_an_undercut_scores_the_defender() -> None:
    game = gin((A_HAND, "AC AD AH 5S 5C 5D 6H 7H 8H 2S"), "KC", "2D")
    both_pass(game)
    game.draw(A)
    made = game.act(A, Knock(card("2D")))
    ended = next(event for event in made if isinstance(event, HandEnded))
    # K = 4C: 4; B melds aces, fives and 6H-8H, keeps 2S: 2 <= 4.
    assert ended.how is HandEnding.UNDERCUT
    assert ended.counts == (4, 2)
    assert ended.points == (0, 25 + 2)
    assert ended.hand_winner == B


def test_gin_lets_nothing_be_laid_off_and_scores_the_bonus() -> None:
    game = gin(("3C 3D 3H 7S 8S 9S JH QH KH 4C", "10S 5D 5C 5H AC AD 4H 6D 8D 9D"), "KC", "3S")
    both_pass(game)
    game.draw(A)
    made = game.act(A, Knock(card("4C")))
    ended = next(event for event in made if isinstance(event, HandEnded))
    # With 3S the threes are four; 10S stays in B's deadwood: 29 + 10.
    assert ended.how is HandEnding.GIN
    assert ended.laid_off == ((), ())
    assert ended.points == (25 + 39, 0)


def test_big_gin_knocks_without_a_card() -> None:
    game = gin(("3C 3D 3H 7S 8S 9S JH QH KH 10S", B_HAND.replace("10S", "2S")), "KC", "3S")
    both_pass(game)
    game.draw(A)
    assert legal_moves(game.table, A).big_gin
    made = game.act(A, Knock(None))
    ended = next(event for event in made if isinstance(event, HandEnded))
    assert ended.how is HandEnding.BIG_GIN
    assert ended.knock_card is None
    assert ended.points[A] == 31 + ended.counts[B]  # type: ignore[index]


def test_big_gin_is_refused_when_off_or_incomplete() -> None:
    game = example()
    assert game.refuses(A, Knock(None)) == "invalid_knock"
    game = gin(
        ("3C 3D 3H 7S 8S 9S JH QH KH 10S", B_HAND.replace("10S", "2S")),
        "KC",
        "3S",
        big_gin_bonus=None,
    )
    both_pass(game)
    game.draw(A)
    assert not legal_moves(game.table, A).big_gin
    assert game.refuses(A, Knock(None)) == "invalid_knock"


def test_a_discard_leaving_two_in_the_stock_voids_the_hand_and_the_dealer_deals_again() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D")
    both_pass(game)
    seat = A
    while game.table.hands_played == 0:
        game.act(seat, Draw(Source.STOCK))
        held = game.hand.hands[seat]
        game.act(seat, Discard(held[-1]))
        seat = 1 - seat
    ended = game.last
    assert ended.how is HandEnding.VOID
    assert ended.points == (0, 0)
    assert sum(1 for event in game.events if isinstance(event, HandEnded)) == 1
    dealt = [event for event in game.events if isinstance(event, HandDealt)]
    assert dealt[-1].dealer == B
    assert dealt[-1].hand_number == 2
    # 31 in the stock, one draw each turn: the 29th discard leaves two.
    assert ended.remaining
    assert len(game.events) > 29


def test_the_winner_of_a_hand_deals_the_next() -> None:
    game = example()
    game.act(A, Knock(card("4C")))
    dealt = [event for event in game.events if isinstance(event, HandDealt)]
    assert dealt[-1].dealer == A
    assert game.hand.turn == B


def test_oklahoma_sets_the_limit_from_the_upcard_and_a_spade_doubles() -> None:
    game = gin((A_HAND, B_HAND), "2S", "2D", oklahoma=True)
    assert game.hand.gin is not None
    assert (game.hand.gin.knock_limit, game.hand.gin.doubled) == (2, True)
    both_pass(game)
    game.draw(A)
    made = game.act(A, Knock(card("4C")))
    ended = next(event for event in made if isinstance(event, HandEnded))
    assert ended.points == (54, 0)
    ace = gin((A_HAND, B_HAND), "AH", "2D", oklahoma=True)
    assert ace.hand.gin is not None
    assert ace.hand.gin.knock_limit == 0
    both_pass(ace)
    ace.draw(A)
    assert ace.refuses(A, Knock(card("4C"))) == "knock_too_high"


def test_the_game_ends_at_the_target_with_box_game_bonus_and_shutout() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D", target=25)
    both_pass(game)
    game.draw(A)
    made = game.act(A, Knock(card("4C")))
    finished = made[-1]
    assert isinstance(finished, GameFinished)
    assert finished.winner == A
    assert finished.result is not None
    won, lost = finished.result
    assert (won.hands_won, won.box, won.game_bonus, won.shutout) == (1, 25, 100, True)
    assert won.total == (27 + 25 + 100) * 2
    assert (lost.hands_won, lost.box, lost.total, lost.shutout) == (0, 0, 0, False)
    assert finished.totals == (won.total, 0)
    no_shutout = gin((A_HAND, B_HAND), "KC", "2D", target=25, shutout=False)
    both_pass(no_shutout)
    no_shutout.draw(A)
    last = no_shutout.act(A, Knock(card("4C")))[-1]
    assert isinstance(last, GameFinished)
    assert last.totals == (27 + 25 + 100, 0)


def test_a_forfeit_ends_the_game_at_once_without_bonuses() -> None:
    game = gin((A_HAND, B_HAND), "KC", "2D", abandon="forfeit")
    both_pass(game)
    made = decide_leave(game.table, B, game.decks, resign=True)
    for event in made:
        apply(game.table, event)
    settle(game.table, game.decks, lambda event: apply(game.table, event))
    assert game.table.finished
    assert game.table.winner == A
    assert game.table.final is not None
    assert all(each.box == 0 and each.game_bonus == 0 for each in game.table.final)


def _every_move(table: Table, seat: int) -> list[Action]:
    """Every gin move `seat` could name now: draws, a pass, each card discarded or
    knocked with, big gin."""
    hand = table.hand
    assert hand is not None
    moves: list[Action] = [Draw(Source.STOCK), Draw(Source.DISCARD), Pass(), Knock(None)]
    for held in hand.hands[seat]:
        moves.extend((Discard(held), Knock(held)))
    return moves


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_legal_is_exactly_what_is_accepted(seed: int, oklahoma: bool) -> None:
    rules = RuleSet.from_dict({"variant": "gin", "oklahoma": oklahoma, "target": 30}, players=2)
    table = Table(rules=rules, seat_count=2, seated=[True, True])
    decks = SeededDecks(seed=f"gin-legal-{seed}", client_seeds=("", ""), pack=rules.pack)
    start(table, decks)
    rng = random.Random(seed)
    for _ in range(300):
        hand = table.hand
        if hand is None or table.over:
            break
        assert Counter(hand.cards()) == Counter(rules.pack)
        for seat in (0, 1):
            offered = legal_moves(table, seat).actions()
            for action in _every_move(table, seat):
                assert is_legal(table, seat, action) == (action in offered), (seat, action)
        seat = hand.turn
        offered = legal_moves(table, seat).actions()
        knocks = [action for action in offered if isinstance(action, Knock)]
        chosen = rng.choice(knocks) if knocks and rng.random() < 0.3 else rng.choice(offered)
        play(table, seat, [chosen], decks)
