"""The pile under the top, which every view shows (`pile_below`), and the seats that
remember it (`BotView.remembering`): `expert` in classic, Boathouse, Wrotham and
Indian deals; nobody else (docs/bots.md)."""

from __future__ import annotations

from random import Random

import pytest

from service.bots import basic
from service.bots.search import play_expert, play_strong
from service.bots.search.unknown import Unknown
from service.bots.view import REMEMBER_STOCK, BotView
from service.domain.actions import Discard
from service.domain.rules import RuleSet
from service.domain.state import Phase, Table
from service.projections.views import GameView
from tests.bots import test_no_peek as no_peek
from tests.bots.tables import card, cards, table, view_for

PILE = "6C 6D 6S 5H 7H 4H 8H"
"""Every card that could share a meld with the 6H, thrown: the 6H is dead."""


def dead_six(rules: RuleSet | None = None, stock: int | None = None) -> Table:
    """Seat 0 to discard in classic: two melds, the JH JS 10H that hold together, and
    two loose cards, the KD (its partners unseen) and the 6H (its partners all under
    the top discard, 2S). Five cards outside melds: too far from going out for the
    rummy's hold or the throw for outs to choose the card."""
    board = table(
        ["2C 3C 4C 7D 8D 9D JH JS 10H KD 6H", 10],
        discard=f"{PILE} 2S",
        phase=Phase.PLAY,
        turn=0,
        rules=rules,
    )
    hand = board.hand
    assert hand is not None
    if stock is not None:
        hand.discard[:0] = hand.stock[stock:]
        del hand.stock[stock:]
    return board


def test_every_view_but_500_rums_shows_the_pile_under_its_top() -> None:
    board = dead_six()
    for seat in (0, 1):
        assert view_for(board, seat).pile_below == PILE.split()
    bot = BotView.read(view_for(board))
    assert bot.below == tuple(cards(PILE))
    assert bot.pile == ()  # read at every level in Gin and 500 Rum only
    # 500 Rum shows its whole pile in `discard_pile` instead.
    rules = RuleSet.from_dict({"variant": "rummy500"}, players=2)
    spread = no_peek._position(rules, 2, "remember/500")
    assert spread.hand is not None
    view = view_for(spread, spread.hand.to_act())
    assert view.pile_below is None
    assert view.discard_pile == [c.code for c in spread.hand.discard]


def test_a_seat_that_remembers_counts_the_pile_as_seen_until_the_stock_nears_its_end():
    bot = BotView.read(view_for(dead_six()))
    assert set(cards(PILE)) <= bot.unseen
    remembering = bot.remembering()
    assert remembering.remembered == tuple(cards(PILE))
    assert not set(cards(PILE)) & remembering.unseen
    assert remembering.unseen == bot.unseen - set(cards(PILE))

    # The pile turns over into the stock when it runs out: live again near the end.
    near_end = BotView.read(view_for(dead_six(stock=REMEMBER_STOCK - 1))).remembering()
    assert near_end.stock_count == REMEMBER_STOCK - 1
    assert near_end.remembered == ()
    assert set(near_end.below) <= near_end.unseen


def test_a_remembered_pile_is_out_of_the_pool_and_buried_in_every_sample() -> None:
    view = view_for(dead_six())
    bot = BotView.read(view)
    forgetting = Unknown.of(view, bot)
    remembering = Unknown.of(view, bot.remembering())
    assert set(cards(PILE)) <= set(forgetting.pool)
    assert sorted(remembering.pool + tuple(cards(PILE)), key=lambda c: c.sort_key) == list(
        forgetting.pool
    )
    assert remembering.buried_count == forgetting.buried_count == len(cards(PILE))
    for seed in range(5):
        deal = remembering.sample(Random(seed))
        assert sorted(deal.buried, key=lambda c: c.sort_key) == sorted(
            cards(PILE), key=lambda c: c.sort_key
        )
        assert not set(cards(PILE)) & {c for held in deal.hands.values() for c in held}


def test_basics_throw_is_a_dead_card_only_when_it_remembers_it_is_dead() -> None:
    bot = BotView.read(view_for(dead_six()))
    # Neither card fits anything held; the king counts more, but the six is dead.
    assert basic.loose_discard(bot, Random(1))[0] == card("KD")
    assert basic.loose_discard(bot.remembering(), Random(1))[0] == card("6H")


def test_classics_expert_remembers_the_pile_and_strong_does_not() -> None:
    view = view_for(dead_six())
    # Both hold their melds back (western_hold) and throw a loose card instead.
    assert play_strong(view, Random(2)) == Discard(card("KD"))
    assert play_expert(view, Random(2)) == Discard(card("6H"))


@pytest.mark.parametrize(
    ("variant", "remembers"),
    [("classic", True), ("boathouse", True), ("wrotham", True), ("wild", False)],
)
def test_expert_remembers_in_the_western_games_it_was_measured_in(
    variant: str, remembers: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = basic.basic_move

    def spy(bot: BotView, rng: Random):
        seen.append(bot.remembers)
        return real(bot, rng)

    monkeypatch.setattr("service.bots.search.western.basic_move", spy)
    rules = RuleSet.from_dict({"variant": variant}, players=2)
    view = view_for(dead_six(rules))
    play_strong(view, Random(3))
    play_expert(view, Random(3))
    assert seen == [False, remembers]


@pytest.mark.parametrize(("format_", "remembers"), [("deals", True), ("points", False)])
def test_indians_expert_samples_from_a_remembered_pile_in_deals(
    format_: str, remembers: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = Unknown.of

    def spy(view: GameView, bot: BotView) -> Unknown:
        seen.append(bot.remembers)
        return real(view, bot)

    monkeypatch.setattr(Unknown, "of", staticmethod(spy))
    rules = RuleSet.from_dict({"variant": "indian", "format": format_}, players=2)
    for number in range(20):
        board = no_peek._position(rules, 2, f"remember/{number}")
        assert board.hand is not None
        view = view_for(board, board.hand.to_act())
        assert view.legal is not None
        if view.legal.draw:
            continue  # the search samples for the discard
        play_strong(view, Random(4))
        play_expert(view, Random(4))
        assert seen == [False, remembers]
        return
    pytest.fail("no Indian position to discard from")
