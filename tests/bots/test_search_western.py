"""The Western search outside Knock Rummy (`search/western_hand.py`): its deals,
its candidates, its test against `basic`'s move, and where it plays at all."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from service.bots.basic import play_basic
from service.bots.search import play_strong, western
from service.bots.search.budget import SCALE_VARIABLE, Guard
from service.bots.search.playout import Judge
from service.bots.search.unknown import Deal, Unknown
from service.bots.search.western_hand import (
    FULL_STOCK,
    HAND_SHARE,
    PRUNE,
    hand_samples,
    near,
    paired_best,
    pruned,
    season,
)
from service.bots.view import BotView
from service.domain.rules import RuleSet
from service.domain.state import Phase
from tests.bots import test_no_peek as no_peek
from tests.bots.tables import card, cards, table, view_for

CLASSIC = RuleSet()
GOING_OUT = ("classic", "wild", "boathouse", "wrotham")
NEVER = Guard(deadline=float("inf"))


def judge(rules: RuleSet = CLASSIC) -> Judge:
    return Judge(rules=rules, table=(), knocking=False, concealed=False)


def mid_hand() -> tuple[Unknown, BotView]:
    """Seat 0 to discard, ten cards a seat, a pile of eight discards under the top."""
    board = table(
        ["2C 3C 4C 7D 8D 9H KS QH JD 5S 6H", 10],
        discard="2D 5C 9C KD 3H 4S AC 8S 10H",
        phase=Phase.PLAY,
        turn=0,
    )
    view = view_for(board, 0)
    bot = BotView.read(view)
    return Unknown.of(view, bot), bot


def test_seasoning_only_moves_hidden_cards_between_hidden_places() -> None:
    unknown, _ = mid_hand()
    deal = unknown.sample(Random(3))
    before = Counter(deal.hands[1] + deal.stock + deal.buried)
    stock = list(deal.stock)
    season(deal, judge(), Random(4), steps=8)
    assert Counter(deal.hands[1] + deal.stock + deal.buried) == before
    assert len(deal.hands[1]) == unknown.hand_counts[1]
    assert len(deal.buried) == unknown.buried_count
    assert deal.stock == stock  # the order of the draws to come is the sample's


def test_seasoned_hands_are_closer_to_going_out_than_uniform_ones() -> None:
    unknown, _ = mid_hand()
    reader = judge()
    plain = seasoned = 0
    for seed in range(40):
        deal = unknown.sample(Random(seed))
        plain += reader.dead(deal.hands[1]).points
        season(deal, reader, Random(seed), steps=8)
        seasoned += reader.dead(deal.hands[1]).points
    assert seasoned < plain


def test_the_candidates_are_basics_card_and_the_next_the_playout_would_throw() -> None:
    hand = cards("2C 3C 4C 7D 8D 9H KS QH JD 5S 6H")
    reader = judge()
    chosen = pruned(hand, card("5S"), reader, hand)
    assert chosen[0] == card("5S")
    assert len(chosen) == PRUNE + 1
    # No card of the club run while deadwood is left to throw: the loose face cards
    # (most points, no partner) before the rest.
    assert set(chosen[1:]) <= {card("KS"), card("QH"), card("JD")}


def test_an_upcard_is_near_a_hand_only_through_a_partner_or_a_wild() -> None:
    hand = cards("2C 7D KS")
    assert near(card("4C"), hand, CLASSIC)  # two ranks up the clubs
    assert near(card("KH"), hand, CLASSIC)  # a king
    assert not near(card("5C"), hand, CLASSIC)
    wild = RuleSet.from_dict({"variant": "wild"}, players=2)
    assert near(card("JK"), hand, wild)


@pytest.mark.parametrize(
    ("variant", "game"),
    [
        ("classic", "plain"),
        ("wild", "wilds"),
        ("boathouse", "second_draw"),
        ("wrotham", "starter_deal"),
        ("knock", "knocking"),
    ],
)
def test_each_western_game_is_told_apart_by_its_features(variant: str, game: str) -> None:
    assert western.game_of(RuleSet.from_dict({"variant": variant}, players=2)) == game


def test_fewer_deals_early_in_the_hand_when_playouts_run_longest() -> None:
    assert hand_samples(24, FULL_STOCK) == round(24 * HAND_SHARE)
    assert hand_samples(24, 2 * FULL_STOCK) == round(24 * HAND_SHARE / 2)
    assert hand_samples(96, 2 * FULL_STOCK) == 4 * hand_samples(24, 2 * FULL_STOCK)
    assert hand_samples(1, 1000) == 1


def _deal() -> Deal:
    return Deal(hands={}, stock=[], buried=[])


def test_basics_move_stands_unless_another_leads_it_surely_deal_by_deal() -> None:
    noise = Random(5)
    jitter = [noise.uniform(-10, 10) for _ in range(200)]
    calls = iter(range(10**6))

    def scorer(leads: dict[str, float]):
        def score(candidate: str, deal: Deal) -> float:
            # The same luck for every candidate on a deal: what a shared deal gives.
            return leads[candidate] + jitter[next(calls) // 3 % 200]

        return score

    sure = paired_best(["basic", "b", "c"], _deal, 24, NEVER, scorer({"basic": 0, "b": 1, "c": 0}))
    assert sure == "b"
    # A larger mean lead made of luck on a few deals does not overrule basic.
    lucky = iter([30.0] + [-1.0] * 23)

    def fluke(candidate: str, deal: Deal) -> float:
        return next(lucky) if candidate == "b" else 0.0

    assert paired_best(["basic", "b"], _deal, 24, NEVER, fluke) == "basic"


def test_outside_the_variants_it_was_measured_to_win_strong_plays_basics_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The other seat holds three cards: the search throws the 8D (it sees the threat
    # and keeps what pairs), basic the loose queen.
    board = table(
        ["QS 9H 3D 5D 9C 7H 2S 8D JC AH 6C", 3],
        discard="2D 5H 9S KD 3H 4S AC 8S 10H",
        phase=Phase.PLAY,
    )
    view = view_for(board, 0)
    basic = play_basic(view, Random(Random(0).random()))
    monkeypatch.setattr(western, "SEARCHED", western.SEARCHED | {"plain"})
    assert play_strong(view, Random(0)) != basic
    monkeypatch.setattr(western, "SEARCHED", western.SEARCHED - {"plain"})
    assert play_strong(view, Random(0)) == basic


def test_a_search_is_a_function_of_the_view_and_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(western, "SEARCHED", western.SEARCHED | {"plain"})
    board = table(
        ["2C 3C 4C 7D 8D 9H KS QH JD 5S 6H", 10],
        discard="2D 5C 9C KD 3H 4S AC 8S 10H",
        phase=Phase.PLAY,
    )
    view = view_for(board, 0)
    assert play_strong(view, Random(11)) == play_strong(view, Random(11))


@pytest.mark.parametrize("variant", GOING_OUT)
def test_where_it_would_play_the_search_does_not_peek(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/bots/test_no_peek.py's property for this search in every going-out game,
    gated or not: the hidden cards dealt again, the same view and seed, the same move."""
    monkeypatch.setenv(SCALE_VARIABLE, "0.25")
    monkeypatch.setattr(western, "SEARCHED", frozenset(western.GAMES))
    rules = RuleSet.from_dict({"variant": variant}, players=2)
    for number in range(3):
        seed = f"western-no-peek/{variant}/{number}"
        board = no_peek._position(rules, 2, seed)
        assert board.hand is not None
        seat = board.hand.to_act()
        view = view_for(board, seat)
        move = play_strong(view, Random(seed))
        for redeal in range(4):
            other = view_for(no_peek._redealt(board, seat, Random(f"{seed}/{redeal}")), seat)
            assert play_strong(other, Random(seed)) == move


def test_a_playout_hand_of_the_taken_card_alone_throws_it_back() -> None:
    # Wrotham: a seat that melded all its cards draws with an empty hand.
    assert judge().throw([card("9D")], card("9D")) == card("9D")
