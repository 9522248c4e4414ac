"""Playing a request's actions on a table: decide, record, let the rest follow, and the rules
that bind a whole request (a concealed going-out list; a `meld_now` swap's wild)."""

from __future__ import annotations

from collections.abc import Sequence

from service.domain import concealed
from service.domain.actions import Action, Discard, LayOff, Meld, Swap
from service.domain.changes import apply
from service.domain.decks import DeckSource
from service.domain.enum_members import MELD_NOW as _MELD_NOW
from service.domain.errors import MeldOnlyGoingOut, MustDiscardLast
from service.domain.events import Event
from service.domain.flow import Record, settle
from service.domain.state import Table
from service.domain.table_wilds import unused_swapped_wild
from service.domain.turns import action_problem, decide


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
    listed = going_out_list(table, seat, actions, decks)
    recorder = _Recorder(table, record)
    hand_number = table.hand_number
    for action in actions:
        for event in decide(table, seat, action, decks, hand_number, going_out_list=listed):
            recorder(event)
        settle(table, decks, recorder)
    if table.rules.swapped_wild is _MELD_NOW:
        unused = unused_swapped_wild(recorder.events, seat)
        if unused is not None:
            raise unused
    return recorder.events


def going_out_list(table: Table, seat: int, actions: Sequence[Action], decks: DeckSource) -> bool:
    """Whether `actions` are a concealed turn's going-out list; raise if they meld,
    lay off or swap in a concealed turn without going out.

    The list is tried on a copy, so a refused one changes nothing. Its first meld,
    lay-off or swap is checked as on its own (whose turn, which phase); then a list
    that cannot take every card is refused as it stands, and one that can is played
    out, where its first refused action gives the error.
    """
    if not concealed.is_concealed(table) or not any(
        isinstance(action, Meld | LayOff | Swap) for action in actions
    ):
        return False
    trial = table.copy()
    hand_number = trial.hand_number
    counted = False
    for index, action in enumerate(actions):
        if not counted and isinstance(action, Meld | LayOff | Swap):
            problem = action_problem(trial, seat, action)
            # In a concealed turn the action alone is refused: by the turn checks,
            # or else for being outside a going-out list.
            assert problem is not None, "a concealed turn refuses it alone"
            if not isinstance(problem, MeldOnlyGoingOut):
                raise problem
            _count_problem(trial, seat, actions[index:], problem)
            counted = True
        for event in decide(trial, seat, action, decks, hand_number, going_out_list=True):
            apply(trial, event)
        settle(trial, decks, lambda event: apply(trial, event))
    last = trial.last_hand
    if last is None or last.hand_number != hand_number or last.out_seat != seat:
        raise MeldOnlyGoingOut(
            "This hand is played concealed: these actions do not go out, so they may "
            "not meld, lay off or swap."
        )
    return True


def _count_problem(
    table: Table, seat: int, actions: Sequence[Action], refused: MeldOnlyGoingOut
) -> None:
    """Raise unless `actions` could take every card of `seat`'s hand."""
    hand = table.hand
    assert hand is not None, "checked by action_problem"
    left = len(hand.hands[seat]) - concealed.cards_spent(actions)
    discards = sum(isinstance(action, Discard) for action in actions)
    if left == 1 and discards == 0 and concealed.wants_discard_last(table):
        raise MustDiscardLast(
            "Going out in a concealed deal ends with a discard: these actions meld all "
            "your cards but one, so discard it in the same list."
        )
    if left > 0:
        raise refused


def start(table: Table, decks: DeckSource, record: Record | None = None) -> list[Event]:
    """Record what follows by itself now (the first deal once every seat is taken)."""
    recorder = _Recorder(table, record)
    settle(table, decks, recorder)
    return recorder.events
