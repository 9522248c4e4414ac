"""The turn, whatever the game: what a seat may do now, and the events a move makes.

Each question goes to the game's engine (`Table.engine`, from `engine_for`): the
Western family's turn (`western/turn.py`) or Indian Rummy's (`indian/turn.py`). There,
every rule is written once, as a `*_problem` function that returns the error a
move would raise (or None): `verify` raises it, `legal_moves` keeps the
candidates that have none, so what a view offers and what the engine accepts
can never disagree.
"""

from __future__ import annotations

from service.domain.actions import Action, Draw
from service.domain.checks import count_problem
from service.domain.decks import DeckSource
from service.domain.enum_members import PLAYING as _PLAYING
from service.domain.errors import HandOver, IllegalMove
from service.domain.events import Event
from service.domain.legal import LegalMoves
from service.domain.state import Table


def action_problem(
    table: Table, seat: int, action: Action, *, going_out_list: bool = False
) -> IllegalMove | None:
    """The error `action` by `seat` would raise now, or None if it is legal.

    `going_out_list`: the action belongs to a request that goes out, as `play` has
    checked (the only place a concealed turn allows melds, lay-offs and swaps).
    A draw's `count` is judged here, for every engine (`checks.count_problem`).
    """
    if type(action) is Draw and action.count != 1:
        problem = count_problem(table, action.source, action.count)
        if problem is not None:
            return problem
    return table.engine.action_problem(table, seat, action, going_out_list=going_out_list)


def verify(table: Table, seat: int, action: Action, *, going_out_list: bool = False) -> None:
    problem = action_problem(table, seat, action, going_out_list=going_out_list)
    if problem is not None:
        raise problem


def is_legal(table: Table, seat: int, action: Action) -> bool:
    return action_problem(table, seat, action) is None


def legal_moves(table: Table, seat: int) -> LegalMoves:
    """Every move `seat` may make now, from the same checks that enforce them."""
    return table.engine.legal_moves(table, seat)


def decide(
    table: Table,
    seat: int,
    action: Action,
    decks: DeckSource,
    hand_number: int | None = None,
    *,
    going_out_list: bool = False,
) -> list[Event]:
    """Check `action` and return the events it makes (before any automatic follow-up).

    `hand_number`, when given, is the hand the caller means to play in: a list
    of actions must not spill over into the next hand. `going_out_list`: see
    `action_problem`.
    """
    if hand_number is not None and table.status is _PLAYING and table.hand_number != hand_number:
        raise HandOver(
            f"Hand {hand_number} is over: an earlier action ended it, "
            f"so nothing more can be played in it."
        )
    problem = action_problem(table, seat, action, going_out_list=going_out_list)
    if problem is not None:
        raise problem
    return table.engine.decide(table, seat, action, decks)
