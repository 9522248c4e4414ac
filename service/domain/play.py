"""Playing a turn's actions on a table: decide, record, and let the rest follow."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import concealed
from service.domain.actions import Action, LayOff, Meld, Swap
from service.domain.decks import DeckSource
from service.domain.errors import MeldOnlyGoingOut, MustDiscardLast
from service.domain.events import Event, apply
from service.domain.flow import Record, settle
from service.domain.state import Table
from service.domain.turns import decide


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
    action in it is refused: the events before it have been applied.
    """
    listed = going_out_list(table, seat, actions, decks)
    recorder = _Recorder(table, record)
    hand_number = table.hand_number
    for action in actions:
        for event in decide(table, seat, action, decks, hand_number, going_out_list=listed):
            recorder(event)
        settle(table, decks, recorder)
    return recorder.events


def going_out_list(table: Table, seat: int, actions: Sequence[Action], decks: DeckSource) -> bool:
    """Whether `actions` are a concealed turn's going-out list; raise if they meld,
    lay off or swap in a concealed turn without going out.

    The list is tried on a copy first, so a refused one changes nothing (and its
    first refused action gives the error, as it would played for real).
    """
    if not concealed.is_concealed(table) or not any(
        isinstance(action, Meld | LayOff | Swap) for action in actions
    ):
        return False
    trial = table.copy()
    hand_number = trial.hand_number
    for action in actions:
        for event in decide(trial, seat, action, decks, hand_number, going_out_list=True):
            apply(trial, event)
        settle(trial, decks, lambda event: apply(trial, event))
    last = trial.last_hand
    if last is not None and last.hand_number == hand_number and last.out_seat == seat:
        return True
    hand = trial.hand
    if (
        concealed.wants_discard_last(table)
        and hand is not None
        and hand.number == hand_number
        and len(hand.hands[seat]) == 1
        and hand.turn == seat
    ):
        raise MustDiscardLast(
            "Going out in a concealed deal ends with a discard: these actions meld all "
            "your cards but one, so discard it in the same list."
        )
    raise MeldOnlyGoingOut(
        "This hand is played concealed: melds, lay-offs and swaps are made only in the "
        "one list of actions that goes out, and these actions leave cards in your hand."
    )


def start(table: Table, decks: DeckSource, record: Record | None = None) -> list[Event]:
    """Record what follows by itself now (the first deal once every seat is taken)."""
    recorder = _Recorder(table, record)
    settle(table, decks, recorder)
    return recorder.events
