"""`Table.copy`: the application copies a cached game before every command (and the
command changes only the copy), so the copy must equal the table, field for field,
and share no list a move changes."""

from __future__ import annotations

import dataclasses
import random

import pytest

from service.domain.rules import RuleSet
from service.domain.state import HandState, Table
from tests.domain.tables import random_legal_action, seated_game

MOVES = 60


def _mutable_fields(value: object) -> list[str]:
    return [
        each.name
        for each in dataclasses.fields(value)  # type: ignore[arg-type]
        if isinstance(getattr(value, each.name), list)
    ]


@pytest.mark.parametrize("variant", ["classic", "boathouse", "knock"])
def test_a_copy_equals_the_table_and_shares_no_list(variant: str) -> None:
    rules = RuleSet.from_dict({"variant": variant})
    game = seated_game(rules, players=3)
    rng = random.Random(7)
    checked = 0
    for _ in range(MOVES):
        copied = game.table.copy()
        assert copied == game.table
        assert type(copied) is Table
        for name in _mutable_fields(game.table):
            assert getattr(copied, name) is not getattr(game.table, name), name
        hand, copied_hand = game.table.hand, copied.hand
        if hand is None or copied_hand is None:
            break
        assert type(copied_hand) is HandState
        for name in _mutable_fields(hand):
            assert getattr(copied_hand, name) is not getattr(hand, name), name
        for held, copied_held in zip(hand.hands, copied_hand.hands, strict=True):
            assert copied_held is not held
        for meld, copied_meld in zip(hand.melds, copied_hand.melds, strict=True):
            assert copied_meld is not meld
            assert copied_meld.cards is not meld.cards
        # A move on the copy leaves the table as it was.
        before = game.table.copy()
        seat, action = random_legal_action(copied, rng)
        game_of_copy = dataclasses.replace(game, table=copied, events=[])
        game_of_copy.act(seat, action)
        assert game.table == before
        game.act(seat, action)
        assert game.table == copied
        checked += 1
    assert checked >= 10, "moves checked"
