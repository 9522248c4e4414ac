"""The caps on a game's length (docs/rules.md "Caps"): when reaching one ends the
game as `game_aborted` (`by: "cap"`).

Two rules abort a game: `max_hands`, the most hands dealt, and `max_events`, the
most events the game holds. (`max_turns` ends a hand, not the game: the hand ends
as if the stock ran out, as docs/rules.md "Running out of stock" says; `target`
and `deals` are bounded when the game is created.) Both are looked at only where
the rules are free to stop a game without cutting a request in two: before a hand
would be dealt, and, for `max_events`, when a turn is about to begin (the hand
waits for a draw).
So a request's actions never meet an abort half-way, and the verifier, which
asks `flow.next_event` at the same points, finds the abort where the service
recorded it.

A game stored before the caps has none (`RuleSet.max_hands` and `max_events`
are None) and plays on as it was made.
"""

from __future__ import annotations

from service.domain.events import GameAborted
from service.domain.state import AbortedBy, Table


def before_deal(table: Table) -> GameAborted | None:
    """The abort that replaces dealing the next hand, if a cap is reached: the game
    has dealt `max_hands` hands and the last did not settle it, or it holds
    `max_events` events."""
    rules = table.rules
    limit = rules.max_hands
    if limit is not None and table.hands_played >= limit:
        return GameAborted(
            by=AbortedBy.CAP,
            reason=f"max_hands: the cap of {limit} hands dealt is reached without a winner.",
        )
    return _events_cap(table)


def before_turn(table: Table) -> GameAborted | None:
    """The abort that replaces the turn about to begin, if the game holds
    `max_events` events."""
    return _events_cap(table)


def _events_cap(table: Table) -> GameAborted | None:
    limit = table.rules.max_events
    # The version: every event applied, and the creation.
    if limit is None or table.events + 1 < limit:
        return None
    return GameAborted(
        by=AbortedBy.CAP,
        reason=f"max_events: the game holds {table.events + 1} events (its cap: {limit}).",
    )
