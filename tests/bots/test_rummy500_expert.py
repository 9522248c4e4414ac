"""500 Rum's `expert` (`search/rummy500_expert.py`): its deals are modelled on the
public pile (the seat that threw the top card did not dig beneath it), and a card
held costs more as the public counts bring the hand's end near."""

from __future__ import annotations

from random import Random

import pytest

from service.bots.search import rummy500_expert
from service.bots.search.budget import Budget
from service.bots.search.rummy500_expert import Plans, end_weight, modelled_deals
from service.bots.search.unknown import Unknown
from service.bots.view import BotView
from service.domain.rules import RuleSet
from service.domain.state import Phase
from tests.bots.tables import table, view_for

RULES = RuleSet.from_dict({"variant": "rummy500"}, players=2)
GUARD = Budget(samples=1, cap_seconds=1e9).guard()


def _position(phase: Phase = Phase.DRAW) -> tuple[BotView, Unknown]:
    # Seat 1 threw 2C onto 7H 8H: any hand of its that held 6H or 9H (or two more
    # sevens or eights) would have dug for 7H and melded it.
    board = table(
        ["3S 4D 5C 9S JD QC KS 2D 4S 6C 8C 10D JS", 13],
        discard="7H 8H 2C",
        phase=phase,
        rules=RULES,
    )
    view = view_for(board, 0)
    bot = BotView.read(view)
    return bot, Unknown.of(view, bot)


def test_modelled_deals_give_the_thrower_no_hand_that_would_have_dug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rummy500_expert, "TRIES", 200)
    bot, unknown = _position()
    plans = Plans(bot)
    under, top = bot.pile[:-1], bot.pile[-1]
    uniform = [unknown.sample(Random(seed)) for seed in range(40)]
    # Uniform deals often give seat 1 such a hand: the model has work to do.
    assert any(plans.dig((*deal.hands[1], top), under)[0] > 0 for deal in uniform)
    deals = modelled_deals(unknown, bot, plans, Random(0), 40, GUARD)
    assert len(deals) == 40
    for deal in deals:
        assert plans.dig((*deal.hands[1], top), under)[0] <= 0
        # Still a deal of the unseen cards: every one placed once.
        placed = [*deal.hands[1], *deal.stock, *deal.buried]
        assert sorted(c.code for c in placed) == sorted(c.code for c in unknown.pool)


def test_a_held_card_costs_more_as_the_hand_s_end_nears() -> None:
    early, _ = _position()
    assert end_weight(early) == rummy500_expert.LEFTOVER_WEIGHT
    dry = table(["3S 4D 5C 9S JD QC KS 2D 4S 6C 8C 10D JS", 13], discard="7H 8H 2C", rules=RULES)
    hand = dry.hand
    assert hand is not None
    # Two cards left in the stock: this seat draws once more at most.
    hand.out_of_play.extend(hand.stock[:-2])
    del hand.stock[:-2]
    late = BotView.read(view_for(dry, 0))
    assert rummy500_expert.LEFTOVER_WEIGHT < end_weight(late) <= 1
    # A seat down to three cards may go out next turn: as near.
    short = table(["3S 4D 5C 9S JD QC KS 2D 4S 6C 8C 10D JS", 3], discard="7H 8H 2C", rules=RULES)
    assert end_weight(BotView.read(view_for(short, 0))) == end_weight(late)
