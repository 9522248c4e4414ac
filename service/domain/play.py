"""Playing a turn's actions on a table: decide, record, and let the rest follow."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain.actions import Action
from service.domain.decks import DeckSource
from service.domain.events import Event, apply
from service.domain.flow import Record, settle
from service.domain.rules import SwappedWild
from service.domain.state import Table
from service.domain.turns import decide
from service.domain.wilds import unused_swapped_wild


class _Recorder:
    """Records each event (by default: applies it to the table) and keeps it."""

    def __init__(self, table: Table, record: Record | None) -> None:
        self.table = table
        self.record = record
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        if self.record is None:
            apply(self.table, event)
        else:
            self.record(event)
        self.events.append(event)


def play(
    table: Table,
    seat: int,
    actions: Sequence[Action],
    decks: DeckSource,
    record: Record | None = None,
) -> list[Event]:
    """Play `actions` by `seat` in order, with every automatic event after each.

    `record` must apply each event to `table` (by default it does just that).
    A list is all or nothing only if the caller throws the table away when an
    action in it is refused: the events before it have been applied. The same holds
    for a list refused as a whole (`swapped_wild_unused`, once it has been played).
    """
    recorder = _Recorder(table, record)
    hand_number = table.hand_number
    for action in actions:
        for event in decide(table, seat, action, decks, hand_number):
            recorder(event)
        settle(table, decks, recorder)
    if table.rules.swapped_wild is SwappedWild.MELD_NOW:
        unused = unused_swapped_wild(recorder.events, seat)
        if unused is not None:
            raise unused
    return recorder.events


def start(table: Table, decks: DeckSource, record: Record | None = None) -> list[Event]:
    """Record what follows by itself now (the first deal once every seat is taken)."""
    recorder = _Recorder(table, record)
    settle(table, decks, recorder)
    return recorder.events
