"""Gin Rummy's searches against the brute-force oracle (tests/domain/gin_oracle.py)
on random hands: the least deadwood of a hand, and the defender's least deadwood
after its lay-offs on the knocker's melds; and the result the search shows is a
real one (its melds are melds, its lay-offs extend the knocker's melds in order,
its cards are the hand's, its count their value)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, Card
from service.domain.gin import deadwood
from service.domain.melds import is_meld
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from service.domain.scoring import hand_value
from tests.domain import gin_oracle

RULES = RuleSet.from_dict({"variant": "gin"}, players=2)


def plain(cards: list[Card] | tuple[Card, ...]) -> list[gin_oracle.Plain]:
    return [(card.rank.value, card.suit.value) for card in cards]


@st.composite
def crowded_deals(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    """Two hands of ten from a narrow band of ranks, where melds and lay-offs are
    common (a whole pack rarely gives the defender anything to lay off)."""
    low = draw(st.integers(1, 7))
    band = [card for card in FULL_DECK if low <= card.rank.value < low + 7]
    dealt = draw(st.permutations(band))[:20]
    return list(dealt[:10]), list(dealt[10:])


@settings(max_examples=150, deadline=None)
@given(crowded_deals())
def test_the_least_deadwood_is_the_brute_force_s(deal: tuple[list[Card], list[Card]]) -> None:
    hand, _ = deal
    assert deadwood.least(hand, RULES).count == gin_oracle.least_deadwood(plain(hand))


@settings(max_examples=150, deadline=None)
@given(crowded_deals())
def test_the_defender_s_lay_offs_leave_the_brute_force_s_least(
    deal: tuple[list[Card], list[Card]],
) -> None:
    knocker_hand, defender = deal
    knocker = deadwood.least(knocker_hand, RULES).melds
    found = deadwood.defend(defender, knocker, RULES)
    assert found.count == gin_oracle.defender_deadwood(plain(defender), [plain(m) for m in knocker])
    # What it shows adds up: its own melds, its lay-offs and its deadwood are the hand.
    laid = [each.card for each in found.laid_off]
    shown = [card for meld in found.melds for card in meld] + laid + list(found.deadwood)
    assert sorted(shown, key=lambda card: card.sort_key) == sorted(
        defender, key=lambda card: card.sort_key
    )
    assert all(is_meld(meld, Aces.LOW) for meld in found.melds)
    assert found.count == hand_value(found.deadwood, RULES)
    # Each lay-off, in the order shown, extends its meld as it stands by then.
    grown = [list(meld) for meld in knocker]
    for each in found.laid_off:
        grown[each.meld].append(each.card)
        assert is_meld(grown[each.meld], Aces.LOW), each


def test_a_chain_of_lay_offs_is_found() -> None:
    # 8H then 9H on 5H 6H 7H: 9H alone would not fit.
    knocker = ((Card.parse("5H"), Card.parse("6H"), Card.parse("7H")),)
    codes = ["9H", "8H", "KS", "QD", "JC", "2C", "4D", "6S", "10C", "3S"]
    defender = [Card.parse(code) for code in codes]
    found = deadwood.defend(defender, knocker, RULES)
    assert [(each.card.code, each.meld) for each in found.laid_off] == [("8H", 0), ("9H", 0)]
