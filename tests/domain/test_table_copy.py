"""The table's hand-written copy (`Table.copy`, which `Table.__deepcopy__` and so the
unit of work's `Game.__deepcopy__` use) against the library's own path: a copy that
shares nothing mutable with the original and equals it field by field, in every
variant's table mid-hand (the variants' own fields and sub-records included)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from service.domain.actions import Action, Discard, Draw, Meld, SubmitGroups
from service.domain.decks import SeededDecks
from service.domain.play import play
from service.domain.state import Table
from service.domain.turns import legal_moves
from tests.domain.tables import VARIANT_RULES, dealt_table


def _mid_hand(variant: str, steps: int) -> Table:
    """A table after `steps` moves of a plain player: draw, meld when it can (with
    wilds, a meld holding one), else discard the first card it may."""
    table, decks = dealt_table(variant, "copy")
    rules = table.rules
    for _ in range(steps):
        hand = table.hand
        assert hand is not None
        seat = hand.to_act()
        moves = legal_moves(table, seat)
        action: Action
        if moves.draw:
            action = Draw(moves.draw[0])
        elif moves.meld_readings:  # a meld holding a wild, read as the rules found it
            action = Meld(*moves.meld_readings[0])
        elif moves.melds and not rules.has_wilds:
            action = Meld(moves.melds[0])
        elif moves.can_submit:
            action = SubmitGroups((tuple(hand.hands[seat]),))
        else:
            action = Discard(moves.discard[0])
        play(table, seat, (action,), decks)
        if table.hand is None or table.over:
            break
    assert table.hand is not None, "still mid-hand"
    assert not table.over
    return table


def _mutable_ids(value: object, found: dict[int, str], path: str = "table") -> None:
    """Every mutable object reachable from `value` (lists, dicts, sets, dataclasses
    that are not frozen), by id, with the path it was found at."""
    if isinstance(value, list | dict | set):
        found[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            _mutable_ids(item, found, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            _mutable_ids(item, found, f"{path}[{index}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and not params.frozen:
            found[id(value)] = path
        for field in dataclasses.fields(value):
            _mutable_ids(getattr(value, field.name), found, f"{path}.{field.name}")


@pytest.mark.parametrize("variant", VARIANT_RULES)
@pytest.mark.parametrize("steps", [3, 12])
def test_the_fast_copy_equals_the_original_and_the_librarys_deep_copy(
    variant: str, steps: int
) -> None:
    table = _mid_hand(variant, steps)
    fast = table.copy()
    # The library's own path: pickle copies every object anew, ignoring `__deepcopy__`.
    reference = pickle.loads(pickle.dumps(table))
    assert fast == table
    assert fast == reference
    assert copy.deepcopy(table) == reference
    for field in dataclasses.fields(Table):
        assert getattr(fast, field.name) == getattr(reference, field.name), field.name


@pytest.mark.parametrize("variant", VARIANT_RULES)
def test_the_fast_copy_shares_nothing_mutable_with_the_original(variant: str) -> None:
    table = _mid_hand(variant, 12)
    fast = table.copy()
    original: dict[int, str] = {}
    copied: dict[int, str] = {}
    _mutable_ids(table, original)
    _mutable_ids(fast, copied)
    shared = sorted(copied[each] for each in copied.keys() & original.keys())
    assert shared == []


@pytest.mark.parametrize("variant", VARIANT_RULES)
def test_playing_on_the_copy_leaves_the_original_as_it_was(variant: str) -> None:
    table = _mid_hand(variant, 5)
    before = pickle.loads(pickle.dumps(table))
    fast = table.copy()
    rules = fast.rules
    decks = SeededDecks(seed="copy", client_seeds=("", ""), pack=rules.pack)
    for _ in range(6):
        hand = fast.hand
        if hand is None or fast.over:
            break
        seat = hand.to_act()
        moves = legal_moves(fast, seat)
        action: Action = Draw(moves.draw[0]) if moves.draw else Discard(moves.discard[0])
        if not moves.draw and not moves.discard:
            break
        play(fast, seat, (action,), decks)
    assert table == before
