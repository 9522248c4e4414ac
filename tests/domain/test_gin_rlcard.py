"""An outside oracle: RLCard's gin rummy utilities (`rlcard`, a test-only
dependency) agree with our least deadwood on thousands of random hands.

RLCard's deadwood functions take exactly ten cards, so each eleven-card hand (a
hand after its draw) is compared through every card it could throw: ten left, its
best meld clusters (`melding.get_best_meld_clusters`, sets of 3-4, runs of 3+,
ace low) and their deadwood count (`utils.get_deadwood_count`, J Q K 10), against
`gin.deadwood.least` of the same ten. A fixed seed keeps the hands the same run
after run.
"""

from __future__ import annotations

import random

from rlcard.games.gin_rummy.utils import melding
from rlcard.games.gin_rummy.utils import utils as rl_utils

from service.domain.cards import FULL_DECK, Card
from service.domain.gin import deadwood
from service.domain.rules import RuleSet

RULES = RuleSet.from_dict({"variant": "gin"}, players=2)
HANDS = 2000
"""Eleven-card hands compared (each through its eleven throws: 22,000 ten-card hands)."""


def _rlcard_card(card: Card) -> object:
    rank = "T" if card.rank.value == 10 else card.rank.code
    return rl_utils.card_from_text(f"{rank}{card.suit.value}")


def _rlcard_deadwood(hand: list[Card]) -> int:
    cards = [_rlcard_card(card) for card in hand]
    best = melding.get_best_meld_clusters(cards)
    if not best:  # no meld at all: everything is deadwood
        return sum(rl_utils.get_deadwood_value(card) for card in cards)
    return int(rl_utils.get_deadwood_count(cards, best[0]))


def _hands(rng: random.Random) -> list[list[Card]]:
    """Half from the whole pack, half from a band of seven ranks (melds common)."""
    hands = []
    for index in range(HANDS):
        if index % 2:
            low = rng.randint(1, 7)
            pool = [card for card in FULL_DECK if low <= card.rank.value < low + 7]
        else:
            pool = list(FULL_DECK)
        hands.append(rng.sample(pool, 11))
    return hands


def test_rlcard_agrees_with_our_least_deadwood_on_every_throw() -> None:
    rng = random.Random(29)
    compared = 0
    for eleven in _hands(rng):
        for thrown in eleven:
            ten = [card for card in eleven if card != thrown]
            ours = deadwood.least(ten, RULES).count
            assert ours == _rlcard_deadwood(ten), [card.code for card in ten]
            compared += 1
    assert compared == HANDS * 11
