"""How a bot splits a hand into melds, lay-offs and deadwood."""

from __future__ import annotations

from random import Random

from hypothesis import given
from hypothesis import strategies as st

from service.bots.melding import best_cover, layable
from service.domain import melds
from service.domain.cards import FULL_DECK
from service.domain.melds import MeldKind, TableMeld
from service.domain.rule_values import Aces
from service.domain.rules import RuleSet
from tests.bots.tables import cards

CLASSIC = RuleSet()


def run_on_table(codes: str, meld_id: str = "h1-m1") -> TableMeld:
    return TableMeld(id=meld_id, kind=MeldKind.RUN, cards=cards(codes), owner=1)


def test_the_cover_melds_all_it_can_and_leaves_the_rest():
    cover = best_cover(cards("2C 3C 4C 7D 7H 7S KH 9D"), CLASSIC)
    assert sorted(map(set, cover.melds), key=len) == [
        set(cards("2C 3C 4C")),
        set(cards("7D 7H 7S")),
    ]
    assert set(cover.deadwood) == set(cards("KH 9D"))
    assert cover.points == 19


def test_the_cover_leaves_the_fewest_cards_then_the_fewest_points():
    # 5C joins the run 3C-5C (leaving 5D 5H) or the set of fives (leaving 3C 4C):
    # two cards either way, so the cheaper pair is left.
    cover = best_cover(cards("3C 4C 5C 5D 5H"), CLASSIC)
    assert set(cover.deadwood) == set(cards("3C 4C"))
    # The run 4C-7C leaves 5D 5H; the set of fives would strand 4C 6C 7C.
    cover = best_cover(cards("4C 5C 6C 7C 5D 5H"), CLASSIC)
    assert set(cover.deadwood) == set(cards("5D 5H"))


def test_lay_offs_follow_a_chain_through_the_hand():
    table = [run_on_table("2H 3H 4H")]
    assert layable(cards("5H 6H 8H KC"), table, CLASSIC) == frozenset(cards("5H 6H"))
    cover = best_cover(cards("5H 6H 8H KC"), CLASSIC, layable(cards("5H 6H 8H KC"), table, CLASSIC))
    assert set(cover.laid_off) == set(cards("5H 6H"))
    assert set(cover.deadwood) == set(cards("8H KC"))


def test_the_ace_rule_decides_what_a_run_may_take():
    table = [run_on_table("JS QS KS")]
    assert layable(cards("AS"), table, CLASSIC) == frozenset()
    high = RuleSet.from_dict({"aces": "high_or_low"})
    assert layable(cards("AS"), table, high) == frozenset(cards("AS"))


@given(
    seed=st.integers(0, 10_000),
    size=st.integers(0, 14),
    aces=st.sampled_from(list(Aces)),
)
def test_a_cover_accounts_for_every_card_once_with_real_melds(seed: int, size: int, aces: Aces):
    rules = RuleSet.from_dict({"aces": aces.value})
    hand = Random(seed).sample(FULL_DECK, size)
    cover = best_cover(hand, rules)
    placed = [card for meld in cover.melds for card in meld] + list(cover.deadwood)
    assert sorted(placed, key=lambda c: c.sort_key) == sorted(hand, key=lambda c: c.sort_key)
    assert all(melds.is_meld(meld, aces) for meld in cover.melds)
    assert not cover.laid_off
    # Nothing left over could still make a meld of its own.
    assert melds.possible_melds(list(cover.deadwood), aces) == []
    # The order the hand is held in changes nothing.
    assert best_cover(list(reversed(hand)), rules) == cover
